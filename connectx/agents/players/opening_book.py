"""The 7x6 connect-4 opening book: the move to play in every position our book strategy reaches.

CPython cannot solve early connect-4 positions inside Kaggle's 2 s per move, so ``book/generate.py``
solves them offline with a C solver and stores, for each position, one column. The book is a
*strategy*: as first player it holds our chosen move after every possible opponent reply (winning
lines, fastest win first); as second player the best defence. Positions are stored once per
mirror pair under the canonical key ``min(key, mirrored_key)`` (``key = current + mask``); a column
stored for the mirrored key is mirrored back on lookup.

File layout (``agents/data/opening_book_7x6x4.bin``), little-endian::

    header  "CXB1", rows, columns, inarow, first_player_plies, second_player_plies (5 bytes),
            entries (uint32)
    zlib    entries varint deltas of the sorted canonical keys,
            then the columns, two 4-bit columns per byte (low nibble first)
"""

from __future__ import annotations

import struct
import zlib
from functools import lru_cache

from connectx.agents.core.data_files import read_data
from connectx.agents.core.key_deltas import decode_keys, key_index
from connectx.agents.core.position import geometry

BOOK_FILE = "opening_book_7x6x4.bin"
MAGIC = b"CXB1"
HEADER = struct.Struct("<4s5BI")


class OpeningBook:
    """Canonical position keys with the column to play, for one board geometry.

    ``first_player_plies`` and ``second_player_plies`` are the deepest ply (stones on the board)
    at which the book holds a move for that side, so callers can say how deep it reaches.
    """

    __slots__ = ("rows", "columns", "inarow", "first_player_plies", "second_player_plies", "_keys", "_columns")

    def __init__(
        self,
        rows: int,
        columns: int,
        inarow: int,
        first_player_plies: int,
        second_player_plies: int,
        keys: list[int],
        stored_columns: bytes,
    ) -> None:
        self.rows = rows
        self.columns = columns
        self.inarow = inarow
        self.first_player_plies = first_player_plies
        self.second_player_plies = second_player_plies
        self._keys = keys
        self._columns = stored_columns

    def __len__(self) -> int:
        return len(self._keys)

    def move_for(self, rows: int, columns: int, inarow: int, current: int, mask: int) -> int | None:
        """The 0-based column to play, or None when the book does not know this position.

        None means: another board geometry, a position deeper than the book, or one the book's
        strategy never reaches (the agent should then search).
        """
        if (rows, columns, inarow) != (self.rows, self.columns, self.inarow):
            return None
        canonical = geometry(rows, columns, inarow).canonical_key(current, mask)
        stored = self._lookup(canonical)
        if stored is None:
            return None
        return stored if current + mask == canonical else columns - 1 - stored  # stored for the mirror: mirror it back

    def entries(self) -> list[tuple[int, int]]:
        """Every ``(canonical_key, stored_column)`` pair, in key order (for tests and tools)."""
        return [(key, self._columns[index]) for index, key in enumerate(self._keys)]

    def _lookup(self, canonical_key: int) -> int | None:
        index = key_index(self._keys, canonical_key)
        return None if index is None else self._columns[index]


def decode_opening_book(data: bytes) -> OpeningBook:
    """Parse the book file format described in the module docstring."""
    magic, rows, columns, inarow, first_plies, second_plies, count = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise ValueError(f"not an opening book (magic {magic!r}): regenerate it with `make book`")
    payload = zlib.decompress(data[HEADER.size :])
    keys, position = decode_keys(payload, count)
    packed = payload[position:]
    stored_columns = bytearray(count)
    stored_columns[0::2] = bytes(byte & 0x0F for byte in packed[: (count + 1) // 2])
    stored_columns[1::2] = bytes(byte >> 4 for byte in packed[: count // 2])
    return OpeningBook(rows, columns, inarow, first_plies, second_plies, keys, bytes(stored_columns))


@lru_cache(maxsize=1)
def load_opening_book() -> OpeningBook:
    """The shipped 7x6x4 book, decoded once per process (about a quarter of a second)."""
    return decode_opening_book(read_data(BOOK_FILE))
