"""Sheoran et al. (2021) as data: minimax by depth and MCTS by time per move, against kaggle's agents and each other.

They compare a depth-limited minimax (depths 1, 2, 3 and their adaptive 4/5) and an MCTS on a
per-move time limit against Kaggle's built-in ``random`` and ``negamax`` and against each other
(their Fig. 3, 4, 5), and say their dynamic-programming table makes minimax faster (Sec. 3.2.1).
Every experiment plays their agents as written (``minimax:rules=paper``, the unoptimised
``memo=false`` one at depths up to 3, plain UCB1 ``mcts:proofs=false,reuse=false``); our enhanced
agents play beside them where the difference teaches something (their claims are marked "(ours)").
MCTS's time limit T_max is counted in CPU seconds of the game's process (``clock=cpu``), so a busy
machine cannot shorten it.
"""

from __future__ import annotations

import math

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.papers.experiments.design import (
    CLOCK_CONFIG,
    DEPTHS,
    NODES,
    OURS,
    SERIES,
    Cell,
    Claim,
    Experiment,
    Profile,
    UntestedClaim,
)

SHEORAN = "Sheoran et al. 2021"

ADAPTIVE = "4/5"
OPPONENTS = ("kaggle:random", "kaggle:negamax")


def minimax_spec(depth: str) -> str:
    """Our enhanced minimax at ``depth`` ("1", "2", "3" or the adaptive "4/5")."""
    return AgentSpec.registered("minimax", **({} if depth == ADAPTIVE else {"depth": int(depth)})).text


def paper_minimax_spec(depth: str) -> str:
    """Sheoran's minimax as written: the unoptimised one (no table, ``memo=false``) at depths up to 3,
    as the paper played them, and the optimised one at the adaptive 4/5."""
    if depth == ADAPTIVE:
        return AgentSpec.registered("minimax", rules="paper").text
    return AgentSpec.registered("minimax", depth=int(depth), memo=False, rules="paper").text


def mcts_spec(budget_ms: int) -> str:
    """Our enhanced MCTS (solver proofs, tree reuse) with T_max in CPU seconds."""
    return AgentSpec.registered("mcts", clock="cpu").with_time_budget(budget_ms / 1000).text


def plain_mcts_spec(budget_ms: int) -> str:
    """Sheoran's MCTS as written: plain UCB1 (c = 2, random rollouts), T_max in CPU seconds."""
    return AgentSpec.registered("mcts", clock="cpu", proofs=False, reuse=False).with_time_budget(budget_ms / 1000).text


def budget_label(budget_ms: int) -> str:
    return f"{budget_ms} ms"


NEGAMAX_TEXT = (
    "kaggle's negamax, as installed, is a plain negamax to depth 4 (no pruning, no memo) that takes "
    "an immediate win at every node; at the horizon it scores a move as (cells + 1 - stones) / 2, "
    "the score of a win at that ply, plus one for each own stone left or right of the cell it lands "
    "in and for the one below it (counted only above the second row), and it breaks ties by a coin "
    "flip per column. It may differ from the version the paper played in 2021."
)
MINIMAX_NOTE = (
    "The papers' minimax is played as written: every move searched, every leaf (a finished game "
    "included) scored by the window count, so depth 1 neither sees the opponent's reply nor values a "
    "win above the count. Our enhanced minimax, beside it, also takes an immediate win at the horizon "
    "and never plays a move that hands the opponent a line."
)
AGAINST_NEGAMAX_NOTE = MINIMAX_NOTE + " " + NEGAMAX_TEXT
"""For the claims about games against kaggle's negamax (Fig. 3): the minimax and the opponent as they play."""
MCTS_NOTE = (
    "The papers' MCTS is played as written: plain UCB1 with c = 2 and random rollouts, a fresh tree each "
    "move. Our enhanced MCTS, beside it, adds MCTS-solver proofs and keeps its tree between moves. T_max "
    "is per move, as in the paper, and counted in CPU seconds of the game's process; the paper's machine "
    "and language speed are unknown, so equal milliseconds need not mean equal simulations."
)
SEARCH_CONFIG = BoardConfig(act_timeout=30.0)
"""For Sheoran's minimax cells: it searches to a fixed depth, and the unoptimised one and kaggle's negamax
(no pruning) can take seconds on a busy machine; 30 s lets every move finish."""
MINIMAX_AND_MCTS_NOTE = MINIMAX_NOTE + " " + MCTS_NOTE
"""For the claims about minimax against MCTS (Fig. 5): both sides as they play; no negamax plays there."""
SPEED_OPENING_PLIES = 4
"""Random plies before the speed games' minimax takes over: it is deterministic, so without them every game of
a cell would repeat (4 plies, as Kang's experiments use, give 2401 openings)."""
SPEED_NOTE = (
    "Both agents play the same games move for move (the table changes the work, not the moves); games "
    "whose moves differ between the cells are dropped and counted. The test compares each game's CPU "
    "seconds (its process's, both sides and the kaggle-environments engine included, so the ratio "
    "understates the search's own gain), one observation per independent group of games (a "
    "colour-swapped pair, joined with its repeats), by Student's t; the per-move wall-time ratio is "
    "printed beside it, and wall time depends on how busy the machine was."
)


LARGER_NOTE = (
    " Larger T_max is read as the larger half of the T_max values we played (the paper does not say which it means)."
)
AVERAGE_NOTE = (
    " Read as the words stand: the average over every T_max we played, each seat half the games. The "
    "average depends on which T_max values are averaged and on how often minimax moved first; the "
    "paper gives neither, so the appendix recomputes it over every range of our T_max values and "
    "several seat mixes, as a description beside the verdict."
)


def sheoran_fig3(profile: Profile) -> Experiment:
    depths = ("1", "2", "3", ADAPTIVE)
    cells = tuple(
        Cell(
            f"vs {opponent}",
            depth,
            paper_minimax_spec(depth),
            opponent,
            games=profile.adaptive_games if (opponent, depth) == ("kaggle:negamax", ADAPTIVE) else None,
        )
        for opponent in OPPONENTS
        for depth in depths
    )
    random_series, negamax_series = (f"vs {opponent}" for opponent in OPPONENTS)
    ours_series = negamax_series + OURS
    cells += tuple(
        Cell(
            ours_series,
            depth,
            minimax_spec(depth),
            "kaggle:negamax",
            games=profile.adaptive_games if depth == ADAPTIVE else profile.beside_games,
        )
        for depth in depths
    )
    return Experiment(
        key="sheoran-fig3",
        paper=SHEORAN,
        title="Fig. 3: minimax against kaggle's random and negamax, by depth",
        setup="Sheoran's minimax as written (unoptimised at depths 1, 2, 3, optimised at the adaptive 4/5: 4 "
        "while more than a third of the board is empty, then 5) against kaggle's built-in "
        "agents; our enhanced minimax against negamax beside it. The paper played 100 games per point.",
        kind=SERIES,
        cells=cells,
        games=profile.sheoran_games,
        x_label="minimax depth",
        config=SEARCH_CONFIG,
        claims=(
            # Sheoran et al., Sec. 4.1: "beat negamax in 93.75% of the all games played".
            Claim(
                "the optimised minimax (depth 4/5) beats negamax in 93.75% of the games",
                "win_rate",
                ((negamax_series, ADAPTIVE),),
                0.9375,
                note=AGAINST_NEGAMAX_NOTE,
                gist="minimax 4/5 wins 93.75% against negamax",
            ),
            Claim(
                "the optimised minimax (depth 4/5) beats negamax in 93.75% of the games" + OURS,
                "win_rate",
                ((ours_series, ADAPTIVE),),
                0.9375,
                note=AGAINST_NEGAMAX_NOTE,
                own=True,
                gist="minimax 4/5 wins 93.75% against negamax",
            ),
            # Sec. 4.1: "able to defeat random agents in all of the games consistently"; a 99% rate is
            # the departure the test should see.
            Claim(
                "minimax beats the random agent in all of the games, at every depth",
                "win_rate",
                tuple((random_series, depth) for depth in depths),
                1.0,
                effect=0.01,
                note="Read as a rate of at least 99%, pooled over the four depths: the paper's own 100 games per "
                "depth cannot tell 100% from 99% (a 99% agent wins all of 100 games in 37% of such runs), "
                "so a game not won counts against the words, not against the measured rate; the report "
                "says how many there were.",
                gist="minimax beats random in every game",
            ),
            Claim(
                "up to depth 3, minimax does not get good results against negamax (read: it wins at most "
                "half its games at each depth)",
                "below_half",
                tuple((negamax_series, d) for d in ("1", "2", "3")),
                note=AGAINST_NEGAMAX_NOTE,
                each=True,
                gist="depths 1-3 do badly against negamax",
            ),
            Claim(
                "up to depth 3, minimax does not get good results against negamax (at each depth)" + OURS,
                "below_half",
                tuple((ours_series, d) for d in ("1", "2", "3")),
                each=True,
                own=True,
                note=AGAINST_NEGAMAX_NOTE + " Our two rules give even depth 1 the tactics of a deeper search.",
                gist="depths 1-3 do badly against negamax",
            ),
            Claim(
                "depth 4/5 does much better against negamax than each depth up to 3",
                "rises",
                ((negamax_series, ADAPTIVE),),
                baseline=tuple((negamax_series, d) for d in ("1", "2", "3")),
                note=AGAINST_NEGAMAX_NOTE,
                effect=0.15,
                each=True,
                magnitude=True,
                gist="depth 4/5 does much better there",
            ),
        ),
        # Sec. 4.1 gives 93.75% against negamax at depth 4/5 and 100% against random at every depth;
        # Fig. 3 itself is an image without printed values.
        paper_points=((negamax_series, ADAPTIVE, 0.9375),) + tuple((random_series, d, 1.0) for d in depths),
    )


def sheoran_fig4(profile: Profile) -> Experiment:
    budgets = profile.mcts_budgets_ms
    cells = tuple(
        Cell(f"vs {opponent}", budget_label(b), plain_mcts_spec(b), opponent, float(b))
        for opponent in OPPONENTS
        for b in budgets
    )
    cells += tuple(
        Cell(
            "vs kaggle:negamax" + OURS,
            budget_label(b),
            mcts_spec(b),
            "kaggle:negamax",
            float(b),
            games=profile.beside_games,
        )
        for b in budgets
    )
    return Experiment(
        key="sheoran-fig4",
        paper=SHEORAN,
        title="Fig. 4: MCTS against kaggle's random and negamax, by time per move",
        setup="Sheoran's MCTS as written (plain UCB1, c = 2, random rollouts, a fresh tree each move) with a "
        "per-move limit T_max in CPU seconds against kaggle's built-in agents; our enhanced MCTS against "
        "negamax beside it. The paper played 100 games per point and gives no number.",
        kind=SERIES,
        cells=cells,
        games=profile.sheoran_games,
        x_label="MCTS time per move (T_max, CPU)",
        config=CLOCK_CONFIG,
        claims=tuple(
            Claim(
                f"as T_max grows, MCTS wins more often against {opponent.removeprefix('kaggle:')}",
                "rises",
                tuple((f"vs {opponent}", budget_label(b)) for b in budgets),
                scores=tuple(math.log10(b) for b in budgets),
                note=MCTS_NOTE,
                gist=f"MCTS beats {opponent.removeprefix('kaggle:')} more with time",
            )
            for opponent in OPPONENTS
        ),
        log_x=True,
    )


def sheoran_fig5(profile: Profile) -> Experiment:
    depths = ("1", "2", "3", ADAPTIVE)
    budgets = profile.fig5_budgets_ms
    adaptive_budgets = tuple(sorted(budgets + profile.fig5_adaptive_extra_ms))
    cells = tuple(
        Cell(f"depth {depth}", budget_label(b), paper_minimax_spec(depth), plain_mcts_spec(b), float(b))
        for depth in depths
        for b in (adaptive_budgets if depth == ADAPTIVE else budgets)
    )
    cells += tuple(
        Cell(
            f"depth {depth}{OURS}",
            budget_label(b),
            minimax_spec(depth),
            mcts_spec(b),
            float(b),
            games=profile.beside_games,
        )
        for depth in ("1", ADAPTIVE)
        for b in budgets
    )
    smallest, largest = budget_label(budgets[0]), budget_label(budgets[-1])
    larger = adaptive_budgets[len(adaptive_budgets) // 2 :]
    larger_common = budgets[len(budgets) // 2 :]
    return Experiment(
        key="sheoran-fig5",
        paper=SHEORAN,
        title="Fig. 5: minimax at each depth against MCTS at each time per move",
        setup="Sheoran's minimax as written at depths 1, 2, 3 (unoptimised) and 4/5 (optimised) against their "
        "plain UCB1 MCTS at each T_max (CPU seconds); our enhanced minimax at depths 1 and 4/5 against our "
        "enhanced MCTS beside them. The paper played 250 games per point.",
        kind=SERIES,
        cells=cells,
        games=profile.fig5_games,
        x_label="MCTS time per move (T_max, CPU)",
        config=CLOCK_CONFIG,
        claims=(
            # Sec. 4.3 and 5: "an average win rate of 79%" of the depth 4/5 minimax against MCTS, "even at larger
            # (Tmax)": tested as the words stand, over every T_max we played and over the larger half of them.
            Claim(
                "minimax at depth 4/5 wins 79% of its games against MCTS on average over T_max",
                "win_rate",
                tuple((f"depth {ADAPTIVE}", budget_label(b)) for b in adaptive_budgets),
                0.79,
                note=MINIMAX_AND_MCTS_NOTE + AVERAGE_NOTE,
                sensitivity=True,
                gist="minimax 4/5 wins 79% against MCTS",
            ),
            Claim(
                "even at larger T_max, minimax at depth 4/5 wins 79% of its games against MCTS",
                "win_rate",
                tuple((f"depth {ADAPTIVE}", budget_label(b)) for b in larger),
                0.79,
                note=MINIMAX_AND_MCTS_NOTE + LARGER_NOTE,
                gist="minimax 4/5 wins 79% against MCTS",
            ),
            Claim(
                "minimax at depth 4/5 wins 79% of its games against MCTS on average over T_max" + OURS,
                "win_rate",
                tuple((f"depth {ADAPTIVE}{OURS}", budget_label(b)) for b in budgets),
                0.79,
                note=MINIMAX_AND_MCTS_NOTE + AVERAGE_NOTE,
                sensitivity=True,
                own=True,
                gist="minimax 4/5 wins 79% against MCTS",
            ),
            # Sec. 5: "Minimax was able to outperform MCTS"; read as above half at every T_max we played.
            Claim(
                "minimax (depth 4/5) outperforms MCTS (read: scores above half at each T_max)",
                "above_half",
                tuple((f"depth {ADAPTIVE}", budget_label(b)) for b in adaptive_budgets),
                each=True,
                note=MINIMAX_AND_MCTS_NOTE,
                gist="minimax 4/5 outscores MCTS at every T_max",
            ),
            # Sec. 4.3: "even at larger (Tmax) minimax shows exemplary results as compared to other depths".
            Claim(
                "even at larger T_max, depth 4/5 does better against MCTS than each depth up to 3",
                "rises",
                tuple((f"depth {ADAPTIVE}", budget_label(b)) for b in larger_common),
                baseline=tuple((f"depth {d}", budget_label(b)) for d in ("1", "2", "3") for b in larger_common),
                each=True,
                note=MINIMAX_AND_MCTS_NOTE + LARGER_NOTE,
                gist="depth 4/5 beats depths 1-3 against slow MCTS",
            ),
            Claim(
                "at a small T_max, minimax beats MCTS easily even at each low depth (1, 2, 3)",
                "above_half",
                tuple((f"depth {d}", smallest) for d in ("1", "2", "3")),
                note=MINIMAX_AND_MCTS_NOTE,
                effect=0.15,
                each=True,
                magnitude=True,
                gist="depths 1-3 beat fast MCTS easily",
            ),
            Claim(
                "at a larger T_max, MCTS dominates minimax at each depth up to 3",
                "below_half",
                tuple((f"depth {d}", largest) for d in ("1", "2", "3")),
                note=MINIMAX_AND_MCTS_NOTE,
                effect=0.15,
                each=True,
                magnitude=True,
                gist="slow MCTS dominates depths 1-3",
            ),
            # Sec. 4.3: "as the time limit for MCTS increases it starts to show its dominance over minimax upto
            # only N = 3": minimax's win rate falls with T_max, i.e. rises with -log T_max, at each depth up to 3.
            Claim(
                "as T_max grows, MCTS does better against minimax at depths up to 3 (minimax's win rate falls)",
                "rises",
                tuple((f"depth {d}", budget_label(b)) for d in ("1", "2", "3") for b in budgets),
                scores=tuple(-math.log10(b) for _ in ("1", "2", "3") for b in budgets),
                note=MINIMAX_AND_MCTS_NOTE,
                each=True,
                gist="MCTS gains on depths 1-3 with time",
            ),
        ),
        # The 79% is an average over the paper's T_max values (Sec. 4.3), drawn across the depth 4/5 series.
        paper_lines=((f"depth {ADAPTIVE}", 0.79, "paper: 79% mean, 4/5 (Sec. 4.3)"),),
        log_x=True,
    )


def sheoran_speed(profile: Profile) -> Experiment:
    on = AgentSpec.registered("minimax", rules="paper").text
    off = AgentSpec.registered("minimax", rules="paper", memo=False).text
    cells = (Cell("table", "self-play", on, on), Cell("no table", "self-play", off, off))
    return Experiment(
        key="sheoran-speed",
        paper=SHEORAN,
        title="Sec. 3.2.1: the dynamic-programming table makes minimax faster",
        setup="Sheoran's minimax as written at depth 4/5 against itself, with its window-count table and memo "
        "and without (memo=false: every window recounted at every leaf), over the same games.",
        kind=NODES,
        cells=cells,
        games=profile.speed_games,
        opening_plies=SPEED_OPENING_PLIES,
        config=SEARCH_CONFIG,
        x_label="move number",
        claims=(
            Claim(
                "with the table, minimax takes less time on the same positions (the same games, move for move)",
                "faster",
                (("table", "self-play"),),
                baseline=(("no table", "self-play"),),
                note=SPEED_NOTE,
                gist="the table makes minimax faster",
            ),
        ),
    )


DEPTH_CONFIG = BoardConfig(act_timeout=0.8)
"""For the depth games: 0.8 s per move less the agents' 0.3 s margin (``kaggle_boundary.DEFAULT_MARGIN``) leaves
each search 0.5 s of wall time, enough to finish depth 6 or 7 in the opening and little enough to stop there."""
DEEPEST = 42
"""The depth cap of the depth games: the cells of 7x6, so the clock alone ends a search."""
DEPTH_NOTE = (
    "Both agents are Sheoran's minimax as written, iteratively deepening until the clock (0.5 s of wall "
    "time per move, the same for both) stops the search; each move plays the deepest depth finished and "
    "records it. They meet in the same games, one with its table and memo and one without, so both "
    "search on the same machine at the same moment; each colour-swapped pair of games starts from a "
    "shared random 4-ply opening. The test compares each game's mean depth reached per move of the two "
    "agents, one observation per opening; the positions the two search are alternate plies of one game, "
    "not the same positions. The paper gives no clock: in the same time is read as the same time per "
    'move. The abstract goes on "to give better results": the same games\' score, table against no '
    "table, is stated beside the verdict and not counted; 40 games cannot tell a small edge."
)


def sheoran_depth(profile: Profile) -> Experiment:
    on = AgentSpec.registered("minimax", rules="paper", depth=DEEPEST).text
    off = AgentSpec.registered("minimax", rules="paper", depth=DEEPEST, memo=False).text
    cell = Cell("table vs no table", "same clock", on, off)
    return Experiment(
        key="sheoran-depth",
        paper=SHEORAN,
        title="Abstract: with the table, minimax goes deeper in the same time",
        setup="Sheoran's minimax as written, with its table and memo against itself without them (memo=false), "
        "both deepening until the same clock per move runs out.",
        kind=DEPTHS,
        cells=(cell,),
        games=profile.depth_games,
        opening_plies=SPEED_OPENING_PLIES,
        config=DEPTH_CONFIG,
        x_label="time per move",
        ordered_x=False,
        claims=(
            Claim(
                "with the table, minimax goes deeper in the game tree in the same time",
                "deeper",
                ((cell.series, cell.x),),
                note=DEPTH_NOTE,
                companion=Claim(
                    "with the table, minimax gives better results in the same time (scores above "
                    "half against itself without it)",
                    "above_half",
                    ((cell.series, cell.x),),
                ),
                companion_words='its "to give better results"',
                gist="the table searches deeper",
            ),
        ),
    )


UNTESTED: tuple[UntestedClaim, ...] = ()
"""Sheoran's claims no cell of ours tests."""
