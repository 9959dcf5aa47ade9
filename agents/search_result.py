"""What a search reports: ``SearchCounts`` (the work a move's searches did, finished or cut short)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class SearchCounts:
    """Nodes entered and static evaluations made, added up over every search of one move.

    Mutable on purpose: a strategy hands one to each search it starts, and a search cut short by
    its limit still adds what it did, so a move's statistics count all the work that chose it.
    """

    nodes: int = 0
    evaluations: int = 0
