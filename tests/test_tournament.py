"""Tournament logic with a fake game function: pairings, numbering, cross table, joint ratings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.results_text import cross_table, ratings_table
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.tournament import TournamentPlan, run_tournament

STRENGTH = {"negamax": 3, "random": 2, "kaggle:random": 1}


def stronger_wins(spec: GameSpec) -> GameRecord:
    """The agent with the higher STRENGTH always wins."""
    winner = max((0, 1), key=lambda seat: STRENGTH[spec.names[seat]])
    return GameRecord(spec.index, spec.names, spec.config, spec.seed, spec.opening, spec.opening, winner,
                      ("DONE", "DONE"), "line", None, "", ((0.1,), (0.2,)))


def specs(*texts: str) -> tuple[AgentSpec, ...]:
    return tuple(AgentSpec.parse(text) for text in texts)


def test_round_robin_and_gauntlet_pairings() -> None:
    a, b, c, d = agents = specs("random", "negamax", "minimax", "kaggle:random")
    assert TournamentPlan(agents, 2).pairings == [(a, b), (a, c), (a, d), (b, c), (b, d), (c, d)]
    assert TournamentPlan(agents, 2, gauntlet=True).pairings == [(a, b), (a, c), (a, d)]
    assert TournamentPlan(agents, 2).agents == ("random", "negamax", "minimax", "kaggle:random")
    with pytest.raises(ValueError, match="at least two"):
        TournamentPlan((a,), 2)
    with pytest.raises(ValueError, match="once"):
        TournamentPlan(specs("negamax:depth=3", "negamax: depth=3"), 2)


def test_every_pairing_meets_the_same_openings_with_its_own_seeds() -> None:
    a, b, c = agents = specs("random", "negamax", "kaggle:random")
    plan = TournamentPlan(agents, 4, opening_plies=3, seed=5)
    games = [plan.game_spec(i) for i in range(plan.total_games)]
    assert [g.index for g in games] == list(range(12))
    assert [g.agents for g in games[4:8]] == [(a, c), (c, a)] * 2
    assert [g.opening for g in games[0:4]] == [g.opening for g in games[4:8]] == [g.opening for g in games[8:12]]
    assert len({g.seed for g in games}) == 12


def test_round_robin_scores_and_ratings_follow_strength(tmp_path: Path) -> None:
    result = run_tournament(["random", "negamax", "kaggle:random"], 4, executor=InlineExecutor(),
                            play=stronger_wins, out=tmp_path)
    summary = result.summary
    assert summary.score("negamax", "random") == (4.0, 4)
    assert summary.score("random", "negamax") == (0.0, 4)
    assert summary.score("random", "kaggle:random") == (4.0, 4)
    assert [r.name for r in summary.ratings] == ["negamax", "random", "kaggle:random"]
    assert summary.anchor == "random" and {r.name: r.elo for r in summary.ratings}["random"] == 0.0
    table = cross_table(summary)
    assert "| #1 | negamax | - | 4/4 | 4/4 | 8/8 (100.0%) |" in table
    assert "anchor" in ratings_table(summary)
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 12


def test_tournament_resume_plays_only_missing_games(tmp_path: Path) -> None:
    played: list[int] = []

    def counting(spec: GameSpec) -> GameRecord:
        played.append(spec.index)
        return stronger_wins(spec)

    run_tournament(["random", "negamax"], 4, executor=InlineExecutor(), play=counting, out=tmp_path)
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:1]) + "\n")
    played.clear()
    result = run_tournament(["random", "negamax"], 4, executor=InlineExecutor(), play=counting, out=tmp_path,
                            resume=True)
    kept = json.loads(lines[0])["index"]
    assert sorted(played) == sorted(set(range(4)) - {kept}) and len(result.records) == 4


def test_an_anchor_outside_the_tournament_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        run_tournament(["random", "negamax"], 2, executor=InlineExecutor(), play=stronger_wins, anchor="mcts")
