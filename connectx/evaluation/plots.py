"""PNG plots with matplotlib's Agg backend (no display needed): score per pairing with its 95% interval,
the distribution of time per move of each agent, rates along a series, and tables of rates as heat maps."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib
import matplotlib.ticker
import numpy as np

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from connectx.evaluation.statistics.elo import Interval  # noqa: E402


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
        axes.boxplot(
            [[max(v, 1e-6) for v in durations[name]] for name in names],
            orientation="horizontal",
            whis=(5, 95),
            showfliers=True,
            flierprops={"markersize": 2},
        )
        axes.set_yticks(range(1, len(names) + 1), names)
        axes.set_xscale("log")
        # Plain numbers (0.001, 0.1, 10): the default 10^k labels start matplotlib's mathtext parser, a second's work.
        axes.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        # A mark a decade: the eight unlabelled minor ticks of each would take half the figure's drawing time.
        axes.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    axes.axvline(act_timeout, color="tab:red", linestyle="--", linewidth=1, label=f"actTimeout {act_timeout:g}s")
    axes.set_xlabel("seconds per move (box: quartiles, whiskers: 5th-95th percentile)")
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path


def interval_series_plot(
    series: Mapping[str, Sequence[tuple[str | float, Interval]]],
    path: Path,
    *,
    xlabel: str,
    ylabel: str,
    title: str = "",
    reference: Sequence[tuple[str, str | float, float]] = (),
    log_y: bool = False,
    unit_range: bool = True,
    log_x: bool = False,
    lines: Sequence[tuple[str, float, str]] = (),
    x_unit: str = "",
    connect: bool = True,
) -> Path:
    """One line per series with a 95% interval bar at each point; ``reference`` marks (series, x, value).

    x values are categories (strings, placed in order of first appearance) or numbers, on a log
    axis with ``log_x`` (labelled with ``x_unit``). With ``unit_range`` the values are rates: the
    y axis is in percent, zoomed to the intervals and the paper's values, with a 50% line where
    it falls inside. ``lines`` are (series, value, label): the paper's figure for a whole series,
    drawn across that series' x range. Without ``connect`` the points stand alone (categories with no order).
    """
    categorical = any(isinstance(x, str) for points in series.values() for x, _ in points)
    order: list[str | float] = []
    for points in series.values():
        order += [x for x, _ in points if x not in order]
    place = (lambda x: float(order.index(x))) if categorical else float
    figure, axes = plt.subplots(figsize=(7.5, 4.5))
    colours = {}
    markers = "osD^v<>ph"
    for offset, (name, points) in enumerate(series.items()):
        if categorical:
            xs = [place(x) + 0.07 * (offset - (len(series) - 1) / 2) for x, _ in points]
        else:
            # Dodge on a log axis by a constant factor, so overlapping bars stay apart at every decade.
            factor = 1.04 ** (offset - (len(series) - 1) / 2) if log_x else 1.0
            xs = [place(x) * factor for x, _ in points]
        values = [interval.value for _, interval in points]
        # max(0, ...): Wilson's end at 0% or 100% can round a hair past the value itself.
        errors = [[max(0.0, i.value - i.low) for _, i in points], [max(0.0, i.high - i.value) for _, i in points]]
        line = axes.errorbar(
            xs,
            values,
            yerr=errors,
            marker=markers[offset % len(markers)],
            markersize=5,
            capsize=3,
            linewidth=1.4 if connect else 0,
            elinewidth=1,
            label=name,
        )
        colours[name] = line[0].get_color()
    for name, x, value in reference:
        axes.plot(
            [place(x)],
            [value],
            marker="*",
            markersize=13,
            linestyle="none",
            color=colours.get(name, "black"),
            markeredgecolor="black",
            zorder=5,
        )
    if reference:
        axes.plot(
            [],
            [],
            marker="*",
            markersize=10,
            linestyle="none",
            color="white",
            markeredgecolor="black",
            label="paper's number (text)",
        )
    for name, value, label in lines:
        xs = [place(x) for x, _ in series.get(name, [])] or [place(x) for x in order]
        axes.hlines(
            value,
            min(xs),
            max(xs),
            colors=colours.get(name, "black"),
            linestyles="--",
            linewidth=1.5,
            label=label,
            zorder=4,
        )
    if categorical:
        long_labels = max(len(str(x)) for x in order) > 60 / len(order)
        axes.set_xticks(
            range(len(order)),
            [str(x) for x in order],
            rotation=20 if long_labels else 0,
            ha="right" if long_labels else "center",
        )
        axes.set_xlim(-0.5, len(order) - 0.5)
    elif log_x:
        axes.set_xscale("log")
        ticks = sorted(float(x) for x in order)
        axes.set_xticks(ticks, [f"{x:g}" + (f" {x_unit}" if x_unit else "") for x in ticks])
        axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        axes.set_xlim(ticks[0] / 1.4, ticks[-1] * 1.4)
    if unit_range:
        _zoom_to_rates(axes, series, [value for _, _, value in reference] + [value for _, value, _ in lines])
    if log_y:
        axes.set_yscale("log")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    if title:
        axes.set_title(textwrap.fill(title, 80), fontsize="medium")
    axes.grid(alpha=0.3, which="major")
    if len(series) + bool(reference) + len(lines) > 2:
        # Beside the axes, where no point or interval can hide behind it.
        figure.set_figwidth(9.5)
        axes.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    else:
        axes.legend(fontsize="small", loc="best", framealpha=0.85)
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
    return path


def _zoom_to_rates(
    axes: Any, series: Mapping[str, Sequence[tuple[str | float, Interval]]], extra: Sequence[float]
) -> None:
    """A y axis in percent spanning the intervals and ``extra`` values with a margin, and the 50% line if inside."""
    ends = [v for points in series.values() for _, i in points for v in (i.low, i.high)] + list(extra)
    low, high = (min(ends), max(ends)) if ends else (0.0, 1.0)
    margin = max(0.02, 0.06 * (high - low))
    low, high = max(0.0, low - margin), min(1.0, high + margin)
    if high - low < 0.1:
        low, high = max(0.0, min(low, high - 0.1)), min(1.0, max(high, low + 0.1))
    axes.set_ylim(low - 0.005, high + 0.005)
    if low <= 0.5 <= high:
        axes.axhline(0.5, color="grey", linewidth=1, linestyle=":", zorder=1)
    axes.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))


def heat_map(
    values: Sequence[Sequence[Interval | None]],
    path: Path,
    *,
    rows: Sequence[str],
    columns: Sequence[str],
    xlabel: str,
    ylabel: str,
    title: str,
    colour_label: str,
    notes: Sequence[Sequence[str]] | None = None,
) -> Path:
    """A table of rates as a heat map, rows top to bottom as given; each cell shows its rate and interval.

    The colour scale runs from 0% to 100% with white at 50%, so who is ahead reads at a glance;
    ``notes[r][c]`` adds a line under a cell's numbers (the games, the other side's rate). A None
    cell was not played and stays blank.
    """
    data = np.array([[math.nan if v is None else v.value for v in row] for row in values], dtype=float)
    width = 1.6 + 1.25 * len(columns)
    figure, axes = plt.subplots(figsize=(width, 1.4 + 0.85 * len(rows)))
    image = axes.imshow(np.ma.masked_invalid(data), cmap="RdBu", vmin=0.0, vmax=1.0, aspect="auto")
    for r, row in enumerate(values):
        for c, interval in enumerate(row):
            if interval is None:
                continue
            dark = abs(interval.value - 0.5) > 0.3
            text = f"{100 * interval.value:.0f}%\n[{100 * interval.low:.0f}, {100 * interval.high:.0f}]"
            if notes is not None and notes[r][c]:
                text += "\n" + notes[r][c]
            axes.text(c, r, text, ha="center", va="center", fontsize=7.5, color="white" if dark else "black")
    axes.set_xticks(range(len(columns)), columns)
    axes.set_yticks(range(len(rows)), rows)
    axes.xaxis.set_ticks_position("top")
    axes.xaxis.set_label_position("top")
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    # About nine characters of a medium-size title fit an inch, so a narrow map wraps it sooner.
    axes.set_title(textwrap.fill(title, max(28, int(9 * width))), fontsize="medium", pad=12 + 12 * bool(xlabel))
    bar = figure.colorbar(image, ax=axes, fraction=0.05, pad=0.03)
    bar.set_label(colour_label)
    bar.ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
    return path


def elo_panels_plot(
    panels: Sequence[tuple[str, Mapping[str, Sequence[tuple[str | float, Interval]]], bool]], path: Path, title: str
) -> Path:
    """Side by side, one panel per (x label, series, log x): fitted Elo with its 95% interval against x.

    Each panel's x values are categories (depths) or numbers (T_max in ms, on a log axis when its
    flag is set); ratings of one fit share the anchor, so the panels share the y axis.
    """
    figure, axes_row = plt.subplots(1, len(panels), figsize=(4.2 * len(panels) + 1, 4.2), sharey=True, squeeze=False)
    for axes, (xlabel, series, log_x) in zip(axes_row[0], panels, strict=True):
        # categories (depths such as "4/5") share one axis across the panel's series, in sorted order
        categories = sorted({x for points in series.values() for x, _ in points if isinstance(x, str)})
        for name, points in series.items():
            if not points:
                continue
            categorical = any(isinstance(x, str) for x, _ in points)
            xs = [float(categories.index(str(x))) for x, _ in points] if categorical else [float(x) for x, _ in points]
            errors = [[max(0.0, i.value - i.low) for _, i in points], [max(0.0, i.high - i.value) for _, i in points]]
            axes.errorbar(
                xs, [i.value for _, i in points], yerr=errors, marker="o", markersize=5, capsize=3, label=name
            )
            if categorical:
                axes.set_xticks(range(len(categories)), categories)
            elif log_x:
                axes.set_xscale("log")
                axes.set_xticks(xs, [f"{x:g}" for x in xs])
                axes.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        axes.set_xlabel(xlabel)
        axes.grid(alpha=0.3)
        if len(series) > 1:
            axes.legend(fontsize="small")
    axes_row[0][0].set_ylabel("Elo (95% interval)")
    figure.suptitle(textwrap.fill(title, 30 + 40 * len(panels)), fontsize="medium")
    figure.tight_layout()
    figure.savefig(path, dpi=150)
    plt.close(figure)
    return path


@dataclass(frozen=True)
class LineStyle:
    """How one agent's line is drawn: its colour (RGB, 0 to 1), dash pattern and width."""

    color: tuple[float, float, float]
    dashes: str
    width: float


HIGHLIGHT_COLOR = (0.0, 0.0, 0.0)
"""Black: no colour of the pool's palette is near it, so the agents being rated stand out."""
HIGHLIGHT_DASHES = ("-", "--", ":", "-.")


def ratings_line_styles(names: Sequence[str], highlight: Sequence[str] = ()) -> dict[str, LineStyle]:
    """Each agent's line, in the order ``names`` are drawn: the ``highlight`` agents black and bold (told apart
    by their dashes), the others in tab20's ten strong colours, then its ten light ones.

    tab20 in its own order puts a light shade beside each strong one (a green beside a green); strong
    hues first keeps neighbours apart, and black keeps the rated agents apart from all of them.
    """
    palette = plt.get_cmap("tab20")
    colours = [palette(i)[:3] for i in range(0, 20, 2)] + [palette(i)[:3] for i in range(1, 20, 2)]
    styles: dict[str, LineStyle] = {}
    rated = others = 0
    for name in names:
        if name in highlight:
            styles[name] = LineStyle(HIGHLIGHT_COLOR, HIGHLIGHT_DASHES[rated % len(HIGHLIGHT_DASHES)], 2.5)
            rated += 1
        else:
            red, green, blue = colours[others % len(colours)]
            styles[name] = LineStyle((float(red), float(green), float(blue)), "-", 1.2)
            others += 1
    return styles


def ratings_plot(history: Mapping[str, Sequence[float]], path: Path, *, highlight: Sequence[str] = ()) -> Path:
    """Every agent's μ after each rated episode, one line each; the ``highlight`` agents drawn bold in black."""
    figure, axes = plt.subplots(figsize=(9, 5))
    ordered = sorted(history.items(), key=lambda item: -item[1][-1])
    styles = ratings_line_styles([name for name, _ in ordered], highlight)
    for name, values in ordered:
        style = styles[name]
        axes.plot(
            range(len(values)),
            values,
            color=style.color,
            linestyle=style.dashes,
            linewidth=style.width,
            label=textwrap.shorten(name, 40, placeholder="..."),
        )
    axes.set_xlabel("rated episodes")
    axes.set_ylabel("μ (every agent starts at 600)")
    axes.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
    return path
