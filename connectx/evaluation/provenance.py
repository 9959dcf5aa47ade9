"""What played a game: the commit, a digest of the code that plays games, the CPU model and the games at once.

Every game a match or tournament plays carries this (``GameRecord.provenance``), taken when its
run starts, so a result read months later, or merged from several resumed sittings, still says
which code and which machine produced each of its games. The code digest covers only what decides
a game's moves (the agents, the engine and the game loop), so editing a statistic or a plot keeps
it, and a resumed run can refuse games whose agents changed (``results_store.check_same_code``).
The commit is read from git when the package runs from a checkout; installed from a wheel there is
none, and it is recorded as unknown.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import platform
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectx import agents, evaluation

CPUINFO = Path("/proc/cpuinfo")

GAME_LOOP = ("engine.py", "game_record.py", "game_in_process.py", "game.py", "move_journal.py")
"""The modules of ``evaluation`` that play a game: kaggle-environments' engine, the record a game ends in, the
game played in a process, the watched process around it and the notes by which its watchdog times each move."""

SOURCE_PATHS = ("connectx", "pyproject.toml", "uv.lock")
"""What of a checkout is the package: a difference elsewhere (reports, docs, tests) leaves the tree clean."""


@dataclass(frozen=True)
class Checkout:
    """The git commit the code runs from, whether the package's sources differ from it, and a digest of how."""

    commit: str
    dirty: bool
    difference: str
    """The first 12 hex digits of a SHA-256 over ``git diff HEAD`` and the untracked files of the sources;
    empty when clean."""

    @property
    def text(self) -> str:
        """``commit 1a2b3c4d5e6f`` or ``commit 1a2b3c4d5e6f with uncommitted changes (diff 0a1b2c3d4e5f)``."""
        return f"commit {self.commit[:12]}" + (
            f" with uncommitted changes (diff {self.difference})" if self.dirty else ""
        )


@dataclass(frozen=True)
class Provenance:
    """The code and the machine that played a game."""

    code: str
    """The first 12 hex digits of a SHA-256 over every source file of ``agents``, the game loop
    (``GAME_LOOP``) and the installed kaggle-environments version: the same digest means the same games."""
    cpu: str
    """The CPU model, as the operating system names it."""
    concurrency: int
    """How many games the run played at once (its worker processes, or the cluster's workers)."""
    checkout: Checkout | None = None
    """The commit the games were played from; None when unknown (installed from a wheel, or recorded before
    commits were kept)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"code": self.code, "cpu": self.cpu, "concurrency": self.concurrency}
        if self.checkout is not None:
            data |= {
                "commit": self.checkout.commit,
                "dirty": self.checkout.dirty,
                "difference": self.checkout.difference,
            }
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Provenance:
        checkout = None
        if data.get("commit"):
            checkout = Checkout(str(data["commit"]), bool(data["dirty"]), str(data.get("difference", "")))
        return cls(str(data["code"]), str(data["cpu"]), int(data["concurrency"]), checkout)

    @property
    def commit_text(self) -> str:
        """The commit in words: ``commit ...`` or ``commit unknown``."""
        return "commit unknown" if self.checkout is None else self.checkout.text


def hash_tree(digest: Any, root: Path, prefix: str = "") -> None:
    """Feed ``digest`` every file under ``root`` (its path after ``prefix``, then its bytes), in sorted order,
    byte code caches left out: the same files give the same digest on any machine."""
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(f"{prefix}{path.relative_to(root).as_posix()}".encode())
            digest.update(path.read_bytes())


def code_digest() -> str:
    """The digest of the code that plays games now (see ``Provenance.code``), read from the files on disk."""
    digest = hashlib.sha256()
    hash_tree(digest, Path(agents.__path__[0]), "agents/")
    harness = Path(evaluation.__path__[0])
    for name in GAME_LOOP:
        digest.update(f"evaluation/{name}".encode())
        digest.update((harness / name).read_bytes())
    try:
        digest.update(importlib.metadata.version("kaggle-environments").encode())
    except importlib.metadata.PackageNotFoundError:
        digest.update(b"kaggle-environments not installed")
    return digest.hexdigest()[:12]


def _git(folder: Path, *arguments: str) -> bytes:
    """``git arguments`` run in ``folder``; OSError or CalledProcessError when git or the checkout is missing."""
    return subprocess.run(["git", *arguments], cwd=folder, capture_output=True, check=True, timeout=30).stdout


def current_checkout(package: Path | None = None) -> Checkout | None:
    """The checkout the package (``package``, default the folder ``connectx`` was imported from) runs from.

    None when it is not a git checkout, or when that checkout does not track the package's files
    (a wheel installed into a virtual environment that happens to sit inside some repository).
    """
    # The package's own folder, connectx/, which holds ``agents``.
    folder = Path(package) if package is not None else Path(agents.__path__[0]).parent
    try:
        _git(folder, "ls-files", "--error-unmatch", "__init__.py")
        top = Path(_git(folder, "rev-parse", "--show-toplevel").decode().strip())
        commit = _git(top, "rev-parse", "HEAD").decode().strip()
        changed = _git(top, "diff", "HEAD", "--binary", "--", *SOURCE_PATHS)
        untracked = _git(top, "ls-files", "--others", "--exclude-standard", "-z", "--", *SOURCE_PATHS)
    except (OSError, subprocess.SubprocessError):
        return None
    if not changed and not untracked:
        return Checkout(commit, False, "")
    digest = hashlib.sha256(changed)
    for name in sorted(filter(None, untracked.split(b"\0"))):
        digest.update(name)
        path = top / name.decode()
        if path.is_file():
            digest.update(path.read_bytes())
    return Checkout(commit, True, digest.hexdigest()[:12])


@functools.cache
def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo`` on Linux, else what ``platform`` knows)."""
    try:
        for line in CPUINFO.read_text().splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def run_provenance(concurrency: int) -> Provenance:
    """The provenance of the games a run starts now, ``concurrency`` of them at a time."""
    return Provenance(code_digest(), cpu_model(), concurrency, current_checkout())
