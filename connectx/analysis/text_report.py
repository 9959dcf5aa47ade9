"""An analysed game as text for the terminal: every move with its value before and after, and the flagged ones.

Columns are numbered from 1 here, as on the printed board and in move strings; the JSON form
keeps Kaggle's 0-based columns.
"""

from __future__ import annotations

from connectx.agents.core.position import Geometry
from connectx.analysis.game_analysis import GameAnalysis, PlyAnalysis
from connectx.analysis.games import Game
from connectx.solver.score_range import ScoreRange, describe

PLAYERS = "XO"
"""The first player's stones are X, the second's O, as ``Position`` prints them."""
OUTCOMES = {1: "win", 0: "draw", -1: "loss"}


VALUE_WIDTH = len("likely loss, estimate at depth 99")
"""The widest value ``describe`` writes in a game's table (an estimate of two-digit depth): columns stay put."""


def render_text(analysis: GameAnalysis) -> str:
    """The whole report: a header, one line per move, and a summary of the moves that changed the outcome."""
    game = analysis.game
    shape = game.board.geometry
    lines = [*header_lines(game), *(move_line(ply, shape) for ply in analysis.plies), *summary_lines(analysis)]
    return "\n".join(lines) + "\n"


def header_lines(game: Game) -> list[str]:
    """The report's first lines: the game, what the values mean, the column heads (shown before any ply is done)."""
    board = game.board
    return [
        f"{board.columns}x{board.rows} board, {board.inarow} in a row, {len(game.moves)} moves: "
        f"{game.digits or '(none)'}",
        "Values are the mover's: win in N (the mover's N-th move from here wins), draw, loss in N; the best bound "
        "proven where the time limit left only a bound; an estimate where not even the outcome is proven.",
        "",
        f"{'ply':>4}  {'move':<6}  {'before':<{VALUE_WIDTH}}  {'after':<{VALUE_WIDTH}}".rstrip(),
    ]


def summary_lines(analysis: GameAnalysis) -> list[str]:
    """The report's last lines: how many positions are exact and which moves changed the outcome."""
    flagged = analysis.flagged
    exact = sum(ply.exact for ply in analysis.plies)
    return [
        "",
        f"{exact} of {len(analysis.plies)} positions exact; "
        f"{len(flagged)} move{'' if len(flagged) == 1 else 's'} changed the outcome"
        + (
            ": " + ", ".join(f"ply {ply.ply} ({PLAYERS[ply.ply % 2]} {ply.column + 1})" for ply in flagged)
            if flagged
            else "."
        ),
    ]


def move_line(ply: PlyAnalysis, shape: Geometry) -> str:
    """One ply's line: the move, the values before and after it, and for a flagged move what it lost and why."""
    move = f"{PLAYERS[ply.ply % 2]} {ply.column + 1}"
    before, after = describe(ply.before, shape, ply.ply), describe(ply.after, shape, ply.ply)
    line = f"{ply.ply:>4}  {move:<6}  {before:<{VALUE_WIDTH}}  {after:<{VALUE_WIDTH}}"
    if ply.changed_outcome:
        line += f"  << {_what_was_lost(ply.before, ply.after)}; best: {ply.describe_best(shape)}"
        if ply.line:
            line += f"; punished by {line_text(ply)}"
    return line.rstrip()


def line_text(ply: PlyAnalysis) -> str:
    """A flagged move's punishing line as moves people read: ``O 3, X 4, O 4``."""
    return ", ".join(f"{PLAYERS[(ply.ply + 1 + step) % 2]} {column + 1}" for step, column in enumerate(ply.line))


def _what_was_lost(before: ScoreRange, after: ScoreRange) -> str:
    """``threw a win away (now a draw)`` and the like, from the proven outcomes."""
    now = OUTCOMES[after.highest_outcome] if after.outcome is None else OUTCOMES[after.outcome]
    qualifier = "" if after.outcome is not None else "at best "
    return f"threw a {OUTCOMES[before.lowest_outcome]} away ({qualifier}a {now})"
