"""``connectx solve`` run in-process through the command line's ``main``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from evaluation.cli import main

POSITIONS = Path(__file__).resolve().parents[1] / "positions"


def test_prints_moves_and_score_and_checks_expected_scores(capsys: pytest.CaptureFixture[str]) -> None:
    lines = (POSITIONS / "Test_L2_R1").read_text().splitlines()[:5]
    assert main(["solve", *lines]) == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_reads_standard_input_and_reports_a_wrong_expectation(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("6146 18\n\n6146 17\n32164625\n"))
    assert main(["solve"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["6146 18", "6146 18", "32164625 11"]
    assert "6146 scores 18, expected 17" in captured.err


def test_analyze_scores_every_column_and_marks_full_ones(capsys: pytest.CaptureFixture[str]) -> None:
    moves, best = (POSITIONS / "Test_L2_R1").read_text().split("\n")[1].split()
    with_full_column = "5554224333234511764415115"  # column 5 is full
    assert main(["solve", "--analyze", moves, with_full_column]) == 0
    out = capsys.readouterr().out.splitlines()
    scores = [int(score) for score in out[0].split()[1:]]
    assert out[0].split()[0] == moves and len(scores) == 7 and max(scores) == int(best)
    assert main(["solve", *(moves + str(column + 1) for column in range(7))]) == 0
    children = [int(line.split()[1]) for line in capsys.readouterr().out.splitlines()]
    assert scores == [-child for child in children]
    full = out[1].split()[1:]
    assert full[4] == "-" and all(score.lstrip("-").isdigit() for index, score in enumerate(full) if index != 4)


def test_other_board_sizes_and_stats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--rows", "4", "--columns", "5", "--inarow", "3", "--stats", "", "33"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert all(len(row) in (3, 4) and int(row[-2]) >= 1 and float(row[-1]) >= 0 for row in rows)


def test_bad_lines_and_time_limits_say_what_went_wrong(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "4x", "12 x", "4", "--time-limit", "0.05"]) == 2
    err = capsys.readouterr().err
    assert "move 2 of '4x' is 'x'" in err
    assert "expected score 'x' is not an integer" in err
    assert "4 not solved within 0.05 s" in err
