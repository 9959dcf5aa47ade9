"""The solver's strength: real kaggle-environments games in colour-swapped pairs, and its slowest move.

The target is a 100% score against kaggle's ``negamax`` over 200 games and against our
``minimax`` and ``mcts`` at their defaults, with every move under ``actTimeout`` (2 s; the
solver may dip into the 60 s overage bank by design, so its slowest move is reported). Games are
played and scored by the harness (``connectx.evaluation.match.play_match``), which records each
move's duration. Results go to out/benchmarks/solver-vs-<opponent>/ and an interrupted run
continues with ``--resume``.

Usage: .venv/bin/python -m benchmarks.solver_strength [OPPONENT ...] [-n GAMES] [--solver SPEC] [--resume]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.conditions import jobs_phrase, machine_conditions
from benchmarks.matches import slug
from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.results_text import match_table
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import default_jobs

OPPONENTS = {"kaggle:negamax": 200, "minimax": 20, "mcts": 20}
"""Opponents at their defaults and the games played against each by default."""

ACT_TIMEOUT = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("opponents", nargs="*", default=list(OPPONENTS), help="opponents (default: all three)")
    parser.add_argument("-n", "--games", type=int, help="games per opponent, even (default: 200 negamax, 20 others)")
    parser.add_argument("--solver", default="solver", help="the solver's spec (default: solver, Kaggle's clock)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="games at once (default: the cores)")
    parser.add_argument("--resume", action="store_true", help="continue the runs in their output directories")
    args = parser.parse_args(argv)
    print(f"{args.solver}, {jobs_phrase(args.jobs)}; at the start {machine_conditions()}")
    perfect = True
    for opponent in args.opponents:
        games = args.games or OPPONENTS.get(opponent, 20)
        out = Path("out") / "benchmarks" / f"{slug(args.solver)}-vs-{slug(opponent)}"
        result = play_match(
            MatchPlan(AgentSpec.of(args.solver), AgentSpec.of(opponent), games),
            PlayOptions(jobs=args.jobs, out=out, resume=args.resume),
        )
        summary = result.summary
        print(f"\n{args.solver} vs {opponent} ({out}), at the end {machine_conditions()}")
        print(match_table(summary))
        times = summary.times[args.solver]
        total = summary.total
        print(
            f"W/D/L {total.wins}/{total.draws}/{total.losses}, score {summary.score.value:.3f}; "
            f"slowest solver move {times.max:.2f} s (p95 {times.p95:.2f} s, mean {times.mean:.2f} s, "
            f"actTimeout {ACT_TIMEOUT} s)"
        )
        perfect = perfect and total.wins == total.games
    print(f"target: every game won: {'met' if perfect else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
