"""Where a game process notes each move's start and end for its watchdog: a file the parent reads when it must.

A game of fast agents makes about forty such notes. Sent through a pipe, each woke the parent (a
second process scheduled, a read and an unpickling) to learn what it needed only when a move ran
long or the game process died. Appended to a file, a note costs the game process one ``write``
into the page cache and the parent nothing: it reads what is new each time it wakes to check the
clock, and everything, at once, after the game process has died. The file is unlinked as soon as it
is made, so it goes with the last process that holds it, however that ends.

Each note is framed as its length (four bytes) and its pickle, so a reader that meets a note still
being written leaves it for next time. Notes carry ``time.monotonic()`` from the game process: on
Linux and macOS, where games are forked, that clock is the system's, so the parent can compare it
with its own.
"""

from __future__ import annotations

import fcntl
import os
import pickle
import struct
import tempfile
from typing import Any

LENGTH = struct.Struct("<I")
"""The frame before each note: its pickle's length in bytes."""


class MoveJournal:
    """An unlinked file that one game process appends notes to and its parent reads.

    The parent makes it before forking the game process, which inherits the descriptor; both
    share one open file, opened to append, so each ``write`` lands at the end whatever was cleared.
    """

    def __init__(self) -> None:
        self.descriptor, path = tempfile.mkstemp(prefix="connectx-moves-")
        os.unlink(path)
        fcntl.fcntl(self.descriptor, fcntl.F_SETFL, fcntl.fcntl(self.descriptor, fcntl.F_GETFL) | os.O_APPEND)
        self.offset = 0
        """How far the parent has read."""

    def note(self, message: tuple[Any, ...], at: float) -> None:
        """Append ``message`` with its time (the game process's side): one ``write``, so no partial note is left
        behind by anything short of the process dying inside it."""
        data = pickle.dumps((at, message), protocol=pickle.HIGHEST_PROTOCOL)
        framed = memoryview(LENGTH.pack(len(data)) + data)
        while framed:
            framed = framed[os.write(self.descriptor, framed) :]

    def clear(self) -> None:
        """Forget every note (the parent's side, while the game process waits for its next game)."""
        os.ftruncate(self.descriptor, 0)
        self.offset = 0

    def read(self) -> list[tuple[float, tuple[Any, ...]]]:
        """The whole notes written since the last read, oldest first, each with the time it was noted."""
        data = os.pread(self.descriptor, max(0, os.fstat(self.descriptor).st_size - self.offset), self.offset)
        notes = []
        start = 0
        while start + LENGTH.size <= len(data):
            (length,) = LENGTH.unpack_from(data, start)
            end = start + LENGTH.size + length
            if end > len(data):  # still being written
                break
            notes.append(pickle.loads(data[start + LENGTH.size : end]))
            start = end
        self.offset += start
        return notes

    def close(self) -> None:
        os.close(self.descriptor)
