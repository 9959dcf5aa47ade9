"""``connectx analyze`` as people run it: a move string, a Kaggle episode, a recorded game; text, JSON and HTML.

Values are checked against the benchmark position files' scores and against ``connectx solve
--analyze`` (the pure-Python solver), never against numbers written into the test. Real games
are short ones on small boards, and most analyses skip the cache (``--no-cache``) so each test
proves its values itself.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import connectx.cli.analyze
import connectx.solver.interface
from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.position import geometry
from connectx.cli.main import main
from connectx.solver.interface import native_unavailable_reason
from connectx.solver.score_range import ScoreRange, describe

POSITIONS = Path(__file__).resolve().parent.parent / "positions" / "Test_L3_R1"
"""Pons' end-game test set: each line a 7x6 position (1-based digits) and its exact score."""
OTHER_BOARDS = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "evaluation_positions.txt"
"""Exactly solved positions of 7x7 and 8x7: ``BOARD MOVES SCORE`` a line."""
SMALL_BOARD = ["--rows", "4", "--columns", "5", "--inarow", "3"]
"""A board whose games last a few moves and whose positions the Python solver settles at once."""


def sign(value: int) -> int:
    return (value > 0) - (value < 0)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def solve_columns(moves: str, board: list[str], capsys: pytest.CaptureFixture[str]) -> list[int | None]:
    """Every column's exact score after ``moves`` by ``connectx solve --analyze --scores`` (None for a full one)."""
    status, out, _ = run(["solve", "--analyze", "--scores", moves, *board], capsys)
    assert status == 0, out
    fields = out.split()[1:]
    return [None if field == "-" else int(field) for field in fields]


def position_with(score_sign: int, capsys: pytest.CaptureFixture[str]) -> tuple[str, int, list[int | None]]:
    """The first position of the test set whose score has ``score_sign`` and which a column throws away:
    its moves, its score from the file, and every column's score by ``connectx solve --analyze``."""
    for line in POSITIONS.read_text().splitlines():
        moves, score = line.split()
        if sign(int(score)) != score_sign:
            continue
        columns = solve_columns(moves, [], capsys)
        if any(value is not None and sign(value) < score_sign for value in columns):
            return moves, int(score), columns
    raise AssertionError(f"no position of sign {score_sign} with a losing column in {POSITIONS}")


def check_against_solve(analysis: dict[str, Any], board: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Every ply of an exact ``--json`` analysis: the column played, every score as ``solve --analyze`` gives
    it, and ``changed_outcome`` exactly when the move's score has a lower sign than the best column's."""
    for ply in analysis["plies"]:
        before = analysis["moves"][: ply["ply"]]
        expected = solve_columns(before, board, capsys)
        assert ply["column"] == int(analysis["moves"][ply["ply"]]) - 1
        assert ply["scores"] == expected, before
        assert ply["exact"] is True and "bounds" not in ply
        best = max(score for score in expected if score is not None)
        played = expected[ply["column"]]
        assert played is not None
        assert ply["changed_outcome"] == (sign(played) < sign(best)), before


@pytest.mark.parametrize("score_sign, lost", [(1, "threw a win away"), (0, "threw a draw away (a loss)")])
def test_a_thrown_outcome_is_flagged_with_the_best_move_the_position_file_scores(
    score_sign: int, lost: str, capsys: pytest.CaptureFixture[str]
) -> None:
    moves, score, columns = position_with(score_sign, capsys)
    assert max(value for value in columns if value is not None) == score  # solve agrees with the file
    thrown = min(column for column, value in enumerate(columns) if value is not None and sign(value) < score_sign)
    ply = len(moves)
    status, out, err = run(
        ["analyze", "--moves", moves + str(thrown + 1), "--from-ply", str(ply), "--no-cache"], capsys
    )
    assert status == 0
    if native_unavailable_reason() is None:
        assert err == ""
    lines = {int(line.split()[0]): line for line in out.splitlines() if re.match(r"\s+\d+  [XO] \d", line)}
    assert sorted(lines) == [ply]
    mover = "XO"[ply % 2]
    best = [column for column, value in enumerate(columns) if value == score]
    outcome = describe(ScoreRange.exactly(score), geometry(6, 7, 4), ply)
    flagged = lines[ply]
    assert flagged.split()[1:3] == [mover, str(thrown + 1)]
    assert f"<< {lost}" in flagged
    assert ("best: " + ", ".join(f"{column + 1} ({outcome})" for column in best) + "; punished by ") in flagged
    assert f"1 move changed the outcome: ply {ply} ({mover} {thrown + 1})" in out


@pytest.mark.skipif(
    native_unavailable_reason(BoardSpec(7, 8)) is not None,
    reason=f"no C solver: {native_unavailable_reason(BoardSpec(7, 8))}",
)
def test_another_board_of_four_in_a_row_is_analysed_by_the_compiled_solver(capsys: pytest.CaptureFixture[str]) -> None:
    board = ["--rows", "7", "--columns", "8", "--inarow", "4"]
    stored = [line.split()[1:] for line in OTHER_BOARDS.read_text().splitlines() if line.startswith("8x7/4")]
    moves, score = max(stored, key=lambda row: len(row[0]))  # the quickest for solve --analyze in Python
    columns = solve_columns(moves, board, capsys)
    played = next(column for column, value in enumerate(columns) if value is not None)
    argv = ["analyze", "--moves", moves + str(played + 1), *board, "--from-ply", str(len(moves)), "--no-cache"]
    status, out, err = run([*argv, "--json"], capsys)
    assert (status, err) == (0, "")
    ply = json.loads(out)["plies"][0]
    assert ply["exact"] and ply["scores"] == columns
    assert max(value for value in columns if value is not None) == int(score)
    status, out, _ = run(argv, capsys)
    assert status == 0 and "with the compiled (C) solver" in out.splitlines()[-1]


def test_json_gives_the_documented_object_with_the_scores_solve_gives(capsys: pytest.CaptureFixture[str]) -> None:
    moves, score, columns = position_with(1, capsys)
    thrown = min(column for column, value in enumerate(columns) if value is not None and value <= 0)
    game = moves + str(thrown + 1)
    for solver in ([], ["--no-native"]):
        status, out, _ = run(
            [
                "analyze",
                "--moves",
                game,
                "--from-ply",
                str(len(moves) - 2),
                "--json",
                "--no-cache",
                "--time-limit",
                "0",
                *solver,
            ],
            capsys,
        )
        assert status == 0
        analysis = json.loads(out)
        assert analysis["moves"] == game
        assert analysis["config"] == {"rows": 6, "columns": 7, "inarow": 4}
        assert [ply["ply"] for ply in analysis["plies"]] == [len(moves) - 2, len(moves) - 1, len(moves)]
        for ply in analysis["plies"]:
            expected = {"ply", "column", "scores", "exact", "changed_outcome", "best", "open"}
            assert set(ply) == expected | ({"line"} if ply["changed_outcome"] else set())
        assert analysis["plies"][-1]["scores"] == columns
        assert analysis["plies"][-1]["changed_outcome"] is True
        check_against_solve(analysis, [], capsys)


def test_a_position_the_limit_cuts_short_gives_bounds_that_hold_the_exact_scores(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        ["analyze", "--moves", "44", "--json", "--no-cache", "--no-native", "--time-limit", "0.05"], capsys
    )
    assert status == 0
    first = json.loads(out)["plies"][0]
    assert first["exact"] is False
    empty_board = [-2, -1, 0, 1, 0, -1, -2]  # Pons' opening values; the book's generation proves them too
    for score, bound, exact in zip(empty_board, first["bounds"], first["scores"], strict=True):
        assert bound[0] <= score <= bound[1]
        assert exact in (None, score)


@pytest.mark.games
def test_an_episode_written_by_play_and_its_record_analyse_to_the_same_exact_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    episode, run_directory = tmp_path / "game.json", tmp_path / "play"
    status, _, _ = run(
        [
            "play",
            "kaggle:negamax",
            "random",
            "--seed",
            "3",
            *SMALL_BOARD,
            "--json",
            str(episode),
            "--out",
            str(run_directory),
        ],
        capsys,
    )
    assert status == 0
    record = json.loads((run_directory / "games.jsonl").read_text().splitlines()[0])
    analyses = []
    for source in ([str(episode)], [str(run_directory), "--game", "0"]):
        status, out, err = run(
            ["analyze", *source, "--json", "--time-limit", "0", "--cache", str(tmp_path / "cache")], capsys
        )
        assert (status, err) == (0, "")
        analyses.append(json.loads(out))
    assert analyses[0] == analyses[1]
    analysis = analyses[0]
    assert analysis["moves"] == "".join(str(column + 1) for column in record["moves"])
    assert analysis["config"] == {"rows": 4, "columns": 5, "inarow": 3}
    check_against_solve(analysis, SMALL_BOARD, capsys)
    assert (tmp_path / "cache" / "solved-5x4x3.jsonl").stat().st_size > 0


@pytest.mark.games
def test_a_match_game_is_analysed_and_its_flagged_moves_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_dir = tmp_path / "match"
    status, _, _ = run(
        [
            "match",
            "random",
            "kaggle:random",
            "-n",
            "2",
            "--jobs",
            "1",
            "--seed",
            "5",
            *SMALL_BOARD,
            "--out",
            str(out_dir),
        ],
        capsys,
    )
    assert status == 0
    records = [json.loads(line) for line in (out_dir / "games.jsonl").read_text().splitlines()]
    record = next(record for record in records if record["index"] == 1)
    status, text, _ = run(["analyze", str(out_dir), "--game", "1", "--no-cache", "--time-limit", "0"], capsys)
    assert status == 0
    status, out, _ = run(["analyze", str(out_dir), "--game", "1", "--no-cache", "--time-limit", "0", "--json"], capsys)
    analysis = json.loads(out)
    assert analysis["moves"] == "".join(str(column + 1) for column in record["moves"])
    check_against_solve(analysis, SMALL_BOARD, capsys)
    flagged = [ply for ply in analysis["plies"] if ply["changed_outcome"]]
    move_lines = [line for line in text.splitlines() if re.match(r"\s+\d+  [XO] \d", line)]
    assert len(move_lines) == len(record["moves"])
    assert [int(line.split()[0]) for line in move_lines if "<<" in line] == [ply["ply"] for ply in flagged]
    assert f"{len(flagged)} move{'' if len(flagged) == 1 else 's'} changed the outcome" in text


def test_html_writes_the_page_with_the_flagged_move_highlighted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves, score, columns = position_with(1, capsys)
    thrown = min(column for column, value in enumerate(columns) if value is not None and value <= 0)
    page = tmp_path / "pages" / "game.html"
    status, out, _ = run(
        [
            "analyze",
            "--moves",
            moves + str(thrown + 1),
            "--from-ply",
            str(len(moves)),
            "--no-cache",
            "--html",
            str(page),
        ],
        capsys,
    )
    assert status == 0
    assert out.splitlines()[-1] == f"wrote {page}"
    html = page.read_text(encoding="utf-8")
    ply = len(moves)
    assert re.findall(r'<section id="ply-(\d+)" class="flagged">', html) == [str(ply)]
    assert re.findall(r'<section id="ply-(\d+)"', html) == [str(ply)]
    assert f"<h2>Ply {ply}: {'XO'[ply % 2]} plays {thrown + 1}</h2>" in html
    words = describe(ScoreRange.exactly(score), geometry(6, 7, 4), ply)
    best = ", ".join(f"{column + 1} ({words})" for column, value in enumerate(columns) if value == score)
    assert f"Best instead: {best}." in html
    assert moves + str(thrown + 1) in html


def test_json_with_html_keeps_stdout_pure_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "game.html"
    status, out, err = run(
        ["analyze", "--moves", "1213", *SMALL_BOARD, "--json", "--no-cache", "--html", str(page)], capsys
    )
    assert status == 0
    assert json.loads(out)["moves"] == "1213"
    assert err == f"wrote {page}\n"
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_without_the_compiled_solver_one_notice_and_the_python_solver(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = POSITIONS.read_text().split()[0]
    monkeypatch.setattr(connectx.solver.interface, "native_unavailable_reason", lambda board: "no C compiler found")
    status, out, err = run(["analyze", "--moves", moves, "--from-ply", str(len(moves) - 1), "--no-cache"], capsys)
    assert status == 0
    assert err == (
        "connectx analyze: the compiled solver is unavailable (no C compiler found); "
        "using the pure-Python one, which is much slower\n"
    )
    assert "with the pure-Python solver" in out.splitlines()[-1]
    # Asked for, or on a board the compiled solver does not play: no notice.
    for options in (["--no-native"], SMALL_BOARD):
        game = moves if options != SMALL_BOARD else "1213"
        status, out, err = run(
            ["analyze", "--moves", game, "--from-ply", str(len(game) - 1), "--no-cache", *options], capsys
        )
        assert (status, err) == (0, "")
        assert "with the pure-Python solver" in out.splitlines()[-1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["analyze", "--moves", "12132", *SMALL_BOARD, "--no-cache", "--json"]
    status, out, err = run(argv, capsys)
    assert (status, err) == (0, "")
    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    assert main(argv) == 0
    assert "5/5" in terminal.getvalue() and "ply" in terminal.getvalue()
    assert json.loads(capsys.readouterr().out) == json.loads(out)


def test_ctrl_c_stops_the_analysis_with_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(connectx.cli.analyze, "analyze_game", interrupted)
    status, out, err = run(["analyze", "--moves", "1213", *SMALL_BOARD, "--cache", str(tmp_path)], capsys)
    assert status == 130 and out.startswith("5x4 board") and "positions exact" not in out  # the header, then no ply
    assert f"interrupted; the positions solved so far are kept in {tmp_path}" in err


def test_the_opening_is_answered_from_the_shipped_table_and_the_cache_defaults_to_the_users(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path))
    status, out, err = run(["analyze", "--moves", "44444", "--json", "--no-native", "--time-limit", "0.01"], capsys)
    assert (status, err) == (0, "")
    plies = json.loads(out)["plies"]
    assert all(ply["exact"] for ply in plies)  # no search could prove these in 10 ms: the table knows them
    assert plies[0]["scores"] == [-2, -1, 0, 1, 0, -1, -2]
    assert (tmp_path / "analysis" / "solved-7x6x4.jsonl").is_file()


def test_without_a_compiler_a_one_line_notice_and_the_python_solver(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    native_unavailable_reason.cache_clear()
    try:
        status, out, err = run(
            ["analyze", "--moves", "1213", "--rows", "5", "--columns", "6", "--from-ply", "3"], capsys
        )
    finally:
        native_unavailable_reason.cache_clear()  # the next test finds the compiler again
    assert status == 0
    assert err.count("\n") == 1 and "the compiled solver is unavailable (no C compiler found" in err
    assert "with the pure-Python solver" in out


def test_ctrl_c_at_a_terminal_stops_the_solver_too_with_one_line(tmp_path: Path) -> None:
    """A real Ctrl-C: SIGINT to the whole foreground group, the compiled solver's worker included."""
    master, follower = pty.openpty()
    command = [sys.executable, "-m", "connectx", "analyze", "--moves", "1771662233", "--no-cache"]
    process = subprocess.Popen(
        command,
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
        env={**os.environ, "CONNECTX_CACHE_DIR": str(tmp_path)},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # as at a shell
    os.close(follower)
    seen = b""
    while b"before" not in seen:  # the table's head: the analysis is under way
        seen += os.read(master, 4096)
    time.sleep(1.0)
    pressed = time.monotonic()
    os.killpg(process.pid, signal.SIGINT)
    assert process.wait(timeout=10) == 130
    assert time.monotonic() - pressed < 1.5  # within a second, and a margin for a loaded machine
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not chunk:
            break
        seen += chunk
    text = seen.decode(errors="replace")
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert text.count("connectx analyze: interrupted") == 1
