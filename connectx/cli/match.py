"""Play a match of colour-swapped pairs between A and B, with a live score, a final table and files.

Writes DIR/games.jsonl (one line per finished game, at once), DIR/summary.json, DIR/report.md
and DIR/score.png, DIR/time_per_move.png (with matplotlib); --replays adds DIR/replays/game-NNNNN.json. An
interrupted match continues with the same arguments plus --resume; a finished one can be extended
with a larger -n and --resume.
"""

from __future__ import annotations

import argparse

from connectx.cli.options import (
    InputError,
    add_run_arguments,
    board_config,
    checked_plan,
    finite_number,
    games_executor,
    output_directory,
    parsed_agents,
    probability,
    run_options,
)
from connectx.cli.progress import play_with_progress, plots_module
from connectx.evaluation.fault_notes import fault_notes
from connectx.evaluation.match import MatchPlan, MatchResult, Sprt, durations_by_agent, play_prepared_match
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.results_text import match_report, match_table, running_line
from connectx.evaluation.run_loop import prepare_run

NAME = "match"
HELP = "play a match between two agents and report W/D/L, Elo with error bars, LOS and SPRT"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="A", help="agent A: a registry name[:params], kaggle:NAME or a .py file")
    parser.add_argument("second", metavar="B", help="agent B")
    add_run_arguments(parser, default_games=100)
    parser.add_argument(
        "--sprt",
        type=finite_number,
        nargs=2,
        metavar=("ELO0", "ELO1"),
        help="stop early once an SPRT of H0: Elo <= ELO0 against H1: Elo >= ELO1 decides",
    )
    parser.add_argument("--alpha", type=probability, default=0.05, help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=probability, default=0.05, help="SPRT false-negative rate (default 0.05)")


def sprt_of(args: argparse.Namespace) -> Sprt | None:
    if args.sprt is None:
        return None
    try:
        return Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta)
    except ValueError as error:
        raise InputError(
            f"{error}; give --sprt ELO0 ELO1 with ELO0 < ELO1, and --alpha, --beta that sum below 1"
        ) from None


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    first, second = parsed_agents([args.first, args.second])
    sprt = sprt_of(args)
    plan = checked_plan(lambda: MatchPlan(first, second, args.games, config, args.seed, args.openings))
    out = output_directory(NAME, args.out, args.resume, [first, second])
    prepared = prepare_run(plan, run_options(args, out))
    with games_executor(args) as (executor, jobs):
        run = prepared.played_on(executor, jobs)
        result = play_with_progress(
            NAME,
            out,
            plan.games,
            len(run.recorded),
            lambda on_game: play_prepared_match(run, sprt, on_game),
            running_line,
        )
    if isinstance(result, int):
        return result
    write_outputs(result)
    print(match_table(result.summary))
    for note in fault_notes(result.records, out):
        print(note)
    if result.stopped_early:
        print(f"SPRT decided ({result.summary.decision}) after {result.summary.total.games} games; stopped early.")
    print(f"results in {out}/ (games.jsonl, summary.json, report.md)")
    return 0


def write_outputs(result: MatchResult) -> None:
    """summary.json, the plots (where matplotlib is installed) and report.md next to games.jsonl."""
    assert result.directory is not None
    store = ResultsStore(result.directory)
    store.write_json("summary.json", result.summary.to_json())
    plan = result.plan
    figures: list[str] = []
    plots = plots_module(NAME)
    if plots is not None:
        score = plots.score_plot(
            [(f"{plan.first} vs {plan.second}", result.summary.score)], result.directory / "score.png"
        )
        times = plots.time_plot(
            durations_by_agent(plan, result.records), plan.config.act_timeout, result.directory / "time_per_move.png"
        )
        figures = [score.name, times.name]
    store.write_text("report.md", match_report(plan, result.summary, figures))
