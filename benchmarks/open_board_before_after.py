"""This checkout's solver against another revision's, in real games on boards without a book.

How a change to the solver's open-board play is judged before it lands: colour-swapped pairs
from shared random openings, played and scored by the harness in kaggle-environments, as
``other_boards`` plays them. Both sides are submission files that ``connectx
build`` makes of the same agent spec (``--agent``): the revision's from ``git archive REV`` in a
temporary directory, this checkout's from its working tree. Each file holds its own copy of the
code, so the two versions play in one process as Kaggle's loader runs them, and an experiment
needs nothing but a commit to compare against.

The boards are played in rounds of ``--step`` games each, so a run stopped early still covers
every board. The games and both files go to out/before-after/<revision>-<agent>/ (``--out``), and
``--resume`` continues them; it refuses to go on when this checkout's file comes out different
from the stored one (the working tree changed since, and the games would mix two agents).

The table gives, per board and over all of them, this checkout's wins, draws and losses, its
score with the Wilson 95% interval, and both sides' mean and largest move time. The default spec
plays on Kaggle's clock (``actTimeout`` 2 s and the overage bank); ``solver:time_budget=0.25``
plays quick games at a fixed time a move.

Usage: .venv/bin/python -m benchmarks.open_board_before_after --before REV [--agent solver]
       [--games 40] [--step 10] [--boards 8x7/4 9x7/4 7x7/4] [--jobs N] [--out DIR] [--resume]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from benchmarks.conditions import jobs_phrase, machine_conditions
from benchmarks.matches import Progress, slug, wdl
from benchmarks.other_boards import check_rounds, clocked_board, recorded_games
from benchmarks.revisions import ROOT, RevisionError, build_agent, checkout_of, commit_of
from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.match import MatchPlan, MatchResult, play_match
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import default_jobs
from connectx.evaluation.statistics.elo import wilson_interval

BOARDS = ("8x7/4", "9x7/4", "7x7/4")
"""The open boards of ``other_boards`` whose games take about as long as 7x6's: 10x8/5 games take twice as long."""
SEED = 26
"""Fixes the random openings: the same pairs for every revision compared."""
BEFORE, AFTER = "before.py", "after.py"


class RunError(Exception):
    """An output directory this run cannot use; the message says what to do."""


def build_both(commit: str, agent: str, into: Path) -> None:
    """``before.py`` from ``commit`` and ``after.py`` from the working tree, both in ``into``; RevisionError
    with the build's own message."""
    with checkout_of(commit) as checkout:
        build_agent(checkout, agent, into / BEFORE)
    build_agent(ROOT, agent, into / AFTER)


def prepare(out: Path, commit: str, agent: str, resume: bool) -> None:
    """Both submission files in ``out``, built now; on ``resume``, checked against the stored ones.

    Nothing is written when a check fails.
    """
    if out.exists() and not resume:
        raise RunError(f"{out} exists; continue it with --resume, or remove it")
    with tempfile.TemporaryDirectory() as scratch:
        built = Path(scratch)
        build_both(commit, agent, built)
        for name, source in ((BEFORE, commit[:12]), (AFTER, "this working tree")):
            if resume and (out / name).exists() and (out / name).read_bytes() != (built / name).read_bytes():
                raise RunError(
                    f"{out / name} was built from other code than {source}'s; "
                    "play this comparison in a new --out directory"
                )
        out.mkdir(parents=True, exist_ok=True)
        for name in (BEFORE, AFTER):
            if not (out / name).exists():
                (out / name).write_bytes((built / name).read_bytes())


def table(results: dict[str, MatchResult]) -> str:
    """The Markdown table of every board played and the total, from this checkout's side."""
    lines = [
        "| board | games | W/D/L | score (Wilson 95%) | after mean s | max s | before mean s | max s |",
        "|---|---:|---|---|---:|---:|---:|---:|",
    ]
    wins = draws = losses = 0
    for board, result in results.items():
        summary = result.summary
        total, score = summary.total, summary.score
        after, before = summary.times[summary.first], summary.times[summary.second]
        wins, draws, losses = wins + total.wins, draws + total.draws, losses + total.losses
        lines.append(
            f"| {board} | {total.games} | {wdl(total)} | "
            f"{score.value:.3f} [{score.low:.3f}, {score.high:.3f}] | "
            f"{after.mean:.2f} | {after.max:.2f} | {before.mean:.2f} | {before.max:.2f} |"
        )
    score = wilson_interval(wins, draws, losses)
    lines.append(
        f"| **total** | {wins + draws + losses} | {wins}/{draws}/{losses} | "
        f"{score.value:.3f} [{score.low:.3f}, {score.high:.3f}] | | | | |"
    )
    return "\n".join(lines)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the revision to play against (a commit, HEAD, a branch)")
    parser.add_argument("--agent", default="solver", help="the agent spec both sides are built from (default solver)")
    parser.add_argument("--games", type=int, default=40, help="games per board, even (default 40)")
    parser.add_argument("--step", type=int, default=10, help="games per board per round, even (default 10)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help="boards as COLUMNSxROWS/INAROW")
    parser.add_argument("--openings", type=int, default=2, help="random opening plies shared by a pair (default 2)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="games at once (default: the cores)")
    parser.add_argument(
        "--out", type=Path, help="where the games and both files go (default out/before-after/<revision>-<agent>)"
    )
    parser.add_argument("--resume", action="store_true", help="continue the run in its output directory")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        check_rounds(args.boards, args.games, args.step)
        commit = commit_of(args.before)
        out = args.out or ROOT / "out" / "before-after" / f"{commit[:12]}-{slug(args.agent)}"
        prepare(out, commit, args.agent, args.resume)
    except (RunError, RevisionError, ValueError) as error:
        print(f"open_board_before_after: {error}", file=sys.stderr)
        return 2
    print(
        f"{args.agent}: this working tree (after) against {commit[:12]} (before), {jobs_phrase(args.jobs)}; "
        f"at the start {machine_conditions()}",
        flush=True,
    )
    after, before = str(out / AFTER), str(out / BEFORE)
    directories = {board: out / board.replace("/", "-") for board in args.boards}
    progress = Progress(
        args.games * len(args.boards),
        sum(min(args.games, recorded_games(directory)) for directory in directories.values()),
    )
    results: dict[str, MatchResult] = {}
    for target in range(args.step, args.games + args.step, args.step):
        for board, directory in directories.items():
            results[board] = play_match(
                MatchPlan(
                    AgentSpec.of(after),
                    AgentSpec.of(before),
                    min(target, args.games),
                    config=clocked_board(board),
                    seed=SEED,
                    opening_plies=args.openings,
                ),
                PlayOptions(jobs=args.jobs, out=directory, resume=directory.exists()),
                on_game=progress.on_game(board),
            )
    progress.close()
    print(f"at the end {machine_conditions()}")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
