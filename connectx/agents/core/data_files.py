"""Data the agents ship with (opening books, tables), read through one function.

Agents never open files by path: a Kaggle submission is a single file with no ``__file__``, so
the submission builder replaces ``read_data`` with one that returns the bytes embedded as literals.
"""

from __future__ import annotations

import pkgutil


def read_data(name: str) -> bytes:
    """The bytes of ``agents/data/<name>``."""
    try:
        data = pkgutil.get_data("connectx.agents", "data/" + name)
    except FileNotFoundError:  # the file loader's own error names the path, not what to do
        data = None
    if data is None:
        raise FileNotFoundError(
            f"connectx/agents/data/{name} is missing from the installed package: reinstall it "
            "(`pip install --force-reinstall connectx-*.whl`, or `make install` in a clone)"
        )
    return data
