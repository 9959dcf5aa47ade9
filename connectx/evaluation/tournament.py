"""A tournament: every pairing a match of colour-swapped pairs, a cross table and a joint Elo fit.

A round robin pairs every agent with every other; a gauntlet pairs the first agent with each of
the others. Game ``g`` of pairing ``p`` has the global index ``p * games + g`` and is game ``g``
of that pairing's match plan, so every pairing meets the same openings, and each pairing's
statistics are exactly those of a match.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec, game_seed
from connectx.evaluation.match import (
    MatchPlan,
    MatchSummary,
    MatchTally,
    check_opening_plies,
)
from connectx.evaluation.option_words import OptionError
from connectx.evaluation.run_loop import NumberedGames, PlayOptions, PreparedRun, play_prepared, prepare_run
from connectx.evaluation.statistics.elo import Rating, fit_ratings


@dataclass(frozen=True)
class TournamentPlan(NumberedGames):
    """What defines a tournament; its JSON form is stored with the results and checked on resume."""

    specs: tuple[AgentSpec, ...]
    games: int
    config: BoardConfig = BoardConfig()
    seed: int = 0
    opening_plies: int = 0
    gauntlet: bool = False

    def __post_init__(self) -> None:
        if len(self.specs) < 2:
            raise ValueError("a tournament needs at least two agents")
        if len(set(self.agents)) != len(self.agents):
            raise ValueError("each agent may appear once in a tournament; give variants distinct parameters")
        if self.games < 1:
            raise OptionError("{games}={count}: each pairing needs at least one game", count=self.games)
        check_opening_plies(self.opening_plies, self.config)

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents' specs as text: how records, summaries and reports name them."""
        return tuple(spec.text for spec in self.specs)

    @property
    def pairings(self) -> list[tuple[AgentSpec, AgentSpec]]:
        if self.gauntlet:
            return [(self.specs[0], other) for other in self.specs[1:]]
        return list(itertools.combinations(self.specs, 2))

    def match_plan(self, pairing: int) -> MatchPlan:
        first, second = self.pairings[pairing]
        return MatchPlan(first, second, self.games, self.config, self.seed, self.opening_plies)

    @property
    def total_games(self) -> int:
        return self.games * len(self.pairings)

    @property
    def may_change(self) -> tuple[str, ...]:
        """Nothing: a tournament's global game numbers depend on every part of its plan."""
        return ()

    def game_spec(self, index: int, keep_replay: bool = False) -> GameSpec:
        """Global game ``index``: the pairing's own match game, renumbered and with its own seed."""
        pairing, local = divmod(index, self.games)
        spec = self.match_plan(pairing).game_spec(local, keep_replay)
        return replace(spec, index=index, seed=game_seed(self.seed, index))

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "gauntlet" if self.gauntlet else "round robin",
            "agents": list(self.agents),
            "games": self.games,
            "config": self.config.to_json(),
            "seed": self.seed,
            "opening_plies": self.opening_plies,
        }


@dataclass(frozen=True)
class TournamentSummary:
    """Each pairing's match summary, the cross table of scores and the jointly fitted ratings."""

    agents: tuple[str, ...]
    pairings: tuple[MatchSummary, ...]
    ratings: tuple[Rating, ...]
    anchor: str

    def score(self, agent: str, opponent: str) -> tuple[float, int] | None:
        """``agent``'s points and games against ``opponent``, or None if they did not meet."""
        for summary in self.pairings:
            total = summary.total
            if (summary.first, summary.second) == (agent, opponent):
                return total.wins + total.draws / 2, total.games
            if (summary.second, summary.first) == (agent, opponent):
                return total.losses + total.draws / 2, total.games
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "agents": list(self.agents),
            "anchor": self.anchor,
            "ratings": [
                {
                    "agent": r.name,
                    "elo": _finite(r.elo),
                    "low": _finite(r.low),
                    "high": _finite(r.high),
                    "games": r.games,
                }
                for r in self.ratings
            ],
            "pairings": [summary.to_json() for summary in self.pairings],
        }


def _finite(value: float) -> float | None:
    return round(value, 2) if abs(value) != float("inf") else None


def local_records(plan: TournamentPlan, records: Iterable[GameRecord], pairing: int) -> list[GameRecord]:
    """The records of one pairing, renumbered as the games of its match."""
    first = pairing * plan.games
    return [replace(r, index=r.index - first) for r in records if first <= r.index < first + plan.games]


def summarize_tournament(
    plan: TournamentPlan, records: Iterable[GameRecord], anchor: str | None = None
) -> TournamentSummary:
    """Per-pairing statistics and the joint Elo fit (anchored at ``anchor``, default the first agent)."""
    tally = TournamentTally(plan, anchor)
    for record in records:
        tally.add(record)
    return tally.summary()


@dataclass(frozen=True)
class TournamentResult:
    """A finished tournament: its plan, every recorded game (global indices) and the summary."""

    plan: TournamentPlan
    records: tuple[GameRecord, ...]
    summary: TournamentSummary
    directory: Path | None = None


OnTournamentGame = Callable[[GameRecord, Callable[[], TournamentSummary]], None]
"""Called after each game with it and the function that gives the summary after it (see ``run_loop.play_prepared``)."""


class TournamentTally:
    """A tournament's counts: each game added once to its pairing's ``MatchTally``; the joint Elo fit runs only when
    a summary is asked for (the progress line asks now and then, not after every game)."""

    def __init__(self, plan: TournamentPlan, anchor: str | None = None) -> None:
        anchor = anchor if anchor is not None else plan.agents[0]
        if anchor not in plan.agents:
            raise OptionError(
                "{anchor} {name!r} is not in the tournament; pick one of {agents}",
                name=anchor,
                agents=", ".join(plan.agents),
            )
        self.plan = plan
        self.anchor = anchor
        self.pairings = [MatchTally(plan.match_plan(pairing)) for pairing in range(len(plan.pairings))]
        self._summary: TournamentSummary | None = None

    def add(self, record: GameRecord) -> None:
        """Count ``record`` as the game of its pairing's match it is (renumbered from the pairing's first)."""
        self._summary = None
        pairing = record.index // self.plan.games
        self.pairings[pairing].add(replace(record, index=record.index - pairing * self.plan.games))

    def summary(self) -> TournamentSummary:
        if self._summary is None:
            pairings = tuple(tally.summary() for tally in self.pairings)
            results = {
                (s.first, s.second): (s.total.wins + s.total.draws / 2, s.total.games)
                for s in pairings
                if s.total.games
            }
            played = {name for pair in results for name in pair}
            ratings = tuple(fit_ratings(results, self.anchor)) if self.anchor in played else ()
            self._summary = TournamentSummary(self.plan.agents, pairings, ratings, self.anchor)
        return self._summary

    def decided(self) -> bool:
        return False


def play_tournament(
    plan: TournamentPlan,
    options: PlayOptions | None = None,
    *,
    anchor: AgentSpec | str | None = None,
    on_game: OnTournamentGame | None = None,
) -> TournamentResult:
    """Play ``plan``'s games that are not recorded yet, as ``options`` says (see ``match.play_match``).

    ``anchor`` is the agent pinned at Elo 0 (default the first). Before anything is written,
    AgentSpecError for an agent that cannot play on the board, ValueError for an anchor not in the
    tournament or ``jobs`` below 1, RunDirectoryError for the output directory.
    """
    text = None if anchor is None else AgentSpec.of(anchor).text
    summarize_tournament(plan, [], text)
    return play_prepared_tournament(prepare_run(plan, options or PlayOptions()), text, on_game)


def play_prepared_tournament(
    run: PreparedRun[TournamentPlan], anchor: str | None = None, on_game: OnTournamentGame | None = None
) -> TournamentResult:
    """Play a tournament ``run_loop.prepare_run`` has checked, ``anchor`` already checked too."""
    tally = TournamentTally(run.plan, anchor)
    played = play_prepared(run, tally, on_game)
    records = tuple(sorted(played.records, key=lambda r: r.index))
    return TournamentResult(run.plan, records, tally.summary(), run.directory)
