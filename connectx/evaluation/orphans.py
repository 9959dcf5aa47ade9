"""Processes that end with the run that started them, however it ends.

A run killed by a signal it cannot catch (SIGKILL: the OOM killer, a restarted notebook kernel, a
CI timeout) runs no clean-up, so each helper process watches the one it lives for and exits when
that one is gone. The pool's workers cannot simply watch their parent: it is multiprocessing's fork
server, which only ends once every worker has, so they watch the run's own process.
"""

from __future__ import annotations

import os
import select
import threading
import time

POLL_SECONDS = 0.5
"""How often a watcher without a process handle (``os.pidfd_open``: Linux only) checks that its process lives."""


def exit_when_gone(pid: int) -> None:
    """End this process, at once and without clean-up, once process ``pid`` has ended.

    The watch runs in a daemon thread, so it ends this process even while a game (or a hung agent)
    holds the main thread. ``pid`` must be alive when this is called: its process handle is taken now.
    """
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:  # gone already
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd here (not Linux, or a kernel before 5.3): ask every half second
        threading.Thread(target=_poll, args=(pid,), name=f"exit when {pid} ends", daemon=True).start()
        return
    threading.Thread(target=_wait, args=(handle,), name=f"exit when {pid} ends", daemon=True).start()


def _wait(handle: int) -> None:
    select.select([handle], [], [])  # a process handle reads as ready once the process has ended
    os._exit(1)


def _poll(pid: int) -> None:
    parent = pid == os.getppid()  # a parent's number cannot be taken by another process while we are its child
    while os.getppid() == pid if parent else _alive(pid):
        time.sleep(POLL_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, PermissionError):  # gone, or its number taken by another user's process
        return False
    return True
