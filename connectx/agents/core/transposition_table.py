"""A bounded transposition table of proven score bounds, shared by the exact searches of one game.

Each entry is one bound on a position's exact score (``exact_search``'s convention), keyed by the
position's unique key ``current + mask`` and packed into one int, so a probe in the search's hot
loop is a single ``dict.get``:

* an upper bound ``upper`` (the score is at most ``upper``) is stored as ``upper`` itself;
* a lower bound ``lower`` (the score is at least ``lower``) is stored as ``lower + LOWER_BOUND_OFFSET``.

Scores never exceed half the number of cells in magnitude, far below the offset, so a stored
value above ``LOWER_BOUND_OFFSET // 2`` is a lower bound.

Replacement rule: a store overwrites whatever the key held (the newest bound comes from the search
that is running, which is the one that needs it). When the table reaches ``capacity`` entries it
is emptied before the next store: that bounds memory without any per-entry bookkeeping in the hot
loop, and forgetting bounds only costs time, never correctness. Entries are only ever written for
completed sub-searches, so every entry stays true for the whole game (and any later game of the
same board size).
"""

from __future__ import annotations

LOWER_BOUND_OFFSET = 1 << 16  # far above ``scores.max_score`` of any board a search can finish
"""Added to a lower bound when it is packed (see the module docstring)."""

LOWER_BOUND_THRESHOLD = LOWER_BOUND_OFFSET // 2
"""Packed values above this are lower bounds, values at or below it upper bounds."""

DEFAULT_CAPACITY = 1 << 21
"""About two million entries: some 200 MB of CPython dict at most, minutes of search to fill."""


class TranspositionTable:
    """Proven upper or lower bounds on exact scores, ``key -> packed bound`` in ``entries``.

    The searches read and write ``entries`` directly (see the module docstring for the packing);
    the methods here are the readable interface for everything outside the hot loop.
    """

    __slots__ = ("entries", "capacity")

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"transposition table capacity {capacity}: expected 1 or more entries")
        self.entries: dict[int, int] = {}
        self.capacity = capacity

    def __len__(self) -> int:
        return len(self.entries)

    def __repr__(self) -> str:
        return f"<TranspositionTable {len(self.entries)}/{self.capacity} entries>"

    def store_upper_bound(self, key: int, score: int) -> None:
        """Record that the position ``key`` scores at most ``score``."""
        self._store(key, score)

    def store_lower_bound(self, key: int, score: int) -> None:
        """Record that the position ``key`` scores at least ``score``."""
        self._store(key, score + LOWER_BOUND_OFFSET)

    def bounds(self, key: int) -> tuple[int | None, int | None]:
        """``(lower, upper)`` bounds known for ``key``; None where nothing is known."""
        packed = self.entries.get(key)
        if packed is None:
            return None, None
        if packed > LOWER_BOUND_THRESHOLD:  # only an offset lower bound lies this high
            return packed - LOWER_BOUND_OFFSET, None
        return None, packed

    def clear(self) -> None:
        self.entries.clear()

    def _store(self, key: int, packed: int) -> None:
        if len(self.entries) >= self.capacity and key not in self.entries:  # full: forget all (see the docstring)
            self.entries.clear()
        self.entries[key] = packed
