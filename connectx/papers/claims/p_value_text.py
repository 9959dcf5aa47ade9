"""How a p-value is written, in a claim's evidence and in the report: one wording for both."""

from __future__ import annotations


def p_value_text(value: float) -> str:
    """A p-value to two significant digits (three below 0.1, so that 0.0497 never reads as 0.05)."""
    if value < 1e-4:
        return "< 0.0001"
    return f"{value:.2g}" if value < 0.01 else f"{value:.3g}" if value < 0.1 else f"{value:.2f}"


def p_text(value: float) -> str:
    """``< 0.0001`` or ``= 0.051``: a p-value with its relation, to follow a ``p``."""
    return "< 0.0001" if value < 1e-4 else f"= {value:.2g}"
