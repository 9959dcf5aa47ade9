"""More exactly solved leaf-like positions for ``evaluation_ranking``: sampled from recorded games, scored in C.

``evaluation_ranking`` needs positions like those a depth-limited search leaves at its horizon,
with their exact outcome. This script makes them from recorded games (any run directory's, read as
``connectx.evaluation.results_store`` reads them, on boards the C solver plays:
``connectx.solver.native.fits``). It picks
a random game and a random ply of ``--plies``, takes the game's position two plies before, then
plays two random moves that do not lose at once; it keeps the position if the side to move has no
immediate win and a move that does not lose at once (else a search sees through it), and scores it
with the C solver within ``--seconds`` (harder ones are skipped). Each solved position is appended
to ``--out`` at once as ``BOARD MOVES SCORE``, never twice, so a stopped run keeps what it solved
and a second run adds more. The repository's file (``benchmarks/results/evaluation_positions.txt``)
came from the 476 games of ``other_boards`` in git history at 7e801c8, with ``--plies 10-30``.

Usage: .venv/bin/python -m benchmarks.evaluation_positions RUN_DIR [RUN_DIR ...] --count N [--plies 10-30]
       [--seed 1] [--seconds 30] [--out benchmarks/results/evaluation_positions.txt]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from tqdm import tqdm

from benchmarks import RESULTS
from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.position import Position
from connectx.analysis.games import Game, game_from_record
from connectx.evaluation.results_store import GAMES_FILE, ResultsStore
from connectx.solver.build import fits
from connectx.solver.interface import native_unavailable_reason
from connectx.solver.native_search import NativeSearchSolver
from connectx.solver.score_range import ScoreRange

POSITIONS = RESULTS / "evaluation_positions.txt"
RANDOM_PLIES = 2
"""Random moves played off the game's path: the search's leaves are rarely positions of the game itself."""
GIVE_UP_DRAWS = 10_000
"""Draws in a row that found no new position before the run stops short of ``--count``."""


def board_name(game: Game) -> str:
    return f"{game.board.columns}x{game.board.rows}/{game.board.inarow}"


def read_games(directories: list[Path]) -> list[Game]:
    """Every game of the run directories; ValueError saying what to give otherwise.

    ``ResultsStore.load`` leaves out a torn last line, so the games of a run still playing can be sampled.
    """
    games = []
    for directory in directories:
        if not (directory / GAMES_FILE).is_file():
            raise ValueError(f"cannot read {directory / GAMES_FILE}: give run directories holding recorded games")
        for record in ResultsStore(directory).load():
            game = game_from_record(record.to_json())
            if not fits(game.board.rows, game.board.columns, game.board.inarow):
                raise ValueError(
                    f"{directory}: the C solver does not play {board_name(game)} "
                    "(four in a row, up to 9 columns and 64 bitboard bits only)"
                )
            games.append(game)
    if not games:
        names = ", ".join(map(str, directories))
        raise ValueError(f"no games in {names}: give run directories with recorded games")
    return games


def leaf(game: Game, ply: int, rng: random.Random) -> tuple[Position, str] | None:
    """The game's position at ``ply - RANDOM_PLIES`` plus random moves that do not lose at once, or None."""
    digits = game.digits[: ply - RANDOM_PLIES]
    position = Position.from_moves(digits, game.board.rows, game.board.columns, game.board.inarow)
    for _ in range(RANDOM_PLIES):
        safe = position.non_losing_columns()
        if not safe or position.winning_columns():
            return None
        column = rng.choice(safe)
        position, digits = position.play(column), digits + str(column + 1)
    if position.is_over() or position.winning_columns() or not position.non_losing_columns():
        return None
    return position, digits


def parse_plies(text: str) -> tuple[int, int]:
    try:
        low, high = map(int, text.split("-"))
    except ValueError:
        low = high = -1
    if not RANDOM_PLIES <= low <= high:
        raise ValueError(f"--plies {text}: give LOW-HIGH with {RANDOM_PLIES} <= LOW <= HIGH, like 10-30")
    return low, high


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", type=Path, help="run directories whose games are sampled")
    parser.add_argument("--count", type=int, required=True, help="positions to add")
    parser.add_argument("--plies", default="10-30", help="the plies sampled, LOW-HIGH (default 10-30)")
    parser.add_argument("--seed", type=int, default=1, help="the sampling's random seed (default 1)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=30.0,
        help="the C solver's time for one position; harder ones are skipped (default 30)",
    )
    parser.add_argument("--out", type=Path, default=POSITIONS, help=f"the file appended to (default {POSITIONS})")
    args = parser.parse_args(argv)
    try:
        low, high = parse_plies(args.plies)
        if args.count < 1 or args.seconds <= 0:
            raise ValueError(f"--count {args.count} --seconds {args.seconds:g}: give a positive count and time")
        games = [game for game in read_games(args.games) if len(game.digits) > low]
        if not games:
            raise ValueError(f"no game is longer than {low} plies: give --plies that the games reach")
        for board in {(game.board.rows, game.board.columns) for game in games}:
            reason = native_unavailable_reason(BoardSpec(*board))
            if reason is not None:
                raise ValueError(f"the C solver is unavailable ({reason})")
    except ValueError as error:
        print(f"evaluation_positions: {error}", file=sys.stderr)
        return 2
    # "BOARD MOVES" of every position in the file or tried in this run: none is solved twice
    known = {line.rsplit(" ", 1)[0] for line in args.out.read_text().splitlines()} if args.out.exists() else set()
    rng = random.Random(args.seed)
    solvers: dict[tuple[int, int], NativeSearchSolver] = {}
    added = skipped = 0
    try:
        with args.out.open("a") as out, tqdm(total=args.count, unit="position", file=sys.stderr) as bar:
            fruitless = 0  # draws in a row that gave no new position: the games may hold no more
            while added < args.count and fruitless < GIVE_UP_DRAWS:
                game = rng.choice(games)
                found = leaf(game, rng.randint(low, min(high, len(game.digits) - 1)), rng)
                fruitless += 1
                if found is None:
                    continue
                position, digits = found
                key = f"{board_name(game)} {digits}"
                if key in known:
                    continue
                fruitless = 0
                known.add(key)  # solved or skipped, it is not tried again
                board = (game.board.rows, game.board.columns)
                if board not in solvers:
                    solvers[board] = NativeSearchSolver(rows=game.board.rows, columns=game.board.columns)
                solver = solvers[board]
                deadline = time.perf_counter() + args.seconds
                value = solver.bound(position, digits, ScoreRange.possible(position), deadline)
                if not value.exact:
                    skipped += 1
                    continue
                out.write(f"{key} {value.lower}\n")
                out.flush()  # a stopped run keeps every position solved
                added += 1
                bar.update(1)
    except KeyboardInterrupt:
        print(f"\nevaluation_positions: interrupted; {added} positions added to {args.out}", file=sys.stderr)
        return 130
    finally:
        for solver in solvers.values():
            solver.close()
    print(f"{added} positions added to {args.out} ({skipped} skipped: not solved within {args.seconds:g} s)")
    if added < args.count:
        print(
            f"evaluation_positions: no new position in {GIVE_UP_DRAWS} draws; give more games or other --plies",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
