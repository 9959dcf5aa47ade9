"""connectx report's claims: each kind of claim's test on made-up games, and the verdict rule over them."""

from __future__ import annotations

import dataclasses
import math
import statistics as stdlib_statistics
from collections.abc import Callable

import pytest
from papers_fakes import fake_game

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec, MoveStats
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.statistics import hypothesis_tests
from connectx.evaluation.statistics.elo import Z95
from connectx.evaluation.statistics.hypothesis_tests import correlation_interval, t_p_value
from connectx.papers.claims import cell_scores, claim_tests, move_claims, p_value_text, verdicts
from connectx.papers.claims.claim_tests import judge, judge_all
from connectx.papers.experiments import runner
from connectx.papers.experiments.catalogue import FULL, QUICK, experiments
from connectx.papers.experiments.design import SERIES, Cell, Claim, Experiment
from connectx.papers.experiments.runner import CellResult, ExperimentResult
from connectx.papers.writing import answer_section


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
            return GameRecord(
                spec.index,
                spec.names,
                spec.config,
                spec.seed,
                (),
                (spec.index,),
                winner,
                ("DONE", "DONE"),
                "draw" if winner is None else "line",
            )

        results.append(
            CellResult(
                cell,
                play_match(
                    MatchPlan(AgentSpec.of(cell.first), AgentSpec.of(cell.second), games),
                    PlayOptions(executor=InlineExecutor(), play=play),
                ),
            )
        )
    return ExperimentResult(experiment, tuple(results))


def series_result(
    claims: tuple[Claim, ...],
    outcomes: dict[str, list[float]],
    repeat: bool = False,
    values: dict[str, float] | None = None,
) -> ExperimentResult:
    """An experiment with one cell per key of ``outcomes``: game i scores ``outcomes[x][i]`` for the first agent
    (1 win, 0.5 draw, 0 loss). With ``repeat`` every game of a cell with the same outcome and seat plays the
    same moves (a deterministic pair of agents); otherwise every game's moves are its own (the cells' agents
    are the same, so a game's moves name its cell too)."""
    cells = tuple(Cell("s", x, "random", "kaggle:random", (values or {}).get(x)) for x in outcomes)
    games = len(next(iter(outcomes.values())))
    experiment = Experiment("x", "p", "t", "s", SERIES, cells, games, claims)
    results = []
    for position, cell in enumerate(cells):
        scores = outcomes[cell.x]

        def play(spec: GameSpec, scores=scores, position=position) -> GameRecord:
            first_seat = spec.index % 2
            points = scores[spec.index]
            winner = None if points == 0.5 else first_seat if points == 1.0 else 1 - first_seat
            moves = (first_seat, int(2 * points), position) if repeat else (spec.index, position)
            return GameRecord(
                spec.index,
                spec.names,
                spec.config,
                spec.seed,
                (),
                moves,
                winner,
                ("DONE", "DONE"),
                "draw" if winner is None else "line",
            )

        results.append(
            CellResult(
                cell,
                play_match(
                    MatchPlan(AgentSpec.of(cell.first), AgentSpec.of(cell.second), games),
                    PlayOptions(executor=InlineExecutor(), play=play),
                ),
            )
        )
    return ExperimentResult(experiment, tuple(results))


def spread(wins: int, games: int) -> list[float]:
    """``wins`` wins and the rest losses, the losses one per colour-swapped pair from the first pair on."""
    losses = games - wins
    assert losses <= games // 2
    return [0.0 if i % 2 == 0 and i // 2 < losses else 1.0 for i in range(games)]


def roles(verdict) -> dict[str, float]:
    """Each hypothesis's role and its p-value before Holm's correction."""
    return {h.role: h.p_value for h in verdict.hypotheses}


def test_a_claimed_rate_agrees_within_its_margin_and_is_contradicted_beyond_it() -> None:
    claim = Claim("wins 93.75%", "win_rate", (("s", "a"),), 0.9375)
    # 376 of 400 (94%): well inside 88.75-98.75%, shown by TOST: z = (0.94 - 0.8875) / sqrt(0.8875 * 0.1125 / 400).
    kept = judge(claim, series_result((claim,), {"a": spread(376, 400)}))
    z = (0.94 - 0.8875) / math.sqrt(0.8875 * 0.1125 / 400)
    assert kept.status == "agrees" and roles(kept)["for"] == pytest.approx(hypothesis_tests.upper_p_value(z))
    assert kept.power >= 0.8 and kept.reason == "within the margin"
    # 340 of 400 (85%) lies beyond the margin's lower edge: z = (0.8875 - 0.85) / sqrt(0.8875 * 0.1125 / 400) = 2.38.
    beyond = judge(claim, series_result((claim,), {"a": spread(340, 400)}))
    assert beyond.status == "contradicted" and roles(beyond)["against"] == pytest.approx(0.0087, abs=3e-4)
    # 360 of 400 (90%) rejects the paper's exact number but not the margin: not settled, no longer contradicted.
    assert judge(claim, series_result((claim,), {"a": spread(360, 400)})).status == "not settled"
    # 20 of 20 cannot show a 5-point margin: a test of too little power, so the claim cannot be tested at this size.
    few = judge(claim, series_result((claim,), {"a": [1.0] * 20}))
    assert few.status == "cannot be tested at this size" and few.power < 0.5
    lost = judge(claim, experiment_result(claim, 20, {"a": None, "b": None}))
    assert lost.status == "contradicted" and lost.games == 20


def test_a_claim_of_every_game_is_read_as_a_rate_of_at_least_99_percent() -> None:
    claim = Claim("wins every game", "win_rate", (("s", "a"),), 1.0, effect=0.01)
    perfect = judge(claim, series_result((claim,), {"a": [1.0] * 1000}))
    # 1000 of 1000: z = 0.01 / sqrt(0.99 * 0.01 / 1000) = 3.18 above the margin's edge: agrees.
    assert perfect.status == "agrees" and roles(perfect)["for"] == pytest.approx(
        hypothesis_tests.upper_p_value(0.01 / math.sqrt(0.99 * 0.01 / 1000))
    )
    # 3 of 400 not won: no placeholder p-value for a counterexample; 99.25% is consistent with 99%: not settled.
    three = judge(claim, series_result((claim,), {"a": [0.0] * 3 + [1.0] * 397}))
    assert three.status == "not settled" and "3 of 400 games not won" in three.ours
    assert roles(three)["against"] > 0.5
    # 380 of 400 (95%) is clearly below 99%: contradicted.
    assert judge(claim, series_result((claim,), {"a": spread(380, 400)})).status == "contradicted"


def test_a_direction_agrees_when_significant_and_is_contradicted_when_reversed_or_flat_with_a_size() -> None:
    above = Claim("a wins", "above_half", (("s", "a"),))
    assert judge(above, series_result((above,), {"a": spread(140, 200)})).status == "agrees"
    lost = [1.0 - points for points in spread(140, 200)]
    assert judge(above, series_result((above,), {"a": lost})).status == "contradicted"
    # Exactly even over 400 games: a score of 60% would have shown with power 0.98 and is ruled out, but "a wins"
    # states no size, so a smaller edge would still bear it out: not settled, the size ruled out named.
    flat = judge(above, series_result((above,), {"a": [1.0, 0.0] * 200}))
    assert flat.status == "not settled" and flat.p_value == 1.0 and flat.power > 0.95
    assert (
        "a score of 60% or more (the smallest edge this report counts) ruled out, but the words state no size"
        in flat.reason
    )
    # Words with a size ("much") are contradicted by that size ruled out.
    much = dataclasses.replace(above, magnitude=True)
    assert judge(much, series_result((much,), {"a": [1.0, 0.0] * 200})).status == "contradicted"
    # The same over 20 games: a test of so little power cannot tell, so the claim cannot be tested at this size.
    small = judge(above, series_result((above,), {"a": [1.0, 0.0] * 10}))
    assert small.status == "cannot be tested at this size" and small.power < 0.3
    below = Claim("a loses", "below_half", (("s", "a"),))
    assert judge(below, experiment_result(below, 20, {"a": "kaggle:random", "b": None})).status == "agrees"


def test_a_pooled_claim_names_the_cells_that_go_the_other_way() -> None:
    claim = Claim("a wins", "above_half", (("s", "a"), ("s", "b")))
    verdict = judge(claim, series_result((claim,), {"a": spread(90, 100), "b": [0.0] * 60 + [1.0] * 40}))
    assert verdict.status == "agrees" and "cells on the other side of 50%: s at b 40.0%" in verdict.ours


FIG4_NEGAMAX_WINS = (89, 94, 96, 99, 98, 98)
"""MCTS's wins in 100 games against kaggle's negamax at 10, 50, 100, 250, 500 and 1000 ms in an earlier full
report: a trend (p = 0.0002) that a rule comparing only the ends of the series once called unsettled."""


def test_a_rise_is_a_trend_over_the_whole_series_and_finds_the_fig4_trend() -> None:
    budgets = (10, 50, 100, 250, 500, 1000)
    outcomes = {f"{b} ms": spread(wins, 100) for b, wins in zip(budgets, FIG4_NEGAMAX_WINS, strict=True)}
    claim = Claim("rises", "rises", tuple(("s", x) for x in outcomes), scores=tuple(math.log10(b) for b in budgets))
    verdict = judge(claim, series_result((claim,), outcomes))
    # Cochran-Armitage over log T_max, pooled over the seats: z = 3.77, two-sided p = 0.00016 (the report's 0.0002).
    # Stratified by seat (spread puts every loss on the first agent's first-mover games) it is sharper still.
    pooled_z = hypothesis_tests.cochran_armitage(
        [float(w) for w in FIG4_NEGAMAX_WINS], [100.0] * 6, [math.log10(b) for b in budgets]
    )
    assert hypothesis_tests.normal_p_value(pooled_z) == pytest.approx(0.000162, rel=0.01)
    # The paper's own numbers: 89% at 10 ms, then 94 to 98: the first step carries the trend, and from 50 ms on
    # it is not shown, so they agree with the words only in part.
    assert verdict.status == verdicts.PARTLY and verdict.p_value < 0.000162
    assert "not shown from 50 ms to 1000 ms (without the step from 10 ms)" in verdict.reason
    assert verdict.summary == "agrees 10 to 50 ms; not shown 50 to 1000 ms"
    assert "moving first" in verdict.ours and "moving second" in verdict.ours and "Cochran's Q" not in verdict.ours
    # The series reversed is significant the other way: contradicted.
    reversed_claim = dataclasses.replace(claim, scores=tuple(-s for s in claim.scores))
    assert judge(reversed_claim, series_result((reversed_claim,), outcomes)).status == "contradicted"
    # Flat at 50% over 400 games per point: a rise of 10 points is ruled out, but "rises" states no size: not
    # settled, the size named; 12 per point: nothing ruled out by a test of too little power, untestable at this size.
    flat = judge(claim, series_result((claim,), {x: [1.0, 1.0, 0.0, 0.0] * 100 for x in outcomes}))
    assert flat.status == "not settled" and roles(flat)["size"] < 0.001 and "ruled out, but the words" in flat.reason
    thin = judge(claim, series_result((claim,), {x: [1.0, 1.0, 0.0, 0.0] * 3 for x in outcomes}))
    assert thin.status == "cannot be tested at this size" and thin.power < 0.5


def test_a_rise_over_a_baseline_compares_the_two_groups() -> None:
    rises = Claim("b beats a", "rises", (("s", "b"),), baseline=(("s", "a"),))
    assert judge(rises, experiment_result(rises, 20, {"a": "kaggle:random", "b": "negamax"})).status == "agrees"
    assert judge(rises, experiment_result(rises, 20, {"a": "random", "b": "kaggle:random"})).status == "contradicted"
    # Both cells won every game: at the ceiling no difference can show, and the verdict says so.
    ceiling = judge(rises, experiment_result(rises, 20, {"a": "random", "b": "negamax"}))
    assert ceiling.status == verdicts.CEILING and "no difference can show" in ceiling.ours


def test_repeated_games_are_counted_but_independent_games_stay_independent() -> None:
    claim = Claim("a wins", "above_half", (("s", "a"),))
    outcomes = {"a": [1.0, 1.0, 0.0, 0.0] * 15}  # pairs won twice, then lost twice: 30 pairs
    distinct = judge(claim, series_result((claim,), outcomes))
    repeated = judge(claim, series_result((claim,), outcomes, repeat=True))
    # Every game repeats one of four move sequences, but each has its own seed: 60 independent draws either way.
    assert "60 games (4 distinct), independent" in repeated.ours and "60 games (60 distinct)" in distinct.ours
    assert repeated.p_value == distinct.p_value


def test_each_claim_is_tested_at_its_own_level_and_holm_corrects_the_papers_family_for_the_sensitivity_line() -> None:
    claims = (Claim("a wins", "above_half", (("s", "a"),)), Claim("b wins", "above_half", (("s", "b"),)))
    result = series_result(claims, {"a": spread(140, 200), "b": spread(113, 200)})
    alone = [judge(claim, result) for claim in claims]
    together = judge_all([(claim, result) for claim in claims])
    # b scores 56.5% of 200: z = 1.84, p = 0.066 alone; each claim keeps its own p-value and level in the report.
    assert alone[0].status == "agrees" and alone[1].p_value == pytest.approx(0.066, abs=0.002)
    assert [v.adjusted for v in together] == [v.adjusted for v in alone]
    assert {v.level for v in together} == {0.05}
    # Under Holm (the sensitivity line), four hypotheses in the family: each claim's "no effect" and "a score of 60%
    # or more"; Holm multiplies the smallest by four, and the power is stated at the level it was held to.
    holm = judge_all([(claim, result) for claim in claims], verdicts.HOLM)
    p_values = [h.p_value for verdict in holm for h in verdict.hypotheses]
    adjusted = [p for verdict in holm for p in verdict.adjusted]
    assert len(p_values) == 4 and adjusted == pytest.approx(hypothesis_tests.holm(p_values))
    assert holm[0].adjusted[0] == pytest.approx(4 * min(p_values))
    assert holm[0].level == pytest.approx(0.05 / 4) and holm[1].level == pytest.approx(0.05 / 3)


def speed_result(
    slowdown: float,
    games: int = 6,
    wall: float | None = None,
    diverge: tuple[int, ...] = (),
    repeat: dict[int, int] | None = None,
    spread: float = 0.0,
) -> ExperimentResult:
    """Sheoran's speed experiment over fake games in which every game of the no-table cell takes ``slowdown``
    times the CPU seconds of the same game with the table (times 1 + ``spread`` * (index % 3)), and each move
    ``wall`` times its wall seconds (default ``slowdown``). Games in ``diverge`` play other moves without the
    table; game i of ``repeat`` plays game ``repeat[i]``'s moves in both cells."""
    experiment = dataclasses.replace(next(e for e in experiments(QUICK) if e.key == "sheoran-speed"), games=games)
    results = []
    for cell in experiment.cells:
        slow = cell.series == "no table"

        played: dict[int, GameSpec] = {}

        def play(spec: GameSpec, slow: bool = slow, played: dict[int, GameSpec] = played) -> GameRecord:
            played[spec.index] = spec  # the inline executor plays the games in order
            record = dataclasses.replace(
                fake_game(played[(repeat or {}).get(spec.index, spec.index)]), index=spec.index
            )
            if slow and spec.index in diverge:
                record = dataclasses.replace(record, moves=record.moves[:-1] + ((record.moves[-1] + 1) % 7,))
            jitter = 1 + 0.01 * spec.index  # games differ a little, as real ones do
            factor = (wall if wall is not None else slowdown) if slow else 1.0
            durations = tuple(tuple(d * factor * jitter for d in seat) for seat in record.durations)
            cpu = jitter * (slowdown * (1 + spread * (spec.index % 3)) if slow else 1.0)
            return dataclasses.replace(record, durations=durations, cpu_seconds=cpu)  # type: ignore[arg-type]

        results.append(
            CellResult(
                cell,
                play_match(
                    MatchPlan(
                        AgentSpec.of(cell.first),
                        AgentSpec.of(cell.second),
                        experiment.games_of(cell),
                        config=experiment.config,
                        opening_plies=experiment.opening_plies,
                    ),
                    PlayOptions(executor=InlineExecutor(), play=play),
                ),
            )
        )
    return ExperimentResult(experiment, tuple(results))


def test_the_speed_claim_pairs_the_same_games_by_their_cpu_time() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "sheoran-speed").claims[0]
    # The game's CPU seconds are the statistic; the per-move wall ratio is printed beside it.
    faster = judge(claim, speed_result(1.5, wall=1.2))
    assert faster.status == "agrees" and faster.ours.startswith("1.50x as fast"), faster
    assert "in CPU seconds per game over 6 same games, 6 distinct, from 3 independent openings" in faster.ours
    assert "per move (wall seconds) 1.20x over" in faster.ours
    # No faster at all, every game: a 10% gain would have shown and is ruled out, but "faster" states no size,
    # so the claim is not settled, the size ruled out named.
    same = judge(claim, speed_result(1.0))
    assert same.status == "not settled" and same.ours.startswith("1.00x as fast"), same
    assert "a speed-up of 1.10x (the smallest this report counts) ruled out" in same.reason


def test_the_speed_claim_drops_games_that_differ_and_counts_repeats_once() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "sheoran-speed").claims[0]
    # Game 5 plays other moves without the table: it is not the same game, so it is dropped and said to be.
    diverged = judge(claim, speed_result(1.5, diverge=(5,)))
    assert (
        "over 5 same games" in diverged.ours
        and "1 game whose moves differed between the cells dropped" in diverged.ours
    )
    # Games 2 and 3 replay games 0 and 1, opening included: one cluster with them, so 2 openings among 6 games.
    repeated = judge(claim, speed_result(1.5, repeat={2: 0, 3: 1}))
    assert "6 same games, 4 distinct, from 2 independent openings" in repeated.ours


def test_the_speed_claim_is_a_t_test_over_independent_games() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "sheoran-speed").claims[0]
    verdict = judge(claim, speed_result(1.2, games=8, spread=0.2))
    # One log ratio per colour-swapped pair (games 2p and 2p + 1 average theirs), a one-sample t test of them.
    ratios = [math.log(1.2 * (1 + 0.2 * (i % 3))) for i in range(8)]
    units = [(ratios[i] + ratios[i + 1]) / 2 for i in range(0, 8, 2)]
    mean = stdlib_statistics.mean(units)
    t = mean / (stdlib_statistics.stdev(units) / 2)
    assert verdict.p_value == pytest.approx(t_p_value(t, 3), rel=1e-6)
    assert verdict.p_value > 2 * (1 - stdlib_statistics.NormalDist().cdf(t))  # wider than the normal's


def searched_result(
    key: str, stats_of: Callable[[GameSpec, str, int], MoveStats], games: int = 8, diverge: tuple[int, ...] = ()
) -> ExperimentResult:
    """The experiment ``key`` over fake games (``fake_game``'s moves) whose moves report ``stats_of(spec, agent,
    ply)``; the games in ``diverge`` play another last move in the cells whose first agent does not prune."""
    experiment = dataclasses.replace(next(e for e in experiments(QUICK) if e.key == key), games=games)

    def play(spec: GameSpec) -> GameRecord:
        record = fake_game(spec)
        if spec.index in diverge and "pruning=false" in spec.names[0]:
            record = dataclasses.replace(record, moves=record.moves[:-1] + ((record.moves[-1] + 1) % 7,))
        stats: tuple[list[MoveStats], list[MoveStats]] = ([], [])
        for ply in range(len(record.opening), len(record.moves)):
            stats[ply % 2].append(stats_of(spec, spec.names[ply % 2], ply))
        return dataclasses.replace(record, search_stats=(tuple(stats[0]), tuple(stats[1])))

    return ExperimentResult(
        experiment,
        tuple(
            CellResult(
                cell,
                play_match(
                    MatchPlan(
                        AgentSpec.of(cell.first),
                        AgentSpec.of(cell.second),
                        experiment.games_of(cell),
                        config=experiment.config,
                        opening_plies=experiment.opening_plies,
                    ),
                    PlayOptions(executor=InlineExecutor(), play=play),
                ),
            )
            for cell in experiment.cells
        ),
    )


def pruning_result(factor: float, diverge: tuple[int, ...] = ()) -> ExperimentResult:
    """Kang's pruning experiment: each move searches 100 + ply nodes (times 1 + index / 100, so games differ), and
    ``factor`` times that without pruning."""

    def stats(spec: GameSpec, agent: str, ply: int) -> MoveStats:
        nodes = (100 + ply) * (1 + spec.index / 100) * (factor if "pruning=false" in agent else 1)
        return (("nodes", round(nodes)), ("depth", 4))

    return searched_result("kang-pruning", stats, diverge=diverge)


def test_the_pruning_claim_pairs_the_same_games_by_their_nodes() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "kang-pruning").claims[0]
    pruned = judge(claim, pruning_result(3.0))
    assert pruned.status == verdicts.AGREES and pruned.summary == "agrees by its size: more than 2x fewer nodes shown"
    assert (
        "over both, 3.00x fewer nodes [" in pruned.ours
        and "over 16 same games from 4 independent openings" in pruned.ours
    )
    assert (
        pruned.ours.startswith("alpha-beta, depth 4: 3.00x fewer nodes (8 games), ")
        and "alpha-beta, depth 6: 3.00x fewer nodes (8 games), " in pruned.ours
    )
    # Time is measured, never assumed to follow nodes: each side's microseconds a node, and the time ratio.
    assert "less time (" in pruned.ours and "microseconds a node, measured in the games)" in pruned.ours
    assert (
        pruned.headline.startswith("depth 4: 3.00x fewer nodes, ") and "; depth 6: 3.00x fewer nodes" in pruned.headline
    )
    # The direction cannot fail, so the claim rests on its size: 1.5 times fewer nodes rules "greatly" out.
    assert pruned.hypotheses[0].name == "2.00x fewer nodes or less"
    assert judge(claim, pruning_result(1.5)).status == verdicts.CONTRADICTED
    dropped = judge(claim, pruning_result(3.0, diverge=(5,)))
    assert (
        "over 14 same games" in dropped.ours
        and "2 games whose moves differed between the cells dropped" in dropped.ours
    )


def depth_result(table: int, without: int, extra: int = 0) -> ExperimentResult:
    """Sheoran's depth experiment: the minimax with its table reaches ``table`` plies each move (``extra`` more every
    third game), without it ``without``."""

    def stats(spec: GameSpec, agent: str, ply: int) -> MoveStats:
        depth = without if "memo=false" in agent else table + extra * (spec.index % 3 == 0)
        return (("nodes", 1000), ("depth", depth))

    return searched_result("sheoran-depth", stats)


def test_the_depth_claim_compares_the_two_agents_of_the_same_games() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "sheoran-depth").claims[0]
    deeper = judge(claim, depth_result(8, 7, extra=1))
    # Games 0, 3 and 6 reach one ply more: openings (0, 1) and (6, 7) +1.5, (2, 3) +1.5, (4, 5) +1.
    assert deeper.status == verdicts.AGREES and deeper.ours.startswith("+1.38 plies"), deeper
    assert "over 8 games from 4 independent openings" in deeper.ours
    same = judge(claim, depth_result(7, 7))
    assert same.status == verdicts.NOT_SETTLED and "0.5 plies deeper" in same.reason, same
    assert judge(claim, depth_result(6, 7)).status == verdicts.CONTRADICTED


def test_a_depth_counts_only_with_half_the_board_empty_and_at_most_the_empty_cells() -> None:
    stats = tuple((("depth", 42),) for _ in range(19))
    record = GameRecord(
        0, ("a", "b"), BoardConfig(), 0, (3,), (3,) * 38, None, ("DONE", "DONE"), "draw", search_stats=(stats, stats)
    )
    # Seat 1 moves at plies 1, 3, ..., 37 and seat 0 at 2, 4, ...: those with 21 or more of 42 cells empty count,
    # each capped at the cells still empty.
    assert [d for _, d in move_claims.depths_searched(record, 1)] == [41, 39, 37, 35, 33, 31, 29, 27, 25, 23, 21]
    assert [d for _, d in move_claims.depths_searched(record, 0)] == [40, 38, 36, 34, 32, 30, 28, 26, 24, 22]
    # The figure reads every move, the move number beside each depth; the test only the first half of the board.
    every = move_claims.depths_searched(record, 1, every_move=True)
    assert every[0] == (2, 41) and every[-1] == (38, 5) and len(every) == 19


def test_holm_states_the_power_of_claims_it_did_not_reject_at_the_level_it_stopped_at() -> None:
    claims = (
        Claim("a wins", "above_half", (("s", "a"),)),
        Claim("b wins", "above_half", (("s", "b"),)),
        Claim("c wins", "above_half", (("s", "c"),)),
    )
    result = series_result(claims, {"a": spread(170, 200), "b": spread(106, 200), "c": spread(104, 200)})
    judged = judge_all([(claim, result) for claim in claims], verdicts.HOLM)
    # Six hypotheses: each claim's "no effect" and "a score of 60% or more". a's "no effect" is rejected first; b's
    # and c's are not, and each power is stated at the level Holm held that claim's "no effect" to: for those it
    # did not reject, the level the step-down stopped at (c's own rank would have given it a larger one).
    p_values = [h.p_value for v in judged for h in v.hypotheses]
    levels = hypothesis_tests.holm_levels(p_values, 0.05)
    assert judged[0].status == "agrees" and judged[0].level == pytest.approx(0.05 / 6) == levels[0]
    assert [v.level for v in judged] == [levels[0], levels[2], levels[4]] and levels[2] == levels[4] < 0.05 / 3
    assert judged[2].power == pytest.approx(hypothesis_tests.rate_power(0.5, 0.6, 200, levels[4]))


def shared_openings_result(claim: Claim, pairs: int = 6) -> ExperimentResult:
    """Two cells of one experiment that play the same 4-ply openings pair by pair (the schedule's), where the
    first agent wins both games of a pair when the opening's first column is even and loses both otherwise."""
    cells = (Cell("s", "a", "random", "kaggle:random"), Cell("s", "b", "negamax", "kaggle:random"))
    experiment = Experiment("x", "p", "t", "s", SERIES, cells, 2 * pairs, (claim,), opening_plies=4)

    def play(spec: GameSpec) -> GameRecord:
        first_seat = spec.index % 2
        winner = first_seat if spec.opening[0] % 2 == 0 else 1 - first_seat
        return GameRecord(
            spec.index,
            spec.names,
            spec.config,
            spec.seed,
            spec.opening,
            spec.opening + (spec.index,),
            winner,
            ("DONE", "DONE"),
            "line",
        )

    return ExperimentResult(
        experiment,
        tuple(
            CellResult(
                cell,
                play_match(
                    MatchPlan(AgentSpec.of(cell.first), AgentSpec.of(cell.second), 2 * pairs, opening_plies=4),
                    PlayOptions(executor=InlineExecutor(), play=play),
                ),
            )
            for cell in cells
        ),
    )


def test_cells_that_share_openings_are_clustered_by_opening_across_cells() -> None:
    claim = Claim("wins", "above_half", (("s", "a"), ("s", "b")))
    result = shared_openings_result(claim)
    records = [r for c in result.cells for r in c.match.records]
    openings = {r.opening for r in records}
    assert len(openings) == 6 and len({r.opening for r in result.cells[0].match.records}) == 6
    assert {r.opening for r in result.cells[1].match.records} == openings  # the same openings in both cells
    groups = cell_scores.design_clusters(records, [0] * 12 + [1] * 12)
    assert len(groups) == 6 and all(len(group) == 4 for group in groups)  # pair p of both cells together
    # Both cells' pair p say the same thing (the opening decides): 24 games worth about the 6 openings less the
    # small-sample correction (6 / 5), not 24 games nor 12 pairs; and six clusters are flagged as too few.
    ours = judge(claim, result).ours
    assert "24 games (24 distinct) from 6 shared openings, worth 5 independent ones (fewer than 30 clusters" in ours
    # The same games without openings are independent draws.
    alone = [dataclasses.replace(r, opening=()) for r in records]
    assert cell_scores.design_clusters(alone, [0] * 12 + [1] * 12) == [[i] for i in range(24)]


def test_a_claim_about_every_cell_needs_every_cell() -> None:
    pooled = Claim("wins at each depth", "above_half", (("s", "a"), ("s", "b"), ("s", "c")))
    each = dataclasses.replace(pooled, each=True)
    outcomes = {"a": spread(180, 200), "b": spread(180, 200), "c": [1.0, 0.0] * 100}
    # Pooled, the two strong cells carry the flat one: agrees. Each: cell c is not above half, and its 50% over 200
    # games rules out the 60% the report counts as an edge (p = 0.002, times the 3 cells); the words state no
    # size, so that leaves the claim not settled.
    assert judge(pooled, series_result((pooled,), outcomes)).status == "agrees"
    verdict = judge(each, series_result((each,), outcomes))
    assert verdict.status == "not settled" and verdict.p_value == 1.0
    assert verdict.reason.startswith(
        "no effect not ruled out; a score of 60% or more (the smallest edge this "
        "report counts) ruled out, but the words state no size"
    )
    shortfall = -0.1 / math.sqrt(0.24 / 200)
    assert roles(verdict)["size"] == pytest.approx(3 * (1 - hypothesis_tests.upper_p_value(shortfall)))
    assert "s at c scored 50.0% [" in verdict.ours and "(pooled: scored 76.7%" in verdict.ours
    # Every cell significant: the p-value is the largest of theirs.
    strong = {"a": spread(180, 200), "b": spread(150, 200), "c": spread(170, 200)}
    agreed = judge(each, series_result((each,), strong))
    alone = [
        judge(dataclasses.replace(pooled, cells=(("s", x),)), series_result((pooled,), strong)).p_value for x in strong
    ]
    assert agreed.status == "agrees" and agreed.p_value == pytest.approx(max(alone))
    # One cell significantly the other way: contradicted, its p-value multiplied by the 3 cells.
    against = {"a": spread(180, 200), "b": spread(180, 200), "c": [1.0 - v for v in spread(150, 200)]}
    contradicted = judge(each, series_result((each,), against))
    reversed_alone = judge(dataclasses.replace(pooled, cells=(("s", "c"),)), series_result((pooled,), against))
    assert contradicted.status == "contradicted"
    assert contradicted.p_value == pytest.approx(min(1.0, 3 * reversed_alone.p_value))


def test_a_rise_over_each_baseline_cell_is_not_carried_by_the_weakest() -> None:
    # Sheoran's Fig. 3 in the full run: depth 4/5 wins 96% against negamax, depths 1, 2, 3 win 71%, 97%, 99%.
    pooled = Claim(
        "4/5 does much better", "rises", (("s", "45"),), baseline=(("s", "1"), ("s", "2"), ("s", "3")), effect=0.15
    )
    each = dataclasses.replace(pooled, each=True, magnitude=True)
    outcomes = {"45": spread(384, 400), "1": spread(284, 400), "2": spread(388, 400), "3": spread(396, 400)}
    assert judge(pooled, series_result((pooled,), outcomes)).status == "agrees"  # depth 1 drags the pool down
    verdict = judge(each, series_result((each,), outcomes))
    assert verdict.status == "contradicted" and "99.0% [" in verdict.ours  # depth 3 beats 4/5 significantly
    assert "points against the +15.0 the words imply" in verdict.ours
    lower = {"45": spread(384, 400), "1": spread(200, 400), "2": spread(220, 400), "3": spread(240, 400)}
    assert judge(each, series_result((each,), lower)).status == "agrees"


def test_a_size_ruled_out_contradicts_words_with_a_size_and_holm_would_leave_it_open() -> None:
    # Kang's Table 9 at depth 2: "much weaker" (a score of 35% or less) against our 48 of 100, worth 100 games.
    claim = Claim("a is much weaker", "below_half", (("s", "a"),), effect=0.15, magnitude=True)
    outcomes = {"a": [0.0] * 52 + [1.0] * 48}
    alone = judge(claim, series_result((claim,), outcomes))
    z = (0.48 - 0.35) / math.sqrt(0.35 * 0.65 / 100)  # 2.73: the size is ruled out, p = 0.0032
    assert alone.status == "contradicted" and roles(alone)["size"] == pytest.approx(hypothesis_tests.upper_p_value(z))
    assert alone.reason == "the +15.0 points from 50% the words imply ruled out"
    # Among 20 claims that each reject at p < 0.0001 it is still contradicted, each claim being tested at its own
    # level; Holm's correction over the family (the sensitivity line) holds it to 0.05 / 22 and leaves it open.
    others = tuple(Claim(f"{x} wins", "above_half", (("s", x),)) for x in "bcdefghijklmnopqrstu")
    outcomes |= {x: [1.0] * 100 for x in "bcdefghijklmnopqrstu"}
    family = [(c, series_result((claim, *others), outcomes)) for c in (claim, *others)]
    assert judge_all(family)[0].status == "contradicted"
    holm = judge_all(family, verdicts.HOLM)[0]
    assert holm.status in ("not settled", "cannot be tested at this size") and holm.adjusted[1] > 0.05
    assert holm.reason.startswith("no hypothesis rejected, by a test with")


def test_a_claim_of_a_close_score_counts_draws_as_half() -> None:
    table8 = next(e for e in experiments(FULL) if e.key == "kang-table8")
    close = next(c for c in table8.claims if "close to H2" in c.text)
    claim = dataclasses.replace(close, cells=(("s", "a"),))
    assert close.counts == "score" and answer_section.paper_number(close) == "close to H2 (read as 50%)"
    drawn = [1.0, 0.0] * 20 + [0.5] * 160  # 20 wins, 20 losses, 160 draws: a score of 50%, a win rate of 10%
    verdict = judge(claim, series_result((claim,), {"a": drawn}))
    assert verdict.status == "agrees" and verdict.ours.startswith("scored 50.0%")
    as_wins = judge(dataclasses.replace(claim, counting="win"), series_result((claim,), {"a": drawn}))
    assert as_wins.status == "contradicted" and as_wins.ours.startswith("won 10.0%")


def test_the_score_test_of_even_takes_its_variance_from_the_draws() -> None:
    # 20 wins, 40 losses and 140 draws: a score of 45%. Its variance under "even" is a quarter of the 30% of games
    # decided, not a quarter: z = -0.05 / sqrt(0.25 * 0.3 / 200) = -2.58, where ignoring the draws gives -1.41.
    claim = Claim("a loses", "below_half", (("s", "a"),))
    drawn = [1.0] * 20 + [0.0] * 40 + [0.5] * 140
    verdict = judge(claim, series_result((claim,), {"a": drawn}))
    z = 0.05 / math.sqrt(0.25 * 0.3 / 200)
    assert roles(verdict)["for"] == pytest.approx(hypothesis_tests.normal_p_value(z)) and verdict.status == "agrees"
    # Counted as wins a draw is a loss: the variance is the binomial one.
    wins = judge(dataclasses.replace(claim, counting="win"), series_result((claim,), {"a": drawn}))
    assert wins.ours.startswith("scored 10.0%") and roles(wins)["for"] == pytest.approx(
        hypothesis_tests.normal_p_value(0.4 / math.sqrt(0.25 / 200))
    )


def test_a_claim_whose_words_imply_a_size_says_when_the_effect_is_smaller() -> None:
    claim = Claim("a beats b easily", "above_half", (("s", "a"),), effect=0.15, magnitude=True)
    small = judge(claim, series_result((claim,), {"a": spread(1100, 2000)}))  # 55% [52.8, 57.2], the words 65%
    assert small.status == verdicts.SMALLER and "+5.0 points from 50% the claimed way [" in small.ours
    assert "against the +15.0 the words imply" in small.ours
    big = judge(claim, series_result((claim,), {"a": spread(1400, 2000)}))
    assert big.status == "agrees"
    direction_only = dataclasses.replace(claim, magnitude=False)
    assert judge(direction_only, series_result((claim,), {"a": spread(1100, 2000)})).status == "agrees"


def test_a_series_at_its_ceiling_is_labelled_so_whatever_the_games() -> None:
    claim = Claim("rises", "rises", (("s", "a"), ("s", "b"), ("s", "c")), scores=(1.0, 2.0, 3.0))
    verdict = judge(claim, series_result((claim,), {x: [1.0] * 1000 for x in "abc"}))
    assert verdict.status == verdicts.CEILING and "at its ceiling" in verdict.ours
    assert verdict.summary == "at its ceiling: all 3000 games won" and verdict.group == verdicts.CEILING
    assert verdict.p_value == 1.0


def test_the_note_on_a_perfect_record_says_how_all_of_the_games_is_read() -> None:
    fig3 = next(e for e in experiments(FULL) if e.key == "sheoran-fig3")
    perfect = next(c for c in fig3.claims if "all of the games" in c.text)
    assert "Read as a rate of at least 99%" in perfect.note and "37% of such runs" in perfect.note
    assert 0.99**100 == pytest.approx(0.366, abs=0.001)  # the note's 37%
    claim = dataclasses.replace(perfect, cells=(("s", "a"),))
    # 400 independent games all won: Wilson's lower end over the 400 games, 400 / (400 + 3.84).
    verdict = judge(claim, series_result((claim,), {"a": [1.0] * 400}))
    low = float(verdict.ours.split("[")[1].split(",")[0])
    assert low == pytest.approx(100 * 400 / (400 + Z95**2), abs=0.05)


def move_sample(series: str, move: int, nodes: int, seconds: float = 0.01, games: int = 6) -> runner.MoveSample:
    """A searched move of one of ``games`` games (move m in game m mod games), so each game spans the series."""
    return runner.MoveSample(series, move, nodes, seconds, game=move % games)


def test_the_games_not_the_moves_are_the_units_of_a_correlation_along_the_game() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13").claims[0]
    # Nodes fall along every game, more steeply in some: each pair's mean Fisher z is one observation.
    samples = [move_sample("depth 4", m, int(10000 / (m * (1 + m % 6 / 2) + 1)) + 7 * (m % 5)) for m in range(1, 61)]
    evidence = move_claims.move_evidence(claim, samples, 6)
    units = move_claims._pair_units(samples, lambda s: float(s.move), lambda s: math.log(s.nodes))
    assert len(units) == 3  # six games, three colour-swapped pairs
    mean = stdlib_statistics.mean(units)
    t = -mean / (stdlib_statistics.stdev(units) / math.sqrt(3))
    assert evidence.hypotheses[0].role == verdicts.FOR
    assert evidence.hypotheses[0].p_value == pytest.approx(t_p_value(t, 2), rel=1e-6)
    assert "over 3 independent games" in evidence.ours and "60 moves" in evidence.ours
    # All in one game: the moves are no independent evidence, and nothing can be tested.
    one_game = [move_sample("depth 4", m, 10000 // m, games=1) for m in range(1, 61)]
    assert move_claims.move_evidence(claim, one_game, 1).hypotheses == ()


def test_moves_are_correlated_within_each_depth_not_across_them() -> None:
    claim = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13").claims[0]
    # Within each depth nodes rise with the move, but depth 6 (many nodes) has the early moves and depth 4 the
    # late ones: pooled, log nodes fall with the move; within each depth they rise.
    samples = [move_sample("depth 6", m, 10000 + 100 * m + 50 * (m % 3)) for m in range(1, 21)]
    samples += [move_sample("depth 4", m, 100 + m + (m % 3)) for m in range(21, 41)]
    within = move_claims.move_evidence(claim, samples, 4)
    assert within.hypotheses[0].role == verdicts.AGAINST and "within each series" in within.ours
    pooled = correlation_interval([s.move for s in samples], [math.log(s.nodes) for s in samples]).value
    assert pooled < -0.5
    assert "prune with alpha-beta too" in claim.note and "previous iteration's best move" in claim.note


def test_time_per_move_falling_with_the_move_is_a_claim_of_its_own() -> None:
    fig12 = next(e for e in experiments(FULL) if e.key == "kang-fig12-13")
    claim = next(c for c in fig12.claims if c.test == "time_falls_with_move")
    assert "time" in claim.text and "decreases with the increase of moves" in claim.text
    falling = [
        move_sample(series, m, 1000, 1.0 / (m + (m % 3))) for series in ("depth 4", "depth 6") for m in range(1, 30)
    ]
    assert move_claims.move_evidence(claim, falling, 2).hypotheses[0].role == verdicts.FOR
    rising = [
        move_sample(series, m, 1000, 0.01 * (m + (m % 3))) for series in ("depth 4", "depth 6") for m in range(1, 30)
    ]
    assert move_claims.move_evidence(claim, rising, 2).hypotheses[0].role == verdicts.AGAINST


def test_two_features_are_similar_when_their_rates_are_within_the_margin() -> None:
    table7 = next(e for e in experiments(FULL) if e.key == "kang-table7")
    similar = [c for c in table7.claims if c.test == "similar"]
    assert [(c.cells[0][1], c.baseline[0][1]) for c in similar] == [("F1", "F3"), ("F2", "F4")]
    claim = Claim("a is like b", "similar", (("s", "a"),), baseline=(("s", "b"),))
    alike = judge(claim, series_result((claim,), {"a": spread(300, 400), "b": spread(310, 400)}))
    assert alike.status == "agrees" and "difference -2.5 points [" in alike.ours
    apart = judge(claim, series_result((claim,), {"a": spread(300, 400), "b": [1.0, 0.0] * 200}))
    assert apart.status == "contradicted"
    few = judge(claim, series_result((claim,), {"a": spread(15, 20), "b": spread(15, 20)}))
    assert few.status == "cannot be tested at this size" and few.power < 0.5


def test_rates_claimed_similar_that_differ_lean_against_the_words_and_two_at_the_floor_agree_only_there() -> None:
    claim = Claim("a is like b", "similar", (("s", "a"),), baseline=(("s", "b"),))
    # As Table 7's F1 against F3: 6 of 50 won against none, 12 points apart, not shown beyond the 10-point margin
    # by a test with too little power to call the claim open.
    apart = judge(claim, series_result((claim,), {"a": [1.0] * 6 + [0.0] * 44, "b": [0.0] * 50}))
    assert apart.status == verdicts.LEANS_AGAINST and apart.group == verdicts.LEANS, apart
    assert "+12.0 points apart [" in apart.summary and "Fisher's p = 0.027" in apart.summary
    assert apart.summary.startswith("leans against the words (power ")
    # Table 7's F2 against F4: 1 of 100 against none, within the margin, but both at the floor.
    floor = judge(claim, series_result((claim,), {"a": [1.0] + [0.0] * 99, "b": [0.0] * 100}))
    assert floor.status == verdicts.AT_FLOOR and floor.group == verdicts.AGREES
    assert floor.summary == "agrees only at the floor: 1 and 0 of 100 won, alike only in losing"


def test_a_companion_reading_is_judged_beside_the_claim_and_counted_in_no_family() -> None:
    rise = Claim("a rises along x", "rises", (("s", "a"), ("s", "b"), ("s", "c")), scores=(4.0, 6.0, 8.0))
    pooled = Claim("a wins over x", "above_half", rise.cells, companion=rise, companion_words="as a rise")
    rates = {"a": 40, "b": 80, "c": 120}
    result = series_result((pooled,), {x: [1.0] * wins + [0.0] * (200 - wins) for x, wins in rates.items()})
    alone = judge(dataclasses.replace(pooled, companion=None), result)
    verdict = claim_tests.judge_every_control([(pooled, result)])
    for control, judged in verdict.items():
        assert judged[0].status == (alone.status if control == verdicts.PER_CLAIM else judged[0].status)
        assert judged[0].companion == "as a rise: agrees (won 20.0% at a, 40.0% at b, 60.0% at c; p < 0.0001)"
    assert verdict[verdicts.PER_CLAIM][0].summary.startswith(f"{alone.summary}; as a rise: agrees")
    # Table 9's pool from depth 4 carries its rise as a companion, Sheoran's depth claim its "better results".
    table9 = next(e for e in experiments(FULL) if e.key == "kang-table9")
    companions = [c.companion for c in table9.claims if c.companion is not None]
    assert companions and all(c.test == "rises" and c.counts == "score" for c in companions)
    depth = next(e for e in experiments(FULL) if e.key == "sheoran-depth").claims[0]
    assert depth.companion is not None and depth.companion.test == "above_half"


def test_a_claim_about_every_cell_too_small_to_settle_says_how_many_cells_lean_its_way() -> None:
    claim = Claim("a wins in every cell", "above_half", (("s", "a"), ("s", "b"), ("s", "c")), each=True)
    games = {"a": spread(36, 50), "b": spread(35, 50), "c": spread(28, 50)}
    verdict = judge(claim, series_result((claim,), games))
    assert verdict.status == verdicts.LEANS_FOR, verdict
    assert verdict.summary.endswith("all 3 cells the claimed way, 2 significantly")
    assert verdict.headline.startswith("scored 56.0% to 72.0% in the 3 cells; pooled ")


def test_a_p_value_just_below_the_level_never_prints_as_the_level() -> None:
    assert [p_value_text.p_value_text(p) for p in (0.00004, 0.0027, 0.0497, 0.066, 0.15, 1.0)] == [
        "< 0.0001",
        "0.0027",
        "0.0497",
        "0.066",
        "0.15",
        "1.00",
    ]
