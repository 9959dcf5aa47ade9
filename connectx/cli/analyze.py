"""Analyse a game move by move: every column's exact value at every ply, and each move that changed the outcome.

The game comes from one of three places:

  connectx analyze episode.json          a Kaggle episode JSON: the file Kaggle offers for every
                                         leaderboard episode, or what `connectx play --json` writes
  connectx analyze RUN_DIR --game 3      game 3 of a play, match or tournament directory
  connectx analyze --moves 4453...       1-based column digits, as in the positions/ files
                                         (--rows, --columns and --inarow for another board)

Values are the side to move's, in the words every front uses: "win in N" (the mover's N-th move
from here wins), "draw", "loss in N" (the opponent's N-th move does). Each line is one move: the
value of the position before it (its best column's) and the value of the move played. A move
that changed the outcome (a won position thrown to a draw or a loss, a drawn one to a loss) is
flagged with << and the best columns instead, e.g.

   ply  move    before                    after
     9  O 3     win in 4                  loss in 3                 << threw a win away (a loss); best: 2 (win in 4)

Each position gets --time-limit seconds, shared by its columns; where the limit comes first a
value is the best bound proven ("win in <=5", "draw or win", ...), and where not even the
outcome is proven, a short search's estimate and its depth ("likely win, estimate at depth 9").
A column is called best only when the proofs show no other can be better; otherwise the columns
still open are named, and a move is flagged only when the proven ranges show it changed the
outcome. The engine is the same as connectx solve's and the page's: the shipped exact scores of
7x6's opening and the --cache first, then the compiled (C) solver for four in a row on boards of
up to 9 columns and 64 bitboard bits (columns x (rows + 1): 7x6, 7x7, 8x7, 9x6, ...) where a C
compiler is available (--no-native: the pure-Python one, which other boards use).

What the searches find is kept in --cache: exact scores, the bounds a search left at the time
limit (with the limit and the solver they were found under) and the estimates (with the time
they were searched for). So the same game analysed again at the same or a lower --time-limit
searches nothing and is instant; a higher limit searches again whatever is not exact yet (or
the compiled solver, where the pure-Python one left a bound). --no-cache reads and keeps nothing.

The rows are printed once every ply is searched and the whole game's values agree (a progress
bar shows the plies meanwhile): a later position's value can still narrow an earlier row's.

--json prints one object instead of the text:

  {"moves": "4453...", "config": {"rows": 6, "columns": 7, "inarow": 4},
   "plies": [{"ply": 0, "column": 3, "scores": [s1, ..., s7], "exact": true,
              "changed_outcome": false, "best": [3], "open": [3]}, ...]}

"ply" counts from 0 (the position before that move), "column" is 0-based, "scores" are the side
to move's exact score of playing each column (null for a full column or a score not proven in
time), "exact" says every playable column's score is, and "changed_outcome" that the move's score
has a lower sign than the best column's (where scores are only bounded: that the bounds prove
it); "best" lists the columns proven best (empty while the proofs leave it open) and "open" the
columns that may still be. A ply that is not exact also has "bounds": [lower, upper] per column
(null for a full one) and "estimates": [value, depth] per column whose outcome is open (a
search's value in (-1, 1) for the mover; null elsewhere).

Exit status: 0 analysed; 2 bad input (one line on stderr, nothing written); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import TextIO

from connectx.agents.board_spec import STANDARD_BOARD
from connectx.analysis.game_analysis import DEFAULT_SECONDS, GameAnalysis, PlyAnalysis, analyze_game
from connectx.analysis.games import Game, game_from_digits, game_from_record, read_episode
from connectx.analysis.html_page import render_html
from connectx.analysis.text_report import header_lines, move_line, summary_lines
from connectx.cli.options import (
    INTERRUPTED,
    InputError,
    add_board_size_arguments,
    add_engine_arguments,
    analysis_engine,
    board_spec,
    check_output_file,
    non_negative_int,
    non_negative_seconds,
)
from connectx.cli.progress import ProgressBar
from connectx.evaluation.option_words import flag_words
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError

NAME = "analyze"
HELP = "analyse a game move by move (a Kaggle episode, a recorded game or --moves) and flag the moves that lost"

SOLVER_NAMES = {"native": "compiled (C)", "python": "pure-Python"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter  # keep the examples' layout
    parser.add_argument(
        "source",
        nargs="?",
        type=Path,
        metavar="FILE_OR_DIR",
        help="a Kaggle episode JSON, or the --out directory of a play, match or tournament (with --game)",
    )
    parser.add_argument(
        "--game", type=non_negative_int, metavar="N", help="the game of a run directory (its 'index' in games.jsonl)"
    )
    parser.add_argument("--moves", metavar="DIGITS", help="the game as 1-based column digits, e.g. 4453")
    add_board_size_arguments(parser)
    parser.add_argument(
        "--time-limit",
        type=non_negative_seconds,
        default=DEFAULT_SECONDS,
        metavar="SECONDS",
        help=f"seconds per position, shared by its columns; 0 for none (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--from-ply",
        type=non_negative_int,
        default=0,
        metavar="PLY",
        help="analyse from this ply on (0-based), leaving out the opening (default 0)",
    )
    add_engine_arguments(parser)
    parser.add_argument("--html", type=Path, metavar="PATH", help="also write the annotated page here")
    parser.add_argument("--json", action="store_true", help="print the analysis as one JSON object instead of text")


def run(args: argparse.Namespace) -> int:
    game = game_to_analyse(args)
    if not args.from_ply < len(game.moves):
        raise InputError(f"--from-ply {args.from_ply}: the game has plies 0 to {len(game.moves) - 1}")
    if args.html is not None:
        check_output_file(args.html, "html")
    seconds = args.time_limit if args.time_limit > 0 else math.inf
    board = game.board
    shape = board.geometry
    with analysis_engine(args, board, NAME) as (solver, cache):
        progress = ProgressBar(len(game.moves) - args.from_ply, 0, unit="ply", only_on_terminal=True)

        def show(ply: PlyAnalysis) -> None:  # each row once the whole game agrees, above the progress bar
            progress.write(move_line(ply, shape))

        if not args.json:
            print("\n".join(header_lines(game)), flush=True)
        started = time.perf_counter()
        try:
            analysis = analyze_game(
                game,
                seconds,
                solver,
                cache,
                lambda done, total: progress.update(""),
                args.from_ply,
                on_ply=None if args.json else show,
            )
        except KeyboardInterrupt:
            kept = "" if args.no_cache else f"; the positions solved so far are kept in {args.cache}"
            print(f"\nconnectx analyze: interrupted{kept}", file=sys.stderr)
            return INTERRUPTED
        finally:
            progress.close()
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps(analysis.to_json()))
    else:
        print("\n".join(summary_lines(analysis)))
        limit = f"up to {seconds:g} s per position" if seconds < math.inf else "no time limit"
        print(f"Analysed in {elapsed:.1f} s with the {SOLVER_NAMES.get(solver.name, solver.name)} solver, {limit}.")
    if args.html is not None:
        write_page(analysis, args.html, sys.stderr if args.json else sys.stdout)
    return 0


def game_to_analyse(args: argparse.Namespace) -> Game:
    """The game the arguments name, checked whole (legal moves, at least one); InputError says what is wrong."""
    if args.source is not None and args.moves is not None:
        raise InputError(f"both {args.source} and --moves name a game; give one of them")
    if args.source is None and args.moves is None:
        raise InputError(
            "no game given: name a Kaggle episode JSON, a run directory with --game N, or give --moves DIGITS"
        )
    if args.moves is not None:
        game = game_from_moves(args)
        if not game.moves:
            raise InputError("--moves is empty: nothing to analyse; give the game's columns as digits, e.g. 4453")
        return game
    if board_spec(args) != STANDARD_BOARD:
        raise InputError("--rows, --columns and --inarow go with --moves; a file holds its game's own board")
    game = game_from_file(args.source, args.game)
    if not game.moves:
        raise InputError(f"{args.source} holds a game without moves: nothing to analyse")
    return game


def game_from_moves(args: argparse.Namespace) -> Game:
    if args.game is not None:
        raise InputError("--game picks a game of a run directory; it does not go with --moves")
    board = board_spec(args)
    try:
        return game_from_digits(args.moves, board)
    except ValueError as error:
        raise InputError(f"--moves: {error} (1-based column digits, as in the positions/ files)") from None


def game_from_file(path: Path, index: int | None) -> Game:
    """Game ``index`` of a run directory (or of its games.jsonl), or the game of a Kaggle episode file."""
    if not path.exists():
        raise InputError(f"{path} does not exist; give a Kaggle episode JSON or a run directory with --game N")
    if path.is_dir() or path.suffix == ".jsonl":
        if index is None:
            raise InputError(f"{path} holds a run's games; say which one with --game N")
        try:
            record = ResultsStore(path if path.is_dir() else path.parent).record(index)
        except RunDirectoryError as error:
            raise InputError(f"{flag_words(error)}; pick a recorded --game of a play, match or tournament") from None
        return game_from_record(record.to_json())
    if index is not None:
        raise InputError(
            f"--game picks a game of a run directory, and {path} is a file; "
            "give the run's directory, or leave --game out for an episode JSON"
        )
    try:
        return read_episode(path)
    except ValueError as error:
        where = "" if str(error).startswith(f"cannot read {path}") or str(error).startswith(str(path)) else f"{path}: "
        raise InputError(f"{where}{error}; give a Kaggle episode JSON (as `connectx play --json` writes)") from None


def write_page(analysis: GameAnalysis, path: Path, stream: TextIO) -> None:
    """The annotated page at ``path``, and a line on ``stream`` saying so."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render_html(analysis), encoding="utf-8")
    except OSError as error:
        raise InputError(f"--html {path} could not be written ({error.strerror}); choose another path") from None
    print(f"wrote {path}", file=stream)
