"""``benchmarks.other_boards`` keeps its games in the repository: a cell played by other agents' code is refused."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.other_boards import OPPONENTS, PREVIOUS_COMMIT, REVISIONS, Matchup, main, opponent_spec
from connectx.evaluation.results_store import ResultsStore

Run = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def run_benchmark(run_main: Callable[[Callable[[list[str]], int]], Run]) -> Run:
    """The benchmark's ``main`` in this process (see ``conftest.run_main``)."""
    return run_main(main)


def test_resuming_a_cell_played_by_other_agents_code_is_refused_and_nothing_is_written(
    run_benchmark: Run, tmp_path: Path
) -> None:
    cell = tmp_path / "8x7-4" / "solver-vs-mcts"
    cell.mkdir(parents=True)
    (cell / "agents.sha256").write_text("0" * 64 + "\n")
    before = sorted(path.name for path in tmp_path.rglob("*"))
    run = run_benchmark("--resume", "--out", str(tmp_path), "--boards", "8x7/4", "--opponents", "mcts")
    assert run.returncode == 2
    assert f"{cell} holds games played by other agents' code" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert sorted(path.name for path in tmp_path.rglob("*")) == before
    assert (cell / "agents.sha256").read_text() == "0" * 64 + "\n"
    (cell / "agents.sha256").unlink()  # a cell that names no code is not trusted either
    run = run_benchmark("--resume", "--out", str(tmp_path), "--boards", "8x7/4", "--opponents", "mcts")
    assert run.returncode == 2 and "other agents' code" in run.stderr


@pytest.mark.games
def test_the_table_splits_each_cells_record_by_the_solvers_seat(run_benchmark: Run, tmp_path: Path) -> None:
    run = run_benchmark(
        "--out",
        str(tmp_path),
        "--boards",
        "5x4/3",
        "--opponents",
        "minimax",
        "--games",
        "4",
        "--step",
        "4",
        "--solver",
        "solver:time_budget=0.05",
    )
    assert run.returncode == 0, run.stderr
    [games] = tmp_path.rglob("games.jsonl")  # the one cell played
    records = ResultsStore(games.parent).load()
    assert len(records) == 4
    seats: dict[str, list[int]] = {"first": [0, 0, 0], "second": [0, 0, 0]}
    for record in records:
        seat = record.agents.index("solver:time_budget=0.05")
        points = record.points(seat)
        seats["first" if seat == 0 else "second"][[1.0, 0.5, 0.0].index(points)] += 1
    table = run_benchmark(
        "--table",
        "--out",
        str(tmp_path),
        "--boards",
        "5x4/3",
        "--opponents",
        "minimax",
        "--games",
        "4",
        "--solver",
        "solver:time_budget=0.05",
    )
    assert table.returncode == 0, table.stderr
    row = next(line for line in table.stdout.splitlines() if line.startswith("| 5x4/3 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[4] == "/".join(map(str, seats["first"]))
    assert cells[5] == "/".join(map(str, seats["second"]))
    assert cells[3] == "/".join(str(a + b) for a, b in zip(seats["first"], seats["second"], strict=True))


def test_the_previous_solver_is_built_from_its_commit_once_and_named_by_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # the agent file goes to REVISIONS, relative to where the benchmark runs
    spec = opponent_spec("previous")
    assert spec == str(REVISIONS / f"solver-{PREVIOUS_COMMIT[:12]}.py")
    built = Path(spec)
    source = built.read_text()
    assert "open_board" not in source and "def agent(" in source  # the solver before its open-board play
    stamp = built.stat().st_mtime_ns
    assert opponent_spec("previous") == spec and built.stat().st_mtime_ns == stamp  # not built again
    assert opponent_spec("mcts") == "mcts"
    cell = Matchup("8x7/4", "previous").directory(Path("results"), "solver")
    assert cell == Path("results", "8x7-4", f"solver-vs-{OPPONENTS['previous']}")
