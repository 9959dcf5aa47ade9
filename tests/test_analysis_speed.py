"""``benchmarks/analysis_speed.py --games``: the analysis of a recorded run's games, C solver against Python."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from connectx.analysis.solvers import native_unavailable_reason
from connectx.cli.main import main

REPO = Path(__file__).resolve().parents[1]
BOARD = ["--rows", "4", "--columns", "5", "--inarow", "4"]
"""5x4, four in a row: a board the C solver plays other than 7x6, whose every position Python solves at once."""


def run_benchmark(*arguments: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/analysis_speed.py", *map(str, arguments)], cwd=REPO,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.skipif(native_unavailable_reason(4, 5) is not None,
                    reason=f"no C solver: {native_unavailable_reason(4, 5)}")
def test_a_recorded_run_on_another_board_is_analysed_by_both_solvers_alike(tmp_path: Path) -> None:
    games = tmp_path / "match"
    assert main(["match", "random", "kaggle:random", "-n", "2", "--jobs", "1", "--seed", "3", *BOARD,
                 "--out", str(games)]) == 0
    run = run_benchmark("--games", games, "--count", 2, "--seconds", 30, "--out", tmp_path / "bench")
    assert run.returncode == 0, run.stderr
    rows = dict(re.findall(r"^\| (native|python|native, cache warm) \| (.+?) \| [\d.]+ \| [\d.]+ \|$", run.stdout,
                           re.MULTILINE))
    assert set(rows) == {"native", "python", "native, cache warm"}
    # with time enough every position is exact, whichever the solver
    assert rows["native"] == rows["python"] == rows["native, cache warm"]
    assert all(share.strip().startswith("100.0%") for share in rows["native"].split("|") if share.strip() != "-")
    assert "2 games of" in run.stdout and "0 searches" in run.stdout  # the warm run reads every value back
    assert list((tmp_path / "bench" / "runs").iterdir())


def test_a_directory_without_games_is_one_line_with_exit_2(tmp_path: Path) -> None:
    run = run_benchmark("--games", tmp_path, "--out", tmp_path / "bench")
    assert run.returncode == 2
    assert run.stderr.strip() == f"analysis_speed: {tmp_path} holds no recorded games: give a match, tournament " \
                                 "or benchmark run directory"
    assert not (tmp_path / "bench").exists()


def test_a_board_the_c_solver_does_not_play_is_one_line_with_exit_2(tmp_path: Path) -> None:
    games = tmp_path / "match"
    assert main(["match", "random", "kaggle:random", "-n", "2", "--jobs", "1", "--rows", "5", "--columns", "6",
                 "--inarow", "5", "--out", str(games)]) == 0
    run = run_benchmark("--games", games, "--out", tmp_path / "bench")
    assert run.returncode == 2
    assert run.stderr.strip() == ("analysis_speed: the C solver is unavailable (it does not play 6x5 with 5 in a "
                                  "row); run with --solvers python")
    assert not (tmp_path / "bench").exists()
