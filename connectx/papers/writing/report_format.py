"""What the report and its appendix share: their file names, and how a paragraph is written."""

from __future__ import annotations

import re

REPORT_FILE = "report.md"
APPENDIX_FILE = "appendix.md"


def sentence_lines(paragraph: str) -> list[str]:
    """A paragraph one sentence a line: Markdown joins them, and no line grows too long to read in a diff."""
    return re.split(r"(?<=[.:])\s+(?=[A-Z*(\"])", paragraph)
