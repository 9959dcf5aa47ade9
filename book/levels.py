"""The positions a book strategy reaches, one ply level at a time.

Our side plays only the move the book chose; the opponent's every reply is expanded. Positions
are merged under their canonical key (mirror pairs and transpositions count once), and each
carries a floor: the score the side to move is already known to reach, because the parent's
score for us cannot drop whatever the opponent replies. The floor only saves solver work.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from connectx.agents.core.position import Position


@dataclass(frozen=True)
class Solved:
    """A solved book position: the moves reaching it, its exact score and our column there."""

    moves: str
    score: int
    column: int
    nodes: int
    seconds: float


@dataclass(frozen=True)
class Task:
    """A position to solve: its moves (a representative of its mirror/transposition class) and floor."""

    moves: str
    floor: int


def canonical_column(solved: Solved) -> int:
    """``solved.column`` as seen on the canonical (possibly mirrored) board, as the book stores it."""
    position = Position.from_moves(solved.moves)
    if position.key() <= position.mirrored_key():
        return solved.column
    return position.geometry.columns - 1 - solved.column


def root_level(ply: int) -> dict[int, Task]:
    """The first level of a side's tree: the empty board (ply 0) or every first move (ply 1)."""
    start = Position.from_moves("")
    if ply == 0:
        return {start.canonical_key(): Task("", -100)}
    level: dict[int, Task] = {}
    for column, child in start.children():
        level.setdefault(child.canonical_key(), Task(str(column + 1), -100))
    return level


def next_level(solved_level: Iterable[Solved]) -> dict[int, Task]:
    """The positions two plies deeper: our book move, then every reply that does not end the game."""
    level: dict[int, Task] = {}
    for solved in sorted(solved_level, key=lambda s: s.moves):
        position = Position.from_moves(solved.moves)
        if position.is_winning_move(solved.column):
            continue
        after_ours = position.play(solved.column)
        for reply in after_ours.legal_columns():
            if after_ours.is_winning_move(reply):
                continue
            child = after_ours.play(reply)
            if child.is_full():
                continue
            key = child.canonical_key()
            moves = f"{solved.moves}{solved.column + 1}{reply + 1}"
            known = level.get(key)
            if known is None:
                level[key] = Task(moves, solved.score)
            elif solved.score > known.floor:
                level[key] = Task(known.moves, solved.score)
    return level
