"""The one list of agents: names, factories and one-line summaries, read by everything else.

An agent is named by a spec, ``name`` or ``name:key=value,key=value`` (``negamax:depth=5``); the
values are converted to the types of the factory's keyword parameters, so the command line,
the harness and the tests all build agents the same way.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents import mcts, minimax, negamax, random_agent, solver
from agents.kaggle_boundary import GuardedAgent


class AgentSpecError(ValueError):
    """An agent spec that names no registered agent or a parameter it does not take."""


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: Callable[..., GuardedAgent]
    summary: str

    def parameters(self) -> dict[str, type]:
        """The factory's keyword parameters and the type each value is converted to."""
        hints = typing.get_type_hints(self.factory)
        return {name: _value_type(hints[name]) for name in inspect.signature(self.factory).parameters}


REGISTRY: dict[str, AgentEntry] = {
    entry.name: entry
    for entry in (
        AgentEntry("random", random_agent.make_agent, "uniformly random legal column (seeded)"),
        AgentEntry("negamax", negamax.make_agent, "classic depth-limited negamax baseline (depth 4)"),
        AgentEntry("minimax", minimax.make_agent,
                   "Sheoran et al. 2021: alpha-beta, incremental window-count table, depth 4/5"),
        AgentEntry("mcts", mcts.make_agent, "UCB1 tree search with random rollouts and solver proofs, on a clock"),
        AgentEntry("solver", solver.make_agent,
                   "opening book, then iterative deepening and an exact alpha-beta solver on the clock"),
    )
}


def _value_type(hint: Any) -> type:
    """``int`` for ``int | None`` and the like: the type a text value is parsed as."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        return next(arg for arg in typing.get_args(hint) if arg is not type(None))
    return hint


def _parse_value(text: str, kind: type) -> Any:
    if text.lower() == "none":
        return None
    if kind is bool:
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"{text!r} is not true or false")
        return text.lower() in ("true", "1", "yes")
    return kind(text)


def parse_spec(spec: str) -> tuple[AgentEntry, dict[str, Any]]:
    """The registry entry and typed keyword arguments named by ``spec``."""
    name, _, params_text = spec.partition(":")
    entry = REGISTRY.get(name.strip())
    if entry is None:
        raise AgentSpecError(f"unknown agent {name!r}; registered agents: {', '.join(REGISTRY)}")
    accepted = entry.parameters()
    params: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in params_text.split(","))):
        key, equals, value = item.partition("=")
        key = key.strip()
        if not equals or key not in accepted:
            options = ", ".join(f"{k}=<{t.__name__}>" for k, t in accepted.items()) or "none"
            raise AgentSpecError(f"agent {entry.name!r} does not take {item!r}; its parameters: {options}")
        try:
            params[key] = _parse_value(value.strip(), accepted[key])
        except ValueError as error:
            raise AgentSpecError(f"{entry.name}: {key}={value!r} is not a {accepted[key].__name__}: {error}") from None
    return entry, params


def create_agent(spec: str) -> GuardedAgent:
    """A fresh agent for ``spec`` (see module docstring); AgentSpecError explains a bad spec."""
    entry, params = parse_spec(spec)
    try:
        agent = entry.factory(**params)
    except ValueError as error:
        raise AgentSpecError(f"{spec}: {error}") from None
    agent.name = spec
    return agent
