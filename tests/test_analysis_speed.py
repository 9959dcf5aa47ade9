"""``benchmarks.analysis_speed --games``: the analysis of a recorded run's games, C solver against Python."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.analysis_speed import main as benchmark
from connectx.agents.board_spec import BoardSpec
from connectx.cli.main import main
from connectx.solver.interface import native_unavailable_reason

BOARD = ["--rows", "4", "--columns", "5", "--inarow", "4"]
"""5x4, four in a row: a board the C solver plays other than 7x6, whose every position Python solves at once."""


def run_benchmark(capsys: pytest.CaptureFixture[str], *arguments: object) -> tuple[int, str, str]:
    """The benchmark's ``main`` in this process: its exit status, then what it printed to stdout and to stderr."""
    capsys.readouterr()  # what the games' recording printed is not the benchmark's
    status = benchmark([str(argument) for argument in arguments])
    printed = capsys.readouterr()
    return status, printed.out, printed.err


@pytest.mark.games  # records a run of real games first
@pytest.mark.skipif(
    native_unavailable_reason(BoardSpec(4, 5)) is not None,
    reason=f"no C solver: {native_unavailable_reason(BoardSpec(4, 5))}",
)
def test_a_recorded_run_on_another_board_is_analysed_by_both_solvers_alike(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = tmp_path / "match"
    assert (
        main(["match", "random", "kaggle:random", "-n", "2", "--jobs", "1", "--seed", "3", *BOARD, "--out", str(games)])
        == 0
    )
    status, out, err = run_benchmark(
        capsys, "--games", games, "--count", 2, "--seconds", 30, "--out", tmp_path / "bench"
    )
    assert status == 0, err
    rows = dict(
        re.findall(r"^\| (native|python|native, cache warm) \| (.+?) \| [\d.]+ \| [\d.]+ \|$", out, re.MULTILINE)
    )
    assert set(rows) == {"native", "python", "native, cache warm"}
    # with time enough every position is exact, whichever the solver
    assert rows["native"] == rows["python"] == rows["native, cache warm"]
    assert all(share.strip().startswith("100.0%") for share in rows["native"].split("|") if share.strip() != "-")
    assert "2 games of" in out and "0 searches" in out  # the warm run reads every value back
    assert list((tmp_path / "bench" / "runs").iterdir())


def test_a_directory_without_games_is_one_line_with_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = run_benchmark(capsys, "--games", tmp_path, "--out", tmp_path / "bench")
    assert status == 2
    assert (
        err.strip() == f"analysis_speed: {tmp_path} holds no recorded games: give a match, tournament "
        "or benchmark run directory"
    )
    assert not (tmp_path / "bench").exists()


@pytest.mark.games  # records a run of real games first
def test_a_board_the_c_solver_does_not_play_is_one_line_with_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    games = tmp_path / "match"
    assert (
        main(
            [
                "match",
                "random",
                "kaggle:random",
                "-n",
                "2",
                "--jobs",
                "1",
                "--rows",
                "5",
                "--columns",
                "6",
                "--inarow",
                "5",
                "--out",
                str(games),
            ]
        )
        == 0
    )
    status, _, err = run_benchmark(capsys, "--games", games, "--out", tmp_path / "bench")
    assert status == 2
    assert err.strip() == (
        "analysis_speed: the C solver is unavailable (it does not play 6x5/5: four in a row only, "
        "on boards of up to 9 columns and 64 bitboard bits); run with --solvers python"
    )
    assert not (tmp_path / "bench").exists()
