"""Suite-wide settings (every test's per-user cache lives in a temporary folder) and fixtures shared by modules."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable

import pytest

# Set at import, before collection: some skip conditions build the C solver while tests are collected.
os.environ.setdefault("CONNECTX_CACHE_DIR", tempfile.mkdtemp(prefix="connectx-test-cache-"))


Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_main(capsys: pytest.CaptureFixture[str]) -> Callable[[Callable[[list[str]], int]], Run]:
    """``run_main(main)(*arguments)``: a script's ``main`` in this process, its exit status and what it printed
    as a finished command's."""

    def runner(main: Callable[[list[str]], int]) -> Run:
        def run(*arguments: str) -> subprocess.CompletedProcess[str]:
            status = main(list(arguments))
            printed = capsys.readouterr()
            return subprocess.CompletedProcess(arguments, status, printed.out, printed.err)

        return run

    return runner


@pytest.fixture(autouse=True)
def fresh_game_process() -> None:
    """Each test's games start from a game process forked from the test process as that test left it
    (its monkeypatches included), never from one an earlier test started."""
    from connectx.evaluation.game import stop_game_process

    stop_game_process()
