"""``solver``'s second seat against the near-perfect pool, beside the slowest-loss perfect player on the same seeds.

A perfect first player always wins, so among near-perfect agents a ladder turns on what the
second player makes of the first player's mistakes. Each game seed is played twice against each
near-perfect member of the default pool (``ladder_pool``'s perfect-with-errors and near-perfect
kinds) moving first: once with ``solver`` second, once with ``fallible:ties=random`` second (the
reference: perfect play, the slowest loss once lost, ties at random). The same seed gives the
opponent the same seat seed, so its failures are drawn alike in both games, and each seed yields
a paired difference of second-seat points. Everything is on Kaggle's clock (7x6, 2 s a move).

Resumable: every game is appended to ``--out``/games.jsonl as it ends; run it again (with the
same or a larger ``--seeds``) to continue. Prints, per opponent, each second player's score with
its Wilson 95% interval and the paired difference with its 95% interval (normal, over the seeds), and how
many pairs ended differently (when none did, the rule of three bounds how often they would).

    .venv/bin/python -m benchmarks.second_seat [--seeds 20] [--jobs 2] [--out benchmarks/results/second-seat]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from connectx.evaluation.game import play_isolated
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.ladder_pool import DEFAULT_POOL, NEAR_PERFECT, PERFECT
from connectx.evaluation.match import STANDARD_CONFIG, game_seed
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.scheduling import play_schedule
from connectx.evaluation.statistics import Interval, wilson_interval
from connectx.papers.hypothesis_tests import mean_interval

OPPONENTS = tuple(member.agent for member in DEFAULT_POOL if member.kind in (PERFECT, NEAR_PERFECT))
SECOND = ("solver", "fallible:ties=random")
"""The second players compared: ours, then the reference."""
SEED = 45


def game_index(seed: int, opponent: int, second: int) -> int:
    """Game numbers that do not depend on how many seeds a run asks for, so a run can grow."""
    return (seed * len(OPPONENTS) + opponent) * len(SECOND) + second


def game_specs(seeds: int) -> list[GameSpec]:
    return [GameSpec(game_index(seed, o, s), (OPPONENTS[o], SECOND[s]), STANDARD_CONFIG, game_seed(SEED, seed))
            for seed in range(seeds) for o in range(len(OPPONENTS)) for s in range(len(SECOND))]


def table(records: Sequence[GameRecord]) -> str:
    """Per opponent: each second player's score [95%], the paired difference [95%] over complete seeds."""
    by_index = {record.index: record for record in records if record.scored}
    lines = ["| first player (opponent) | seeds | solver second | slowest loss, random ties | paired difference "
             "[95%] | interval width | pairs that differ |", "|---|---:|---|---|---|---:|---|"]
    for o, opponent in enumerate(OPPONENTS):
        pairs = []
        for seed in range(1 + max((r.index for r in records), default=0)):
            games = [by_index.get(game_index(seed, o, s)) for s in range(len(SECOND))]
            if all(game is not None for game in games):
                pairs.append(tuple(game.points(1) for game in games if game is not None))
        if not pairs:
            continue
        ours, reference = score([p[0] for p in pairs]), score([p[1] for p in pairs])
        difference = mean_interval([p[0] - p[1] for p in pairs])
        lines.append(f"| {opponent} | {len(pairs)} | {ours.value:.3f} [{ours.low:.3f}, {ours.high:.3f}] | "
                     f"{reference.value:.3f} [{reference.low:.3f}, {reference.high:.3f}] | "
                     f"{difference.value:+.3f} [{difference.low:+.3f}, {difference.high:+.3f}] | "
                     f"{difference.high - difference.low:.3f} | {differing(pairs)} |")
    return "\n".join(lines) + "\n"


def score(points: Sequence[float]) -> Interval:
    """The mean points with Wilson's 95% interval (draws as half a point)."""
    return wilson_interval(points.count(1.0), points.count(0.5), points.count(0.0))


def differing(pairs: Sequence[tuple[float, ...]]) -> str:
    """How many pairs ended differently; when none did, the normal interval is a point, so the rule of three
    bounds the share of pairs that would differ (below 3/n at 95%)."""
    count = sum(1 for pair in pairs if pair[0] != pair[1])
    return f"{count} of {len(pairs)}" + (f" (share below {3 / len(pairs):.2f} at 95%)" if count == 0 else "")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=20, help="game seeds per opponent (default 20)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/second-seat"))
    args = parser.parse_args(argv)
    store = ResultsStore(args.out)
    plan = {"kind": "second seat", "opponents": list(OPPONENTS), "second": list(SECOND), "seed": SEED}
    done = {record.index: record for record in store.open(plan, resume=True)}
    pending = [spec for spec in game_specs(args.seeds) if spec.index not in done]
    print(f"{len(done)} games recorded, {len(pending)} to play", flush=True)

    def record(game: GameRecord) -> bool:
        done[game.index] = game
        store.append(game)
        print(f"  game {game.index}: {game.agents[1]} second vs {game.agents[0]}: {game.points(1):g}", flush=True)
        return False

    play_schedule(pending, play_isolated, record, args.jobs)
    print(table(list(done.values())))


if __name__ == "__main__":
    main()
