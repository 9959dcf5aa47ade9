"""The seed papers' agents against kaggle's built-in ``negamax``: do they reach a 95% score?

Real kaggle-environments games in colour-swapped pairs, played and scored by the
harness (``connectx.evaluation.match.play_match``), which also records every move's duration. Sheoran et
al. (2021) report 93.75% wins for their minimax against this opponent; the target is a score of
at least 95% from ``minimax`` (depth 4/5) and from ``mcts`` at 1 s per move.

Results go to out/benchmarks/<agent>-vs-kaggle-negamax/ and an interrupted run continues from
there with ``--resume``.

Usage: .venv/bin/python -m benchmarks.minimax_mcts_vs_kaggle minimax [-n 200] [--jobs 2] [--resume]
       .venv/bin/python -m benchmarks.minimax_mcts_vs_kaggle mcts [-n 60] [--jobs 2] [--resume]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from benchmarks.conditions import jobs_phrase, machine_conditions
from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.results_text import match_table
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import default_jobs

OPPONENT = "kaggle:negamax"
TARGET_SCORE = 0.95
AGENTS = {  # name: (spec, default games)
    "minimax": ("minimax:seed=1", 200),
    "mcts": ("mcts:time_budget=1.0,seed=1", 60),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("agent", choices=sorted(AGENTS), help="which paper agent to measure")
    parser.add_argument("-n", "--games", type=int, help="games, an even number (default: 200 minimax, 60 mcts)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="games at once (default: the cores)")
    parser.add_argument("--resume", action="store_true", help="continue the run in the output directory")
    parser.add_argument("--seed", type=int, default=0, help="the match schedule's seed (default 0)")
    parser.add_argument("--out", type=Path, help="results directory (default out/benchmarks/<agent>-vs-kaggle-negamax)")
    args = parser.parse_args(argv)

    spec, default_games = AGENTS[args.agent]
    out = args.out or Path("out") / "benchmarks" / f"{args.agent}-vs-kaggle-negamax"
    print(f"{spec} vs {OPPONENT}, {jobs_phrase(args.jobs)}; at the start {machine_conditions()}; results in {out}")
    result = play_match(
        MatchPlan(AgentSpec.of(spec), AgentSpec.of(OPPONENT), args.games or default_games, seed=args.seed),
        PlayOptions(jobs=args.jobs, out=out, resume=args.resume),
    )
    summary = result.summary
    print(match_table(summary))
    met = summary.score.value >= TARGET_SCORE
    print(
        f"target: score >= {TARGET_SCORE:.2f}: {'met' if met else 'NOT met'} "
        f"(score {summary.score.value:.3f}, Wilson 95% [{summary.score.low:.3f}, {summary.score.high:.3f}]; "
        f"the lower bound is {'also' if summary.score.low >= TARGET_SCORE else 'not'} above it)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
