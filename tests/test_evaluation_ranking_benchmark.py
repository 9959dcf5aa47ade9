"""``benchmarks.evaluation_ranking``: how the evaluation ranks exactly solved positions, and its fitted weights."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.evaluation_ranking import POSITIONS, main
from connectx.agents.core.position import Position
from connectx.agents.search.exact_search import solve


def run_benchmark(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    """``main`` in this process: its exit status, then what it printed to stdout and to stderr."""
    status = main(list(arguments))
    printed = capsys.readouterr()
    return status, printed.out, printed.err


@pytest.mark.parametrize("board,rows,columns", [("7x7/4", 7, 7), ("8x7/4", 7, 8)])
def test_the_stored_scores_are_the_exact_solvers(board: str, rows: int, columns: int) -> None:
    # The file's scores come from a C solver; the latest positions of each board (the quickest to
    # solve in Python) are checked against this package's own exact search.
    stored = [line.split() for line in POSITIONS.read_text().splitlines() if line.startswith(board)]
    assert len(stored) > 1000
    for _, moves, score in sorted(stored, key=lambda row: -len(row[1]))[:8]:
        solution = solve(Position.from_moves(moves, rows, columns, 4))
        assert solution is not None and solution.score == int(score), moves


def test_the_evaluation_ranks_better_than_the_fill_up_game_alone_and_the_fit_reports_both(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run_benchmark(capsys, "--weights", "0,0,0,240", "--fit")
    assert status == 0, err
    found = re.findall(
        r"^(\dx\d/4): (\d+) positions; default weights ([\d.]+) / ([\d.]+); "
        r"--weights ([\d.]+) / ([\d.]+)$",
        out,
        re.MULTILINE,
    )
    assert [board for board, *_ in found] == ["7x7/4", "8x7/4"]
    for _, _, default_all, default_same_ply, alone_all, alone_same_ply in found:
        # the open lines and threats tell apart what the fill-up game alone leaves tied
        assert float(default_all) > float(alone_all) + 0.01 and float(default_same_ply) > float(alone_same_ply)
        assert float(default_same_ply) > 0.7
    assert len(re.findall(r"^  \dx\d/4: all pairs 0\.\d+ / 0\.\d+; same ply 0\.\d+ / 0\.\d+$", out, re.MULTILINE)) == 2
    fitted = re.search(r"^fitted weights, scaled to the default zugzwang weight: (.+)$", out, re.MULTILINE)
    assert fitted is not None and fitted.group(1).split(",")[-1] == "240" and len(fitted.group(1).split(",")) == 4


def test_bad_input_is_one_line_with_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "positions.txt"
    broken.write_text("7x7/4 4455 -2\n7x7 44 1\n")
    for arguments, message in (
        (("--weights", "1,2,3"), "give 4 numbers"),
        (("--weights", "1,x,3,4"), "--weights 1,x,3,4"),
        (("--positions", str(broken)), "positions.txt:2: board '7x7'"),
    ):
        status, _, err = run_benchmark(capsys, *arguments)
        assert status == 2, (arguments, err)
        assert message in err and len(err.strip().splitlines()) == 1, err
