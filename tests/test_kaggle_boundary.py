"""The boundary: observations in, plain int columns out, and the guard that never lets an agent fail."""

from __future__ import annotations

import time

import numpy as np
import pytest

from agents.kaggle_boundary import Deadline, GuardedAgent, read_deadline, read_position, to_column
from agents.position import Position

CONFIG = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}


def observation(moves: str, overage: float = 60.0) -> dict:
    position = Position.from_moves(moves)
    return {"board": position.to_board(), "mark": position.mark, "remainingOverageTime": overage}


class Scripted:
    """A strategy that answers with a fixed value (or raises it) and counts resets."""

    def __init__(self, answer: object) -> None:
        self.answer = answer
        self.resets = 0

    def choose(self, position: Position, deadline: Deadline) -> int:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer  # type: ignore[return-value]

    def reset(self) -> None:
        self.resets += 1


def test_read_position_takes_the_side_of_obs_mark() -> None:
    assert read_position(observation("4453"), CONFIG) == Position.from_moves("4453")
    assert read_position(observation("44531"), CONFIG).mark == 2


def test_read_position_uses_the_configured_geometry() -> None:
    position = Position.from_moves("121", rows=3, columns=4, inarow=3)
    config = {"rows": 3, "columns": 4, "inarow": 3}
    assert read_position({"board": position.to_board(), "mark": 2}, config) == position


def test_deadline_keeps_a_margin_and_the_overage_on_the_side() -> None:
    deadline = read_deadline(observation(""), CONFIG, margin=0.5)
    assert 1.4 < deadline.remaining() <= 1.5
    assert deadline.overage == pytest.approx(59.5)
    extended = deadline.extended(10)
    assert extended.expires_at - deadline.expires_at == pytest.approx(10)
    assert extended.overage == pytest.approx(49.5)
    assert deadline.extended(100).overage == 0


def test_deadline_expires() -> None:
    deadline = Deadline.after(0.01)
    assert not deadline.expired()
    time.sleep(0.02)
    assert deadline.expired() and deadline.remaining() == 0


@pytest.mark.parametrize("value", [3, np.int64(3), np.int32(3), np.uint8(3)])
def test_to_column_returns_a_plain_int(value: object) -> None:
    assert to_column(value) == 3 and type(to_column(value)) is int


@pytest.mark.parametrize("value", [3.0, "3", None, True])
def test_to_column_refuses_what_is_not_an_integer(value: object) -> None:
    with pytest.raises(TypeError):
        to_column(value)


@pytest.mark.parametrize("answer", [RuntimeError("boom"), 9, -1, 3.0, None])
def test_guard_answers_a_legal_int_whatever_the_strategy_does(answer: object, capsys: pytest.CaptureFixture) -> None:
    agent = GuardedAgent("scripted", Scripted(answer))
    column = agent(observation("444444"), CONFIG)
    assert type(column) is int and column in Position.from_moves("444444").legal_columns()
    assert "scripted" in capsys.readouterr().err


def test_guard_converts_numpy_answers() -> None:
    column = GuardedAgent("numpy", Scripted(np.int64(2)))(observation(""), CONFIG)
    assert column == 2 and type(column) is int


def test_guard_survives_an_unreadable_observation(capsys: pytest.CaptureFixture) -> None:
    board = [1] + [0] * 41  # a floating stone in the top-left corner
    assert GuardedAgent("scripted", Scripted(0))({"board": board, "mark": 1}, CONFIG) == 1
    assert "could not read the observation" in capsys.readouterr().err


def test_guard_resets_the_strategy_on_a_new_game() -> None:
    strategy = Scripted(3)
    agent = GuardedAgent("scripted", strategy)
    agent(observation(""), CONFIG)
    agent(observation("44"), CONFIG)
    assert strategy.resets == 0
    agent(observation("4"), CONFIG)
    assert strategy.resets == 1


class ClockReader(Scripted):
    """Records the deadline of every move it is asked for."""

    def __init__(self) -> None:
        super().__init__(3)
        self.deadlines: list[Deadline] = []

    def choose(self, position: Position, deadline: Deadline) -> int:
        self.deadlines.append(deadline)
        return 3


def test_first_move_clock_can_start_when_loading_started() -> None:
    strategy = ClockReader()
    agent = GuardedAgent("clock", strategy)
    loading_started = time.perf_counter() - 0.5
    agent.count_first_move_from(loading_started)
    agent(observation(""), CONFIG)
    agent(observation("44"), CONFIG)
    first, second = strategy.deadlines
    assert first.started_at == loading_started and first.remaining() < 1.25
    assert second.started_at > loading_started + 0.5 and second.remaining() > 1.5
