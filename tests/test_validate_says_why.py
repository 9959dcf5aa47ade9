"""`validate`, `play` and `match` give Kaggle's verdict and the agent's own reason for it.

Kaggle fails a move for what the agent returned, raised or took in time, never for what it wrote
to stderr; these files each do one of those, and the commands must say so in the agent's terms
(the file's line and exception, ``numpy.int64``, ``a float``, the limit with the bank), while the
record keeps the whole traceback. A hopeless file is judged at its first TIMEOUT, a .tar.gz runs as
Kaggle runs one, and a file that reads data beside it is told that it runs alone.
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from connectx.agents.core.fault_words import (
    error_lines,
    invalid_text,
    returned_problem,
    shown,
    timeout_text,
    type_name_of,
)
from connectx.cli.main import main
from connectx.submission import isolated_runner
from connectx.submission.bundler import build_bundle
from connectx.submission.validator import ABSORBED_CHECK, MARGIN_CHECK, validate_file

FIRST_OPEN = "    return next(c for c in range(configuration.columns) if observation.board[c] == 0)\n"
NOISY = (
    "import logging\nimport sys\n\n\ndef agent(observation, configuration):\n"
    "    print('thinking', observation.step, file=sys.stderr)\n    logging.warning('a log line')\n" + FIRST_OPEN
)
BUGGY = (
    "def agent(observation, configuration):\n    if observation.step >= 4:\n"
    "        raise ValueError('my bug at move 3')\n" + FIRST_OPEN
)
NUMPY = (
    "import numpy as np\n\n\ndef agent(observation, configuration):\n"
    "    return np.int64(next(c for c in range(configuration.columns) if observation.board[c] == 0))\n"
)
FLOAT = "def agent(observation, configuration):\n    return 0.0\n"


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(source)
    return path


def run_command(*words: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(words))
    return status, out.getvalue(), err.getvalue()


def test_the_reasons_read_in_the_agents_terms() -> None:
    assert returned_problem("numpy.int64", "0") == "returned numpy.int64 (0): Kaggle wants an int (return int(column))"
    assert returned_problem("float", "0.0", None).startswith("returned 0.0, a float: Kaggle wants an int")
    assert returned_problem("int", "3", [0, 1, 2]) == "returned 3, not a legal column (the open ones: 0, 1, 2)"
    assert returned_problem("int", "3") is None and "returned None" in (returned_problem("NoneType", "None") or "")
    assert invalid_text(("int", "-1")) == "returned -1, a column Kaggle would not play (full, or off the board)"
    assert timeout_text(20.0, 2.0, 6.0).startswith("took 20.0 s, the limit is 2 s plus the bank (6.0 s left")
    chained = (
        'Traceback (most recent call last):\n  File "kaggle/agent.py", line 154, in act\n    x()\n'
        "ValueError: first\n\nDuring handling of the above exception, another exception occurred:\n\n"
        'Traceback (most recent call last):\n  File "kaggle/agent.py", line 9, in callable_agent\n'
        '    return agent(*args)\n           ^^^^^^^^^^^^\n  File "mine.py", line 3, in agent\n'
        "    raise ValueError('my bug')\nValueError: my bug\n"
    )
    assert error_lines(chained).splitlines() == [
        '  File "mine.py", line 3, in agent',
        "    raise ValueError('my bug')",
        "ValueError: my bug",
    ]


def test_the_isolated_process_names_an_answer_as_the_harness_does() -> None:
    """``isolated_runner`` cannot import ``fault_words``, so it keeps twins of its two namers: they must agree."""
    import numpy as np

    for answer in (np.int64(3), np.float32(1.5), 0.0, 3, True, None, "3", [3]):
        assert isolated_runner.type_name_of(answer) == type_name_of(answer), answer
        assert isolated_runner._shown(answer) == shown(answer), answer


@pytest.mark.games
def test_writing_to_stderr_or_logging_is_no_failure(tmp_path: Path) -> None:
    report = validate_file(write(tmp_path, "noisy.py", NOISY), compare=False, strict=True)
    assert report.passed and not report.warnings(), "\n".join(map(str, report.checks))


@pytest.mark.games
@pytest.mark.parametrize(
    "source,words",
    [
        (NUMPY, "returned numpy.int64 (0): Kaggle wants an int"),
        (FLOAT, "returned 0.0, a float: Kaggle wants an int"),
        (BUGGY, "ValueError: my bug at move 3"),
    ],
)
def test_every_failed_game_says_what_the_agent_did(tmp_path: Path, source: str, words: str) -> None:
    path = write(tmp_path, "mine.py", source)
    status, out, _ = run_command("validate", str(path), "--no-compare")
    games = [line for line in out.split("\n[") if line.startswith(("FAIL] (b)", "FAIL] (c)"))]
    assert status == 1 and len(games) == 5, out
    assert all(words in game for game in games), out
    if source == BUGGY:
        assert f'File "{path}", line 3, in agent' in out and "kaggle_environments" not in out


@pytest.mark.games
def test_play_and_match_show_the_agents_error_and_the_record_keeps_it_whole(tmp_path: Path) -> None:
    path = write(tmp_path, "mine.py", BUGGY)
    status, out, _ = run_command("play", str(path), "random", "--seed", "1", "--out", str(tmp_path / "game"))
    assert status == 0 and "mine.py ended in ERROR" in out
    assert f'File "{path}", line 3, in agent' in out and "ValueError: my bug at move 3" in out
    assert "Traceback" not in out
    [record] = [json.loads(line) for line in (tmp_path / "game" / "games.jsonl").read_text().splitlines()]
    detail = record["detail"]
    assert detail.startswith("Traceback (most recent call last)") and "kaggle_environments" in detail
    status, out, _ = run_command("match", str(path), "random", "-n", "2", "--out", str(tmp_path / "match"))
    assert status == 0 and "mine.py: ERROR in 2 games; the first, game 0" in out
    assert "ValueError: my bug at move 3" in out and f"connectx replay {tmp_path / 'match'} --game 0" in out


@pytest.mark.games
def test_a_hopeless_file_is_judged_at_its_first_timeout_with_progress_on_the_way(tmp_path: Path) -> None:
    """Kaggle allows a move 2 s plus the 60 s bank: a move that never ends is stopped there, and the
    four games left are not played, each marked so: about a minute, not five times the bank."""
    path = write(
        tmp_path,
        "hangs.py",
        "import time\n\n\ndef agent(observation, configuration):\n    time.sleep(1000)\n" + FIRST_OPEN,
    )
    started = time.monotonic()
    status, out, err = run_command("validate", str(path), "--no-compare")
    assert time.monotonic() - started < 90
    assert status == 1
    assert "validate: game 1 of 5, first against kaggle's random" in err and "game 2 of 5" not in err
    assert "statuses ['TIMEOUT', 'DONE'] after 0 moves: took 62." in out and "2 s plus the bank (60.0 s left" in out
    assert out.count("[SKIP] (") >= 4 and "not played: the file ran out of Kaggle's time" in out
    assert "[FAIL] (d) Kaggle's clock" in out


@pytest.mark.games
def test_a_fault_our_guard_absorbed_warns_and_fails_only_under_strict(tmp_path: Path) -> None:
    """Kaggle plays the guard's fallback move, so the game is DONE; that the agent's own move failed is
    our stricter check, named as such."""
    source = build_bundle("random").source
    broken = source.replace(
        "        return self.rng.choice(sorted(position.legal_columns()))",
        '        raise RuntimeError("the strategy broke")',
    )
    assert broken != source
    path = write(tmp_path, "submission.py", broken)
    report = validate_file(path, compare=False)
    assert report.passed and [check.name for check in report.warnings()] == [ABSORBED_CHECK]
    assert "failed on" in report.warnings()[0].detail
    strict = validate_file(path, compare=False, strict=True)
    assert [check.name for check in strict.failures()] == [ABSORBED_CHECK]
    assert MARGIN_CHECK not in [check.name for check in strict.failures()]


def test_a_tar_gz_runs_as_kaggle_runs_it_with_its_files_beside_main_py(tmp_path: Path) -> None:
    main_py = (
        "import os\nimport sys\n\n# Kaggle's loader puts main.py's folder last on sys.path while it loads.\n"
        "COLUMN = int(open(os.path.join(sys.path[-1], 'column.txt')).read())\n\n\n"
        "def agent(observation, configuration):\n    return COLUMN\n"
    )
    folder = tmp_path / "agent"
    folder.mkdir()
    write(folder, "main.py", main_py)
    write(folder, "column.txt", "3")
    archive = tmp_path / "submission.tar.gz"
    with tarfile.open(archive, "w:gz") as packed:
        for name in ("main.py", "column.txt"):
            packed.add(folder / name, arcname=name)
    report = validate_file(archive, games=False)
    assert report.passed, "\n".join(map(str, report.checks))
    alone = write(
        tmp_path, "reads_beside.py", main_py.replace("os.path.join(sys.path[-1], 'column.txt')", "'column.txt'")
    )
    write(tmp_path, "column.txt", "3")
    [loader] = [check for check in validate_file(alone, games=False).checks if check.name.startswith("(a)")]
    assert not loader.passed and "FileNotFoundError" in loader.detail
    assert "runs a copy of the file alone" in loader.fix and ".tar.gz" in loader.fix


def test_a_validation_killed_hard_leaves_no_process_behind(tmp_path: Path) -> None:
    """``kill -9`` of `connectx validate` mid-game: its isolated process watches it and ends too."""
    path = write(
        tmp_path,
        "slow.py",
        "import time\n\n\ndef agent(observation, configuration):\n    time.sleep(0.5)\n" + FIRST_OPEN,
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "connectx", "validate", str(path), "--no-compare"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    children: list[int] = []
    while not children and time.monotonic() < deadline:
        time.sleep(0.2)
        children = [int(pid) for pid in Path(f"/proc/{run.pid}/task/{run.pid}/children").read_text().split()]
    assert children, "the isolated process never started"
    run.kill()
    run.wait()
    gone_by = time.monotonic() + 10
    while any(map(running, children)) and time.monotonic() < gone_by:
        time.sleep(0.1)
    assert not [pid for pid in children if running(pid)], "the isolated process outlived its run"


def running(pid: int) -> bool:
    """Whether process ``pid`` still runs: it exists and has not ended (a zombie waiting to be reaped has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def test_an_isolated_process_whose_validation_died_while_it_started_ends_at_once(tmp_path: Path) -> None:
    """Killed before its isolated process ran a line, `connectx validate` is no parent to watch: the process
    compares the parent the request names with its own, so it ends instead of watching whoever adopted it."""
    from connectx.submission import isolated_runner

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"parent": gone.pid}))
    started = time.monotonic()
    ended = subprocess.run(
        [sys.executable, "-I", "-S", isolated_runner.__file__, str(request), str(tmp_path / "result.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (ended.returncode, ended.stderr) == (1, "") and not (tmp_path / "result.json").exists()
    assert time.monotonic() - started < 30
