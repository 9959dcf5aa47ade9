"""Rate agents the way Kaggle's leaderboard does: episodes against a pool of fallible opponents.

Every agent (those named here and the pool's) starts at μ = 600 with an uncertainty σ; each
episode pairs agents of similar ratings, seats at random, and openskill moves both ratings by
how surprising the result was. Writes DIR/games.jsonl (one line per episode, at once),
DIR/summary.json, DIR/ladder.md and DIR/ratings.png (μ over the episodes, with matplotlib). An interrupted
ladder, or one to extend with a larger --episodes, continues with --resume --out DIR.
Pools: default (perfect players with errors down to kaggle's random), fast (millisecond agents)
and none (the named agents among themselves); docs/ladder.md describes each member's mistakes.
"""

from __future__ import annotations

import argparse

from connectx.cli.options import (
    add_play_arguments,
    checked_plan,
    games_executor,
    output_directory,
    parsed_agents,
    positive_int,
    run_options,
)
from connectx.cli.progress import play_with_progress, plots_module
from connectx.evaluation.fault_notes import fault_notes
from connectx.evaluation.ladder import LadderPlan, LadderResult, LadderSummary, play_prepared_ladder
from connectx.evaluation.ladder_pool import POOLS
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.results_text import ladder_report, ladder_table
from connectx.evaluation.run_loop import prepare_run

NAME = "ladder"
HELP = "rate agents Kaggle's way (openskill μ/σ) in episodes against a pool of fallible opponents"
NEEDS = ("openskill",)
"""The ratings' model; the figure is drawn when matplotlib is installed."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agents",
        metavar="AGENT",
        nargs="*",
        help="agents to rate: registry name[:params], kaggle:NAME or .py files (none: the pool alone)",
    )
    parser.add_argument(
        "--pool",
        choices=sorted(POOLS),
        default="default",
        help="the opponents they join (default: default; docs/ladder.md lists them)",
    )
    parser.add_argument(
        "--episodes",
        type=positive_int,
        default=200,
        help="episodes in all, those already played included (default 200)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the pairings and the games (default 0)")
    add_play_arguments(parser, "episodes")


def running_line(summary: LadderSummary) -> str:
    leader = summary.standings[0]
    return f"leader {leader.agent} μ {leader.mu:.0f} σ {leader.sigma:.0f}"


def run(args: argparse.Namespace) -> int:
    specs = parsed_agents(args.agents)
    plan = checked_plan(lambda: LadderPlan(tuple(specs), args.pool, args.episodes, args.seed))
    out = output_directory(NAME, args.out, args.resume, plan.specs)
    prepared = prepare_run(plan, run_options(args, out))
    with games_executor(args) as (executor, jobs):
        run = prepared.played_on(executor, jobs)
        result = play_with_progress(
            NAME,
            out,
            plan.episodes,
            len(run.recorded),
            lambda on_game: play_prepared_ladder(run, on_game),
            running_line,
        )
    if isinstance(result, int):
        return result
    figures = write_outputs(result)
    print(ladder_table(result.summary))
    for note in fault_notes(result.records, out):
        print(note)
    print(f"results in {out}/ ({', '.join(['games.jsonl', 'summary.json', 'ladder.md', *figures])})")
    return 0


def write_outputs(result: LadderResult) -> list[str]:
    """summary.json, the ratings plot (where matplotlib is installed) and ladder.md next to games.jsonl; the plot's
    file names."""
    assert result.directory is not None
    store = ResultsStore(result.directory)
    store.write_json("summary.json", result.summary.to_json())
    figures: list[str] = []
    plots = plots_module(NAME)
    if plots is not None:
        plot = plots.ratings_plot(
            result.summary.history,
            result.directory / "ratings.png",
            highlight=[spec.text for spec in result.plan.candidates],
        )
        figures = [plot.name]
    store.write_text("ladder.md", ladder_report(result.plan, result.summary, figures))
    return figures
