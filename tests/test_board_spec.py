"""``BoardSpec``: its text round-trips, and every board out of the one set of limits is refused saying what to give."""

from __future__ import annotations

from typing import Any

import pytest

from connectx.agents.board_spec import MAX_SIDE, MIN_INAROW, MIN_SIDE, BoardSpec, BoardSpecError
from connectx.agents.core.position import geometry
from connectx.evaluation.engine import BoardConfig


@pytest.mark.parametrize(
    "text, rows, columns, inarow",
    [
        ("7x6/4", 6, 7, 4),
        ("8x7/4", 7, 8, 4),
        ("10x8/5", 8, 10, 5),
        ("1x6/4", 6, 1, 4),
        ("3x1/3", 1, 3, 3),
        ("12x12/12", 12, 12, 12),
        (" 5x4/3 ", 4, 5, 3),
    ],
)
def test_text_is_columns_by_rows_over_inarow_and_round_trips(text: str, rows: int, columns: int, inarow: int) -> None:
    board = BoardSpec.parse(text)
    assert (board.rows, board.columns, board.inarow) == (rows, columns, inarow)
    assert str(board) == text.strip() and BoardSpec.parse(str(board)) == board
    assert eval(repr(board), {"BoardSpec": BoardSpec}) == board  # the repr pastes back into a test


def test_the_default_is_kaggles_board() -> None:
    assert BoardSpec() == BoardSpec.parse("7x6/4") == BoardSpec.from_kaggle({"rows": 6, "columns": 7, "inarow": 4})
    assert BoardSpec().geometry is geometry(6, 7, 4)


@pytest.mark.parametrize("text", ["", "7x6", "7x6/", "7*6/4", "7x6x4", "7x6/4/2", "-7x6/4", "7.0x6/4", "x6/4", "seven"])
def test_text_of_another_form_is_refused_naming_the_form(text: str) -> None:
    with pytest.raises(BoardSpecError, match=r"expected COLUMNSxROWS/INAROW, like 7x6/4") as caught:
        BoardSpec.parse(text)
    assert caught.value.field is None and repr(text) in str(caught.value)


@pytest.mark.parametrize(
    "rows, columns, inarow, field, message",
    [
        (0, 7, 4, "rows", f"rows 0: choose a whole number from {MIN_SIDE} to {MAX_SIDE}"),
        (6, MAX_SIDE + 1, 4, "columns", f"columns {MAX_SIDE + 1}: choose a whole number from {MIN_SIDE} to {MAX_SIDE}"),
        (6, 7, 1, "inarow", f"in a row 1: choose a whole number from {MIN_INAROW} to 7, the longer side of the board"),
        # Nobody can ever win: no line of inarow fits anywhere (Kaggle would play these to a draw).
        (
            6,
            7,
            99,
            "inarow",
            "in a row 99: choose a whole number from 2 to 7, the longer side of the board "
            "(no line of 99 fits on 7x6, so nobody could ever win)",
        ),
        (3, 3, 4, "inarow", "no line of 4 fits on 3x3, so nobody could ever win"),
        (1, 1, 2, "inarow", "a 1x1 board has room for no line of 2, so nobody could ever win; give it 2 or more rows"),
        # Values read from JSON can be anything.
        ("6", 7, 4, "rows", "rows 6: choose a whole number"),
        (6, 7.0, 4, "columns", "columns 7.0: choose a whole number"),
        (6, True, 4, "columns", "columns True: choose a whole number"),
        (6, 7, None, "inarow", "in a row None: choose a whole number from 2 to 7"),
    ],
)
def test_boards_out_of_the_limits_are_refused(rows: Any, columns: Any, inarow: Any, field: str, message: str) -> None:
    with pytest.raises(BoardSpecError) as caught:
        BoardSpec(rows, columns, inarow)
    assert message in str(caught.value)
    assert caught.value.field == field


def test_a_line_that_fits_one_way_is_enough() -> None:
    # A line of 6 fits only upright on 6 rows x 1 column, and only across on 1 row x 6 columns.
    assert BoardSpec(6, 1, 6).inarow == BoardSpec(1, 6, 6).inarow == 6
    with pytest.raises(BoardSpecError):
        BoardSpec.parse("6x2/7")


def test_kaggles_configuration_is_read_and_checked() -> None:
    config = {"rows": 4, "columns": 5, "inarow": 3, "actTimeout": 2, "episodeSteps": 1000}
    assert BoardSpec.from_kaggle(config) == BoardSpec.parse("5x4/3")
    with pytest.raises(BoardSpecError, match="columns None"):
        BoardSpec.from_kaggle({"rows": 4, "inarow": 3})


def test_the_engines_configuration_is_a_board_checked_the_same_way() -> None:
    board = BoardSpec.parse("5x4/3")
    config = BoardConfig.of(board, 1.5)
    assert (config.rows, config.columns, config.inarow, config.act_timeout) == (4, 5, 3, 1.5)
    assert str(config) == "5x4/3" and config.geometry is board.geometry
    assert config.to_kaggle() == {"rows": 4, "columns": 5, "inarow": 3, "actTimeout": 1.5}
    with pytest.raises(BoardSpecError, match="nobody could ever win"):
        BoardConfig(3, 3, 4)
    with pytest.raises(ValueError, match="actTimeout"):
        BoardConfig.of(board, 0.0)
