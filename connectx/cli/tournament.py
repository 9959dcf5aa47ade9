"""Play a round robin (or, with --gauntlet, the first agent against each other one) and fit Elo ratings.

Each pairing plays -n games in colour-swapped pairs. Writes DIR/games.jsonl (one line per game,
at once), DIR/summary.json, DIR/report.md with the ratings, cross table and pairings, and
DIR/score.png, DIR/time_per_move.png (with matplotlib). An interrupted run continues with --resume.
"""

from __future__ import annotations

import argparse

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.options import (
    InputError,
    add_run_arguments,
    board_config,
    checked_plan,
    games_executor,
    output_directory,
    parsed_agents,
    run_options,
)
from connectx.cli.progress import play_with_progress, plots_module
from connectx.evaluation.fault_notes import fault_notes
from connectx.evaluation.match import durations_by_agent
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.results_text import signed, tournament_report, tournament_tables
from connectx.evaluation.run_loop import prepare_run
from connectx.evaluation.tournament import (
    TournamentPlan,
    TournamentResult,
    TournamentSummary,
    local_records,
    play_prepared_tournament,
)

NAME = "tournament"
HELP = "play a round robin or gauntlet and print the cross table and fitted Elo ratings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "agents",
        metavar="AGENT",
        nargs="+",
        help="two or more agents: registry name[:params], kaggle:NAME or .py files",
    )
    parser.add_argument("--gauntlet", action="store_true", help="pair the first agent with each of the others only")
    parser.add_argument("--anchor", help="the agent whose Elo is pinned at 0 (default: the first)")
    add_run_arguments(parser, default_games=20)


def running_line(summary: TournamentSummary) -> str:
    leader = summary.ratings[0] if summary.ratings else None
    return "" if leader is None else f"leader {leader.name} {signed(leader.elo)} Elo"


def anchor_of(text: str | None, plan: TournamentPlan) -> str | None:
    """The --anchor agent as the plan names it; InputError unless it plays in the tournament."""
    if text is None:
        return None
    anchor = AgentSpec.parse(text).text
    if anchor not in plan.agents:
        raise InputError(f"--anchor {text!r} is not in the tournament; pick one of {', '.join(plan.agents)}")
    return anchor


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    specs = parsed_agents(args.agents)
    plan = checked_plan(
        lambda: TournamentPlan(tuple(specs), args.games, config, args.seed, args.openings, args.gauntlet)
    )
    anchor = anchor_of(args.anchor, plan)
    out = output_directory(NAME, args.out, args.resume, specs)
    prepared = prepare_run(plan, run_options(args, out))
    with games_executor(args) as (executor, jobs):
        run = prepared.played_on(executor, jobs)
        result = play_with_progress(
            NAME,
            out,
            plan.total_games,
            len(run.recorded),
            lambda on_game: play_prepared_tournament(run, anchor, on_game),
            running_line,
        )
    if isinstance(result, int):
        return result
    write_outputs(result)
    print(tournament_tables(result.summary))
    for note in fault_notes(result.records, out):
        print(note)
    print(f"results in {out}/ (games.jsonl, summary.json, report.md)")
    return 0


def write_outputs(result: TournamentResult) -> None:
    """summary.json, the plots (where matplotlib is installed) and report.md next to games.jsonl."""
    assert result.directory is not None
    plan, summary, store = result.plan, result.summary, ResultsStore(result.directory)
    store.write_json("summary.json", summary.to_json())
    figures: list[str] = []
    plots = plots_module(NAME)
    if plots is not None:
        durations: dict[str, list[float]] = {name: [] for name in plan.agents}
        for pairing in range(len(plan.pairings)):
            for name, values in durations_by_agent(
                plan.match_plan(pairing), local_records(plan, result.records, pairing)
            ).items():
                durations[name].extend(values)
        score = plots.score_plot(
            [(f"{s.first} vs {s.second}", s.score) for s in summary.pairings], result.directory / "score.png"
        )
        times = plots.time_plot(durations, plan.config.act_timeout, result.directory / "time_per_move.png")
        figures = [score.name, times.name]
    store.write_text("report.md", tournament_report(plan, summary, figures))
