"""How fast the solver's open-board search is, against another revision's: the same positions to the same depth.

The positions are the solver's own, from games it played against ``mcts`` in ``other_boards``
(three on each of 8x7/4 and 9x7/4, kept in benchmarks/results/open_board_games.jsonl so that the
positions stay the same whatever that benchmark stores later): each position from the third ply to
``--plies`` where the solver was to move with two safe moves or more is searched to ``--depth``
(or a proof), with one table for the whole game, as the solver searches in play. Each line
gives the nodes, the seconds, the nodes per second and a digest of every search's column and
value: a change that only makes the search faster finds the same nodes and the same digest.

With ``--before REV`` the revision's code (``git archive``) and this working tree's are measured
in turn, ``--rounds`` times each in fresh processes (``open_board_measure``), and the ratio of
their seconds is printed, with whether both searched the same: the same nodes and the same digest.
The machine is shared and noisy: read the ratio, not the seconds.

Usage: .venv/bin/python -m benchmarks.open_board_speed [--before REV] [--boards 8x7/4 9x7/4]
       [--games 3] [--plies 30] [--depth 10] [--rounds 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from benchmarks import RESULTS
from benchmarks.conditions import machine_conditions
from benchmarks.other_boards import clocked_board
from benchmarks.revisions import ROOT, RevisionError, checkout_of, commit_of

GAMES = RESULTS / "open_board_games.jsonl"
BOARDS = ("8x7/4", "9x7/4")
MEASURE = Path(__file__).resolve().with_name("open_board_measure.py")


class MeasureError(Exception):
    """A version of the code that could not search the positions; the message holds its error."""


@dataclass(frozen=True)
class Measure:
    """One board searched by one version of the code."""

    nodes: int
    seconds: float
    digest: str


@dataclass(frozen=True)
class Job:
    """What each measurement searches: the stored games of ``board``, to ``plies`` and ``depth``."""

    board: str
    games: int
    plies: int
    depth: int


def solver_games(board: str, games: int) -> list[tuple[list[int], int]]:
    """The moves (0-based columns) and the solver's seat of the first ``games`` stored games on ``board``."""
    records = [json.loads(line) for line in GAMES.read_text().splitlines()]
    return [(record["moves"], record["solver_seat"]) for record in records if record["board"] == board][:games]


def measure_in(checkout: Path, job: Job) -> Measure:
    """``open_board_measure`` in a fresh process that imports ``agents`` from ``checkout``."""
    config = clocked_board(job.board)
    task = {
        "rows": config.rows,
        "columns": config.columns,
        "inarow": config.inarow,
        "games": solver_games(job.board, job.games),
        "plies": job.plies,
        "depth": job.depth,
    }
    # -P: the script's own directory stays off sys.path, so only the checkout provides ``agents``
    run = subprocess.run(
        [sys.executable, "-P", str(MEASURE)],
        input=json.dumps(task),
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise MeasureError(f"measuring {job.board} with {checkout} failed:\n{run.stderr[-2000:]}")
    return Measure(**json.loads(run.stdout))


def measure_both(job: Job, after: Path, before: Path | None, rounds: int) -> tuple[list[Measure], list[Measure]]:
    """``rounds`` measures of ``after``'s code and of ``before``'s (none without it), alternating which
    goes first, so both see the same drift in the machine's load."""
    after_measures: list[Measure] = []
    before_measures: list[Measure] = []
    for round_ in range(rounds):
        order = [(after, after_measures), (before, before_measures)]
        for checkout, measures in order if round_ % 2 == 0 else order[::-1]:
            if checkout is not None:
                measures.append(measure_in(checkout, job))
    return after_measures, before_measures


def same_search(after: list[Measure], before: list[Measure]) -> bool:
    """Whether both versions searched alike: the same nodes and the same moves and values, every round."""
    return {(m.nodes, m.digest) for m in after} == {(m.nodes, m.digest) for m in before}


def line(name: str, board: str, measures: list[Measure]) -> str:
    nodes = measures[0].nodes
    seconds = sum(measure.seconds for measure in measures) / len(measures)
    return (
        f"| {board} | {name} | {nodes:,} | {seconds:.2f} | {nodes / seconds:,.0f} | "
        f"{' '.join(sorted({measure.digest for measure in measures}))} |"
    )


def comparison(board: str, after: list[Measure], before: list[Measure]) -> str:
    """The table's row of the ratio of ``after``'s seconds to ``before``'s, and whether both searched alike."""
    ratio = sum(m.seconds for m in after) / sum(m.seconds for m in before)
    same = "yes" if same_search(after, before) else "no"
    return f"| {board} | after / before | | {ratio:.2f} | | same search: {same} |"


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="the revision to compare against (a commit, HEAD, a branch)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help="boards as COLUMNSxROWS/INAROW")
    parser.add_argument("--games", type=int, default=3, help="stored games per board, at most 3 (default 3)")
    parser.add_argument("--plies", type=int, default=30, help="positions up to this ply (default 30)")
    parser.add_argument("--depth", type=int, default=10, help="depth each search completes (default 10)")
    parser.add_argument("--rounds", type=int, default=2, help="measurements of each version (default 2)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        for board in args.boards:
            clocked_board(board)
            if not solver_games(board, 1):
                raise ValueError(f"board {board}: {GAMES.name} holds no games on it; give one of {', '.join(BOARDS)}")
        if min(args.games, args.plies, args.depth, args.rounds) < 1:
            raise ValueError("--games, --plies, --depth and --rounds: give positive numbers")
        commit = commit_of(args.before) if args.before else None
    except (RevisionError, ValueError) as error:
        print(f"open_board_speed: {error}", file=sys.stderr)
        return 2
    print(f"the solver's positions to depth {args.depth}, {args.rounds} rounds; {machine_conditions()}")
    print("| board | code | nodes | seconds | nodes/s | digest |\n|---|---|---:|---:|---:|---|")
    try:
        with checkout_of(commit) if commit else nullcontext() as before:
            for board in args.boards:
                job = Job(board, args.games, args.plies, args.depth)
                after_measures, before_measures = measure_both(job, ROOT, before, args.rounds)
                print(line("this working tree", board, after_measures), flush=True)
                if commit is not None:
                    print(line(commit[:12], board, before_measures), flush=True)
                    print(comparison(board, after_measures, before_measures), flush=True)
    except MeasureError as error:
        print(f"open_board_speed: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
