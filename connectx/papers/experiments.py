"""The seed papers' experiments as data: who plays whom, how many games, and what each paper reports.

Two papers seeded this project. Sheoran et al. (2021) compare a depth-limited minimax (depths 1,
2, 3 and their adaptive 4/5) and an MCTS on a per-move time limit against Kaggle's built-in
``random`` and ``negamax`` and against each other (their Fig. 3, 4, 5). Kang, Wang & Hu (2019)
play minimax with their heuristic H1 against itself at pairs of depths (Table 6), H1's features
alone and combined against the heuristic H2 (Tables 7 and 8), H1 against H2 (Table 9), and count
nodes and time per move at depths 4 and 6 (Fig. 12, 13).

Every experiment plays the papers' agents as written (``minimax:rules=paper``, the unoptimised
``memo=false`` one at Sheoran's depths up to 3, plain UCB1 ``mcts:proofs=false,reuse=false``), the
claims are tested on them, and our enhanced agents play beside them where the difference teaches
something (their claims are marked "(ours)"). MCTS's time limit T_max is counted in CPU seconds of
the game's process (``clock=cpu``), so a busy machine cannot shorten it.

Each experiment is a set of ``Cell`` s, one colour-swapped match each, and the ``Claim`` s of its
paper: a number where the text gives one (the figures themselves are images we cannot read, so
only the numbers quoted in the text are compared), otherwise the direction the text states.
``runner`` plays the cells and ``verdicts`` checks every claim against what was measured.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig

SHEORAN = "Sheoran et al. 2021"
KANG = "Kang, Wang & Hu 2019"

SERIES = "series"
"""A figure of win rates: one line per series, one point per x value."""
SEATS = "seats"
"""A table by seat (Kang's Table 6): the first mover's depth against the second mover's."""
NODES = "nodes"
"""Nodes searched and time per move against the move number (Kang's Fig. 12 and 13)."""
KINDS = (SERIES, SEATS, NODES)

CLAIM_TESTS = ("win_rate", "above_half", "below_half", "rises", "similar", "falls_with_move",
               "time_falls_with_move", "nodes_track_time", "faster")
"""How a claim is checked against our games (``connectx.papers.verdicts`` holds the tests):

- ``win_rate``: the pooled rate of ``cells`` read as "within ``effect`` of the paper's number": two
  one-sided score tests (TOST) of the margin (rejected: agrees) and the one-sided score test at its
  nearer edge of a rate beyond it (rejected: contradicted); a claim of 100% ("all of the games") is
  read the same way, its margin the one edge below it;
- ``above_half`` / ``below_half``: the score of ``cells``' first agent against 1/2, by a score test;
  ``effect`` is the distance from 1/2 the paper's words imply; with ``each`` every cell must show it;
- ``rises``: the win rate of ``cells`` over ``scores`` (a Cochran-Armitage trend test stratified by
  series and seat, with Cochran's Q of the strata's slopes; with ``each``, in every series), or,
  with a ``baseline``, that of ``cells`` against that of ``baseline`` (the same test with scores 1
  and 0; with ``each``, against every baseline cell on its own); ``effect`` is the rise across the
  series the test should be able to see;
- ``similar``: the win rates of ``cells`` and ``baseline`` (one cell each) are within ``effect`` of
  each other (TOST on their difference; significantly further apart: contradicted);
- ``falls_with_move`` / ``time_falls_with_move``: the correlation of log nodes (log seconds) with the
  move number within each series (Fisher's z), ``effect`` a correlation;
- ``nodes_track_time``: the correlation of nodes and seconds over every move searched, within each
  series, ``effect`` a correlation;
- ``faster``: the games of ``cells`` against the same games of ``baseline`` (identical move for
  move), by the mean over independent games of log(baseline CPU seconds / CPU seconds), a t test;
  ``effect`` is that log ratio.
"""

COUNTINGS = ("win", "score")
"""What a game counts for a claim: a win as 1 and anything else as 0 (the papers' winning percentage), or
its score (a draw is half)."""

DEFAULT_EFFECTS = {"win_rate": 0.05, "above_half": 0.10, "below_half": 0.10, "rises": 0.10, "similar": 0.10,
                   "falls_with_move": 0.3, "time_falls_with_move": 0.3, "nodes_track_time": 0.3,
                   "faster": math.log(1.1)}
"""The effect a test should detect when a claim states none: 5 points off a quoted rate, a score of
60% (40%) for "wins"/"loses", a rise of 10 points across a series, two rates within 10 points, a
correlation of 0.3 (a "medium" correlation in Cohen's terms), a move 10% faster."""


@dataclass(frozen=True)
class Cell:
    """One match of an experiment: ``first`` against ``second``, drawn at (``series``, ``x``)."""

    series: str
    x: str
    first: str
    second: str
    value: float | None = None
    """``x`` as a number where it is one (T_max in ms), so figures can place it on a log axis."""
    games: int | None = None
    """This cell's games when they differ from the experiment's (a claim that needs more)."""

    @property
    def slug(self) -> str:
        """The cell's directory name under its experiment's."""
        text = f"{self.first}-vs-{self.second}"
        return "".join(c if c.isalnum() or c in "=.," else "_" for c in text)


@dataclass(frozen=True)
class Claim:
    """One statement of a paper and how our measurement is held against it (``test``, see CLAIM_TESTS).

    ``cells`` are (series, x) pairs whose games are pooled; ``note`` says what differs between the
    paper's setup and ours that bears on this claim, printed beside the verdict.
    """

    text: str
    test: str
    cells: tuple[tuple[str, str], ...] = ()
    paper_value: float | None = None
    baseline: tuple[tuple[str, str], ...] = ()
    note: str = ""
    scores: tuple[float, ...] = ()
    """For a ``rises`` claim without a baseline: each cell's place on the series' axis (log T_max, a depth)."""
    effect: float | None = None
    """The effect the test should detect (see CLAIM_TESTS); None takes ``DEFAULT_EFFECTS``."""
    each: bool = False
    """The claim holds for every cell (``above_half``, ``below_half``), against every baseline cell or in
    every series (``rises``), not for their pool: an intersection-union test, which agrees only when every
    cell is significant the claimed way and is contradicted when any cell is significant the other way."""
    magnitude: bool = False
    """The paper's words ("much better", "easily", "dominates") imply an effect of at least ``effect``, not
    just a direction: a claim shown the claimed way whose size is ruled out agrees only in direction."""
    counting: str = ""
    """What a game counts (``COUNTINGS``); empty takes the test's own: a win for rates and rises, the score
    for ``above_half`` and ``below_half``."""
    reading: str = ""
    """How the report prints the paper's number when it is our reading of words (``close to H2 (read as 50%)``)."""
    subject: str = ""
    """Whose score or rate the report states (the cells' first agent) when the claim's words name the other side."""
    sensitivity: bool = False
    """A rate the paper averages over settings it does not state (its T_max values, its seats): the report
    recomputes it over every range of the cells and seat mix, and calls it not comparable where those reach it."""

    @property
    def detectable(self) -> float:
        """The effect size at which this claim's test states its power."""
        return DEFAULT_EFFECTS[self.test] if self.effect is None else self.effect

    @property
    def counts(self) -> str:
        """What a game counts for this claim: ``counting``, or the test's own."""
        if self.counting:
            return self.counting
        return "score" if self.test in ("above_half", "below_half") else "win"

    def __post_init__(self) -> None:
        if self.test not in CLAIM_TESTS:
            raise ValueError(f"claim test {self.test!r}: expected one of {', '.join(CLAIM_TESTS)}")
        if self.counting and self.counting not in COUNTINGS:
            raise ValueError(f"claim {self.text!r}: counting {self.counting!r}, expected one of {', '.join(COUNTINGS)}")
        if self.test == "win_rate" and self.paper_value is None:
            raise ValueError(f"claim {self.text!r}: a win_rate claim needs the paper's value")
        if self.test == "rises" and not self.baseline and len(self.scores) != len(self.cells):
            raise ValueError(f"claim {self.text!r}: a rise over a series needs one score per cell, or a baseline")
        if self.test == "faster" and not self.baseline:
            raise ValueError(f"claim {self.text!r}: a speed claim needs the baseline it is faster than")
        if self.test == "similar" and (len(self.cells), len(self.baseline)) != (1, 1):
            raise ValueError(f"claim {self.text!r}: a similarity compares one cell with one baseline cell")


OWN = "this project"
"""The source of an experiment no paper reports: ours."""


@dataclass(frozen=True)
class Experiment:
    """A figure or table of a paper: its cells, the games per cell, the opening plies and the claims."""

    key: str
    paper: str
    title: str
    setup: str
    kind: str
    cells: tuple[Cell, ...]
    games: int
    claims: tuple[Claim, ...]
    x_label: str = ""
    opening_plies: int = 0
    config: BoardConfig = BoardConfig()
    paper_points: tuple[tuple[str, str, float], ...] = ()
    """(series, x, win rate) the paper's text gives for a single cell, marked on our figure."""
    paper_lines: tuple[tuple[str, float, str], ...] = ()
    """(series, win rate, label) the paper's text gives for a whole series (an average), drawn as a line."""
    log_x: bool = False
    """Whether the cells' numeric ``value`` s go on a log axis (time limits spanning decades)."""
    heat_map: bool = False
    """Whether the figure is a heat map of both sides' win rates by x (a table in the paper) rather than lines."""
    ordered_x: bool = True
    """Whether the x values are a scale (depths, times), so the figure joins the points of a series."""

    @property
    def source(self) -> str:
        """Its short name: the paper's first author and the figure (``Kang, Table 6``), or for an experiment of
        this project's own, its title alone."""
        name = self.title.split(":")[0]
        return name if self.paper == OWN else f"{self.paper.split()[0]} {name}"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"experiment {self.key}: kind {self.kind!r}, expected one of {', '.join(KINDS)}")
        for games in {self.games} | {c.games for c in self.cells if c.games is not None}:
            if games < 2 or games % 2:
                raise ValueError(f"experiment {self.key}: {games} games per cell; use an even number, "
                                 "2 or more, so every game has its colour-swapped twin")
        known = {(cell.series, cell.x) for cell in self.cells}
        for claim in self.claims:
            for point in claim.cells + claim.baseline:
                if point not in known:
                    raise ValueError(f"experiment {self.key}: claim {claim.text!r} names {point}, which no cell has")

    def cell(self, series: str, x: str) -> Cell:
        return next(c for c in self.cells if (c.series, c.x) == (series, x))

    def games_of(self, cell: Cell) -> int:
        """The games ``cell`` plays: its own count, else the experiment's."""
        return self.games if cell.games is None else cell.games

    def games_text(self) -> str:
        """``100 games per cell`` and the cells that play another number."""
        others: dict[int, list[str]] = {}
        for cell in self.cells:
            if cell.games is not None and cell.games != self.games:
                others.setdefault(cell.games, []).append(f"{cell.series} at {cell.x}")
        extra = "".join(f"; {games} in {', '.join(names)}" for games, names in others.items())
        return f"{self.games} games per cell{extra}"


@dataclass(frozen=True)
class Profile:
    """How big a run is: the games per cell of each paper and the values swept."""

    name: str
    sheoran_games: int
    """Per point of Fig. 3 and 4 (the paper's 100)."""
    adaptive_games: int
    """Minimax 4/5 against kaggle's negamax, the paper's 93.75%: enough games to tell it from ours."""
    fig5_games: int
    """Per point of Fig. 5 (the paper's 250)."""
    beside_games: int
    """Per point of our enhanced agents where they play beside the papers' (no claim rests on them alone)."""
    kang_games: int
    """Per cell of Tables 6 (depths ``table6_depths``) and 9 (the paper's Table 5: 100 rounds)."""
    deep_games: int
    """Per cell of Table 6 with a side at ``table6_deep_depth``."""
    features_games: int
    """Per cell of Tables 7 and 8."""
    node_games: int
    speed_games: int
    """Games of Sheoran's minimax with and without its table (the same games, move for move)."""
    solver_games: int
    mcts_budgets_ms: tuple[int, ...]
    fig5_budgets_ms: tuple[int, ...]
    fig5_adaptive_extra_ms: tuple[int, ...]
    """More T_max values for minimax 4/5 alone in Fig. 5: the paper's "79% on average over T_max" depends on
    which T_max values are averaged, and these show how."""
    table6_depths: tuple[int, ...]
    table6_deep_depth: int | None
    table9_depths: tuple[int, ...]
    solver_spec: str
    mcts_opponent_ms: int
    """The MCTS the solver meets: one of ``mcts_budgets_ms``, so the Elo fit links it to Fig. 4."""
    seed: int = 0


QUICK = Profile(
    name="quick", sheoran_games=6, adaptive_games=6, fig5_games=6, beside_games=2, kang_games=6, deep_games=2,
    features_games=2, node_games=2, speed_games=2, solver_games=4,
    mcts_budgets_ms=(10, 100, 250), fig5_budgets_ms=(10, 100), fig5_adaptive_extra_ms=(50,), table6_depths=(1, 2, 4),
    table6_deep_depth=None,
    table9_depths=(2, 4), solver_spec="solver:time_budget=0.25", mcts_opponent_ms=250,
)
"""A smoke run (about 400 games): every experiment, every figure and table, intervals far too wide to conclude."""

FULL = Profile(
    name="full", sheoran_games=100, adaptive_games=400, fig5_games=250, beside_games=100, kang_games=100,
    deep_games=100, features_games=100, node_games=10, speed_games=100, solver_games=100,
    mcts_budgets_ms=(10, 50, 100, 250, 500, 1000), fig5_budgets_ms=(10, 100, 250, 1000),
    fig5_adaptive_extra_ms=(50, 500),
    table6_depths=(2, 3, 4, 5, 6), table6_deep_depth=8, table9_depths=(2, 4, 6, 8),
    solver_spec="solver:time_budget=0.5", mcts_opponent_ms=250,
)
"""The paper-sized run: 100 games per point of Fig. 3 and 4 as in the paper (400 for minimax 4/5 against
negamax), 250 per point of Fig. 5 as in the paper (minimax 4/5 at two more T_max values, for the 79%
claim's sensitivity), 100 per depth pair of Table 6 at depths 2 to 6 and per
depth of Table 9 and per cell of Tables 7 and 8 (the paper's Table 5: 100 rounds), 100 per pair with depth 8
too (about 10 CPU seconds a game), 100 per point of our enhanced agents beside the papers', 100 games of
each side of Sheoran's speed claim and 100 per opponent of the solver: 13,420 games, about 12 CPU hours
(measured by benchmarks/report_cost.py)."""

PROFILES = {profile.name: profile for profile in (QUICK, FULL)}

ADAPTIVE = "4/5"
OPPONENTS = ("kaggle:random", "kaggle:negamax")
OURS = " (ours)"
"""Appended to a series or claim played by our enhanced agents rather than the papers' as written."""


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


def h_spec(depth: int, heuristic: str, rules: str = "paper", features: str | None = None) -> str:
    """Kang's minimax with ``heuristic`` at ``depth``: as written (``rules=paper``) unless ``rules`` says ours."""
    extra = {"features": features} if features is not None else {}
    return AgentSpec.registered("minimax", depth=depth, evaluation=heuristic, rules=rules, **extra).text


def budget_label(budget_ms: int) -> str:
    return f"{budget_ms} ms"


NEGAMAX_TEXT = ("kaggle's negamax, as installed, is a plain negamax to depth 4 (no pruning, no memo) that takes "
                "an immediate win at every node; at the horizon it scores a move as (cells + 1 - stones) / 2, "
                "the score of a win at that ply, plus one for each own stone left or right of the cell it lands "
                "in and for the one below it (counted only above the second row), and it breaks ties by a coin "
                "flip per column. It may differ from the version the paper played in 2021.")
MINIMAX_NOTE = ("The papers' minimax is played as written: every move searched, every leaf (a finished game "
                "included) scored by the window count, so depth 1 neither sees the opponent's reply nor values a "
                "win above the count. Our enhanced minimax, beside it, also takes an immediate win at the horizon "
                "and never plays a move that hands the opponent a line.")
AGAINST_NEGAMAX_NOTE = MINIMAX_NOTE + " " + NEGAMAX_TEXT
"""For the claims about games against kaggle's negamax (Fig. 3): the minimax and the opponent as they play."""
MCTS_NOTE = ("The papers' MCTS is played as written: plain UCB1 with c = 2 and random rollouts, a fresh tree each "
             "move. Our enhanced MCTS, beside it, adds MCTS-solver proofs and keeps its tree between moves. T_max "
             "is per move, as in the paper, and counted in CPU seconds of the game's process; the paper's machine "
             "and language speed are unknown, so equal milliseconds need not mean equal simulations.")
CLOCK_CONFIG = BoardConfig(act_timeout=30.0)
"""For cells with an MCTS: its T_max is counted in CPU seconds (``clock=cpu``), and actTimeout, wall time,
is 30 s, so a busy machine can neither shorten a move's computation nor time a move out."""
SEARCH_CONFIG = BoardConfig(act_timeout=30.0)
"""For Sheoran's minimax cells: it searches to a fixed depth, and the unoptimised one and kaggle's negamax
(no pruning) can take seconds on a busy machine; 30 s lets every move finish."""
KANG_CONFIG = BoardConfig(act_timeout=30.0)
"""Kang et al. searched to a fixed depth with no clock; 30 s per move lets every search finish its depth
(H1 at depth 8 takes over a second on some positions, past Kaggle's 2 s once the machine is busy)."""
KANG_OPENING_PLIES = 4
"""Random plies before Kang's agents take over: their searches are deterministic, so without them the
games of a cell would repeat; 4 plies give 2401 openings where 2 would give 49."""
KANG_NOTE = ("Kang et al.'s minimax is played as written (every leaf, a finished game included, scored by the "
             "heuristic; H1's broken three scored 900,000). They made a random move every third move and played "
             "100 rounds (Table 5); we start each colour-swapped pair from a shared random 4-ply opening instead, "
             "so games differ while both sides see the same position. H1's values for its features 3 and 4 are "
             "ours: the paper orders them without printing the numbers in its text (see "
             "agents/heuristics/paper_heuristics.py), so our H1 is a reading of the paper, not necessarily its exact "
             "function. H2 has no term for a line; as in its source program, a finished line scores as a win.")
MINIMAX_AND_MCTS_NOTE = MINIMAX_NOTE + " " + MCTS_NOTE
"""For the claims about minimax against MCTS (Fig. 5): both sides as they play; no negamax plays there."""
SPEED_NOTE = ("Both agents play the same games move for move (the table changes the work, not the moves); games "
              "whose moves differ between the cells are dropped and counted. The test compares each game's CPU "
              "seconds (its process's, both sides and the kaggle-environments engine included, so the ratio "
              "understates the search's own gain), one observation per independent group of games (a "
              "colour-swapped pair, joined with its repeats), by Student's t; the per-move wall-time ratio is "
              "printed beside it, and wall time depends on how busy the machine was.")


AVERAGE_NOTE = (" The average depends on which T_max values are averaged and on how often minimax moved first; "
                "the paper gives neither, so the report recomputes it over every range of our T_max values and "
                "several seat mixes (the table under the figure).")


def sheoran_fig3(profile: Profile) -> Experiment:
    depths = ("1", "2", "3", ADAPTIVE)
    cells = tuple(Cell(f"vs {opponent}", depth, paper_minimax_spec(depth), opponent,
                       games=profile.adaptive_games if (opponent, depth) == ("kaggle:negamax", ADAPTIVE) else None)
                  for opponent in OPPONENTS for depth in depths)
    random_series, negamax_series = (f"vs {opponent}" for opponent in OPPONENTS)
    ours_series = negamax_series + OURS
    cells += tuple(Cell(ours_series, depth, minimax_spec(depth), "kaggle:negamax",
                        games=profile.adaptive_games if depth == ADAPTIVE else profile.beside_games)
                   for depth in depths)
    return Experiment(
        key="sheoran-fig3", paper=SHEORAN, title="Fig. 3: minimax against kaggle's random and negamax, by depth",
        setup="Sheoran's minimax as written (the unoptimised one at depths 1, 2, 3, the optimised one at the "
              "adaptive 4/5: 4 while more than a third of the board is empty, then 5) against kaggle's built-in "
              "agents; our enhanced minimax against negamax beside it. The paper played 100 games per point.",
        kind=SERIES, cells=cells, games=profile.sheoran_games, x_label="minimax depth", config=SEARCH_CONFIG,
        claims=(
            # Sheoran et al., Sec. 4.1: "beat negamax in 93.75% of the all games played".
            Claim("the optimised minimax (depth 4/5) beats negamax in 93.75% of the games", "win_rate",
                  ((negamax_series, ADAPTIVE),), 0.9375, note=AGAINST_NEGAMAX_NOTE),
            Claim("the optimised minimax (depth 4/5) beats negamax in 93.75% of the games" + OURS, "win_rate",
                  ((ours_series, ADAPTIVE),), 0.9375, note=AGAINST_NEGAMAX_NOTE),
            # Sec. 4.1: "able to defeat random agents in all of the games consistently"; a 99% rate is
            # the departure the test should see.
            Claim("minimax beats the random agent in all of the games, at every depth", "win_rate",
                  tuple((random_series, depth) for depth in depths), 1.0, effect=0.01,
                  note="Read as a rate of at least 99%: the paper's own 100 games per depth cannot tell 100% from "
                       "99% (a 99% agent wins all of 100 games in 37% of such runs), so a game not won counts "
                       "against the words, not against the measured rate; the report says how many there were."),
            Claim("up to depth 3, minimax does not get good results against negamax (read: it wins at most "
                  "half its games at each depth)", "below_half", tuple((negamax_series, d) for d in ("1", "2", "3")),
                  note=AGAINST_NEGAMAX_NOTE, each=True),
            Claim("up to depth 3, minimax does not get good results against negamax (at each depth)" + OURS,
                  "below_half",
                  tuple((ours_series, d) for d in ("1", "2", "3")), each=True,
                  note=AGAINST_NEGAMAX_NOTE + " Our two rules give even depth 1 the tactics of a deeper search."),
            Claim("depth 4/5 does much better against negamax than each depth up to 3", "rises",
                  ((negamax_series, ADAPTIVE),), baseline=tuple((negamax_series, d) for d in ("1", "2", "3")),
                  note=AGAINST_NEGAMAX_NOTE, effect=0.15, each=True, magnitude=True),
        ),
        # Sec. 4.1 gives 93.75% against negamax at depth 4/5 and 100% against random at every depth;
        # Fig. 3 itself is an image without printed values.
        paper_points=((negamax_series, ADAPTIVE, 0.9375),) + tuple((random_series, d, 1.0) for d in depths),
    )


def sheoran_fig4(profile: Profile) -> Experiment:
    budgets = profile.mcts_budgets_ms
    cells = tuple(Cell(f"vs {opponent}", budget_label(b), plain_mcts_spec(b), opponent, float(b))
                  for opponent in OPPONENTS for b in budgets)
    cells += tuple(Cell("vs kaggle:negamax" + OURS, budget_label(b), mcts_spec(b), "kaggle:negamax", float(b),
                        games=profile.beside_games) for b in budgets)
    return Experiment(
        key="sheoran-fig4", paper=SHEORAN, title="Fig. 4: MCTS against kaggle's random and negamax, by time per move",
        setup="Sheoran's MCTS as written (plain UCB1, c = 2, random rollouts, a fresh tree each move) with a "
              "per-move limit T_max in CPU seconds against kaggle's built-in agents; our enhanced MCTS against "
              "negamax beside it. The paper played 100 games per point and gives no number in its text.",
        kind=SERIES, cells=cells, games=profile.sheoran_games, x_label="MCTS time per move (T_max, CPU)",
        config=CLOCK_CONFIG,
        claims=tuple(
            Claim(f"as T_max grows, MCTS wins more often against {opponent.removeprefix('kaggle:')}", "rises",
                  tuple((f"vs {opponent}", budget_label(b)) for b in budgets),
                  scores=tuple(math.log10(b) for b in budgets), note=MCTS_NOTE)
            for opponent in OPPONENTS),
        log_x=True,
    )


def sheoran_fig5(profile: Profile) -> Experiment:
    depths = ("1", "2", "3", ADAPTIVE)
    budgets = profile.fig5_budgets_ms
    adaptive_budgets = tuple(sorted(budgets + profile.fig5_adaptive_extra_ms))
    cells = tuple(Cell(f"depth {depth}", budget_label(b), paper_minimax_spec(depth), plain_mcts_spec(b), float(b))
                  for depth in depths for b in (adaptive_budgets if depth == ADAPTIVE else budgets))
    cells += tuple(Cell(f"depth {depth}{OURS}", budget_label(b), minimax_spec(depth), mcts_spec(b), float(b),
                        games=profile.beside_games) for depth in ("1", ADAPTIVE) for b in budgets)
    smallest, largest = budget_label(budgets[0]), budget_label(budgets[-1])
    return Experiment(
        key="sheoran-fig5", paper=SHEORAN, title="Fig. 5: minimax at each depth against MCTS at each time per move",
        setup="Sheoran's minimax as written at depths 1, 2, 3 (unoptimised) and 4/5 (optimised) against their "
              "plain UCB1 MCTS at each T_max (CPU seconds); our enhanced minimax at depths 1 and 4/5 against our "
              "enhanced MCTS beside them. The paper played 250 games per point.",
        kind=SERIES, cells=cells, games=profile.fig5_games, x_label="MCTS time per move (T_max, CPU)",
        config=CLOCK_CONFIG,
        claims=(
            # Sec. 4.3 and 5: "an average win rate of 79%" of the depth 4/5 minimax against MCTS.
            Claim("minimax at depth 4/5 wins 79% of its games against MCTS on average over T_max", "win_rate",
                  tuple((f"depth {ADAPTIVE}", budget_label(b)) for b in adaptive_budgets), 0.79,
                  note=MINIMAX_AND_MCTS_NOTE + AVERAGE_NOTE, sensitivity=True),
            Claim("minimax at depth 4/5 wins 79% of its games against MCTS on average over T_max" + OURS,
                  "win_rate", tuple((f"depth {ADAPTIVE}{OURS}", budget_label(b)) for b in budgets), 0.79,
                  note=MINIMAX_AND_MCTS_NOTE + AVERAGE_NOTE, sensitivity=True),
            Claim("at a small T_max, minimax beats MCTS easily even at each low depth (1, 2, 3)", "above_half",
                  tuple((f"depth {d}", smallest) for d in ("1", "2", "3")), note=MINIMAX_AND_MCTS_NOTE,
                  effect=0.15, each=True, magnitude=True),
            Claim("at a larger T_max, MCTS dominates minimax at each depth up to 3", "below_half",
                  tuple((f"depth {d}", largest) for d in ("1", "2", "3")), note=MINIMAX_AND_MCTS_NOTE,
                  effect=0.15, each=True, magnitude=True),
            # Sec. 4.3: "as the time limit for MCTS increases it starts to show its dominance over minimax upto
            # only N = 3": minimax's win rate falls with T_max, i.e. rises with -log T_max, at each depth up to 3.
            Claim("as T_max grows, MCTS does better against minimax at depths up to 3 (minimax's win rate falls)",
                  "rises", tuple((f"depth {d}", budget_label(b)) for d in ("1", "2", "3") for b in budgets),
                  scores=tuple(-math.log10(b) for _ in ("1", "2", "3") for b in budgets), note=MINIMAX_AND_MCTS_NOTE,
                  each=True),
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
        key="sheoran-speed", paper=SHEORAN, title="Sec. 3.2.1: the dynamic-programming table makes minimax faster",
        setup="Sheoran's minimax as written at depth 4/5 against itself, with its window-count table and memo "
              "(memo=true) and without (memo=false: every window recounted at every leaf), over the same games "
              "from the same openings. " + SPEED_NOTE,
        kind=NODES, cells=cells, games=profile.speed_games, opening_plies=KANG_OPENING_PLIES, config=SEARCH_CONFIG,
        x_label="move number",
        claims=(
            Claim("with the table, minimax takes less time on the same positions (the same games, move for move)",
                  "faster",
                  (("table", "self-play"),), baseline=(("no table", "self-play"),), note=SPEED_NOTE),
        ),
    )


def kang_table6(profile: Profile) -> Experiment:
    depths = profile.table6_depths
    cells = tuple(Cell(f"depth {a}", f"depth {b}", h_spec(a, "h1"), h_spec(b, "h1"))
                  for i, a in enumerate(depths) for b in depths[i:])
    deep = profile.table6_deep_depth
    if deep is not None:
        cells += tuple(Cell(f"depth {a}", f"depth {deep}", h_spec(a, "h1"), h_spec(deep, "h1"),
                            games=profile.deep_games) for a in depths + (deep,))
    return Experiment(
        key="kang-table6", paper=KANG, title="Table 6: H1 against itself at each pair of depths",
        setup="Kang's minimax with H1 as written against itself. As in the paper's Table 6 (\"the first row is "
              "the depth for the first H1 and the first column is the depth for the second H1\"), the columns "
              "are the first mover's depth and the rows the second mover's, in the table and the heat map alike. "
              f"Each pair of depths is one colour-swapped match of {profile.kang_games} games"
              + (f" ({profile.deep_games} with a side at depth {deep})" if deep is not None else "")
              + f", so each seat order (each cell of the table off the diagonal) has {profile.kang_games // 2} "
              "games. The paper played 10 rounds per pair (Table 6's title; its Table 5 says 100) and gives its "
              "table as an image.",
        kind=SEATS, cells=cells, games=profile.kang_games, opening_plies=KANG_OPENING_PLIES, config=KANG_CONFIG,
        x_label="depth",
        claims=(
            Claim("the deeper H1 tends to win more often (pooled over every pair of unequal depths)", "below_half",
                  tuple((c.series, c.x) for c in cells if c.series != c.x), note=KANG_NOTE,
                  subject="the shallower H1 (the first agent of each pair of depths)"),
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
    cells = tuple(Cell("H1 vs H2", feature_label(f), h_spec(FEATURES_DEPTH, "h1", features=f),
                       h_spec(FEATURES_DEPTH, "h2")) for f in sets)
    point = {f: ("H1 vs H2", feature_label(f)) for f in sets}
    claims: tuple[Claim, ...]
    if table == "7":
        claims = (
            Claim("no single feature of H1 is enough to defeat H2 (each scores below half)", "below_half",
                  tuple(point.values()), note=KANG_NOTE, each=True),
            Claim("Feature 1 has a similar winning percentage as Feature 3 (within 10 points)", "similar",
                  (point["1"],), baseline=(point["3"],), note=KANG_NOTE, reading=SIMILAR_READING),
            Claim("Feature 2 is also similar to Feature 4 in terms of their winning percentage (within 10 points)",
                  "similar", (point["2"],), baseline=(point["4"],), note=KANG_NOTE, reading=SIMILAR_READING),
        )
        title = "Table 7: each feature of H1 alone against H2, depth 4"
    else:
        claims = (
            Claim("the more features H1 combines, the more it wins against H2 (F3+F4, F2+F3+F4, all)", "rises",
                  (point["34"], point["234"], point["1234"]), scores=(2.0, 3.0, 4.0), note=KANG_NOTE),
            Claim("H1 with features 1 and 2 only is close to H2 (scores within 10 points of half)", "win_rate",
                  (point["12"],), 0.5, effect=0.10, counting="score", reading="close to H2 (read as 50%)",
                  note=KANG_NOTE + " Read as a score (a draw counts half) of 50%: close means within 10 points "
                  "of it, shown by two one-sided tests."),
        )
        title = "Table 8: combined features of H1 against H2, depth 4"
    return Experiment(
        key=f"kang-table{table}", paper=KANG, title=title,
        setup=("Kang's minimax as written with H1 restricted to some of its features (1: a line, 2: three "
               "connected and the broken three, 3: two connected, 4: an isolated stone)" if table == "7" else
               "Kang's minimax with H1 restricted to some of its features combined (numbered as in Table 7)")
        + " against H2, both at depth 4 (Table 5, situation 2); the paper gives its table as an image.",
        kind=SERIES, cells=cells, games=profile.features_games, opening_plies=KANG_OPENING_PLIES,
        config=KANG_CONFIG, x_label="H1's features", claims=claims, ordered_x=False,
    )


def kang_table9(profile: Profile) -> Experiment:
    depths = profile.table9_depths
    ours = "H1 vs H2" + OURS
    cells = tuple(Cell("H1 vs H2", f"depth {d}", h_spec(d, "h1"), h_spec(d, "h2")) for d in depths)
    cells += tuple(Cell(ours, f"depth {d}", h_spec(d, "h1", rules="ours"), h_spec(d, "h2", rules="ours"))
                   for d in depths)
    claims = []
    for series, suffix in (("H1 vs H2", ""), (ours, OURS)):
        if 2 in depths:
            claims.append(Claim("at depth 2, H1 is much weaker than H2" + suffix, "below_half",
                                ((series, "depth 2"),), note=KANG_NOTE, effect=0.15, magnitude=True))
        if 4 in depths:
            claims.append(Claim("at depth 4, H1 is a little stronger than H2" + suffix, "above_half",
                                ((series, "depth 4"),), note=KANG_NOTE, effect=0.05))
        deep = tuple((series, f"depth {d}") for d in depths if d >= 4)
        if deep:
            claims.append(Claim("from depth 4 on, H1 wins more than H2 (pooled over the depths from 4)" + suffix,
                                "above_half", deep, note=KANG_NOTE))
    return Experiment(
        key="kang-table9", paper=KANG, title="Table 9: H1 against H2 at equal depths",
        setup="Kang's minimax as written with H1 against it with H2 at the same depth, and our enhanced minimax "
              "(a win one ply ahead counted at the horizon, no move that hands the opponent a line) with the same "
              "heuristics beside it; the paper gives its table as an image.",
        kind=SERIES, cells=cells, games=profile.kang_games, opening_plies=KANG_OPENING_PLIES, config=KANG_CONFIG,
        x_label="search depth of both",
        claims=tuple(claims), heat_map=True,
    )


NODES_NOTE = ("Kang et al. prune with alpha-beta too; our search differs from theirs in that it deepens "
              "iteratively (1, 2, ... up to the depth) and tries the previous iteration's best move first, which "
              "changes how much alpha-beta prunes, so the node counts are not the paper's; the shape is what "
              "compares. Depths 4 and 6 differ in level, so each correlation is taken within a depth.")


def kang_nodes(profile: Profile) -> Experiment:
    cells = tuple(Cell(f"depth {d}", "self-play", h_spec(d, "h1"), h_spec(d, "h1")) for d in (4, 6))
    return Experiment(
        key="kang-fig12-13", paper=KANG, title="Fig. 12 and 13: nodes searched and time per move, depths 4 and 6",
        setup="Kang's minimax as written with H1 against itself at depth 4 and at depth 6. Time per move is each "
              "move's duration in the kaggle-environments game; nodes, the depth reached and evaluations are what "
              "each move's search reported as it played, recorded with the game.",
        kind=NODES, cells=cells, games=profile.node_games, opening_plies=KANG_OPENING_PLIES, config=KANG_CONFIG,
        x_label="move number",
        claims=(
            Claim("nodes searched per move decrease as the game goes on (at each depth)", "falls_with_move",
                  tuple((c.series, c.x) for c in cells), note=NODES_NOTE),
            Claim("time per move decreases with the increase of moves (at each depth)", "time_falls_with_move",
                  tuple((c.series, c.x) for c in cells), note=NODES_NOTE + " Time is each move's wall seconds "
                  "in the game, so a busy machine adds noise to it."),
            Claim("nodes and time per move are positively correlated (at each depth)", "nodes_track_time",
                  tuple((c.series, c.x) for c in cells), note=NODES_NOTE),
        ),
    )


def solver_gauntlet(profile: Profile) -> Experiment:
    opponents = ("kaggle:random", "kaggle:negamax", "random", "negamax", "minimax",
                 plain_mcts_spec(profile.mcts_opponent_ms))
    cells = tuple(Cell("solver", opponent, profile.solver_spec, opponent) for opponent in opponents)
    return Experiment(
        key="solver", paper=OWN, title="Our solver against every other agent",
        setup=f"{profile.solver_spec} (the opening book where present, then iterative deepening into an exact "
              "solve within its time) against each other agent. No paper reports this; the claim is ours.",
        kind=SERIES, cells=cells, games=profile.solver_games, x_label="opponent", ordered_x=False,
        config=CLOCK_CONFIG,
        claims=(Claim("the solver scores above one half against the other agents (pooled over them)", "above_half",
                      tuple((c.series, c.x) for c in cells)),),
    )


def experiments(profile: Profile) -> tuple[Experiment, ...]:
    """Every experiment of the report, in the order it is written."""
    return (sheoran_fig3(profile), sheoran_fig4(profile), sheoran_fig5(profile), sheoran_speed(profile),
            kang_table6(profile), kang_features(profile, "7", TABLE7_FEATURES),
            kang_features(profile, "8", TABLE8_FEATURES), kang_table9(profile), kang_nodes(profile),
            solver_gauntlet(profile))


ELO_EXPERIMENTS = ("sheoran-fig3", "sheoran-fig4", "sheoran-fig5", "solver")
"""The experiments whose games enter the joint Elo fit: they share opponents, so one scale links them.
Kang's H1/H2 variants never meet the others and are left out (their ratings would float free)."""
ELO_ANCHOR = "kaggle:negamax"
"""Kaggle's built-in negamax: the agent every Sheoran experiment meets, won and lost against often enough to
hold the scale (kaggle's random loses nearly every game, too few points to anchor anything)."""
