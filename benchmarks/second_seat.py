"""The second seat: ``solver:trap=true`` and today's ``solver`` against first players that slip, each paired
by seed with the longest-loss perfect player.

A perfect first player always wins on 7x6, so among near-perfect agents a leaderboard turns on what
the second player makes of the first player's mistakes. Each game seed is played three times against
each opponent kind moving first: with ``solver:trap=true`` second (the opponent model and the trap),
with ``solver`` second (today: the book's move, then the longest loss), and with
``fallible:ties=random`` second (the reference: perfect play, the longest loss once lost, ties at
random). The same seed gives the opponent the same seat seed, so its random failures are drawn alike
in the three games, and each seed yields paired differences of second-seat points. The opponent kinds
are the issue's: random slips at 5% and 10%, thin-margin slips at two strengths, horizon slips (a book
cut then depth 8; alpha-beta of depth 4 with the threat evaluation) and a perfect player.
Everything is on Kaggle's clock (7x6, 2 s a move), so measure on an idle machine: the trap plays to
the clock, and a busy machine makes it weaker.

Resumable: every game is appended to ``--out``/games.jsonl as it ends; run it again (with the same or a
larger ``--seeds``, or other ``--opponents``) to continue. Prints, per opponent kind, each second
player's score with its Wilson 95% interval and the paired differences against the reference with
their 95% intervals (normal, over the seeds); ``--plot`` draws the scores by opponent kind.

    .venv/bin/python -m benchmarks.second_seat [--seeds 200] [--jobs 2] [--opponents margin epsilon]
        [--out benchmarks/results/second-seat-trap] [--plot docs/images/second_seat.png]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from connectx.evaluation.game import play_isolated
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.match import STANDARD_CONFIG, game_seed
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.scheduling import play_schedule
from connectx.evaluation.statistics import Interval, wilson_interval
from connectx.papers.hypothesis_tests import mean_interval

OPPONENTS = (
    ("fallible:epsilon=0.05", "random slips, 1 move in 20"),
    ("fallible:epsilon=0.1", "random slips, 1 move in 10"),
    ("fallible:margin=0.5", "thin-margin slips, temperature 0.5"),
    ("fallible:margin=1", "thin-margin slips, temperature 1"),
    ("fallible:book_plies=14,depth=8", "horizon: book cut at 14 stones, then depth 8"),
    ("fallible:book_plies=0,depth=4", "horizon: alpha-beta of depth 4, threat evaluation"),
    ("solver", "perfect"),
)
"""The first players, each with the kind of slip it makes. Their order fixes the game numbers: append only."""
SECOND = ("solver:trap=true", "solver", "fallible:ties=random")
"""The second players compared: the trap, today's solver, then the reference (the longest loss)."""
REFERENCE = len(SECOND) - 1
SEED = 51


def game_index(seed: int, opponent: int, second: int) -> int:
    """Game numbers that do not depend on how many seeds or which opponents a run asks for, so a run can grow."""
    return (seed * len(OPPONENTS) + opponent) * len(SECOND) + second


def game_specs(seeds: int, opponents: Sequence[int]) -> list[GameSpec]:
    return [GameSpec(game_index(seed, o, s), (OPPONENTS[o][0], SECOND[s]), STANDARD_CONFIG, game_seed(SEED, seed))
            for seed in range(seeds) for o in opponents for s in range(len(SECOND))]


def paired_points(records: Sequence[GameRecord], opponent: int) -> list[tuple[float, ...]]:
    """The second seat's points of each complete seed against ``opponent``: one per second player, in order."""
    by_index = {record.index: record for record in records if record.scored}
    seeds = 1 + max((record.index for record in records), default=0) // (len(OPPONENTS) * len(SECOND))
    pairs = []
    for seed in range(seeds):
        games = [by_index.get(game_index(seed, opponent, s)) for s in range(len(SECOND))]
        if all(game is not None for game in games):
            pairs.append(tuple(game.points(1) for game in games if game is not None))
    return pairs


def table(records: Sequence[GameRecord]) -> str:
    """Per opponent kind: each second player's score [95%] and the paired differences with the reference [95%]."""
    lines = ["| first player (opponent) | its slips | seeds | trap second | today's solver second | longest loss "
             "(reference) | trap - reference [95%] | today - reference [95%] |",
             "|---|---|---:|---|---|---|---|---|"]
    for o, (opponent, slips) in enumerate(OPPONENTS):
        pairs = paired_points(records, o)
        if not pairs:
            continue
        scores = [score([pair[s] for pair in pairs]) for s in range(len(SECOND))]
        differences = [mean_interval([pair[s] - pair[REFERENCE] for pair in pairs]) for s in range(REFERENCE)]
        lines.append(f"| {opponent} | {slips} | {len(pairs)} | "
                     + " | ".join(f"{s.value:.3f} [{s.low:.3f}, {s.high:.3f}]" for s in scores) + " | "
                     + " | ".join(f"{100 * d.value:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] points"
                                  for d in differences) + " |")
    return "\n".join(lines) + "\n"


def score(points: Sequence[float]) -> Interval:
    """The mean points with Wilson's 95% interval (draws as half a point)."""
    return wilson_interval(points.count(1.0), points.count(0.5), points.count(0.0))


def plot(records: Sequence[GameRecord], path: Path) -> None:
    """The second seat's score by opponent kind, one bar per second player, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [o for o in range(len(OPPONENTS)) if paired_points(records, o)]
    figure, axes = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(SECOND)
    for s, second in enumerate(SECOND):
        scores = [score([pair[s] for pair in paired_points(records, o)]) for o in kinds]
        axes.bar([k + (s - 1) * width for k in range(len(kinds))], [v.value for v in scores], width,
                 yerr=[[v.value - v.low for v in scores], [v.high - v.value for v in scores]], capsize=3, label=second)
    axes.set_xticks(range(len(kinds)), [OPPONENTS[o][1] for o in kinds], rotation=20, ha="right", fontsize=8)
    axes.set_ylabel("second seat's points per game")
    axes.set_ylim(0, 1)
    axes.legend(fontsize=8)
    axes.set_title("The second seat on 7x6 against first players that slip (95% intervals)")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200, help="game seeds per opponent kind (default 200)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--opponents", nargs="+", metavar="TEXT",
                        help="only the opponents whose agent contains one of these texts (default: all)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/second-seat-trap"))
    parser.add_argument("--plot", type=Path, help="also draw the scores by opponent kind into this PNG")
    args = parser.parse_args(argv)
    chosen = [o for o, (agent, _) in enumerate(OPPONENTS) if not args.opponents or any(
        text in agent for text in args.opponents)]
    if not chosen or args.seeds < 1:
        parser.error("no opponent matches --opponents, or --seeds is below 1")
    store = ResultsStore(args.out)
    plan = {"kind": "second seat", "opponents": [agent for agent, _ in OPPONENTS], "second": list(SECOND),
            "seed": SEED}
    done = {record.index: record for record in store.open(plan, resume=True)}
    pending = [spec for spec in game_specs(args.seeds, chosen) if spec.index not in done]
    print(f"{len(done)} games recorded, {len(pending)} to play", flush=True)

    def record(game: GameRecord) -> bool:
        done[game.index] = game
        store.append(game)
        print(f"  game {game.index}: {game.agents[1]} second vs {game.agents[0]}: {game.points(1):g}", flush=True)
        return False

    play_schedule(pending, play_isolated, record, args.jobs)
    print(table(list(done.values())))
    if args.plot is not None:
        plot(list(done.values()), args.plot)
        print(f"plot in {args.plot}")


if __name__ == "__main__":
    main()
