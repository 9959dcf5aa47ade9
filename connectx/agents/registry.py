"""The one list of agents: names, strategy factories, one-line summaries and the roles of their parameters.

Each agent module implements a ``Strategy`` (``connectx.agents.core.strategy``) and a top-level ``make_strategy``
factory; ``AgentEntry.build`` wraps the strategy in Kaggle's guard (``kaggle_boundary.GuardedAgent``),
so no agent module knows Kaggle's conventions.

Each entry declares which of its factory's parameters is its seed, its time budget per move and
its reproducibility cap (a node or simulation count that replaces the clock), so the harness and
the tests set those through ``connectx.agents.agent_spec.AgentSpec`` without knowing any parameter's name.
An agent is named by a spec, ``name`` or ``name:key=value,key=value`` (``negamax:depth=5``); the
values are converted to the types of the factory's keyword parameters (see ``AgentSpec``).
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from connectx.agents.core.kaggle_boundary import GuardedAgent
from connectx.agents.core.position import Geometry
from connectx.agents.core.strategy import Strategy
from connectx.agents.players import fallible, mcts, minimax, negamax, random_agent, solver_agent

BoardCheck = Callable[[Mapping[str, Any], Geometry], None]
"""Raises ValueError when an agent's parameters cannot work on a board (minimax's window weights)."""


class AgentSpecError(ValueError):
    """An agent spec that names no agent, a parameter it does not take, or a value it cannot use."""


@dataclass(frozen=True)
class AgentEntry:
    """A registered agent: its factory and which parameters play the roles the harness sets.

    ``seed`` fixes every random choice, ``time_budget`` caps the seconds per move, ``cap`` caps
    the work per move (nodes, simulations) so a seeded game is reproducible whatever the clock;
    each is the name of a factory parameter, or None when the agent has no such parameter.
    ``board_check`` vets the parameters against the board before any game.
    """

    name: str
    factory: Callable[..., Strategy]
    summary: str
    seed: str | None = None
    time_budget: str | None = None
    cap: str | None = None
    board_check: BoardCheck | None = None

    def __post_init__(self) -> None:
        accepted = inspect.signature(self.factory).parameters
        for role in (self.seed, self.time_budget, self.cap):
            if role is not None and role not in accepted:
                raise TypeError(f"agent {self.name!r}: its factory takes no parameter {role!r}")

    def parameters(self) -> dict[str, type]:
        """The factory's keyword parameters and the type each value is converted to."""
        hints = typing.get_type_hints(self.factory)
        return {name: _value_type(hints[name]) for name in inspect.signature(self.factory).parameters}

    def parse_parameters(self, text: str) -> tuple[tuple[str, Any], ...]:
        """``key=value,key=value`` as typed ``(key, value)`` pairs in the order given; AgentSpecError says why not."""
        accepted = self.parameters()
        params: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            key, equals, value = item.partition("=")
            key = key.strip()
            if not equals or key not in accepted:
                options = ", ".join(f"{k}=<{t.__name__}>" for k, t in accepted.items()) or "none"
                raise AgentSpecError(f"agent {self.name!r} does not take {item!r}; its parameters: {options}")
            try:
                params[key] = parse_value(value.strip(), accepted[key])
            except ValueError:
                raise AgentSpecError(f"{self.name}: {key}={value.strip()} is not {kind_words(accepted[key])}") from None
        return tuple(params.items())

    def build(self, params: Mapping[str, Any], board: Geometry | None = None) -> GuardedAgent:
        """A fresh agent, its strategy in Kaggle's guard; the factory's checks (and ``board_check``, given
        ``board``) raise AgentSpecError."""
        try:
            agent = GuardedAgent(self.name, self.factory(**params))
            if board is not None and self.board_check is not None:
                self.board_check(params, board)
        except ValueError as error:
            message = str(error)
            raise AgentSpecError(message if message.startswith(self.name) else f"{self.name}: {message}") from None
        return agent


REGISTRY: dict[str, AgentEntry] = {
    entry.name: entry
    for entry in (
        AgentEntry("random", random_agent.make_strategy, "uniformly random legal column (seeded)", seed="seed"),
        AgentEntry("negamax", negamax.make_strategy, "classic depth-limited negamax baseline (depth 4)", seed="seed"),
        AgentEntry(
            "minimax",
            minimax.make_strategy,
            "Sheoran et al. 2021: alpha-beta, incremental window-count table, depth 4/5",
            seed="seed",
            board_check=minimax.check_board,
        ),
        AgentEntry(
            "mcts",
            mcts.make_strategy,
            "UCB1 tree search with random rollouts and solver proofs, on a clock",
            seed="seed",
            time_budget="time_budget",
            cap="simulations",
        ),
        AgentEntry(
            "solver",
            solver_agent.make_strategy,
            "opening book on 7x6, then iterative deepening and an exact alpha-beta solver on the clock; "
            "other boards: principal-variation search with a threat evaluation, proofs within reach; "
            "trap=true: once lost or drawn, the move its opponent likeliest slips on (off by default)",
            seed="seed",
            time_budget="time_budget",
            cap="max_nodes",
        ),
        AgentEntry(
            "fallible",
            fallible.make_strategy,
            "solver with seeded failures: random moves (epsilon), a book cut at a ply followed by its "
            "depth-limited search (book_plies), depth-limited lapses (lapse), thin-margin slips (margin)",
            seed="seed",
            time_budget="time_budget",
            cap="max_nodes",
        ),
    )
}


def _value_type(hint: Any) -> type:
    """``int`` for ``int | None`` and the like: the type a text value is parsed as."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        parsed: type = next(arg for arg in typing.get_args(hint) if arg is not type(None))
        return parsed
    return typing.cast(type, hint)


def kind_words(kind: type) -> str:
    """How an error names the values a parameter of type ``kind`` takes."""
    return {int: "a whole number", float: "a number", bool: "true or false"}.get(kind, f"a {kind.__name__}")


BOOLEAN_TEXT = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def parse_value(text: str, kind: type) -> Any:
    """A parameter value from its text: ``none`` is None, booleans are true/false (or 1/0, yes/no)."""
    if text.lower() == "none":
        return None
    if kind is bool:
        if text.lower() not in BOOLEAN_TEXT:
            raise ValueError(f"{text!r} is not true or false")
        return BOOLEAN_TEXT[text.lower()]
    return kind(text)


def format_value(value: Any) -> str:
    """The text ``parse_value`` reads back as ``value``: ``none``, ``true``, ``0.25``, ``1`` for 1.0."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)
