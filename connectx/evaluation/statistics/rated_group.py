"""Which agents a joint Elo fit can place, and how well the fit explains their games.

A tournament's fit rates every player (each pairing plays both ways); the papers' experiments
play only the pairings their figures need, so some agents won or lost every game they played and
have no finite rating. This finds the group that a fit can rate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from connectx.evaluation.statistics.elo import Z95, Rating, score_from_elo
from connectx.evaluation.statistics.hypothesis_tests import chi_square_p_value


def connected_players(results: Mapping[tuple[str, str], tuple[float, int]]) -> list[set[str]]:
    """The groups of players whose joint Elo fit has a finite maximum: the strongly connected components of
    "scored at least a draw against" (Zermelo 1929, Ford 1957), largest first.

    A player who lost every game (or won every game) against the rest of its group has no finite
    rating: Bradley-Terry would push it to -inf (+inf). Within a component every player has taken
    points from, and given points to, the others along some chain of games.
    """
    beats: dict[str, set[str]] = {}
    for (a, b), (points, games) in results.items():
        beats.setdefault(a, set())
        beats.setdefault(b, set())
        if a == b or games <= 0:
            continue
        if points > 0:
            beats[a].add(b)
        if points < games:
            beats[b].add(a)
    return sorted(_strongly_connected(beats), key=lambda group: (-len(group), sorted(group)))


MIN_DECISIVE_POINTS = 10.0
"""The points a player must both win and lose within a rated group before a joint fit places it: fewer, and
its rating rests on a handful of games that went the other way (a 99-1 record), wherever the schedule put it."""


def rankable_players(
    results: Mapping[tuple[str, str], tuple[float, int]], anchor: str, minimum: float = MIN_DECISIVE_POINTS
) -> set[str]:
    """The group of players a joint fit can place: strongly connected (``connected_players``), each having won
    and lost at least ``minimum`` points (a draw is half a point each way) against the others of the group.

    Dropping a player changes the others' counts, so this repeats until nothing changes. Where the
    players split into several groups, the one holding ``anchor`` is preferred, else the largest;
    empty when no two players qualify.
    """

    def chosen(pairs: Mapping[tuple[str, str], tuple[float, int]]) -> set[str]:
        groups = [g for g in connected_players(pairs) if len(g) > 1]
        return next((g for g in groups if anchor in g), groups[0] if groups else set())

    group = chosen(results)
    while group:
        won = dict.fromkeys(group, 0.0)
        lost = dict.fromkeys(group, 0.0)
        for (a, b), (points, games) in results.items():
            if a in group and b in group and a != b:
                won[a], lost[a] = won[a] + points, lost[a] + games - points
                won[b], lost[b] = won[b] + games - points, lost[b] + points
        kept = {name for name in group if min(won[name], lost[name]) >= minimum}
        if kept == group:
            return group
        group = chosen({pair: value for pair, value in results.items() if pair[0] in kept and pair[1] in kept})
    return set()


def _strongly_connected(edges: Mapping[str, set[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of a small directed graph (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


@dataclass(frozen=True)
class RatingFit:
    """How well a joint Elo fit explains the pairings' scores: its deviance, Pearson's X^2, and their df."""

    deviance: float
    pearson: float
    df: int
    p_value: float
    """The chi-square p-value of the deviance: small when the scores are not those of one Elo per agent."""

    @property
    def fails(self) -> bool:
        return self.df > 0 and self.p_value < FIT_ALPHA

    @property
    def dispersion(self) -> float:
        """The quasi-likelihood dispersion factor, deviance / df (at least 1): by how much the variance of the
        scores exceeds what the fit explains; the intervals widen by its square root. The deviance's, not
        Pearson's: pairings scored near 0% or 100% make Pearson's X^2 swing on a single game."""
        return max(1.0, self.deviance / self.df) if self.df > 0 else 1.0


FIT_ALPHA = 0.05
"""Below this goodness-of-fit p-value a rating scale is reported as not fitting, with widened intervals."""


def rating_fit(results: Mapping[tuple[str, str], tuple[float, int]], ratings: Sequence[Rating]) -> RatingFit:
    """The goodness of fit of ``ratings`` to ``results`` (``(a, b): (points of a, games)``, as ``fit_ratings``
    takes them): the binomial deviance and Pearson's X^2 over the pairings, on pairings - (agents - 1) df."""
    elo = {r.name: r.elo for r in ratings}
    pairings = _pairings(results)
    deviance = sum(m.deviance for m in pairing_misfits(results, ratings))
    pearson = 0.0
    for first, second, scored, played in pairings:
        expected = score_from_elo(elo[first] - elo[second])
        pearson += (scored - played * expected) ** 2 / (played * expected * (1 - expected))
    df = len(pairings) - (len(elo) - 1)
    return RatingFit(deviance, pearson, df, chi_square_p_value(deviance, df) if df > 0 else 1.0)


@dataclass(frozen=True)
class PairingMisfit:
    """One pairing's share of a fit's deviance: what its games scored against what the ratings predict."""

    first: str
    second: str
    games: int
    observed: float
    """The first agent's share of the points."""
    fitted: float
    deviance: float


def pairing_misfits(
    results: Mapping[tuple[str, str], tuple[float, int]], ratings: Sequence[Rating]
) -> list[PairingMisfit]:
    """Each pairing's contribution to the deviance of ``rating_fit``, largest first: where the scale misfits."""
    elo = {r.name: r.elo for r in ratings}
    misfits = []
    for first, second, scored, played in _pairings(results):
        expected = score_from_elo(elo[first] - elo[second])
        deviance = sum(
            2 * observed * math.log(observed / (played * p))
            for observed, p in ((scored, expected), (played - scored, 1 - expected))
            if observed > 0
        )
        misfits.append(PairingMisfit(first, second, played, scored / played, expected, deviance))
    return sorted(misfits, key=lambda m: -m.deviance)


def _pairings(results: Mapping[tuple[str, str], tuple[float, int]]) -> list[tuple[str, str, float, int]]:
    """Each unordered pairing once, as (first, second, the first's points, games), both orders summed."""
    pairings: dict[frozenset[str], tuple[str, float, int]] = {}
    for (a, b), (points, games) in results.items():
        key = frozenset((a, b))
        first, scored, played = pairings.get(key, (a, 0.0, 0))
        pairings[key] = (first, scored + (points if a == first else games - points), played + games)
    return [
        (first, next(iter(key - {first})), scored, played)
        for key, (first, scored, played) in pairings.items()
        if played
    ]


def cyclic_triangles(results: Mapping[tuple[str, str], tuple[float, int]]) -> tuple[int, int]:
    """How many triangles of agents played all three pairings, and how many of those are cycles of "scored more
    than half against" (A over B over C over A): the results are intransitive only where there are cycles."""
    above: dict[tuple[str, str], bool] = {}
    for first, second, scored, played in _pairings(results):
        if 2 * scored != played:
            above[(first, second)] = 2 * scored > played
            above[(second, first)] = 2 * scored < played
    names = sorted({name for pair in above for name in pair})
    closed = cyclic = 0
    for i, a in enumerate(names):
        for j in range(i + 1, len(names)):
            for k in range(j + 1, len(names)):
                b, c = names[j], names[k]
                if all(pair in above for pair in ((a, b), (b, c), (a, c))):
                    closed += 1
                    cyclic += above[(a, b)] == above[(b, c)] == above[(c, a)]
    return closed, cyclic


def difference_ranks(
    results: Mapping[tuple[str, str], tuple[float, int]],
    ratings: Sequence[Rating],
    anchor: str,
    dispersion: float = 1.0,
    z: float = Z95,
) -> list[int]:
    """The rank of each of ``ratings`` (strongest first) from tests of their differences: 1 plus the agents rated
    significantly higher, never less than the rank before it.

    Two ratings differ significantly when their difference exceeds ``z`` standard errors, the error taken
    from the inverse Fisher information of the fit (the anchor pinned), with both ratings' covariance
    (they share the anchor, so their intervals' overlap says little), times the dispersion's square root.
    """
    names = [r.name for r in ratings if r.name != anchor]
    place = {name: i for i, name in enumerate(names)}
    elo = {r.name: r.elo for r in ratings}
    scale = math.log(10) / 400
    information = np.zeros((len(names), len(names)))
    for first, second, _, played in _pairings(results):
        p = score_from_elo(elo[first] - elo[second])
        weight = played * p * (1 - p) * scale * scale
        for a, sign_a in ((first, 1.0), (second, -1.0)):
            for b, sign_b in ((first, 1.0), (second, -1.0)):
                if a in place and b in place:
                    information[place[a], place[b]] += sign_a * sign_b * weight
    covariance = np.linalg.pinv(information) * dispersion

    def variance(a: str, b: str) -> float:
        return 0.0 if a == anchor or b == anchor else float(covariance[place[a], place[b]])

    ranks: list[int] = []
    for rating in ratings:
        above = 0
        for other in ratings:
            spread = (
                variance(other.name, other.name)
                + variance(rating.name, rating.name)
                - 2 * variance(other.name, rating.name)
            )
            if other.elo > rating.elo and other.elo - rating.elo > z * math.sqrt(max(spread, 0.0)):
                above += 1
        ranks.append(max(ranks[-1] if ranks else 1, 1 + above))
    return ranks
