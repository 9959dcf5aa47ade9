"""A game to analyse, read from any of the three forms people have: one ``Game`` value.

* a Kaggle episode JSON: what kaggle-environments' ``env.toJSON()`` writes, the file Kaggle
  offers for every leaderboard episode and ``connectx play --json`` saves;
* one of the harness's game records: a line of a run directory's ``games.jsonl``;
* a move string of 1-based column digits, as in the benchmark position files.

Every reader checks what it reads and raises ValueError naming what is wrong, so a caller only
ever handles a ``Game`` whose moves are legal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from connectx.agents.board_spec import STANDARD_BOARD, BoardSpec, BoardSpecError
from connectx.agents.core.kaggle_boundary import board_of, played_actions
from connectx.agents.core.move_string import MAX_DIGIT_COLUMNS, columns_of, digits_fit, digits_of
from connectx.agents.core.position import Position


@dataclass(frozen=True)
class Game:
    """A board and the 0-based columns played on it, every one checked to be legal.

    The check replays the game once, and the positions it passes through are kept (``positions``):
    nothing that reads the game replays it again.
    """

    board: BoardSpec
    moves: tuple[int, ...]
    _positions: tuple[Position, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not digits_fit(self.board.columns):
            raise ValueError(
                f"a board of {self.board.columns} columns: analysis writes moves as digits, "
                f"so it takes boards of up to {MAX_DIGIT_COLUMNS} columns"
            )
        position = self.initial_position()
        positions = [position]
        for ply, column in enumerate(self.moves):
            if position.is_over():
                raise ValueError(f"move {ply + 1} (column {column}) comes after the game was over")
            if type(column) is not int or not position.can_play(column):
                raise ValueError(
                    f"move {ply + 1} is column {column!r}: not a playable 0-based column "
                    f"of a {self.board.columns}-column board"
                )
            position = position.play(column)
            positions.append(position)
        object.__setattr__(self, "_positions", tuple(positions))  # how a frozen dataclass sets its own field

    def initial_position(self) -> Position:
        """The empty board of this game."""
        return Position.replayed(self.board)

    @property
    def digits(self) -> str:
        """The moves as 1-based column digits (``"4453"``), as the position files write them."""
        return digits_of(self.moves)

    def positions(self) -> tuple[Position, ...]:
        """The position before every move, then the final one (``len(moves) + 1`` positions)."""
        return self._positions


def game_from_digits(digits: str, board: BoardSpec = STANDARD_BOARD) -> Game:
    """The game of a move string: 1-based column digits, e.g. ``"4453"`` (surrounding spaces ignored)."""
    digits = digits.strip()
    try:
        if not digits.isascii():  # int() reads other scripts' digits too; from_moves below names the character
            raise ValueError(digits)
        return Game(board, columns_of(digits))
    except ValueError:
        # Replayed again only to say what is wrong in the digits' own terms (the first bad move, 1-based).
        Position.from_moves(digits, board.rows, board.columns, board.inarow)
        raise


def game_from_record(record: Any) -> Game:
    """The game of one harness game record (a parsed ``games.jsonl`` line: ``config`` and 0-based ``moves``)."""
    if not isinstance(record, dict):
        raise ValueError(f"a game record is a JSON object, not {type(record).__name__}")
    board = _board(record.get("config"), "the record's config")
    moves = record.get("moves")
    if not isinstance(moves, list) or not all(type(column) is int for column in moves):
        raise ValueError("the record's moves must be a list of 0-based column numbers")
    return Game(board, tuple(moves))


def game_from_episode(episode: Any) -> Game:
    """The game of a Kaggle episode (``env.toJSON()``): its ``configuration`` and ``steps``.

    A step holds one state per agent; the move of step ``i`` is the action of the agent that was
    ACTIVE at step ``i - 1``, unless Kaggle then marked it ERROR, INVALID or TIMEOUT (its action
    was not played). Every board the episode shows is checked against the moves read so far.
    """
    if not isinstance(episode, dict):
        raise ValueError(f"a Kaggle episode is a JSON object, not {type(episode).__name__}")
    board = _board(episode.get("configuration"), "the episode's configuration")
    steps = episode.get("steps")
    if not isinstance(steps, list) or not steps:
        raise ValueError("the episode has no steps: expected 'steps', a list of agent states per step")
    for number, step in enumerate(steps):
        if not isinstance(step, list) or len(step) != 2 or not all(isinstance(state, dict) for state in step):
            raise ValueError(f"step {number} of the episode is not a list of two agent states")
        for seat, state in enumerate(step):
            if not isinstance(state.get("status"), str):
                raise ValueError(f"step {number}, agent {seat} of the episode has no status")
    position = Position.replayed(board)
    moves: list[int] = []
    _check_board(steps[0], position, 0)
    played: dict[int, list[tuple[int, Any]]] = {number: [] for number in range(1, len(steps))}
    for number, seat, column in played_actions(steps):
        played[number].append((seat, column))
    for number, actions in played.items():
        for seat, column in actions:
            if type(column) is not int or not position.can_play(column) or position.is_over():
                raise ValueError(f"step {number}: agent {seat} played {column!r}, which is not a legal move there")
            position = position.play(column)
            moves.append(column)
        _check_board(steps[number], position, number)
    return Game(board, tuple(moves))


def read_episode(path: Path) -> Game:
    """The game of the Kaggle episode JSON file at ``path``."""
    return game_from_episode(_read_json(path))


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror}") from None
    except ValueError as error:
        raise ValueError(f"{path} is not JSON ({error})") from None


def _board(config: Any, where: str) -> BoardSpec:
    if not isinstance(config, dict):
        raise ValueError(f"{where} is missing: expected an object with rows, columns and inarow")
    try:
        board = BoardSpec.from_kaggle(config)
    except BoardSpecError as error:
        raise ValueError(f"{where} has {error.field} = {error.value!r}: {error.advice}") from None
    return board


def _check_board(step: list[dict[str, Any]], position: Position, number: int) -> None:
    """Compare any board shown at this step with ``position`` (Kaggle shares it in the first agent's state)."""
    for seat, state in enumerate(step):
        observation = state.get("observation")
        board = observation.get("board") if isinstance(observation, dict) else None
        if board is not None and board != board_of(position):
            raise ValueError(f"step {number}: agent {seat}'s board differs from the moves played so far")
