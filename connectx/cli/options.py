"""The options several commands share, and the checks every command runs on its inputs before any side effect.

Commands never import each other: whatever two of them share lives here (the option types, the
board options, the options of a run of games, its output directory). A command reads its
arguments, runs these checks, and only then shows a progress bar, creates a directory or writes
a file; ``connectx.cli.main`` prints an ``InputError`` (like an ``AgentSpecError`` or the library's
``OptionError``, whose options ``option_words.flag_words`` names as flags) as one line, ``connectx CMD: what is
wrong; what to do``, with exit code 2.
Counts are checked by the option types below as the arguments are read.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from connectx.agents.agent_spec import HUMAN, AgentKind, AgentSpec
from connectx.agents.board_spec import MAX_SIDE, MIN_INAROW, MIN_SIDE, STANDARD_BOARD, BoardSpec, BoardSpecError
from connectx.analysis.solved_cache import SolvedCache
from connectx.analysis.solved_cache import default_directory as cache_directory

# The commands take the exit status and the output-path checks from here, with the rest of what they share.
from connectx.cli.exit_status import INTERRUPTED as INTERRUPTED
from connectx.evaluation.cluster import ClusterTarget, open_cluster
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game import Watchdog
from connectx.evaluation.option_words import flag_words
from connectx.evaluation.output_paths import check_output_directory as check_output_directory
from connectx.evaluation.output_paths import check_output_file as check_output_file
from connectx.evaluation.results_store import PLAN_FILE, ResultsStore
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import default_jobs
from connectx.solver.interface import Solver, make_solver

Plan = TypeVar("Plan")


class InputError(ValueError):
    """A command-line input that cannot work; the message says what is wrong and which flag to change."""


def whole_number(minimum: int) -> Callable[[str], int]:
    """An option type: a whole number of at least ``minimum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is too small; give {minimum} or more")
        return value

    parse.__name__ = "whole number"
    return parse


positive_int = whole_number(1)
non_negative_int = whole_number(0)


def port_number(text: str) -> int:
    """An option type: a TCP port, 0 (pick a free one) to 65535."""
    value = non_negative_int(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"{value} is no port: give 1 to 65535, or 0 for a free one")
    return value


def positive_seconds(text: str) -> float:
    """An option type: a number of seconds above zero."""
    value = finite_number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def non_negative_seconds(text: str) -> float:
    """An option type: a number of seconds, zero or more."""
    value = finite_number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not zero or a positive number of seconds")
    return value


def probability(text: str) -> float:
    """An option type: a rate strictly between 0 and 1."""
    value = finite_number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (exclusive)")
    return value


def finite_number(text: str) -> float:
    """An option type: any finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def add_board_size_arguments(parser: argparse.ArgumentParser) -> None:
    """--rows/--columns/--inarow: the board's size (every command that plays or reads games on one).

    Read them with ``board_spec``, which checks them together: a board where no line of --inarow fits
    is refused, as every board out of ``connectx.agents.board_spec``'s limits is.
    """
    standard = STANDARD_BOARD
    parser.add_argument(
        "--rows",
        type=positive_int,
        default=standard.rows,
        help=f"board rows, {MIN_SIDE}-{MAX_SIDE} (default {standard.rows})",
    )
    parser.add_argument(
        "--columns",
        type=positive_int,
        default=standard.columns,
        help=f"board columns, {MIN_SIDE}-{MAX_SIDE} (default {standard.columns})",
    )
    parser.add_argument(
        "--inarow",
        type=positive_int,
        default=standard.inarow,
        help=f"stones in a row to win, {MIN_INAROW} to the longer side (default {standard.inarow})",
    )


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """--rows/--columns/--inarow/--act-timeout, shared by every command that plays games."""
    add_board_size_arguments(parser)
    parser.add_argument(
        "--act-timeout", type=positive_seconds, default=2.0, help="seconds per move, Kaggle's actTimeout (default 2)"
    )


def board_spec(args: argparse.Namespace) -> BoardSpec:
    """The board --rows, --columns and --inarow describe, checked as every board is; InputError naming the option."""
    try:
        return BoardSpec(args.rows, args.columns, args.inarow)
    except BoardSpecError as error:
        raise InputError(f"--{error.field} {error.value}: {error.advice}") from None


def board_config(args: argparse.Namespace) -> BoardConfig:
    """The board the options describe, checked once as ``board_spec`` checks it, played with --act-timeout seconds
    a move."""
    try:
        return BoardConfig(args.rows, args.columns, args.inarow, args.act_timeout)
    except BoardSpecError as error:
        raise InputError(f"--{error.field} {error.value}: {error.advice}") from None


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    """--no-native and --cache/--no-cache: how the analysis engine searches and what it remembers (analyze, solve)."""
    parser.add_argument(
        "--no-native",
        dest="native",
        action="store_false",
        help="use the pure-Python solver even where the compiled one is available",
    )
    cache = parser.add_mutually_exclusive_group()
    cache.add_argument(
        "--cache",
        type=Path,
        default=cache_directory(),
        metavar="DIR",
        help="where solved positions are kept between runs (default: analysis/ in the user's "
        "cache, $CONNECTX_CACHE_DIR or ~/.cache/connectx)",
    )
    cache.add_argument(
        "--no-cache",
        action="store_true",
        help="search every position afresh: no cache read or written, no table of exact opening scores",
    )


@contextmanager
def analysis_engine(args: argparse.Namespace, board: BoardSpec, command: str) -> Iterator[tuple[Solver, SolvedCache]]:
    """The engine the options ask for on ``board``: its solver and cache, closed on leaving.

    The compiled solver where it plays the board and builds here (else a one-line notice on stderr
    and the pure-Python one); the cache in --cache seeded with the shipped exact scores, or none.
    """
    directory = None if args.no_cache else args.cache
    if directory is not None:
        check_output_directory(directory, "cache")
    solver = make_solver(board, native=args.native)
    if solver.fallback is not None:
        print(
            f"connectx {command}: the compiled solver is unavailable ({solver.fallback}); using the pure-Python "
            "one, which is much slower",
            file=sys.stderr,
        )
    cache = SolvedCache(directory, "shipped" if directory is not None else None)
    try:
        yield solver, cache
    finally:
        solver.close()
        cache.close()


def add_watchdog_arguments(parser: argparse.ArgumentParser) -> None:
    """--grace and --move-limit: when the watchdog kills a move (every command that plays games)."""
    parser.add_argument(
        "--grace",
        type=non_negative_seconds,
        default=5.0,
        help="seconds past Kaggle's own limit before the watchdog kills a move (default 5)",
    )
    parser.add_argument(
        "--move-limit",
        type=positive_seconds,
        default=None,
        help="kill any move that takes longer than this many seconds, overage or not",
    )


def watchdog(args: argparse.Namespace) -> Watchdog:
    return Watchdog(args.grace, move_limit=args.move_limit)


def add_run_arguments(parser: argparse.ArgumentParser, default_games: int) -> None:
    """Options shared by match and tournament: games, seed, openings and board, and every option of a run."""
    parser.add_argument(
        "-n",
        "--games",
        type=positive_int,
        default=default_games,
        help=f"games per pairing, played in colour-swapped pairs (default {default_games})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the schedule: game seeds and openings (default 0)")
    parser.add_argument(
        "--openings",
        type=non_negative_int,
        default=0,
        metavar="PLIES",
        help="start each pair from a shared random opening of PLIES moves (default 0)",
    )
    add_play_arguments(parser, "games")
    add_board_arguments(parser)


def add_play_arguments(parser: argparse.ArgumentParser, unit: str) -> None:
    """The options of every run of games (match, tournament, ladder), read back by ``run_options``: workers,
    output, resume, the code check, replays, the cluster and the watchdog. ``unit`` is what the run plays."""
    parser.add_argument(
        "--jobs",
        type=positive_int,
        default=default_jobs(),
        help=f"worker processes playing {unit} at once (default: the cores, {default_jobs()})",
    )
    parser.add_argument("--out", type=Path, help="directory for the results (default: out/<command>/<agents>-<time>)")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out without replaying any game")
    add_code_change_argument(parser)
    parser.add_argument("--replays", action="store_true", help="save each game's replay JSON in DIR/replays/")
    add_cluster_argument(parser)
    add_watchdog_arguments(parser)


def add_code_change_argument(parser: argparse.ArgumentParser) -> None:
    """--allow-code-change: let a resumed run add games played by other agents' code than those recorded."""
    parser.add_argument(
        "--allow-code-change",
        action="store_true",
        help="resume even if the agents, engine or game loop changed since the recorded games "
        "(their statistics then mix two versions; each game records its own)",
    )


def add_cluster_argument(parser: argparse.ArgumentParser) -> None:
    """--cluster: play the games on a Dask cluster instead of this machine's worker processes."""
    parser.add_argument(
        "--cluster",
        type=cluster_target,
        metavar="local:N|tcp://HOST:PORT",
        help="play the games on a Dask cluster: local:N starts N workers on 127.0.0.1, "
        "tcp://HOST:PORT joins a running scheduler (needs make install-cluster)",
    )


def cluster_target(text: str) -> ClusterTarget:
    """``--cluster``'s text as a ClusterTarget; a bad form is a usage error naming both forms."""
    try:
        return ClusterTarget.parse(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(flag_words(error)) from None


@contextmanager
def games_executor(args: argparse.Namespace) -> Iterator[tuple[Executor | None, int]]:
    """``(executor, jobs)`` for a run: this machine's pool (None) and ``--jobs``, or the cluster and its workers."""
    if args.cluster is None:
        yield None, args.jobs
        return
    with open_cluster(args.cluster) as executor:
        yield executor, executor.jobs


def default_directory(command: str, specs: Sequence[AgentSpec]) -> Path:
    """Where a run goes without --out: ``out/<command>/<agents>-<time>``."""
    names = [Path(spec.name).stem if spec.kind is AgentKind.FILE else spec.text for spec in specs[:2]]
    slug = "-vs-".join(re.sub(r"[^A-Za-z0-9=.,]+", "_", name) for name in names)
    if len(specs) > 2:
        slug += f"-and-{len(specs) - 2}-more"
    return Path("out") / command / f"{slug}-{time.strftime('%Y%m%d-%H%M%S')}"


def run_directory(
    command: str,
    out: Path | None,
    resume: bool,
    specs: Sequence[AgentSpec],
    plan: dict[str, object],
    may_change: tuple[str, ...] = (),
) -> tuple[Path, int]:
    """``output_directory``, checked free for ``plan`` too (or holding it when ``resume``), and how many games it
    holds already: for a command that keeps its games without the run loop (``connectx play``)."""
    out = output_directory(command, out, resume, specs)
    return out, len(ResultsStore(out).check(plan, resume, may_change))


def output_directory(command: str, out: Path | None, resume: bool, specs: Sequence[AgentSpec]) -> Path:
    """The --out directory: ``out``, or the default, checked writable, and holding a run when ``resume``.

    Whether it is free for the run's plan, or holds that plan to resume, ``run_loop.prepare_run`` checks.
    """
    if resume and out is None:
        raise InputError("--resume needs --out DIR, the directory of the run to continue")
    out = out or default_directory(command, specs)
    check_output_directory(out, "out")
    if resume:
        check_run_to_resume(out)
    return out


def run_options(args: argparse.Namespace, out: Path) -> PlayOptions:
    """How a command's run plays and keeps its games, from the options ``add_play_arguments`` adds: the one place
    the command line builds a run's ``PlayOptions`` (the executor joins them in ``games_executor``)."""
    return PlayOptions(
        jobs=args.jobs,
        out=out,
        resume=args.resume,
        keep_replays=args.replays,
        watchdog=watchdog(args),
        allow_code_change=args.allow_code_change,
    )


def check_run_to_resume(out: Path) -> None:
    """InputError unless ``out`` holds a run: a mistyped --out given with --resume would otherwise start a new one."""
    if not (out / PLAN_FILE).is_file():
        raise InputError(
            f"--resume: {out} holds no run to continue (no {PLAN_FILE}); check --out, or leave out "
            "--resume to start a new run there"
        )


def checked_plan(build: Callable[[], Plan]) -> Plan:
    """``build()``, its ValueError (too many opening plies, a repeated agent) as an InputError."""
    try:
        return build()
    except ValueError as error:
        raise InputError(flag_words(error)) from None


def agent_specs(texts: Sequence[str], config: BoardConfig) -> list[AgentSpec]:
    """Each text parsed once and checked against ``config``'s board (AgentSpecError says why not)."""
    specs = parsed_agents(texts)
    for spec in specs:
        spec.check(config.geometry)
    return specs


def parsed_agents(texts: Sequence[str]) -> list[AgentSpec]:
    """Each text parsed once, unchecked: for a run of games, whose ``run_loop.prepare_run`` checks every agent."""
    if HUMAN in texts:
        raise InputError(
            f"{HUMAN} (a person at the keyboard) plays only in connectx play, e.g. "
            f"connectx play {HUMAN} solver; name agents here (connectx agents lists them)"
        )
    return [AgentSpec.parse(text) for text in texts]
