"""A ladder the way Kaggle's simulation leaderboard runs one: ratings that move with every episode.

Kaggle describes its leaderboard so: every submission starts at μ = 600 with an uncertainty σ;
episodes are played between submissions of similar ratings; after an episode the winner's μ goes
up and the loser's down, by how surprising the result was and in proportion to their σ, a draw
moves the two μ towards each other, and each σ shrinks by what the result told. This module does
the same with ``openskill``'s Thurstone-Mosteller model (a Gaussian rating, as TrueSkill's),
at openskill's defaults scaled to μ = 600: σ = 200, β = 100, τ = 2.

Each episode draws its pair from the ratings as they stand when it is scheduled: the first agent
with a chance in proportion to σ² (the less known an agent, the more it plays, as a new
submission does on Kaggle), its opponent with a chance that falls with the rating gap
(``SIMILAR``), the seats by a coin. Episode ``i`` draws from a generator seeded by the ladder's
seed and ``i``, and its game gets the seed a match's game ``i`` gets.

The records, one JSON line per episode in the order the episodes finished, are the whole state:
the ratings are those records folded in file order, so a resumed ladder continues from exactly
the ratings it stopped at, and a summary can be recomputed from the file at any time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec, game_seed
from connectx.evaluation.ladder_pool import CANDIDATE, KINDS, PoolMember, pool_members
from connectx.evaluation.option_words import OptionError
from connectx.evaluation.run_loop import PlayOptions, PreparedRun, play_prepared, prepare_run

if TYPE_CHECKING:
    from openskill.models import ThurstoneMostellerFull

MU = 600.0
"""Every agent's rating before its first episode, as on Kaggle."""
SIGMA = 200.0
"""The uncertainty of a new rating: openskill's (and TrueSkill's) μ/3; Kaggle does not publish its own."""
BETA = 100.0
"""The spread of one episode's performance around the rating (σ/2, the models' default ratio)."""
TAU = 2.0
"""Added to σ before each update, so a rating never freezes (μ/300, the models' default ratio)."""
SIMILAR = 200.0
"""The rating gap at which a pairing is e^-1/2 as likely as between equal ratings."""


def rating_model() -> ThurstoneMostellerFull:
    """The model every ladder rates with: Thurstone-Mosteller at Kaggle's μ = 600."""
    # Imported only here, when a ladder rates: its plans and summaries load without openskill (`connectx --help`).
    from openskill.models import ThurstoneMostellerFull

    return ThurstoneMostellerFull(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)


@dataclass(frozen=True)
class LadderPlan:
    """What defines a ladder: the agents rated (candidates, then the pool), the seed and the board.

    ``episodes`` is how many episodes to play in all; it may grow when a ladder is resumed.
    """

    candidates: tuple[AgentSpec, ...]
    pool: str = "default"
    episodes: int = 200
    seed: int = 0
    config: BoardConfig = BoardConfig()
    members: tuple[PoolMember, ...] = field(init=False)

    def __post_init__(self) -> None:
        named = {spec.text for spec in self.candidates}
        if len(named) != len(self.candidates):
            raise ValueError("each agent may appear once in a ladder; give variants distinct parameters")
        members = tuple(member for member in pool_members(self.pool) if member.agent not in named)
        object.__setattr__(self, "members", members)
        if len(self.candidates) + len(members) < 2:
            raise OptionError("a ladder needs at least two agents; name more, or rate against {pool} default")
        if self.episodes < 1:
            raise OptionError("{episodes}={count}: a ladder needs at least one episode", count=self.episodes)

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        return self.candidates + tuple(member.spec for member in self.members)

    @property
    def agents(self) -> tuple[str, ...]:
        """Every agent's spec text: how records and tables name them."""
        return tuple(spec.text for spec in self.specs)

    def kind(self, agent: str) -> str:
        """The kind of player ``agent`` is (``CANDIDATE`` for one named on the command line)."""
        return next((member.kind for member in self.members if member.agent == agent), CANDIDATE)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "ladder",
            "agents": list(self.agents),
            "pool": self.pool,
            "episodes": self.episodes,
            "seed": self.seed,
            "config": self.config.to_json(),
        }

    @property
    def may_change(self) -> tuple[str, ...]:
        """A ladder may be extended: its episode ``i`` does not depend on how many follow."""
        return ("episodes",)

    def belongs(self, record: GameRecord) -> bool:
        """Every recorded episode counts: the ratings are all of them folded in the file's order."""
        return True

    def left(self, recorded: Sequence[GameRecord]) -> int:
        return max(0, self.episodes - len(recorded))

    def schedule(self, recorded: Sequence[GameRecord], tally: LadderTally, keep_replays: bool) -> Iterator[GameSpec]:
        """The episodes still to play, each paired from ``tally``'s ratings when the scheduler asks for it."""
        specs = {spec.text: spec for spec in self.specs}
        first_index = max((record.index for record in recorded), default=-1) + 1
        for index in range(first_index, first_index + max(0, self.episodes - len(recorded))):
            first, second = draw_pairing(tally.ratings, random.Random(f"ladder/{self.seed}/{index}"))
            yield GameSpec(
                index, (specs[first], specs[second]), self.config, game_seed(self.seed, index), keep_replay=keep_replays
            )


class Ratings:
    """Every agent's current rating, updated one episode at a time by the model."""

    def __init__(self, agents: Sequence[str]) -> None:
        self.model = rating_model()
        self.ratings = {agent: self.model.rating(name=agent) for agent in agents}

    def mu(self, agent: str) -> float:
        return float(self.ratings[agent].mu)

    def sigma(self, agent: str) -> float:
        return float(self.ratings[agent].sigma)

    def rate(self, first: str, second: str, first_points: float) -> None:
        """Update both ratings after ``first`` scored ``first_points`` (1, 0.5 or 0) against ``second``."""
        ranks = [1.0, 1.0] if first_points == 0.5 else ([1.0, 2.0] if first_points == 1 else [2.0, 1.0])
        [[a], [b]] = self.model.rate([[self.ratings[first]], [self.ratings[second]]], ranks=ranks)
        self.ratings[first], self.ratings[second] = a, b

    def add(self, record: GameRecord) -> bool:
        """Rate ``record``'s episode; False (nothing changes) for one that is not scored or names an outsider."""
        first, second = record.agents
        if not record.scored or first not in self.ratings or second not in self.ratings or first == second:
            return False
        self.rate(first, second, record.points(0))
        return True


def draw_pairing(ratings: Ratings, rng: random.Random) -> tuple[str, str]:
    """``(first seat, second seat)``: an agent weighted by σ², an opponent by rating similarity, seats at random."""
    agents = list(ratings.ratings)
    one = rng.choices(agents, weights=[ratings.sigma(a) ** 2 for a in agents])[0]
    others = [a for a in agents if a != one]
    closeness = [math.exp(-0.5 * ((ratings.mu(a) - ratings.mu(one)) / SIMILAR) ** 2) for a in others]
    other = rng.choices(others, weights=[max(weight, 1e-12) for weight in closeness])[0]
    return (one, other) if rng.random() < 0.5 else (other, one)


@dataclass(frozen=True)
class SeatScore:
    """Points and episodes from one seat against one kind of opponent."""

    points: float = 0.0
    games: int = 0

    def plus(self, points: float) -> SeatScore:
        return SeatScore(self.points + points, self.games + 1)

    @property
    def score(self) -> float | None:
        return self.points / self.games if self.games else None


@dataclass(frozen=True)
class Standing:
    """One agent's line of the table: its rating, its episodes and its scores by seat and opponent kind.

    ``by_kind[(kind, seat)]`` holds the points this agent scored in ``seat`` (0 moves first)
    against opponents of ``kind``.
    """

    agent: str
    kind: str
    mu: float
    sigma: float
    episodes: int
    wins: int
    draws: int
    losses: int
    by_kind: dict[tuple[str, int], SeatScore]

    def to_json(self) -> dict[str, Any]:
        return {
            "agent": self.agent,
            "kind": self.kind,
            "mu": round(self.mu, 1),
            "sigma": round(self.sigma, 1),
            "episodes": self.episodes,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "by_kind": [
                {"kind": kind, "seat": seat, "points": s.points, "games": s.games}
                for (kind, seat), s in sorted(self.by_kind.items(), key=lambda item: _kind_order(item[0]))
            ],
        }


def _kind_order(key: tuple[str, int]) -> tuple[int, int]:
    return KINDS.index(key[0]) if key[0] in KINDS else len(KINDS), key[1]


@dataclass(frozen=True)
class LadderSummary:
    """The standings (highest μ first) and every agent's μ after each rated episode, for the plot.

    ``history`` is empty in the summaries a running ladder gives (see ``LadderTally``).
    """

    standings: tuple[Standing, ...]
    history: dict[str, tuple[float, ...]]

    @property
    def kinds(self) -> tuple[str, ...]:
        """The opponent kinds anyone met, in the table's order."""
        met = {kind for standing in self.standings for kind, _ in standing.by_kind}
        return tuple(kind for kind in KINDS if kind in met)

    def standing(self, agent: str) -> Standing:
        return next(s for s in self.standings if s.agent == agent)

    def to_json(self) -> dict[str, Any]:
        return {
            "model": f"openskill ThurstoneMostellerFull mu={MU:g} sigma={SIGMA:g} beta={BETA:g} tau={TAU:g}",
            "standings": [standing.to_json() for standing in self.standings],
        }


class LadderTally:
    """The ratings, tallies and μ history of a ladder, updated one episode at a time.

    Each episode costs one rating update, whatever came before it: refolding every episode from
    μ = 600 after each new one would make a ladder of n episodes cost n²/2 updates.
    """

    def __init__(self, plan: LadderPlan) -> None:
        self.plan = plan
        self.ratings = Ratings(plan.agents)
        self.history: dict[str, list[float]] = {agent: [MU] for agent in plan.agents}
        self.tallies = {agent: [0, 0, 0] for agent in plan.agents}
        self.by_kind: dict[str, dict[tuple[str, int], SeatScore]] = {agent: {} for agent in plan.agents}

    def add(self, record: GameRecord) -> None:
        """Rate ``record``'s episode and count it; one that is not scored or names an outsider changes nothing."""
        if not self.ratings.add(record):
            return
        for seat, agent in enumerate(record.agents):
            points = record.points(seat)
            self.tallies[agent][0 if points == 1 else 1 if points == 0.5 else 2] += 1
            key = (self.plan.kind(record.agents[1 - seat]), seat)
            self.by_kind[agent][key] = self.by_kind[agent].get(key, SeatScore()).plus(points)
        for agent in self.plan.agents:
            self.history[agent].append(self.ratings.mu(agent))

    def summary(self) -> LadderSummary:
        """The standings now, without the μ history (``summary_with_history``): copying it after every episode
        would make following a ladder quadratic again."""
        return LadderSummary(self._standings(), {})

    def summary_with_history(self) -> LadderSummary:
        return LadderSummary(self._standings(), {agent: tuple(values) for agent, values in self.history.items()})

    def decided(self) -> bool:
        return False

    def _standings(self) -> tuple[Standing, ...]:
        ratings, tallies = self.ratings, self.tallies
        return tuple(
            sorted(
                (
                    Standing(
                        agent,
                        self.plan.kind(agent),
                        ratings.mu(agent),
                        ratings.sigma(agent),
                        sum(tallies[agent]),
                        tallies[agent][0],
                        tallies[agent][1],
                        tallies[agent][2],
                        dict(self.by_kind[agent]),
                    )
                    for agent in self.plan.agents
                ),
                key=lambda standing: -standing.mu,
            )
        )


def summarize_ladder(plan: LadderPlan, records: Iterable[GameRecord]) -> LadderSummary:
    """The ratings after ``records`` folded in the order given (the file's), with the tallies beside them."""
    tally = LadderTally(plan)
    for record in records:
        tally.add(record)
    return tally.summary_with_history()


@dataclass(frozen=True)
class LadderResult:
    """A finished (or stopped) ladder: its plan, the episodes in the order they finished, and the summary."""

    plan: LadderPlan
    records: tuple[GameRecord, ...]
    summary: LadderSummary
    directory: Path | None = None


OnEpisode = Callable[[GameRecord, Callable[[], LadderSummary]], None]
"""Called after each episode with it and the function that gives the standings after it (``run_loop.play_prepared``)."""


def play_ladder(
    plan: LadderPlan, options: PlayOptions | None = None, *, on_game: OnEpisode | None = None
) -> LadderResult:
    """Play ``plan``'s episodes that are not recorded yet, pairing each by the ratings as they stand, as ``options``
    says (see ``match.play_match``); on resume only ``episodes`` may differ from the recorded plan.

    ``on_game`` gets each episode and the function that gives the standings after it. Before anything is
    written: AgentSpecError for an agent that cannot play, ValueError for ``jobs``, RunDirectoryError for the
    output directory, or for recorded episodes played by other code, unless ``allow_code_change``.
    """
    return play_prepared_ladder(prepare_run(plan, options or PlayOptions()), on_game)


def play_prepared_ladder(run: PreparedRun[LadderPlan], on_game: OnEpisode | None = None) -> LadderResult:
    """Play a ladder ``run_loop.prepare_run`` has checked."""
    tally = LadderTally(run.plan)
    played = play_prepared(run, tally, on_game)
    return LadderResult(run.plan, played.records, tally.summary_with_history(), run.directory)
