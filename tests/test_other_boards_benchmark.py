"""``benchmarks/other_boards.py`` keeps its games in the repository: a cell played by other agents' code is refused."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_benchmark(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/other_boards.py", *arguments], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_resuming_a_cell_played_by_other_agents_code_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
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

