"""The harness's games per minute as a user meets it, against raw kaggle-environments, for fast agents.

The harness side is the command a user types, run whole as a subprocess, start-up and outputs
included: ``connectx match random kaggle:random -n 200 --jobs 1 --out DIR`` (its interpreter
starting, the worker pool and the game process, every game recorded, the table, the report and
the plots written). The raw side is 200 ``env.run`` games in one process (``engine.run_game``:
no watchdog, no record), seats alternating as a match's do, timed two ways: the game loop alone
(kaggle-environments already imported, the stricter comparison) and the process whole. The two
take turns (``--rounds``, the order swapped each round), so a change in the machine's load falls
on both; the machine is shared, so compare the ratios of one run, not figures across runs.

Byte code: an installed package runs from its byte-code caches (pip compiles them at install,
and Python writes them at the first import). Where the environment forbids them
(``PYTHONDONTWRITEBYTECODE``, as on the project's shared machine, whose uv-made environment
holds none), every start-up compiles matplotlib and kaggle-environments afresh, a cost no user
pays twice. So by default both sides run with a cache folder of their own under ``--out``
(``PYTHONPYCACHEPREFIX``), filled by one unmeasured warm-up; ``--byte-code as-is`` measures the
environment as it is instead. The first lines say which.

    .venv/bin/python -m benchmarks.harness_throughput [--games 200] [--rounds 2] [--byte-code cached|as-is]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.conditions import machine_conditions

FIRST, SECOND = "random", "kaggle:random"


@dataclass(frozen=True)
class RawTiming:
    """One raw block: the seconds of its game loop and of its process from start to end."""

    loop: float
    whole: float


def raw_games(games: int) -> float:
    """Seconds for ``games`` games of ``env.run`` in a loop in this process, kaggle-environments imported first."""
    from connectx.evaluation.engine import BoardConfig, kaggle_environments, run_game
    from connectx.evaluation.game_record import game_seed

    kaggle_environments()
    started = time.perf_counter()
    for index in range(games):
        seats = (FIRST, SECOND) if index % 2 == 0 else (SECOND, FIRST)
        run_game(seats, BoardConfig(), seed=game_seed(0, index))
    return time.perf_counter() - started


def run_raw(games: int, environment: dict[str, str]) -> RawTiming:
    """``raw_games`` in a fresh interpreter, timed whole from outside and its loop from inside."""
    started = time.perf_counter()
    finished = subprocess.run(
        [sys.executable, "-m", "benchmarks.harness_throughput", "--raw-child", str(games)],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    whole = time.perf_counter() - started
    return RawTiming(json.loads(finished.stdout.splitlines()[-1])["loop"], whole)


def run_harness(games: int, out: Path, environment: dict[str, str]) -> float:
    """Seconds for the ``connectx match`` command, whole, into a fresh directory ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    command = [
        sys.executable,
        "-m",
        "connectx",
        "match",
        FIRST,
        SECOND,
        "-n",
        str(games),
        "--jobs",
        "1",
        "--out",
        str(out),
    ]
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=environment)
    seconds = time.perf_counter() - started
    recorded = len((out / "games.jsonl").read_text().splitlines())
    if recorded != games:
        raise RuntimeError(f"the match recorded {recorded} games, not {games}")
    return seconds


def environment_for(byte_code: str, out: Path) -> tuple[dict[str, str], str]:
    """The subprocesses' environment and a line saying how they treat byte code."""
    environment = dict(os.environ)
    if byte_code == "cached":
        environment.pop("PYTHONDONTWRITEBYTECODE", None)
        environment["PYTHONPYCACHEPREFIX"] = str((out / "pycache").resolve())
        return environment, f"byte code: cached in {out / 'pycache'}, warmed by one unmeasured run of each side"
    forbidden = "PYTHONDONTWRITEBYTECODE" in environment
    return environment, (
        "byte code: as the environment has it (PYTHONDONTWRITEBYTECODE "
        + ("set: only what is installed compiled is cached)" if forbidden else "unset)")
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games on each side of a round (default 200)")
    parser.add_argument(
        "--rounds", type=int, default=2, help="rounds of raw and harness, the order swapped each round (default 2)"
    )
    parser.add_argument(
        "--byte-code",
        choices=("cached", "as-is"),
        default="cached",
        help="give both sides a byte-code cache (default), or run as the environment says",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("out/bench/harness-throughput"),
        help="scratch folder: the match's directory and the byte-code cache",
    )
    parser.add_argument("--raw-child", type=int, metavar="GAMES", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.raw_child is not None:
        print(json.dumps({"loop": raw_games(args.raw_child)}))
        return
    environment, byte_code = environment_for(args.byte_code, args.out)
    match_directory = args.out / "match"
    print(f"machine: {machine_conditions()}; {args.games} games a side, {args.rounds} rounds")
    print(byte_code)
    if args.byte_code == "cached":
        run_raw(2, environment)
        run_harness(2, match_directory, environment)
    print(
        "| round | raw loop s | raw process s | harness command s | harness games/min | raw loop games/min "
        "| harness / raw loop | harness / raw process | load avg (1 min) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    harness_total = loop_total = whole_total = 0.0
    for number in range(1, args.rounds + 1):
        if number % 2:
            raw = run_raw(args.games, environment)
            harness = run_harness(args.games, match_directory, environment)
        else:
            harness = run_harness(args.games, match_directory, environment)
            raw = run_raw(args.games, environment)
        harness_total, loop_total, whole_total = harness_total + harness, loop_total + raw.loop, whole_total + raw.whole
        print(
            f"| {number} | {raw.loop:.1f} | {raw.whole:.1f} | {harness:.1f} | {60 * args.games / harness:.0f} | "
            f"{60 * args.games / raw.loop:.0f} | {100 * raw.loop / harness:.0f}% | {100 * raw.whole / harness:.0f}% "
            f"| {os.getloadavg()[0]:.1f} |",
            flush=True,
        )
    print(
        f"all rounds: the harness at {100 * loop_total / harness_total:.0f}% of raw kaggle-environments' game loop "
        f"({100 * whole_total / harness_total:.0f}% of its whole process)"
    )


if __name__ == "__main__":
    main()
