"""How fast the solver's open-board search is, against another revision's: the same positions to the same depth.

The positions are the solver's own, from games it played against ``mcts`` in ``other_boards.py``
(three on each of 8x7/4 and 9x7/4, kept in benchmarks/open_board_games.jsonl so that the positions
stay the same whatever that benchmark stores later): each position from the third ply to
``--plies`` where the solver was to move with two safe moves or more is searched to ``--depth``
(or a proof), with one table for the whole game, as the solver searches in play. Each line
gives the nodes, the seconds, the nodes per second and a digest of every search's column and
value: a change that only makes the search faster finds the same nodes and the same digest.

With ``--before REV`` the revision's code (``git archive``) and this working tree's are measured
in turn, ``--rounds`` times each in fresh processes, and the ratio of their seconds is printed.
The machine is shared and noisy: read the ratio, not the seconds.

Usage: .venv/bin/python benchmarks/open_board_speed.py [--before REV] [--boards 8x7/4 9x7/4]
       [--games 3] [--plies 30] [--depth 10] [--rounds 2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from conditions import machine_conditions
from other_boards import board_config
from revisions import ROOT, RevisionError, checkout_of, commit_of

GAMES = Path(__file__).resolve().parent / "open_board_games.jsonl"
BOARDS = ("8x7/4", "9x7/4")


@dataclass(frozen=True)
class Measure:
    """One board searched by one version of the code."""

    nodes: int
    seconds: float
    digest: str


def solver_moves(board: str, games: int) -> Iterator[tuple[list[int], int]]:
    """The moves (0-based columns) and the solver's seat of the first ``games`` stored games on ``board``."""
    records = [json.loads(line) for line in GAMES.read_text().splitlines()]
    for record in [record for record in records if record["board"] == board][:games]:
        yield record["moves"], record["solver_seat"]


def measure(board: str, games: int, plies: int, depth: int) -> Measure:
    """Search the solver's positions of ``board`` with this process's ``agents`` package."""
    from agents.core.position import Position
    from agents.search.principal_variation import VariationTable, deepening

    config = board_config(board)
    nodes, found = 0, []
    started = time.perf_counter()
    for moves, seat in solver_moves(board, games):
        table = VariationTable()
        position = Position.initial(config.rows, config.columns, config.inarow)
        for ply, column in enumerate(moves[:plies]):
            if ply % 2 == seat and ply >= 2 and len(position.non_losing_columns()) > 1 \
                    and not position.winning_columns():
                for result in deepening(position, table):
                    nodes += result.nodes
                    if result.depth >= depth or result.proven:
                        break
                found.append(f"{result.column}:{result.score:.9f}")
            position = position.play(column)
            if position.is_over():
                break
    seconds = time.perf_counter() - started
    return Measure(nodes, seconds, hashlib.sha256(" ".join(found).encode()).hexdigest()[:12])


def measure_in(checkout: Path, args: argparse.Namespace, board: str) -> Measure:
    """``measure`` in a fresh process that imports ``agents`` from ``checkout``."""
    run = subprocess.run([sys.executable, __file__, "--measure", board, "--games", str(args.games),
                          "--plies", str(args.plies), "--depth", str(args.depth)],
                         env={**os.environ, "PYTHONPATH": str(checkout)}, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"open_board_speed: measuring {board} with {checkout} failed:\n{run.stderr[-2000:]}")
    return Measure(**json.loads(run.stdout))


def line(name: str, board: str, measures: list[Measure]) -> str:
    nodes = measures[0].nodes
    seconds = sum(measure.seconds for measure in measures) / len(measures)
    return (f"| {board} | {name} | {nodes:,} | {seconds:.2f} | {nodes / seconds:,.0f} | "
            f"{' '.join(sorted({measure.digest for measure in measures}))} |")


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the revision to compare against (a commit, HEAD, a branch)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help="boards as COLUMNSxROWS/INAROW")
    parser.add_argument("--games", type=int, default=3, help="stored games per board, at most 3 (default 3)")
    parser.add_argument("--plies", type=int, default=30, help="positions up to this ply (default 30)")
    parser.add_argument("--depth", type=int, default=10, help="depth each search completes (default 10)")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each version (default 2)")
    parser.add_argument("--measure", metavar="BOARD", help=argparse.SUPPRESS)  # one measurement, as JSON
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    if args.measure:
        print(json.dumps(measure(args.measure, args.games, args.plies, args.depth).__dict__))
        return 0
    try:
        for board in args.boards:
            board_config(board)
            if next(solver_moves(board, 1), None) is None:
                raise ValueError(f"board {board}: {GAMES.name} holds no games on it; give one of {', '.join(BOARDS)}")
        if min(args.games, args.plies, args.depth, args.rounds) < 1:
            raise ValueError("--games, --plies, --depth and --rounds: give positive numbers")
        commit = commit_of(args.before) if args.before else None
    except (RevisionError, ValueError) as error:
        print(f"open_board_speed: {error}", file=sys.stderr)
        return 2
    print(f"the solver's positions to depth {args.depth}, {args.rounds} rounds; {machine_conditions()}")
    print("| board | code | nodes | seconds | nodes/s | digest |\n|---|---|---:|---:|---:|---|")
    with checkout_of(commit) if commit else nullcontext() as before:
        for board in args.boards:
            after_measures: list[Measure] = []
            before_measures: list[Measure] = []
            for round_ in range(args.rounds):
                # alternate which goes first, so both see the same drift in the machine's load
                order = [(ROOT, after_measures), (before, before_measures)]
                for checkout, measures in order if round_ % 2 == 0 else order[::-1]:
                    if checkout is not None:
                        measures.append(measure_in(checkout, args, board))
            print(line("this working tree", board, after_measures), flush=True)
            if commit is not None:
                print(line(commit[:12], board, before_measures), flush=True)
                ratio = sum(m.seconds for m in after_measures) / sum(m.seconds for m in before_measures)
                same = {(m.nodes, m.digest) for m in after_measures} == {(m.nodes, m.digest) for m in before_measures}
                print(f"| {board} | after / before | | {ratio:.2f} | | same search: {'yes' if same else 'no'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
