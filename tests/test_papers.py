"""connectx report: experiment definitions, verdicts, the written report, resuming, and one real run."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import statistics as stdlib_statistics
from pathlib import Path

import pytest

from agents.agent_spec import AgentSpec
from agents.minimax import MinimaxStrategy
from agents.position import Position
from agents.search_time import Deadline
from cli.main import main
from harness import engine
from harness.engine import BoardConfig
from harness.game import NO_STATS, GameRecord, GameSpec, MoveStats, play_game
from harness.match import run_match
from harness.results_store import ResultsStore, RunDirectoryError
from harness.scheduling import InlineExecutor
from harness.statistics import Z95, correlation_interval, mean_interval
from papers import runner
from papers.experiments import (
    FULL,
    KANG_CONFIG,
    KINDS,
    PROFILES,
    QUICK,
    SERIES,
    Cell,
    Claim,
    Experiment,
    experiments,
)
from papers.markdown import write_report
from papers.runner import CellResult, ExperimentResult, run_experiments
from papers.verdicts import judge, judge_all

FIGURES = ("sheoran-fig3.png", "sheoran-fig4.png", "sheoran-fig5.png", "sheoran-speed-nodes.png", "kang-table6.png",
           "kang-table7.png", "kang-table8.png", "kang-table9.png",
           "kang-fig12-13-nodes.png", "kang-fig12-13-time.png", "solver.png", "elo.png")


def strength(spec: str) -> float:
    """A made-up strength that orders the agents as the papers expect, for the fake game."""
    if spec.startswith("solver"):
        return 100.0
    if spec.startswith("kaggle:random") or spec == "random":
        return 0.0
    if "time_budget=" in spec:
        return 2.0 + float(spec.split("time_budget=")[1].split(",")[0])
    if "depth=" in spec:
        depth = float(spec.split("depth=")[1].split(",")[0])
        return depth + (0.5 if "h2" in spec else 0.0)
    return 4.5


def fake_stats(agent: str, ply: int) -> MoveStats:
    """What a depth-limited agent might report for its move at ``ply``: fewer nodes as the board fills."""
    if "depth=" not in agent and not agent.startswith("minimax"):
        return ()
    depth = int(agent.split("depth=")[1].split(",")[0]) if "depth=" in agent else 4
    nodes = 1000 * depth // (ply + 1)
    return ("nodes", nodes), ("depth", depth), ("evaluations", nodes // 3)


def fake_game(spec: GameSpec) -> GameRecord:
    """The stronger agent wins (equal ones draw) after six random legal moves past the opening.

    Depth-limited agents report made-up search statistics for each move (``fake_stats``)."""
    config = spec.config
    position = Position.initial(config.rows, config.columns, config.inarow)
    moves = list(spec.opening)
    for column in moves:
        position = position.play(column)
    rng = random.Random(spec.seed)
    for _ in range(6):
        column = rng.choice(position.legal_columns())
        position, moves = position.play(column), moves + [column]
    first, second = (strength(agent) for agent in spec.names)
    winner = None if first == second else 0 if first > second else 1
    played = len(moves) - len(spec.opening)
    durations = (tuple(0.001 * (k + 1) for k in range((played + 1) // 2)), tuple(0.002 for _ in range(played // 2)))
    stats: tuple[list[MoveStats], list[MoveStats]] = ([], [])
    for ply in range(len(spec.opening), len(moves)):
        stats[ply % 2].append(fake_stats(spec.names[ply % 2], ply))
    search_stats = (tuple(stats[0]), tuple(stats[1])) if any(stats[0] + stats[1]) else NO_STATS
    return GameRecord(spec.index, spec.names, config, spec.seed, spec.opening, tuple(moves), winner,
                      ("DONE", "DONE"), "draw" if winner is None else "line", durations=durations,
                      search_stats=search_stats)


def counting(game):
    calls = []

    def play(spec: GameSpec) -> GameRecord:
        calls.append(spec.index)
        return game(spec)
    return play, calls


@pytest.mark.parametrize("profile", [QUICK, FULL], ids=lambda p: p.name)
def test_every_cell_names_real_agents_and_every_experiment_is_well_formed(profile) -> None:
    chosen = experiments(profile)
    assert len({e.key for e in chosen}) == len(chosen)
    for experiment in chosen:
        assert experiment.kind in KINDS and experiment.games % 2 == 0 and experiment.claims
        assert len({c.slug for c in experiment.cells}) == len(experiment.cells)
        for cell in experiment.cells:
            AgentSpec.parse(cell.first).check(experiment.config.geometry)
            AgentSpec.parse(cell.second).check(experiment.config.geometry)
    assert PROFILES == {"quick": QUICK, "full": FULL}


def test_the_papers_numbers_are_those_of_their_text() -> None:
    claims = {claim.text: claim for e in experiments(FULL) for claim in e.claims}
    quoted = {claim.paper_value for claim in claims.values() if claim.paper_value is not None}
    assert quoted == {0.9375, 1.0, 0.79, 0.5}  # 0.5: Table 8's "close to H2", read as an even win rate
    fig3 = next(e for e in experiments(FULL) if e.key == "sheoran-fig3")
    adaptive = fig3.cell("vs kaggle:negamax", "4/5")
    assert fig3.games == 100 and adaptive.first == "minimax:rules=paper" and fig3.games_of(adaptive) == 400
    assert fig3.cell("vs kaggle:negamax (ours)", "4/5").first == "minimax"


def test_a_claim_on_a_cell_the_experiment_lacks_is_refused() -> None:
    cell = Cell("a", "1", "random", "kaggle:random")
    with pytest.raises(ValueError, match="no cell has"):
        Experiment("x", "p", "t", "s", SERIES, (cell,), 2, (Claim("c", "above_half", (("a", "2"),)),))
    with pytest.raises(ValueError, match="even number"):
        Experiment("x", "p", "t", "s", SERIES, (cell,), 3, ())
    with pytest.raises(ValueError, match="needs the paper's value"):
        Claim("c", "win_rate", (("a", "1"),))


def experiment_result(claim: Claim, games: int, winners: dict[str, str | None]) -> ExperimentResult:
    """One experiment of two cells (x "a" and "b"), each won by ``winners[x]`` (None: all draws); every game
    has moves of its own, so none repeats another."""
    cells = (Cell("s", "a", "random", "kaggle:random"), Cell("s", "b", "negamax", "kaggle:random"))
    experiment = Experiment("x", "p", "t", "s", SERIES, cells, games, (claim,))
    results = []
    for cell in cells:
        name = winners[cell.x]

        def play(spec: GameSpec, name=name) -> GameRecord:
            winner = None if name is None else spec.names.index(name)
            return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), (spec.index,), winner,
                              ("DONE", "DONE"), "draw" if winner is None else "line")
        results.append(CellResult(cell, run_match(cell.first, cell.second, games, executor=InlineExecutor(),
                                                  play=play)))
    return ExperimentResult(experiment, tuple(results))


def series_result(claims: tuple[Claim, ...], outcomes: dict[str, list[float]], repeat: bool = False,
                  values: dict[str, float] | None = None) -> ExperimentResult:
    """An experiment with one cell per key of ``outcomes``: game i scores ``outcomes[x][i]`` for the first agent
    (1 win, 0.5 draw, 0 loss). With ``repeat`` every game of a cell with the same outcome and seat plays the
    same moves (a deterministic pair of agents); otherwise every game's moves are its own."""
    cells = tuple(Cell("s", x, "random", "kaggle:random", (values or {}).get(x)) for x in outcomes)
    games = len(next(iter(outcomes.values())))
    experiment = Experiment("x", "p", "t", "s", SERIES, cells, games, claims)
    results = []
    for cell in cells:
        scores = outcomes[cell.x]

        def play(spec: GameSpec, scores=scores) -> GameRecord:
            first_seat = spec.index % 2
            points = scores[spec.index]
            winner = None if points == 0.5 else first_seat if points == 1.0 else 1 - first_seat
            moves = (first_seat, int(2 * points)) if repeat else (spec.index,)
            return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), moves, winner,
                              ("DONE", "DONE"), "draw" if winner is None else "line")
        results.append(CellResult(cell, run_match(cell.first, cell.second, games, executor=InlineExecutor(),
                                                  play=play)))
    return ExperimentResult(experiment, tuple(results))


def spread(wins: int, games: int) -> list[float]:
    """``wins`` wins and the rest losses, the losses one per colour-swapped pair from the first pair on."""
    losses = games - wins
    assert losses <= games // 2
    return [0.0 if i % 2 == 0 and i // 2 < losses else 1.0 for i in range(games)]


def test_a_claimed_rate_is_tested_against_the_papers_number_with_the_power_to_reject_it() -> None:
    claim = Claim("wins 93.75%", "win_rate", (("s", "a"),), 0.9375)
    # 376 of 400 (94%): the score test keeps 93.75%, and 400 games had the power to reject a rate 5 points away.
    kept = judge(claim, series_result((claim,), {"a": spread(376, 400)}))
    assert kept.status == "agrees" and kept.p_value > 0.5 and kept.power >= 0.8
    # 360 of 400 (90%) rejects it: z = (0.90 - 0.9375) / sqrt(0.9375 * 0.0625 / 400) = -3.10, p = 0.0019.
    rejected = judge(claim, series_result((claim,), {"a": spread(360, 400)}))
    assert rejected.status == "contradicted" and rejected.p_value == pytest.approx(0.0019, abs=1e-4)
    # 20 of 20 keeps it too, but 20 games could not have rejected 88.75%: not settled (n = 100 was the issue's case).
    few = judge(claim, series_result((claim,), {"a": [1.0] * 20}))
    assert few.status == "not settled" and few.power < 0.5
    lost = judge(claim, experiment_result(claim, 20, {"a": None, "b": None}))
    assert lost.status == "contradicted" and lost.games == 20


def test_a_claim_of_every_game_falls_to_one_counterexample_and_agrees_only_with_enough_games() -> None:
    claim = Claim("wins every game", "win_rate", (("s", "a"),), 1.0, effect=0.01)
    perfect = judge(claim, series_result((claim,), {"a": [1.0] * 400}))
    # All games won: the 200 pairs are the effective games, and 1 - 0.99^200 = 0.866 is the power.
    assert perfect.status == "agrees" and perfect.power == pytest.approx(1 - 0.99 ** 200)
    assert judge(claim, series_result((claim,), {"a": [1.0] * 100})).status == "not settled"
    assert judge(claim, series_result((claim,), {"a": [1.0] * 399 + [0.5]})).status == "contradicted"


def test_a_direction_agrees_when_significant_and_is_contradicted_when_reversed_or_flat_with_power() -> None:
    above = Claim("a wins", "above_half", (("s", "a"),))
    assert judge(above, series_result((above,), {"a": spread(140, 200)})).status == "agrees"
    lost = [1.0 - points for points in spread(140, 200)]
    assert judge(above, series_result((above,), {"a": lost})).status == "contradicted"
    # Exactly even over 400 games: a score of 60% would have shown with power 0.98, so the claim is contradicted.
    flat = judge(above, series_result((above,), {"a": [1.0, 0.0] * 200}))
    assert flat.status == "contradicted" and flat.p_value == 1.0 and flat.power > 0.95
    # The same over 20 games is not settled: the power is small.
    small = judge(above, series_result((above,), {"a": [1.0, 0.0] * 10}))
    assert small.status == "not settled" and small.power < 0.3
    below = Claim("a loses", "below_half", (("s", "a"),))
    assert judge(below, experiment_result(below, 20, {"a": "kaggle:random", "b": None})).status == "agrees"


def test_a_pooled_claim_names_the_cells_that_go_the_other_way() -> None:
    claim = Claim("a wins", "above_half", (("s", "a"), ("s", "b")))
    verdict = judge(claim, series_result((claim,), {"a": spread(90, 100), "b": [0.0] * 60 + [1.0] * 40}))
    assert verdict.status == "agrees" and "cells on the other side of 50%: s at b 40.0%" in verdict.ours


FIG4_NEGAMAX_WINS = (89, 94, 96, 99, 98, 98)
"""MCTS's wins in 100 games against kaggle's negamax at 10, 50, 100, 250, 500 and 1000 ms, as committed in
reports/full/runs/sheoran-fig4 (the issue's example: a trend p = 0.0002 that the old rule called unsettled)."""


def test_a_rise_is_a_trend_over_the_whole_series_and_finds_the_issues_fig4_trend() -> None:
    budgets = (10, 50, 100, 250, 500, 1000)
    outcomes = {f"{b} ms": spread(wins, 100) for b, wins in zip(budgets, FIG4_NEGAMAX_WINS, strict=True)}
    claim = Claim("rises", "rises", tuple(("s", x) for x in outcomes), scores=tuple(math.log10(b) for b in budgets))
    verdict = judge(claim, series_result((claim,), outcomes))
    # Cochran-Armitage over log T_max: z = 3.77, two-sided p = 0.00016 (the issue's 0.0002).
    assert verdict.status == "agrees" and verdict.p_value == pytest.approx(0.000162, rel=0.01)
    # The series reversed is significant the other way: contradicted.
    reversed_claim = dataclasses.replace(claim, scores=tuple(-s for s in claim.scores))
    assert judge(reversed_claim, series_result((reversed_claim,), outcomes)).status == "contradicted"
    # Flat at 50% over 400 games per point: power 0.90 to see a 10-point rise, contradicted; 10 per point: not settled.
    flat = judge(claim, series_result((claim,), {x: [1.0, 0.0] * 200 for x in outcomes}))
    assert flat.status == "contradicted" and flat.power > 0.8
    thin = judge(claim, series_result((claim,), {x: [1.0, 0.0] * 5 for x in outcomes}))
    assert thin.status == "not settled"


def test_a_rise_over_a_baseline_compares_the_two_groups() -> None:
    rises = Claim("b beats a", "rises", (("s", "b"),), baseline=(("s", "a"),))
    assert judge(rises, experiment_result(rises, 20, {"a": "kaggle:random", "b": "negamax"})).status == "agrees"
    assert judge(rises, experiment_result(rises, 20, {"a": "random", "b": "kaggle:random"})).status == "contradicted"
    assert judge(rises, experiment_result(rises, 2, {"a": "kaggle:random", "b": "negamax"})).status == "not settled"


def test_repeated_games_are_counted_and_shrink_the_effective_games() -> None:
    claim = Claim("a wins", "above_half", (("s", "a"),))
    outcomes = {"a": [1.0, 1.0, 0.0, 0.0] * 15}  # pairs won twice, then lost twice: 30 pairs
    distinct = judge(claim, series_result((claim,), outcomes))
    repeated = judge(claim, series_result((claim,), outcomes, repeat=True))
    # Every game repeats one of four move sequences: 56 repeats, and all 60 games fall into two clusters.
    assert repeated.duplicates == 56 and "56 repeating another move for move" in repeated.ours
    assert "worth 2 independent ones" in repeated.ours and distinct.duplicates == 0
    assert "worth 30 independent ones" in distinct.ours  # each pair agrees with itself: the pairs count


def test_every_claim_of_a_report_is_corrected_for_the_others_by_holm() -> None:
    claims = (Claim("a wins", "above_half", (("s", "a"),)), Claim("b wins", "above_half", (("s", "b"),)))
    result = series_result(claims, {"a": spread(140, 200), "b": spread(113, 200)})
    alone = [judge(claim, result) for claim in claims]
    together = judge_all([(claim, result) for claim in claims])
    # b scores 56.5% of 200: z = 1.84, p = 0.066 alone; Holm doubles a's p, and b's adjusted p is its own.
    assert alone[0].status == "agrees" and alone[1].p_value == pytest.approx(0.066, abs=0.002)
    assert together[0].adjusted == pytest.approx(2 * min(v.p_value for v in alone))
    assert together[1].adjusted == pytest.approx(max(together[0].adjusted, together[1].p_value))
    assert together[0].level == pytest.approx(0.025) and together[1].level == pytest.approx(0.05)


def test_mean_and_correlation_intervals() -> None:
    values = [1.0, 2.0, 3.0, 4.0]
    standard_error = math.sqrt(stdlib_statistics.variance(values) / len(values))
    mean = mean_interval(values)
    assert mean.value == 2.5 and mean.low == pytest.approx(2.5 - Z95 * standard_error)
    assert mean_interval([7.0]).low == mean_interval([7.0]).high == 7.0
    xs, ys = [1, 2, 3, 4, 5, 6, 7], [2, 1, 4, 3, 7, 5, 6]
    r = correlation_interval(xs, ys)
    assert r.value == pytest.approx(stdlib_statistics.correlation(xs, ys))
    assert r.low < r.value < r.high and r.low == pytest.approx(math.tanh(math.atanh(r.value) - Z95 / 2))
    assert correlation_interval([1, 2, 3], [1, 2, 3]).low == -1.0  # too few pairs for an interval


def nodes_experiment(cell: Cell, match) -> ExperimentResult:
    experiment = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13")
    return ExperimentResult(experiment, (CellResult(cell, match),))


def test_nodes_are_those_the_games_recorded_and_nothing_is_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MinimaxStrategy, "choose", lambda *args: pytest.fail("a position was searched again"))
    spec = "minimax:depth=3,evaluation=h1"
    cell = Cell("depth 3", "self-play", spec, spec)
    match = run_match(spec, spec, 2, executor=InlineExecutor(), play=fake_game, opening_plies=2)
    samples = runner.move_samples(nodes_experiment(cell, match))
    record = match.records[0]
    assert len(samples) == 2 * (len(record.moves) - len(record.opening))
    assert [s.move for s in samples[:6]] == [3, 4, 5, 6, 7, 8]
    assert samples[1].move == 4 and samples[1].nodes == 1000 * 3 // 4 and samples[1].depth == 3
    assert samples[1].evaluations == 1000 * 3 // 4 // 3
    assert samples[0].seconds == record.durations[0][0] and samples[1].seconds == record.durations[1][0]
    # A move whose agent reported nothing is left out, not made up.
    silent = run_match(spec, spec, 2, executor=InlineExecutor(), opening_plies=2,
                       play=lambda game: dataclasses.replace(fake_game(game), search_stats=NO_STATS))
    assert runner.move_samples(nodes_experiment(cell, silent)) == []
    claim = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13").claims[0]
    assert judge(claim, nodes_experiment(cell, silent)).status == "not settled"


class ReportingAgent:
    """An agent object that reports its search after each move (as ``last_stats``): nodes 100 plus the stones seen."""

    def __init__(self) -> None:
        self.last_stats: dict[str, int] | None = None

    def __call__(self, observation, configuration) -> int:
        stones = sum(1 for cell in observation.board if cell)
        self.last_stats = {"nodes": 100 + stones, "depth": 2, "evaluations": stones}
        return [c for c in range(configuration.columns) if observation.board[c] == 0][0]


@pytest.mark.games
def test_the_report_counts_the_nodes_the_agents_reported_while_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "kaggle_callable", lambda spec, env, config: ReportingAgent())
    spec = "minimax:depth=2,evaluation=h1"
    cell = Cell("depth 2", "self-play", spec, spec)
    match = run_match(spec, spec, 2, config=BoardConfig(4, 5, 3), opening_plies=2, executor=InlineExecutor(),
                      play=play_game)
    samples = runner.move_samples(nodes_experiment(cell, match))
    assert len(samples) == sum(len(r.moves) - len(r.opening) for r in match.records) > 0
    assert all(s.nodes == 100 + s.move - 1 and s.evaluations == s.move - 1 and s.depth == 2 for s in samples)


@pytest.mark.games
def test_minimax_reports_the_nodes_of_the_search_that_chose_its_move() -> None:
    spec = "minimax:depth=3,evaluation=h1"
    record = play_game(GameSpec(0, (spec, spec), BoardConfig(), seed=4, opening=(3, 3)))
    assert record.cause in ("line", "draw")
    position = Position.initial()
    for ply, column in enumerate(record.moves):
        if ply >= len(record.opening):
            seat, call = ply % 2, (ply - len(record.opening)) // 2
            strategy = MinimaxStrategy(depth=3, evaluation="h1")
            strategy.choose(position, Deadline.after(1e9))
            assert strategy.last_search is not None
            assert record.stats(seat, call)["nodes"] == strategy.last_search.nodes > 0
        position = position.play(column)


def test_the_report_has_every_figure_interval_and_claim_and_resumes(tmp_path: Path) -> None:
    play, calls = counting(fake_game)
    results = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play)
    total = sum(e.games_of(c) for e in experiments(QUICK) for c in e.cells)
    assert len(calls) == total
    path = write_report(QUICK, results, tmp_path, ["machine: test"], 1.0)
    text = path.read_text()
    for figure in FIGURES:
        assert (tmp_path / figure).stat().st_size > 1000 and f"]({figure})" in text
    for claim in (c for e in experiments(QUICK) for c in e.claims):
        assert claim.text in text
    assert f"{total} games" in text and "machine: test" in text and "quick profile, a smoke run" in text
    assert f"this invocation played {total} of them" in text
    assert "| rank | agent | Elo |" in text and "`solver:time_budget=0.25`" in text
    assert any(line.startswith("| depth 4 | ") and " | 4 | " in line for line in text.splitlines())  # depth reached
    negamax_rows = [line for line in text.splitlines() if line.startswith("| vs kaggle:negamax |")]
    assert len(negamax_rows) == 4 + 3 and all(line.count("[") == 2 for line in negamax_rows)  # Fig. 3 and Fig. 4
    # The fake lets the deeper agent win: the claim that says so is significant before the correction for
    # every claim (the quick profile's 18 games of unequal depths cannot carry it past Holm's over all).
    assert "| the deeper H1 tends to win more often" in text
    table6 = next(line for line in text.splitlines() if "the deeper H1 tends" in line and line.startswith("|"))
    raw_p = float(table6.split(" | ")[-4])
    assert raw_p < 0.01 and not table6.endswith("**contradicted** |"), table6
    # Table 6 in the paper's orientation: columns are the first mover's depth, rows the second mover's, so
    # the row of a second mover at depth 1 ends with the first mover at depth 4, who (deeper) won every game.
    assert "| second \\ first | depth 1 | depth 2 | depth 4 |" in text
    row = next(line for line in text.splitlines() if line.startswith("| depth 1 | ") and " / " in line)
    assert row.split(" | ")[-1].startswith("100.0% [") and row.split(" | ")[1].startswith("0.0% [")  # equal: draws

    again, calls_again = counting(fake_game)
    resumed = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=again)
    assert calls_again == []
    rewritten = write_report(QUICK, resumed, tmp_path, ["machine: test"], 1.0).read_text()
    assert without_clock(rewritten) == without_clock(text) and "this invocation played 0 of them" in rewritten


def test_only_agents_tied_together_by_won_and_lost_points_are_rated(tmp_path: Path) -> None:
    cells = (Cell("s", "a", "random", "kaggle:random"), Cell("s", "b", "negamax", "kaggle:random"),
             Cell("s", "c", "minimax", "negamax"))
    experiment = Experiment("solver", "p", "t", "s", SERIES, cells, 2, (Claim("c", "above_half", (("s", "a"),)),))
    results = tuple(CellResult(cell, run_match(cell.first, cell.second, 2, executor=InlineExecutor(), play=fake_game))
                    for cell in cells)
    text = write_report(QUICK, [ExperimentResult(experiment, results)], tmp_path).read_text()
    # random and kaggle:random draw (equal strength in the fake): they are rated. negamax beat kaggle:random in
    # both games and minimax drew negamax, so neither has a finite rating on kaggle:random's scale.
    rated = [line for line in text.splitlines() if re.match(r"\| \d+ \| `", line)]
    assert [line.split("`")[1] for line in rated] == ["kaggle:random", "random"] or \
        [line.split("`")[1] for line in rated] == ["random", "kaggle:random"]
    assert "- `negamax`: won every one of its 2 games against the rated agents" in text
    assert "- `minimax`: played only agents outside the rated group" in text
    assert "-inf" not in text and "+inf" not in text and "+954" not in text


def without_clock(report: str) -> list[str]:
    return [line for line in report.splitlines() if not line.startswith("- written ")]


def test_an_interrupted_report_plays_only_the_missing_games(tmp_path: Path) -> None:
    def interrupted(spec: GameSpec) -> GameRecord:
        if len(calls) == 7:
            raise KeyboardInterrupt
        calls.append(spec.index)
        return fake_game(spec)
    calls: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=interrupted, only=["sheoran-fig3"])
    recorded = sum(len(ResultsStore(d).load()) for d in (tmp_path / "runs" / "sheoran-fig3").iterdir())
    assert 6 <= recorded <= 7 == len(calls)
    play, rest = counting(fake_game)
    results = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["sheoran-fig3"])
    fig3 = results[0].experiment
    total = sum(fig3.games_of(cell) for cell in fig3.cells)
    assert len(rest) == total - recorded
    assert sum(len(c.match.records) for c in results[0].cells) == total
    with pytest.raises(ValueError, match="unknown experiment"):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["fig99"])


def test_a_cell_directory_holding_another_run_stops_the_report_before_any_game(tmp_path: Path) -> None:
    fig3 = next(e for e in experiments(QUICK) if e.key == "sheoran-fig3")
    last = runner.cell_directory(tmp_path, fig3, fig3.cells[-1])
    last.mkdir(parents=True)
    (last / "run.json").write_text(json.dumps({"kind": "match", "first": "someone else"}))
    play, calls = counting(fake_game)
    with pytest.raises(RunDirectoryError, match="different run"):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["sheoran-fig3"])
    assert calls == [] and sorted(tmp_path.rglob("*")) == [tmp_path / "runs", tmp_path / "runs" / "sheoran-fig3",
                                                           last, last / "run.json"]


@pytest.mark.games
def test_connectx_report_plays_real_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--quick", "--only", "kang-table9", "--jobs", "2", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "[4/4] kang-table9" in printed and "report in" in printed  # H1 vs H2 at depths 2 and 4, the papers' and ours
    report = (tmp_path / "quick" / "report.md").read_text()
    assert "Table 9: H1 against H2 at equal depths" in report and (tmp_path / "quick" / "kang-table9.png").exists()
    games = list((tmp_path / "quick" / "runs" / "kang-table9").glob("*/games.jsonl"))
    records = [GameRecord.from_json(json.loads(line)) for path in games
               for line in path.read_text().splitlines()]
    assert len(records) == 24 and all(r.scored and r.config == KANG_CONFIG for r in records)
    assert main(["report", "--quick", "--only", "nonesuch", "--out", str(tmp_path)]) == 2
    assert "unknown experiment" in capsys.readouterr().err


def test_the_report_shows_the_conditions_and_simulations_the_games_recorded(tmp_path: Path) -> None:
    cell = Cell("s", "10 ms", "mcts:time_budget=0.01", "kaggle:random", 10.0)
    claim = Claim("a wins", "above_half", (("s", "10 ms"),))
    experiment = Experiment("x", "p", "t", "s", SERIES, (cell,), 4, (claim,), log_x=True)

    def play(spec: GameSpec) -> GameRecord:
        mcts = spec.names.index(cell.first)
        stats: list[tuple[MoveStats, ...]] = [(), ()]
        stats[mcts] = ((("simulations", 100 * (spec.index + 1)),), (("simulations", 300),))
        return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), (spec.index,), mcts, ("DONE", "DONE"),
                          "line", durations=((0.5,), (0.25,)), wall_seconds=2.0, cpu_seconds=0.5 * (spec.index + 1),
                          search_stats=(stats[0], stats[1]), load_average=(float(spec.index), 1.0))
    match = run_match(cell.first, cell.second, 4, executor=InlineExecutor(), play=play)
    result = ExperimentResult(experiment, (CellResult(cell, match),))
    conditions = runner.play_conditions(result)
    # Load samples 0, 1, 1, 1, 2, 1, 3, 1: median 1, max 3; CPU shares 0.25, 0.5, 0.75, 1.0: median 0.75.
    assert (conditions.recorded, conditions.load_median, conditions.load_max) == (4, 1.0, 3.0)
    assert conditions.cpu_share_median == 0.75 and conditions.slowest_move == 0.5
    # Simulations: (100 + 300), (200 + 300), (300 + 300), (400 + 300) over 8 moves: a mean of 275.
    assert runner.simulations_per_move(result.cells[0]) == {cell.first: 275.0}
    text = write_report(QUICK, [result], tmp_path).read_text()
    assert "| x | 4 | 4 | 1.00, 3.00 | 75% | 0.50 s | 0.1 min |" in text
    assert "simulations per move |" in text and "| 275 |" in text


def speed_result(slowdown: float, games: int = 6) -> ExperimentResult:
    """Sheoran's speed experiment over fake games in which every move of the no-table cell takes
    ``slowdown`` times as long as the same move with the table (the games are the same move for move)."""
    experiment = dataclasses.replace(next(e for e in experiments(QUICK) if e.key == "sheoran-speed"), games=games)
    results = []
    for cell in experiment.cells:
        factor = slowdown if cell.series == "no table" else 1.0

        def play(spec: GameSpec, factor: float = factor) -> GameRecord:
            record = fake_game(spec)
            jitter = 1 + 0.01 * spec.index  # games differ a little, as real ones do
            durations = tuple(tuple(d * factor * jitter for d in seat) for seat in record.durations)
            return dataclasses.replace(record, durations=durations)  # type: ignore[arg-type]
        results.append(CellResult(cell, run_match(cell.first, cell.second, experiment.games_of(cell),
                                                  config=experiment.config, opening_plies=experiment.opening_plies,
                                                  executor=InlineExecutor(), play=play)))
    return ExperimentResult(experiment, tuple(results))


def test_the_speed_claim_pairs_the_same_moves_of_the_same_games() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "sheoran-speed").claims[0]
    faster = judge(claim, speed_result(1.5))
    assert faster.status == "agrees" and faster.ours.startswith("1.50x as fast"), faster
    assert "paired moves in 6 games" in faster.ours
    # No faster at all, every move of every game: a 10% gain would have shown, so the claim is contradicted.
    same = judge(claim, speed_result(1.0))
    assert same.status == "contradicted" and same.ours.startswith("1.00x as fast"), same
