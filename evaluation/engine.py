"""The only module that imports ``kaggle_environments``: it resolves agents and runs games there.

Games are judged by Kaggle's own engine, never by a copy of the rules. Agents are named by a
registry spec (``negamax:depth=5``), a kaggle built-in (``kaggle:negamax``) or the path of an
agent file, which Kaggle's loader executes exactly as it executes a submission.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import os
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any

from agents.registry import AgentSpecError, create_agent

KAGGLE_PREFIX = "kaggle:"
KAGGLE_BUILTINS = ("random", "negamax")


@lru_cache(maxsize=1)
def kaggle_environments() -> ModuleType:
    """The package, imported with its load messages (one per environment it fails to load) muted.

    Importing it appends its environments' folders to ``sys.path``; one of them holds an
    ``agents`` module that would shadow our ``agents`` package in every process started later
    (the harness's workers), so ``sys.path`` is put back as it was.
    """
    saved_path = list(sys.path)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import kaggle_environments as module
    sys.path[:] = saved_path
    return module


@dataclass(frozen=True)
class BoardConfig:
    """The ConnectX configuration a game is played under."""

    rows: int = 6
    columns: int = 7
    inarow: int = 4
    act_timeout: float = 2.0

    def __post_init__(self) -> None:
        for name in ("rows", "columns", "inarow"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} = {getattr(self, name)}: each of rows, columns and inarow must be 1 or more")
        if self.act_timeout <= 0:
            raise ValueError(f"actTimeout = {self.act_timeout}: it must be positive")

    def as_kaggle(self) -> dict[str, Any]:
        return {"rows": self.rows, "columns": self.columns, "inarow": self.inarow, "actTimeout": self.act_timeout}


def is_agent_file(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec


def resolve_agent(spec: str) -> Callable[..., Any] | str:
    """What ``env.run`` takes for ``spec``: our fresh agent object, a built-in's name, or a file path.

    Raises AgentSpecError, whose message lists what is valid, for anything else.
    """
    if spec.startswith(KAGGLE_PREFIX):
        name = spec[len(KAGGLE_PREFIX):]
        if name not in KAGGLE_BUILTINS:
            raise AgentSpecError(f"unknown kaggle built-in {name!r}; kaggle's agents: "
                                 + ", ".join(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS))
        return name
    if is_agent_file(spec):
        if not os.path.isfile(spec):
            raise AgentSpecError(f"agent file {spec!r} does not exist")
        return os.path.abspath(spec)
    try:
        return create_agent(spec)
    except AgentSpecError as error:
        raise AgentSpecError(f"{error}; or kaggle:random, kaggle:negamax, or the path of an agent file") from None


def make_environment(config: BoardConfig, names: list[str], debug: bool = False) -> Any:
    """A fresh ConnectX environment whose replays show ``names`` as the players."""
    return kaggle_environments().make("connectx", configuration=config.as_kaggle(),
                                      info={"TeamNames": names}, debug=debug)


def kaggle_callable(spec: str, env: Any) -> Callable[..., Any]:
    """The callable Kaggle's ``env.run`` would call for ``spec`` in ``env``.

    Built-ins and agent files go through Kaggle's own ``build_agent``, so a file is loaded lazily
    on its first move by Kaggle's loader, exactly as a submission is; registry agents are fresh.
    """
    resolved = resolve_agent(spec)
    if callable(resolved):
        return resolved
    kaggle_environments()
    build_agent = importlib.import_module("kaggle_environments.agent").build_agent
    agent, _ = build_agent(resolved, env.agents, env.name)
    return agent


def deadline_exceeded() -> BaseException:
    """Kaggle's marker for an agent that ran out of time (an action ``env.step`` records as TIMEOUT)."""
    kaggle_environments()
    return importlib.import_module("kaggle_environments.errors").DeadlineExceeded()


def run_game(specs: list[str], config: BoardConfig, seed: int | None = None) -> Any:
    """Play one game between two agent specs (the first moves first) and return the finished env.

    ``seed`` seeds the global ``random`` module, which kaggle's built-in agents draw from.
    """
    agents = [resolve_agent(spec) for spec in specs]
    env = make_environment(config, list(specs))
    if seed is not None:
        random.seed(seed)
    env.run(agents)
    return env


FAULT_STATUSES = ("ERROR", "INVALID", "TIMEOUT")


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
