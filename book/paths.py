"""Where the book's tools read and write: the repository they stand in, never an installed package.

These tools are not installed (the wheel holds ``connectx`` alone); they run from a clone, as
``python -m book.<tool>`` in its root, and write the repository's files: the book the agents
ship, the analysis's table, and the committed checkpoints of hours of solving.
"""

from __future__ import annotations

from pathlib import Path

BOOK_TOOLS = Path(__file__).resolve().parent
REPOSITORY = BOOK_TOOLS.parent
SOLVED = BOOK_TOOLS / "solved"
"""The committed checkpoints (gzip JSON lines, see ``checkpoint``): what a later run or machine resumes from."""
BOOK_POSITIONS = SOLVED / "book_positions.jsonl.gz"
"""Every position the book's generation solved, with our move there."""
BOOK_WALL_SECONDS = SOLVED / "book_wall_seconds.json"
BOOK_FILE = REPOSITORY / "connectx" / "agents" / "data" / "opening_book_7x6x4.bin"
"""The book the agents read (package data of ``connectx.agents``)."""
BOOK_STATS = BOOK_TOOLS / "book_stats.json"
BOOK_SAMPLE = BOOK_TOOLS / "book_sample.json"
OPENING_TABLE = REPOSITORY / "connectx" / "analysis" / "data" / "exact_scores_7x6.npz"
"""The analysis's table of exact opening scores (package data of ``connectx.analysis``)."""
POSITIONS = REPOSITORY / "positions"
"""Pons' benchmark position files."""


def opening_scores(ply: int) -> Path:
    """The checkpoint of every position of ``ply`` solved exactly (``opening_scores``)."""
    return SOLVED / f"opening_scores_ply{ply}.jsonl.gz"


def opening_scores_by_ply() -> dict[int, Path]:
    """The checkpoint of every ply ``opening_scores`` has worked on, by ply."""
    return {
        int(path.name.removeprefix("opening_scores_ply").partition(".")[0]): path
        for path in SOLVED.glob("opening_scores_ply*.jsonl.gz")
    }
