"""What the benchmarks that play matches share: a run directory's name for an agent spec, the W/D/L
cell of their tables and the progress line over a run's games."""

from __future__ import annotations

import sys
import time

from connectx.evaluation.match import MatchSummary, OnGame, SeatRecord


def slug(spec: str) -> str:
    """An agent spec as a directory name: ``kaggle:negamax`` -> ``kaggle-negamax``,
    ``solver:time_budget=0.25`` -> ``solver-time_budget0.25``."""
    return spec.replace(":", "-").replace("=", "").replace(",", "-")


def wdl(record: SeatRecord) -> str:
    """Wins, draws and losses as the tables write them: ``27/1/2``."""
    return f"{record.wins}/{record.draws}/{record.losses}"


class Progress:
    """A bar over all the games of the run and the cell's score, redrawn on a terminal after every game."""

    def __init__(self, total: int, done: int) -> None:
        self.total = max(1, total)
        self.done = done
        self.started = time.monotonic()
        self.played = 0

    def on_game(self, label: str) -> OnGame:
        """The harness's callback for the games of the match ``label`` names (``8x7/4 vs mcts``)."""
        return lambda record, summary: self.game(label, summary())

    def game(self, label: str, summary: MatchSummary) -> None:
        self.done += 1
        self.played += 1
        width = 30
        filled = min(width, width * self.done // self.total)
        elapsed = time.monotonic() - self.started
        left = elapsed / self.played * max(0, self.total - self.done)
        total = summary.total
        line = (
            f"[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} games, "
            f"{label}: {wdl(total)}, about {left / 60:.0f} min left"
        )
        # A log file keeps every redraw a carriage return makes, so there each game gets a line of its own.
        if sys.stderr.isatty():
            print(f"\r{line} ", end="", file=sys.stderr, flush=True)
        else:
            print(line, file=sys.stderr, flush=True)

    def close(self) -> None:
        """End the redrawn line on a terminal, so what follows starts on a line of its own."""
        if sys.stderr.isatty():
            print(file=sys.stderr)
