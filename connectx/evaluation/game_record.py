"""The record of one game and the spec that decides it: what a run stores, one JSON line per game.

A ``GameSpec`` is everything that decides a game (seats, board, seed, opening); a ``GameRecord``
is what came of it (moves, result and cause, each move's duration and the agents' search
statistics, the conditions and the code it was played under), with its JSON form. The games
played in this process (``game_in_process``) and watched from a parent (``game``) both end in one.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.provenance import Provenance

DECISIVE = "line"
DRAW = "draw"
ABORTED = "aborted"
"""The cause of a game nobody is to blame for (Kaggle's run deadline, a harness failure): not scored."""


def game_seed(run_seed: int, index: int) -> int:
    """The recorded seed of game ``index`` of a run seeded ``run_seed`` (a match's, a tournament's, a ladder's):
    distinct per game, fixed by the run's seed."""
    return random.Random(f"game/{run_seed}/{index}").randrange(2**31)


@dataclass(frozen=True)
class GameSpec:
    """Everything that decides one game: who sits where, the board, the seed and the opening.

    ``agents[0]`` moves first (mark 1). ``opening`` is a list of 0-based columns stepped into the
    environment before the agents take over. ``seed`` is the game seed: each seat's seed derives
    from it (``engine.seat_seed``), so it alone reproduces the game. Agents given as text (by
    scripts and tests) are parsed here, once.
    """

    index: int
    agents: tuple[AgentSpec, AgentSpec]
    config: BoardConfig = BoardConfig()
    seed: int = 0
    opening: tuple[int, ...] = ()
    keep_replay: bool = False

    def __post_init__(self) -> None:
        first, second = self.agents
        object.__setattr__(self, "agents", (AgentSpec.of(first), AgentSpec.of(second)))

    @property
    def names(self) -> tuple[str, str]:
        """The agents as the record stores them: their specs' text."""
        return self.agents[0].text, self.agents[1].text


MoveStats = tuple[tuple[str, int | float | str], ...]
"""One move's search statistics as a record keeps them: (name, value) pairs in the agent's order; empty
when the agent reported none. Pairs, not a dict, so a record stays hashable and compares by value."""

NO_STATS: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = ((), ())


def move_stats(value: Any) -> MoveStats:
    """An agent's ``last_stats`` as the record keeps it: its numbers and texts (anything else is dropped)."""
    if not isinstance(value, Mapping):
        return ()
    kept: list[tuple[str, int | float | str]] = []
    for key, item in value.items():
        if isinstance(item, numbers.Integral):
            kept.append((str(key), int(item)))
        elif isinstance(item, numbers.Real) and math.isfinite(item):
            kept.append((str(key), float(item)))
        elif isinstance(item, str):
            kept.append((str(key), item))
    return tuple(kept)


def seat_stats(first: list[MoveStats], second: list[MoveStats]) -> tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]]:
    """Both seats' statistics per move, or ``NO_STATS`` when no move has any (how a record without them reads back)."""
    if not any(first) and not any(second):
        return NO_STATS
    return tuple(first), tuple(second)


@dataclass(frozen=True)
class GameRecord:
    """The result of one game, as stored one JSON line per game.

    ``winner`` is the winning seat (0 moves first) or None; ``cause`` is ``line``, ``draw``, a
    Kaggle fault status (``ERROR``, ``INVALID``, ``TIMEOUT``) of the ``offender`` seat, or
    ``aborted`` for a game that is not scored. ``moves`` holds every column played, opening
    included; ``durations[seat]`` the seconds each of that seat's agent calls took; ``cpu_seconds``
    the CPU time of the game's process (0 when not recorded, as in records written before it was);
    ``load_average`` the machine's 1-minute load average when the game started and when it ended
    (None when not recorded), so a report can say how busy the machine was while the game was played;
    ``provenance`` the code digest, CPU model and games at once of the run that played it (None in
    records written before it was kept).
    ``search_stats[seat]`` holds, call by call like ``durations[seat]``, the statistics the agent reported for that move
    (``stats`` reads one as a dict); it is ``NO_STATS`` when no agent reported any, as in records
    written before it existed.
    """

    index: int
    agents: tuple[str, str]
    config: BoardConfig
    seed: int
    opening: tuple[int, ...]
    moves: tuple[int, ...]
    winner: int | None
    statuses: tuple[str, str]
    cause: str
    offender: int | None = None
    detail: str = ""
    durations: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    search_stats: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = NO_STATS
    load_average: tuple[float, float] | None = None
    provenance: Provenance | None = field(default=None, compare=False)
    replay: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def scored(self) -> bool:
        """Whether the game counts in the statistics (every game but an aborted one)."""
        return self.cause != ABORTED

    def points(self, seat: int) -> float:
        """What ``seat`` scored: 1 for a win, 0.5 for a draw, 0 for a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0

    def stats(self, seat: int, call: int) -> dict[str, int | float | str]:
        """The statistics ``seat``'s agent reported for its ``call``-th move (0-based), empty if none."""
        moves = self.search_stats[seat]
        return dict(moves[call]) if call < len(moves) else {}

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of everything but the replay (which is written to its own file)."""
        data: dict[str, Any] = {
            "index": self.index,
            "agents": list(self.agents),
            "config": self.config.to_json(),
            "seed": self.seed,
            "opening": list(self.opening),
            "moves": list(self.moves),
            "winner": self.winner,
            "statuses": list(self.statuses),
            "cause": self.cause,
            "offender": self.offender,
            "detail": self.detail,
            "durations": [[round(d, 6) for d in seat] for seat in self.durations],
            "wall_seconds": round(self.wall_seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3),
        }
        if self.load_average is not None:
            data["load_average"] = [round(value, 2) for value in self.load_average]
        if self.provenance is not None:
            data["provenance"] = self.provenance.to_json()
        if self.search_stats != NO_STATS:
            data["search_stats"] = [[dict(move) for move in seat] for seat in self.search_stats]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        durations = data.get("durations", [[], []])
        stats = data.get("search_stats") or [[], []]
        load = data.get("load_average")
        provenance = data.get("provenance")
        return cls(
            index=int(data["index"]),
            agents=(data["agents"][0], data["agents"][1]),
            config=BoardConfig.from_json(data["config"]),
            seed=int(data["seed"]),
            opening=tuple(data["opening"]),
            moves=tuple(data["moves"]),
            winner=data["winner"],
            statuses=(data["statuses"][0], data["statuses"][1]),
            cause=data["cause"],
            offender=data.get("offender"),
            detail=data.get("detail", ""),
            durations=(tuple(durations[0]), tuple(durations[1])),
            wall_seconds=float(data.get("wall_seconds", 0.0)),
            cpu_seconds=float(data.get("cpu_seconds", 0.0)),
            search_stats=seat_stats([move_stats(move) for move in stats[0]], [move_stats(move) for move in stats[1]]),
            load_average=None if load is None else (float(load[0]), float(load[1])),
            provenance=None if provenance is None else Provenance.from_json(provenance),
        )


def fault_record(
    spec: GameSpec,
    offender: int,
    cause: str,
    detail: str,
    moves: tuple[int, ...],
    durations: tuple[tuple[float, ...], tuple[float, ...]],
    wall: float,
    stats: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = NO_STATS,
) -> GameRecord:
    """The record of a game ``offender``'s agent lost by a fault (``cause``: ERROR or TIMEOUT) the harness saw."""
    statuses = ["DONE", "DONE"]
    statuses[offender] = cause
    return GameRecord(
        spec.index,
        spec.names,
        spec.config,
        spec.seed,
        spec.opening,
        moves,
        1 - offender,
        (statuses[0], statuses[1]),
        cause,
        offender,
        detail,
        durations,
        wall,
        search_stats=stats,
    )


def aborted_record(
    spec: GameSpec,
    detail: str,
    moves: tuple[int, ...],
    durations: tuple[tuple[float, ...], tuple[float, ...]],
    wall: float,
    stats: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = NO_STATS,
) -> GameRecord:
    """The record of a game nobody is to blame for: not scored."""
    return GameRecord(
        spec.index,
        spec.names,
        spec.config,
        spec.seed,
        spec.opening,
        moves,
        None,
        ("DONE", "DONE"),
        ABORTED,
        None,
        detail,
        durations,
        wall,
        search_stats=stats,
    )
