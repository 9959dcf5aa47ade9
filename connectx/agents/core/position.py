"""The one position core every agent searches on: an immutable bitboard for any board size.

Layout, for a board of R rows and C columns (here 6 x 7), H = R + 1 bits per column::

      .  .  .  .  .  .  .      <- sentinel row: never a stone
      5 12 19 26 33 40 47
      4 11 18 25 32 39 46
      3 10 17 24 31 38 45
      2  9 16 23 30 37 44
      1  8 15 22 29 36 43
      0  7 14 21 28 35 42      <- row 0 is the bottom

Cell (column c, row r from the bottom) is bit ``c * H + r``. A position holds ``current`` (the
stones of the side to move) and ``mask`` (all stones), so every query is relative to the side
to move and negamax never branches on colour. The sentinel bit keeps shifted lines from
wrapping into the next column, which is what lets one shift-based routine (``_compile_winning_cells``)
answer "where would a stone complete inarow?" for every direction and every inarow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Protocol

ROW_SYMBOLS = ".xo"
"""``from_rows``' symbols: an empty cell, a stone of the first player, a stone of the second."""


class BoardShape(Protocol):
    """Whatever names a board (a ``Geometry``, the command line's ``BoardSpec``, the harness's ``BoardConfig``)."""

    @property
    def rows(self) -> int: ...

    @property
    def columns(self) -> int: ...

    @property
    def inarow(self) -> int: ...


@dataclass(frozen=True)
class Geometry:
    """Masks of one board size, computed once (see ``geometry``) and shared by every position."""

    rows: int
    columns: int
    inarow: int
    height: int = field(init=False)
    cells: int = field(init=False)
    bottom_mask: int = field(init=False)
    board_mask: int = field(init=False)
    column_masks: tuple[int, ...] = field(init=False)
    bottom_bits: tuple[int, ...] = field(init=False)
    top_bits: tuple[int, ...] = field(init=False)
    centre_order: tuple[int, ...] = field(init=False)
    directions: tuple[int, ...] = field(init=False)
    winning_cells_of: Callable[[int, int], int] = field(init=False, repr=False, compare=False)
    non_losing_moves: Callable[[int, int], int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.rows < 1 or self.columns < 1 or self.inarow < 1:
            raise ValueError(
                f"impossible board {self.columns} columns x {self.rows} rows, {self.inarow} in a row: "
                "each must be at least 1"
            )
        height = self.rows + 1
        column_masks = tuple(((1 << self.rows) - 1) << (c * height) for c in range(self.columns))
        centre = (self.columns - 1) / 2
        assign = object.__setattr__
        assign(self, "height", height)
        assign(self, "cells", self.rows * self.columns)
        assign(self, "bottom_bits", tuple(1 << (c * height) for c in range(self.columns)))
        assign(self, "top_bits", tuple(1 << (c * height + self.rows - 1) for c in range(self.columns)))
        assign(self, "bottom_mask", sum(self.bottom_bits))
        assign(self, "column_masks", column_masks)
        assign(self, "board_mask", sum(column_masks))
        assign(self, "centre_order", tuple(sorted(range(self.columns), key=lambda c: (abs(c - centre), c))))
        assign(self, "directions", (1, height, height + 1, height - 1))
        assign(self, "winning_cells_of", _compile_winning_cells(height, self.inarow, self.board_mask))
        assign(self, "non_losing_moves", _non_losing_rule(self.bottom_mask, self.board_mask))

    def possible(self, mask: int) -> int:
        """Cells where a stone can be dropped now: the lowest empty cell of every open column."""
        # Adding a bit at the bottom of every column carries up each column's run of stones into its
        # lowest empty cell; the board mask drops the carry out of full columns (into the sentinel).
        return (mask + self.bottom_mask) & self.board_mask

    def winning_cells(self, stones: int, mask: int) -> int:
        """Empty cells that would complete ``inarow`` for ``stones`` (playable now or later).

        Search loops call ``winning_cells_of`` directly, the same function without this call.
        """
        return self.winning_cells_of(stones, mask)

    def has_line(self, stones: int) -> bool:
        """Whether ``stones`` hold ``inarow`` aligned stones in any direction."""
        for direction in self.directions:
            run = stones
            for step in range(1, self.inarow):
                # a bit survives when the stone ``step`` cells further along ``direction`` is ours too
                run &= stones >> (step * direction)
                if not run:
                    break
            if run:
                return True
        return False

    def non_losing(self, current: int, mask: int) -> int:
        """Playable cells that do not hand the opponent an immediate win (0 if every move loses).

        Assumes the side to move has no immediate win itself (callers check that first).
        """
        return self.non_losing_moves(mask, self.winning_cells_of(current ^ mask, mask))

    def windows(self) -> tuple[int, ...]:
        """Every line of ``inarow`` cells on the board, one bitmask each (evaluations count these).

        A window starts at any cell and runs ``inarow - 1`` steps along a direction; it is kept
        when all its cells lie on the board, the sentinel row rejecting lines that would wrap.
        Each window appears once (with ``inarow`` 1 every direction finds the same cell).
        """
        found = []
        for direction in self.directions:
            for start in range(self.columns * self.height):
                window = 0
                for step in range(self.inarow):
                    window |= 1 << (start + step * direction)
                if window & self.board_mask == window:  # a bit on the sentinel row or past the board: it wrapped
                    found.append(window)
        return tuple(dict.fromkeys(found))

    def column_of(self, bit: int) -> int:
        """The column of a single-bit move."""
        return (bit.bit_length() - 1) // self.height  # the bit's index, divided by the bits per column

    def mirror(self, bits: int) -> int:
        """``bits`` with the columns in reverse order (the board seen in a mirror)."""
        column_bits = (1 << self.height) - 1
        mirrored = 0
        for c in range(self.columns):
            mirrored |= ((bits >> (c * self.height)) & column_bits) << ((self.columns - 1 - c) * self.height)
        return mirrored

    def canonical_key(self, current: int, mask: int) -> int:
        """The key a position and its mirror image share (the smaller of their keys): tables store one of the pair."""
        return min(current + mask, self.mirror(current) + self.mirror(mask))


def _non_losing_rule(bottom_mask: int, board_mask: int) -> Callable[[int, int], int]:
    """``non_losing_moves(mask, threats)`` for one board size: the one rule every search prunes with.

    Given the opponent's winning cells ``threats``, the playable cells that do not lose at once
    (0 when every move does). The masks are closure cells, which CPython reads as fast as locals.
    """

    def non_losing_moves(mask: int, threats: int) -> int:
        possible = (mask + bottom_mask) & board_mask  # adding the bottom row carries into each lowest empty cell
        forced = possible & threats  # the opponent wins there next unless we play it
        if forced:
            if forced & (forced - 1):  # more than one forced move (clearing the lowest bit leaves some): we lose
                return 0
            possible = forced
        return possible & ~(threats >> 1)  # never right below an opponent's winning cell: we would open it

    return non_losing_moves


def _compile_winning_cells(height: int, inarow: int, board_mask: int) -> Callable[[int, int], int]:
    """``winning_cells(stones, mask)`` for one board size, compiled as straight-line shifts.

    Along each direction d, ``a{j}`` marks cells with stones at the j next steps forward and
    ``b{j}`` the j steps backward; a cell completes a line when j stones lie on one side and
    inarow-1-j on the other. Vertically only the stones below count (nothing floats). Unrolling
    the steps with the shift amounts as constants makes this about four times faster than a loop,
    and search agents call it at every node.
    """
    lines = ["def winning_cells(p, mask):"]
    if inarow == 1:
        lines.append(f"    return {board_mask} ^ mask")
    else:
        # Vertically: the cell above inarow - 1 of our stones (each shift by 1 moves a stone one row up).
        lines.append("    r = " + " & ".join(f"(p << {step})" for step in range(1, inarow)))
        for d in (height, height - 1, height + 1):
            lines.append(f"    a1 = p >> {d}; b1 = p << {d}")
            for step in range(2, inarow):
                shift = step * d
                lines.append(f"    a{step} = a{step - 1} & (p >> {shift}); b{step} = b{step - 1} & (p << {shift})")
            ends = [f"b{inarow - 1}", f"a{inarow - 1}"] + [f"a{j} & b{inarow - 1 - j}" for j in range(1, inarow - 1)]
            lines.append("    r |= " + " | ".join(ends))
        lines.append(f"    return r & ({board_mask} ^ mask)")  # only empty cells on the board
    namespace: dict[str, Callable[[int, int], int]] = {}
    exec("\n".join(lines), namespace)
    return namespace["winning_cells"]


@cache
def geometry(rows: int = 6, columns: int = 7, inarow: int = 4) -> Geometry:
    """The shared, cached masks of one board size."""
    return Geometry(rows, columns, inarow)


class Position:
    """An immutable Connect-X position seen from the side to move.

    ``current`` holds the mover's stones, ``mask`` all stones, ``moves`` how many were played.
    ``repr`` gives ``Position.from_rows(...)`` text that rebuilds the same position.
    """

    __slots__ = ("geometry", "current", "mask", "moves")

    geometry: Geometry
    current: int
    mask: int
    moves: int

    def __init__(self, board: Geometry, current: int = 0, mask: int = 0, moves: int = 0) -> None:
        object.__setattr__(self, "geometry", board)
        object.__setattr__(self, "current", current)
        object.__setattr__(self, "mask", mask)
        object.__setattr__(self, "moves", moves)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable: play() returns a new one")

    @classmethod
    def initial(cls, rows: int = 6, columns: int = 7, inarow: int = 4) -> Position:
        """The empty board."""
        return cls(geometry(rows, columns, inarow))

    @classmethod
    def replayed(cls, board: BoardShape, columns: Iterable[int] = ()) -> Position:
        """The position after ``columns`` (0-based, each one playable) on ``board``: a recorded game's moves replayed,
        or with none its empty board."""
        position = cls.initial(board.rows, board.columns, board.inarow)
        for column in columns:
            position = position.play(column)
        return position

    @classmethod
    def from_moves(cls, moves: str, rows: int = 6, columns: int = 7, inarow: int = 4) -> Position:
        """The position after ``moves``, 1-based column digits as in the shared benchmark files.

        Raises ValueError naming the first move that is not a column, hits a full column, or
        comes after the game was already won.
        """
        position = cls.initial(rows, columns, inarow)
        for index, digit in enumerate(moves):
            if digit not in "123456789"[:columns]:
                raise ValueError(f"move {index + 1} of {moves!r} is {digit!r}: expected a column digit 1-{columns}")
            column = int(digit) - 1
            if not position.can_play(column):
                raise ValueError(f"move {index + 1} of {moves!r} plays into full column {digit}")
            if position.is_won():
                raise ValueError(f"move {index + 1} of {moves!r} comes after the game was won")
            position = position.play(column)
        return position

    @classmethod
    def from_rows(cls, text: str, inarow: int = 4) -> Position:
        """The position drawn by ``text``: rows top to bottom joined by '/', ``.`` empty, ``x`` the first
        player's stones, ``o`` the second's (``repr`` writes this form). The side to move follows from the
        stone counts; ValueError for a drawing no game reaches (floating stones, wrong counts).
        """
        lines = text.split("/")
        rows, columns = len(lines), len(lines[0])
        if not columns or any(len(line) != columns for line in lines) or not set(text) <= set(ROW_SYMBOLS + "/"):
            raise ValueError(
                f"board text {text!r}: expected equal rows of '.', 'x' (first player) and 'o' separated by '/'"
            )
        shape = geometry(rows, columns, inarow)
        stones = [0, 0]
        mask = 0
        for c in range(columns):
            for r in range(rows):
                symbol = lines[rows - 1 - r][c]
                if symbol == ".":
                    continue
                bit = 1 << (c * shape.height + r)
                if r > 0 and not mask & (bit >> 1):  # the cell below must hold a stone: nothing floats
                    raise ValueError(f"floating stone at row {rows - 1 - r}, column {c}")
                stones[symbol == "o"] |= bit
                mask |= bit
        first, second = stones[0].bit_count(), stones[1].bit_count()
        if first - second not in (0, 1):
            raise ValueError(
                f"the first player (x) has {first} stones and the second (o) {second}: the first "
                "player moves first, so no game reaches this"
            )
        return cls(shape, stones[0] if first == second else stones[1], mask, first + second)

    def rows_text(self) -> str:
        """The board as ``from_rows`` reads it: rows top to bottom joined by '/', ``.`` empty, ``x`` the
        first player, ``o`` the second."""
        shape = self.geometry
        first = self.current if self.moves % 2 == 0 else self.current ^ self.mask
        lines = []
        for row in range(shape.rows - 1, -1, -1):
            cells = []
            for c in range(shape.columns):
                bit = 1 << (c * shape.height + row)
                cells.append("." if not self.mask & bit else "x" if first & bit else "o")
            lines.append("".join(cells))
        return "/".join(lines)

    def __repr__(self) -> str:
        return f"Position.from_rows({self.rows_text()!r}, inarow={self.geometry.inarow})"

    def __str__(self) -> str:
        lines = [" ".join(line.upper()) for line in self.rows_text().split("/")]
        lines.append(" ".join(str((c + 1) % 10) for c in range(self.geometry.columns)))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.geometry == other.geometry
            and self.current == other.current
            and self.mask == other.mask
        )

    def __hash__(self) -> int:
        return hash((self.geometry.rows, self.geometry.columns, self.geometry.inarow, self.current, self.mask))

    def can_play(self, column: int) -> bool:
        """Whether ``column`` exists and is not full."""
        return 0 <= column < self.geometry.columns and not self.mask & self.geometry.top_bits[column]

    def play(self, column: int) -> Position:
        """The position after the side to move drops a stone in ``column`` (assumed playable)."""
        # The column's bottom bit carries up its stones into the first empty cell, which the OR adds to
        # mask; the new mover's stones are the old opponent's, current ^ mask.
        mask = self.mask | (self.mask + self.geometry.bottom_bits[column])
        return Position(self.geometry, self.current ^ self.mask, mask, self.moves + 1)

    def legal_columns(self) -> list[int]:
        """Playable columns, centre first (the order that makes alpha-beta cut early)."""
        top_bits = self.geometry.top_bits
        return [c for c in self.geometry.centre_order if not self.mask & top_bits[c]]

    def move_bit(self, column: int) -> int:
        """The single bit a stone dropped in ``column`` would occupy."""
        # The carry lands on the column's lowest empty cell; the column mask keeps that bit alone.
        return (self.mask + self.geometry.bottom_bits[column]) & self.geometry.column_masks[column]

    def winning_cells(self) -> int:
        """Empty cells where the side to move would complete a line."""
        return self.geometry.winning_cells(self.current, self.mask)

    def opponent_winning_cells(self) -> int:
        """Empty cells where the opponent would complete a line."""
        return self.geometry.winning_cells(self.current ^ self.mask, self.mask)

    def is_winning_move(self, column: int) -> bool:
        """Whether dropping in playable ``column`` wins at once for the side to move."""
        return bool(self.winning_cells() & self.move_bit(column))

    def winning_columns(self) -> list[int]:
        """Columns that win at once, centre first."""
        wins = self.winning_cells() & self.geometry.possible(self.mask)
        return [c for c in self.geometry.centre_order if wins & self.geometry.column_masks[c]]

    def non_losing_columns(self) -> list[int]:
        """Columns that leave the opponent no immediate win, centre first (empty if all lose)."""
        safe = self.geometry.non_losing(self.current, self.mask)
        return [c for c in self.geometry.centre_order if safe & self.geometry.column_masks[c]]

    def is_won(self) -> bool:
        """Whether the player who just moved has completed a line."""
        return self.geometry.has_line(self.current ^ self.mask)

    def is_full(self) -> bool:
        """Whether no stone can be played any more."""
        return self.moves == self.geometry.cells

    def is_draw(self) -> bool:
        """Whether the board is full and nobody has a line."""
        return self.is_full() and not self.is_won()

    def is_over(self) -> bool:
        """Whether the game has ended by a line or a full board."""
        return self.is_full() or self.is_won()

    def key(self) -> int:
        """A unique integer for this position from the mover's view (Pons: current + mask)."""
        return self.current + self.mask

    def mirrored_key(self) -> int:
        """The key of the mirror-image position."""
        return self.geometry.mirror(self.current) + self.geometry.mirror(self.mask)

    def canonical_key(self) -> int:
        """The key this position and its mirror image share, as tables of positions store them."""
        return self.geometry.canonical_key(self.current, self.mask)

    def children(self) -> Iterator[tuple[int, Position]]:
        """``(column, position)`` for every legal move, centre first."""
        for column in self.legal_columns():
            yield column, self.play(column)
