"""What ``connectx validate`` checks of the compiled solver a submission embeds.

A file ``connectx build`` wrote for an agent that uses the compiled solver
(``connectx.agents.search.compiled_solver``) carries the library and ``solver.c``, and loads the
first of them that works on the machine, down to its pure-Python search. So the validator plays
one game more for each fallback (the file against itself, which searches once its book ends),
with ``CONNECTX_CORE`` forcing it, says which core played each
game (the agent says so on stderr), and reads which glibc symbol versions the library needs:
Kaggle's image runs glibc 2.35, and the library is built to need 2.28 at most.
"""

from __future__ import annotations

import re
from typing import Any

from connectx.agents.search.compiled_solver import CORE_VARIABLE, LIBRARY
from connectx.submission import isolated_runner
from connectx.submission.embedded_data import embedded_files

GLIBC_CEILING = (2, 28)
"""The newest glibc the library may need: loadable on Kaggle's 2.35 and on machines a few years older."""
FORCED_CORES = ("source", "python")
"""The fallbacks a game forces, in the order the agent falls back to them."""


def embedded_library(source: str) -> bytes | None:
    """The compiled solver a built submission's text embeds, or None."""
    return embedded_files(source).get(LIBRARY)


def glibc_needed(library: bytes) -> list[tuple[int, ...]]:
    """The glibc symbol versions the library names (``GLIBC_2.17`` as ``(2, 17)``), oldest first."""
    found = {
        tuple(int(part) for part in match.split(b".")) for match in re.findall(rb"GLIBC_([0-9]+(?:\.[0-9]+)+)", library)
    }
    return sorted(found)


def version_text(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))


def forced_core_episodes(seed: int) -> list[dict[str, Any]]:
    """The file against itself for each fallback core, forced by the environment variable the agent reads: both
    seats play the book to its end and then search, so the forced core plays every game."""
    return [
        {
            "name": f"the file against itself, {CORE_VARIABLE}={core}",
            "agents": [isolated_runner.FILE, isolated_runner.FILE],
            "seed": seed + index,
            "environment": {CORE_VARIABLE: core},
            "label": "(h)",
        }
        for index, core in enumerate(FORCED_CORES)
    ]
