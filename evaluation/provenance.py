"""What played a game: a digest of the code, the CPU model and how many games ran at once.

Every game a match or tournament plays carries this (``GameRecord.provenance``), taken when its
run starts, so a result read months later, or merged from several resumed sittings, still says
which code and which machine produced each of its games.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectx import agents, evaluation

CPUINFO = Path("/proc/cpuinfo")


@dataclass(frozen=True)
class Provenance:
    """The code and the machine that played a game."""

    code: str
    """The first 12 hex digits of a SHA-256 over every source file of ``agents`` and ``evaluation`` and the
    installed kaggle-environments version: the same digest means the same agents and the same harness."""
    cpu: str
    """The CPU model, as the operating system names it."""
    concurrency: int
    """How many games the run played at once (its worker processes, or the cluster's workers)."""

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "cpu": self.cpu, "concurrency": self.concurrency}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Provenance:
        return cls(str(data["code"]), str(data["cpu"]), int(data["concurrency"]))


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
    for package in (agents, evaluation):
        hash_tree(digest, Path(package.__path__[0]), f"{package.__name__.removeprefix('connectx.')}/")
    try:
        digest.update(importlib.metadata.version("kaggle-environments").encode())
    except importlib.metadata.PackageNotFoundError:
        digest.update(b"kaggle-environments not installed")
    return digest.hexdigest()[:12]


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
    return Provenance(code_digest(), cpu_model(), concurrency)
