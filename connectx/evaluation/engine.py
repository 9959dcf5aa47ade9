"""The only module that imports ``kaggle_environments``: it resolves agents and runs games there.

Games are judged by Kaggle's own engine, never by a copy of the rules. Agents are named by an
``AgentSpec``: a registry agent (``negamax:depth=5``), a kaggle built-in (``kaggle:negamax``) or
an agent file, which Kaggle's loader executes exactly as it executes a submission.

A seeded game gives each seat a seed of its own, derived from the game seed and the seat
(``seat_seed``): a registry agent gets it as its seed parameter unless the spec sets one, and
every agent draws from a global ``random`` stream of its own seeded with it, which is what
kaggle's built-ins and most submissions use. So no two agents in a game share a random stream,
and the game seed alone still reproduces the game.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import io
import os
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, cast

from connectx.agents.agent_spec import AgentKind, AgentSpec
from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.kaggle_boundary import FAULT_STATUSES
from connectx.agents.registry import AgentSpecError


@lru_cache(maxsize=1)
def kaggle_environments() -> ModuleType:
    """The package, imported with its load messages (one per environment it fails to load) muted.

    Importing it appends an environment's folder (Lux AI's) to ``sys.path``, where its ``agents``
    and other modules would answer any ``import`` of those names in this process and in every
    process started later (the harness's workers, an agent file's own imports); ``sys.path`` is
    put back as it was, so games run with the path Python gave the program.
    """
    saved_path = list(sys.path)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import kaggle_environments as module
    sys.path[:] = saved_path
    return cast(ModuleType, module)


def kaggle_submodule(name: str) -> ModuleType:
    """``kaggle_environments.<name>`` (``agent``, ``errors``, ``utils``, ...), imported with the package's
    load messages muted and ``sys.path`` left as it was (see ``kaggle_environments``)."""
    kaggle_environments()
    return importlib.import_module(f"kaggle_environments.{name}")


@dataclass(frozen=True)
class BoardConfig(BoardSpec):
    """The ConnectX configuration a game is played under: a board (checked as every board is) and Kaggle's clock.

    Build it from a parsed board with ``BoardConfig.of``; ``BoardConfig(rows, columns, inarow)`` checks the same.
    """

    act_timeout: float = 2.0

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.act_timeout > 0:
            raise ValueError(f"actTimeout = {self.act_timeout}: it must be positive")

    @classmethod
    def of(cls, board: BoardSpec, act_timeout: float = 2.0) -> BoardConfig:
        """``board`` played with ``act_timeout`` seconds a move."""
        return cls(board.rows, board.columns, board.inarow, act_timeout)

    @property
    def board(self) -> BoardSpec:
        """The board alone, without the clock."""
        return BoardSpec(self.rows, self.columns, self.inarow)

    def to_json(self) -> dict[str, Any]:
        """The board and clock as run plans and game records store them."""
        return {**self.board.to_kaggle(), "act_timeout": self.act_timeout}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BoardConfig:
        """The board ``to_json`` wrote, checked as every board is."""
        return cls(int(data["rows"]), int(data["columns"]), int(data["inarow"]), float(data.get("act_timeout", 2.0)))

    def to_kaggle(self) -> dict[str, Any]:
        """The board and clock as Kaggle's configuration names them (``make("connectx", configuration=...)``)."""
        return {**self.board.to_kaggle(), "actTimeout": self.act_timeout}


def resolve_agent(spec: AgentSpec, config: BoardConfig) -> Callable[..., Any] | str:
    """What ``env.run`` takes for ``spec``: a fresh agent (its parameters checked against the board),
    a built-in's name, or an agent file's absolute path. AgentSpecError says why it cannot play."""
    if spec.kind is AgentKind.KAGGLE:
        return spec.name
    if spec.kind is AgentKind.FILE:
        if not os.path.isfile(spec.name):
            raise AgentSpecError(f"agent file {spec.name!r} does not exist")
        return os.path.abspath(spec.name)
    return spec.build(config.geometry)


def make_environment(config: BoardConfig, names: list[str], debug: bool = False) -> Any:
    """A fresh ConnectX environment whose replays show ``names`` as the players."""
    return kaggle_environments().make(
        "connectx", configuration=config.to_kaggle(), info={"TeamNames": names}, debug=debug
    )


def replayed_environment(replay: dict[str, Any]) -> Any:
    """The finished environment of a saved replay JSON (as ``env.toJSON()`` wrote it), for the viewer."""
    return kaggle_environments().make(
        "connectx", configuration=replay["configuration"], steps=replay["steps"], info=replay.get("info", {})
    )


def kaggle_callable(spec: AgentSpec, env: Any, config: BoardConfig) -> Callable[..., Any]:
    """The callable Kaggle's ``env.run`` would call for ``spec`` in ``env``.

    Built-ins and agent files go through Kaggle's own ``build_agent``, so a file is loaded lazily
    on its first move by Kaggle's loader, exactly as a submission is; registry agents are fresh.
    """
    resolved = resolve_agent(spec, config)
    if callable(resolved):
        return resolved
    built: tuple[Callable[..., Any], bool] = kaggle_submodule("agent").build_agent(resolved, env.agents, env.name)
    return built[0]


def derived_seed(game_seed: int, label: str) -> int:
    """A seed fixed by ``game_seed`` and ``label`` (a stable hash: Python's ``hash`` of text varies per process)."""
    digest = hashlib.sha256(f"{game_seed}/{label}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (0 moves first) of the game seeded ``game_seed``."""
    return derived_seed(game_seed, f"seat {seat}")


class OwnRandomStream:
    """An agent that draws from a global ``random`` stream of its own, whoever else uses the module.

    Kaggle's built-ins call ``random.choice``; seeding the module once per game would hand the
    same stream to both seats (two ``kaggle:random`` agents, or a built-in and a registry agent
    seeded alike, would copy each other). Each call swaps this agent's state in and out.
    """

    def __init__(self, agent: Callable[..., Any], seed: int) -> None:
        self.agent = agent
        self.state = random.Random(seed).getstate()

    @property
    def last_stats(self) -> Any:
        """The wrapped agent's statistics of its last move, if it keeps any (``game_in_process`` records them)."""
        return getattr(self.agent, "last_stats", None)

    def __call__(self, observation: Any, configuration: Any) -> Any:
        outside = random.getstate()
        random.setstate(self.state)
        try:
            return self.agent(observation, configuration)
        finally:
            self.state = random.getstate()
            random.setstate(outside)


def seat_agent(spec: AgentSpec, seat: int, env: Any, config: BoardConfig, game_seed: int | None) -> Callable[..., Any]:
    """The callable for ``seat`` in ``env``: seeded from ``game_seed`` (see the module docstring), or unseeded."""
    if game_seed is None:
        return kaggle_callable(spec, env, config)
    seed = seat_seed(game_seed, seat)
    return OwnRandomStream(kaggle_callable(spec.with_seed(seed, override=False), env, config), seed)


def deadline_exceeded() -> BaseException:
    """Kaggle's marker for an agent that ran out of time (an action ``env.step`` records as TIMEOUT)."""
    marker: BaseException = kaggle_submodule("errors").DeadlineExceeded()
    return marker


def run_game(specs: Sequence[AgentSpec | str], config: BoardConfig, seed: int | None = None) -> Any:
    """Play one game between two agents (the first moves first) in this process and return the finished env.

    Unwatched and unrecorded: for tests that inspect the environment itself. Every command and the
    harness play through ``game.play_isolated``, which watches the game and returns its record.
    Text specs are parsed here, once. ``seed`` seeds each seat as a match's game seed does (see
    the module docstring), so ``connectx play A B --seed S`` replays game seed S of a match.
    """
    agents = [AgentSpec.of(spec) for spec in specs]
    env = make_environment(config, [agent.text for agent in agents])
    callables = [seat_agent(agent, seat, env, config, seed) for seat, agent in enumerate(agents)]
    if seed is not None:
        random.seed(derived_seed(seed, "environment"))
    env.run(callables)
    return env


@dataclass(frozen=True)
class Outcome:
    """Who won a finished game, read from Kaggle's final statuses and rewards.

    ``winner`` is 0 or 1 (the seat) or None for a draw. An agent that ends in ERROR, INVALID or
    TIMEOUT loses: Kaggle gives it reward None and the other 0, and we score that as a win for
    the other seat, with ``cause`` naming the fault.
    """

    winner: int | None
    statuses: tuple[str, str]
    cause: str

    @classmethod
    def of(cls, env: Any) -> Outcome:
        final = env.steps[-1]
        statuses = (str(final[0].status), str(final[1].status))
        for seat, status in enumerate(statuses):
            if status in FAULT_STATUSES:
                return cls(1 - seat, statuses, status)
        rewards = [final[0].reward, final[1].reward]
        if rewards[0] == rewards[1]:
            return cls(None, statuses, "draw")
        return cls(0 if (rewards[0] or 0) > (rewards[1] or 0) else 1, statuses, "line")
