"""The `connectx` command, called in-process through ``main`` as a user would call it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.cli import main


def test_agents_lists_the_registry_and_kaggle_builtins(capsys: pytest.CaptureFixture) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "negamax" in out and "depth=<int>" in out and "kaggle:negamax" in out


def test_play_writes_the_replay_and_shows_the_result(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    html, replay = tmp_path / "game.html", tmp_path / "game.json"
    assert main(["play", "negamax:seed=1", "random:seed=2", "--html", str(html), "--json", str(replay)]) == 0
    out = capsys.readouterr().out
    data = json.loads(replay.read_text())
    assert data["statuses"] == ["DONE", "DONE"]
    assert data["info"]["TeamNames"] == ["negamax:seed=1", "random:seed=2"]
    assert ("wins" in out) or ("Draw" in out)
    assert "1 2 3 4 5 6 7" in out
    page = html.read_text()
    assert page.lower().startswith("<!doctype html") or "<html" in page.lower()
    assert "negamax:seed=1" in page


def test_play_runs_on_other_boards_and_agent_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    agent_file = tmp_path / "leftmost.py"
    agent_file.write_text(
        "def agent(obs, config):\n    return [c for c in range(config.columns) if obs.board[c] == 0][0]\n"
    )
    assert main(["play", str(agent_file), "kaggle:random", "--rows", "4", "--columns", "5", "--inarow", "3"]) == 0
    assert "1 2 3 4 5" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["play", "nope", "random"], "registered agents"),
    (["play", "kaggle:alphazero", "random"], "kaggle:random, kaggle:negamax"),
    (["play", "negamax:depth=x", "random"], "not a int"),
    (["play", "missing/agent.py", "random"], "does not exist"),
    (["play", "random", "random", "--rows", "0"], "rows = 0"),
])
def test_play_refuses_bad_input_with_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
