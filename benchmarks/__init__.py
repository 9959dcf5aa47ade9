"""The benchmarks: scripts run as modules (``python -m benchmarks.<name>``), the helpers they share,
and the data they keep in the repository (``RESULTS``) apart from the code.

``make bench`` runs the quick figures; ``make bench-long`` the experiments that take hours.
"""

from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
"""The benchmarks' committed data: stored games (``other-boards/``, ``open_board_games.jsonl``) and
exactly scored positions (``evaluation_positions.txt``)."""
