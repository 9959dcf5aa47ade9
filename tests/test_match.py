"""Match logic with a fake game function: schedule, accounting, SPRT stop, forfeits, resume."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import ABORTED, GameRecord, GameSpec
from connectx.evaluation.match import (
    MatchPlan,
    MatchSummary,
    MatchTally,
    MoveTimes,
    SeatRecord,
    Sprt,
    durations_by_agent,
    play_match,
    random_opening,
    summarize,
)
from connectx.evaluation.results_text import match_table, running_line
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.statistics.elo import (
    elo_interval,
    likelihood_of_superiority,
    pentanomial,
    pentanomial_elo_interval,
    sprt_decision,
    sprt_llr,
    wilson_interval,
)


def fake_game(winner_name: str | None = None, fault: str | None = None):
    """A game function where ``winner_name`` always wins (None: draw); ``fault`` makes the loser forfeit."""

    def play(spec: GameSpec) -> GameRecord:
        winner = None if winner_name is None else spec.names.index(winner_name)
        cause = "draw" if winner is None else (fault or "line")
        offender = None if winner is None or fault is None else 1 - winner
        return GameRecord(
            spec.index,
            spec.names,
            spec.config,
            spec.seed,
            spec.opening,
            spec.opening,
            winner,
            ("DONE", "DONE"),
            cause,
            offender,
            "",
            ((0.01, 0.02), (0.5,)),
        )

    return play


def seat_biased_game(spec: GameSpec) -> GameRecord:
    """The first mover always wins: a fair match must come out exactly even."""
    return GameRecord(spec.index, spec.names, spec.config, spec.seed, spec.opening, (), 0, ("DONE", "DONE"), "line")


RANDOM, NEGAMAX = AgentSpec.parse("random"), AgentSpec.parse("negamax")


def test_games_come_in_colour_swapped_pairs_sharing_an_opening() -> None:
    plan = MatchPlan(RANDOM, NEGAMAX, 6, BoardConfig(), seed=3, opening_plies=4)
    specs = [plan.game_spec(i) for i in range(6)]
    assert [s.agents for s in specs] == [(RANDOM, NEGAMAX), (NEGAMAX, RANDOM)] * 3
    assert specs[1].names == ("negamax", "random")
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first.opening == second.opening and len(first.opening) == 4
    assert len({s.opening for s in specs}) > 1
    assert len({s.seed for s in specs}) == 6
    assert [s.seed for s in specs] == [
        MatchPlan(RANDOM, NEGAMAX, 6, seed=3, opening_plies=4).game_spec(i).seed for i in range(6)
    ]
    assert specs[0].seed != MatchPlan(RANDOM, NEGAMAX, 6, seed=4).game_spec(0).seed


@pytest.mark.parametrize("rows, columns, inarow", [(6, 7, 4), (4, 4, 3), (7, 9, 5), (6, 1, 4)])
def test_random_openings_leave_an_open_game(rows: int, columns: int, inarow: int) -> None:
    config = BoardConfig(rows, columns, inarow)
    for trial in range(20):
        opening = random_opening(config, 4, random.Random(trial))
        position = Position.initial(rows, columns, inarow)
        for column in opening:
            assert position.can_play(column) and not position.is_winning_move(column)
            position = position.play(column)
        assert not position.is_over() and not position.winning_columns()


def test_seat_advantage_cancels_out_over_pairs() -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("random"), AgentSpec.of("negamax"), 10),
        PlayOptions(executor=InlineExecutor(), play=seat_biased_game),
    )
    summary = result.summary
    assert (summary.total.wins, summary.total.draws, summary.total.losses) == (5, 0, 5)
    assert summary.as_first.wins == 5 and summary.as_second.losses == 5
    assert summary.score.value == 0.5 and summary.elo.value == 0.0
    assert summary.pentanomial == (0, 0, 5, 0, 0)


def test_a_stronger_agent_scores_from_its_own_point_of_view() -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 8),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax")),
    )
    assert result.summary.total.wins == 8 and result.summary.pentanomial == (0, 0, 0, 0, 4)
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 8),
        PlayOptions(executor=InlineExecutor(), play=fake_game("random")),
    )
    assert result.summary.total.losses == 8 and result.summary.los < 0.01
    draws = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 4),
        PlayOptions(executor=InlineExecutor(), play=fake_game(None)),
    )
    assert draws.summary.total.draws == 4 and draws.summary.score.value == 0.5


def test_forfeits_are_counted_by_cause_and_offender() -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 6),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax", "TIMEOUT")),
    )
    assert result.summary.forfeits == {"TIMEOUT": {"random": 6}}


def test_aborted_games_are_kept_but_not_scored() -> None:
    plan = MatchPlan(NEGAMAX, RANDOM, 4)
    records = [
        GameRecord(
            i, plan.game_spec(i).names, plan.config, 0, (), (), None, ("DONE", "DONE"), ABORTED if i == 3 else "draw"
        )
        for i in range(4)
    ]
    summary = summarize(plan, records)
    assert summary.total.games == 3 and summary.aborted == 1
    assert summary.pentanomial == (0, 0, 1, 0, 0)


def test_time_per_move_is_reported_per_agent_whatever_its_seat() -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 4),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax")),
    )
    # The fake gives seat 0 moves of 0.01 s and 0.02 s and seat 1 one move of 0.5 s; each agent sat
    # twice in each seat, so each made 2 * 2 + 2 * 1 = 6 moves.
    for name in ("negamax", "random"):
        times = result.summary.times[name]
        assert times.moves == 6 and times.max == 0.5
        assert times.mean == pytest.approx((2 * 0.03 + 2 * 0.5) / 6)


def test_sprt_stops_a_lopsided_match_early() -> None:
    seen = []
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 400),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax")),
        sprt=Sprt(0, 50),
        on_game=lambda record, summary: seen.append(summary().llr),
    )
    assert result.stopped_early and result.summary.decision == "H1"
    assert 2 < len(result.records) < 60 and len(seen) == len(result.records)
    assert seen[-1] >= Sprt(0, 50).bounds.upper


def test_sprt_accepts_h0_for_an_agent_that_keeps_losing() -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 400),
        PlayOptions(executor=InlineExecutor(), play=fake_game("random")),
        sprt=Sprt(0, 50),
    )
    assert result.summary.decision == "H0" and result.stopped_early


def test_resume_plays_only_the_missing_games(tmp_path: Path) -> None:
    played: list[int] = []

    def counting(spec: GameSpec) -> GameRecord:
        played.append(spec.index)
        return fake_game("negamax")(spec)

    first = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 6),
        PlayOptions(executor=InlineExecutor(), play=counting, out=tmp_path),
    )
    assert played == list(range(6)) and len(first.records) == 6
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    (tmp_path / "games.jsonl").write_text("\n".join(lines[:4]) + "\n")
    played.clear()
    second = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 6),
        PlayOptions(executor=InlineExecutor(), play=counting, out=tmp_path, resume=True),
    )
    kept = {json.loads(line)["index"] for line in lines[:4]}
    assert sorted(played) == sorted(set(range(6)) - kept)
    assert [r.index for r in second.records] == list(range(6))
    assert second.summary.total.wins == 6


def test_a_directory_with_results_needs_resume_and_the_same_plan(tmp_path: Path) -> None:
    from connectx.evaluation.results_store import RunDirectoryError

    play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 2),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax"), out=tmp_path),
    )
    with pytest.raises(RunDirectoryError, match="pass resume=True"):
        play_match(
            MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 2),
            PlayOptions(executor=InlineExecutor(), play=fake_game("negamax"), out=tmp_path),
        )
    with pytest.raises(RunDirectoryError, match="different run"):
        play_match(
            MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 2, seed=9),
            PlayOptions(executor=InlineExecutor(), play=fake_game("negamax"), out=tmp_path, resume=True),
        )


def test_unknown_agents_are_refused_before_any_game() -> None:
    from connectx.agents.registry import AgentSpecError

    with pytest.raises(AgentSpecError, match="registered agents"):
        play_match(
            MatchPlan(AgentSpec.of("no-such-agent"), AgentSpec.of("random"), 2),
            PlayOptions(executor=InlineExecutor(), play=fake_game(None)),
        )


def test_a_match_can_be_extended_with_more_games_on_resume(tmp_path: Path) -> None:
    first = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 4),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax"), out=tmp_path),
    )
    longer = play_match(
        MatchPlan(AgentSpec.of("negamax"), AgentSpec.of("random"), 8),
        PlayOptions(executor=InlineExecutor(), play=fake_game("negamax"), out=tmp_path, resume=True),
    )
    assert longer.records[:4] == first.records
    assert [r.index for r in longer.records] == list(range(8))
    assert [r.seed for r in longer.records] == [MatchPlan(NEGAMAX, RANDOM, 8).game_spec(i).seed for i in range(8)]


def test_agents_that_cannot_play_on_the_board_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    from connectx.agents.registry import AgentSpecError

    out = tmp_path / "run"
    with pytest.raises(AgentSpecError, match="expected 4 positive integers"):
        play_match(
            MatchPlan(AgentSpec.of("minimax:weights=1/3"), AgentSpec.of("random"), 2),
            PlayOptions(out=out, executor=InlineExecutor(), play=fake_game(None)),
        )
    play_match(
        MatchPlan(AgentSpec.of("minimax:weights=1/3/9"), AgentSpec.of("random"), 2, config=BoardConfig(4, 5, 3)),
        PlayOptions(executor=InlineExecutor(), play=fake_game(None)),
    )
    with pytest.raises(ValueError, match="jobs=0"):
        play_match(MatchPlan(AgentSpec.of("random"), AgentSpec.of("negamax"), 2), PlayOptions(out=out, jobs=0))
    assert not out.exists()


def test_plans_refuse_impossible_openings_and_sprt_rates() -> None:
    with pytest.raises(ValueError, match="opening_plies=20: a 5x4 board has 20 cells"):
        MatchPlan(RANDOM, NEGAMAX, 2, BoardConfig(4, 5, 3), opening_plies=20)
    MatchPlan(RANDOM, NEGAMAX, 2, BoardConfig(4, 5, 3), opening_plies=19)
    with pytest.raises(ValueError, match="below elo1"):
        Sprt(10, 0)
    with pytest.raises(ValueError, match="sum below 1"):
        Sprt(0, 10, 0.6, 0.5)


def refolded(plan: MatchPlan, records: list[GameRecord], sprt: Sprt | None) -> MatchSummary:
    """The old way: every statistic folded again from all the games so far, in index order."""
    games = sorted(records, key=lambda r: r.index)
    scored = [r for r in games if r.scored]
    seats: dict[int, Counter[float]] = {0: Counter(), 1: Counter()}
    by_pair: dict[int, list[GameRecord]] = {}
    forfeits: dict[str, dict[str, int]] = {}
    for record in scored:
        seat = record.index % 2
        seats[seat][record.points(seat)] += 1
        by_pair.setdefault(record.index // 2, []).append(record)
        if record.offender is not None:
            name = plan.first.text if record.offender == seat else plan.second.text
            forfeits.setdefault(record.cause, {}).setdefault(name, 0)
            forfeits[record.cause][name] += 1
    as_first = SeatRecord(seats[0][1.0], seats[0][0.5], seats[0][0.0])
    as_second = SeatRecord(seats[1][1.0], seats[1][0.5], seats[1][0.0])
    total = SeatRecord(
        as_first.wins + as_second.wins, as_first.draws + as_second.draws, as_first.losses + as_second.losses
    )
    counts = pentanomial([sum(r.points(r.index % 2) for r in pair) for pair in by_pair.values() if len(pair) == 2])
    llr, decision = 0.0, None
    if sprt is not None:
        llr = sprt_llr({k / 4: n for k, n in enumerate(counts)}, sprt.elo0, sprt.elo1)
        decision = sprt_decision(llr, sprt.bounds)
    return MatchSummary(
        plan.first.text,
        plan.second.text,
        plan.games,
        total,
        as_first,
        as_second,
        wilson_interval(total.wins, total.draws, total.losses),
        elo_interval(total.wins, total.draws, total.losses),
        likelihood_of_superiority(total.wins, total.losses),
        counts,
        pentanomial_elo_interval(counts),
        forfeits,
        {name: MoveTimes.of(values) for name, values in durations_by_agent(plan, games).items()},
        len(games) - len(scored),
        sprt,
        llr,
        decision,
    )


def recorded_games(plan: MatchPlan, rng: random.Random) -> list[GameRecord]:
    """Games of every kind a match records: won, drawn, forfeited by either agent, aborted; some never played."""
    records = []
    for index in range(plan.games):
        spec = plan.game_spec(index)
        durations = tuple(tuple(round(rng.uniform(0.001, 2.0), 3) for _ in range(rng.randrange(4))) for _ in "ab")
        kind = rng.choice(["line", "line", "draw", "TIMEOUT", "ERROR", "aborted", "unplayed"])
        if kind == "unplayed":
            continue
        if kind == "aborted":
            records.append(
                GameRecord(
                    index,
                    spec.names,
                    spec.config,
                    spec.seed,
                    (),
                    (),
                    None,
                    ("DONE", "DONE"),
                    ABORTED,
                    None,
                    "",
                    (durations[0], durations[1]),
                )
            )
            continue
        winner = None if kind == "draw" else rng.randrange(2)
        offender = None if winner is None or kind == "line" else 1 - winner
        records.append(
            GameRecord(
                index,
                spec.names,
                spec.config,
                spec.seed,
                (),
                (),
                winner,
                ("DONE", "DONE"),
                kind,
                offender,
                "",
                (durations[0], durations[1]),
            )
        )
    return records


@pytest.mark.parametrize("seed", range(4))
def test_a_tally_added_to_game_by_game_in_finishing_order_says_what_the_fold_says(seed: int) -> None:
    rng = random.Random(seed)
    plan = MatchPlan(RANDOM, NEGAMAX, 60, seed=seed)
    sprt = Sprt(-50, 50) if seed % 2 else None
    finished = recorded_games(plan, rng)
    rng.shuffle(finished)  # workers finish games in any order
    tally = MatchTally(plan, sprt)
    for count, record in enumerate(finished, start=1):
        tally.add(record)
        summary, fold = tally.summary(), refolded(plan, finished[:count], sprt)
        assert json.dumps(summary.to_json()) == json.dumps(fold.to_json())  # the order of the forfeits too
        assert match_table(summary) == match_table(fold) and running_line(summary) == running_line(fold)
        assert tally.decided() == (fold.decision is not None)
    assert json.dumps(summarize(plan, finished, sprt).to_json()) == json.dumps(tally.summary().to_json())
