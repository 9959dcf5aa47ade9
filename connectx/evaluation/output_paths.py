"""Where a command may write: checks of output paths before anything is written, and the error that says why not.

The command line and the human front ends share them, so a bad path is the same one-line error everywhere.
"""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path


class InputError(ValueError):
    """A command-line input that cannot work; the message says what is wrong and what to do instead."""


def check_output_file(path: Path, option: str) -> None:
    """InputError unless a file can be written at ``path`` (its folders created as needed)."""
    if path.is_dir():
        raise InputError(f"{option} {path} is a directory; give the path of a file to write")
    if path.exists():
        try:
            with path.open("ab"):  # opened to append, nothing written: the file stays as it is
                pass
        except OSError as error:
            raise InputError(f"{option} {path} is not writable ({error.strerror}); choose another path") from None
    _check_creatable(path.parent, option, path)


def check_output_directory(path: Path, option: str) -> None:
    """InputError unless ``path`` is a directory that can be written, or can be created."""
    if path.exists() and not path.is_dir():
        raise InputError(f"{option} {path} is a file; give a directory")
    _check_creatable(path, option, path)


def _check_creatable(directory: Path, option: str, target: Path) -> None:
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(
            f"{option} {target}: {existing} is a file, so nothing can be created under it; choose another path"
        )
    # A real file made and removed at once, not os.access: root passes every access check, yet a read-only
    # file system or /proc still refuses.
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        why = "" if error.errno == errno.ENOENT else f" ({error.strerror})"  # /proc and the like: no files at all
        raise InputError(f"{option} {target}: {existing} is not writable{why}; choose another path") from None
