"""Kang, Wang & Hu (2019) as data: minimax with their heuristics H1 and H2, by depth and by H1's features.

They play minimax with H1 against itself at pairs of depths (Table 6), H1's features alone and
combined against H2 (Tables 7 and 8), H1 against H2 (Table 9), and count nodes and time per move
at depths 4 and 6 (Fig. 12, 13). Every experiment plays their minimax as written
(``minimax:evaluation=h1,rules=paper``); our enhanced minimax plays beside it in Table 9.
"""

from __future__ import annotations

import math

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.papers.experiments.design import (
    NODES,
    OURS,
    SEATS,
    SERIES,
    Cell,
    Claim,
    Experiment,
    Profile,
    UntestedClaim,
)

KANG = "Kang, Wang & Hu 2019"


def h_spec(depth: int, heuristic: str, rules: str = "paper", features: str | None = None, pruning: bool = True) -> str:
    """Kang's minimax with ``heuristic`` at ``depth``: as written (``rules=paper``) unless ``rules`` says ours;
    ``pruning=False`` without alpha-beta's cut-off."""
    extra: dict[str, str | bool] = {"features": features} if features is not None else {}
    if not pruning:
        extra["pruning"] = False
    return AgentSpec.registered("minimax", depth=depth, evaluation=heuristic, rules=rules, **extra).text


KANG_CONFIG = BoardConfig(act_timeout=30.0)
"""Kang et al. searched to a fixed depth with no clock; 30 s per move lets every search finish its depth
(H1 at depth 8 takes over a second on some positions, past Kaggle's 2 s once the machine is busy)."""
KANG_OPENING_PLIES = 4
"""Random plies before Kang's agents take over: their searches are deterministic, so without them the
games of a cell would repeat; 4 plies give 2401 openings where 2 would give 49."""
KANG_NOTE = (
    "Kang et al.'s minimax is played as written (every leaf, a finished game included, scored by the "
    "heuristic; H1's broken three scored 900,000). They made a random move every third move and played "
    "100 rounds (Table 5); we start each colour-swapped pair from a shared random 4-ply opening instead, "
    "so games differ while both sides see the same position. H1's values for its features 3 and 4 are "
    "ours: the paper orders them without printing the numbers in its text (see "
    "agents/heuristics/paper_heuristics.py), so our H1 is a reading of the paper, not necessarily its exact "
    "function. H2 has no term for a line; as in its source program, a finished line scores as a win."
)


def kang_table6(profile: Profile) -> Experiment:
    depths = profile.table6_depths
    cells = tuple(
        Cell(f"depth {a}", f"depth {b}", h_spec(a, "h1"), h_spec(b, "h1"))
        for i, a in enumerate(depths)
        for b in depths[i:]
    )
    deep = profile.table6_deep_depth
    if deep is not None:
        cells += tuple(
            Cell(f"depth {a}", f"depth {deep}", h_spec(a, "h1"), h_spec(deep, "h1"), games=profile.deep_games)
            for a in depths + (deep,)
        )
    return Experiment(
        key="kang-table6",
        paper=KANG,
        title="Table 6: H1 against itself at each pair of depths",
        setup="Kang's minimax with H1 as written against itself, laid out as the paper's Table 6 (\"the first row "
        'is the depth for the first H1 and the first column is the depth for the second H1"). '
        f"Each pair of depths is one colour-swapped match of {profile.kang_games} games"
        + (f" ({profile.deep_games} with a side at depth {deep})" if deep is not None else "")
        + f", so each seat order (each cell of the table off the diagonal) has {profile.kang_games // 2} "
        "games. The paper played 10 rounds per pair (Table 6's title; its Table 5 says 100) and gives its "
        "table as an image.",
        kind=SEATS,
        cells=cells,
        games=profile.kang_games,
        opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG,
        x_label="depth",
        claims=(
            Claim(
                "the deeper H1 tends to win more often (pooled over every pair of unequal depths)",
                "below_half",
                tuple((c.series, c.x) for c in cells if c.series != c.x),
                note=KANG_NOTE,
                subject="the shallower H1 (the first agent of each pair of depths)",
                gist="the deeper H1 tends to win",
            ),
            # Sec. 4: "the winning percentage of a heuristic with larger depth is bigger than the one with lower
            # depth": a statement about every pair.
            Claim(
                "in every pair of unequal depths, the deeper H1 wins more often",
                "below_half",
                tuple((c.series, c.x) for c in cells if c.series != c.x),
                note=KANG_NOTE,
                each=True,
                subject="the shallower H1 (the first agent of each pair of depths)",
                gist="the deeper H1 wins in every pair",
            ),
        ),
    )


TABLE7_FEATURES = ("1", "2", "3", "4")
TABLE8_FEATURES = ("34", "234", "12", "1234")
"""Kang's Table 5, situation 2: each feature alone (Table 7); features 4 and 3, 4 3 and 2, all (Table 8);
and features 1 and 2, which its text says come close to H2."""
FEATURES_DEPTH = 4
"""Kang's Table 5, situation 2: "Let Depth = 4"."""


def feature_label(features: str) -> str:
    return "F" + "+F".join(sorted(features))


SIMILAR_READING = "similar (read as within 10 points)"


def kang_features(profile: Profile, table: str, sets: tuple[str, ...]) -> Experiment:
    cells = tuple(
        Cell("H1 vs H2", feature_label(f), h_spec(FEATURES_DEPTH, "h1", features=f), h_spec(FEATURES_DEPTH, "h2"))
        for f in sets
    )
    point = {f: ("H1 vs H2", feature_label(f)) for f in sets}
    claims: tuple[Claim, ...]
    if table == "7":
        claims = (
            Claim(
                "no single feature of H1 is enough to defeat H2 (each scores below half)",
                "below_half",
                tuple(point.values()),
                note=KANG_NOTE,
                each=True,
                gist="no single feature beats H2",
            ),
            Claim(
                "Feature 1 has a similar winning percentage as Feature 3 (within 10 points)",
                "similar",
                (point["1"],),
                baseline=(point["3"],),
                note=KANG_NOTE,
                reading=SIMILAR_READING,
                gist="features 1 and 3 win alike",
            ),
            Claim(
                "Feature 2 is also similar to Feature 4 in terms of their winning percentage (within 10 points)",
                "similar",
                (point["2"],),
                baseline=(point["4"],),
                note=KANG_NOTE,
                reading=SIMILAR_READING,
                gist="features 2 and 4 win alike",
            ),
        )
        title = "Table 7: each feature of H1 alone against H2, depth 4"
    else:
        claims = (
            Claim(
                "the more features H1 combines, the more it wins against H2 (F3+F4, F2+F3+F4, all)",
                "rises",
                (point["34"], point["234"], point["1234"]),
                scores=(2.0, 3.0, 4.0),
                note=KANG_NOTE + " Read along the chain Table 8 draws (F3+F4, F2+F3+F4, all): F1+F2, two "
                "features not on that chain, is tested by the next claim.",
                gist="more features win more",
            ),
            # Sec. 5: "as number of features rises up, a heuristic becomes more optimal": every set of three
            # features we played against each set of two.
            Claim(
                "a heuristic with more features is more optimal (F2+F3+F4 scores more than each two-feature set)",
                "rises",
                (point["234"],),
                baseline=(point["34"], point["12"]),
                counting="score",
                each=True,
                note=KANG_NOTE + " Read as: the three-feature set we played scores more against H2 than each "
                "two-feature set we played (F3+F4, F1+F2); a draw counts half.",
                gist="three features beat two",
            ),
            Claim(
                "H1 with features 1 and 2 only is close to H2 (scores within 10 points of half)",
                "win_rate",
                (point["12"],),
                0.5,
                effect=0.10,
                counting="score",
                reading="close to H2 (read as 50%)",
                note=KANG_NOTE + " Read as a score (a draw counts half) of 50%: close means within 10 points "
                "of it, shown by two one-sided tests.",
                gist="features 1+2 come close to H2",
            ),
        )
        title = "Table 8: combined features of H1 against H2, depth 4"
    return Experiment(
        key=f"kang-table{table}",
        paper=KANG,
        title=title,
        setup=(
            "Kang's minimax as written with H1 restricted to some of its features (1: a line, 2: three "
            "connected and the broken three, 3: two connected, 4: an isolated stone)"
            if table == "7"
            else "Kang's minimax with H1 restricted to some of its features combined (numbered as in Table 7)"
        )
        + " against H2, both at depth 4 (Table 5, situation 2); the paper gives its table as an image.",
        kind=SERIES,
        cells=cells,
        games=profile.features_games,
        opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG,
        x_label="H1's features",
        claims=claims,
        ordered_x=False,
    )


def kang_table9(profile: Profile) -> Experiment:
    depths = profile.table9_depths
    ours = "H1 vs H2" + OURS
    cells = tuple(Cell("H1 vs H2", f"depth {d}", h_spec(d, "h1"), h_spec(d, "h2")) for d in depths)
    cells += tuple(
        Cell(ours, f"depth {d}", h_spec(d, "h1", rules="ours"), h_spec(d, "h2", rules="ours")) for d in depths
    )
    claims = []
    for series, suffix in (("H1 vs H2", ""), (ours, OURS)):
        own = bool(suffix)
        if 2 in depths:
            claims.append(
                Claim(
                    "at depth 2, H1 is much weaker than H2" + suffix,
                    "below_half",
                    ((series, "depth 2"),),
                    note=KANG_NOTE,
                    effect=0.15,
                    magnitude=True,
                    own=own,
                    gist="H1 is much weaker at depth 2",
                )
            )
        if 4 in depths:
            claims.append(
                Claim(
                    "at depth 4, H1 is a little stronger than H2" + suffix,
                    "above_half",
                    ((series, "depth 4"),),
                    note=KANG_NOTE,
                    effect=0.05,
                    own=own,
                    gist="H1 is a little stronger at depth 4",
                )
            )
        deep = tuple((series, f"depth {d}") for d in depths if d >= 4)
        if deep:
            # "The overall tendency is that when the Depth is 4 or larger ...": a pool by the rule's reading, a rise
            # along the depths by the other, stated beside it.
            rise = Claim(
                "from depth 4 on, H1's score against H2 rises with the depth" + suffix,
                "rises",
                deep,
                scores=tuple(float(d) for d in depths if d >= 4),
                counting="score",
                own=own,
                note=KANG_NOTE,
            )
            claims.append(
                Claim(
                    "from depth 4 on, H1 wins more than H2 (pooled over the depths from 4)" + suffix,
                    "above_half",
                    deep,
                    own=own,
                    companion=rise if len(deep) > 1 else None,
                    companion_words="as a rise along the depths",
                    note=KANG_NOTE + " Read as the pool of the depths from 4, not as a trend along them; "
                    "the other reading, a rise of H1's score along the depths, is tested beside it and "
                    "never counted.",
                    gist="H1 beats H2 from depth 4 on",
                )
            )
    return Experiment(
        key="kang-table9",
        paper=KANG,
        title="Table 9: H1 against H2 at equal depths",
        setup="Kang's minimax as written with H1 against it with H2 at the same depth, and our enhanced minimax "
        "with the same heuristics beside it; the paper gives its table as an image.",
        kind=SERIES,
        cells=cells,
        games=profile.kang_games,
        opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG,
        x_label="search depth of both",
        claims=tuple(claims),
        heat_map=True,
    )


NODES_NOTE = (
    "Kang et al. prune with alpha-beta too; our search differs from theirs in that it deepens "
    "iteratively (1, 2, ... up to the depth) and tries the previous iteration's best move first, which "
    "changes how much alpha-beta prunes, so the node counts are not the paper's; the shape is what "
    "compares. Depths 4 and 6 differ in level, so each correlation is taken within a depth."
)


def kang_nodes(profile: Profile) -> Experiment:
    cells = tuple(Cell(f"depth {d}", "self-play", h_spec(d, "h1"), h_spec(d, "h1")) for d in (4, 6))
    return Experiment(
        key="kang-fig12-13",
        paper=KANG,
        title="Fig. 12 and 13: nodes searched and time per move, depths 4 and 6",
        setup="Kang's minimax as written with H1 against itself at depth 4 and at depth 6; time per move is each "
        "move's duration in the game.",
        kind=NODES,
        cells=cells,
        games=profile.node_games,
        opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG,
        x_label="move number",
        claims=(
            Claim(
                "nodes searched per move decrease as the game goes on (at each depth)",
                "falls_with_move",
                tuple((c.series, c.x) for c in cells),
                note=NODES_NOTE,
                gist="nodes and time per move fall as the game goes on",
            ),
            Claim(
                "time per move decreases with the increase of moves (at each depth)",
                "time_falls_with_move",
                tuple((c.series, c.x) for c in cells),
                note=NODES_NOTE + " Time is each move's wall seconds in the game, so a busy machine adds noise to it.",
                gist="nodes and time per move fall as the game goes on",
            ),
            Claim(
                "nodes and time per move are positively correlated (at each depth)",
                "nodes_track_time",
                tuple((c.series, c.x) for c in cells),
                note=NODES_NOTE,
                gist="nodes and time go together",
            ),
        ),
    )


PRUNING_DEPTHS = (4, 6)
"""The depths of Kang's Fig. 12 and 13."""
PRUNING_NOTE = (
    "Both searches are Kang's minimax as written with H1, deepening iteratively to the depth (so a "
    "move's nodes are those of depths 1 to it); without pruning the search never cuts at beta, so it "
    "visits the whole tree to that depth and, its values exact, chooses the same moves: both cells play "
    "the same games, and games whose moves differ would be dropped and counted. Efficiency is read as "
    "nodes searched for the same move; time is shown beside it as measured in the games, and does not "
    "follow nodes one for one: alpha-beta spends more time on each node it visits (its bounds and its "
    "move order), so time falls less than nodes. Greatly is read as at most half the nodes, each "
    "depth's ratio stated and both depths pooled over independent openings for the test. Alpha-beta "
    "never visits more nodes than the full tree, so the direction cannot fail: the claim is shown by its "
    "size, at least 2x fewer nodes."
)


def kang_pruning(profile: Profile) -> Experiment:
    cells = tuple(
        Cell(f"{label}, depth {d}", "self-play", h_spec(d, "h1", pruning=pruning), h_spec(d, "h1", pruning=pruning))
        for d in PRUNING_DEPTHS
        for label, pruning in (("alpha-beta", True), ("no pruning", False))
    )
    return Experiment(
        key="kang-pruning",
        paper=KANG,
        title="Abstract: alpha-beta pruning makes minimax efficient",
        setup="Kang's minimax as written with H1 against itself at depths 4 and 6, with alpha-beta and without "
        "(pruning=false), over the same games.",
        kind=NODES,
        cells=cells,
        games=profile.pruning_games,
        opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG,
        x_label="move number",
        claims=(
            Claim(
                "alpha-beta pruning greatly increases minimax's efficiency (read: at most half the nodes on the "
                "same games)",
                "fewer_nodes",
                tuple((c.series, c.x) for c in cells if c.series.startswith("alpha-beta")),
                baseline=tuple((c.series, c.x) for c in cells if c.series.startswith("no pruning")),
                effect=math.log(2),
                magnitude=True,
                note=PRUNING_NOTE,
                gist="alpha-beta cuts nodes greatly",
            ),
        ),
    )


UNTESTED: tuple[UntestedClaim, ...] = (
    UntestedClaim(
        "Kang, Sec. 5 (Conclusions)",
        "if we increase the search depth of a relatively weaker heuristic with much less number of features, that "
        "\u201cweaker\u201d heuristic can beat its opponent with more features",
        "H1 with fewer features searched deeper against all four (or H2) shallower, say F1+F2 at depth 6 against "
        "H1 at depth 4, about 100 games a cell: every match of Tables 6 to 9 holds the features or the depth equal",
    ),
)
"""Kang's claims no cell of ours tests."""
