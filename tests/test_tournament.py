"""Tournament logic with a fake game function: pairings, numbering, cross table, joint ratings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation import tournament
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.match import summarize
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.results_text import cross_table, ratings_table
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.statistics.elo import Rating, fit_ratings
from connectx.evaluation.tournament import (
    TournamentPlan,
    TournamentSummary,
    TournamentTally,
    local_records,
    play_tournament,
)

STRENGTH = {"negamax": 3, "random": 2, "kaggle:random": 1}


def stronger_wins(spec: GameSpec) -> GameRecord:
    """The agent with the higher STRENGTH always wins."""
    winner = max((0, 1), key=lambda seat: STRENGTH[spec.names[seat]])
    return GameRecord(
        spec.index,
        spec.names,
        spec.config,
        spec.seed,
        spec.opening,
        spec.opening,
        winner,
        ("DONE", "DONE"),
        "line",
        None,
        "",
        ((0.1,), (0.2,)),
    )


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
    result = play_tournament(
        TournamentPlan((AgentSpec.of("random"), AgentSpec.of("negamax"), AgentSpec.of("kaggle:random")), 4),
        PlayOptions(executor=InlineExecutor(), play=stronger_wins, out=tmp_path),
    )
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

    play_tournament(
        TournamentPlan((AgentSpec.of("random"), AgentSpec.of("negamax")), 4),
        PlayOptions(executor=InlineExecutor(), play=counting, out=tmp_path),
    )
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:1]) + "\n")
    played.clear()
    result = play_tournament(
        TournamentPlan((AgentSpec.of("random"), AgentSpec.of("negamax")), 4),
        PlayOptions(executor=InlineExecutor(), play=counting, out=tmp_path, resume=True),
    )
    kept = json.loads(lines[0])["index"]
    assert sorted(played) == sorted(set(range(4)) - {kept}) and len(result.records) == 4


def test_an_anchor_outside_the_tournament_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        play_tournament(
            TournamentPlan((AgentSpec.of("random"), AgentSpec.of("negamax")), 2),
            PlayOptions(executor=InlineExecutor(), play=stronger_wins),
            anchor="mcts",
        )


RECORDED = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "ladder" / "vs-round-robin" / "round-robin"
"""A round robin of nine agents, ten games a pairing, recorded in the order its games finished."""


def test_a_tally_added_to_in_the_recorded_order_says_what_the_fold_from_the_start_says() -> None:
    stored = json.loads((RECORDED / "run.json").read_text())
    plan = TournamentPlan(
        specs(*stored["agents"]),
        stored["games"],
        BoardConfig.from_json(stored["config"]),
        stored["seed"],
        stored["opening_plies"],
    )
    assert plan.to_json() == stored
    finished = ResultsStore(RECORDED).load()
    assert len(finished) == plan.total_games
    tally = TournamentTally(plan)
    for count, record in enumerate(finished, start=1):
        tally.add(record)
        if count % 90 == 0 or count in (1, 7):
            summary, fold = tally.summary(), refolded(plan, finished[:count])
            assert json.dumps(summary.to_json()) == json.dumps(fold.to_json())
            assert cross_table(summary) == cross_table(fold) and ratings_table(summary) == ratings_table(fold)


def refolded(plan: TournamentPlan, records: list[GameRecord]) -> TournamentSummary:
    """The old way: every pairing's games gathered from all the games so far, and the ratings fitted on them."""
    pairings = tuple(summarize(plan.match_plan(p), local_records(plan, records, p)) for p in range(len(plan.pairings)))
    results = {
        (s.first, s.second): (s.total.wins + s.total.draws / 2, s.total.games) for s in pairings if s.total.games
    }
    return TournamentSummary(plan.agents, pairings, tuple(fit_ratings(results, plan.agents[0])), plan.agents[0])


def test_the_ratings_are_fitted_only_when_a_summary_is_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    fits = []

    def counted_fit(*args: Any, **kwargs: Any) -> list[Rating]:
        fits.append(args)
        return fit_ratings(*args, **kwargs)

    monkeypatch.setattr(tournament, "fit_ratings", counted_fit)
    asked = []
    result = play_tournament(
        TournamentPlan((AgentSpec.of("random"), AgentSpec.of("negamax"), AgentSpec.of("kaggle:random")), 4),
        PlayOptions(executor=InlineExecutor(), play=stronger_wins),
        on_game=lambda record, summary: asked.append(summary()) if record.index == 5 else None,
    )
    assert len(result.records) == 12 and len(fits) == 2  # the one line drawn, and the result's
    assert asked[0].ratings and result.summary.ratings
