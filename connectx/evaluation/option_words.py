"""Errors whose remedy names an option: in the Python API's words by default, in flags only on the command line.

A run's directory may hold another run, a plan may ask for no games, a port may be taken: the fix is
an option, which a notebook sets as ``resume=True`` and a shell as ``--resume``. Such an error keeps
its message as a template whose ``{name}`` fields are options (and its facts: paths, digests);
``str(error)`` fills the options with ``PYTHON_WORDS``, and a command line (``connectx``'s, a
benchmark's) calls ``flag_words``, so one message serves both and the library never speaks in flags.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


class Words(dict[str, str]):
    """How a front end names each option: the listed exceptions, else ``spell(name)``."""

    def __init__(self, spell: Callable[[str], str], exceptions: Mapping[str, str]) -> None:
        super().__init__(exceptions)
        self.spell = spell

    def __missing__(self, name: str) -> str:
        return self.spell(name)


PYTHON_WORDS = Words(str, {"resume": "resume=True", "allow_code_change": "allow_code_change=True"})
"""The options as the Python API names them: ``PlayOptions``' and the plans' fields."""


class _Fields(dict[str, Any]):
    """A template's facts, then its options in ``words``: what ``str.format_map`` looks names up in."""

    def __init__(self, facts: Mapping[str, Any], words: Mapping[str, str]) -> None:
        super().__init__(facts)
        self.words = words

    def __missing__(self, name: str) -> str:
        return self.words[name]


class OptionWords(Exception):
    """An error whose message names options as ``{option}`` fields and its facts as named values."""

    def __init__(self, template: str, **facts: Any) -> None:
        self.template = template
        self.facts = facts
        super().__init__(self.worded(PYTHON_WORDS))

    def worded(self, words: Mapping[str, str]) -> str:
        """The message, each option named as ``words`` names it."""
        return self.template.format_map(_Fields(self.facts, words))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from the template and facts when it crosses a process (a Dask worker's error), not its text.
        return (_rebuilt, (type(self), self.template, self.facts))


def _rebuilt(kind: type[OptionWords], template: str, facts: dict[str, Any]) -> OptionWords:
    return kind(template, **facts)


FLAGS = Words(
    lambda name: "--" + name.replace("_", "-"),
    {"opening_plies": "--openings", "output": "-o", "analysis_seconds": "--analysis-time"},
)
"""The options as the command lines' flags (``--resume``, ``--openings``): what only a command line reads."""


def flag_words(error: Exception) -> str:
    """The error's message as a command line shows it: the options it names (an ``OptionWords``'s) as flags."""
    return error.worded(FLAGS) if isinstance(error, OptionWords) else str(error)


class OptionError(OptionWords, ValueError):
    """An option's value that cannot work (no games, an unknown pool, no workers): what is wrong and which to change."""
