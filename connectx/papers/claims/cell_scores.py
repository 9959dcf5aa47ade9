"""The scores of a claim's cells: win rates and scores over the games of one cell or several, clustered by design.

Games are independent draws when their seeds are independent, even when deterministic agents
repeat a whole game move for move; only the design ties games together: the two games of a
colour-swapped pair played from a shared random opening, and the games of every cell of an
experiment played from that same opening. Those are the clusters (``design_clusters``), and every
rate is a clustered estimate with an effective number of games (``clustered_scores.clustered_score``,
each cell's games about its own mean, with the CR1 small-sample correction). Games move for move
alike are counted (``distinct``) but do not change the estimate.

The helpers that name cells and write a score in the report's words sit here too, beside the scores.
"""

from __future__ import annotations

from collections.abc import Sequence

from connectx.agents.core.position import Position
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.match import first_seat
from connectx.evaluation.statistics import clustered_scores, hypothesis_tests
from connectx.evaluation.statistics.clustered_scores import ClusteredScore
from connectx.evaluation.statistics.elo import Interval, wilson_interval
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import CellResult, ExperimentResult

WIN, SCORE = "win", "score"
"""What a game counts: a win (the papers' winning percentage) or the score (a draw is half)."""


FIRST_AND_SECOND = (0, 1)
"""The first agent's seat in a game: 0 when it moved first, 1 when it moved second."""


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def design_clusters(records: Sequence[GameRecord], cells: Sequence[int] | None = None) -> list[list[int]]:
    """The clusters of ``records`` (indices into it) the design made: one per shared opening, one per game else.

    ``cells[i]`` names the cell record i was played in (default: all one cell). A game played from a
    random opening shares it with its colour-swapped twin and, when cells are pooled, with the
    games of the other cells played from the same opening; two openings that reach the same position
    by different move orders are one opening. A game without one is independent.
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, record in enumerate(records):
        key = (
            ("opening", _opening_position(record))
            if record.opening
            else ("game", 0 if cells is None else cells[i], record.index)
        )
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def _opening_position(record: GameRecord) -> tuple[int, int, int, int, int]:
    """The board and the position an opening reaches (Kang's [0,5,1,3] and [1,5,0,3] are one position)."""
    config = record.config
    position = Position.replayed(config, record.opening)
    return config.rows, config.columns, config.inarow, position.mask, position.current


def game_outcome(record: GameRecord, counting: str) -> float:
    """What the game counts for the match's first agent: a win as 1 (``WIN``), or its points (``SCORE``)."""
    points = record.points(first_seat(record))
    return points if counting == SCORE else float(points == 1.0)


def cell_score(cell_result: CellResult, counting: str = WIN, seat: int | None = None) -> ClusteredScore:
    """The first agent's win rate (``WIN``) or score (``SCORE``) over a cell's scored games, clustered; with
    ``seat``, over the games it played from that seat only."""
    return pooled_score([cell_result], counting, seat)


def pooled_score(cells: Sequence[CellResult], counting: str = WIN, seat: int | None = None) -> ClusteredScore:
    """The clustered score over several cells' games, each cell's about its own mean (``clustered_score``),
    with games of different cells in one cluster when they share an opening; with ``seat``, only the games
    the first agent played from that seat."""
    records: list[GameRecord] = []
    strata: list[int] = []
    for k, cell_result in enumerate(cells):
        scored = [r for r in cell_result.match.records if r.scored and (seat is None or first_seat(r) == seat)]
        records += scored
        strata += [k] * len(scored)
    distinct = len({(r.agents, r.moves) for r in records})
    return clustered_scores.clustered_score(
        [game_outcome(r, counting) for r in records], design_clusters(records, strata), strata, distinct
    )


def decisive_share(cells: Sequence[CellResult], counting: str = WIN) -> float:
    """The share of the cells' scored games that were decided (not drawn), counted as ``counting`` counts them.

    Under "even" (a score of 1/2) a game's score varies about 1/2 by 1/2 when decided and by nothing when
    drawn, so its variance is a quarter of this share: a score test that assumed a quarter would ignore the
    draws and understate how far the score is from even. Counted as wins, a draw is a loss, and the share is 1.
    """
    if counting != SCORE:
        return 1.0
    games = [r for c in cells for r in c.match.records if r.scored]
    return sum(game_outcome(r, SCORE) != 0.5 for r in games) / len(games) if games else 1.0


def effective_text(score: ClusteredScore) -> str:
    """How many games a score rests on: ``n games (d distinct), ...`` and what they are worth."""
    text = f"{score.games} games ({score.distinct} distinct)"
    if score.clusters == score.games:
        return text + ", independent"
    text += f" from {score.clusters} shared openings, worth {independent_text(score.effective)}"
    return text + (
        f" (fewer than {clustered_scores.ENOUGH_CLUSTERS} clusters: a rough variance)" if score.few_clusters else ""
    )


def independent_text(effective: float) -> str:
    """``worth`` how many independent games: ``1 independent one``, ``12 independent ones``."""
    return f"{effective:.0f} independent {'one' if round(effective) == 1 else 'ones'}"


def clustered_percent(score: ClusteredScore) -> str:
    return percent(score.interval())


def cells_at(result: ExperimentResult, points: Sequence[tuple[str, str]]) -> list[CellResult]:
    by_point = {(c.cell.series, c.cell.x): c for c in result.cells}
    return [by_point[point] for point in points if point in by_point]


def one_cell(result: ExperimentResult, points: Sequence[tuple[str, str]]) -> CellResult | None:
    """The first of ``points``' cells that ``result`` has, if any."""
    cells = cells_at(result, points)
    return cells[0] if cells else None


def points_text(value: float) -> str:
    return f"{100 * value + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0


def subject_text(claim: Claim, verb: str) -> str:
    """``scored`` or, where the claim's words name the other side, ``the shallower H1 scored``."""
    return f"{claim.subject} {verb}" if claim.subject else verb


def cell_name(cell_result: CellResult) -> str:
    return f"{cell_result.cell.series} at {cell_result.cell.x}"


def at_ceiling(scores: Sequence[ClusteredScore]) -> str:
    """``won`` or ``lost`` when every game of ``scores`` was won (lost), else empty."""
    values = {s.value for s in scores if s.games}
    return "won" if values == {1.0} else "lost" if values == {0.0} else ""


def adjusted_difference(a: ClusteredScore, b: ClusteredScore) -> tuple[float, float]:
    """``a``'s rate less ``b``'s and its standard error by Agresti-Caffo over their effective games."""
    return hypothesis_tests.agresti_caffo_difference(
        a.value * a.effective, a.effective, b.value * b.effective, b.effective
    )
