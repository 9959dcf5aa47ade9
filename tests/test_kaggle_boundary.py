"""The boundary: observations in, plain int columns out, and the guard that never lets an agent fail."""

from __future__ import annotations

import time

import numpy as np
import pytest

from connectx.agents.core.kaggle_boundary import (
    Fault,
    FaultKind,
    GuardedAgent,
    board_of,
    mark_of,
    played_actions,
    position_from_board,
    read_deadline,
    read_position,
    to_column,
)
from connectx.agents.core.move_string import columns_of, digits_fit, digits_of
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline, OverageBank
from connectx.agents.core.strategy import MoveStats

CONFIG = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}


def observation(moves: str, overage: float = 60.0) -> dict:
    position = Position.from_moves(moves)
    return {"board": board_of(position), "mark": mark_of(position), "remainingOverageTime": overage}


class Scripted:
    """A strategy that answers with a fixed value (or raises it) and counts resets."""

    time_budget: float | None = None
    last_stats: MoveStats = {}

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
    assert mark_of(read_position(observation("44531"), CONFIG)) == 2


def test_read_position_uses_the_configured_geometry() -> None:
    position = Position.from_moves("121", rows=3, columns=4, inarow=3)
    config = {"rows": 3, "columns": 4, "inarow": 3}
    assert read_position({"board": board_of(position), "mark": 2}, config) == position


def test_deadline_keeps_a_margin_and_the_overage_on_the_side() -> None:
    deadline = read_deadline(observation(""), CONFIG, margin=0.5)
    assert deadline.expires_at - deadline.started_at == pytest.approx(1.5)
    assert deadline.overage == pytest.approx(59.5)
    extended = deadline.extended(10)
    assert extended.expires_at - deadline.expires_at == pytest.approx(10)
    assert extended.overage == pytest.approx(49.5)
    assert deadline.extended(100).overage == 0


def test_extending_a_deadline_draws_on_one_shared_bank() -> None:
    deadline = Deadline.after(1.0, overage=5.0)
    longer = deadline.extended(2.0).extended(10.0)
    assert longer.expires_at - deadline.expires_at == pytest.approx(5.0)
    assert deadline.bank is longer.bank and deadline.bank.drawn == pytest.approx(5.0)
    assert deadline.overage == longer.overage == 0
    assert Deadline.after(1.0).extended(3.0).bank.drawn == 0


def test_a_bank_never_goes_negative() -> None:
    bank = OverageBank(-3.0)
    assert bank.balance == 0 and bank.draw(1.0) == 0 and bank.drawn == 0
    assert OverageBank(2.0).draw(-1.0) == 0


def test_deadline_expires() -> None:
    deadline = Deadline(time.perf_counter() - 0.2, time.perf_counter() - 0.1)
    assert deadline.expired() and deadline.remaining() == 0
    assert not Deadline.after(60).expired()


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


class Raising(Scripted):
    """A strategy that raises on every call."""

    def __init__(self) -> None:
        super().__init__(RuntimeError("boom"))


class Sleeper(Scripted):
    """A strategy that answers a legal column after sleeping, optionally on overage it drew first."""

    def __init__(self, seconds: float, draw: float = 0.0) -> None:
        super().__init__(3)
        self.seconds = seconds
        self.draw = draw

    def choose(self, position: Position, deadline: Deadline) -> int:
        deadline.extended(self.draw)
        time.sleep(self.seconds)
        return 3


def kinds(agent: GuardedAgent) -> list[FaultKind]:
    return [fault.kind for fault in agent.faults]


def test_guard_records_a_strategy_that_raises_on_every_call(capsys: pytest.CaptureFixture) -> None:
    agent = GuardedAgent("raising", Raising())
    for moves in ("", "44", "4455"):
        assert agent(observation(moves), CONFIG) == 3
    assert kinds(agent) == [FaultKind.RAISED] * 3
    assert [fault.moves for fault in agent.faults] == [0, 2, 4]
    assert "RuntimeError: boom" in capsys.readouterr().err


@pytest.mark.parametrize(
    "answer,detail",
    [(9, "illegal column 9"), (-1, "illegal column -1"), (3.0, "answered 3.0"), (None, "answered None")],
)
def test_guard_records_an_illegal_answer(answer: object, detail: str) -> None:
    agent = GuardedAgent("illegal", Scripted(answer))
    agent(observation("444444"), CONFIG)
    [fault] = agent.faults
    assert fault.kind is FaultKind.ILLEGAL and detail in fault.detail and fault.moves == 6


def test_guard_records_an_unreadable_observation() -> None:
    agent = GuardedAgent("scripted", Scripted(0))
    agent({"board": [1] + [0] * 41, "mark": 1}, CONFIG)
    assert agent.faults == [Fault(FaultKind.UNREADABLE, "could not read the observation", None)]


def test_guard_records_a_move_slower_than_act_timeout() -> None:
    agent = GuardedAgent("sleeper", Sleeper(0.15))
    assert agent(observation("4"), {**CONFIG, "actTimeout": 0.05}) == 3
    [fault] = agent.faults
    assert fault.kind is FaultKind.LATE and "past actTimeout 0.05 s" in fault.detail and fault.moves == 1
    assert agent.overage_draws == []


def test_a_long_move_on_drawn_overage_is_a_draw_not_a_fault() -> None:
    agent = GuardedAgent("banker", Sleeper(0.15, draw=5.0))
    agent(observation("4"), {**CONFIG, "actTimeout": 0.05})
    assert agent.faults == []
    [draw] = agent.overage_draws
    assert draw.moves == 1 and draw.granted == pytest.approx(5.0) and 0.1 <= draw.seconds < 5.0


def test_drawing_too_little_overage_still_leaves_a_late_fault() -> None:
    agent = GuardedAgent("banker", Sleeper(0.3, draw=0.05))
    agent(observation("4"), {**CONFIG, "actTimeout": 0.05})
    assert kinds(agent) == [FaultKind.LATE] and "0.050 s it drew" in agent.faults[0].detail


def test_drawing_from_an_empty_bank_grants_nothing() -> None:
    agent = GuardedAgent("banker", Sleeper(0.15, draw=5.0))
    agent(observation("4", overage=0.0), {**CONFIG, "actTimeout": 0.05})
    assert kinds(agent) == [FaultKind.LATE]


def test_a_fast_legal_move_leaves_no_record() -> None:
    agent = GuardedAgent("scripted", Scripted(3))
    for moves in ("", "44", "4"):
        agent(observation(moves), CONFIG)
    assert agent.faults == [] and agent.overage_draws == []


def test_a_reset_that_raises_is_a_recorded_fault() -> None:
    class BadReset(Scripted):
        def reset(self) -> None:
            raise RuntimeError("reset failed")

    agent = GuardedAgent("scripted", BadReset(3))
    assert agent(observation("44"), CONFIG) == 3
    assert agent(observation(""), CONFIG) == 3
    assert kinds(agent) == [FaultKind.RAISED]


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
    assert first.started_at == loading_started and first.expires_at == pytest.approx(loading_started + 1.7)
    assert second.started_at >= loading_started + 0.5  # the second move's clock starts at its own call
    assert second.expires_at - second.started_at == pytest.approx(1.7)


def test_from_board_reads_kaggle_observations() -> None:
    position = Position.from_moves("4453")
    board = board_of(position)
    assert board[35:] == [0, 0, 2, 1, 1, 0, 0]  # row 0 of Kaggle's board is the top
    assert position_from_board(board, 6, 7, 4, mark=1) == position
    with pytest.raises(ValueError, match="not to move"):
        position_from_board(board, 6, 7, 4, mark=2)


@pytest.mark.parametrize(
    "board,message",
    [
        ([0] * 41, "cells"),
        ([3] + [0] * 41, "0, 1 or 2"),
        ([1] + [0] * 41, "floating"),
        ([0] * 35 + [1, 1, 0, 0, 0, 0, 0], "first"),
    ],
)
def test_from_board_rejects_impossible_boards(board: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        position_from_board(board, 6, 7, 4)


def test_played_actions_reads_the_active_seats_action_and_skips_a_fault() -> None:
    def state(status: str, action: object = 0) -> dict:
        return {"status": status, "action": action}

    steps = [
        [state("ACTIVE"), state("INACTIVE")],
        [state("INACTIVE", 3), state("ACTIVE")],  # seat 0 played 3
        [state("ACTIVE", 3), state("INACTIVE", 2)],  # seat 1 played 2
        [state("INVALID", 9), state("DONE", 2)],
    ]  # seat 0's 9 was never played
    assert list(played_actions(steps)) == [(1, 0, 3), (2, 1, 2)]


def test_move_strings_are_digits_for_boards_of_up_to_nine_columns() -> None:
    assert digits_of((3, 3, 4, 2)) == "4453" and columns_of("4453") == (3, 3, 4, 2)
    assert digits_fit(9) and not digits_fit(10) and not digits_fit(0)
