"""The negamax baseline: exhaustive to its depth, scored by how soon a win comes."""

from __future__ import annotations

import random

from agents.negamax import WIN_BASE, NegamaxSearch
from agents.position import Position


def test_sees_a_win_in_two_and_prefers_the_sooner_win() -> None:
    position = Position.from_moves("4455")  # X plays 3 or 6 and has two threats
    score, column = NegamaxSearch(3, random.Random(1)).best_move(position)
    assert column in (2, 5)
    assert score == WIN_BASE + (position.geometry.cells + 1 - (position.moves + 2)) // 2


def test_visits_every_node_of_the_depth_limited_tree() -> None:
    search = NegamaxSearch(2, random.Random(1))
    search.best_move(Position.initial(6, 7, 4))
    assert search.nodes == 1 + 7 + 49  # nodes at depth 0 score their moves without expanding them


def test_a_seed_fixes_tie_breaks() -> None:
    position = Position.initial()
    picks = {NegamaxSearch(2, random.Random(5)).best_move(position)[1] for _ in range(5)}
    assert len(picks) == 1
