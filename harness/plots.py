"""PNG plots of a run with matplotlib's Agg backend (no display needed): score per pairing with its
95% interval, and the distribution of time per move of each agent."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from harness.statistics import Interval  # noqa: E402


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


def interval_series_plot(series: Mapping[str, Sequence[tuple[str | float, Interval]]], path: Path, *, xlabel: str,
                         ylabel: str, title: str = "", reference: Sequence[tuple[str, str | float, float]] = (),
                         log_y: bool = False, unit_range: bool = True) -> Path:
    """One line per series with a 95% interval bar at each point; ``reference`` marks (series, x, value).

    x values are categories (strings, placed in order of first appearance) or numbers; ``unit_range``
    fixes the y axis to [0, 1] for rates and scores.
    """
    categorical = any(isinstance(x, str) for points in series.values() for x, _ in points)
    order: list[str | float] = []
    for points in series.values():
        order += [x for x, _ in points if x not in order]
    place = (lambda x: float(order.index(x))) if categorical else float
    figure, axes = plt.subplots(figsize=(8, 4.5))
    colours = {}
    for offset, (name, points) in enumerate(series.items()):
        shift = 0.06 * (offset - (len(series) - 1) / 2) if categorical else 0.0
        xs = [place(x) + shift for x, _ in points]
        values = [interval.value for _, interval in points]
        # max(0, ...): Wilson's end at 0% or 100% can round a hair past the value itself.
        errors = [[max(0.0, i.value - i.low) for _, i in points], [max(0.0, i.high - i.value) for _, i in points]]
        line = axes.errorbar(xs, values, yerr=errors, marker="o", capsize=4, label=name)
        colours[name] = line[0].get_color()
    for name, x, value in reference:
        axes.plot([place(x)], [value], marker="*", markersize=14, linestyle="none",
                  color=colours.get(name, "black"), markeredgecolor="black")
    if reference:
        axes.plot([], [], marker="*", markersize=10, linestyle="none", color="grey", markeredgecolor="black",
                  label="the paper's number")
    if categorical:
        axes.set_xticks(range(len(order)), [str(x) for x in order])
    if unit_range:
        axes.set_ylim(-0.02, 1.02)
    if log_y:
        axes.set_yscale("log")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    if title:
        axes.set_title(title)
    axes.grid(alpha=0.3)
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
