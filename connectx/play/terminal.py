"""A game against an agent (or between two people) in the terminal: the board in colour, the person types columns.

At the prompt a person types a column number (1 to the number of columns, several digits on a
wide board), ``u`` to take back their last move and the reply to it, ``h`` for the solver's
verdict on every column, or ``q`` to stop. Anything else gets a one-line hint and a new prompt.
The game is saved however it ends (finished, ``q``, Ctrl-C or the end of input): a run
directory holding its record, like any match game, and the Kaggle replay as HTML and JSON.
"""

from __future__ import annotations

import json
import os
import select
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from connectx.agents.agent_spec import HUMAN, AgentSpec
from connectx.agents.core.kaggle_boundary import mark_of
from connectx.analysis.game_analysis import best_columns, open_columns
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.output_paths import check_output_file
from connectx.evaluation.results_store import RunDirectoryError
from connectx.play.column_values import ColumnAnalyst
from connectx.play.session import GameSession, MoveError, check_run_directory, save_game
from connectx.solver.score_range import ScoreRange, describe

HINT_SECONDS = 2.0
"""The time the solver gets for ``h`` (all columns together)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C, as a shell reports a process ended by SIGINT."""

RESET = "\x1b[0m"
BOARD = "\x1b[44m"  # blue background
STONE_STYLES = {1: "\x1b[1;91m", 2: "\x1b[1;93m"}  # bold bright red X, bold bright yellow O
EMPTY_STYLE = "\x1b[37m"
LAST_MOVE = "\x1b[4m"  # underline
CLEAR_LINE = "\r\x1b[K"
INPUT_POLL = 0.2
"""Seconds the prompt waits for a line at a time: how late a Ctrl-C taken by another thread is seen."""
SYMBOLS = {0: ".", 1: "X", 2: "O"}
COLOUR_NAMES = {1: "red", 2: "yellow"}


def wants_colour(stream: TextIO) -> bool:
    """ANSI colour on a terminal unless NO_COLOR is set (https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def render_board(board: Sequence[int], rows: int, columns: int, last: int | None = None, colour: bool = False) -> str:
    """Kaggle's flat board (row 0 on top) as text: X for the first player, O for the second, column numbers below.

    ``last`` (a 0-based column) marks the last stone played, underlined, when in ``colour``.
    Every cell is as wide as the widest column number, plus a space.
    """
    width = len(str(columns)) + 1
    top_of_last = next((row for row in range(rows) if last is not None and board[row * columns + last]), None)
    lines = []
    for row in range(rows):
        cells = []
        for column in range(columns):
            value = board[row * columns + column]
            if not colour:
                cells.append(SYMBOLS[value].rjust(width))
                continue
            underline = LAST_MOVE if value and column == last and row == top_of_last else ""
            cells.append(
                BOARD + " " * (width - 1) + STONE_STYLES.get(value, EMPTY_STYLE) + underline + SYMBOLS[value] + RESET
            )
        lines.append("".join(cells) + (BOARD + " " + RESET if colour else ""))
    lines.append("".join(str(column + 1).rjust(width) for column in range(columns)))
    return "\n".join(lines)


@dataclass(frozen=True)
class Command:
    """What a person typed: a move (``column``, 0-based), or one of ``take back``, ``hints``, ``quit``."""

    action: str
    column: int = -1


class InputHint(ValueError):
    """Typed text that is no command; the message is the one-line hint shown before the next prompt."""


def parse_command(text: str, columns: int) -> Command:
    """The command in ``text``: a column number 1..``columns``, ``u``, ``h`` or ``q``; InputHint otherwise."""
    word = text.strip().lower()
    if word in ("q", "quit", "exit"):
        return Command("quit")
    if word in ("u", "undo"):
        return Command("take back")
    if word in ("h", "hint", "hints"):
        return Command("hints")
    if word.isdecimal():
        number = int(word)
        if not 1 <= number <= columns:
            raise InputHint(f"there is no column {number}: type a number from 1 to {columns}")
        return Command("move", number - 1)
    if not word:
        raise InputHint(f"type a column number from 1 to {columns}, or u (take back), h (hints), q (quit)")
    raise InputHint(
        f"{text.strip()!r} is not a column: type a number from 1 to {columns}, or u (take back), h (hints), q (quit)"
    )


class _Screen:
    """What the person sees: the board, the prompt, hints and messages, on ``stdout``."""

    def __init__(self, session: GameSession, stdout: TextIO, colour: bool) -> None:
        self.session = session
        self.out = stdout
        self.colour = colour

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def stone(self, mark: int) -> str:
        symbol = SYMBOLS[mark]
        return STONE_STYLES[mark] + symbol + RESET if self.colour else symbol

    def player(self, seat: int) -> str:
        """``You``, ``Player 2`` or the agent's name (as the record writes it, so not capitalised)."""
        session = self.session
        if session.opponent is None:
            return f"Player {seat + 1}"
        return "You" if seat == session.human_seat else session.names[seat]

    def introduce(self) -> None:
        config = self.session.config
        seats = "; ".join(
            f"{self.player(seat)} {'are' if self.player(seat) == 'You' else 'is'} "
            f"{self.stone(seat + 1)} ({COLOUR_NAMES[seat + 1]})"
            for seat in (0, 1)
        )
        self.say(f"Connect {config.inarow} on a {config.columns}x{config.rows} board. {seats}. X moves first.")
        self.say(f"Type a column (1-{config.columns}), u to take back, h for the solver's verdict, q to quit.")

    def board(self) -> None:
        session = self.session
        moves = session.moves
        self.say()
        self.say(
            render_board(
                session.board, session.config.rows, session.config.columns, moves[-1] if moves else None, self.colour
            )
        )

    def prompt(self) -> str:
        session = self.session
        if session.is_over:
            return "Game over: u takes back, q (or Enter) ends: "
        seat = session.to_move
        assert seat is not None
        who = "Your move" if session.opponent is not None else f"Player {seat + 1} ({SYMBOLS[seat + 1]})"
        return f"{who} [1-{session.config.columns}, u, h, q]: "

    def thinking(self, done: bool) -> None:
        """A status line while the agent thinks, on a terminal only (where it can be erased)."""
        if not self.out.isatty() or self.session.opponent is None:
            return
        self.out.write(CLEAR_LINE if done else f"{self.session.opponent.text} is thinking...")
        self.out.flush()

    def moves_played(self, added: Sequence[int]) -> None:
        session = self.session
        first_ply = len(session.moves) - len(added)
        self.say(
            "; ".join(
                f"{self.player((first_ply + index) % 2)} played {column + 1}" for index, column in enumerate(added)
            )
            + "."
        )

    def hints(self, values: Sequence[ScoreRange | None], seconds: float) -> None:
        session = self.session
        shape, moves = session.position.geometry, len(session.moves)
        best = best_columns(values)
        marked = best if best else open_columns(values)
        legend = "* the best proven" if best else "? no column proven best yet: these may be"
        self.say(
            f"The solver's verdict for {SYMBOLS[mark_of(session.position)]} to move "
            f"(each column's value, {seconds:g} s for all; {legend}):"
        )
        for column, value in enumerate(values):
            mark = ("*" if best else "?") if column in marked else " "
            self.say(f" {mark}{column + 1:>{len(str(shape.columns))}}: {describe(value, shape, moves)}")


def play_in_terminal(
    agent_spec_text: str | None,
    human_seat: int,
    config: BoardConfig,
    out_dir: Path | None,
    html_path: Path | None = None,
    json_path: Path | None = None,
    *,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    hint_seconds: float = HINT_SECONDS,
    colour: bool | None = None,
    analyst: ColumnAnalyst | None = None,
) -> int:
    """Play one game in the terminal; the exit status: 0 when it ended or the person stopped, 130 after Ctrl-C,
    1 if the game could not be saved (a disk error after the checks).

    ``agent_spec_text`` names the opponent (None or ``human`` for a second person at the same
    keyboard); ``human_seat`` 0 moves first. The inputs are checked before anything is played or
    written: AgentSpecError, InputError or RunDirectoryError say what to change. However it ends,
    the game is saved: to ``out_dir`` as a run directory (when given), and its Kaggle replay to
    ``html_path`` and ``json_path``. ``colour`` defaults to ANSI colour on a terminal without NO_COLOR.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    opponent = None if agent_spec_text in (None, HUMAN) else AgentSpec.parse(agent_spec_text)
    if opponent is not None:
        opponent.check(config.geometry)
    for path, option in ((html_path, "html"), (json_path, "json")):
        if path is not None:
            check_output_file(path, option)
    if out_dir is not None:
        check_run_directory(out_dir)
    try:
        session = GameSession(opponent, human_seat, config, seed)
    except KeyboardInterrupt:
        stdout.write("\nInterrupted before the first move: nothing to save.\n")
        return INTERRUPTED
    screen = _Screen(session, stdout, wants_colour(stdout) if colour is None else colour)
    screen.introduce()
    if session.moves:
        screen.moves_played(session.moves)
    status = 0
    own_analyst = analyst is None
    analyst = analyst if analyst is not None else ColumnAnalyst()
    try:
        _play(session, screen, stdin, hint_seconds, analyst)
    except KeyboardInterrupt:
        screen.thinking(done=True)
        screen.say("\nInterrupted: the game so far is saved.")
        status = INTERRUPTED
    finally:
        if own_analyst:
            analyst.close()
    saved = _save(session, screen, out_dir, html_path, json_path, stderr if stderr is not None else sys.stderr)
    return status if saved else 1


def read_line(stdin: TextIO) -> str:
    """The next line typed, with Ctrl-C seen at once however the kernel delivered it.

    The kernel hands a terminal's SIGINT to any thread of the process that does not block it, and
    numpy's OpenBLAS starts threads of its own. When one of them takes it, Python only notes the
    signal for the main thread, and a main thread asleep in ``read`` would raise the
    ``KeyboardInterrupt`` only once the person pressed Enter. On a terminal (where the line
    discipline delivers whole lines, so nothing waits in Python's buffer) the main thread
    therefore waits in slices of ``INPUT_POLL`` seconds and reads only once a line is there.
    """
    if stdin.isatty():
        while not select.select([stdin], [], [], INPUT_POLL)[0]:
            pass  # back in Python between slices: a noted SIGINT raises KeyboardInterrupt here
    return stdin.readline()


def _play(session: GameSession, screen: _Screen, stdin: TextIO, hint_seconds: float, analyst: ColumnAnalyst) -> None:
    """The prompt loop, until the person quits or the input ends."""
    screen.board()
    if session.is_over:
        screen.say(session.result_text())
    while True:
        screen.out.write(screen.prompt())
        screen.out.flush()
        line = read_line(stdin)
        if not line:
            screen.say()
            return
        if session.is_over and not line.strip():
            return
        try:
            command = parse_command(line, session.config.columns)
        except InputHint as hint:
            screen.say(str(hint))
            continue
        if command.action == "quit":
            return
        try:
            if command.action == "move":
                screen.thinking(done=False)
                try:
                    added = session.play(command.column)
                finally:
                    screen.thinking(done=True)
                screen.moves_played(added)
            elif command.action == "take back":
                undone = session.take_back()
                screen.say(f"Took back {undone} move{'s' if undone > 1 else ''}.")
            elif command.action == "hints":
                if session.is_over:
                    screen.say("The game is over: there is nothing to analyse; u takes back, q ends.")
                    continue
                shape = session.position.geometry
                screen.hints(analyst.values(shape, session.moves, hint_seconds), hint_seconds)
                continue
        except MoveError as error:
            screen.say(str(error))
            continue
        screen.board()
        if session.is_over:
            screen.say(session.result_text())


def _save(
    session: GameSession,
    screen: _Screen,
    out_dir: Path | None,
    html_path: Path | None,
    json_path: Path | None,
    stderr: TextIO,
) -> bool:
    """Write the run directory and the replays, saying where each went; False (said on stderr) if one failed."""
    try:
        if out_dir is not None:
            save_game(session, out_dir)
            screen.say(f"Saved the game in {out_dir} (connectx replay {out_dir} --game 0 shows it).")
        for path, text in ((html_path, session.replay_html), (json_path, lambda: json.dumps(session.replay_json()))):
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text(), encoding="utf-8")
                screen.say(f"wrote {path}")
    except (OSError, RunDirectoryError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        stderr.write(f"connectx play: the game could not be saved ({reason}); it is lost, sorry\n")
        return False
    return True
