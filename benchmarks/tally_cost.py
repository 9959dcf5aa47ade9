"""The share of a tournament's time its tally takes: 10,000 fabricated games counted as a run counts them.

A round robin of five agents, 1,000 games a pairing: each game's record is made up (a result drawn from
the agents' strengths, twenty moves with their durations, now and then a forfeit), then fed through the
run loop (``run_loop.play_prepared``, games from an inline executor) into the tournament's tally, timed
apart from everything else. The summary, the joint Elo fit with it, is asked for as the command line's
live bar asks: once every ``--line-every`` seconds of the real run (the bar's ``TEXT_EVERY``, 1 s), so
once every so many games at the measured cost of a game, and once at the end. That cost is measured here
too, on the fastest real games there are (``random`` against ``kaggle:random``, played in this process:
no watchdog, so a floor), and the share is the tally's seconds over the tally's plus the games' on one
worker (``--jobs 1``) and on this machine's cores. For comparison it also times a summary after every
game (the old contract).

    .venv/bin/python -m benchmarks.tally_cost
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from benchmarks.conditions import machine_conditions
from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.match import MatchPlan
from connectx.evaluation.run_loop import PlayOptions, play_prepared, prepare_run
from connectx.evaluation.scheduling import InlineExecutor, default_jobs
from connectx.evaluation.statistics.elo import score_from_elo
from connectx.evaluation.tournament import TournamentPlan, TournamentSummary, TournamentTally

STRENGTH = {"negamax": 400.0, "minimax": 300.0, "mcts": 250.0, "random": 0.0, "kaggle:random": 0.0}
"""Each agent's made-up Elo: who wins a fabricated game."""


class TimedTally:
    """A tournament's tally whose every call is timed: the seconds the run spends in it."""

    def __init__(self, tally: TournamentTally) -> None:
        self.tally = tally
        self.seconds = 0.0
        self.summaries = 0

    def add(self, record: GameRecord) -> None:
        started = time.perf_counter()
        self.tally.add(record)
        self.seconds += time.perf_counter() - started

    def summary(self) -> TournamentSummary:
        started = time.perf_counter()
        summary = self.tally.summary()
        self.seconds += time.perf_counter() - started
        self.summaries += 1
        return summary

    def decided(self) -> bool:
        started = time.perf_counter()
        decided = self.tally.decided()
        self.seconds += time.perf_counter() - started
        return decided


def fabricated_game(spec: GameSpec, rng: random.Random) -> GameRecord:
    """A made-up record of ``spec``'s game: its result drawn from the agents' strengths, twenty timed moves."""
    gap = STRENGTH[spec.names[0]] - STRENGTH[spec.names[1]]
    first_scores = score_from_elo(gap)
    draw = rng.random() < 0.1
    winner = None if draw else (0 if rng.random() < first_scores else 1)
    forfeit = winner is not None and rng.random() < 0.01
    moves = tuple(rng.randrange(spec.config.columns) for _ in range(20))
    durations = tuple(tuple(rng.uniform(0.0005, 0.05) for _ in range(10)) for _ in range(2))
    return GameRecord(
        spec.index,
        spec.names,
        spec.config,
        spec.seed,
        spec.opening,
        moves,
        winner,
        ("DONE", "DONE"),
        "draw" if winner is None else "TIMEOUT" if forfeit else "line",
        None if not forfeit or winner is None else 1 - winner,
        "",
        (durations[0], durations[1]),
    )


def seconds_per_game(games: int) -> float:
    """The mean wall seconds of a real game of the fastest agents, played in this process (after one to warm up)."""
    plan = MatchPlan(AgentSpec.parse("random"), AgentSpec.parse("kaggle:random"), games + 1)
    play_game(plan.game_spec(games))
    started = time.perf_counter()
    for index in range(games):
        play_game(plan.game_spec(index))
    return (time.perf_counter() - started) / games


def tally_seconds(plan: TournamentPlan, records: dict[int, GameRecord], every: int) -> tuple[float, int]:
    """The seconds the run loop spends in the tally when a line is drawn every ``every`` games, and the summaries."""
    tally = TimedTally(TournamentTally(plan))
    played = 0

    def on_game(record: GameRecord, summary: Callable[[], Any]) -> None:
        nonlocal played
        played += 1
        if played % every == 0:
            summary()

    run = prepare_run(plan, PlayOptions(executor=InlineExecutor(), play=lambda spec: records[spec.index]))
    play_prepared(run, tally, on_game)
    tally.summary()  # the result's
    return tally.seconds, tally.summaries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games a pairing (default 1,000: 10,000 in all)")
    parser.add_argument("--samples", type=int, default=30, help="real games timed for a game's cost (default 30)")
    parser.add_argument(
        "--line-every",
        type=float,
        default=1.0,
        help="seconds between two lines drawn, each asking for the summary (default 1, as the bar)",
    )
    args = parser.parse_args(argv)
    plan = TournamentPlan(tuple(AgentSpec.parse(name) for name in STRENGTH), args.games)
    rng = random.Random(0)
    records = {index: fabricated_game(plan.game_spec(index), rng) for index in range(plan.total_games)}
    game = seconds_per_game(args.samples)
    print(f"machine: {machine_conditions()}")
    print(f"a real game of random against kaggle:random: {game * 1000:.1f} ms (mean of {args.samples}, in process)")
    for jobs in sorted({1, default_jobs()}):
        wall = plan.total_games * game / jobs
        every = max(1, round(args.line_every / (game / jobs)))
        seconds, summaries = tally_seconds(plan, records, every)
        print(
            f"{plan.total_games:,} games on {jobs} worker(s), a line every {every} games ({summaries} summaries): "
            f"tally {seconds:.2f} s of {seconds + wall:.0f} s, {100 * seconds / (seconds + wall):.2f}%"
        )
    seconds, summaries = tally_seconds(plan, records, 1)
    print(
        f"a summary (and fit) after every game instead: tally {seconds:.2f} s ({summaries} summaries), "
        f"{100 * seconds / (seconds + plan.total_games * game):.1f}% on one worker"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
