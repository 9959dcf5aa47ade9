"""How Elo is printed: bounds instead of infinities in the match table, the running line and tournament tables."""

from __future__ import annotations

import math

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.match import MatchPlan, MatchSummary, summarize
from connectx.evaluation.results_text import (
    elo_estimate,
    elo_text,
    match_table,
    pairings_table,
    ratings_table,
    running_line,
)
from connectx.evaluation.statistics.elo import Interval, Rating
from connectx.evaluation.tournament import TournamentSummary

AGENTS = {"a": "random", "b": "negamax"}
"""The match's agent A ("a") and agent B ("b")."""


def match_of(games: int, winner: str | None) -> MatchSummary:
    """The summary of ``games`` games of A ("a") against B ("b") that ``winner`` always wins (None: draws)."""
    plan = MatchPlan(AgentSpec.parse(AGENTS["a"]), AgentSpec.parse(AGENTS["b"]), games)
    records = []
    for index in range(games):
        agents = plan.game_spec(index).names
        seat = None if winner is None else agents.index(AGENTS[winner])
        records.append(
            GameRecord(
                index, agents, plan.config, 0, (), (), seat, ("DONE", "DONE"), "draw" if seat is None else "line"
            )
        )
    return summarize(plan, records)


def table_row(table: str, label: str) -> str:
    return next(line for line in table.splitlines() if line.startswith(f"| {label} |"))


def test_five_pairs_all_won_print_lower_bounds_not_infinities() -> None:
    # The issue: "Elo from pairs +inf [+inf, +inf]" after 5 pairs all won.
    summary = match_of(10, "a")
    table = match_table(summary)
    assert table_row(table, "Elo from pairs (95%)") == "| Elo from pairs (95%) | > +45.9 |"
    assert table_row(table, "Elo difference (95%)") == "| Elo difference (95%) | > +166.2 |"
    assert "inf" not in table
    assert "Elo > +166.2" in running_line(summary)


def test_five_pairs_all_lost_print_upper_bounds() -> None:
    summary = match_of(10, "b")
    table = match_table(summary)
    assert table_row(table, "Elo from pairs (95%)") == "| Elo from pairs (95%) | < -45.9 |"
    assert "inf" not in table and "Elo < -166.2" in running_line(summary)


def test_five_pairs_all_drawn_print_a_finite_interval() -> None:
    table = match_table(match_of(10, None))
    assert table_row(table, "Elo from pairs (95%)") == "| Elo from pairs (95%) | +0.0 [-161.7, +161.7] |"
    assert "inf" not in table


def test_one_game_and_no_game() -> None:
    won = match_of(1, "a")
    assert elo_text(won.elo) == "> -233.7" and "inf" not in match_table(won)
    assert elo_text(match_of(1, None).elo).startswith("+0.0 [-")
    assert elo_text(Interval(0.0, -math.inf, math.inf)) == "n/a" == elo_estimate(Interval(0.0, -math.inf, math.inf))
    assert elo_text(Interval(12.34, -4.0, 28.64)) == "+12.3 [-4.0, +28.6]"


def test_tournament_tables_print_no_infinity() -> None:
    lopsided = match_of(10, "a")
    ratings = (
        Rating("a", 0.0, 0.0, 0.0, 10),
        Rating("b", -300.0, -500.0, -100.0, 10),
        Rating("c", 0.0, -math.inf, math.inf, 4),
    )  # c played nobody tied to the anchor
    summary = TournamentSummary(("a", "b", "c"), (lopsided,), ratings, "a")
    assert "| 3 | c | +0.0 | n/a | 4 |" in ratings_table(summary)
    assert "| random vs negamax | 10-0-0 |" in pairings_table(summary) and "> +166.2" in pairings_table(summary)
    assert "inf" not in ratings_table(summary) + pairings_table(summary)
