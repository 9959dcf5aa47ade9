"""Sorted position keys as varint deltas: how the agents' data files (the book, the opening scores) store keys.

Neighbouring canonical keys are close, so their differences take two or three bytes where a key
takes eight, and zlib packs them further. One writer and one reader for every file that holds keys,
and one lookup for every table kept as sorted keys beside their values.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence


def encode_keys(keys: Sequence[int]) -> bytearray:
    """``keys`` (sorted ascending) as varint differences from the previous key, the first from 0."""
    body = bytearray()
    previous = 0
    for key in keys:
        delta, previous = key - previous, key
        while delta >= 0x80:
            body.append(0x80 | (delta & 0x7F))
            delta >>= 7
        body.append(delta)
    return body


def decode_keys(payload: bytes, count: int) -> tuple[list[int], int]:
    """The first ``count`` keys ``encode_keys`` wrote at the start of ``payload``, and the offset just past them."""
    keys: list[int] = []
    key = delta = shift = offset = 0
    while len(keys) < count:
        byte = payload[offset]
        offset += 1
        delta |= (byte & 0x7F) << shift  # varint: 7 bits per byte, low bits first
        shift += 7
        if byte < 0x80:  # no continuation bit: the delta is complete
            key += delta
            keys.append(key)
            delta = shift = 0
    return keys, offset


def key_index(keys: Sequence[int], key: int) -> int | None:
    """Where ``key`` stands in the sorted ``keys`` (the index of its value beside them), None if absent."""
    index = bisect.bisect_left(keys, key)
    return index if index < len(keys) and keys[index] == key else None
