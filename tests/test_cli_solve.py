"""``connectx solve`` run in-process through the command line's ``main``."""

from __future__ import annotations

import io
import re
import time
from pathlib import Path

import pytest

from connectx.agents.core.position import Position
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import analyze, solve
from connectx.cli import solve as solve_command
from connectx.cli.main import main
from connectx.cli.solve import range_text
from connectx.solver.build import build_library
from connectx.solver.score_range import ScoreRange, describe

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
HARD = "1111222333"  # an early position pure Python cannot solve in minutes
PYTHON = ["--no-native", "--no-cache"]  # the pure-Python engine, nothing remembered: stopped by any short limit
DRAWN_FULL_BOARD = "736725214245131336345676626575117713522444"
SCORE = r"(-?\d+|\?|-?\d+\.\.-?\d+)"
STOPPED_LINE = re.compile(
    rf"^(?P<moves>\S+) (?P<scores>{SCORE})(?P<stats>( \S+)*) \((?P<words>[^;]+); "
    rf"stopped at the (?P<limit>\S+) s limit\)$"
)


def proven(text: str, possible: ScoreRange) -> ScoreRange:
    """The range a printed score stands for."""
    if text == "?":
        return possible
    low, _, high = text.partition("..")
    return ScoreRange(int(low), int(high or low))


def test_prints_moves_and_score_and_checks_expected_scores(capsys: pytest.CaptureFixture[str]) -> None:
    lines = (POSITIONS / "Test_L2_R1").read_text().splitlines()[:5]
    assert main(["solve", *lines]) == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_every_end_game_benchmark_position_still_checks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A cache of its own: bounds other tests left in the suite's shared cache must not answer for a search here.
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path))
    text = (POSITIONS / "Test_L3_R1").read_text()
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["solve"]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == text.splitlines() and captured.err == ""


def test_reads_standard_input_and_reports_a_wrong_expectation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("6146 18\n\n6146 17\n32164625\n"))
    assert main(["solve"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines() == ["6146 18", "6146 18", "32164625 11"]
    assert captured.err.splitlines() == ["connectx solve: 6146 scores 18, expected 17"]


def test_a_finished_game_has_the_score_of_its_last_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "1212121", DRAWN_FULL_BOARD]) == 0
    assert capsys.readouterr().out.splitlines() == ["1212121 -18", f"{DRAWN_FULL_BOARD} 0"]


def test_analyze_scores_every_column_and_marks_full_ones(capsys: pytest.CaptureFixture[str]) -> None:
    moves, best = (POSITIONS / "Test_L2_R1").read_text().split("\n")[1].split()
    with_full_column = "5554224333234511764415115"  # column 5 is full
    assert main(["solve", "--analyze", "--scores", f"{moves} {best}", with_full_column]) == 0
    out = capsys.readouterr().out.splitlines()
    scores = [int(score) for score in out[0].split()[1:]]
    assert out[0].split()[0] == moves and len(scores) == 7 and max(scores) == int(best)
    assert main(["solve", *(moves + str(column + 1) for column in range(7))]) == 0
    children = [int(line.split()[1]) for line in capsys.readouterr().out.splitlines()]
    assert scores == [-child for child in children]
    full = out[1].split()[1:]
    assert full[4] == "-" and all(score.lstrip("-").isdigit() for index, score in enumerate(full) if index != 4)


def test_analyze_words_every_column_as_the_analysis_does(capsys: pytest.CaptureFixture[str]) -> None:
    moves = "5554224333234511764415115"  # column 5 is full
    assert main(["solve", "--analyze", "--scores", moves]) == 0
    scores = capsys.readouterr().out.split()[1:]
    assert main(["solve", "--analyze", moves]) == 0
    position = Position.from_moves(moves)
    expected = "  ".join(
        f"{column + 1}: "
        + ("full" if score == "-" else describe(ScoreRange.exactly(int(score)), position.geometry, len(moves)))
        for column, score in enumerate(scores)
    )
    assert capsys.readouterr().out == f"{moves}  {expected}\n"
    assert "5: full" in expected and "win in " in expected and "loss in " in expected


def test_analyze_checks_the_expected_score_against_the_best_column(capsys: pytest.CaptureFixture[str]) -> None:
    moves, best = (POSITIONS / "Test_L2_R1").read_text().split("\n")[1].split()
    assert main(["solve", "--analyze", f"{moves} {int(best) + 1}"]) == 1
    assert capsys.readouterr().err == f"connectx solve: {moves} scores {best}, expected {int(best) + 1}\n"


def test_other_board_sizes_the_empty_board_and_stats(capsys: pytest.CaptureFixture[str]) -> None:
    small = ["--rows", "4", "--columns", "5", "--inarow", "3"]
    assert main(["solve", *small, "--stats", "", "33"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()]
    assert [row[0] for row in rows] == ["(empty)", "33"]
    assert all(len(row) == 4 and float(row[2]) >= 0 and row[3] == "python" for row in rows)  # 3 in a row: no C
    solution = solve(Position.initial(4, 5, 3))
    assert solution is not None
    score = solution.score
    assert rows[0][1] == str(score)
    assert main(["solve", *small, f"(empty) {score}"]) == 0  # the printed line reads back as input
    assert capsys.readouterr().out == f"(empty) {score}\n"


def test_the_empty_board_is_exact_at_once_from_the_shipped_scores(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.perf_counter()
    assert main(["solve", "", "--time-limit", "0.3"]) == 0
    assert capsys.readouterr().out == "(empty) 1\n"  # the first player wins with her last stone
    assert time.perf_counter() - started < 20


def test_a_hard_position_ends_at_the_limit_saying_what_is_proven(capsys: pytest.CaptureFixture[str]) -> None:
    started = time.process_time()
    assert main(["solve", HARD, "--time-limit", "0.5", "--stats", *PYTHON]) == 3
    assert time.process_time() - started < 20
    line = capsys.readouterr().out
    match = STOPPED_LINE.match(line.rstrip("\n"))
    assert match and match["moves"] == HARD and match["limit"] == "0.5"
    seconds, solver = match["stats"].split()
    assert float(seconds) >= 0 and solver == "python"  # --stats' seconds and solver come before the note
    position = Position.from_moves(HARD)
    assert match["words"] == describe(proven(match["scores"], ScoreRange.possible(position)), position.geometry, 10)


def test_a_stopped_position_is_reported_when_its_expected_score_is_already_excluded(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve", f"{HARD} 30", "--time-limit", "0.2", *PYTHON]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"connectx solve: {HARD} scores ")
    assert err.endswith(" (stopped at the 0.2 s limit), expected 30\n")


def test_the_compiled_engine_solves_what_python_cannot_in_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", HARD, "--time-limit", "60", "--no-cache", "--stats"]) == 0
    fields = capsys.readouterr().out.split()
    assert fields[0] == HARD and fields[1].lstrip("-").isdigit() and fields[3] == "native"


def test_the_compiled_engine_stops_at_the_limit_with_what_it_proved(capsys: pytest.CaptureFixture[str]) -> None:
    """The empty board takes the C solver minutes: the limit ends its search in time, with a range holding 1."""
    build_library()  # compiled before the clock starts, as a second run finds it
    started = time.perf_counter()
    assert main(["solve", "", "--time-limit", "0.3", "--no-cache"]) == 3
    assert time.perf_counter() - started < 0.3 + 0.5
    name, proven, *note = capsys.readouterr().out.split()
    assert name == "(empty)" and note[-1] == "limit)"
    if proven != "?":
        lower, upper = map(int, proven.split(".."))
        assert lower <= 1 <= upper


def test_analyze_with_a_limit_gives_each_column_what_is_proven(capsys: pytest.CaptureFixture[str]) -> None:
    moves = (POSITIONS / "Test_L2_R2").read_text().split("\n")[1].split()[0]
    position = Position.from_moves(moves)
    exact = analyze(position, TranspositionTable())
    assert exact is not None
    started = time.process_time()
    status = main(["solve", "--analyze", "--scores", moves, "--time-limit", "0.2"])
    assert time.process_time() - started < 20
    line = capsys.readouterr().out
    fields = line.split()
    assert fields[0] == moves
    for column, text in enumerate(fields[1:8]):
        possible = ScoreRange.possible(position.play(column)).negated()
        assert re.fullmatch(SCORE, text) and proven(text, possible).contains(exact[column])
    assert (status, " ".join(fields[8:])) in ((3, "(stopped at the 0.2 s limit)"), (0, ""))


def test_no_time_limit_solves_a_medium_position(capsys: pytest.CaptureFixture[str]) -> None:
    line = (POSITIONS / "Test_L2_R2").read_text().split("\n")[1]
    assert main(["solve", "--time-limit", "0", line]) == 0
    assert capsys.readouterr().out == line + "\n"


@pytest.mark.parametrize(
    "low,high,text",
    [
        (3, 3, "3"),
        (2, 9, "2..9"),
        (-9, -1, "-9..-1"),
        (0, 0, "0"),
        (0, 4, "0..4"),
        (-5, 0, "-5..0"),
        (-7, 8, "-7..8"),
        (-16, 16, "?"),
    ],
)
def test_score_ranges_print_what_they_prove(low: int, high: int, text: str) -> None:
    assert range_text(ScoreRange(low, high), ScoreRange(-16, 16)) == text


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_ctrl_c_ends_with_one_line_and_the_shell_status(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_command, "position_value", interrupted)
    assert main(["solve", HARD]) == 130
    assert capsys.readouterr().err == "connectx solve: interrupted\n"


@pytest.mark.parametrize(
    "argv,message",
    [
        (["4x"], "move 2 of '4x' is 'x': expected a column digit 1-7"),
        (["48"], "move 2 of '48' is '8'"),
        (["4", "1111111"], "move 7 of '1111111' plays into full column 1"),
        (["12121212"], "move 8 of '12121212' comes after the game was won"),
        (["12 x"], "the expected score 'x' is not an integer"),
        (["1 2 3"], "expected MOVES or MOVES EXPECTED_SCORE"),
        (["--analyze", "4", "1212121"], "--analyze 1212121: the game is already won"),
        (["--analyze", DRAWN_FULL_BOARD], f"--analyze {DRAWN_FULL_BOARD}: the board is full"),
        (["--analyze", "--rows", "1", "--columns", "2", "--inarow", "2", "12"], "--analyze 12: the board is full"),
        (["--scores", "4"], "--scores goes with --analyze"),
        (["--time-limit", "-1", "4"], "--time-limit -1: expected seconds per position, or 0 for no limit"),
        (["--time-limit", "nan", "4"], "--time-limit nan"),
        (["--columns", "10", "4"], "--columns 10: moves are column digits 1-9"),
        (["--rows", "0", "4"], "--rows: 0 is too small"),
        (["--inarow", "9", "4"], "--inarow 9: choose a whole number from 2 to 7"),
    ],
)
def test_bad_input_is_one_line_exit_2_and_nothing_solved(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and len(captured.err.splitlines()) == 1


@pytest.mark.parametrize(
    "data,message",
    [
        (b"44\n\n4x 3\n", "standard input line 3: move 2 of '4x' is 'x'"),
        (b"44 1\n44 \xff\n", "standard input line 2 is not UTF-8 text"),
    ],
)
def test_bad_standard_input_names_the_line(
    data: bytes, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert main(["solve"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and message in captured.err and len(captured.err.splitlines()) == 1


def test_a_terminal_on_standard_input_is_not_waited_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", FakeTerminal())
    assert main(["solve"]) == 2
    assert "no positions: give them as arguments" in capsys.readouterr().err
