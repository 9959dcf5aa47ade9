"""A recorded game as the Kaggle viewer's HTML page, from its saved replay or rebuilt from its moves.

A game played with ``keep_replay`` carries Kaggle's own replay JSON (agent logs included) and is
shown from it. Any other record is rebuilt by stepping its moves through kaggle-environments,
ending with the recorded fault (an INVALID column, an ERROR or a TIMEOUT), so the viewer shows
how the game really ended.
"""

from __future__ import annotations

from typing import Any

from connectx.evaluation.engine import deadline_exceeded, make_environment, replayed_environment
from connectx.evaluation.game_record import GameRecord


def rebuilt_environment(record: GameRecord) -> Any:
    """A finished Kaggle environment that replays ``record``'s moves and ending."""
    env = make_environment(record.config, list(record.agents))
    for ply, column in enumerate(record.moves):
        env.step([column, None] if ply % 2 == 0 else [None, column])
    if record.offender is not None and not env.done:
        fault: Any = {
            "INVALID": record.config.columns,
            "ERROR": RuntimeError(record.detail or "error"),
            "TIMEOUT": deadline_exceeded(),
        }.get(record.cause)
        if fault is not None:
            env.step([fault, None] if record.offender == 0 else [None, fault])
    return env


def replay_html(record: GameRecord, replay: dict[str, Any] | None = None) -> str:
    """The viewer's page of ``record``: from ``replay`` (or the record's own) when there is one, else rebuilt."""
    saved = replay if replay is not None else record.replay
    env = replayed_environment(saved) if saved is not None else rebuilt_environment(record)
    return str(env.render(mode="html"))
