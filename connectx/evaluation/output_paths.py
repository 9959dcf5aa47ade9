"""Where a run or a front end may write: output paths checked before anything is written, and the error saying why.

The command line and the human front ends share them, so a bad path is the same one-line error everywhere. A
path is named by its option (``out``, ``html``), which the command line words as its flag.
"""

from __future__ import annotations

import errno
import tempfile
from pathlib import Path

from connectx.evaluation.option_words import OptionError


class OutputPathError(OptionError):
    """An output path that cannot be written: which option gave it, what is wrong and what to do instead."""


def check_output_file(path: Path, option: str) -> None:
    """OutputPathError unless a file can be written at ``path`` (its folders created as needed)."""
    if path.is_dir():
        raise OutputPathError(f"{{{option}}} {{path}} is a directory; give the path of a file to write", path=path)
    if path.exists():
        try:
            with path.open("ab"):  # opened to append, nothing written: the file stays as it is
                pass
        except OSError as error:
            raise OutputPathError(
                f"{{{option}}} {{path}} is not writable ({{why}}); choose another path", path=path, why=error.strerror
            ) from None
    _check_creatable(path.parent, option, path)


def check_output_directory(path: Path, option: str) -> None:
    """OutputPathError unless ``path`` is a directory that can be written, or can be created."""
    if path.exists() and not path.is_dir():
        raise OutputPathError(f"{{{option}}} {{path}} is a file; give a directory", path=path)
    _check_creatable(path, option, path)


def _check_creatable(directory: Path, option: str, target: Path) -> None:
    existing = directory
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputPathError(
            f"{{{option}}} {{path}}: {{existing}} is a file, so nothing can be created under it; choose another path",
            path=target,
            existing=existing,
        )
    # A real file made and removed at once, not os.access: root passes every access check, yet a read-only
    # file system or /proc still refuses.
    try:
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as error:
        why = "" if error.errno == errno.ENOENT else f" ({error.strerror})"  # /proc and the like: no files at all
        raise OutputPathError(
            f"{{{option}}} {{path}}: {{existing}} is not writable{{why}}; choose another path",
            path=target,
            existing=existing,
            why=why,
        ) from None
