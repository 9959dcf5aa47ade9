"""Time for every search: a move's ``Deadline`` (with Kaggle's overage bank), a search's
``SearchLimit``, the ``OutOfTime`` that unwinds a search at its limit, and how often a search
looks at the clock.

A strategy receives a ``Deadline`` from the guard and hands its searches a ``SearchLimit`` (a
``time.perf_counter`` instant and/or a node count). A search counts nodes, looks at its limit on
the nodes ``clock_check_mask`` picks, and raises ``OutOfTime`` there; the function that started
the search catches it and reports "no result", so only completed searches are ever played.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from connectx.agents.core.position import Geometry

CLOCK_CHECK_MASK = 1023
"""Searches look at their limit (and the transposition table at its size) once every 1024 nodes
(more often on boards where a node works more than on 7x6: see ``clock_check_mask``)."""

SEVEN_BY_SIX_WORK = 7 * 4
"""``clock_check_mask``'s measure of a node's work (columns x inarow x 64-bit words) on 7x6."""


class OutOfTime(Exception):
    """Raised inside a search when its limit is reached; the function that started the search catches it."""


class OverageBank:
    """Kaggle's shared overage bank as one move sees it: the seconds left, and what this move drew.

    A search draws on it through ``Deadline.extended``; the guard reads ``drawn`` once the move is
    answered, which tells a move that ran past ``actTimeout`` on purpose from one that was late.
    """

    __slots__ = ("balance", "drawn")

    def __init__(self, balance: float = 0.0) -> None:
        self.balance = max(0.0, balance)
        self.drawn = 0.0

    def draw(self, seconds: float) -> float:
        """Take up to ``seconds`` from the bank; what was actually taken (never more than is left)."""
        taken = min(max(0.0, seconds), self.balance)
        self.balance -= taken
        self.drawn += taken
        return taken

    def __repr__(self) -> str:
        return f"OverageBank(balance={self.balance!r}, drawn={self.drawn!r})"


@dataclass(frozen=True)
class SearchLimit:
    """When a search must stop: a ``time.perf_counter()`` instant and/or a number of nodes.

    A node limit makes a search reproducible, whatever the machine's speed; it is checked every
    1024 nodes (see ``clock_check_mask``), so a search may run up to 1023 nodes past it.
    """

    stop_at: float = math.inf
    max_nodes: float = math.inf

    def expired(self) -> bool:
        """Whether the clock part of the limit has passed (the node part is the search's to count)."""
        return time.perf_counter() >= self.stop_at

    def less(self, nodes: int) -> SearchLimit:
        """The same instant with ``nodes`` fewer nodes: what is left for the next search sharing this limit."""
        return SearchLimit(self.stop_at, self.max_nodes - nodes)


NO_LIMIT = SearchLimit()
"""Search until done."""


@dataclass(frozen=True)
class Deadline:
    """When a move must be answered, measured on ``time.perf_counter``.

    ``expires_at`` is the end of the per-move budget; ``bank`` the shared overage the search may
    dip into through ``extended`` when a move is worth more than the usual budget. The times
    never change; the bank is shared on purpose, by every deadline extended from the same move.
    """

    started_at: float
    expires_at: float
    bank: OverageBank = dataclass_field(default_factory=OverageBank, compare=False)

    @classmethod
    def after(cls, seconds: float, overage: float = 0.0) -> Deadline:
        """A deadline ``seconds`` from now, with ``overage`` seconds in the bank."""
        now = time.perf_counter()
        return cls(now, now + max(0.0, seconds), OverageBank(overage))

    @property
    def overage(self) -> float:
        """Seconds left in the overage bank."""
        return self.bank.balance

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.expires_at - time.perf_counter())

    def expired(self) -> bool:
        return time.perf_counter() >= self.expires_at

    def extended(self, seconds: float) -> Deadline:
        """This deadline pushed back by up to ``seconds`` drawn from the overage bank (what is left of it)."""
        return Deadline(self.started_at, self.expires_at + self.bank.draw(seconds), self.bank)

    def capped(self, seconds: float) -> Deadline:
        """This deadline ending at most ``seconds`` after it started, with no overage to draw: a time budget."""
        return Deadline(self.started_at, min(self.expires_at, self.started_at + seconds), OverageBank())

    def limit(self) -> SearchLimit:
        """The search limit that stops at this deadline."""
        return SearchLimit(self.expires_at)


def clock_check_mask(shape: Geometry) -> int:
    """``nodes & mask == 0`` on the nodes where a search looks at its limit.

    A node's work is about ``columns x inarow`` operations (its moves' winning cells) on ints of
    ``(rows + 1) x columns`` bits, so it grows with the board: 1024 nodes take 5 ms on 7x6 and 1 s
    on 40x40 with 40 in a row. The interval is 1024 nodes up to 7x6's work per node, and a power of
    two that many times shorter where a node works more, so the clock is read every few
    milliseconds on any board (7x6 keeps 1024, and so its node counts).
    """
    words = 1 + shape.height * shape.columns // 64
    work = shape.columns * shape.inarow * words
    interval = CLOCK_CHECK_MASK + 1
    while interval > 1 and interval * work > (CLOCK_CHECK_MASK + 1) * SEVEN_BY_SIX_WORK:
        interval //= 2
    return interval - 1
