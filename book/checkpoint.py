"""Solved positions on disk, one JSON line each in a gzip file, appended and flushed as results arrive.

An interrupted generation loses at most the positions being solved at that moment; a rerun
reads the file back and solves only what is missing. The file is committed, so it is kept
compressed: each run appends a gzip member, and every record is flushed (a sync flush: the
stream so far decompresses) as it arrives. What an interrupt leaves (a member with no end, a
line cut short) is read up to the last whole line, and rewritten whole before a run appends.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from book.levels import Solved
from connectx.agents.core.position import Position


def _text(path: Path) -> tuple[str, bool]:
    """The decompressed text of every member of ``path``, and whether the file ended cleanly."""
    data, text = path.read_bytes(), bytearray()
    while data:
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)  # 16 +: a gzip header and trailer around the stream
        try:
            text += member.decompress(data)
        except zlib.error:
            return text.decode(), False
        if not member.eof:
            return text.decode(), False
        data = member.unused_data
    return text.decode(), True


def read_records(path: Path) -> tuple[list[Solved], bool]:
    """The whole records of ``path`` (none if it does not exist), and whether the file ended cleanly."""
    if not path.exists():
        return [], True
    text, clean = _text(path)
    complete, _, torn = text.rpartition("\n")
    records = []
    for number, line in enumerate(complete.splitlines(), 1):
        try:
            records.append(Solved(**json.loads(line)))
        except (ValueError, TypeError) as error:
            message = f"{path}:{number} is not a solved position ({error}): delete the file to start over"
            raise ValueError(message) from error
    return records, clean and not torn


def read_solved(path: Path) -> dict[int, Solved]:
    """The solved positions recorded in ``path`` by canonical key (a torn end is skipped)."""
    return {Position.from_moves(record.moves).canonical_key(): record for record in read_records(path)[0]}


def write_records(path: Path, records: list[Solved]) -> None:
    """``records`` as the whole of ``path``, replaced at once (a reader never sees half a file)."""
    partial = path.with_name(path.name + ".partial")
    with gzip.open(partial, "wt", compresslevel=9) as handle:
        handle.writelines(json.dumps(asdict(record)) + "\n" for record in records)
    os.replace(partial, path)


class Checkpoint:
    """The solved positions so far, keyed by canonical key, backed by an append-only gzip JSONL file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        records, clean = read_records(path)
        self.solved = {Position.from_moves(record.moves).canonical_key(): record for record in records}
        path.parent.mkdir(parents=True, exist_ok=True)
        if not clean:  # an interrupt left a member open: appending after it would be unreadable
            write_records(path, records)
        self._file: TextIO = gzip.open(path, "at", compresslevel=9)

    def add(self, key: int, solved: Solved) -> None:
        """Record one result and flush it to disk at once."""
        self.solved[key] = solved
        self._file.write(json.dumps(asdict(solved)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
