"""What went wrong in a run's faulted games, for the person who ran it: each agent's own error, in a few lines.

A match, tournament or ladder counts forfeits (``mine ERROR x2``); this says why, from the first
such game of each agent and fault: the lines of its traceback that end in the agent's code, the
value Kaggle would not play, or the time it took against its limit. The record keeps the whole
text (``games.jsonl``), and the note says which game to replay to see it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from connectx.agents.core.fault_words import error_lines
from connectx.evaluation.game_record import GameRecord


def fault_notes(records: Iterable[GameRecord], directory: Path | None = None) -> list[str]:
    """One note per agent and fault kind (ERROR, INVALID, TIMEOUT): how many games, and the first one's reason."""
    firsts: dict[tuple[str, str], GameRecord] = {}
    counts: dict[tuple[str, str], int] = {}
    for record in sorted(records, key=lambda game: game.index):
        if record.offender is None or record.cause is None:
            continue
        key = (record.agents[record.offender], record.cause)
        firsts.setdefault(key, record)
        counts[key] = counts.get(key, 0) + 1
    notes = []
    for (name, cause), record in firsts.items():
        games = f"{counts[name, cause]} game{'s' * (counts[name, cause] > 1)}"
        replay = f" (connectx replay {directory} --game {record.index})" if directory is not None else ""
        reason = "\n".join(f"    {line}" for line in error_lines(record.detail).splitlines())
        notes.append(f"{name}: {cause} in {games}; the first, game {record.index}{replay}:\n{reason}")
    return notes
