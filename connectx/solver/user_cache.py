"""Where the analysis keeps what it builds and proves for one user: outside the package, which may be read-only.

``$CONNECTX_CACHE_DIR`` if set (the tests point it into temporary directories), else
``$XDG_CACHE_HOME/connectx``, else ``~/.cache/connectx``. It holds the compiled C solver
(``solver/``) and the positions analyses have solved (``analysis/``); deleting it loses nothing
that cannot be rebuilt.
"""

from __future__ import annotations

import os
from pathlib import Path

ENVIRONMENT_VARIABLE = "CONNECTX_CACHE_DIR"


def user_cache_directory() -> Path:
    """The per-user cache directory, read from the environment at every call (it need not exist yet)."""
    chosen = os.environ.get(ENVIRONMENT_VARIABLE)
    if chosen:
        return Path(chosen).expanduser()
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base).expanduser() if base else Path.home() / ".cache") / "connectx"
