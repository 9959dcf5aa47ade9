"""Exact scores of 7x6 opening positions for the agents: what ``solver`` plays off the book, and the trap reads,
where no search can prove.

The opening book holds one move per position, which is all perfect play needs. Setting a trap
needs more: the exact score of every reply the opponent has after each of our candidate moves,
and reading the opponent needs the score of every move it could have played. In the opening no
pure-Python search proves those within Kaggle's 2 s, so ``book/agent_scores.py`` writes them
offline from the scores the C solver found (the analysis's table): every position of the first
``complete_plies`` plies, and the book's positions with the second player to move (the replies
the first player had) as deep as the file holds them. Canonical keys, as the book's.

File layout (``agents/data/opening_scores_7x6x4.bin``), little-endian::

    header  "CXS1", rows, columns, inarow, complete_plies (4 bytes), entries (uint32)
    zlib    entries varint deltas of the sorted canonical keys,
            then one signed byte per key: the side to move's exact score (``connectx.agents.core.scores``)
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

from connectx.agents.core.data_files import read_data
from connectx.agents.core.key_deltas import decode_keys, encode_keys, key_index
from connectx.agents.core.position import Position
from connectx.agents.core.scores import finished_score

SCORES_FILE = "opening_scores_7x6x4.bin"
MAGIC = b"CXS1"
HEADER = struct.Struct("<4s4BI")


class OpeningScores:
    """Canonical position keys with their exact scores, for one board; ``complete_plies``: every
    position up to this ply is held (deeper ones only where the file has them)."""

    __slots__ = ("board", "complete_plies", "_keys", "_scores")

    def __init__(self, board: tuple[int, int, int], complete_plies: int, keys: list[int], scores: bytes) -> None:
        self.board = board
        self.complete_plies = complete_plies
        self._keys = keys
        self._scores = scores

    def __len__(self) -> int:
        return len(self._keys)

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` for the side to move, or None where the file does not hold it."""
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != self.board:
            return None
        index = key_index(self._keys, position.canonical_key())
        if index is None:
            return None
        return self._scores[index] - 256 if self._scores[index] > 127 else self._scores[index]  # signed byte

    def column_scores(self, position: Position) -> dict[int, int] | None:
        """Each legal column's exact score for the side to move in ``position`` (not over), as
        ``exact_search.column_scores`` gives it; None if the file lacks a position one leads to."""
        scores: dict[int, int] = {}
        for column, child in position.children():
            over = finished_score(child)
            score = over if over is not None else self.score(child)
            if score is None:
                return None
            scores[column] = -score
        return scores

    def best(self, position: Position) -> tuple[int, int] | None:
        """The column that keeps ``position``'s value by its children's scores, with that score: the soonest
        win or the longest loss, centre first among equals; None where the file lacks a child."""
        scores = self.column_scores(position)
        if not scores:
            return None
        column = max(scores, key=scores.__getitem__)  # the first best: the columns come centre first
        return column, scores[column]


def encode_opening_scores(scores_by_key: dict[int, int], board: tuple[int, int, int], complete_plies: int) -> bytes:
    """The file's bytes for ``{canonical_key: score}`` (the layout in the module docstring)."""
    keys = sorted(scores_by_key)
    body = encode_keys(keys)
    body.extend(scores_by_key[key] & 0xFF for key in keys)
    return HEADER.pack(MAGIC, *board, complete_plies, len(keys)) + zlib.compress(bytes(body), 9)


def decode_opening_scores(data: bytes) -> OpeningScores:
    """Parse the file format described in the module docstring."""
    magic, rows, columns, inarow, complete_plies, count = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"not an opening scores file (magic {magic!r}): regenerate it with `make book`")
    payload = zlib.decompress(data[HEADER.size :])
    keys, offset = decode_keys(payload, count)
    return OpeningScores((rows, columns, inarow), complete_plies, keys, payload[offset : offset + count])


@lru_cache(maxsize=1)
def load_opening_scores() -> OpeningScores:
    """The shipped 7x6x4 scores, decoded once per process."""
    return decode_opening_scores(read_data(SCORES_FILE))
