"""connectx match / tournament / replay, called in-process as users call them from the shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.cli import main

SMALL_BOARD = ["--rows", "4", "--columns", "5", "--inarow", "3"]


def test_match_prints_the_table_and_writes_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match"
    code = main(["match", "negamax:depth=1", "kaggle:random", "-n", "6", "--jobs", "2", "--out", str(out),
                 "--openings", "2", "--replays", "--sprt", "0", "100", *SMALL_BOARD])
    assert code == 0
    printed = capsys.readouterr().out
    assert "| total | 6 |" in printed and "Elo difference (95%)" in printed and "SPRT [0, 100]" in printed
    for name in ("games.jsonl", "run.json", "summary.json", "report.md", "score.png", "time_per_move.png"):
        assert (out / name).stat().st_size > 0, name
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(g["index"] for g in games) == list(range(6))
    assert all(g["opening"] == games[0]["opening"] or len(g["opening"]) == 2 for g in games)
    summary = json.loads((out / "summary.json").read_text())
    total = summary["total"]
    assert total["wins"] + total["draws"] + total["losses"] == summary["games"] == 6
    assert set(summary["time_per_move"]) == {"negamax:depth=1", "kaggle:random"}
    assert summary["sprt"]["upper"] == pytest.approx(2.944, abs=1e-3)
    assert len(list((out / "replays").glob("game-*.json"))) == 6
    assert "# Match: negamax:depth=1 vs kaggle:random" in (out / "report.md").read_text()

    html = tmp_path / "game3.html"
    assert main(["replay", str(out), "--game", "3", "-o", str(html)]) == 0
    assert "kaggle" in html.read_text().lower() and "negamax:depth=1" in html.read_text()


def test_match_refuses_to_mix_runs_and_explains_how_to_resume(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"kind": "match"}))
    assert main(["match", "random", "kaggle:random", "-n", "2", "--out", str(out)]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["match", "random", "kaggle:random", "-n", "2", "--resume"]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["match", "nonesuch", "kaggle:random", "-n", "2", "--out", str(tmp_path / "x")]) == 2
    assert "registered agents" in capsys.readouterr().err


def test_tournament_prints_ratings_and_a_cross_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rr"
    code = main(["tournament", "random", "negamax:depth=1", "kaggle:random", "-n", "2", "--jobs", "2",
                 "--out", str(out), "--anchor", "kaggle:random", *SMALL_BOARD])
    assert code == 0
    printed = capsys.readouterr().out
    assert "Elo (anchor kaggle:random = 0)" in printed and "| pairing |" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["pairings"]) == 3 and {r["agent"] for r in summary["ratings"]} == {
        "random", "negamax:depth=1", "kaggle:random"}
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(g["index"] for g in games) == list(range(6))


def test_replay_of_a_game_that_was_not_saved_is_rebuilt_from_its_moves(tmp_path: Path) -> None:
    from evaluation.engine import BoardConfig
    from evaluation.game import GameRecord
    from evaluation.replay_command import rebuilt_environment
    from evaluation.results_store import ResultsStore

    record = GameRecord(0, ("a.py", "random"), BoardConfig(6, 7, 4), 1, (), (3, 3), 1, ("INVALID", "DONE"),
                        "INVALID", 0, "")
    env = rebuilt_environment(record)
    assert [state.status for state in env.steps[-1]] == ["INVALID", "DONE"]
    assert env.steps[-1][0].observation.board.count(0) == 42 - 2
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(record)
    assert main(["replay", str(tmp_path), "--game", "0"]) == 0
    assert (tmp_path / "game-0.html").exists()
    assert main(["replay", str(tmp_path), "--game", "5"]) == 2
