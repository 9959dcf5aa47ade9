"""Which agents a joint Elo fit over the papers' games can place: connected by results, with enough points.

A tournament's fit rates every player (each pairing plays both ways); the papers' experiments
play only the pairings their figures need, so some agents won or lost every game they played and
have no finite rating. This finds the group that a fit can rate.
"""

from __future__ import annotations

from collections.abc import Mapping


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


def rankable_players(results: Mapping[tuple[str, str], tuple[float, int]], anchor: str,
                     minimum: float = MIN_DECISIVE_POINTS) -> set[str]:
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
