"""Every experiment of the report in its order: Sheoran's, Kang's and this project's own, and the run's profiles.

Each paper's experiments are data in a module of its own (``sheoran``, ``kang``; the types in
``design``); this gathers them with the one experiment no paper reports (our solver against every
other agent), sizes them by profile (quick, full), and names the games the joint Elo fit reads.
``runner`` plays the cells and ``claim_tests`` checks every claim against what was measured.
"""

from __future__ import annotations

from connectx.papers.experiments import kang, sheoran
from connectx.papers.experiments.design import (
    CLOCK_CONFIG,
    OWN,
    SERIES,
    Cell,
    Claim,
    Experiment,
    Profile,
    UntestedClaim,
)
from connectx.papers.experiments.kang import (
    TABLE7_FEATURES,
    TABLE8_FEATURES,
    kang_features,
    kang_nodes,
    kang_pruning,
    kang_table6,
    kang_table9,
)
from connectx.papers.experiments.sheoran import (
    plain_mcts_spec,
    sheoran_depth,
    sheoran_fig3,
    sheoran_fig4,
    sheoran_fig5,
    sheoran_speed,
)

QUICK = Profile(
    name="quick",
    sheoran_games=6,
    adaptive_games=6,
    fig5_games=6,
    beside_games=2,
    kang_games=6,
    deep_games=2,
    features_games=2,
    node_games=2,
    speed_games=2,
    depth_games=2,
    pruning_games=2,
    solver_games=4,
    mcts_budgets_ms=(10, 100, 250),
    fig5_budgets_ms=(10, 100),
    fig5_adaptive_extra_ms=(50,),
    table6_depths=(1, 2, 4),
    table6_deep_depth=None,
    table9_depths=(2, 4),
    solver_spec="solver:time_budget=0.25",
    mcts_opponent_ms=250,
)
"""A smoke run (about 280 games): every experiment, every figure and table, intervals far too wide to conclude."""

FULL = Profile(
    name="full",
    sheoran_games=100,
    adaptive_games=400,
    fig5_games=250,
    beside_games=100,
    kang_games=100,
    deep_games=100,
    features_games=100,
    node_games=10,
    speed_games=100,
    depth_games=40,
    pruning_games=20,
    solver_games=100,
    mcts_budgets_ms=(10, 50, 100, 250, 500, 1000),
    fig5_budgets_ms=(10, 100, 250, 1000),
    fig5_adaptive_extra_ms=(50, 500),
    table6_depths=(2, 3, 4, 5, 6),
    table6_deep_depth=8,
    table9_depths=(2, 4, 6, 8),
    solver_spec="solver:time_budget=0.5",
    mcts_opponent_ms=250,
)
"""The paper-sized run: 100 games per point of Fig. 3 and 4 as in the paper (400 for minimax 4/5 against
negamax), 250 per point of Fig. 5 as in the paper (minimax 4/5 at two more T_max values, for the 79%
claim's sensitivity), 100 per depth pair of Table 6 at depths 2 to 6 and per
depth of Table 9 and per cell of Tables 7 and 8 (the paper's Table 5: 100 rounds), 100 per pair with depth 8
too (about 10 CPU seconds a game), 100 per point of our enhanced agents beside the papers', 100 games of
each side of Sheoran's speed claim, 40 of its minimax with the table against itself without on one clock,
20 per cell of Kang's minimax with and without alpha-beta and 100 per opponent of the solver: 13,540 games,
about 12 CPU hours (measured by benchmarks/report_cost.py)."""

PROFILES = {profile.name: profile for profile in (QUICK, FULL)}


def solver_gauntlet(profile: Profile) -> Experiment:
    opponents = (
        "kaggle:random",
        "kaggle:negamax",
        "random",
        "negamax",
        "minimax",
        plain_mcts_spec(profile.mcts_opponent_ms),
    )
    cells = tuple(Cell("solver", opponent, profile.solver_spec, opponent) for opponent in opponents)
    return Experiment(
        key="solver",
        paper=OWN,
        title="Our solver against every other agent",
        setup=f"{profile.solver_spec} (the opening book where present, then iterative deepening into an exact "
        "solve within its time) against each other agent. No paper reports this; the claim is ours.",
        kind=SERIES,
        cells=cells,
        games=profile.solver_games,
        x_label="opponent",
        ordered_x=False,
        config=CLOCK_CONFIG,
        claims=(
            Claim(
                "the solver scores above one half against the other agents (pooled over them)",
                "above_half",
                tuple((c.series, c.x) for c in cells),
                own=True,
            ),
        ),
    )


def experiments(profile: Profile) -> tuple[Experiment, ...]:
    """Every experiment of the report, in the order it is written."""
    return (
        sheoran_fig3(profile),
        sheoran_fig4(profile),
        sheoran_fig5(profile),
        sheoran_speed(profile),
        sheoran_depth(profile),
        kang_table6(profile),
        kang_features(profile, "7", TABLE7_FEATURES),
        kang_features(profile, "8", TABLE8_FEATURES),
        kang_table9(profile),
        kang_nodes(profile),
        kang_pruning(profile),
        solver_gauntlet(profile),
    )


UNTESTED: tuple[UntestedClaim, ...] = sheoran.UNTESTED + kang.UNTESTED
"""The papers' claims no experiment tests: the report lists them with the games they would need."""

ELO_EXPERIMENTS = ("sheoran-fig3", "sheoran-fig4", "sheoran-fig5", "solver")
"""The experiments whose games enter the joint Elo fit: they share opponents, so one scale links them.
Kang's H1/H2 variants never meet the others and are left out (their ratings would float free)."""
ELO_ANCHOR = "kaggle:negamax"
"""Kaggle's built-in negamax: the agent every Sheoran experiment meets, won and lost against often enough to
hold the scale (kaggle's random loses nearly every game, too few points to anchor anything)."""
