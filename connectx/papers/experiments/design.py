"""A paper's experiment as data: its cells (who plays whom), its claims (how each is tested) and a run's size.

An experiment is a set of ``Cell`` s, one colour-swapped match each, and the ``Claim`` s of its
paper: a number where the text gives one (the figures themselves are images we cannot read, so
only the numbers quoted in the text are compared), otherwise the direction the text states. The
papers' own experiments are in ``sheoran`` and ``kang``; ``experiments`` gathers them into a report.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from connectx.evaluation.engine import BoardConfig

SERIES = "series"
"""A figure of win rates: one line per series, one point per x value."""
SEATS = "seats"
"""A table by seat (Kang's Table 6): the first mover's depth against the second mover's."""
NODES = "nodes"
"""Nodes searched and time per move against the move number (Kang's Fig. 12 and 13)."""
DEPTHS = "depths"
"""Two agents of one cell on one clock: the depth each reached per move against the move number, and their games."""
KINDS = (SERIES, SEATS, NODES, DEPTHS)

CLAIM_TESTS = (
    "win_rate",
    "above_half",
    "below_half",
    "rises",
    "similar",
    "falls_with_move",
    "time_falls_with_move",
    "nodes_track_time",
    "faster",
    "fewer_nodes",
    "deeper",
)
"""How a claim is checked against our games (``connectx.papers.claims.claim_tests`` runs the tests):

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
  ``effect`` is that log ratio;
- ``fewer_nodes``: the same, of the nodes each game's searches reported, each cell of ``cells`` against
  the baseline cell at its place (the same games move for move), the log ratios of every pair of
  cells' independent games pooled;
- ``deeper``: one cell whose two agents play the same games on the same clock: the mean over
  independent games of the first agent's mean depth reached per move less the second's, a t test;
  ``effect`` is that difference in plies.
"""

COUNTINGS = ("win", "score")
"""What a game counts for a claim: a win as 1 and anything else as 0 (the papers' winning percentage), or
its score (a draw is half)."""

DEFAULT_EFFECTS = {
    "win_rate": 0.05,
    "above_half": 0.10,
    "below_half": 0.10,
    "rises": 0.10,
    "similar": 0.10,
    "falls_with_move": 0.3,
    "time_falls_with_move": 0.3,
    "nodes_track_time": 0.3,
    "faster": math.log(1.1),
    "fewer_nodes": math.log(1.1),
    "deeper": 0.5,
}
"""The effect a test should detect when a claim states none: 5 points off a quoted rate, a score of
60% (40%) for "wins"/"loses", a rise of 10 points across a series, two rates within 10 points, a
correlation of 0.3 (a "medium" correlation in Cohen's terms), a move 10% faster (10% fewer nodes), half a
ply deeper per move."""


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
    recomputes it over every range of the cells and seat mix, beside the verdict on the words as they stand."""
    own: bool = False
    """A claim of this project's (our enhanced agents, our solver), not a paper's: judged apart from the papers'."""
    gist: str = ""
    """The finding in a few plain words (``the table makes minimax faster``), for the report's takeaway."""
    companion: Claim | None = None
    """Another reading of the same words, or a part of them the claim leaves out, tested on the same games and
    stated beside the verdict, never counted (Table 9's pool read as a rise; the abstract's "better results")."""
    companion_words: str = ""
    """How the report introduces ``companion`` (``read as a rise along the depths``)."""

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
        if self.test == "fewer_nodes" and (not self.cells or len(self.cells) != len(self.baseline)):
            raise ValueError(f"claim {self.text!r}: a node claim needs one baseline cell per cell")
        if self.test == "deeper" and len(self.cells) != 1:
            raise ValueError(f"claim {self.text!r}: a depth claim compares the two agents of one cell")
        if self.test == "similar" and (len(self.cells), len(self.baseline)) != (1, 1):
            raise ValueError(f"claim {self.text!r}: a similarity compares one cell with one baseline cell")


@dataclass(frozen=True)
class UntestedClaim:
    """A claim a paper makes that no cell of ours can test, and the games it would need."""

    source: str
    text: str
    needs: str


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
                raise ValueError(
                    f"experiment {self.key}: {games} games per cell; use an even number, "
                    "2 or more, so every game has its colour-swapped twin"
                )
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
        """``100 games per cell`` and the cells that play another number (a whole series named once)."""
        others: dict[int, list[str]] = {}
        for series in dict.fromkeys(cell.series for cell in self.cells):
            mine = [cell for cell in self.cells if cell.series == series]
            counts = {self.games_of(cell) for cell in mine}
            if counts == {self.games}:
                continue
            if len(counts) == 1:
                others.setdefault(counts.pop(), []).append(f"every cell of {series}")
                continue
            for cell in mine:
                if self.games_of(cell) != self.games:
                    others.setdefault(self.games_of(cell), []).append(f"{cell.series} at {cell.x}")
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
    depth_games: int
    """Games of Sheoran's minimax with its table against itself without, on one clock (the depth each reaches)."""
    pruning_games: int
    """Games per cell of Kang's minimax with and without alpha-beta (the same games, move for move)."""
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


OURS = " (ours)"
"""Appended to a series or claim played by our enhanced agents rather than the papers' as written."""
CLOCK_CONFIG = BoardConfig(act_timeout=30.0)
"""For cells with an MCTS: its T_max is counted in CPU seconds (``clock=cpu``), and actTimeout, wall time,
is 30 s, so a busy machine can neither shorten a move's computation nor time a move out."""
