"""``connectx``: one import package for everything the project installs.

The design's parts are its subpackages ``agents`` (what a submission is made of), ``submission``
(the build step and its validation) and ``evaluation`` (the harness); on them stand the exact
``solver``, game ``analysis``, ``play`` for people, the seed ``papers``' report and the ``cli``.
"""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """``__version__``, read from the installed metadata only when asked: the lookup costs every command's start."""
    if name != "__version__":
        raise AttributeError(f"module 'connectx' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("connectx")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0.0.0+unknown"
