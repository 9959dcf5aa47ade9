"""The terminal game as a person plays it: a real pseudo-terminal, keys typed, the screen read back.

Each test starts ``play_in_terminal`` in a child process whose controlling terminal is a pty
(``pty.fork``), so the board is drawn for a terminal, Ctrl-C is a real SIGINT from the terminal
driver, and Ctrl-D a real end of input. The saved run directory is then read back.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import pty
import re
import select
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from connectx.agents.registry import AgentSpecError
from connectx.analysis.games import game_from_episode
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.output_paths import OutputPathError
from connectx.evaluation.results_store import RunDirectoryError
from connectx.play.terminal import play_in_terminal

REPOSITORY = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
WAIT = 120.0
"""Seconds to wait for any expected text: generous, the machine may be loaded; a pass never waits that long."""

CHILD = """
import sys
from pathlib import Path
from connectx.analysis.solved_cache import SolvedCache
from connectx.evaluation.engine import BoardConfig
from connectx.play.column_values import ColumnAnalyst
from connectx.play.terminal import play_in_terminal

agent, seat, rows, columns, inarow, out = sys.argv[1:7]
out = Path(out)
status = play_in_terminal(None if agent == "-" else agent, int(seat), BoardConfig(int(rows), int(columns), int(inarow)),
                          out / "run", out / "game.html", out / "game.json", hint_seconds=1.0,
                          analyst=ColumnAnalyst(SolvedCache(None, None)))
sys.exit(status)
"""


class Terminal:
    """A child process on a pseudo-terminal, read like ``expect`` does: wait for text, type keys."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: its stdin, stdout and stderr are the pty
            # As a terminal's shell starts a program: a suite run in the background by a
            # non-interactive shell ignores SIGINT, exec keeps that, and Ctrl-C would do nothing.
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.chdir(REPOSITORY)
            os.execve(sys.executable, [sys.executable, "-c", CHILD, *args], env)
        self.pid, self.fd = pid, fd
        self.raw = ""
        self.seen = 0  # how much of the screen text the expectations have consumed
        self.status: int | None = None

    @property
    def text(self) -> str:
        """Everything shown so far, colour codes removed."""
        return ANSI.sub("", self.raw).replace("\r", "")

    def _read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            return False
        if not data:
            return False
        self.raw += data.decode("utf-8", errors="replace")
        return True

    def expect(self, pattern: str) -> re.Match[str]:
        """The first match of ``pattern`` in the text after the last match, waiting up to ``WAIT`` seconds."""
        deadline = time.monotonic() + WAIT
        while True:
            match = re.compile(pattern).search(self.text, self.seen)
            if match is not None:
                self.seen = match.end()
                return match
            if time.monotonic() > deadline or not self._read(0.5) and self.status_now() is not None:
                raise AssertionError(f"never saw {pattern!r}; the screen ends with:\n{self.text[-1500:]}")

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def status_now(self) -> int | None:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(status)
        return self.status

    def wait(self) -> int:
        """The child's exit status, once it has ended (all its output read)."""
        deadline = time.monotonic() + WAIT
        while self._read(0.5) and time.monotonic() < deadline:
            pass
        while self.status_now() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert self.status is not None, "the game did not end"
        return self.status

    def close(self) -> None:
        if self.status_now() is None:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)

    def last_board(self, rows: int) -> list[list[str]]:
        """The last board drawn: ``rows`` lines of cells (X, O or .) above the line of column numbers."""
        lines = self.text[: self.seen].splitlines()
        numbers = max(index for index, line in enumerate(lines) if re.fullmatch(r"\s*1\s+2(\s+\d+)*", line))
        return [line.split() for line in lines[numbers - rows : numbers]]


@pytest.fixture
def start(tmp_path: Path) -> Iterator:
    started: list[Terminal] = []

    def launch(
        agent: str,
        seat: int,
        rows: int,
        columns: int,
        inarow: int,
        no_color: bool = False,
        extra_env: dict[str, str] | None = None,
    ) -> Terminal:
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        env.update(TERM="xterm", PYTHONPATH=str(REPOSITORY), **(extra_env or {}))
        if no_color:
            env["NO_COLOR"] = "1"
        terminal = Terminal([agent, str(seat), str(rows), str(columns), str(inarow), str(tmp_path)], env)
        started.append(terminal)
        return terminal

    yield launch
    for terminal in started:
        terminal.close()


def saved(tmp_path: Path) -> tuple[dict, dict]:
    """The one game record of the run directory, and the replay JSON written with --json."""
    lines = (tmp_path / "run" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 1
    assert json.loads((tmp_path / "run" / "run.json").read_text())["kind"] == "human game"
    return json.loads(lines[0]), json.loads((tmp_path / "game.json").read_text())


@pytest.mark.games
def test_moves_bad_input_hints_take_back_and_quit(start, tmp_path: Path) -> None:
    # Ten columns, so a column takes two digits; two rows, so a column fills in two moves.
    game = start("negamax:seed=1", 0, 2, 10, 4)
    game.expect(r"You are X \(red\); negamax:seed=1 is O \(yellow\)")
    game.expect(r"Your move \[1-10, u, h, q\]: ")
    assert "\x1b[44m" in game.raw  # drawn in colour on a terminal
    game.type("x\n")
    game.expect(r"'x' is not a column: type a number from 1 to 10")
    game.type("11\n")
    game.expect(r"there is no column 11: type a number from 1 to 10")
    moves = []
    while True:
        game.type("1\n")
        reply = game.expect(r"column 1 is full: pick another|You played 1; negamax:seed=1 played (\d+)\.")
        if reply.group(0).startswith("column 1 is full"):
            break
        moves += [0, int(reply.group(1)) - 1]
        game.expect(r"Your move")
        assert game.last_board(2)[1][0] == "X"
    assert moves.count(0) == 2  # the column really is full: two stones in it
    game.type("10\n")
    reply = game.expect(r"You played 10; negamax:seed=1 played (\d+)\.")
    moves += [9, int(reply.group(1)) - 1]
    game.expect(r"Your move")
    board = game.last_board(2)
    assert sum(cell != "." for row in board for cell in row) == len(moves)
    assert "X" in (board[0][9], board[1][9])
    game.type("h\n")
    verdict = game.expect(r"The solver's verdict for X to move[^\n]*\n((?:[ *?]+\d+: [^\n]+\n){10})")
    lines = verdict.group(1).splitlines()
    assert lines[0].strip() == "1: full"
    words = (
        r"win in <?=?\d+|loss in <?=?\d+|draw|draw or win|draw or loss|full"
        r"|(balanced|likely win|likely loss), estimate at depth \d+"
    )
    assert all(re.search(rf"\d+: ({words})$", line) for line in lines)
    assert any(line.lstrip().startswith(("*", "?")) for line in lines)  # the best proven, or the ones still open
    game.type("u\n")
    game.expect(r"Took back 2 moves\.")
    game.expect(r"Your move")
    moves = moves[:-2]
    assert sum(cell != "." for row in game.last_board(2) for cell in row) == len(moves)
    game.type("q\n")
    game.expect(r"Saved the game in .*run \(connectx replay .* --game 0 shows it\)")
    assert game.wait() == 0
    record, replay = saved(tmp_path)
    assert record["agents"] == ["human", "negamax:seed=1"]
    assert record["moves"] == moves
    assert record["cause"] == "aborted" and record["winner"] is None
    assert record["config"]["rows"] == 2 and record["config"]["columns"] == 10
    assert replay["info"]["TeamNames"] == ["human", "negamax:seed=1"]
    assert len(replay["steps"]) == len(moves) + 1  # the take-back left no trace in the replay
    assert (tmp_path / "run" / "replays" / "game-00000.json").exists()
    assert "negamax:seed=1" in (tmp_path / "game.html").read_text()


@pytest.mark.games
def test_ctrl_c_saves_the_game_so_far(start, tmp_path: Path) -> None:
    game = start("negamax:seed=2", 1, 6, 7, 4)  # the agent moves first
    game.expect(r"negamax:seed=2 is X \(red\); You are O \(yellow\)")
    first = game.expect(r"negamax:seed=2 played (\d+)\.")
    game.expect(r"Your move \[1-7, u, h, q\]: ")
    game.type("4\n")
    reply = game.expect(r"You played 4; negamax:seed=2 played (\d+)\.")
    game.expect(r"Your move")
    game.type("\x03")  # Ctrl-C, turned into SIGINT by the terminal
    game.expect(r"Interrupted: the game so far is saved\.")
    assert game.wait() == 130
    record, _ = saved(tmp_path)
    assert record["agents"] == ["negamax:seed=2", "human"]
    assert record["moves"] == [int(first.group(1)) - 1, 3, int(reply.group(1)) - 1]
    assert record["cause"] == "aborted"


@pytest.mark.games
def test_ctrl_c_taken_by_another_thread_of_the_program_still_ends_the_game(start, tmp_path: Path) -> None:
    # The kernel hands a terminal's SIGINT to any thread that does not block it, and numpy's
    # OpenBLAS starts threads of its own. When one of them takes it, Python only sets a flag, and
    # a main thread asleep in read() would not see it until the next line was typed.
    game = start("negamax:seed=2", 1, 6, 7, 4, extra_env={"OPENBLAS_NUM_THREADS": "2"})
    game.expect(r"Your move \[1-7, u, h, q\]: ")
    threads = [int(task) for task in os.listdir(f"/proc/{game.pid}/task") if int(task) != game.pid]
    assert threads, "the game's process runs no thread but its main one: OpenBLAS started none"
    assert ctypes.CDLL(None, use_errno=True).tgkill(game.pid, threads[0], signal.SIGINT) == 0
    game.expect(r"Interrupted: the game so far is saved\.")
    assert game.wait() == 130


@pytest.mark.games
def test_a_finished_game_is_recorded_with_kaggles_result(start, tmp_path: Path) -> None:
    # One row of three and three in a row: whatever the agent does, the board fills without a line.
    game = start("kaggle:random", 0, 1, 3, 3, no_color=True)
    game.expect(r"Your move \[1-3, u, h, q\]: ")
    assert "\x1b[" not in game.raw  # NO_COLOR
    game.type("1\n")
    game.expect(r"Your move")
    free = [column for column, cell in enumerate(game.last_board(1)[0]) if cell == "."]
    assert len(free) == 1
    game.type(f"{free[0] + 1}\n")
    game.expect(r"Draw after 3 moves\.")
    game.expect(r"Game over: u takes back, q \(or Enter\) ends: ")
    game.type("2\n")
    game.expect(r"the game is over \(Draw after 3 moves\.\); take back a move or start a new game")
    game.type("u\n")
    game.expect(r"Took back 1 move\.")
    game.expect(r"Your move")
    game.type(f"{free[0] + 1}\n")
    game.expect(r"Draw after 3 moves\.")
    game.type("\x04")  # Ctrl-D: the end of input ends the game too
    game.expect(r"Saved the game in")
    assert game.wait() == 0
    record, replay = saved(tmp_path)
    assert record["cause"] == "draw" and record["winner"] is None
    assert record["statuses"] == ["DONE", "DONE"]
    assert replay["statuses"] == ["DONE", "DONE"] and replay["rewards"] == [0, 0]
    assert list(game_from_episode(replay).moves) == record["moves"]


@pytest.mark.parametrize(
    "agent, complaint",
    [
        ("nosuch", "unknown agent 'nosuch'"),
        ("kaggle:nosuch", "unknown kaggle built-in 'nosuch'"),
        ("negamax:depth=x", "depth=x is not a whole number"),
    ],
)
def test_an_agent_that_cannot_play_is_refused_before_anything(tmp_path: Path, agent: str, complaint: str) -> None:
    screen = io.StringIO()
    with pytest.raises(AgentSpecError, match=complaint):
        play_in_terminal(agent, 0, BoardConfig(), tmp_path / "run", stdin=io.StringIO("4\n"), stdout=screen)
    assert screen.getvalue() == "" and not (tmp_path / "run").exists()


def test_an_occupied_run_directory_or_an_unwritable_path_is_refused_before_anything(tmp_path: Path) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "run.json").write_text("{}")
    screen = io.StringIO()
    with pytest.raises(RunDirectoryError, match="already holds a run; choose another out directory"):
        play_in_terminal("random", 0, BoardConfig(), tmp_path / "run", stdin=io.StringIO("4\n"), stdout=screen)
    with pytest.raises(OutputPathError, match="^html .* is a directory"):
        play_in_terminal(
            "random", 0, BoardConfig(), tmp_path / "other", html_path=tmp_path, stdin=io.StringIO("4\n"), stdout=screen
        )
    assert screen.getvalue() == "" and sorted(path.name for path in tmp_path.iterdir()) == ["run"]
