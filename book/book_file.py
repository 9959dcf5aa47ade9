"""Write the opening book file that ``agents/players/opening_book.py`` reads (format in its docstring)."""

from __future__ import annotations

import zlib
from collections.abc import Mapping

from connectx.agents.core.key_deltas import encode_keys
from connectx.agents.players.opening_book import HEADER, MAGIC


def encode_opening_book(
    columns_by_key: Mapping[int, int],
    rows: int,
    columns: int,
    inarow: int,
    first_player_plies: int,
    second_player_plies: int,
) -> bytes:
    """The book bytes for ``{canonical_key: stored_column}`` (columns already in canonical orientation)."""
    keys = sorted(columns_by_key)
    body = encode_keys(keys)
    stored = [columns_by_key[key] for key in keys] + [0]
    body.extend(stored[i] | (stored[i + 1] << 4) for i in range(0, len(keys), 2))
    header = HEADER.pack(MAGIC, rows, columns, inarow, first_player_plies, second_player_plies, len(keys))
    return header + zlib.compress(bytes(body), 9)
