"""Games on a Dask cluster bound to 127.0.0.1: the same games, stored once, through worker and scheduler faults.

Each test that needs Dask is skipped, saying so, when ``distributed`` is not installed (``make
test`` installs it). The tests that start a cluster carry the ``games`` marker: they are slow too.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation import cluster as cluster_module
from connectx.evaluation.cluster import ClusterError, ClusterExecutor, ClusterLostError, ClusterTarget, open_cluster
from connectx.evaluation.game import Watchdog
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.match import MatchPlan, MatchSummary, play_match
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor

needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask's distributed is not installed: make install-cluster (make test does it)",
)

PAIR = (AgentSpec.of("negamax:depth=2"), AgentSpec.of("random"))
"""Seeded and node-capped: a game depends on its seed only, wherever it is played."""
GAMES, SEED, OPENING_PLIES = 8, 11, 2
PLAN = MatchPlan(*PAIR, GAMES, seed=SEED, opening_plies=OPENING_PLIES)
LEFTMOST = "def agent(observation, configuration):\n    return observation.board.index(0) % configuration.columns\n"
HUNG = "import time\n\n\ndef agent(observation, configuration):\n    time.sleep(3600)\n"


def outcome(record: GameRecord) -> tuple[Any, ...]:
    """Everything that decides a game and its result (not its timings)."""
    return (
        record.index,
        record.agents,
        record.seed,
        record.opening,
        record.moves,
        record.winner,
        record.statuses,
        record.cause,
        record.offender,
    )


def stored_indices(directory: Path) -> list[int]:
    return sorted(json.loads(line)["index"] for line in (directory / "games.jsonl").read_text().splitlines())


class Interrupted(Exception):
    """Stands for a Ctrl-C in the middle of a run."""


def interrupt_after(count: int):
    played: list[int] = []

    def on_game(record: GameRecord, summary: Callable[[], MatchSummary]) -> None:
        played.append(record.index)
        if len(played) == count:
            raise Interrupted

    return on_game


@pytest.fixture(scope="module")
def cluster() -> Iterator[ClusterExecutor]:
    with open_cluster("local:2") as executor:
        yield executor


@pytest.fixture(scope="module")
def local_games() -> tuple[GameRecord, ...]:
    """The match played the default way: a local pool of two worker processes."""
    result = play_match(PLAN, PlayOptions(jobs=2))
    assert all(record.cause in ("line", "draw") for record in result.records)
    return result.records


@pytest.mark.parametrize(
    "text, expected",
    [
        ("local:2", ClusterTarget(workers=2)),
        (" local:16 ", ClusterTarget(workers=16)),
        ("tcp://scheduler-host:8786", ClusterTarget(address="tcp://scheduler-host:8786")),
        ("tls://10.0.0.5:8786", ClusterTarget(address="tls://10.0.0.5:8786")),
        ("tcp://127.0.0.1", ClusterTarget(address="tcp://127.0.0.1")),
    ],
)
def test_the_flag_names_a_local_cluster_or_a_scheduler(text: str, expected: ClusterTarget) -> None:
    assert ClusterTarget.parse(text) == expected
    assert ClusterTarget.parse(expected.text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "local:0",
        "local:-1",
        "local:",
        "local:two",
        "local:2.5",
        "",
        "scheduler:8786",
        "http://scheduler-host:8786",
        "tcp://",
        "tcp://host:port",
        "tcp://host:99999",
        "tcp://host:8786/path",
        "8786",
    ],
)
def test_a_bad_flag_is_one_line_that_gives_both_forms(text: str) -> None:
    with pytest.raises(ValueError) as error:
        ClusterTarget.parse(text)
    message = str(error.value)
    assert "\n" not in message and repr(text) in message and "local:" in message
    if not text.strip().startswith("local:"):
        assert "tcp://scheduler-host:8786" in message


def test_without_a_cluster_dask_is_never_imported() -> None:
    code = (
        "import sys; import connectx.evaluation.cluster as c, connectx.evaluation.match; "
        "import connectx.evaluation.tournament; "
        "c.ClusterTarget.parse('local:2'); c.ClusterTarget.parse('tcp://h:1'); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


@needs_dask
def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(ClusterError) as error, open_cluster(f"tcp://127.0.0.1:{port}", timeout=2):
        pass
    assert f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s" in str(error.value)
    assert "\n" not in str(error.value) and time.monotonic() - started < 60


@needs_dask
def test_a_scheduler_without_workers_is_one_clear_error() -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None) as empty:
        with pytest.raises(ClusterError) as error, open_cluster(empty.scheduler_address, timeout=1):
            pass
    assert str(error.value) == (
        f"the Dask scheduler at {empty.scheduler_address} has no worker (none joined in 1 s); "
        f"start one with `dask worker {empty.scheduler_address}` on each machine"
    )


@needs_dask
@pytest.mark.games
def test_a_local_cluster_listens_on_127_0_0_1_only(cluster: ClusterExecutor) -> None:
    import psutil

    info = cluster.client.scheduler_info()
    addresses = [cluster.address, *info["workers"], *(worker["nanny"] for worker in info["workers"].values())]
    if cluster.dashboard_link is not None:
        addresses.append(cluster.dashboard_link)
    assert len(info["workers"]) == 2 and cluster.jobs == 2
    assert {urlsplit(address).hostname for address in addresses} == {"127.0.0.1"}
    processes = [os.getpid(), *cluster.client.run(os.getpid).values()]
    listening = [
        connection.laddr
        for pid in processes
        for connection in psutil.Process(pid).net_connections("inet")
        if connection.status == psutil.CONN_LISTEN
    ]
    assert len(listening) >= 5  # scheduler, two workers, two nannies (and dashboards)
    assert {address.ip for address in listening} == {"127.0.0.1"}


@needs_dask
@pytest.mark.games
def test_a_cluster_run_reproduces_the_local_run_game_for_game(
    cluster: ClusterExecutor, local_games: tuple[GameRecord, ...]
) -> None:
    result = play_match(PLAN, PlayOptions(jobs=cluster.jobs, executor=cluster))
    assert [outcome(record) for record in result.records] == [outcome(record) for record in local_games]
    assert all(record.cpu_seconds > 0 for record in result.records)  # each game ran in a process of its own


@needs_dask
@pytest.mark.games
def test_a_run_moves_between_local_and_cluster_with_resume(
    cluster: ClusterExecutor, local_games: tuple[GameRecord, ...], tmp_path: Path
) -> None:
    local = PlayOptions(jobs=2, out=tmp_path, resume=True)
    with pytest.raises(Interrupted):
        play_match(PLAN, local, on_game=interrupt_after(3))
    assert len(stored_indices(tmp_path)) == 3
    # A run stopped on the cluster drops its executor, as Ctrl-C would: the next run gets a fresh one.
    stopped = ClusterExecutor.connect(cluster.client)
    with pytest.raises(Interrupted):
        play_match(PLAN, replace(local, jobs=stopped.jobs, executor=stopped), on_game=interrupt_after(2))
    assert len(stored_indices(tmp_path)) == 5
    result = play_match(PLAN, local)
    assert stored_indices(tmp_path) == list(range(GAMES))
    assert [outcome(record) for record in result.records] == [outcome(record) for record in local_games]


@needs_dask
@pytest.mark.games
def test_an_agent_file_is_shipped_to_the_workers_as_source(
    cluster: ClusterExecutor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The workers' working directory is not this one, so they cannot open the relative path
    # themselves; and the file is deleted once the first game is back, before the last ones start.
    monkeypatch.chdir(tmp_path)
    agent = Path("leftmost.py")
    agent.write_text(LEFTMOST)
    local = play_match(
        MatchPlan(AgentSpec.of(agent.name), AgentSpec.of("random"), 6, seed=SEED),
        PlayOptions(executor=InlineExecutor()),
    )
    result = play_match(
        MatchPlan(AgentSpec.of(agent.name), AgentSpec.of("random"), 6, seed=SEED),
        PlayOptions(jobs=cluster.jobs, executor=cluster, out="run"),
        on_game=lambda record, summary: agent.unlink(missing_ok=True),
    )
    assert not agent.exists()
    assert [outcome(record) for record in result.records] == [outcome(record) for record in local.records]
    assert {record.cause for record in result.records} <= {"line", "draw"}
    assert all(
        json.loads(line)["agents"] in (["leftmost.py", "random"], ["random", "leftmost.py"])
        for line in Path("run/games.jsonl").read_text().splitlines()
    )


@needs_dask
@pytest.mark.games
def test_a_hung_agent_costs_its_own_game_not_a_worker(cluster: ClusterExecutor, tmp_path: Path) -> None:
    hung = tmp_path / "hung.py"
    hung.write_text(HUNG)
    workers = set(cluster.client.run(os.getpid).values())
    result = play_match(
        MatchPlan(AgentSpec.of(str(hung)), AgentSpec.of("random"), 2, seed=SEED),
        PlayOptions(jobs=cluster.jobs, executor=cluster, watchdog=Watchdog(move_limit=1.0)),
    )
    assert [(record.cause, record.offender, record.agents[record.offender]) for record in result.records] == [
        ("TIMEOUT", 0, str(hung)),
        ("TIMEOUT", 1, str(hung)),
    ]
    assert workers <= set(cluster.client.run(os.getpid).values())


@needs_dask
@pytest.mark.games
def test_workers_with_other_versions_are_refused(cluster: ClusterExecutor, monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.0.1" if name == "connectx" else real(name))
    cluster_module.package_versions.cache_clear()
    try:
        with pytest.raises(ClusterError) as error, open_cluster(cluster.address, timeout=10):
            pass
        mismatch = f"has connectx {real('connectx')} but this command runs 0.0.1"
        assert mismatch in str(error.value) and "\n" not in str(error.value)
        # A worker that joins later is checked by each game it is given.
        with pytest.raises(ClusterError, match=mismatch):
            play_match(MatchPlan(*PAIR, 2), PlayOptions(executor=ClusterExecutor(cluster.client)))
    finally:
        cluster_module.package_versions.cache_clear()


@needs_dask
@pytest.mark.games
def test_a_worker_killed_mid_match_costs_only_the_games_it_held(
    cluster: ClusterExecutor, local_games: tuple[GameRecord, ...], tmp_path: Path
) -> None:
    pids = cluster.client.run(os.getpid)
    killed: list[int] = []

    def kill_a_busy_worker(record: GameRecord, summary: Callable[[], MatchSummary]) -> None:
        busy = [worker for worker, keys in cluster.client.processing().items() if keys and worker in pids]
        if not killed and summary().total.games >= 3 and busy:
            killed.append(pids[busy[0]])
            os.kill(killed[0], signal.SIGKILL)

    games = GAMES + 6
    result = play_match(
        replace(PLAN, games=games),
        PlayOptions(jobs=cluster.jobs, executor=cluster, out=tmp_path),
        on_game=kill_a_busy_worker,
    )
    assert killed and killed[0] not in cluster.client.run(os.getpid).values()
    assert stored_indices(tmp_path) == list(range(games))
    assert [outcome(record) for record in result.records[:GAMES]] == [outcome(record) for record in local_games]
    assert {record.cause for record in result.records} <= {"line", "draw"}


@pytest.fixture
def scheduler_and_worker(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A scheduler and one worker started with the ``dask`` command, as the README says, on 127.0.0.1."""
    dask = str(Path(sys.executable).parent / "dask")
    address_file = tmp_path / "scheduler.json"
    local = ["--host", "127.0.0.1", "--no-dashboard"]
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--port", "0", "--scheduler-file", str(address_file), *local],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = subprocess.Popen(
        [dask, "worker", "--nthreads", "1", "--scheduler-file", str(address_file), *local],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not address_file.exists() and time.monotonic() < deadline and scheduler.poll() is None:
            time.sleep(0.1)
        yield json.loads(address_file.read_text())["address"], scheduler
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait()


@needs_dask
@pytest.mark.games
def test_a_lost_scheduler_ends_the_run_clearly_and_resume_finishes_it(
    scheduler_and_worker: tuple[str, subprocess.Popen[bytes]], tmp_path: Path
) -> None:
    address, scheduler = scheduler_and_worker

    def kill_the_scheduler(record: GameRecord, summary: Callable[[], MatchSummary]) -> None:
        if summary().total.games == 2:
            scheduler.kill()

    with pytest.raises(ClusterLostError) as error, open_cluster(address, timeout=60) as executor:
        play_match(
            replace(PLAN, opening_plies=0),
            PlayOptions(jobs=executor.jobs, executor=executor, out=tmp_path),
            on_game=kill_the_scheduler,
        )
    assert f"lost the Dask scheduler at {address}" in str(error.value) and "rerun with resume=True" in str(error.value)
    assert len(stored_indices(tmp_path)) == 2
    play_match(replace(PLAN, opening_plies=0), PlayOptions(executor=InlineExecutor(), out=tmp_path, resume=True))
    assert stored_indices(tmp_path) == list(range(GAMES))


@pytest.mark.games
def test_connectx_match_plays_on_a_local_cluster_like_the_local_pool(tmp_path: Path) -> None:
    """The command's --cluster flag: the same seeded games as the local pool, every game once."""
    pytest.importorskip("distributed")
    from connectx.cli.main import main

    argv = ["match", "negamax:depth=2", "random", "-n", "6", "--seed", "5"]
    assert main([*argv, "--jobs", "2", "--out", str(tmp_path / "local")]) == 0
    assert main([*argv, "--cluster", "local:2", "--out", str(tmp_path / "cluster")]) == 0
    local = [json.loads(line) for line in (tmp_path / "local" / "games.jsonl").read_text().splitlines()]
    cluster = [json.loads(line) for line in (tmp_path / "cluster" / "games.jsonl").read_text().splitlines()]
    assert sorted(game["index"] for game in cluster) == list(range(6))
    assert {g["index"]: g["moves"] for g in cluster} == {g["index"]: g["moves"] for g in local}
