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
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from agents.registry import AgentSpecError
from evaluation.game import GameRecord, Watchdog
from evaluation.match import MatchResult, Sprt, durations_by_agent, run_match
from evaluation.play_command import add_board_arguments, board_config
from evaluation.report import match_report, match_table, running_line
from evaluation.results_store import ResultsStore, RunDirectoryError
from evaluation.scheduling import default_jobs

NAME = "match"
HELP = "play a match between two agents and report W/D/L, Elo with error bars, LOS and SPRT"


def add_run_arguments(parser: argparse.ArgumentParser, default_games: int) -> None:
    """Options shared by match and tournament: games, jobs, output, resume, seed, openings, watchdog."""
    parser.add_argument("-n", "--games", type=int, default=default_games,
                        help=f"games per pairing, played in colour-swapped pairs (default {default_games})")
    parser.add_argument("--jobs", type=int, default=default_jobs(),
                        help=f"worker processes playing games at once (default: the cores, {default_jobs()})")
    parser.add_argument("--out", type=Path, help="directory for the results (default: out/<command>/<agents>-<time>)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out without replaying any game")
    parser.add_argument("--seed", type=int, default=0, help="seed of the schedule: game seeds and openings (default 0)")
    parser.add_argument("--openings", type=int, default=0, metavar="PLIES",
                        help="start each pair from a shared random opening of PLIES moves (default 0)")
    parser.add_argument("--replays", action="store_true", help="save each game's replay JSON in DIR/replays/")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds past Kaggle's own limit before the watchdog kills a move (default 5)")
    parser.add_argument("--move-limit", type=float, default=None,
                        help="kill any move that takes longer than this many seconds, overage or not")
    add_board_arguments(parser)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="A", help="agent A: a registry name[:params], kaggle:NAME or a .py file")
    parser.add_argument("second", metavar="B", help="agent B")
    add_run_arguments(parser, default_games=100)
    parser.add_argument("--sprt", type=float, nargs=2, metavar=("ELO0", "ELO1"),
                        help="stop early once an SPRT of H0: Elo <= ELO0 against H1: Elo >= ELO1 decides")
    parser.add_argument("--alpha", type=float, default=0.05, help="SPRT false-positive rate (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="SPRT false-negative rate (default 0.05)")


def default_directory(command: str, names: list[str]) -> Path:
    slug = "-vs-".join(re.sub(r"[^A-Za-z0-9=.,]+", "_", Path(name).stem if name.endswith(".py") else name)
                       for name in names[:2])
    if len(names) > 2:
        slug += f"-and-{len(names) - 2}-more"
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


def recorded_games(command: str, args: argparse.Namespace) -> int | None:
    """How many games --resume finds in --out (0 without --resume), or None after telling the user why not."""
    if args.resume and args.out is None:
        print(f"connectx {command}: --resume needs --out DIR, the directory of the run to continue", file=sys.stderr)
        return None
    try:
        return len(ResultsStore(args.out).load()) if args.resume else 0
    except RunDirectoryError as error:
        print(f"connectx {command}: {error}", file=sys.stderr)
        return None


Result = TypeVar("Result")
Summary = TypeVar("Summary")


def play_with_progress(command: str, out: Path, total: int, done: int,
                       play: Callable[[Callable[[GameRecord, Summary], None]], Result],
                       line: Callable[[Summary], str]) -> Result | int:
    """``play(on_game)`` under a live progress line; an exit code, after saying why, if it cannot finish."""
    progress = ProgressLine(total, min(done, total))
    try:
        return play(lambda record, summary: progress.update(line(summary)))
    except (AgentSpecError, RunDirectoryError, ValueError) as error:
        print(f"connectx {command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"\nconnectx {command}: interrupted; finished games are in {out / 'games.jsonl'}. "
              f"Continue with the same arguments plus --resume --out {out}", file=sys.stderr)
        return 130
    finally:
        progress.close()


def run(args: argparse.Namespace) -> int:
    done = recorded_games(NAME, args)
    if done is None:
        return 2
    out = args.out or default_directory(NAME, [args.first, args.second])
    try:
        sprt = None if args.sprt is None else Sprt(args.sprt[0], args.sprt[1], args.alpha, args.beta)
        config = board_config(args)
    except ValueError as error:
        print(f"connectx match: {error}", file=sys.stderr)
        return 2
    result = play_with_progress(NAME, out, args.games, done, lambda on_game: run_match(
        args.first, args.second, args.games, config=config, jobs=args.jobs, out=out, resume=args.resume,
        seed=args.seed, opening_plies=args.openings, sprt=sprt, keep_replays=args.replays,
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
