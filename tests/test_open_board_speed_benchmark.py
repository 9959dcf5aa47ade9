"""``benchmarks.open_board_speed``: the same positions searched by two versions of the code, compared."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from benchmarks.open_board_speed import Job, comparison, main, measure_both, same_search
from benchmarks.revisions import checkout_of, commit_of

JOB = Job("8x7/4", games=1, plies=10, depth=4)


@pytest.fixture(scope="module")
def head(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """HEAD's files: code whose search is fixed, whatever the working tree holds while the tests run."""
    copy = tmp_path_factory.mktemp("head")
    with checkout_of(commit_of("HEAD")) as checkout:
        return package_tree(checkout / "connectx" / "agents", copy)


def package_tree(agents: Path, into: Path) -> Path:
    """``into`` holding a copy of ``agents`` importable as ``connectx.agents``, as in the repository."""
    shutil.copytree(agents, into / "connectx" / "agents")
    (into / "connectx" / "__init__.py").write_text("")
    return into


def changed_search(head: Path, into: Path) -> Path:
    """A copy of ``head`` whose search reduces from the third move of a node instead of the fourth."""
    package_tree(head / "connectx" / "agents", into)
    module = into / "connectx" / "agents" / "search" / "principal_variation.py"
    source = module.read_text()
    assert "\nREDUCED_FROM = 3\n" in source
    module.write_text(source.replace("\nREDUCED_FROM = 3\n", "\nREDUCED_FROM = 2\n"))
    return into


def test_the_same_code_searches_the_same_and_the_verdict_says_yes(head: Path) -> None:
    after, before = measure_both(JOB, head, head, rounds=2)
    assert len(after) == len(before) == 2 and after[0].nodes > 0
    assert re.fullmatch(r"[0-9a-f]{12}", after[0].digest)
    assert len({(m.nodes, m.digest) for m in after + before}) == 1  # the search is reproducible
    assert same_search(after, before)
    assert re.fullmatch(
        r"\| 8x7/4 \| after / before \| \| [\d.]+ \| \| same search: yes \|", comparison("8x7/4", after, before)
    )


def test_a_changed_search_is_told_apart_and_the_verdict_says_no(head: Path, tmp_path: Path) -> None:
    after, before = measure_both(JOB, changed_search(head, tmp_path), head, rounds=1)
    assert after[0].nodes != before[0].nodes
    assert not same_search(after, before)
    assert comparison("8x7/4", after, before).endswith("| same search: no |")


def test_the_table_has_a_row_for_each_version_and_their_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["--before", "HEAD", "--boards", "8x7/4", "--games", "1", "--plies", "6", "--depth", "3", "--rounds", "1"])
        == 0
    )
    rows = re.findall(r"^\| 8x7/4 \| (.+?) \|", capsys.readouterr().out, re.MULTILINE)
    assert rows == ["this working tree", commit_of("HEAD")[:12], "after / before"]


def test_bad_input_is_one_line_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for arguments, message in (
        (("--before", "no-such-revision"), "not a commit of this repository"),
        (("--boards", "8x7"), "expected COLUMNSxROWS/INAROW"),
        (("--boards", "5x4/3"), "holds no games on it"),
        (("--depth", "0"), "give positive numbers"),
    ):
        assert main(list(arguments)) == 2, arguments
        error = capsys.readouterr().err
        assert message in error and len(error.strip().splitlines()) == 1, error
