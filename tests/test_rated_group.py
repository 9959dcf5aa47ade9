"""Which agents a joint fit over the papers' games can place."""

from __future__ import annotations

from connectx.papers import rated_group as rg


def test_only_strongly_connected_players_can_be_rated() -> None:
    results = {("a", "b"): (3.0, 6), ("b", "c"): (2.0, 4), ("c", "a"): (1.0, 2),  # a, b, c trade points
               ("d", "a"): (0.0, 5),                                              # d lost every game
               ("e", "d"): (2.0, 2), ("e", "a"): (3.0, 3)}                          # e won every game
    groups = rg.connected_players(results)
    assert groups[0] == {"a", "b", "c"} and {"d"} in groups and {"e"} in groups
    # A draw ties two players both ways.
    assert rg.connected_players({("x", "y"): (0.5, 1)}) == [{"x", "y"}]


def test_only_players_with_enough_points_won_and_lost_are_rankable() -> None:
    results = {("a", "b"): (30.0, 60), ("b", "c"): (20.0, 40), ("c", "a"): (10.0, 20),  # a, b, c trade points
               ("d", "a"): (1.0, 100),                                                  # d took 1 point of 100
               ("e", "d"): (6.0, 10)}                                                   # e met only d
    # d won 5 points in all, too few to be placed; e, with 10 games, neither.
    assert rg.rankable_players(results, "a") == {"a", "b", "c"}
    assert rg.rankable_players(results, "a", minimum=1.0) == {"a", "b", "c", "d", "e"}
    # Nobody trades enough: nothing to rank (not a group of one).
    assert rg.rankable_players({("x", "y"): (3.0, 6)}, "x") == set()
