"""``BoardSpec``: a board's size (rows, columns, in a row), checked once against the one set of limits.

Every place a person names a board reads it into this value: the command line's ``--rows``,
``--columns`` and ``--inarow``, the page's new-game fields, the configuration of a game file to
analyse, the benchmarks' ``--boards``. Its text form is Kaggle's way of writing a board, the
columns first, then the stones in a row: ``7x6/4``; ``BoardSpec.parse(str(board)) == board``.

The limits (``check``):

- rows and columns from ``MIN_SIDE`` (Kaggle's minimum) to ``MAX_SIDE`` (what the page draws);
- in a row from ``MIN_INAROW`` (with one, the first stone would win) to the longer side: a longer
  line fits nowhere, so nobody could ever win. Kaggle's engine plays such a board to a draw,
  which is never what a person meant.

Agents never see this module: on Kaggle they take whatever configuration the engine sends.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from connectx.agents.core.position import Geometry, geometry

MIN_SIDE, MAX_SIDE = 1, 12
MIN_INAROW = 2
TEXT_FORM = "COLUMNSxROWS/INAROW"
_TEXT = re.compile(r"(\d+)x(\d+)/(\d+)")
_LABELS = {"rows": "rows", "columns": "columns", "inarow": "in a row"}
"""How a message names each field (the page's words; the command line names its options instead)."""


class BoardSpecError(ValueError):
    """A board text or size out of the limits. ``field`` is the field at fault (None for text of the wrong
    form), ``value`` what was given for it and ``advice`` what to give instead."""

    def __init__(self, field: str | None, value: object, advice: str) -> None:
        self.field, self.value, self.advice = field, value, advice
        label = f"board {value!r}" if field is None else f"{_LABELS[field]} {str(value)[:20]}"
        super().__init__(f"{label}: {advice}")


@dataclass(frozen=True)
class BoardSpec:
    """A board of ``rows`` x ``columns`` where ``inarow`` stones in a line win; Kaggle's 7x6/4 by default."""

    rows: int = 6
    columns: int = 7
    inarow: int = 4

    def __post_init__(self) -> None:
        check(self.rows, self.columns, self.inarow)

    @classmethod
    def parse(cls, text: str) -> BoardSpec:
        """The board ``text`` writes as ``COLUMNSxROWS/INAROW`` (``7x6/4``); BoardSpecError otherwise."""
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise BoardSpecError(None, text, f"expected {TEXT_FORM}, like 7x6/4 (7 columns, 6 rows, 4 in a row)")
        columns, rows, inarow = (int(group) for group in match.groups())
        return cls(rows, columns, inarow)

    @classmethod
    def from_kaggle(cls, config: Mapping[str, Any]) -> BoardSpec:
        """The board of a Kaggle configuration (``rows``, ``columns``, ``inarow``; other keys ignored), each
        value checked to be a whole number: a configuration read from JSON can hold anything."""
        values: list[Any] = [config.get(field) for field in ("rows", "columns", "inarow")]
        return cls(*values)

    def to_kaggle(self) -> dict[str, int]:
        """The board as Kaggle's configuration names it: ``from_kaggle``'s inverse."""
        return {"rows": self.rows, "columns": self.columns, "inarow": self.inarow}

    def __str__(self) -> str:
        return f"{self.columns}x{self.rows}/{self.inarow}"

    def __repr__(self) -> str:
        return f"BoardSpec.parse({str(self)!r})"

    @property
    def geometry(self) -> Geometry:
        """The position core's masks for this board (computed once per size)."""
        return geometry(self.rows, self.columns, self.inarow)


def check(rows: object, columns: object, inarow: object) -> None:
    """BoardSpecError naming the first field out of the limits (see the module's docstring)."""
    for field, value in (("rows", rows), ("columns", columns)):
        if type(value) is not int or not MIN_SIDE <= value <= MAX_SIDE:
            raise BoardSpecError(field, value, f"choose a whole number from {MIN_SIDE} to {MAX_SIDE}")
    assert isinstance(rows, int) and isinstance(columns, int)
    longest = max(rows, columns)
    if longest < MIN_INAROW:
        raise BoardSpecError(
            "inarow",
            inarow,
            f"a {columns}x{rows} board has room for no line of {MIN_INAROW}, so "
            f"nobody could ever win; give it {MIN_INAROW} or more rows or columns",
        )
    if type(inarow) is not int or not MIN_INAROW <= inarow <= longest:
        advice = f"choose a whole number from {MIN_INAROW} to {longest}, the longer side of the board"
        if type(inarow) is int and inarow > longest:
            advice += f" (no line of {inarow} fits on {columns}x{rows}, so nobody could ever win)"
        raise BoardSpecError("inarow", inarow, advice)


STANDARD_BOARD = BoardSpec()
"""Kaggle's board, 7x6 with 4 in a row: the default wherever a board is not named."""
