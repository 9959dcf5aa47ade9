"""How fast and how complete a game's analysis is, with and without the compiled solver.

It analyses 20 real games and reports the share of positions (plies) with an exact
value by ply band (0-11, 12-21, 22+) and the seconds per game, with the C solver and with the
pure-Python one. Target with the C solver: every position from ply 12 on exact, a game in under
60 s. The games are played through the harness (``connectx.evaluation.match.play_match``): 10 ``solver``
vs ``mcts:time_budget=0.3`` and 10 ``minimax`` vs ``kaggle:negamax``, each from a random 2-ply
opening played from both seats (so no two games repeat). Each solver's run starts from a fresh
analysis cache (the shipped exact opening scores still seed it, as they always do); a last run
analyses the games again with the C run's cache, which should be instant.

Everything goes to ``out/bench/analysis_speed/`` (``--out``): a rerun reuses the recorded games and
any solver run that finished (``--again`` redoes the analyses). ``--games RUN_DIR`` analyses the
first ``--count`` games of a run directory instead (any board: on the others the C solver plays,
such as 8x7/4, ``--games benchmarks/results/other-boards/8x7-4/solver-vs-mcts``), into a directory
of its own.

Usage: .venv/bin/python -m benchmarks.analysis_speed [--seconds S] [--solvers native python] [--again]
       [--games RUN_DIR [--count 4]] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.conditions import machine_conditions
from benchmarks.matches import slug
from connectx.agents.agent_spec import AgentSpec
from connectx.agents.board_spec import STANDARD_BOARD
from connectx.analysis.exact_scores import ExactScores
from connectx.analysis.game_analysis import DEFAULT_SECONDS, analyze_game
from connectx.analysis.games import Game, game_from_record
from connectx.analysis.solved_cache import SolvedCache
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.run_loop import PlayOptions
from connectx.solver.interface import make_solver, native_unavailable_reason

PAIRINGS = (("solver", "mcts:time_budget=0.3"), ("minimax", "kaggle:negamax"))
GAMES_PER_PAIRING = 10
OPENING_PLIES = 2
BANDS = ((0, 11), (12, 21), (22, 99))
TARGET_SECONDS = 60.0
OUT = Path(__file__).resolve().parent.parent / "out" / "bench" / "analysis_speed"


def stored_games(directory: Path, count: int) -> list[tuple[str, Game]]:
    """The first ``count`` games of a run directory: ``(label, game)`` each; ValueError if it holds none."""
    records = sorted(ResultsStore(directory).load(), key=lambda record: record.index)[:count]
    if not records:
        raise ValueError(f"{directory} holds no recorded games: give a match, tournament or benchmark run directory")
    return [
        (
            f"{directory.name} #{record.index} ({' vs '.join(record.agents)}, {record.cause})",
            game_from_record(record.to_json()),
        )
        for record in records
    ]


def record_games(out: Path, jobs: int) -> list[tuple[str, Game]]:
    """The benchmark's games, played now or read back from an earlier run: ``(label, game)`` each."""
    games = []
    for first, second in PAIRINGS:
        directory = out / "games" / f"{slug(first)}-vs-{slug(second)}"
        result = play_match(
            MatchPlan(AgentSpec.of(first), AgentSpec.of(second), GAMES_PER_PAIRING, opening_plies=OPENING_PLIES),
            PlayOptions(jobs=jobs, out=directory, resume=True),
        )
        for record in result.records:
            label = f"{first} vs {second} #{record.index} ({' vs '.join(record.agents)}, {record.cause})"
            games.append((label, game_from_record(record.to_json())))
    return games


@dataclass(frozen=True)
class GameResult:
    """One game's analysis: how long it took, which plies came out exact, which moves were flagged."""

    game: str
    moves: str
    seconds: float
    exact: list[bool]
    flagged: list[int]
    solver_calls: int


def analyse_all(
    games: list[tuple[str, Game]], solver_name: str, seconds: float, cache_directory: Path, exact: ExactScores
) -> list[GameResult]:
    """Analyse every game with one solver and one cache (a new solver per game, as a command would)."""
    results = []
    cache = SolvedCache(cache_directory, exact=exact)
    for number, (label, game) in enumerate(games, start=1):
        solver = make_solver(game.board, native=solver_name == "native")
        started = time.perf_counter()
        analysis = analyze_game(game, seconds, solver, cache)
        elapsed = time.perf_counter() - started
        solver.close()
        exact = [ply.exact for ply in analysis.plies]
        results.append(
            GameResult(label, game.digits, elapsed, exact, [ply.ply for ply in analysis.flagged], solver.calls)
        )
        print(
            f"  {solver_name} {number:2d}/{len(games)} {elapsed:6.1f} s, {sum(exact)}/{len(exact)} plies exact, "
            f"{solver.calls} searches: {label}",
            flush=True,
        )
    cache.close()
    return results


def summary_line(name: str, results: list[GameResult]) -> str:
    """One table row: the exact share per ply band, mean and slowest seconds per game."""
    cells = []
    for low, high in BANDS:
        flags = [flag for result in results for ply, flag in enumerate(result.exact) if low <= ply <= high]
        cells.append(f"{100 * sum(flags) / len(flags):5.1f}% of {len(flags):4d}" if flags else "-")
    seconds = [result.seconds for result in results]
    return f"| {name} | " + " | ".join(cells) + f" | {sum(seconds) / len(seconds):.1f} | {max(seconds):.1f} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=DEFAULT_SECONDS, help=f"time limit per position (default {DEFAULT_SECONDS})"
    )
    parser.add_argument("--solvers", nargs="+", choices=("native", "python"), default=["native", "python"])
    parser.add_argument("--jobs", type=int, default=2, help="games played at once while recording (default 2)")
    parser.add_argument("--again", action="store_true", help="redo the analyses (the games are kept)")
    parser.add_argument(
        "--games",
        type=Path,
        metavar="RUN_DIR",
        help="analyse the games of this run directory instead of recording the benchmark's own",
    )
    parser.add_argument("--count", type=int, default=4, help="how many of --games' games (default 4)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where games and results go (default {OUT})")
    args = parser.parse_args(argv)
    out = args.out if args.games is None else args.out / "runs" / "-".join(args.games.resolve().parts[-2:])
    try:
        if args.count < 1:
            raise ValueError(f"--count {args.count}: give at least 1")
        games = stored_games(args.games, args.count) if args.games is not None else []
    except ValueError as error:
        print(f"analysis_speed: {error}", file=sys.stderr)
        return 2
    if "native" in args.solvers:
        reason = native_unavailable_reason(games[0][1].board if games else STANDARD_BOARD)
        if reason is not None:
            print(f"analysis_speed: the C solver is unavailable ({reason}); run with --solvers python", file=sys.stderr)
            return 2
    print(f"at the start: {machine_conditions()}")
    if args.games is None:
        games = record_games(out, args.jobs)
        print(f"{len(games)} games recorded in {out / 'games'}, {sum(len(g.moves) for _, g in games)} positions")
    else:
        print(f"{len(games)} games of {args.games}, {sum(len(g.moves) for _, g in games)} positions")
    out.mkdir(parents=True, exist_ok=True)
    exact = ExactScores.shipped()
    print(f"the shipped table of exact opening scores: {len(exact)}")  # loaded now, not in the first game's time
    runs: dict[str, list[GameResult]] = {}
    for name in args.solvers:
        results_path = out / f"results-{name}-{args.seconds:g}s.json"
        if results_path.exists() and not args.again:
            runs[name] = [GameResult(**result) for result in json.loads(results_path.read_text())]
            print(f"{name}: read back from {results_path}")
            continue
        cache_directory = out / f"cache-{name}-{args.seconds:g}s"
        shutil.rmtree(cache_directory, ignore_errors=True)  # a fresh cache: the timing is of solving
        print(f"{name} solver, {args.seconds:g} s per position, fresh cache in {cache_directory}:")
        runs[name] = analyse_all(games, name, args.seconds, cache_directory, exact)
        results_path.write_text(json.dumps([asdict(result) for result in runs[name]], indent=1) + "\n")
    if "native" in runs:
        print("native solver again, with the cache the first native run left:")
        runs["native, cache warm"] = analyse_all(
            games, "native", args.seconds, out / f"cache-native-{args.seconds:g}s", exact
        )
    print(f"\nat the end: {machine_conditions()}")
    print(f"\n{len(games)} games, time limit {args.seconds:g} s per position; share of positions with an exact value")
    print("| solver | plies 0-11 | plies 12-21 | plies 22+ | s/game | slowest |")
    print("|---|---|---|---|---|---|")
    for name, results in runs.items():
        print(summary_line(name, results))
    if "native" in runs and args.games is None:
        late_exact = all(flag for result in runs["native"] for ply, flag in enumerate(result.exact) if ply >= 12)
        slowest = max(result.seconds for result in runs["native"])
        met = late_exact and slowest < TARGET_SECONDS
        print(
            f"target (C solver: every position from ply 12 exact, every game under {TARGET_SECONDS:g} s): "
            f"{'met' if met else 'NOT met'}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
