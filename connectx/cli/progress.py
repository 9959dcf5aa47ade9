"""The live progress bar of a run of games (match, tournament) or of an analysis; what Ctrl-C says about resuming."""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from connectx.cli.options import INTERRUPTED
from connectx.evaluation.game_record import GameRecord

Result = TypeVar("Result")
Summary = TypeVar("Summary")

class ProgressBar:
    """A tqdm bar on stderr whose text is the live score; ``unit`` names what it counts.

    ``only_on_terminal`` leaves it out when stderr is not a terminal (a command whose output is
    for tools); a run of games always shows it, so a log keeps its progress.
    """

    def __init__(self, total: int, done: int, unit: str = "game", only_on_terminal: bool = False) -> None:
        from tqdm import tqdm

        self.bar = tqdm(total=total, initial=done, unit=unit, dynamic_ncols=True, file=sys.stderr,
                        disable=None if only_on_terminal else False)  # None: tqdm's "off unless a terminal"

    def update(self, text: str) -> None:
        self.bar.set_postfix_str(text, refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()


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


def play_with_progress(command: str, out: Path, total: int, done: int,
                       play: Callable[[Callable[[GameRecord, Summary], None]], Result],
                       line: Callable[[Summary], str]) -> Result | int:
    """``play(on_game)`` under a live progress bar; exit code 130, after saying how to resume, on Ctrl-C.

    The plots the command writes after the games are imported meanwhile (``import_in_background``), from the
    first game on: before it, the workers' own start-up needs the processor.
    """
    progress = ProgressBar(total, min(done, total))
    first = True

    def on_game(record: GameRecord, summary: Summary) -> None:
        nonlocal first
        if first:
            import_in_background(PLOTS)
            first = False
        progress.update(line(summary))

    try:
        return play(on_game)
    except KeyboardInterrupt:
        progress.close()  # closing redraws the bar: it must come before the line, which is the last thing shown
        print(f"\nconnectx {command}: interrupted; finished games are in {out / 'games.jsonl'}. "
              f"Continue with the same arguments plus --resume --out {out}", file=sys.stderr)
        return INTERRUPTED
    finally:
        progress.close()  # a second close does nothing; an error's line is printed after this, by main
