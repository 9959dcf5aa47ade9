"""connectx match / tournament / replay, called in-process as users call them from the shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.main import main
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.match import MatchPlan

SMALL_BOARD = ["--rows", "4", "--columns", "5", "--inarow", "3"]


@pytest.mark.games
def test_match_prints_the_table_and_writes_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "match"
    code = main(
        [
            "match",
            "negamax:depth=1",
            "kaggle:random",
            "-n",
            "6",
            "--jobs",
            "2",
            "--out",
            str(out),
            "--openings",
            "2",
            "--replays",
            "--sprt",
            "0",
            "100",
            *SMALL_BOARD,
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "| total | 6 |" in printed and "Elo difference (95%)" in printed and "SPRT [0, 100]" in printed
    for name in ("games.jsonl", "run.json", "summary.json", "report.md", "score.png", "time_per_move.png"):
        assert (out / name).stat().st_size > 0, name
    games = {g["index"]: g for g in map(json.loads, (out / "games.jsonl").read_text().splitlines())}
    assert sorted(games) == list(range(6))
    plan = MatchPlan(
        AgentSpec.parse("negamax:depth=1"),
        AgentSpec.parse("kaggle:random"),
        6,
        BoardConfig(4, 5, 3),
        seed=0,
        opening_plies=2,
    )
    openings = [plan.game_spec(i).opening for i in range(6)]
    assert [tuple(games[i]["opening"]) for i in range(6)] == openings
    assert all(len(opening) == 2 for opening in openings) and len(set(openings)) > 1
    for pair in range(3):
        assert openings[2 * pair] == openings[2 * pair + 1]
        assert games[2 * pair]["agents"] == ["negamax:depth=1", "kaggle:random"]
        assert games[2 * pair + 1]["agents"] == ["kaggle:random", "negamax:depth=1"]
    assert all(tuple(g["moves"][:2]) == tuple(g["opening"]) for g in games.values())
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


def test_match_refuses_to_mix_runs_and_explains_how_to_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "run.json").write_text(json.dumps({"kind": "match"}))
    assert main(["match", "random", "kaggle:random", "-n", "2", "--out", str(out)]) == 2
    assert "--resume" in capsys.readouterr().err
    assert main(["match", "random", "kaggle:random", "-n", "2", "--out", str(out), "--resume"]) == 2
    assert "different run" in capsys.readouterr().err
    assert main(["match", "random", "kaggle:random", "-n", "2", "--resume"]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["match", "nonesuch", "kaggle:random", "-n", "2", "--out", str(tmp_path / "x")]) == 2
    assert "registered agents" in capsys.readouterr().err
    assert sorted(tmp_path.rglob("*")) == [out, out / "run.json"]
    assert json.loads((out / "run.json").read_text()) == {"kind": "match"}


@pytest.mark.games
def test_tournament_prints_ratings_and_a_cross_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rr"
    code = main(
        [
            "tournament",
            "random",
            "negamax:depth=1",
            "kaggle:random",
            "-n",
            "2",
            "--jobs",
            "2",
            "--out",
            str(out),
            "--anchor",
            "kaggle:random",
            *SMALL_BOARD,
        ]
    )
    assert code == 0
    printed = capsys.readouterr().out
    assert "Elo (anchor kaggle:random = 0)" in printed and "| pairing |" in printed
    summary = json.loads((out / "summary.json").read_text())
    assert len(summary["pairings"]) == 3 and {r["agent"] for r in summary["ratings"]} == {
        "random",
        "negamax:depth=1",
        "kaggle:random",
    }
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(g["index"] for g in games) == list(range(6))


def test_replay_of_a_game_that_was_not_saved_is_rebuilt_from_its_moves(tmp_path: Path) -> None:
    from connectx.evaluation.engine import BoardConfig
    from connectx.evaluation.game_record import GameRecord
    from connectx.evaluation.replays import rebuilt_environment
    from connectx.evaluation.results_store import ResultsStore

    record = GameRecord(
        0, ("a.py", "random"), BoardConfig(6, 7, 4), 1, (), (3, 3), 1, ("INVALID", "DONE"), "INVALID", 0, ""
    )
    env = rebuilt_environment(record)
    assert [state.status for state in env.steps[-1]] == ["INVALID", "DONE"]
    assert env.steps[-1][0].observation.board.count(0) == 42 - 2
    store = ResultsStore(tmp_path)
    store.open({"kind": "test"}, resume=False)
    store.append(record)
    assert main(["replay", str(tmp_path), "--game", "0"]) == 0
    assert (tmp_path / "game-0.html").exists()
    assert main(["replay", str(tmp_path), "--game", "5"]) == 2


@pytest.mark.games
def test_resume_continues_a_match_in_the_out_directory_that_holds_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "match"
    command = ["match", "random", "kaggle:random", "--jobs", "1", "--out", str(out), *SMALL_BOARD]
    assert main([*command, "-n", "2"]) == 0
    assert main([*command, "-n", "4", "--resume"]) == 0
    assert "| total | 4 |" in capsys.readouterr().out
    assert sorted(json.loads(line)["index"] for line in (out / "games.jsonl").read_text().splitlines()) == [0, 1, 2, 3]


def test_report_resume_goes_on_when_a_cell_of_the_report_is_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from connectx.papers.experiments.catalogue import QUICK
    from connectx.papers.experiments.runner import cell_directory, cell_plan, chosen_experiments

    experiment = chosen_experiments(QUICK)[0]
    cell = experiment.cells[0]
    directory = cell_directory(tmp_path / "quick", experiment, cell)
    directory.mkdir(parents=True)
    (directory / "run.json").write_text(json.dumps(cell_plan(QUICK, experiment, cell).to_json()))

    def stopped(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # past every check: the games would start here

    monkeypatch.setattr("connectx.cli.report.play_experiments", stopped)
    assert main(["report", "--quick", "--out", str(tmp_path), "--only", experiment.key, "--resume"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_the_live_line_asks_for_its_text_only_when_it_shows_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from connectx.cli import progress

    now = [0.0]
    monkeypatch.setattr(progress.time, "monotonic", lambda: now[0])
    bar = progress.ProgressBar(100, 0)
    asked: list[float] = []

    def text() -> str:
        asked.append(round(now[0] * 10))
        return "leader"

    for game in range(100):
        now[0] = game * 0.1  # ten games a second
        bar.update(text)
    bar.close()
    # The first game, one a second after it on the bar (TEXT_EVERY; every PLAIN_EVERY on a plain line without tqdm)
    # and the last: a tournament's fit as often, not 100 times.
    step = round((progress.TEXT_EVERY if bar.bar is not None else progress.PLAIN_EVERY) / 0.1)
    assert asked == [*range(0, 100, step), 99]
