"""The solver where its opening book ends: real games from the book's edge against perfect play.

The book holds the solver's move in every position its strategy reaches, to ply 16 as first
player and ply 15 as second; from there the search must keep playing perfectly on Kaggle's clock.
This benchmark

1. walks each side's strategy tree (our book move, every opponent reply) and counts its gaps, the
   positions within the book's depth that it has no move for (a gap is a bug);
2. samples positions at the edge, where the search takes over, along strong lines: the opponent
   plays the best replies or nearly (most of the edge lies behind a blunder and is easy);
3. plays each as a kaggle-environments game from that position: ``solver`` (on Kaggle's clock)
   against the C solver's perfect play (``book/perfect_play.py``), which defends a lost position
   as long as it can and wins a won one as fast as it can;
4. checks every result against the position's value: as first player every game must be won, as
   second player no game may end worse than the value (a won position won, a drawn one not lost).

It prints the results by side and the solver's move times against ``actTimeout``. Games go through
the harness's run loop to out/benchmarks/solver-frontier/; an interrupted run continues with
``--resume``, which refuses games recorded by other code unless ``--allow-code-change``.
Needs a C compiler (for the opponent). Usage:

    .venv/bin/python -m benchmarks.solver_frontier [-n 60] [--jobs 1] [--resume]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.conditions import machine_conditions
from book.checkpoint import read_solved
from book.levels import Solved, Task, next_level, root_level
from book.paths import BOOK_POSITIONS
from book.perfect_play import write_agent_file
from connectx.agents.core.kaggle_boundary import FAULT_STATUSES
from connectx.agents.core.position import Position
from connectx.agents.players.opening_book import OpeningBook, load_opening_book
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.match import MoveTimes
from connectx.evaluation.option_words import OptionError, flag_words
from connectx.evaluation.run_loop import GameCount, ListedGames, PlayOptions, play_prepared, prepare_run
from connectx.solver.native import NativeSolver

OUT = Path("out") / "benchmarks" / "solver-frontier"
ACT_TIMEOUT = 2.0
SIDES = ("first", "second")
MAX_ATTEMPTS_PER_SAMPLE = 20


def book_edge(book: OpeningBook, side: int) -> tuple[list[str], list[str]]:
    """``(edge, gaps)`` of the book's strategy for ``side`` (0 moves first), as move strings.

    The edge holds the positions, one per mirror/transposition class, where the book has no move
    because they lie beyond its depth; gaps are those within its depth.
    """
    depth = book.first_player_plies if side == 0 else book.second_player_plies
    level: dict[int, Task] = root_level(side)
    edge: list[str] = []
    gaps: list[str] = []
    while level:
        followed = []
        for task in level.values():
            position = Position.from_moves(task.moves)
            column = book.move_for(6, 7, 4, position.current, position.mask)
            if column is None:
                (gaps if position.moves <= depth else edge).append(task.moves)
            else:
                followed.append(Solved(task.moves, task.floor, column, 0, 0.0))
        level = next_level(followed)
    return sorted(edge), sorted(gaps)


def strong_line(
    book: OpeningBook, known: dict[int, Solved], side: int, solver: NativeSolver, rng: random.Random, tolerance: int
) -> str | None:
    """The moves of one line from the empty board to the book's edge for ``side``, or None if the game ended.

    Our side plays the book. The opponent picks at random among its replies that leave our score
    within ``tolerance`` of the lowest (0: perfect defence or attack only), so the lines follow
    strong play, not the blunders most of the edge lies behind. Scores of the positions we move
    in come from the generator's checkpoint (``known``), beyond the book from the C solver.
    """
    position, moves = Position.from_moves(""), ""
    while True:
        if position.moves % 2 == side:
            column = book.move_for(6, 7, 4, position.current, position.mask)
            if column is None:
                return moves
            if position.is_winning_move(column):
                return None
        else:
            if position.winning_columns():
                return None
            scored = {}
            for reply in position.legal_columns():
                child = position.play(reply)
                if child.is_full():
                    continue
                entry = known.get(child.canonical_key())
                scored[reply] = entry.score if entry is not None else solver.solve(moves + str(reply + 1)).score
            if not scored:
                return None
            lowest = min(scored.values())
            column = rng.choice(sorted(reply for reply, score in scored.items() if score <= lowest + tolerance))
        position, moves = position.play(column), moves + str(column + 1)


def edge_sample(
    book: OpeningBook,
    known: dict[int, Solved],
    side: int,
    count: int,
    solver: NativeSolver,
    rng: random.Random,
    tolerance: int,
) -> list[str]:
    """``count`` distinct edge positions of ``side`` reached by ``strong_line`` (fewer if they run out)."""
    found: dict[str, None] = {}
    for _ in range(MAX_ATTEMPTS_PER_SAMPLE * count):
        line = strong_line(book, known, side, solver, rng, tolerance)
        if line is not None:
            found.setdefault(line)
            if len(found) == count:
                break
    return list(found)


def game_specs(samples: Sequence[tuple[int, str]], opponent_file: str) -> list[GameSpec]:
    """One game per ``(side, moves)`` sample, the solver in seat ``side``, from that position."""
    specs = []
    for index, (side, moves) in enumerate(samples):
        agents = ("solver", opponent_file) if side == 0 else (opponent_file, "solver")
        opening = tuple(int(digit) - 1 for digit in moves)
        specs.append(GameSpec(index, agents, BoardConfig(), seed=index, opening=opening))
    return specs


def verdict(record: GameRecord, side: int, value: int) -> str | None:
    """What is wrong with the solver's result in ``record`` given the edge position's ``value``, or None."""
    if record.cause in FAULT_STATUSES and record.offender == side:
        return f"{record.cause}: {record.detail}"
    if not record.scored:
        return f"not scored: {record.detail}"
    points = record.points(side)
    needed = 1.0 if value > 0 else 0.5 if value == 0 else 0.0
    if points < needed:
        return f"scored {points} from a position worth {value} for the solver"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=60, help="edge positions per side (default 60)")
    parser.add_argument("--seed", type=int, default=1, help="which edge positions are sampled")
    parser.add_argument(
        "--tolerance",
        type=int,
        default=2,
        help="score points the opponent may give away per move on the way to the edge (default 2)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="games at once (default 1: the solver's timings mean most on a quiet core)"
    )
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--resume", action="store_true", help="continue the run in the output directory")
    parser.add_argument(
        "--allow-code-change", action="store_true", help="resume even over games recorded by other code"
    )
    args = parser.parse_args(argv)
    book = load_opening_book()
    print(f"solver from its book's edge against perfect play; at the start {machine_conditions()}", flush=True)
    rng = random.Random(args.seed)
    solver = NativeSolver(24)
    known = read_solved(BOOK_POSITIONS)
    samples: list[tuple[int, str]] = []
    gaps_found = False
    for side in (0, 1):
        started = time.perf_counter()
        edge, gaps = book_edge(book, side)
        print(
            f"{SIDES[side]} player: the book's strategy ends at {len(edge):,} positions "
            f"(walked in {time.perf_counter() - started:.0f} s); gaps within its depth: {len(gaps)}"
            + (f", e.g. {gaps[:5]}" if gaps else ""),
            flush=True,
        )
        gaps_found = gaps_found or bool(gaps)
        samples += [(side, moves) for moves in edge_sample(book, known, side, args.games, solver, rng, args.tolerance)]
    values = [solver.solve(moves).score for _, moves in samples]
    opponent = str(write_agent_file(args.out / "perfect_opponent.py").resolve())
    parameters = (
        ("seed", args.seed),
        ("games", args.games),
        ("tolerance", args.tolerance),
        ("samples", [list(sample) for sample in samples]),
    )
    plan = ListedGames("solver_frontier", tuple(game_specs(samples, opponent)), parameters)
    options = PlayOptions(jobs=args.jobs, out=args.out, resume=args.resume, allow_code_change=args.allow_code_change)
    try:
        run = prepare_run(plan, options)
    except OptionError as error:
        parser.error(flag_words(error))
    done = {record.index: record for record in run.recorded}
    total = len(samples)

    def record(game: GameRecord, summary: object) -> None:
        done[game.index] = game
        side = samples[game.index][0]
        problem = verdict(game, side, values[game.index])
        slowest = max(game.durations[side], default=0.0)
        print(
            f"[{len(done)}/{total}] {SIDES[side]} player from {samples[game.index][1]} "
            f"(value {values[game.index]:+d}): {'OK' if problem is None else problem}; "
            f"slowest move {slowest:.2f} s",
            flush=True,
        )

    play_prepared(run, GameCount(), record)
    return report(samples, values, done, gaps_found)


def report(
    samples: Sequence[tuple[int, str]], values: Sequence[int], done: dict[int, GameRecord], gaps_found: bool
) -> int:
    """Print the results by side and the solver's move times; 0 when every game met its value."""
    print(f"\nat the end {machine_conditions()}")
    print(
        "| side | games | positions won / drawn / lost | solver won / drawn / lost | met the value "
        "| moves | mean s | p95 s | slowest s | over actTimeout |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    failures = []
    for side in (0, 1):
        indices = [index for index, (s, _) in enumerate(samples) if s == side and index in done]
        worth = [values[index] for index in indices]
        points = [done[index].points(side) for index in indices]
        problems = [(samples[index][1], verdict(done[index], side, values[index])) for index in indices]
        failures += [(moves, problem) for moves, problem in problems if problem is not None]
        durations = [t for index in indices for t in done[index].durations[side]]
        times = MoveTimes.of(durations)
        print(
            f"| {SIDES[side]} | {len(indices)} | {sum(v > 0 for v in worth)} / {sum(v == 0 for v in worth)} / "
            f"{sum(v < 0 for v in worth)} | {points.count(1.0)} / {points.count(0.5)} / {points.count(0.0)} | "
            f"{len(indices) - sum(p is not None for _, p in problems)}/{len(indices)} | {times.moves} | "
            f"{times.mean:.3f} | {times.p95:.3f} | {times.max:.2f} | {sum(t > ACT_TIMEOUT for t in durations)} |"
        )
    for moves, problem in failures:
        print(f"FAILED from {moves}: {problem}")
    met = not failures and not gaps_found and len(done) == len(samples)
    print(f"target: the book has no gap and every game meets its position's value: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
