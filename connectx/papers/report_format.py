"""What the report and its appendix share: their file names, and how a p-value and a paragraph are written."""

from __future__ import annotations

import re

REPORT_FILE = "report.md"
APPENDIX_FILE = "appendix.md"


def p_value_text(value: float) -> str:
    """A p-value to two significant digits (three below 0.1, so that 0.0497 never reads as 0.05)."""
    if value < 1e-4:
        return "< 0.0001"
    return f"{value:.2g}" if value < 0.01 else f"{value:.3g}" if value < 0.1 else f"{value:.2f}"


def p_text(value: float) -> str:
    """``< 0.0001`` or ``= 0.051``: a p-value with its relation, to follow a ``p``."""
    return "< 0.0001" if value < 1e-4 else f"= {value:.2g}"


def sentence_lines(paragraph: str) -> list[str]:
    """A paragraph one sentence a line: Markdown joins them, and no line grows too long to read in a diff."""
    return re.split(r"(?<=[.:])\s+(?=[A-Z*(\"])", paragraph)
