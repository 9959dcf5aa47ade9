"""The installed package's own requirements: those a command imports are checked before it runs.

A wheel installed with ``pip install --no-deps`` (the Kaggle notebook recipe), or an environment
that lost a package or holds one too old, would otherwise end in a traceback deep inside a command
(``No module named 'numpy'``), or inside a game's process where nobody reads it. Yet a command must
not be held back by a package only another command imports: each names the distributions it needs
(``NEEDS``), and only those are checked. The versions are read from the installed distribution's
metadata, so what is checked is what ``pyproject.toml`` declares, never a copy kept by hand.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
from collections.abc import Iterable

DISTRIBUTION = "connectx"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
"""A requirement's distribution name: what comes before its version specifier."""


def declared_requirements(distribution: str = DISTRIBUTION) -> list[str]:
    """The requirements every install of ``distribution`` needs, as declared (``numpy>=1.26``).

    A requirement with a marker (an extra's, such as the cluster's) is optional, so it is left to the
    command that needs it. Run from a source tree that was never installed, nothing is declared: empty.
    """
    try:
        requires = importlib.metadata.requires(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    # Older metadata writes `numpy (>=1.26)`; pip takes `numpy>=1.26`.
    return [re.sub(r"[\s()]", "", requirement) for requirement in requires if ";" not in requirement]


def requirements(names: Iterable[str], distribution: str = DISTRIBUTION) -> list[str]:
    """The declared requirements of the distributions ``names`` (``["numpy"]``: ``["numpy>=1.26"]``), in declared
    order: a command names what it needs, the installed metadata says how new."""
    wanted = set(names)
    return [
        requirement for requirement in declared_requirements(distribution) if distribution_name(requirement) in wanted
    ]


def distribution_name(requirement: str) -> str:
    """The distribution a requirement names: ``kaggle-environments`` of ``kaggle-environments>=1.9.7``."""
    match = _NAME.match(requirement)
    if match is None:
        raise ValueError(f"{requirement!r} is not a requirement")
    return match.group()


def import_name(requirement: str) -> str:
    """The module a requirement installs: its distribution's name normalized (``kaggle_environments``).

    True of every distribution this package requires (tests/test_dependencies.py checks their files),
    and the only name known for a distribution that is not installed.
    """
    return re.sub(r"[-.]+", "_", distribution_name(requirement)).lower()


def is_importable(module: str) -> bool:
    """Whether ``import module`` would find it, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def floors(requirement: str) -> list[str]:
    """The versions ``requirement`` must reach (``numpy>=1.26``: ``["1.26"]``): the project declares only floors."""
    return re.findall(r">=\s*([0-9][0-9.]*)", requirement[len(distribution_name(requirement)) :])


def release(version: str) -> tuple[int, ...]:
    """The numbers of a version's release (``1.26.1rc1``: ``(1, 26, 1)``), trailing zeros dropped: 1.26 == 1.26.0."""
    leading = re.match(r"[0-9]+(?:\.[0-9]+)*", version)
    numbers = [int(part) for part in leading.group().split(".")] if leading else []
    while numbers and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def installed_version(requirement: str) -> str | None:
    """The version of the distribution ``requirement`` names, or None when it has no metadata."""
    try:
        return importlib.metadata.version(distribution_name(requirement))
    except importlib.metadata.PackageNotFoundError:
        return None


def problem(requirement: str) -> str | None:
    """What is wrong with ``requirement`` here, or None: its module cannot be imported, or its version is below a
    floor. A module importable without metadata (vendored, say) has no version to compare: it passes."""
    name = distribution_name(requirement)
    if not is_importable(import_name(requirement)):
        return f"{name} is not installed"
    version = installed_version(requirement)
    if version is not None and any(release(version) < release(floor) for floor in floors(requirement)):
        return f"{name} {version} is older than connectx needs"
    return None


def problem_lines(requirements: list[str]) -> list[str]:
    """One line per requirement that is missing or too old, naming the install that fixes it."""
    lines = []
    for requirement in requirements:
        found = problem(requirement)
        if found is not None:
            lines.append(f'{found}: pip install "{requirement}"')
    return lines


def unmet(names: Iterable[str]) -> list[str]:
    """One line per distribution of ``names`` that is missing or too old, naming its install; empty when all are met."""
    return problem_lines(requirements(names))
