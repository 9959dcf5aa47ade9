"""The toolkit on top of ``agents``, ``submission`` and ``evaluation``: command line, play, analysis, report, book."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("connectx")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0.0.0+unknown"
