"""``benchmarks.open_board_before_after``: this checkout's agent against a revision's, resumed, bad input refused."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.open_board_before_after import main

REPO = Path(__file__).resolve().parents[1]
QUICK = ("--agent", "solver:time_budget=0.02", "--boards", "5x4/3", "--games", "2", "--step", "2", "--jobs", "1")


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_benchmark(run_main: Callable[[Callable[[list[str]], int]], Run]) -> Run:
    """The benchmark's ``main`` in this process (see ``conftest.run_main``)."""
    return run_main(main)


@pytest.mark.games
def test_plays_both_revisions_keeps_the_games_and_resumes_without_playing_them_again(
    run_benchmark: Run, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    run = run_benchmark("--before", "HEAD", "--out", str(out), *QUICK)
    assert run.returncode == 0, run.stderr
    assert "| 5x4/3 | 2 |" in run.stdout and "| **total** | 2 |" in run.stdout
    assert "1 job;" in run.stdout
    # stderr is a pipe here, as in a log file: a line a game, no carriage-return redraws piling up
    assert "\r" not in run.stderr
    assert [line.split("] ")[1].split(",")[0] for line in run.stderr.splitlines()] == ["1/2 games", "2/2 games"]
    games = out / "5x4-3" / "games.jsonl"
    assert len(games.read_text().splitlines()) == 2
    first_line = subprocess.run(
        ["git", "show", "HEAD:connectx/agents/search/open_board_play.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()[0]
    assert first_line in (out / "before.py").read_text()  # the revision's code, bundled
    stored = games.read_text()
    run = run_benchmark("--before", "HEAD", "--out", str(out), "--resume", *QUICK)
    assert run.returncode == 0, run.stderr
    assert "| 5x4/3 | 2 |" in run.stdout
    assert games.read_text() == stored


@pytest.mark.games
def test_a_resume_whose_working_tree_built_another_agent_is_refused_and_nothing_is_written(
    run_benchmark: Run, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    assert run_benchmark("--before", "HEAD", "--out", str(out), *QUICK).returncode == 0
    after = out / "after.py"
    after.write_text(after.read_text() + "\n# an edit\n")
    contents = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    run = run_benchmark("--before", "HEAD", "--out", str(out), "--resume", *QUICK)
    assert run.returncode == 2
    assert "was built from other code than this working tree's" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == contents
    # The last commit that edited the solver, in either layout (before and after it moved into connectx/).
    last_change = subprocess.run(
        [
            "git",
            "log",
            "-1",
            "--format=%H",
            "--diff-filter=M",
            "--",
            "connectx/agents/players/solver_agent.py",
            "agents/players/solver_agent.py",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    run = run_benchmark("--before", f"{last_change}^", "--out", str(out), "--resume", *QUICK)  # another solver
    assert run.returncode == 2 and "before.py was built from other code than" in run.stderr
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == contents
    run = run_benchmark("--before", "HEAD", "--out", str(out), *QUICK)
    assert run.returncode == 2 and "exists; continue it with --resume" in run.stderr


def test_bad_input_is_one_line_with_exit_2_and_writes_nothing(run_benchmark: Run, tmp_path: Path) -> None:
    out = tmp_path / "run"
    for arguments, message in (
        (("--before", "no-such-revision"), "not a commit of this repository"),
        (("--before", "HEAD", "--agent", "solver:depth=3"), "building solver:depth=3"),
        (("--before", "HEAD", "--boards", "8x7"), "expected COLUMNSxROWS/INAROW"),
        (("--before", "HEAD", "--games", "3"), "give even numbers"),
    ):
        run = run_benchmark(*arguments, "--out", str(out))
        assert run.returncode == 2, arguments
        assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert not out.exists()
