"""One game played in this process: kaggle-environments' ``env.run`` with announced, timed agents.

A game is ``make("connectx", ...)``, the shared opening stepped in, then ``env.run`` with fresh
agents: Kaggle's engine judges it, never a copy of the rules. Each agent call is announced to a
monitor before it starts and after it ends (the watched process, ``game``, notes these in a
file its parent reads, ``move_journal``, to kill a move that runs past what Kaggle would allow).
After each call the agent's ``last_stats`` (its search statistics of that move: ``nodes``,
``depth``, ``evaluations``, ``simulations``, as the agent reports them) is kept in the record
beside the move's duration, so later analysis reads what the game's search measured instead of
searching again. Agents without it (kaggle's built-ins, agent files) leave it empty.
"""

from __future__ import annotations

import json
import math
import os
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from connectx.agents.core.fault_words import invalid_text, returned_problem, shown, timeout_text, type_name_of
from connectx.agents.core.kaggle_boundary import FAULT_STATUSES, played_actions
from connectx.agents.registry import AgentSpecError
from connectx.evaluation.engine import BoardConfig, Outcome, derived_seed, make_environment, seat_agent
from connectx.evaluation.game_record import (
    NO_STATS,
    GameRecord,
    GameSpec,
    MoveStats,
    aborted_record,
    fault_record,
    move_stats,
    seat_stats,
)

Monitor = Callable[[tuple[Any, ...]], None]


def _ignore(message: tuple[Any, ...]) -> None:
    """The monitor of a game played without a watchdog."""


class _AnnouncedAgent:
    """An agent callable that tells the monitor when each call starts and ends, times it and keeps its stats."""

    def __init__(self, seat: int, agent: Callable[..., Any], monitor: Monitor) -> None:
        self.seat = seat
        self.agent = agent
        self.monitor = monitor
        self.durations: list[float] = []
        self.stats: list[MoveStats] = []
        self.last_called = -math.inf
        self.answer: tuple[str, str] | None = None
        """The type and text of the last value the agent returned: what Kaggle judged, if it faulted."""
        self.bank = 0.0
        """The overage bank the last move started with."""

    def __call__(self, observation: Any, configuration: Any) -> Any:
        self.bank = float(getattr(observation, "remainingOverageTime", 0.0) or 0.0)
        self.monitor(("move", self.seat, self.bank))
        started = self.last_called = time.perf_counter()
        try:
            action = self.agent(observation, configuration)
        except Exception:
            self._finished(started, None)
            raise
        # Anything else (SystemExit, KeyboardInterrupt) ends the game's process inside this move,
        # and the parent, which never hears the move end, blames this seat.
        self._finished(started, action)
        return action

    def _finished(self, started: float, action: Any) -> None:
        self.answer = None if action is None and not self.durations else (type_name_of(action), shown(action))
        self.durations.append(time.perf_counter() - started)
        self.stats.append(move_stats(getattr(self.agent, "last_stats", None)) if action is not None else ())
        self.monitor(("moved", self.seat, self.durations[-1], action if type(action) is int else None, self.stats[-1]))


class SpareEnvironment:
    """An environment made ahead of its game, for a game process to make while it waits for the next game.

    ``make`` takes about a third of a game of fast agents (Kaggle checks the configuration against
    its schema), and a game process waits for its next spec while its parent hands in the last
    record; made in that wait, the next game's environment costs the game nothing. Runs keep one
    board, so it is made for the board of the game just played and dropped if the next differs.
    """

    def __init__(self) -> None:
        self.made: tuple[BoardConfig, Any] | None = None

    def prepare(self, config: BoardConfig) -> None:
        """Make an environment for ``config`` now (none, if that fails: the game will make its own and say why)."""
        try:
            self.made = config, make_environment(config, [])
        except Exception:  # the game's own make_environment reports it
            self.made = None

    def take(self, spec: GameSpec) -> Any:
        """A fresh environment for ``spec``: the one made ahead when it is on the same board, else a new one."""
        made, self.made = self.made, None
        if made is None or made[0] != spec.config:
            return make_environment(spec.config, list(spec.names))
        env = made[1]
        env.info["TeamNames"] = list(spec.names)  # what make's info would have held: Kaggle only keeps it
        return env


def play_game(spec: GameSpec, monitor: Monitor = _ignore, spare: SpareEnvironment | None = None) -> GameRecord:
    """Play ``spec`` in this process and return its record; an exception anywhere is recorded, not raised.

    The record holds the CPU seconds this process spent on the game and the load average at its
    start and end: the conditions the game was played under. Use ``play_isolated`` unless the
    agents are trusted: nothing here can stop a hung agent.
    """
    load, cpu = os.getloadavg()[0], time.process_time()
    record = _play_game(spec, monitor, spare)
    return replace(record, cpu_seconds=time.process_time() - cpu, load_average=(load, os.getloadavg()[0]))


def _play_game(spec: GameSpec, monitor: Monitor, spare: SpareEnvironment | None) -> GameRecord:
    started = time.perf_counter()
    announced: list[_AnnouncedAgent] = []
    env = None
    try:
        env = (spare or SpareEnvironment()).take(spec)
        for ply, column in enumerate(spec.opening):
            env.step([column, None] if ply % 2 == 0 else [None, column])
        for seat, agent_spec in enumerate(spec.agents):
            try:
                agent = seat_agent(agent_spec, seat, env, spec.config, spec.seed)
            except (AgentSpecError, OSError) as error:
                return fault_record(
                    spec,
                    seat,
                    "ERROR",
                    f"could not build agent {agent_spec.text!r}: {error}",
                    spec.opening,
                    ((), ()),
                    time.perf_counter() - started,
                )
            announced.append(_AnnouncedAgent(seat, agent, monitor))
        random.seed(derived_seed(spec.seed, "environment"))
        env.run(announced)
    except Exception as error:
        durations = (tuple(announced[0].durations), tuple(announced[1].durations)) if len(announced) == 2 else ((), ())
        stats = seat_stats(announced[0].stats, announced[1].stats) if len(announced) == 2 else NO_STATS
        moves = _moves_of(env) if env is not None else spec.opening
        mover = _last_mover(announced)
        detail = f"env.run raised {type(error).__name__}: {error}"
        answer = announced[mover].answer if mover is not None else None
        returned = returned_problem(*answer) if answer is not None else None
        if returned:
            detail = f"{returned} (kaggle-environments' rules then raised {type(error).__name__}: {error})"
        if mover is None or type(error).__name__ == "DeadlineExceeded":
            return aborted_record(spec, detail, moves, durations, time.perf_counter() - started, stats)
        return fault_record(spec, mover, "ERROR", detail, moves, durations, time.perf_counter() - started, stats)
    outcome = Outcome.of(env)
    offender = 1 - outcome.winner if outcome.cause in FAULT_STATUSES and outcome.winner is not None else None
    return GameRecord(
        index=spec.index,
        agents=spec.names,
        config=spec.config,
        seed=spec.seed,
        opening=spec.opening,
        moves=_moves_of(env),
        winner=outcome.winner,
        statuses=outcome.statuses,
        cause=outcome.cause,
        offender=offender,
        detail=_fault_detail(env, offender, announced, spec.config.act_timeout),
        durations=(tuple(announced[0].durations), tuple(announced[1].durations)),
        wall_seconds=time.perf_counter() - started,
        search_stats=seat_stats(announced[0].stats, announced[1].stats),
        # Plain JSON data: Kaggle's Struct objects would make the parent import kaggle-environments to unpickle them.
        replay=json.loads(json.dumps(env.toJSON())) if spec.keep_replay else None,
    )


def _last_mover(announced: list[_AnnouncedAgent]) -> int | None:
    """The seat whose agent was called last (the one whose answer made ``env.run`` raise)."""
    called = [agent for agent in announced if agent.durations]
    return max(called, key=lambda agent: agent.last_called).seat if called else None


def _moves_of(env: Any) -> tuple[int, ...]:
    """The columns played, read from Kaggle's steps: the action of whichever seat was ACTIVE."""
    return tuple(int(action) for _, _, action in played_actions(env.steps))


def _fault_detail(env: Any, offender: int | None, announced: list[_AnnouncedAgent], act_timeout: float) -> str:
    """Why the offender's move failed, in its own terms: what it returned that Kaggle would not play, its whole
    traceback (as Kaggle logged it), or how long it took against its limit."""
    if offender is None:
        return ""
    status = env.steps[-1][offender].status
    agent = announced[offender]
    if status == "INVALID":
        return invalid_text(agent.answer)
    if status == "TIMEOUT" and agent.durations:
        return timeout_text(agent.durations[-1], act_timeout, agent.bank)
    for logs in reversed(env.logs):
        if len(logs) > offender and isinstance(logs[offender], dict) and logs[offender].get("stderr"):
            return str(logs[offender]["stderr"]).strip()
    return f"kaggle marked the move {status}"
