"""The `connectx` command, called in-process through ``main`` as a user would call it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import connectx
from connectx.cli.main import main
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import GameSpec
from connectx.evaluation.results_store import ResultsStore

REPO = Path(__file__).resolve().parents[1]


def test_agents_lists_the_registry_and_kaggle_builtins(capsys: pytest.CaptureFixture) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "negamax" in out and "depth=<int>" in out and "kaggle:negamax" in out
    # A person is listed with where one can play: play takes it, match and tournament do not.
    (human,) = [line for line in out.splitlines() if line.startswith("human ")]
    assert "connectx play only (connectx play human solver" in human and "connectx serve" in human


def test_bare_connectx_prints_the_help(capsys: pytest.CaptureFixture) -> None:
    assert main([]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("usage: connectx") and err == ""
    for command in ("agents", "play", "match", "tournament", "solve", "analyze", "serve", "--version"):
        assert command in out


def test_version_is_the_packages(capsys: pytest.CaptureFixture) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"connectx {connectx.__version__}\n"


def test_bare_connectx_runs_as_a_program() -> None:
    done = subprocess.run([sys.executable, "-m", "connectx"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.startswith("usage: connectx") and done.stderr == ""


@pytest.mark.games
def test_play_writes_the_replay_and_shows_the_result(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    html, replay, out = tmp_path / "game.html", tmp_path / "game.json", tmp_path / "play"
    assert (
        main(["play", "negamax:seed=1", "random:seed=2", "--html", str(html), "--json", str(replay), "--out", str(out)])
        == 0
    )
    out_text = capsys.readouterr().out
    data = json.loads(replay.read_text())
    assert data["statuses"] == ["DONE", "DONE"]
    assert data["info"]["TeamNames"] == ["negamax:seed=1", "random:seed=2"]
    moves = len(data["steps"]) - 1
    first, second = data["rewards"]
    if first == second:
        assert f"Draw after {moves} moves." in out_text
    else:
        winner = 0 if first > second else 1
        name = data["info"]["TeamNames"][winner]
        assert f"{name} (player {winner + 1}) wins after {moves} moves." in out_text
    board = data["steps"][-1][0]["observation"]["board"]
    shown = [line.split() for line in out_text.splitlines()[:6]]
    assert [["." if cell == 0 else str(cell) for cell in board[row * 7 : (row + 1) * 7]] for row in range(6)] == [
        [{"X": "1", "O": "2"}.get(token, token) for token in line] for line in shown
    ]
    assert "1 2 3 4 5 6 7" in out_text
    page = html.read_text()
    assert page.lower().startswith("<!doctype html") or "<html" in page.lower()
    assert "negamax:seed=1" in page
    # The same record a match writes: one game in games.jsonl, its replay beside it, and replay renders it.
    (record,) = ResultsStore(out).load()
    assert record.agents == ("negamax:seed=1", "random:seed=2") and len(record.moves) == moves
    assert json.loads((out / "run.json").read_text())["kind"] == "play"
    assert json.loads(ResultsStore(out).replay_path(0).read_text()) == data
    assert main(["replay", str(out), "--game", "0", "-o", str(tmp_path / "again.html")]) == 0
    assert "negamax:seed=1" in (tmp_path / "again.html").read_text()


@pytest.mark.games
def test_play_runs_on_other_boards_and_agent_files(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    agent_file = tmp_path / "leftmost.py"
    agent_file.write_text(
        "def agent(obs, config):\n    return [c for c in range(config.columns) if obs.board[c] == 0][0]\n"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["play", str(agent_file), "kaggle:random", "--rows", "4", "--columns", "5", "--inarow", "3"]) == 0
    assert "1 2 3 4 5" in capsys.readouterr().out
    # Without --out the record goes to out/play/<agents>-<time>/.
    (directory,) = (tmp_path / "out" / "play").iterdir()
    assert directory.name.startswith("leftmost-vs-kaggle_random-") and len(ResultsStore(directory).load()) == 1


@pytest.mark.games
def test_play_takes_parameters_with_slashes(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert (
        main(
            ["play", "minimax:weights=1/3/9/81,seed=1", "kaggle:random", "--seed", "3", "--out", str(tmp_path / "play")]
        )
        == 0
    )
    assert "minimax:weights=1/3/9/81,seed=1 (player 1) wins" in capsys.readouterr().out


@pytest.mark.games
def test_a_seeded_play_is_the_game_a_match_plays_with_that_game_seed(tmp_path: Path) -> None:
    config = BoardConfig(4, 5, 3)
    board = ["--rows", "4", "--columns", "5", "--inarow", "3"]
    assert main(["play", "random", "kaggle:random", *board, "--seed", "9", "--out", str(tmp_path / "seeded")]) == 0
    (played,) = ResultsStore(tmp_path / "seeded").load()
    assert played.seed == 9
    assert play_game(GameSpec(0, ("random", "kaggle:random"), config, seed=9)).moves == played.moves
    # Without --seed the game gets a random seed, recorded, which replays it.
    assert main(["play", "random", "kaggle:random", *board, "--out", str(tmp_path / "unseeded")]) == 0
    (unseeded,) = ResultsStore(tmp_path / "unseeded").load()
    assert play_game(GameSpec(0, ("random", "kaggle:random"), config, seed=unseeded.seed)).moves == unseeded.moves


def test_a_closed_pipe_ends_the_output_quietly() -> None:
    # `connectx solve < file | head -1`: the reader stops after one line while positions remain.
    lines = (REPO / "positions" / "Test_L3_R1").read_text().splitlines() * 5
    process = subprocess.Popen(
        [sys.executable, "-m", "connectx.cli.main", "solve"],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write("\n".join(lines).encode())
    process.stdin.close()
    first = process.stdout.readline().decode()
    process.stdout.close()
    error = process.stderr.read().decode()
    assert process.wait(timeout=300) == 1, "the solve finished before the pipe closed"
    assert first.split()[0] == lines[0].split()[0] and error == ""
