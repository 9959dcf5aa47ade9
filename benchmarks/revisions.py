"""Another revision of this repository as a directory of its own: what the before/after benchmarks compare against."""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


class RevisionError(Exception):
    """A revision that names no commit of this repository; the message says what to give instead."""


def commit_of(revision: str) -> str:
    """The full hash of ``revision`` (a hash, HEAD, a branch); RevisionError if it names no commit."""
    found = subprocess.run(["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"], cwd=ROOT,
                           capture_output=True, text=True, check=False)
    if found.returncode != 0:
        raise RevisionError(f"{revision}: not a commit of this repository; give one such as HEAD or a hash")
    return found.stdout.strip()


@contextmanager
def checkout_of(commit: str) -> Iterator[Path]:
    """The files of ``commit`` (``git archive``) in a temporary directory, removed on exit."""
    archive = subprocess.run(["git", "archive", "--format=tar", commit], cwd=ROOT, capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as scratch:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(scratch, filter="data")
        yield Path(scratch)
