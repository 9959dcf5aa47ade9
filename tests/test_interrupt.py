"""Ctrl-C at any instant of a run of games: one line, exit 130, within a second, and no worker left playing.

A terminal's Ctrl-C is SIGINT to the whole foreground group: the command, the fork server and
resource tracker it starts, the workers and their game processes. Only the command may answer.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.match import MatchPlan
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import stop_workers, worker_pool


def interrupt_at_a_terminal(command: list[str], after: float | None) -> tuple[int, float, str]:
    """Run ``connectx command`` at a pseudo-terminal, press Ctrl-C ``after`` seconds in (None: never): (status,
    seconds to stop, everything it wrote)."""
    master, follower = pty.openpty()
    # A terminal 120 columns wide: at the new terminal's 0 columns the progress bar would draw nothing.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 120, 0, 0))
    process = subprocess.Popen(
        [sys.executable, "-m", "connectx", *command],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
        # As at a shell: a test run started in the background (CI) ignores SIGINT, and
        # exec would keep that.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    os.close(follower)
    if after is not None:
        time.sleep(after)
        os.killpg(process.pid, signal.SIGINT)
    pressed = time.monotonic()
    status = process.wait(timeout=30 if after is not None else 120)
    stopped = time.monotonic() - pressed
    time.sleep(0.3)  # what a helper process might still print
    written = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the terminal closed with its last process
            break
        if not chunk:
            break
        written += chunk
    os.close(master)
    return status, stopped, written.decode(errors="replace")


# While its libraries load, while the fork server and the workers start, and with games in flight (ten
# mcts games against random take several seconds, so the last instant still finds games in flight, and a
# stop that waited for them would show).
@pytest.mark.parametrize("after", [0.3, 0.7, 1.2, 3.0])
def test_ctrl_c_stops_a_match_at_any_instant_with_one_line(tmp_path: Path, after: float) -> None:
    out = tmp_path / "match"
    status, stopped, written = interrupt_at_a_terminal(
        ["match", "mcts:time_budget=0.3", "random", "-n", "10", "--out", str(out)], after
    )
    assert status == 130, written
    assert stopped < 1.5, written  # within a second, and a margin for a loaded machine
    assert "Traceback" not in written and "Error" not in written, written
    assert written.count("connectx match: interrupted") == 1, written
    assert last_line_shown(written).startswith("connectx match: interrupted"), written  # no bar drawn after it


def test_a_refused_resume_ends_with_its_line_and_draws_no_bar(tmp_path: Path) -> None:
    from connectx.evaluation.game_record import GameRecord, GameSpec
    from connectx.evaluation.match import play_match
    from connectx.evaluation.scheduling import InlineExecutor

    def first_mover_wins(spec: GameSpec) -> GameRecord:
        return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), (3,), 0, ("DONE", "DONE"), "line")

    play_match(
        MatchPlan(AgentSpec.of("random"), AgentSpec.of("kaggle:random"), 2),
        PlayOptions(out=tmp_path, executor=InlineExecutor(), play=first_mover_wins),
    )
    games = tmp_path / "games.jsonl"
    games.write_text(games.read_text().replace('"code":"', '"code":"0'))  # as if played by other code
    recorded = games.read_bytes()
    status, _, written = interrupt_at_a_terminal(
        ["match", "random", "kaggle:random", "-n", "4", "--out", str(tmp_path), "--resume"], None
    )
    assert status == 2, written
    assert last_line_shown(written).startswith("connectx match: the games recorded here were played by other code")
    assert "game/s" not in written and "%|" not in written, written  # refused before any progress bar
    assert games.read_bytes() == recorded


def last_line_shown(written: str) -> str:
    """What a terminal shows last of ``written``: the text after the last carriage return or newline."""
    return [part for part in written.replace("\r", "\n").split("\n") if part.strip()][-1]


def test_python_m_connectx_ends_with_130_after_a_ctrl_c_inside_library_generated_code(tmp_path: Path) -> None:
    # Ctrl-C while a dataclass or namedtuple builds its methods (exec of a string) is a KeyboardInterrupt that
    # main catches; CPython still marks it unhandled, and `python -m` ended by SIGINT (status -2), not 130.
    (tmp_path / "interrupted_connectx.py").write_text(
        "import connectx.cli.main as cli\n"
        "cli._run = lambda *arguments: exec('raise KeyboardInterrupt')\n"
        "import connectx.__main__\n"
    )
    finished = subprocess.run(
        [sys.executable, "-m", "interrupted_connectx", "match"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert (finished.returncode, finished.stderr) == (130, "\nconnectx match: interrupted\n")


def test_stopping_the_pool_kills_the_games_in_flight_at_once() -> None:
    pool = worker_pool(2)
    running = [pool.submit(time.sleep, 60) for _ in range(4)]
    time.sleep(1.0)  # the workers have started and taken a game each
    processes = list(pool._processes.values())  # type: ignore[attr-defined]
    started = time.monotonic()
    stop_workers(pool)
    assert time.monotonic() - started < 1.0
    assert len(processes) == 2 and not any(process.is_alive() for process in processes)
    # The queued games are cancelled; one the pool had already handed to its call queue ends as the pool
    # breaks, a moment later: none is left waiting.
    settled_by = time.monotonic() + 5.0
    while not all(future.done() for future in running[2:]) and time.monotonic() < settled_by:
        time.sleep(0.05)
    assert all(future.done() for future in running[2:])
