"""The checks every command runs on its inputs before any side effect, and the error they raise.

A command reads its arguments, runs these checks, and only then shows a progress bar, creates a
directory or writes a file; ``cli.main`` prints an ``InputError`` (like an ``AgentSpecError`` or
a ``RunDirectoryError``) as one line, ``connectx CMD: what is wrong; what to do``, with exit
code 2. Counts are checked by the option types below as the arguments are read.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from agents.agent_spec import AgentSpec
from evaluation.engine import BoardConfig


class InputError(ValueError):
    """A command-line input that cannot work; the message says what is wrong and what to do instead."""


def whole_number(minimum: int) -> Callable[[str], int]:
    """An option type: a whole number of at least ``minimum``."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is too small; give {minimum} or more")
        return value
    parse.__name__ = "whole number"
    return parse


positive_int = whole_number(1)
non_negative_int = whole_number(0)


def positive_seconds(text: str) -> float:
    """An option type: a number of seconds above zero."""
    value = finite_number(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def non_negative_seconds(text: str) -> float:
    """An option type: a number of seconds, zero or more."""
    value = finite_number(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not zero or a positive number of seconds")
    return value


def probability(text: str) -> float:
    """An option type: a rate strictly between 0 and 1."""
    value = finite_number(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (exclusive)")
    return value


def finite_number(text: str) -> float:
    """An option type: any finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def agent_specs(texts: Sequence[str], config: BoardConfig) -> list[AgentSpec]:
    """Each text parsed once and checked against ``config``'s board (AgentSpecError says why not)."""
    specs = [AgentSpec.parse(text) for text in texts]
    for spec in specs:
        spec.check(config.geometry)
    return specs


def check_output_file(path: Path, option: str) -> None:
    """InputError unless a file can be written at ``path`` (its folders created as needed)."""
    if path.is_dir():
        raise InputError(f"{option} {path} is a directory; give the path of a file to write")
    if path.exists() and not os.access(path, os.W_OK):
        raise InputError(f"{option} {path} is not writable; choose another path")
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
        raise InputError(f"{option} {target}: {existing} is a file, so nothing can be created under it; "
                         "choose another path")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(f"{option} {target}: {existing} is not writable; choose another path")
