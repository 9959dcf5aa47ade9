"""The conditions a benchmark ran under, printed with its figures: timings mean little without them."""

from __future__ import annotations

import os
import platform

from connectx.evaluation.provenance import cpu_model


def machine_conditions() -> str:
    """The processor, core count, Python version and the load averages (1, 5, 15 min) right now."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"{cpu_model()}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}"


def jobs_phrase(jobs: int) -> str:
    """``1 job`` or ``N jobs``: how many games a benchmark plays at once."""
    return f"{jobs} job" if jobs == 1 else f"{jobs} jobs"
