"""The tools built on ``agents``, ``submission`` and ``evaluation``: the ``connectx`` command line
(``cli``), play for people (``play``), game analysis (``analysis``), the seed papers' report
(``papers``) and the opening book's generator (``book``)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("connectx")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0.0.0+unknown"
