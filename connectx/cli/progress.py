"""The live progress bar of a run of games (match, tournament) or of an analysis, and the figures a run of games
draws; what Ctrl-C says about resuming.

Both are optional (``BAR``, ``FIGURES``): a Kaggle notebook's image without tqdm or matplotlib still plays
the games, writes them and their report, and says once what it left out.
"""

from __future__ import annotations

import importlib
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

from connectx.cli.dependencies import unmet
from connectx.cli.options import INTERRUPTED
from connectx.evaluation.game_record import GameRecord

Result = TypeVar("Result")
Summary = TypeVar("Summary")

BAR = "tqdm"
"""The live bar's distribution; without it, a run of games prints a plain line now and then instead."""
FIGURES = "matplotlib"
"""The figures' distribution; without it (or too old for them), a run of games skips its figures and says so."""
PLAIN_EVERY = 10.0
"""Seconds between two plain progress lines, so a log of thousands of games keeps a few hundred lines."""
TEXT_EVERY = 1.0
"""Seconds between two texts of the live bar, so a tournament's joint Elo fit runs once a second, not once a game."""


class ProgressBar:
    """A tqdm bar on stderr whose text is the live score; ``unit`` names what it counts.

    ``only_on_terminal`` leaves it out when stderr is not a terminal (a command whose output is
    for tools); a run of games always shows it, so a log keeps its progress. Without tqdm, a run of
    games prints ``12/100 games: <text>`` on stderr after its first update, every ``PLAIN_EVERY``
    seconds and at its last; a bar only for terminals shows nothing.
    """

    def __init__(self, total: int, done: int, unit: str = "game", only_on_terminal: bool = False) -> None:
        self.total, self.done, self.unit = total, done, unit
        self.bar: Any = None
        self.plain = not only_on_terminal
        self.last_line = self.last_text = -float("inf")  # the first update prints
        if not unmet([BAR]):
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=done,
                unit=unit,
                dynamic_ncols=True,
                file=sys.stderr,
                disable=None if only_on_terminal else False,
            )  # None: tqdm's "off unless a terminal"

    def update(self, text: str | Callable[[], str]) -> None:
        """One more done, and the line's text: a function is called only when its text is shown (at most every
        ``TEXT_EVERY`` seconds on the bar), since what it reads may cost a fit."""
        self.done += 1
        if self.bar is not None:
            if isinstance(text, str) or self.done == self.total or time.monotonic() - self.last_text >= TEXT_EVERY:
                self.last_text = time.monotonic()
                self.bar.set_postfix_str(text if isinstance(text, str) else text(), refresh=False)
            self.bar.update(1)
        elif self.plain and (self.done == self.total or time.monotonic() - self.last_line >= PLAIN_EVERY):
            self.last_line = time.monotonic()
            print(
                f"{self.done}/{self.total} {self.unit}s: {text if isinstance(text, str) else text()}",
                file=sys.stderr,
                flush=True,
            )

    def write(self, line: str) -> None:
        """``line`` on stdout, above the bar."""
        if self.bar is not None:
            self.bar.write(line, file=sys.stdout)
        else:
            print(line)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def plots_module(command: str) -> ModuleType | None:
    """The module that draws a run's figures, or None after one line on stderr: the figures are skipped, and the
    ``pip install`` that gives them."""
    problems = unmet([FIGURES])
    if problems:
        print(f"connectx {command}: figures skipped; {problems[0]}", file=sys.stderr)
        return None
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from connectx.evaluation import plots

    return plots


PLOTS = "connectx.evaluation.plots"
"""The module every run of games writes its figures with; it imports matplotlib, seconds of start-up."""


def import_in_background(module: str) -> None:
    """Import ``module`` in a thread of its own, while this process mostly waits for games played elsewhere.

    What the thread fails to import is left for the command's own import to report, as it would have.
    """

    def load() -> None:
        try:
            importlib.import_module(module)
        except Exception:  # noqa: BLE001 - reported by the command's own import of it, after the games
            return

    threading.Thread(target=load, name=f"import {module}", daemon=True).start()


def play_with_progress(
    command: str,
    out: Path,
    total: int,
    done: int,
    play: Callable[[Callable[[GameRecord, Callable[[], Summary]], None]], Result],
    line: Callable[[Summary], str],
) -> Result | int:
    """``play(on_game)`` under a live progress bar; exit code 130, after saying how to resume, on Ctrl-C.

    The plots the command writes after the games are imported meanwhile (``import_in_background``), from the
    first game on: before it, the workers' own start-up needs the processor.
    """
    progress = ProgressBar(total, min(done, total))
    first = True

    def on_game(record: GameRecord, summary: Callable[[], Summary]) -> None:
        nonlocal first
        if first:
            if not unmet([FIGURES]):
                import_in_background(PLOTS)
            first = False
        progress.update(lambda: line(summary()))  # asked for only when the line is drawn

    try:
        return play(on_game)
    except KeyboardInterrupt:
        progress.close()  # closing redraws the bar: it must come before the line, which is the last thing shown
        print(
            f"\nconnectx {command}: interrupted; finished games are in {out / 'games.jsonl'}. "
            f"Continue with the same arguments plus --resume --out {out}",
            file=sys.stderr,
        )
        return INTERRUPTED
    finally:
        progress.close()  # a second close does nothing; an error's line is printed after this, by main
