"""A run killed by a signal it cannot catch leaves nothing behind: its workers and games end within seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def session_processes(session: int) -> dict[int, int]:
    """Every live process of ``session`` (zombies are dead): pid to parent pid. An orphan keeps its session when it
    is handed to another parent, so this finds a killed run's leftovers wherever they went."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended while we looked
            continue
        state, parent, _, sid = stat[stat.rindex(")") + 2 :].split()[:4]  # the name in parentheses may hold spaces
        if int(sid) == session and state != "Z":
            found[int(entry)] = int(parent)
    return found


def depth(pid: int, parents: dict[int, int], root: int) -> int:
    """How many generations ``pid`` is below ``root`` (0 for a process not under it)."""
    generations = 0
    while pid != root:
        if pid not in parents:
            return 0
        pid, generations = parents[pid], generations + 1
    return generations


# A game process is a run's third generation in a pool (the fork server, a worker, its game) and its second on
# a local Dask cluster (a worker, its game).
@pytest.mark.games
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
@pytest.mark.parametrize(
    ("workers", "game_depth"), [(["--jobs", "2"], 3), (["--cluster", "local:2"], 2)], ids=["pool", "cluster"]
)
def test_a_run_killed_by_sigkill_mid_game_leaves_no_process_behind(
    tmp_path: Path, workers: list[str], game_depth: int
) -> None:
    if "--cluster" in workers:
        pytest.importorskip("distributed")
    run = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "connectx",
            "match",
            "mcts:time_budget=0.5",
            "random",
            "-n",
            "8",
            *workers,
            "--out",
            str(tmp_path / "match"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120  # a loaded machine takes seconds to import kaggle-environments
        while (
            max(
                (depth(pid, parents, run.pid) for parents in [session_processes(run.pid)] for pid in parents), default=0
            )
            < game_depth
        ):
            assert run.poll() is None and time.monotonic() < deadline, "no game started"
            time.sleep(0.1)
        time.sleep(0.5)  # well into the first moves
        run.kill()
        run.wait()
        killed = time.monotonic()
        while session_processes(run.pid) and time.monotonic() - killed < 10:
            time.sleep(0.1)
        assert session_processes(run.pid) == {}, "left behind: pid to parent"  # within seconds, on a loaded machine
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)  # whatever this test's run left, if it failed
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("handle", [True, False], ids=["pidfd", "polling"])
def test_a_watcher_ends_once_the_process_it_lives_for_has_ended(handle: bool) -> None:
    watched = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    # Without os.pidfd_open (macOS, old kernels) the watcher asks every half second.
    hide = "" if handle else "del os.pidfd_open; "
    watcher = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import os, time; {hide}"
            "from connectx.evaluation.orphans import exit_when_gone; "
            f"exit_when_gone({watched.pid}); time.sleep(60)",
        ]
    )
    try:
        time.sleep(1.0)
        assert watcher.poll() is None  # alive while the watched process is
        watched.kill()
        watched.wait()
        assert watcher.wait(timeout=10) == 1
    finally:
        for process in (watched, watcher):
            process.kill()
            process.wait()
