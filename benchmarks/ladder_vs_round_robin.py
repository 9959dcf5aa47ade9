"""How the ladder's standings compare with a full round robin of the same agents: a rank correlation.

A ladder plays few, rating-chosen episodes; a round robin plays every pairing the same number of
colour-swapped games and fits Elo jointly. Both are run here on the same agents (the ladder's
fast pool and a few more fast agents), and the rank correlation of the ladder's μ with the round
robin's Elo is printed (Spearman's ρ, with its 95% interval by Fisher's z), with both orders.
Resumable: each run keeps its games under ``--out``; run it again to continue.

    .venv/bin/python -m benchmarks.ladder_vs_round_robin [--episodes 300] [--games 10] [--jobs 2]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.ladder import LadderPlan, play_ladder
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.statistics.hypothesis_tests import correlation_interval
from connectx.evaluation.tournament import TournamentPlan, play_tournament

EXTRA = ("negamax", "negamax:depth=2", "minimax:depth=1", "mcts:simulations=500")
"""Fast agents added to the fast pool, so that the ranking has enough places to compare."""


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank (1 = lowest), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for position in range(start, end + 1):
            result[order[position]] = (start + end) / 2 + 1
        start = end + 1
    return result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=300, help="ladder episodes (default 300)")
    parser.add_argument("--games", type=int, default=10, help="round-robin games per pairing (default 10)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--out", type=Path, default=Path("out/bench/ladder-vs-round-robin"))
    args = parser.parse_args(argv)
    plan = LadderPlan(tuple(AgentSpec.parse(text) for text in EXTRA), pool="fast", episodes=args.episodes, seed=1)
    ladder = play_ladder(plan, PlayOptions(jobs=args.jobs, out=args.out / "ladder", resume=True)).summary
    tournament = play_tournament(
        TournamentPlan(plan.specs, args.games),
        PlayOptions(jobs=args.jobs, out=args.out / "round-robin", resume=True),
    ).summary
    elo = {rating.name: rating.elo for rating in tournament.ratings}
    agents = [standing.agent for standing in ladder.standings]
    rho = correlation_interval(ranks([ladder.standing(a).mu for a in agents]), ranks([elo[a] for a in agents]))
    print(
        f"{len(agents)} agents; ladder {args.episodes} episodes; round robin {args.games} games per pairing "
        f"({tournament_games(args.games, len(agents))} games)"
    )
    print("| agent | ladder μ | ladder rank | round-robin Elo | round-robin rank |\n|---|---:|---:|---:|---:|")
    by_elo = sorted(agents, key=lambda a: -elo[a])
    for rank, agent in enumerate(agents, start=1):
        print(f"| {agent} | {ladder.standing(agent).mu:.0f} | {rank} | {elo[agent]:+.0f} | {by_elo.index(agent) + 1} |")
    print(f"Spearman's rho {rho.value:.3f} [95%: {rho.low:.3f}, {rho.high:.3f}]")


def tournament_games(games: int, agents: int) -> int:
    return games * agents * (agents - 1) // 2


if __name__ == "__main__":
    main()
