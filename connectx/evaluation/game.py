"""One game in kaggle-environments, played in a process of its own under a wall-clock watchdog.

In-process (``game_in_process``), kaggle-environments cannot stop an agent that never returns,
and an agent may kill its interpreter, so ``play_isolated`` plays in a child process (a
``GameProcess``, which plays game after game until one goes wrong) and watches it: the child
notes each agent call's start and end in a file (``move_journal``), and the parent, looking in
it whenever a move could have run out, kills the child once a move has run past what Kaggle
would allow (``actTimeout`` plus the mover's remaining overage, plus a grace period). Whatever
happens, the caller gets a ``GameRecord`` (``game_record``).
"""

from __future__ import annotations

import math
import multiprocessing
import os
import resource
import signal
import threading
import time
from dataclasses import dataclass, replace
from typing import Any

from connectx.agents.agent_spec import AgentKind
from connectx.agents.core.fault_words import timeout_text
from connectx.evaluation.game_in_process import SpareEnvironment, play_game
from connectx.evaluation.game_record import GameRecord, GameSpec, MoveStats, aborted_record, fault_record, seat_stats
from connectx.evaluation.move_journal import MoveJournal
from connectx.evaluation.orphans import exit_when_gone


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
    the fork per game protected stays: the parent reads every move's start and end, kills the
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
        self.journal: Any = None
        self.games = 0

    def play(self, spec: GameSpec, watchdog: Watchdog) -> GameRecord:
        started = time.monotonic()
        self._send(spec)
        watch = _ParentView(spec, watchdog, started)
        finished = False
        try:
            while True:
                watch.read(self.journal)
                now = time.monotonic()
                if now >= watch.deadline:
                    return watch.killed(now - started)
                # A move noted after this read runs out no sooner than ``shortest`` from now: wake by then to look.
                if not self.connection.poll(min(watch.deadline, now + watch.shortest) - now):
                    continue
                try:
                    record: GameRecord
                    record, peak_kib = self.connection.recv()
                except (EOFError, OSError):
                    self.process.join(5)
                    watch.read(self.journal)  # the process is gone: every note it finished is in the file
                    return watch.died(self.process.exitcode, time.monotonic() - started)
                finished = True
                self.games += 1
                if self._worn(spec, peak_kib):
                    self.stop()
                return replace(record, wall_seconds=time.monotonic() - started)
        finally:
            if not finished:  # killed, dead, or the parent interrupted: this child is done with
                self.stop()

    def _send(self, spec: GameSpec) -> None:
        """Hand ``spec`` to the child, starting one first if there is none (or it died while idle)."""
        if self.process is not None:
            try:
                self.journal.clear()  # the child waits for this spec: it notes nothing meanwhile
                self.connection.send(spec)
                return
            except OSError:
                self.stop()
        context = multiprocessing.get_context("fork")
        self.journal = MoveJournal()
        self.connection, child_end = context.Pipe()
        self.process = context.Process(
            target=_child_main, args=(child_end, self.connection, self.journal, self.pid), daemon=True
        )
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
        self.journal.close()
        self.process = self.connection = self.journal = None


def _child_main(connection: Any, parent_end: Any, journal: MoveJournal, parent: int) -> None:
    """The game process: play each spec the parent sends, noting every move's start and end in ``journal``,
    until the pipe closes or the parent (the worker, pid ``parent``) is gone, hung agent or not."""
    parent_end.close()  # the fork's copy of the parent's end: without it the pipe would never read as closed
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_when_gone(parent)
    spare = SpareEnvironment()
    while True:
        try:
            spec = connection.recv()
        except (EOFError, OSError):
            return
        try:
            record = play_game(spec, lambda message: journal.note(message, time.monotonic()), spare)
            connection.send((record, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
        except (BrokenPipeError, ConnectionResetError):  # the worker is gone (Ctrl-C killed it): no one to tell
            return
        spare.prepare(spec.config)  # while the parent hands the record in and fetches the next spec


class _ParentView:
    """What the parent knows of a game in a child, from its notes: who is on move, since when, the moves made."""

    def __init__(self, spec: GameSpec, watchdog: Watchdog, started: float) -> None:
        self.spec = spec
        self.watchdog = watchdog
        self.moves = list(spec.opening)
        self.durations: tuple[list[float], list[float]] = ([], [])
        self.stats: tuple[list[MoveStats], list[MoveStats]] = ([], [])
        self.on_move: int | None = None
        self.bank = 0.0
        self.own_limit = False
        """Whether the move under way is held to the watchdog's own limit, tighter than Kaggle's."""
        self.move_started = started
        self.deadline = started + watchdog.quiet
        own = math.inf if watchdog.move_limit is None else watchdog.move_limit
        self.shortest = min(watchdog.quiet, spec.config.act_timeout + watchdog.grace, own)
        """The least time any state the child may note next allows: how long the parent may sleep without looking."""

    def read(self, journal: MoveJournal) -> None:
        """Take in the notes the child has written since the last read."""
        for at, message in journal.read():
            self.heard(message, at)

    def heard(self, message: tuple[Any, ...], at: float) -> None:
        """Take in one note the child made at ``at`` (its clock, which is this process's: see ``move_journal``)."""
        if message[0] == "move":
            _, seat, overage = message
            self.on_move, self.move_started, self.bank = seat, at, overage
            allowed = self.spec.config.act_timeout + overage + self.watchdog.grace
            self.own_limit = self.watchdog.move_limit is not None and self.watchdog.move_limit < allowed
            if self.watchdog.move_limit is not None:
                allowed = min(allowed, self.watchdog.move_limit)
            self.deadline = at + allowed
        elif message[0] == "moved":
            _, seat, duration, action, stats = message
            self.durations[seat].append(duration)
            self.stats[seat].append(stats)
            if action is not None:
                self.moves.append(action)
            self.on_move, self.deadline = None, at + self.watchdog.quiet

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
            return aborted_record(
                self.spec,
                f"watchdog: no progress for {self.watchdog.quiet:g}s outside any move",
                moves,
                self._durations(),
                wall,
                self._stats(),
            )
        waited = time.monotonic() - self.move_started
        took = (
            f"took {waited:.1f} s, past the watchdog's own limit of {self.watchdog.move_limit:g} s a move"
            if self.own_limit
            else timeout_text(waited, self.spec.config.act_timeout, self.bank)
        )
        detail = f"{took}; no answer came, so the watchdog stopped the game's process"
        return fault_record(
            self.spec, self.on_move, "TIMEOUT", detail, moves, self._durations(waited), wall, self._stats()
        )

    def died(self, exit_code: int | None, wall: float) -> GameRecord:
        moves = tuple(self.moves)
        if self.on_move is None:
            return aborted_record(
                self.spec,
                f"the game's process died (exit code {exit_code}) outside any move",
                moves,
                self._durations(),
                wall,
                self._stats(),
            )
        detail = f"the game's process died (exit code {exit_code}) during a move of {self.spec.names[self.on_move]!r}"
        return fault_record(
            self.spec,
            self.on_move,
            "ERROR",
            detail,
            moves,
            self._durations(time.monotonic() - self.move_started),
            wall,
            self._stats(),
        )
