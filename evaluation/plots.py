"""PNG plots of a run with matplotlib's Agg backend (no display needed): score per pairing with its
95% interval, and the distribution of time per move of each agent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from evaluation.statistics import Interval  # noqa: E402


def score_plot(pairings: Sequence[tuple[str, Interval]], path: Path) -> Path:
    """One horizontal bar per pairing: the first agent's score with its Wilson 95% interval."""
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.5 * len(pairings)))
    labels = [label for label, _ in pairings]
    values = [score.value for _, score in pairings]
    errors = [[score.value - score.low for _, score in pairings], [score.high - score.value for _, score in pairings]]
    axes.barh(range(len(pairings)), values, xerr=errors, color="tab:blue", alpha=0.7, capsize=4)
    axes.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    axes.set_yticks(range(len(pairings)), labels)
    axes.set_xlim(0, 1)
    axes.set_xlabel("score of the first agent (wins + draws/2), with its 95% interval")
    axes.invert_yaxis()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def time_plot(durations: Mapping[str, Sequence[float]], act_timeout: float, path: Path) -> Path:
    """A box plot of seconds per move for each agent on a log scale, with actTimeout marked."""
    names = [name for name, values in durations.items() if values]
    figure, axes = plt.subplots(figsize=(8, 1.2 + 0.6 * max(1, len(names))))
    if names:
        axes.boxplot([[max(v, 1e-6) for v in durations[name]] for name in names], orientation="horizontal",
                     whis=(5, 95), showfliers=True, flierprops={"markersize": 2})
        axes.set_yticks(range(1, len(names) + 1), names)
        axes.set_xscale("log")
    axes.axvline(act_timeout, color="tab:red", linestyle="--", linewidth=1, label=f"actTimeout {act_timeout:g}s")
    axes.set_xlabel("seconds per move (box: quartiles, whiskers: 5th-95th percentile)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
