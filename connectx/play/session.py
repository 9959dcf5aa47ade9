"""One game between a person and an agent (or two people), played in kaggle-environments.

Kaggle's engine judges the game as it judges any match game: the person's column goes in
through the training interface (``env.train``, the person's seat marked ``None``) and the agent
answers as Kaggle calls it, timed against ``actTimeout`` and its overage bank; the result is
read from Kaggle's statuses and rewards. A take-back replays the remaining moves in a fresh
environment, the agent's recorded replies fed back in place of new ones, so the replay JSON
always shows one clean game. The finished (or abandoned) game becomes a harness ``GameRecord``
in a run directory, like any match game, so ``connectx replay DIR --game 0`` shows it again.

Columns are 0-based in this API, as Kaggle numbers them; messages meant for people number
them from 1, as the board shows them.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import HUMAN, AgentSpec
from connectx.agents.core.kaggle_boundary import FAULT_STATUSES, played_actions
from connectx.agents.core.position import Position
from connectx.evaluation.engine import BoardConfig, Outcome, make_environment, seat_agent
from connectx.evaluation.game_record import ABORTED, GameRecord
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError

ENGINE_LOCK = threading.RLock()
"""Held around every call into kaggle-environments. The engine swaps the process's ``sys.stdout`` and
``sys.stderr`` for buffers around each agent call and each step; two threads doing that at once can
leave ``sys.stdout`` pointing at a closed buffer, so games in threads (the server's tabs) take turns."""


class MoveError(ValueError):
    """A move or take-back the game cannot make; the message is one line for the person."""


class IllegalMove(MoveError):
    """Not a column of this board."""


class FullColumn(MoveError):
    """A column with no room left."""


class GameOver(MoveError):
    """A move after the game ended."""


class NothingToTakeBack(MoveError):
    """A take-back before the person has moved."""


class _RecordedThenLive:
    """The agent as Kaggle calls it: first the replies recorded before a take-back, then the agent itself.

    ``seconds`` collects the duration of each live call, for the game record.
    """

    def __init__(self, agent: Callable[..., Any]) -> None:
        self.agent = agent
        self.script: deque[int] = deque()
        self.seconds: list[float] = []

    def __call__(self, observation: Any, configuration: Any) -> Any:
        if self.script:
            return self.script.popleft()
        started = time.perf_counter()
        try:
            return self.agent(observation, configuration)
        finally:
            self.seconds.append(time.perf_counter() - started)

    def take_seconds(self) -> list[float]:
        seconds, self.seconds = self.seconds, []
        return seconds


class GameSession:
    """A game in progress: ``opponent`` (None for a second person) against a person in ``human_seat``.

    Seat 0 moves first. ``opening`` (0-based columns) is played before anyone is asked, as a
    shared position is; if it leaves the agent to move, the agent moves at once, as it does when
    it starts. AgentSpecError if the agent cannot play on this board, MoveError for an opening
    that is not a legal game.
    """

    def __init__(
        self,
        opponent: AgentSpec | None,
        human_seat: int = 0,
        config: BoardConfig = BoardConfig(),
        seed: int | None = None,
        opening: Sequence[int] = (),
    ) -> None:
        if human_seat not in (0, 1):
            raise ValueError(f"human_seat {human_seat}: seat 0 moves first, seat 1 second")
        self.opponent = opponent
        self.human_seat = human_seat
        self.config = config
        self.seed = seed
        self.opening = tuple(opening)
        check_moves(self.opening, config)
        if opponent is not None:
            opponent.check(config.geometry)
        self._started = time.perf_counter()
        self._seconds: list[float] = [0.0] * len(self.opening)
        with ENGINE_LOCK:
            env = make_environment(config, list(self.names))
            self._live = (
                None if opponent is None else _RecordedThenLive(seat_agent(opponent, 1 - human_seat, env, config, seed))
            )
            self._replay(self.opening, env)
        self._turn_started = time.perf_counter()

    @property
    def names(self) -> tuple[str, str]:
        """The players as the replay and the record name them, first mover first."""
        other = HUMAN if self.opponent is None else self.opponent.text
        return (HUMAN, other) if self.human_seat == 0 else (other, HUMAN)

    @property
    def people_seats(self) -> tuple[int, ...]:
        """The seats a person plays: both without an opponent."""
        return (0, 1) if self.opponent is None else (self.human_seat,)

    @property
    def moves(self) -> tuple[int, ...]:
        """Every column played so far, read from Kaggle's steps: the action of the seat that was ACTIVE."""
        return tuple(int(action) for _, _, action in played_actions(self._env.steps))

    @property
    def position(self) -> Position:
        return Position.replayed(self.config, self.moves)

    @property
    def board(self) -> list[int]:
        """Kaggle's flat board (row 0 on top, 0 empty, marks 1 and 2), as the environment holds it."""
        return list(self._env.state[0].observation.board)

    @property
    def is_over(self) -> bool:
        return bool(self._env.done)

    @property
    def winning_line(self) -> list[int]:
        """The flat indexes (Kaggle's board) of the line that won the game; empty unless a line won it."""
        return winning_line(self.board, self.config.rows, self.config.columns, self.config.inarow)

    @property
    def to_move(self) -> int | None:
        """The seat to move, None once the game is over."""
        for seat in (0, 1):
            if self._env.state[seat].status == "ACTIVE":
                return seat
        return None

    @property
    def outcome(self) -> Outcome | None:
        """Kaggle's verdict on the finished game; None while it goes on."""
        return Outcome.of(self._env) if self.is_over else None

    def result_text(self) -> str:
        """The result in a sentence for people: who won and how, or that the game goes on."""
        outcome = self.outcome
        if outcome is None:
            return f"The game goes on after {len(self.moves)} moves."
        if outcome.winner is None:
            return f"Draw after {len(self.moves)} moves."
        winner = self.names[outcome.winner]
        who = "You win" if winner == HUMAN and self.opponent is not None else f"{self._label(outcome.winner)} wins"
        how = "" if outcome.cause == "line" else f": {self.names[1 - outcome.winner]}'s move ended in {outcome.cause}"
        return f"{who} after {len(self.moves)} moves{how}."

    def _label(self, seat: int) -> str:
        if self.opponent is None:
            return f"Player {seat + 1}"
        return self.names[seat]

    def play(self, column: int) -> tuple[int, ...]:
        """The person's move in ``column`` (0-based), then the agent's reply; the moves this added.

        IllegalMove, FullColumn or GameOver (one line each) when the move cannot be made; nothing
        changes then. An interrupt during the agent's reply leaves the game as Kaggle left it.
        """
        with ENGINE_LOCK:
            if self.is_over:
                raise GameOver(f"the game is over ({self.result_text()}); take back a move or start a new game")
            check_column(column, self.position)
            thought = time.perf_counter() - self._turn_started
            played = len(self.moves)
            try:
                if self._trainer is not None:
                    self._trainer.step(column)
                else:
                    self._env.step([column, None] if self.to_move == 0 else [None, column])
            finally:
                live = self._live.take_seconds() if self._live is not None else []
                self._seconds[played:] = [thought, *live]
                self._turn_started = time.perf_counter()
            return self.moves[played:]

    def take_back(self) -> int:
        """Undo the person's last move and the agent's reply to it (with two people, the last move).

        The moves left are replayed in a fresh environment, so it is the person's turn again.
        Returns the number of moves undone; NothingToTakeBack if the person has not moved.
        """
        with ENGINE_LOCK:
            moves = self.moves
            keep = len(moves) - 1
            while keep >= 0 and keep % 2 not in self.people_seats:
                keep -= 1
            if keep < 0:
                raise NothingToTakeBack("nothing to take back: you have not moved yet")
            del self._seconds[keep:]
            self._replay(moves[:keep], make_environment(self.config, list(self.names)))
            self._turn_started = time.perf_counter()
            return len(moves) - keep

    def _replay(self, moves: Sequence[int], env: Any) -> None:
        """Play ``moves`` into the fresh ``env``: people's moves stepped in, the agent's fed to it as its replies."""
        self._env = env
        if self._live is None:
            self._trainer = None
            for ply, column in enumerate(moves):
                env.step([column, None] if ply % 2 == 0 else [None, column])
            return
        agent_seat = 1 - self.human_seat
        self._live.script = deque(moves[agent_seat::2])
        seats: list[Any] = [None, None]
        seats[agent_seat] = self._live
        self._trainer = env.train(seats)  # resets the env and lets the agent move until the person's turn
        for column in moves[self.human_seat :: 2]:
            self._trainer.step(column)
        self._seconds[len(moves) :] = self._live.take_seconds()

    def record(self, index: int = 0) -> GameRecord:
        """The game as a harness record with its replay; an unfinished game is recorded as aborted (not scored).

        ``seed`` is the session's seed, or 0 when it had none.
        """
        with ENGINE_LOCK:
            moves = self.moves
            outcome = self.outcome
            statuses = (str(self._env.state[0].status), str(self._env.state[1].status))
            durations = (
                tuple(s for ply, s in enumerate(self._seconds) if ply % 2 == 0),
                tuple(s for ply, s in enumerate(self._seconds) if ply % 2 == 1),
            )
            winner, cause, offender = None, ABORTED, None
            detail = f"unfinished: stopped after {len(moves)} moves"
            if outcome is not None:
                winner, statuses, cause = outcome.winner, outcome.statuses, outcome.cause
                if cause in FAULT_STATUSES and winner is not None:
                    offender = 1 - winner
                detail = "" if offender is None else f"kaggle marked {self.names[offender]}'s move {cause}"
            return GameRecord(
                index,
                self.names,
                self.config,
                self.seed or 0,
                self.opening,
                moves,
                winner,
                statuses,
                cause,
                offender,
                detail,
                durations,
                time.perf_counter() - self._started,
                replay=self.replay_json(),
            )

    def replay_json(self) -> dict[str, Any]:
        """The Kaggle episode (``env.toJSON()``) as plain JSON: what Kaggle's viewer and the analysis read."""
        with ENGINE_LOCK:
            replay: dict[str, Any] = json.loads(json.dumps(self._env.toJSON()))
            return replay

    def replay_html(self) -> str:
        """The game in Kaggle's HTML viewer (``env.render(mode="html")``)."""
        with ENGINE_LOCK:
            return str(self._env.render(mode="html"))


def winning_line(board: Sequence[int], rows: int, columns: int, inarow: int) -> list[int]:
    """Every cell of a Kaggle board's lines of ``inarow`` equal stones, as flat indexes (row 0 on top), sorted."""
    cells: set[int] = set()
    for row in range(rows):
        for column in range(columns):
            mark = board[row * columns + column]
            if not mark:
                continue
            for down, right in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_column = row + down * (inarow - 1), column + right * (inarow - 1)
                if not (end_row < rows and 0 <= end_column < columns):
                    continue
                line = [(row + down * step) * columns + column + right * step for step in range(inarow)]
                if all(board[index] == mark for index in line):
                    cells.update(line)
    return sorted(cells)


def check_column(column: Any, position: Position) -> None:
    """IllegalMove unless ``column`` (0-based) is a column of the board, FullColumn if it has no room."""
    columns = position.geometry.columns
    if type(column) is not int:
        raise IllegalMove(f"{column!r} is not a column: pick a number from 1 to {columns}")
    if not 0 <= column < columns:
        raise IllegalMove(f"there is no column {column + 1} on a {columns}-column board: pick 1 to {columns}")
    if not position.can_play(column):
        raise FullColumn(f"column {column + 1} is full: pick another")


def check_moves(moves: Sequence[int], config: BoardConfig) -> None:
    """MoveError naming the first of ``moves`` (0-based) that is not a legal move of a game on ``config``'s board."""
    position = Position.replayed(config)
    for ply, column in enumerate(moves):
        if position.is_over():
            raise GameOver(f"move {ply + 1} comes after the game was over")
        try:
            check_column(column, position)
        except MoveError as error:
            raise type(error)(f"move {ply + 1}: {error}") from None
        position = position.play(column)


def run_plan(session: GameSession) -> dict[str, Any]:
    """What the run directory's ``run.json`` says of a game played by people."""
    config = session.config
    return {
        "kind": "human game",
        "agents": list(session.names),
        "human_seats": list(session.people_seats),
        "config": config.to_json(),
        "seed": session.seed,
    }


def check_run_directory(directory: Path) -> None:
    """RunDirectoryError unless ``directory`` can take a new game: absent, or a directory holding no run. Reads only."""
    store = ResultsStore(directory)
    if directory.exists() and not directory.is_dir():
        raise RunDirectoryError("{path} is a file, not a run directory; choose another {out} directory", path=directory)
    if store.plan_path.exists() or store.games_path.exists():
        raise RunDirectoryError("{path} already holds a run; choose another {out} directory", path=directory)


def default_run_directory(now: datetime | None = None) -> Path:
    """Where a game is saved when no directory is given: ``out/human/YYYYmmdd-HHMMSS`` (under the working directory)."""
    return Path("out") / "human" / (now or datetime.now()).strftime("%Y%m%d-%H%M%S")


def save_game(session: GameSession, directory: Path) -> GameRecord:
    """Write the game to the run directory ``directory`` (``run.json``, ``games.jsonl``, its replay) as game 0.

    RunDirectoryError if the directory already holds a run.
    """
    store = ResultsStore(directory)
    store.open(run_plan(session), resume=False)
    record = session.record(0)
    store.append(record)
    return record
