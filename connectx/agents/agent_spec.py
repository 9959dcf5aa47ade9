"""``AgentSpec``: an agent's name, parsed once from text into a frozen value the harness passes around.

Three kinds of agent can be named, and the text says which:

- ``kaggle:NAME``: one of kaggle-environments' built-ins (``kaggle:random``, ``kaggle:negamax``);
- ``NAME`` or ``NAME:key=value,key=value``: a registered agent with typed parameters
  (``negamax:depth=5``, ``minimax:weights=1/3/9/81``); a ``/`` in a value is just a character;
- anything else that ends in ``.py`` or is an existing file: an agent file, which Kaggle's loader
  runs as it runs a submission.

``spec.text`` is the canonical text (parameters in the order given, values written back in the
form the parser reads), so ``AgentSpec.parse(spec.text) == spec``; records and file names use it.
The harness sets a seed, a time budget or a work cap through ``with_seed``, ``with_time_budget``
and ``with_cap``, which use the parameter each registry entry declares for that role.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from connectx.agents.core.kaggle_boundary import GuardedAgent
from connectx.agents.core.position import Geometry
from connectx.agents.registry import REGISTRY, AgentEntry, AgentSpecError, format_value, kind_words

KAGGLE_PREFIX = "kaggle:"
KAGGLE_BUILTINS = ("random", "negamax")
FILE_SUFFIX = ".py"
HUMAN = "human"
"""The name a person plays under in ``connectx play`` and the page (in the record and the replay): beside the agents'
names, never one of them."""
SPEC_FORMS = "a registered agent (connectx agents lists them), kaggle:random, kaggle:negamax, or an agent .py file"


class AgentKind(Enum):
    REGISTRY = "registry"
    KAGGLE = "kaggle"
    FILE = "file"


@dataclass(frozen=True)
class AgentSpec:
    """One agent, named: its kind, its name (registry name, built-in name or file path) and typed parameters.

    Only registry agents have parameters; ``parameters`` keeps them in the order given.
    """

    kind: AgentKind
    name: str
    parameters: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        """The spec ``text`` names; AgentSpecError, saying what is valid, if it names nothing.

        A registry name wins over a file of the same name (write ``./random`` for the file), and
        a ``/`` inside ``key=value`` parameters never makes the text a path.
        """
        text = text.strip()
        if not text:
            raise AgentSpecError(f"an empty agent spec names no agent; give {SPEC_FORMS}")
        if text.startswith(KAGGLE_PREFIX):
            name = text[len(KAGGLE_PREFIX) :].strip()
            if name not in KAGGLE_BUILTINS:
                raise AgentSpecError(
                    f"unknown kaggle built-in {name!r}; kaggle's agents: "
                    + ", ".join(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS)
                )
            return cls(AgentKind.KAGGLE, name)
        name, _, params_text = text.partition(":")
        entry = REGISTRY.get(name.strip())
        if entry is not None:
            return cls(AgentKind.REGISTRY, entry.name, entry.parse_parameters(params_text))
        if text.endswith(FILE_SUFFIX) or os.path.isfile(text):
            return cls(AgentKind.FILE, text)
        raise AgentSpecError(
            f"unknown agent {name.strip()!r}; registered agents: {', '.join(REGISTRY)}; "
            f"or {', '.join(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS)}, or the path of an "
            "agent .py file"
        )

    @classmethod
    def of(cls, value: AgentSpec | str) -> AgentSpec:
        """``value`` itself, or the spec its text names: for library callers that write specs as text."""
        return value if isinstance(value, AgentSpec) else cls.parse(value)

    @classmethod
    def registered(cls, name: str, **parameters: Any) -> AgentSpec:
        """The registry agent ``name`` with ``parameters``, checked as ``parse`` checks text."""
        return cls.parse(name).with_parameters(**parameters)

    @property
    def text(self) -> str:
        """The canonical text: ``AgentSpec.parse(spec.text) == spec``."""
        if self.kind is AgentKind.KAGGLE:
            return KAGGLE_PREFIX + self.name
        if not self.parameters:
            return self.name
        return f"{self.name}:" + ",".join(f"{key}={format_value(value)}" for key, value in self.parameters)

    def __str__(self) -> str:
        return self.text

    def without_defaults(self) -> AgentSpec:
        """The same agent named one way only: parameters at the factory's defaults left out, the rest sorted.

        ``minimax:depth=4,features=1234`` and ``minimax:depth=4`` play alike (1234 is the default), so a
        rating or a table that counts agents must count them as one.
        """
        if self.entry is None:
            return self
        defaults = {
            name: parameter.default
            for name, parameter in inspect.signature(self.entry.factory).parameters.items()
            if parameter.default is not inspect.Parameter.empty
        }
        kept = sorted((key, value) for key, value in self.parameters if key not in defaults or defaults[key] != value)
        return replace(self, parameters=tuple(kept))

    def __repr__(self) -> str:
        return f"AgentSpec.parse({self.text!r})"

    @property
    def entry(self) -> AgentEntry | None:
        """The registry entry of a registry agent; None for kaggle built-ins and agent files."""
        return REGISTRY[self.name] if self.kind is AgentKind.REGISTRY else None

    @property
    def kwargs(self) -> dict[str, Any]:
        """The parameters as the factory's keyword arguments."""
        return dict(self.parameters)

    @property
    def takes_seed(self) -> bool:
        return self.entry is not None and self.entry.seed is not None

    @property
    def takes_time_budget(self) -> bool:
        return self.entry is not None and self.entry.time_budget is not None

    @property
    def takes_cap(self) -> bool:
        return self.entry is not None and self.entry.cap is not None

    @property
    def seed(self) -> int | None:
        """The seed this spec sets, if its agent takes one and it was given."""
        if self.entry is None or self.entry.seed is None:
            return None
        return self.kwargs.get(self.entry.seed)

    def with_parameters(self, **values: Any) -> AgentSpec:
        """This spec with ``values`` set (replaced in place, or appended in the order given), each checked.

        AgentSpecError for a parameter the agent does not take or a value of the wrong type.
        """
        if not values:
            return self
        if self.entry is None:
            raise AgentSpecError(f"{self.text} takes no parameters")
        accepted = self.entry.parameters()
        for key, value in values.items():
            if key not in accepted:
                options = ", ".join(accepted) or "none"
                raise AgentSpecError(f"agent {self.name!r} does not take {key!r}; its parameters: {options}")
            if not _fits(value, accepted[key]):
                raise AgentSpecError(f"{self.name}: {key}={value!r} is not {kind_words(accepted[key])}")
        merged = dict(self.parameters)
        merged.update({key: float(v) if accepted[key] is float and v is not None else v for key, v in values.items()})
        return replace(self, parameters=tuple(merged.items()))

    def with_seed(self, seed: int, *, override: bool = True) -> AgentSpec:
        """This spec with its agent's seed parameter set to ``seed``.

        With ``override=False`` a seed already given (``seed=none`` included) is kept. A no-op for
        agents without a seed: kaggle's built-ins and agent files (the harness gives those a global
        ``random`` stream of their own instead) and registry agents that declare none.
        """
        if self.entry is None or self.entry.seed is None:
            return self
        if not override and self.entry.seed in self.kwargs:
            return self
        return self.with_parameters(**{self.entry.seed: seed})

    def with_time_budget(self, seconds: float) -> AgentSpec:
        """This spec with its agent's seconds per move set; a no-op for agents that declare no time budget."""
        if self.entry is None or self.entry.time_budget is None:
            return self
        return self.with_parameters(**{self.entry.time_budget: float(seconds)})

    def with_cap(self, work: int) -> AgentSpec:
        """This spec with its agent's work cap per move (nodes, simulations) set, which makes a seeded
        game reproducible whatever the clock; a no-op for agents that declare no cap."""
        if self.entry is None or self.entry.cap is None:
            return self
        return self.with_parameters(**{self.entry.cap: int(work)})

    def build(self, board: Geometry | None = None) -> GuardedAgent:
        """A fresh agent of a registry spec, named by ``text``; with ``board``, its parameters are checked
        against that board too. AgentSpecError for a value the agent cannot use, or another kind of spec."""
        if self.entry is None:
            raise AgentSpecError(f"{self.text} is not a registered agent: kaggle-environments builds it")
        agent = self.entry.build(self.kwargs, board)
        agent.name = self.text
        return agent

    def check(self, board: Geometry) -> None:
        """AgentSpecError unless this agent can play on ``board``: a registry agent is built with its
        parameters checked against the board; an agent file must be readable UTF-8 Python."""
        if self.kind is AgentKind.REGISTRY:
            self.build(board)
        elif self.kind is AgentKind.FILE:
            check_agent_file(self.name)


def _fits(value: Any, kind: type) -> bool:
    """Whether ``value`` can be a parameter of type ``kind`` (None always can; an int is a fine float)."""
    if value is None:
        return True
    if isinstance(value, bool):  # a bool is an int to isinstance, but no count or seed
        return kind is bool
    return isinstance(value, kind) or (kind is float and isinstance(value, int))


class SourceFileError(ValueError):
    """A file that no Python loader could run: ``problem`` says why (words that follow the path),
    ``remedy`` what fixes it where the reader knows, else each caller gives its own advice."""

    def __init__(self, problem: str, remedy: str = "") -> None:
        super().__init__(problem)
        self.problem = problem
        self.remedy = remedy


def read_python_file(path: str) -> str:
    """The text of ``path``; SourceFileError unless it is a readable UTF-8 file that compiles as Python.

    Agent files and submissions are checked by this one reader, so every command names the same
    problem the same way; each caller adds its own advice on what to do next.
    """
    if os.path.isdir(path):
        raise SourceFileError("is a directory, not a .py file")
    if not os.path.isfile(path):
        raise SourceFileError("does not exist")
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise SourceFileError(f"cannot be read ({error.strerror})", "check its permissions") from None
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SourceFileError(
            f"is not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})", "save it as UTF-8"
        ) from None
    try:
        compile(source, path, "exec")
    except (SyntaxError, ValueError) as error:
        where = f"line {error.lineno}: " if isinstance(error, SyntaxError) and error.lineno else ""
        message = error.msg if isinstance(error, SyntaxError) else str(error)
        raise SourceFileError(f"is not valid Python ({where}{message})") from None
    return source


def check_agent_file(path: str) -> None:
    """AgentSpecError unless ``path`` is a readable UTF-8 file that compiles as Python."""
    try:
        read_python_file(path)
    except SourceFileError as error:
        advice = error.remedy or (
            "give the path of a .py file that defines agent(observation, configuration)"
            if not os.path.isfile(path)
            else "fix it, then check it with connectx validate"
        )
        raise AgentSpecError(f"agent file {path!r} {error.problem}; {advice}") from None
