"""The conditions a benchmark ran under, printed with its figures: timings mean little without them."""

from __future__ import annotations

import os
import platform
from pathlib import Path

CPU_INFO = Path("/proc/cpuinfo")


def processor_name(cpu_info: Path = CPU_INFO) -> str:
    """The processor's model, as Linux names it (``platform.processor()`` is empty there), else what
    ``platform`` knows."""
    if cpu_info.is_file():
        for line in cpu_info.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and value.strip():
                return value.strip()
    return platform.processor() or platform.machine()


def machine_conditions() -> str:
    """The processor, core count, Python version and the load averages (1, 5, 15 min) right now."""
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return f"{processor_name()}, {os.cpu_count()} cores, Python {platform.python_version()}, load {load}"


def jobs_phrase(jobs: int) -> str:
    """``1 job`` or ``N jobs``: how many games a benchmark plays at once."""
    return f"{jobs} job" if jobs == 1 else f"{jobs} jobs"
