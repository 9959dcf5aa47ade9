"""One measurement of ``open_board_speed``: the solver's positions of one board searched with whichever
``agents`` package this process imports.

``open_board_speed`` runs this file (not the module: ``python -m`` would put the working tree first
on ``sys.path``) in a fresh process whose ``PYTHONPATH`` is a revision's checkout, so that the
search measured is that revision's; it imports nothing else of this repository. The job comes as
JSON on stdin, the ``Measure`` fields go to stdout as JSON.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from typing import Any


def measure(
    rows: int, columns: int, inarow: int, games: list[tuple[list[int], int]], plies: int, depth: int
) -> dict[str, Any]:
    """Each position of ``games`` (moves as 0-based columns, the solver's seat) from the third ply to
    ``plies`` where the solver was to move with two safe moves or more, searched to ``depth`` (or a
    proof) with one table a game: the nodes, the seconds and a digest of every search's column and value."""
    try:
        from connectx.agents.core.position import Position
        from connectx.agents.search.principal_variation import VariationTable, deepening
    except ImportError:  # a revision from before connectx was the one import name
        try:
            from agents.core.position import Position  # type: ignore[no-redef]
            from agents.search.principal_variation import VariationTable, deepening  # type: ignore[no-redef]
        except ImportError:  # from before agents/ had subpackages
            from agents.position import Position  # type: ignore[no-redef]
            from agents.principal_variation import VariationTable, deepening  # type: ignore[no-redef]

    nodes, found = 0, []
    started = time.perf_counter()
    for moves, seat in games:
        table = VariationTable()
        position = Position.initial(rows, columns, inarow)
        for ply, column in enumerate(moves[:plies]):
            if (
                ply % 2 == seat
                and ply >= 2
                and len(position.non_losing_columns()) > 1
                and not position.winning_columns()
            ):
                for result in deepening(position, table):
                    nodes += result.nodes
                    if result.depth >= depth or result.proven:
                        break
                found.append(f"{result.column}:{result.score:.9f}")
            position = position.play(column)
            if position.is_over():
                break
    seconds = time.perf_counter() - started
    return {"nodes": nodes, "seconds": seconds, "digest": hashlib.sha256(" ".join(found).encode()).hexdigest()[:12]}


if __name__ == "__main__":
    print(json.dumps(measure(**json.load(sys.stdin))))
