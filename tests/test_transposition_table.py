"""The transposition table: packed bounds read back, overwriting, and the capacity rule."""

from __future__ import annotations

import pytest

from connectx.agents.core.transposition_table import TranspositionTable


def test_bounds_read_back_as_stored_and_the_newest_wins() -> None:
    table = TranspositionTable()
    table.store_upper_bound(10, -7)
    table.store_lower_bound(11, 5)
    table.store_lower_bound(12, -21)
    assert table.bounds(10) == (None, -7)
    assert table.bounds(11) == (5, None)
    assert table.bounds(12) == (-21, None)
    assert table.bounds(13) == (None, None)
    table.store_upper_bound(11, 3)
    assert table.bounds(11) == (None, 3)


def test_a_full_table_is_emptied_before_a_new_key_is_stored() -> None:
    table = TranspositionTable(capacity=3)
    for key in range(3):
        table.store_upper_bound(key, 0)
    table.store_lower_bound(1, 2)
    assert len(table) == 3, "overwriting a key stored already takes no room"
    table.store_upper_bound(99, 4)
    assert len(table) == 1 and table.bounds(99) == (None, 4)


def test_capacity_must_be_positive() -> None:
    with pytest.raises(ValueError, match="capacity 0"):
        TranspositionTable(capacity=0)
