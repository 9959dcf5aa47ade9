"""Another revision of this repository as a directory of its own, and an agent built from it: what the
before/after benchmarks compare against."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from benchmarks.matches import slug

ROOT = Path(__file__).resolve().parent.parent

COMMAND_LINES = ("connectx/cli/main.py", "cli/main.py")
"""Where a revision keeps ``main`` of the command line, newest layout first (``cli/`` moved into ``connectx/``)."""


class RevisionError(Exception):
    """A revision that names no commit of this repository, or an agent it cannot build; the message says why."""


def commit_of(revision: str) -> str:
    """The full hash of ``revision`` (a hash, HEAD, a branch); RevisionError if it names no commit."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
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


def build_agent(checkout: Path, spec: str, output: Path) -> None:
    """``connectx build spec -o output`` with ``checkout``'s code, in whichever layout it has; RevisionError
    with the build's own message."""
    command_line = next((path for path in COMMAND_LINES if (checkout / path).is_file()), None)
    if command_line is None:
        raise RevisionError(f"building {spec} from {checkout} failed: it has no {' or '.join(COMMAND_LINES)}")
    module = command_line.removesuffix(".py").replace("/", ".")
    built = subprocess.run(
        [sys.executable, "-m", module, "build", spec, "-o", str(output)],
        cwd=checkout,
        env={**os.environ, "PYTHONPATH": str(checkout)},
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0:
        reason = (built.stderr.strip().splitlines() or [f"exit {built.returncode}"])[-1]
        raise RevisionError(f"building {spec} from {checkout} failed: {reason}")


def revision_agent(commit: str, spec: str, into: Path) -> Path:
    """The agent file of ``spec`` as ``commit`` builds it, kept in ``into`` (built once: the bundle is
    deterministic); RevisionError when the build fails."""
    output = into / f"{slug(spec)}-{commit[:12]}.py"
    if not output.exists():
        into.mkdir(parents=True, exist_ok=True)
        with checkout_of(commit) as checkout, tempfile.TemporaryDirectory() as scratch:
            built = Path(scratch) / output.name
            build_agent(checkout, spec, built)
            output.write_bytes(built.read_bytes())
    return output
