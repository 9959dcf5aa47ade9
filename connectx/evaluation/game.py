"""One game in kaggle-environments, played in a process of its own under a wall-clock watchdog.

Kaggle's engine judges every game: a game is ``make("connectx", ...)``, the shared opening
stepped in, then ``env.run`` with fresh agents. In-process, kaggle-environments cannot stop an
agent that never returns, and an agent may kill its interpreter, so ``play_isolated`` plays in a
child process (a ``GameProcess``, which plays game after game until one goes wrong) and watches
it: each agent call is announced to the parent, which kills the child once a move has run past
what Kaggle would allow (``actTimeout`` plus the mover's remaining overage, plus a grace period).
Whatever happens, the caller gets a ``GameRecord``.

After each call the agent's ``last_stats`` (its search statistics of that move: ``nodes``,
``depth``, ``evaluations``, ``simulations``, as the agent reports them) is read and kept in the
record beside the move's duration, so later analysis reads what the game's search measured
instead of searching again. Agents without it (kaggle's built-ins, agent files) leave it empty.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import numbers
import os
import random
import resource
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from connectx.agents.agent_spec import AgentKind, AgentSpec
from connectx.agents.core.kaggle_boundary import FAULT_STATUSES, played_actions
from connectx.agents.registry import AgentSpecError
from connectx.evaluation.engine import BoardConfig, Outcome, derived_seed, make_environment, seat_agent
from connectx.evaluation.provenance import Provenance

DECISIVE = "line"
DRAW = "draw"
ABORTED = "aborted"
"""The cause of a game nobody is to blame for (Kaggle's run deadline, a harness failure): not scored."""


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
            "index": self.index, "agents": list(self.agents),
            "config": self.config.to_json(),
            "seed": self.seed, "opening": list(self.opening), "moves": list(self.moves),
            "winner": self.winner, "statuses": list(self.statuses), "cause": self.cause,
            "offender": self.offender, "detail": self.detail,
            "durations": [[round(d, 6) for d in seat] for seat in self.durations],
            "wall_seconds": round(self.wall_seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3),
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
            index=int(data["index"]), agents=(data["agents"][0], data["agents"][1]),
            config=BoardConfig.from_json(data["config"]), seed=int(data["seed"]),
            opening=tuple(data["opening"]), moves=tuple(data["moves"]), winner=data["winner"],
            statuses=(data["statuses"][0], data["statuses"][1]), cause=data["cause"],
            offender=data.get("offender"), detail=data.get("detail", ""),
            durations=(tuple(durations[0]), tuple(durations[1])), wall_seconds=float(data.get("wall_seconds", 0.0)),
            cpu_seconds=float(data.get("cpu_seconds", 0.0)),
            search_stats=seat_stats([move_stats(move) for move in stats[0]], [move_stats(move) for move in stats[1]]),
            load_average=None if load is None else (float(load[0]), float(load[1])),
            provenance=None if provenance is None else Provenance.from_json(provenance),
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

    def __call__(self, observation: Any, configuration: Any) -> Any:
        self.monitor(("move", self.seat, float(getattr(observation, "remainingOverageTime", 0.0) or 0.0)))
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
        self.durations.append(time.perf_counter() - started)
        self.stats.append(move_stats(getattr(self.agent, "last_stats", None)) if action is not None else ())
        self.monitor(("moved", self.seat, self.durations[-1], action if type(action) is int else None, self.stats[-1]))


def play_game(spec: GameSpec, monitor: Monitor = _ignore) -> GameRecord:
    """Play ``spec`` in this process and return its record; an exception anywhere is recorded, not raised.

    The record holds the CPU seconds this process spent on the game and the load average at its
    start and end: the conditions the game was played under. Use ``play_isolated`` unless the
    agents are trusted: nothing here can stop a hung agent.
    """
    load, cpu = os.getloadavg()[0], time.process_time()
    record = _play_game(spec, monitor)
    return replace(record, cpu_seconds=time.process_time() - cpu, load_average=(load, os.getloadavg()[0]))


def _play_game(spec: GameSpec, monitor: Monitor) -> GameRecord:
    started = time.perf_counter()
    announced: list[_AnnouncedAgent] = []
    env = None
    try:
        env = make_environment(spec.config, list(spec.names))
        for ply, column in enumerate(spec.opening):
            env.step([column, None] if ply % 2 == 0 else [None, column])
        for seat, agent_spec in enumerate(spec.agents):
            try:
                agent = seat_agent(agent_spec, seat, env, spec.config, spec.seed)
            except (AgentSpecError, OSError) as error:
                return _fault_record(spec, seat, "ERROR", f"could not build agent {agent_spec.text!r}: {error}",
                                     spec.opening, ((), ()), time.perf_counter() - started)
            announced.append(_AnnouncedAgent(seat, agent, monitor))
        random.seed(derived_seed(spec.seed, "environment"))
        env.run(announced)
    except Exception as error:
        durations = (tuple(announced[0].durations), tuple(announced[1].durations)) if len(announced) == 2 else ((), ())
        stats = seat_stats(announced[0].stats, announced[1].stats) if len(announced) == 2 else NO_STATS
        moves = _moves_of(env) if env is not None else spec.opening
        mover = _last_mover(announced)
        detail = f"env.run raised {type(error).__name__}: {error}"
        if mover is None or type(error).__name__ == "DeadlineExceeded":
            return _aborted_record(spec, detail, moves, durations, time.perf_counter() - started, stats)
        return _fault_record(spec, mover, "ERROR", detail, moves, durations, time.perf_counter() - started, stats)
    outcome = Outcome.of(env)
    offender = 1 - outcome.winner if outcome.cause in FAULT_STATUSES and outcome.winner is not None else None
    return GameRecord(
        index=spec.index, agents=spec.names, config=spec.config, seed=spec.seed, opening=spec.opening,
        moves=_moves_of(env), winner=outcome.winner, statuses=outcome.statuses, cause=outcome.cause,
        offender=offender, detail=_fault_detail(env, offender),
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


def _fault_detail(env: Any, offender: int | None) -> str:
    """The offender's last stderr (its traceback, usually), trimmed, or what Kaggle made of its action."""
    if offender is None:
        return ""
    for logs in reversed(env.logs):
        if len(logs) > offender and isinstance(logs[offender], dict) and logs[offender].get("stderr"):
            return str(logs[offender]["stderr"]).strip()[-2000:]
    return f"kaggle marked the move {env.steps[-1][offender].status}"


def _fault_record(spec: GameSpec, offender: int, cause: str, detail: str, moves: tuple[int, ...],
                  durations: tuple[tuple[float, ...], tuple[float, ...]], wall: float,
                  stats: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = NO_STATS) -> GameRecord:
    statuses = ["DONE", "DONE"]
    statuses[offender] = cause
    return GameRecord(spec.index, spec.names, spec.config, spec.seed, spec.opening, moves, 1 - offender,
                      (statuses[0], statuses[1]), cause, offender, detail, durations, wall, search_stats=stats)


def _aborted_record(spec: GameSpec, detail: str, moves: tuple[int, ...],
                    durations: tuple[tuple[float, ...], tuple[float, ...]], wall: float,
                    stats: tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]] = NO_STATS) -> GameRecord:
    return GameRecord(spec.index, spec.names, spec.config, spec.seed, spec.opening, moves, None,
                      ("DONE", "DONE"), ABORTED, None, detail, durations, wall, search_stats=stats)


@dataclass(frozen=True)
class Watchdog:
    """How long the parent waits before it kills a game's process.

    A move may take ``actTimeout`` plus the mover's remaining overage before Kaggle itself calls
    it a TIMEOUT; the watchdog adds ``grace`` on top, so it only fires on an agent Kaggle could
    never have stopped. ``quiet`` bounds everything between moves (building the environment,
    Kaggle's interpreter).
    """

    grace: float = 5.0
    quiet: float = 60.0
    move_limit: float | None = None
    """A hard cap on the seconds of any one move, overage or not (for quick runs and tests)."""


DEFAULT_WATCHDOG = Watchdog()


def play_isolated(spec: GameSpec, watchdog: Watchdog = DEFAULT_WATCHDOG) -> GameRecord:
    """Play ``spec`` in this thread's game process under ``watchdog``; a hung or dying agent costs this game only.

    A move that outlives the watchdog is recorded as a TIMEOUT of the mover, a process that dies
    during a move as an ERROR of the mover, anything else that goes wrong as an aborted game; in
    each case the process is killed and the next game gets a fresh one (see ``GameProcess``).
    """
    host = getattr(_HOSTS, "host", None)
    if host is None or host.pid != os.getpid():  # none yet, or inherited through a fork
        host = _HOSTS.host = GameProcess()
    return host.play(spec, watchdog)


_HOSTS = threading.local()
"""Each thread's ``GameProcess``: a Dask worker may play games in several threads at once."""


def stop_game_process() -> None:
    """Stop this thread's game process, so the next game forks a fresh one from the process as it is now.

    For callers that changed what a game sees (tests that patch the registry) or want its memory back.
    """
    host = getattr(_HOSTS, "host", None)
    if host is not None and host.pid == os.getpid():
        host.stop()

RETIRE_AFTER_GAMES = 500
"""Games one game process plays before it is replaced, so nothing a game leaves behind piles up for long."""
RETIRE_ABOVE_KIB = 1_500_000
"""A game process whose peak memory passed this (in KiB, about 1.5 GB) is replaced after its game."""


class GameProcess:
    """A long-lived child that plays one game after another, watched move by move by its parent.

    Forking a child per game costs about 60 ms, as long as a game of fast agents itself; a child
    that stays keeps kaggle-environments, the agents' modules and the opening book loaded. What
    the fork per game protected stays: the parent hears every move start and end, kills the
    child when a move outlives the watchdog, records the game's fault when the child dies, and
    starts a fresh child for the next game. The child is also replaced after a game with an
    agent file (a user's code may change the interpreter it runs in, so it never shares one),
    after ``RETIRE_AFTER_GAMES`` games, and once its peak memory passes ``RETIRE_ABOVE_KIB``.
    Fork is used because the caller (a worker process) has kaggle-environments imported already.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.process: Any = None
        self.connection: Any = None
        self.games = 0

    def play(self, spec: GameSpec, watchdog: Watchdog) -> GameRecord:
        started = time.monotonic()
        self._send(spec)
        watch = _ParentView(spec, watchdog, started)
        finished = False
        try:
            while True:
                wait = watch.deadline - time.monotonic()
                if wait <= 0 or not self.connection.poll(wait):
                    return watch.killed(time.monotonic() - started)
                try:
                    message = self.connection.recv()
                except (EOFError, OSError):
                    self.process.join(5)
                    return watch.died(self.process.exitcode, time.monotonic() - started)
                if message[0] == "done":
                    _, record, peak_kib = message
                    finished = True
                    self.games += 1
                    if self._worn(spec, peak_kib):
                        self.stop()
                    return replace(record, wall_seconds=time.monotonic() - started)
                watch.heard(message)
        finally:
            if not finished:  # killed, dead, or the parent interrupted: this child is done with
                self.stop()

    def _send(self, spec: GameSpec) -> None:
        """Hand ``spec`` to the child, starting one first if there is none (or it died while idle)."""
        if self.process is not None:
            try:
                self.connection.send(spec)
                return
            except OSError:
                self.stop()
        context = multiprocessing.get_context("fork")
        self.connection, child_end = context.Pipe()
        self.process = context.Process(target=_child_main, args=(child_end, self.connection), daemon=True)
        self.process.start()
        child_end.close()
        self.games = 0
        self.connection.send(spec)

    def _worn(self, spec: GameSpec, peak_kib: int) -> bool:
        """Whether the child should not play another game (see the class docstring)."""
        played_file = any(agent.kind is AgentKind.FILE for agent in spec.agents)
        return played_file or self.games >= RETIRE_AFTER_GAMES or peak_kib > RETIRE_ABOVE_KIB

    def stop(self) -> None:
        """Kill the child, if any; the next game starts a fresh one."""
        if self.process is None:
            return
        self.connection.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.process = self.connection = None


def _child_main(connection: Any, parent_end: Any) -> None:
    """The game process: play each spec the parent sends, announcing every move, until the pipe closes."""
    parent_end.close()  # the fork's copy of the parent's end: without it the pipe would never read as closed
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    while True:
        try:
            spec = connection.recv()
        except (EOFError, OSError):
            return
        try:
            record = play_game(spec, connection.send)
            connection.send(("done", record, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
        except (BrokenPipeError, ConnectionResetError):  # the worker is gone (Ctrl-C killed it): no one to tell
            return


def _exit_when_orphaned(parent: int) -> None:
    """End the game process once its parent is gone (a killed worker), hung agent or not."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


class _ParentView:
    """What the parent knows of a game in a child: who is on move, since when, the moves heard."""

    def __init__(self, spec: GameSpec, watchdog: Watchdog, started: float) -> None:
        self.spec = spec
        self.watchdog = watchdog
        self.moves = list(spec.opening)
        self.durations: tuple[list[float], list[float]] = ([], [])
        self.stats: tuple[list[MoveStats], list[MoveStats]] = ([], [])
        self.on_move: int | None = None
        self.move_started = started
        self.deadline = started + watchdog.quiet

    def heard(self, message: tuple[Any, ...]) -> None:
        now = time.monotonic()
        if message[0] == "move":
            _, seat, overage = message
            self.on_move, self.move_started = seat, now
            allowed = self.spec.config.act_timeout + overage + self.watchdog.grace
            if self.watchdog.move_limit is not None:
                allowed = min(allowed, self.watchdog.move_limit)
            self.deadline = now + allowed
        elif message[0] == "moved":
            _, seat, duration, action, stats = message
            self.durations[seat].append(duration)
            self.stats[seat].append(stats)
            if action is not None:
                self.moves.append(action)
            self.on_move, self.deadline = None, now + self.watchdog.quiet

    def _durations(self, extra: float | None = None) -> tuple[tuple[float, ...], tuple[float, ...]]:
        lists = [list(self.durations[0]), list(self.durations[1])]
        if extra is not None and self.on_move is not None:
            lists[self.on_move].append(extra)
        return tuple(lists[0]), tuple(lists[1])

    def _stats(self) -> tuple[tuple[MoveStats, ...], tuple[MoveStats, ...]]:
        return seat_stats(self.stats[0], self.stats[1])

    def killed(self, wall: float) -> GameRecord:
        moves = tuple(self.moves)
        if self.on_move is None:
            return _aborted_record(self.spec, f"watchdog: no progress for {self.watchdog.quiet:g}s outside any move",
                                   moves, self._durations(), wall, self._stats())
        waited = time.monotonic() - self.move_started
        detail = (f"watchdog: agent {self.spec.names[self.on_move]!r} gave no answer in {waited:.1f}s "
                  f"(the watchdog's limit for a move); its process was killed")
        return _fault_record(self.spec, self.on_move, "TIMEOUT", detail, moves, self._durations(waited), wall,
                             self._stats())

    def died(self, exit_code: int | None, wall: float) -> GameRecord:
        moves = tuple(self.moves)
        if self.on_move is None:
            return _aborted_record(self.spec, f"the game's process died (exit code {exit_code}) outside any move",
                                   moves, self._durations(), wall, self._stats())
        detail = f"the game's process died (exit code {exit_code}) during a move of {self.spec.names[self.on_move]!r}"
        return _fault_record(self.spec, self.on_move, "ERROR", detail, moves,
                             self._durations(time.monotonic() - self.move_started), wall, self._stats())
