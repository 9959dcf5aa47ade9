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

The games go through the harness's run loop: every game is appended to ``--out``/games.jsonl as it
ends, and ``--resume`` continues a run there (with the same or a larger ``--seeds``, or other
``--opponents``), refusing games recorded by other code unless ``--allow-code-change``. Prints, per
opponent kind, each second player's score with its Wilson 95% interval and the paired differences
against the reference with their 95% intervals (normal, over the seeds), and how often the trap's
reading of the opponent let it act (the games where it set a trap, those where its model passed the
gate, and the median ply it did so first); ``--plot`` draws the scores by opponent kind.
``--without solver`` leaves today's solver out
of a run (the game numbers stay the same, so a later run can add its games).

    .venv/bin/python -m benchmarks.second_seat [--seeds 200] [--jobs 2] [--opponents margin epsilon]
        [--without solver] [--out out/bench/second-seat] [--resume] [--plot docs/images/second_seat.png]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from statistics import median

from connectx.agents.search.trap_play import GATE
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec, game_seed
from connectx.evaluation.option_words import OptionError, flag_words
from connectx.evaluation.run_loop import GameCount, ListedGames, PlayOptions, play_prepared, prepare_run
from connectx.evaluation.statistics.elo import Interval, wilson_interval
from connectx.evaluation.statistics.hypothesis_tests import mean_interval

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
CEILING = {0: "random:0.05", 1: "random:0.1", 2: "margin:0.5", 3: "margin:1"}
"""With ``--ceiling``, against the kinds a trap can turn: ``solver:trap=true`` told the right kind from the first
move (``assume``), unread and ungated, on the same clock: the most the learned model could reach here."""
CEILING_GAMES = 1_000_000
"""The ceiling's games are numbered from here, one per seed and opponent, apart from the three second players'."""
SEED = 51


def game_index(seed: int, opponent: int, second: int) -> int:
    """Game numbers that do not depend on how many seeds or which opponents a run asks for, so a run can grow."""
    return (seed * len(OPPONENTS) + opponent) * len(SECOND) + second


def game_specs(seeds: int, opponents: Sequence[int], seconds: Sequence[int] = range(len(SECOND))) -> list[GameSpec]:
    return [
        GameSpec(game_index(seed, o, s), (OPPONENTS[o][0], SECOND[s]), BoardConfig(), game_seed(SEED, seed))
        for seed in range(seeds)
        for o in opponents
        for s in seconds
    ]


def ceiling_specs(seeds: int, opponents: Sequence[int]) -> list[GameSpec]:
    return [
        GameSpec(
            CEILING_GAMES + seed * len(OPPONENTS) + o,
            (OPPONENTS[o][0], f"solver:trap=true,assume={CEILING[o]}"),
            BoardConfig(),
            game_seed(SEED, seed),
        )
        for seed in range(seeds)
        for o in opponents
        if o in CEILING
    ]


def points_by_seed(records: Sequence[GameRecord], opponent: int, second: int | None) -> dict[int, float]:
    """``second``'s points by seed against ``opponent`` (None: the ceiling's), of the scored games only."""
    if second is None:
        return {
            (record.index - CEILING_GAMES) // len(OPPONENTS): record.points(1)
            for record in records
            if record.scored
            and record.index >= CEILING_GAMES
            and (record.index - CEILING_GAMES) % len(OPPONENTS) == opponent
        }
    stride, place = len(OPPONENTS) * len(SECOND), opponent * len(SECOND) + second
    return {
        record.index // stride: record.points(1)
        for record in records
        if record.scored and record.index < CEILING_GAMES and record.index % stride == place
    }


def paired_points(records: Sequence[GameRecord], opponent: int, second: int | None) -> list[tuple[float, float]]:
    """``(second's points, the reference's)`` for every seed against ``opponent`` where both games were played
    (``second`` None: the ceiling's)."""
    ours, reference = points_by_seed(records, opponent, second), points_by_seed(records, opponent, REFERENCE)
    return [(ours[seed], reference[seed]) for seed in sorted(ours.keys() & reference.keys())]


def trap_readings(records: Sequence[GameRecord], opponent: int) -> tuple[int, int, list[int]]:
    """Of the trap's games against ``opponent``: how many, in how many it set a trap, and the ply of each
    game's first move with the model past the gate (``untrappable`` below ``GATE``)."""
    games = [record for record in records if record.scored and record.agents == (OPPONENTS[opponent][0], SECOND[0])]
    trapped, opened = 0, []
    for game in games:
        moves = [game.stats(1, call) for call in range(len(game.search_stats[1]))]
        trapped += any(stats.get("source") == "trap" for stats in moves)
        plies = [2 * call + 1 for call, stats in enumerate(moves) if float(stats.get("untrappable", 1.0)) < GATE]
        opened += plies[:1]
    return len(games), trapped, opened


def table(records: Sequence[GameRecord]) -> str:
    """Per opponent kind: each second player's score [95%], the paired differences with the reference [95%],
    and how often the trap's model let it act."""
    lines = [
        "| first player (opponent) | its slips | seeds | trap second | today's solver second | longest loss "
        "(reference) | trap - reference [95%] | today - reference [95%] | ceiling - reference [95%] "
        "| trap set / gate open (median ply) |",
        "|---|---|---:|---|---|---|---|---|---|---|",
    ]
    for o, (opponent, slips) in enumerate(OPPONENTS):
        reference = list(points_by_seed(records, o, REFERENCE).values())
        if not reference:
            continue
        cells = []
        for s in range(REFERENCE):
            points = list(points_by_seed(records, o, s).values())
            cells.append(_interval(score(points)) if points else "not played")
        differences = []
        for s in (*range(REFERENCE), None):
            pairs = paired_points(records, o, s)
            d = mean_interval([ours - theirs for ours, theirs in pairs]) if pairs else None
            differences.append(
                f"{100 * d.value:+.1f} [{100 * d.low:+.1f}, {100 * d.high:+.1f}] points ({len(pairs)})"
                if d is not None
                else "not played"
            )
        games, trapped, opened = trap_readings(records, o)
        reading = (
            f"{trapped} / {len(opened)} of {games}" + (f" (ply {median(opened):g})" if opened else "") if games else ""
        )
        lines.append(
            f"| {opponent} | {slips} | {len(reference)} | "
            + " | ".join(cells)
            + " | "
            + _interval(score(reference))
            + " | "
            + " | ".join(differences)
            + f" | {reading} |"
        )
    return "\n".join(lines) + "\n"


def _interval(interval: Interval) -> str:
    return f"{interval.value:.3f} [{interval.low:.3f}, {interval.high:.3f}]"


def score(points: Sequence[float]) -> Interval:
    """The mean points with Wilson's 95% interval (draws as half a point)."""
    return wilson_interval(points.count(1.0), points.count(0.5), points.count(0.0))


def plot(records: Sequence[GameRecord], path: Path) -> None:
    """The second seat's score by opponent kind, one bar per second player, with 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    kinds = [o for o in range(len(OPPONENTS)) if points_by_seed(records, o, REFERENCE)]
    seconds = [s for s in (*range(len(SECOND)), None) if any(points_by_seed(records, o, s) for o in kinds)]
    figure, axes = plt.subplots(figsize=(10, 4.5))
    width = 0.8 / len(seconds)
    for place, s in enumerate(seconds):
        played = [k for k, o in enumerate(kinds) if points_by_seed(records, o, s)]
        scores = [score(list(points_by_seed(records, kinds[k], s).values())) for k in played]
        axes.bar(
            [k + (place - (len(seconds) - 1) / 2) * width for k in played],
            [v.value for v in scores],
            width,
            yerr=[[v.value - v.low for v in scores], [v.high - v.value for v in scores]],
            capsize=3,
            label=SECOND[s] if s is not None else "ceiling: solver:trap=true told the kind",
        )
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
    parser.add_argument(
        "--opponents",
        nargs="+",
        metavar="TEXT",
        help="only the opponents whose agent contains one of these texts (default: all)",
    )
    parser.add_argument(
        "--without",
        nargs="+",
        metavar="AGENT",
        choices=SECOND,
        help="second players not to play this time (the reference is always played)",
    )
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="also play the ceiling: the trap told the right kind from the first move (CEILING)",
    )
    parser.add_argument("--out", type=Path, default=Path("out/bench/second-seat"))
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    parser.add_argument(
        "--allow-code-change", action="store_true", help="resume even over games recorded by other code"
    )
    parser.add_argument("--plot", type=Path, help="also draw the scores by opponent kind into this PNG")
    args = parser.parse_args(argv)
    chosen = [
        o
        for o, (agent, _) in enumerate(OPPONENTS)
        if not args.opponents or any(text in agent for text in args.opponents)
    ]
    seconds = [s for s, agent in enumerate(SECOND) if not args.without or agent not in args.without]
    if not chosen or args.seeds < 1 or REFERENCE not in seconds:
        parser.error("no opponent matches --opponents, --seeds is below 1, or --without names the reference")
    specs = game_specs(args.seeds, chosen, seconds) + (ceiling_specs(args.seeds, chosen) if args.ceiling else [])
    parameters = (
        ("opponents", [agent for agent, _ in OPPONENTS]),
        ("second", list(SECOND)),
        ("seed", SEED),
        ("seeds", args.seeds),
        ("chosen", [OPPONENTS[o][0] for o in chosen]),
        ("played", [SECOND[s] for s in seconds]),
        ("ceiling", args.ceiling),
    )
    plan = ListedGames("second seat", tuple(specs), parameters, may_change=("seeds", "chosen", "played", "ceiling"))
    options = PlayOptions(jobs=args.jobs, out=args.out, resume=args.resume, allow_code_change=args.allow_code_change)
    try:
        run = prepare_run(plan, options)
    except OptionError as error:
        parser.error(flag_words(error))
    print(f"{len(run.recorded)} games recorded, {plan.left(run.recorded)} to play", flush=True)

    def shown(game: GameRecord, summary: object) -> None:
        print(f"  game {game.index}: {game.agents[1]} second vs {game.agents[0]}: {game.points(1):g}", flush=True)

    records = list(play_prepared(run, GameCount(), shown).records)
    print(table(records))
    if args.plot is not None:
        plot(records, args.plot)
        print(f"plot in {args.plot}")


if __name__ == "__main__":
    main()
