"""The ladder's pools of opponents: who plays a candidate, what kind of player each is, and how it fails.

A Kaggle ladder is mostly other people's agents, and near its top nearly perfect ones. A local
pool stands in for them with registered agents whose mistakes are known and seeded (the harness
gives each game's seats their seeds), every one on Kaggle's clock: a pool member never gets a
node cap, so it plays with the time a submission would have.
"""

from __future__ import annotations

from dataclasses import dataclass

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.option_words import OptionError


@dataclass(frozen=True)
class PoolMember:
    """One opponent: its agent, the kind of player it is (a column of the ladder's table) and its mistakes."""

    agent: str
    kind: str
    mistakes: str

    @property
    def spec(self) -> AgentSpec:
        return AgentSpec.parse(self.agent)


PERFECT = "perfect with errors"
NEAR_PERFECT = "near-perfect"
ALPHA_BETA = "alpha-beta"
MCTS = "mcts"
PAPERS = "papers' minimax"
KAGGLE = "kaggle built-in"
CANDIDATE = "candidate"
"""The kind of every agent named on the command line (a user's agent, a file): what is being rated."""

KINDS = (PERFECT, NEAR_PERFECT, ALPHA_BETA, MCTS, PAPERS, KAGGLE, CANDIDATE)
"""The kinds in the order the ladder's table shows them."""

DEFAULT_POOL = (
    PoolMember("fallible:epsilon=0.05", PERFECT, "perfect play, but one move in 20 is a uniformly random column"),
    PoolMember("fallible:epsilon=0.1", PERFECT, "perfect play, but one move in 10 is a uniformly random column"),
    PoolMember(
        "fallible:margin=1",
        PERFECT,
        "perfect play, but slips where its winning margin is thin: a move one point of exact score worse "
        "than the best is e^-1 times as likely as a best one, so it errs in close races, not in clear wins",
    ),
    PoolMember(
        "fallible:book_plies=14,depth=8",
        NEAR_PERFECT,
        "perfect up to 14 stones (the book, then proofs), then alpha-beta of depth 8 only: misses what lies "
        "beyond its horizon once the middle game starts",
    ),
    PoolMember(
        "fallible:lapse=0.1,depth=6",
        NEAR_PERFECT,
        "perfect, but one move in 10 is its depth-6 search's (a proof that did not finish in time)",
    ),
    PoolMember(
        "fallible:book_plies=0,depth=4",
        ALPHA_BETA,
        "alpha-beta to 4 plies with a threat evaluation: takes and blocks short threats, loses long races",
    ),
    PoolMember(
        "fallible:book_plies=0,depth=8",
        ALPHA_BETA,
        "alpha-beta to 8 plies with a threat evaluation: the same horizon mistakes, four plies later",
    ),
    PoolMember(
        "mcts:simulations=200",
        MCTS,
        "200 random-rollout simulations a move: sees immediate tactics only when sampled, blunders often",
    ),
    PoolMember(
        "mcts:simulations=2000",
        MCTS,
        "2,000 simulations a move: sound in sharp positions, misjudges quiet ones that random rollouts misread",
    ),
    PoolMember(
        "minimax", PAPERS, "Sheoran et al. 2021: depth 4/5 on a window-count evaluation; no threat parity, no zugzwang"
    ),
    PoolMember(
        "kaggle:negamax",
        KAGGLE,
        "kaggle's built-in: plain negamax to depth 4 on stone adjacency, slow; misses anything deeper",
    ),
    PoolMember("kaggle:random", KAGGLE, "a uniformly random column every move"),
)

FAST_POOL = (
    PoolMember("fallible:book_plies=0,depth=2", ALPHA_BETA, "alpha-beta to 2 plies: takes wins, blocks threats"),
    next(member for member in DEFAULT_POOL if member.agent == "fallible:book_plies=0,depth=4"),
    PoolMember("negamax:depth=1", ALPHA_BETA, "one ply: takes a win, never looks at the answer"),
    PoolMember("mcts:simulations=50", MCTS, "50 random-rollout simulations a move: many blunders"),
    PoolMember("kaggle:random", KAGGLE, "a uniformly random column every move"),
)
"""Fast agents only (milliseconds a move): for trying the ladder, its tests and the round-robin comparison."""

POOLS: dict[str, tuple[PoolMember, ...]] = {"default": DEFAULT_POOL, "fast": FAST_POOL, "none": ()}
"""``--pool`` names: ``none`` rates the command line's agents among themselves only."""


def pool_members(name: str) -> tuple[PoolMember, ...]:
    """The pool called ``name``; ValueError naming the pools there are."""
    if name not in POOLS:
        raise OptionError("{pool} {name!r} is not a pool; pick one of {pools}", name=name, pools=", ".join(POOLS))
    return POOLS[name]
