"""``benchmarks.evaluation_positions``: positions sampled from recorded games, exactly scored, appended once each."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.evaluation_positions import main as benchmark
from connectx.agents.core.position import Position
from connectx.agents.search.exact_search import solve
from connectx.cli.main import main

ROWS, COLUMNS = 5, 6
"""6x5, four in a row: the C solver plays it and the Python exact search checks its positions at once."""

pytestmark = [
    pytest.mark.skipif(not (shutil.which("cc") or shutil.which("gcc")), reason="no C compiler"),
    pytest.mark.games,
]  # each test records a run of real games first


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_script(capsys: pytest.CaptureFixture[str]) -> Run:
    """The benchmark's ``main`` in this process: its exit status and what it printed, as a finished command's."""

    def run(*arguments: object) -> subprocess.CompletedProcess[str]:
        capsys.readouterr()  # what the games' recording printed is not the benchmark's
        status = benchmark([str(argument) for argument in arguments])
        printed = capsys.readouterr()
        return subprocess.CompletedProcess(arguments, status, printed.out, printed.err)

    return run


def record_games(directory: Path, count: int, rows: int = ROWS, columns: int = COLUMNS, inarow: int = 4) -> Path:
    """A run directory of ``count`` random games, played and recorded by ``connectx match``."""
    assert (
        main(
            [
                "match",
                "random",
                "kaggle:random",
                "-n",
                str(count),
                "--jobs",
                "1",
                "--seed",
                "7",
                "--rows",
                str(rows),
                "--columns",
                str(columns),
                "--inarow",
                str(inarow),
                "--out",
                str(directory),
            ]
        )
        == 0
    )
    return directory


def test_the_positions_added_are_leaves_of_the_games_with_their_exact_scores(run_script: Run, tmp_path: Path) -> None:
    games = record_games(tmp_path / "run", 20)
    with (games / "games.jsonl").open("a") as torn:  # a run still playing: its last line half written
        torn.write('{"index": 20, "agents": ["ran')
    out = tmp_path / "positions.txt"
    first = run_script(games, "--count", 6, "--plies", "6-12", "--out", out)
    assert first.returncode == 0, first.stderr
    assert f"6 positions added to {out}" in first.stdout
    again = run_script(games, "--count", 4, "--plies", "6-12", "--out", out)  # the same seed: the same draws first
    assert again.returncode == 0, again.stderr
    lines = [line.split() for line in out.read_text().splitlines()]
    assert len(lines) == 10 and len({moves for _, moves, _ in lines}) == 10
    recorded = (games / "games.jsonl").read_text().splitlines()[:-1]
    paths = ["".join(str(column + 1) for column in json.loads(line)["moves"]) for line in recorded]
    for board, moves, score in lines:
        assert board == f"{COLUMNS}x{ROWS}/4" and 6 <= len(moves) <= 12
        assert any(path.startswith(moves[:-2]) for path in paths), moves  # two random plies off a game
        position = Position.from_moves(moves, ROWS, COLUMNS, 4)
        assert not position.winning_columns() and position.non_losing_columns()
        solution = solve(position)
        assert solution is not None and solution.score == int(score), moves


def test_bad_input_is_one_line_with_exit_2_and_nothing_written(run_script: Run, tmp_path: Path) -> None:
    games = record_games(tmp_path / "run", 2)
    five = record_games(tmp_path / "five", 1, rows=6, columns=7, inarow=5)
    out = tmp_path / "positions.txt"
    for arguments, message in (
        ((games, "--count", 1, "--plies", "12"), "--plies 12: give LOW-HIGH"),
        ((games, "--count", 0), "give a positive count"),
        ((tmp_path / "missing", "--count", 1), "cannot read"),
        ((five, "--count", 1), "the C solver does not play 7x6/5"),
        ((games, "--count", 1, "--plies", "40-50"), "no game is longer than 40 plies"),
    ):
        run = run_script(*arguments, "--out", out)
        assert run.returncode == 2, (arguments, run.stderr)
        assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert not out.exists()


def test_games_that_hold_no_more_positions_stop_the_run_short_with_a_notice(run_script: Run, tmp_path: Path) -> None:
    games = record_games(tmp_path / "run", 1)
    out = tmp_path / "positions.txt"
    run = run_script(games, "--count", 500, "--plies", "6-7", "--out", out)
    assert run.returncode == 0, run.stderr
    added = len(out.read_text().splitlines())
    assert 0 < added < 500 and f"{added} positions added" in run.stdout
    assert "no new position in 10000 draws; give more games or other --plies" in run.stderr
