"""The results file: round trips, torn lines, and resuming a match after kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from dataclasses import replace
from pathlib import Path

import pytest

from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import NO_STATS, GameRecord
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError

REPO = Path(__file__).resolve().parents[1]


def record(index: int, winner: int | None = 0) -> GameRecord:
    return GameRecord(
        index,
        ("negamax", "kaggle:random"),
        BoardConfig(5, 6, 4, 1.5),
        99,
        (2, 3),
        (2, 3, 1, 1),
        winner,
        ("DONE", "DONE"),
        "line" if winner is not None else "draw",
        None,
        "",
        ((0.25, 0.125), (0.5,)),
        1.25,
    )


def test_a_record_survives_the_round_trip(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(record(0))
    store.append(record(1, None))
    assert store.load() == [record(0), record(1, None)]


def test_search_stats_survive_the_round_trip_and_records_without_them_still_load(tmp_path: Path) -> None:
    stats = (((("nodes", 5), ("depth", 2)), ()), ((("nodes", 7), ("source", "book")),))
    searched = replace(record(0), search_stats=stats)
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(searched)
    store.append(record(1))
    lines = [json.loads(line) for line in store.games_path.read_text().splitlines()]
    assert lines[0]["search_stats"] == [[{"nodes": 5, "depth": 2}, {}], [{"nodes": 7, "source": "book"}]]
    assert "search_stats" not in lines[1]
    assert store.load() == [searched, record(1)]
    assert store.load()[1].search_stats == NO_STATS and store.load()[0].stats(0, 1) == {}


def test_a_torn_last_line_is_ignored_by_readers_and_cut_on_open(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(record(0))
    with open(store.games_path, "a") as handle:
        handle.write(json.dumps(record(1).to_json())[:40])
    torn = store.games_path.read_bytes()
    assert store.load() == [record(0)] and store.games_path.read_bytes() == torn
    assert store.open({"kind": "test"}, resume=True) == [record(0)]
    store.append(record(2))
    assert store.load() == [record(0), record(2)]
    assert all(json.loads(line) for line in store.games_path.read_text().splitlines())


def test_checking_a_directory_writes_nothing(tmp_path: Path) -> None:
    fresh = ResultsStore(tmp_path / "fresh")
    assert fresh.check({"kind": "test"}, resume=False) == [] and not fresh.directory.exists()
    store = ResultsStore(tmp_path / "run")
    store.open({"kind": "test", "games": 2}, resume=False)
    store.append(record(0))
    before = {path: path.read_bytes() for path in store.directory.iterdir()}
    with pytest.raises(RunDirectoryError, match="already holds a run"):
        store.check({"kind": "test", "games": 2}, resume=False)
    with pytest.raises(RunDirectoryError, match="different run"):
        store.check({"kind": "other", "games": 2}, resume=True)
    assert store.check({"kind": "test", "games": 4}, resume=True, may_change=("games",)) == [record(0)]
    assert {path: path.read_bytes() for path in store.directory.iterdir()} == before


@pytest.mark.parametrize(
    "plan, games, message",
    [
        (b"{not json", None, "is not a run's plan"),
        (b'"a string"', None, "is not a run's plan"),
        (b'{"kind": "test"}', b"\xff\xfe\n", "games.jsonl:1 is not a game record"),
        (b'{"kind": "test"}', b"[1, 2]\n", "games.jsonl:1 is not a game record"),
    ],
)
def test_files_that_are_not_a_run_are_reported_not_raised(
    tmp_path: Path, plan: bytes, games: bytes | None, message: str
) -> None:
    (tmp_path / "run.json").write_bytes(plan)
    if games is not None:
        (tmp_path / "games.jsonl").write_bytes(games)
    with pytest.raises(RunDirectoryError, match=message):
        ResultsStore(tmp_path).check({"kind": "test"}, resume=True)


def test_a_file_is_no_run_directory(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(RunDirectoryError, match="is a file"):
        ResultsStore(tmp_path / "file").check({"kind": "test"}, resume=False)


def test_a_game_recorded_twice_counts_once(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(record(0, 0))
    store.append(record(0, 1))
    assert store.load() == [record(0, 0)]


def test_a_corrupt_middle_line_is_reported_with_its_place(tmp_path: Path) -> None:
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.games_path.write_text('{"index": 0}\n' + json.dumps(record(1).to_json()) + "\n")
    with pytest.raises(RunDirectoryError, match="games.jsonl:1"):
        store.load()


SLOW_AGENT = """
    import time
    def agent(obs, config):
        time.sleep(0.1)
        return [c for c in range(config.columns) if obs.board[c] == 0][-1]
"""


def match_command(out: Path, agent: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "connectx.cli.main",
        "match",
        "random",
        str(agent),
        "-n",
        "8",
        "--jobs",
        "2",
        "--rows",
        "4",
        "--columns",
        "5",
        "--inarow",
        "4",
        "--out",
        str(out),
        *extra,
    ]


@pytest.mark.games
def test_resume_after_kill_9_keeps_every_finished_game_exactly_once(tmp_path: Path) -> None:
    agent = tmp_path / "slow.py"
    agent.write_text(textwrap.dedent(SLOW_AGENT))
    out = tmp_path / "run"
    games = out / "games.jsonl"
    process = subprocess.Popen(
        match_command(out, agent),
        cwd=REPO,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and (not games.exists() or len(games.read_text().splitlines()) < 2):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    before = games.read_text().splitlines() if games.exists() else []
    assert 2 <= len(before) < 8, f"the run should have been killed part way, after {len(before)} of 8 games"
    # A write cut short by the kill (or a power loss) leaves a partial line behind.
    with open(games, "a") as handle:
        handle.write(before[0][:25])
    finished = subprocess.run(
        match_command(out, agent, "--resume"), cwd=REPO, capture_output=True, text=True, timeout=180
    )
    assert finished.returncode == 0, finished.stderr
    after = games.read_text().splitlines()
    assert after[: len(before)] == before
    indices = [json.loads(line)["index"] for line in after]
    assert sorted(indices) == list(range(8))
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 8


def test_the_conditions_of_play_survive_the_round_trip_and_old_records_load_without_them(tmp_path: Path) -> None:
    measured = replace(record(0), cpu_seconds=0.75, load_average=(1.5, 2.25))
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(measured)
    store.append(record(1))
    lines = [json.loads(line) for line in store.games_path.read_text().splitlines()]
    assert lines[0]["load_average"] == [1.5, 2.25] and lines[0]["cpu_seconds"] == 0.75
    assert "load_average" not in lines[1]
    # A record written before either field existed (no cpu_seconds, no load_average) still loads.
    old = {key: value for key, value in lines[1].items() if key != "cpu_seconds"}
    with open(store.games_path, "a") as handle:
        handle.write(json.dumps({**old, "index": 2}) + "\n")
    loaded = store.load()
    assert loaded[0] == measured and loaded[1].load_average is None
    assert loaded[2].load_average is None and loaded[2].cpu_seconds == 0.0
