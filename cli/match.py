"""Play a match of colour-swapped pairs between A and B, with a live score, a final table and files.

Writes DIR/games.jsonl (one line per finished game, at once), DIR/summary.json, DIR/report.md
and DIR/score.png, DIR/time_per_move.png; --replays adds DIR/replays/game-NNNNN.json. An
interrupted match continues with the same arguments plus --resume; a finished one can be extended
with a larger -n and --resume.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from agents.agent_spec import AgentKind, AgentSpec
from evaluation.game import GameRecord, Watchdog
from evaluation.input_checks import (
    InputError,
    agent_specs,
    check_output_directory,
    finite_number,
    non_negative_int,
    non_negative_seconds,
    positive_int,
    positive_seconds,
    probability,
)
from evaluation.match import MAY_CHANGE_ON_RESUME, MatchPlan, MatchResult, Sprt, durations_by_agent, play_match
from evaluation.play_command import add_board_arguments, board_config
from evaluation.report import match_report, match_table, running_line
from evaluation.results_store import ResultsStore
from evaluation.scheduling import default_jobs

NAME = "match"
HELP = "play a match between two agents and report W/D/L, Elo with error bars, LOS and SPRT"

Plan = TypeVar("Plan")
Result = TypeVar("Result")
Summary = TypeVar("Summary")


def add_run_arguments(parser: argparse.ArgumentParser, default_games: int) -> None:
    """Options shared by match and tournament: games, jobs, output, resume, seed, openings, watchdog."""
    parser.add_argument("-n", "--games", type=positive_int, default=default_games,
                        help=f"games per pairing, played in colour-swapped pairs (default {default_games})")
    parser.add_argument("--jobs", type=positive_int, default=default_jobs(),
                        help=f"worker processes playing games at once (default: the cores, {default_jobs()})")
    parser.add_argument("--out", type=Path, help="directory for the results (default: out/<command>/<agents>-<time>)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out without replaying any game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the schedule: game seeds and openings (default 0)")
    parser.add_argument("--openings", type=non_negative_int, default=0, metavar="PLIES",
                        help="start each pair from a shared random opening of PLIES moves (default 0)")
    parser.add_argument("--replays", action="store_true", help="save each game's replay JSON in DIR/replays/")
    parser.add_argument("--grace", type=non_negative_seconds, default=5.0,
                        help="seconds past Kaggle's own limit before the watchdog kills a move (default 5)")
    parser.add_argument("--move-limit", type=positive_seconds, default=None,
                        help="kill any move that takes longer than this many seconds, overage or not")
    add_board_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="A", help="agent A: a registry name[:params], kaggle:NAME or a .py file")
    parser.add_argument("second", metavar="B", help="agent B")
    add_run_arguments(parser, default_games=100)
    parser.add_argument("--sprt", type=finite_number, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop early once an SPRT of H0: Elo <= ELO0 against H1: Elo >= ELO1 decides")
    parser.add_argument("--alpha", type=probability, default=0.05, help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=probability, default=0.05, help="SPRT false-negative rate (default 0.05)")


def default_directory(command: str, specs: Sequence[AgentSpec]) -> Path:
    names = [Path(spec.name).stem if spec.kind is AgentKind.FILE else spec.text for spec in specs[:2]]
    slug = "-vs-".join(re.sub(r"[^A-Za-z0-9=.,]+", "_", name) for name in names)
    if len(specs) > 2:
        slug += f"-and-{len(specs) - 2}-more"
    return Path("out") / command / f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}"


class ProgressLine:
    """A tqdm bar on stderr whose text is the live score."""

    def __init__(self, total: int, done: int) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, initial=done, unit="game", dynamic_ncols=True, file=sys.stderr)

    def update(self, text: str) -> None:
        self.bar.set_postfix_str(text, refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


def watchdog(args: argparse.Namespace) -> Watchdog:
    return Watchdog(args.grace, move_limit=args.move_limit)


def checked_plan(build: Callable[[], Plan]) -> Plan:
    """``build()``, its ValueError (too many opening plies, a repeated agent) as an InputError."""
    try:
        return build()
    except ValueError as error:
        raise InputError(str(error)) from None


def run_directory(command: str, args: argparse.Namespace, specs: Sequence[AgentSpec], plan: dict[str, object],
                  may_change: tuple[str, ...] = ()) -> tuple[Path, int]:
    """The --out directory (checked writable and free for ``plan``) and how many games it holds already."""
    if args.resume and args.out is None:
        raise InputError("--resume needs --out DIR, the directory of the run to continue")
    out = args.out or default_directory(command, specs)
    check_output_directory(out, "--out")
    return out, len(ResultsStore(out).check(plan, args.resume, may_change))


def play_with_progress(command: str, out: Path, total: int, done: int,
                       play: Callable[[Callable[[GameRecord, Summary], None]], Result],
                       line: Callable[[Summary], str]) -> Result | int:
    """``play(on_game)`` under a live progress line; exit code 130, after saying how to resume, on Ctrl-C."""
    progress = ProgressLine(total, min(done, total))
    try:
        return play(lambda record, summary: progress.update(line(summary)))
    except KeyboardInterrupt:
        print(f"\nconnectx {command}: interrupted; finished games are in {out / 'games.jsonl'}. "
              f"Continue with the same arguments plus --resume --out {out}", file=sys.stderr)
        return 130
    finally:
        progress.close()


def sprt_of(args: argparse.Namespace) -> Sprt | None:
    if args.sprt is None:
        return None
    try:
        return Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta)
    except ValueError as error:
        raise InputError(f"{error}; give --sprt ELO0 ELO1 with ELO0 < ELO1, and --alpha, --beta that sum "
                         "below 1") from None


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    first, second = agent_specs([args.first, args.second], config)
    sprt = sprt_of(args)
    plan = checked_plan(lambda: MatchPlan(first, second, args.games, config, args.seed, args.openings))
    out, done = run_directory(NAME, args, [first, second], plan.to_json(), MAY_CHANGE_ON_RESUME)
    result = play_with_progress(NAME, out, plan.games, done, lambda on_game: play_match(
        plan, jobs=args.jobs, out=out, resume=args.resume, sprt=sprt, keep_replays=args.replays,
        watchdog=watchdog(args), on_game=on_game), running_line)
    if isinstance(result, int):
        return result
    write_outputs(result)
    print(match_table(result.summary))
    if result.stopped_early:
        print(f"SPRT decided ({result.summary.decision}) after {result.summary.total.games} games; stopped early.")
    print(f"results in {out}/ (games.jsonl, summary.json, report.md)")
    return 0


def write_outputs(result: MatchResult) -> None:
    """summary.json, the plots and report.md next to games.jsonl."""
    assert result.directory is not None
    store = ResultsStore(result.directory)
    store.write_json("summary.json", result.summary.to_json())
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from evaluation import plots

    plan = result.plan
    score = plots.score_plot([(f"{plan.first} vs {plan.second}", result.summary.score)],
                             result.directory / "score.png")
    times = plots.time_plot(durations_by_agent(plan, result.records), plan.config.act_timeout,
                            result.directory / "time_per_move.png")
    store.write_text("report.md", match_report(plan, result.summary, [score.name, times.name]))
