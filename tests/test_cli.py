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


@pytest.mark.games
def test_play_writes_the_replay_and_shows_the_result(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    html, replay = tmp_path / "game.html", tmp_path / "game.json"
    assert main(["play", "negamax:seed=1", "random:seed=2", "--html", str(html), "--json", str(replay)]) == 0
    out = capsys.readouterr().out
    data = json.loads(replay.read_text())
    assert data["statuses"] == ["DONE", "DONE"]
    assert data["info"]["TeamNames"] == ["negamax:seed=1", "random:seed=2"]
    moves = len(data["steps"]) - 1
    first, second = data["rewards"]
    if first == second:
        assert f"Draw after {moves} moves." in out
    else:
        winner = 0 if first > second else 1
        name = data["info"]["TeamNames"][winner]
        assert f"{name} (player {winner + 1}) wins after {moves} moves." in out
    board = data["steps"][-1][0]["observation"]["board"]
    shown = [line.split() for line in out.splitlines()[:6]]
    assert [["." if cell == 0 else str(cell) for cell in board[row * 7:(row + 1) * 7]] for row in range(6)] == [
        [{"X": "1", "O": "2"}.get(token, token) for token in line] for line in shown]
    assert "1 2 3 4 5 6 7" in out
    page = html.read_text()
    assert page.lower().startswith("<!doctype html") or "<html" in page.lower()
    assert "negamax:seed=1" in page


@pytest.mark.games
def test_play_runs_on_other_boards_and_agent_files(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    agent_file = tmp_path / "leftmost.py"
    agent_file.write_text(
        "def agent(obs, config):\n    return [c for c in range(config.columns) if obs.board[c] == 0][0]\n"
    )
    assert main(["play", str(agent_file), "kaggle:random", "--rows", "4", "--columns", "5", "--inarow", "3"]) == 0
    assert "1 2 3 4 5" in capsys.readouterr().out


@pytest.mark.games
def test_play_takes_parameters_with_slashes(capsys: pytest.CaptureFixture) -> None:
    assert main(["play", "minimax:weights=1/3/9/81,seed=1", "kaggle:random", "--seed", "3"]) == 0
    assert "minimax:weights=1/3/9/81,seed=1 (player 1) wins" in capsys.readouterr().out


@pytest.mark.games
def test_a_seeded_play_is_the_game_a_match_plays_with_that_game_seed() -> None:
    from evaluation.engine import BoardConfig, run_game
    from evaluation.game import GameSpec, play_game

    config = BoardConfig(4, 5, 3)
    env = run_game(["random", "kaggle:random"], config, seed=9)
    played = tuple(int(state[0 if ply % 2 == 0 else 1].action) for ply, state in enumerate(env.steps[1:]))
    assert play_game(GameSpec(0, ("random", "kaggle:random"), config, seed=9)).moves == played
