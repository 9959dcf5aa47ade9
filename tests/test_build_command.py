"""`connectx build` replaces its own earlier output while unchanged, never a file it did not write or one
edited since unless given --force.

A Kaggle user keeps their own agent in ``submission.py``, the name the ConnectX starter writes, which
is also the name they would give ``-o``: building there must not lose their work without a word.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from connectx.cli.main import main
from connectx.submission.bundler import build_source, read_build_record, written_by_build

USERS_AGENT = "def my_agent(observation, configuration):\n    return 3\n"


def build(capsys: pytest.CaptureFixture[str], *words: str) -> tuple[int, str, str]:
    """``connectx build WORDS``: the exit status, what it printed and what it reported on stderr."""
    status = main(["build", *words])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_it_replaces_a_file_it_wrote_earlier(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "submission.py"
    assert build(capsys, "negamax:depth=2", "-o", str(path))[0] == 0
    status, out, _ = build(capsys, "random:seed=4", "-o", str(path))
    assert status == 0 and f"wrote {path}: random:seed=4" in out
    record = read_build_record(path.read_text())
    assert record is not None and record.spec == "random:seed=4"


@pytest.mark.parametrize("content", [USERS_AGENT.encode(), b"", b"\xff\xfe not text", b"def agent(:\n"])
def test_it_refuses_to_replace_a_file_it_did_not_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    """The user's agent, an empty file, a binary one, broken Python: none is recognisably ours."""

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("the refusal must come before building")

    monkeypatch.setattr("connectx.cli.build.build_bundle", no_build)
    path = tmp_path / "submission.py"
    path.write_bytes(content)
    before = sorted(tmp_path.rglob("*"))
    status, out, err = build(capsys, "negamax", "-o", str(path))
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"connectx build: -o {path} exists and `connectx build` did not write it")
    assert "pass --force to replace it" in err
    assert path.read_bytes() == content and sorted(tmp_path.rglob("*")) == before


def test_it_refuses_to_replace_its_own_output_once_edited(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The digest on a built file's last line tells an edit: the user's tuning of a built file is theirs."""
    path = tmp_path / "submission.py"
    assert build(capsys, "negamax:depth=2", "-o", str(path))[0] == 0
    edited = path.read_text().replace("BUILT_FROM = 'negamax", "BUILT_FROM = 'negamax", 1) + "# my tweak\n"
    path.write_text(edited)
    status, out, err = build(capsys, "random", "-o", str(path))
    assert status == 2 and out == "" and len(err.splitlines()) == 1
    assert "was written by `connectx build` but edited since" in err and "--force" in err
    assert path.read_text() == edited
    assert build(capsys, "random", "-o", str(path), "--force")[0] == 0 and path.read_text() == build_source("random")


def test_force_replaces_a_file_it_did_not_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "submission.py"
    path.write_text(USERS_AGENT)
    assert build(capsys, "random", "-o", str(path), "--force")[0] == 0
    assert path.read_text() == build_source("random")


def test_the_default_output_is_guarded_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "submission.py").write_text(USERS_AGENT)
    status, _, err = build(capsys, "random")
    assert status == 2 and "-o out/submission.py exists" in err
    assert (tmp_path / "out" / "submission.py").read_text() == USERS_AGENT


def test_a_built_file_is_known_by_its_record_whatever_its_name(tmp_path: Path) -> None:
    renamed = tmp_path / "my_bot.py"
    renamed.write_text(build_source("random"))
    assert written_by_build(renamed)
    half = tmp_path / "half.py"  # names one of the record's constants, as a user's file might, but not both
    half.write_text("BUILT_FROM = 'mine'\n" + USERS_AGENT)
    assert not written_by_build(half)
    assert not written_by_build(tmp_path / "missing.py")


def test_the_help_names_force(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["build", "--help"])
    assert stopped.value.code == 0
    assert "--force" in capsys.readouterr().out
