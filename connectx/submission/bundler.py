"""Agent spec in, one self-contained Kaggle submission file out: a pure function of the sources.

``build_bundle("negamax:depth=5")`` parses the agent's module and every module of ours it
imports (``module_graph``), emits them dependency-first in one namespace with their imports of
each other removed and colliding names renamed (``namespace``), swaps ``connectx.agents.core.data_files`` for
a generated module holding the data the agent reads (``embedded_data``), and ends with the entry
function ``agent(observation, configuration)``, the last callable the file binds, which is what
Kaggle's loader takes. Same sources and spec, byte-identical output: nothing depends on the
clock, the machine or the path the project lives at.

A built file records what it was built from (``BUILT_FROM``, ``BUILT_PARAMETERS``), which
``read_build_record`` reads back without running it: that record is how ``connectx build`` knows
a file it may replace and ``connectx validate`` a file it can compare with the unbundled agent.

The generated tail keeps the garbage collector out of the agent's searches, where a full
collection is a pause the move's deadline never planned for (Kaggle competitors see them as
random timeouts): it calls ``gc.freeze()`` once the file is loaded and again after every move,
so what lives for the game (modules, embedded data, the opening book decoded on the first move,
tables) sits in the permanent generation that collections never scan. The searches themselves
also pause the collector (``connectx.agents.search.exact_search.paused_gc``).
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.data_files import read_data
from connectx.agents.registry import AgentSpecError
from connectx.submission.embedded_data import DATA_MODULE, data_names, embedded_module, read_files
from connectx.submission.module_graph import PROJECT_ROOT, BuildError, ModuleSource, collect_modules, internal_imports
from connectx.submission.namespace import Identity, plan_names, rewrite

ENTRY_FUNCTION = "agent"
FACTORY_FUNCTION = "new_agent"
SPEC_CONSTANT = "BUILT_FROM"
PARAMETERS_CONSTANT = "BUILT_PARAMETERS"
INSTANCE = "_submission_agent"
LOAD_CLOCK = "LOADING_STARTED_AT"
GENERATED_NAMES = (SPEC_CONSTANT, PARAMETERS_CONSTANT, FACTORY_FUNCTION, INSTANCE, ENTRY_FUNCTION, LOAD_CLOCK)

SECTION_RULE = "# " + "-" * 78

GUARD = ("connectx.agents.core.kaggle_boundary", "GuardedAgent")
"""The module and class that wrap a registry agent's strategy in Kaggle's guard."""
SUBMISSION_MARGIN = 0.5
"""Seconds of ``actTimeout`` a submission's guard keeps back, where the harness's keeps ``DEFAULT_MARGIN`` (0.3 s).

A Kaggle worker's load is unknown: on this project's 2-core machine with both cores busy (load 4),
``mcts``'s slowest move ran 0.16 s past its 1.7 s deadline, over ``connectx validate``'s 1.8 s
limit. Kept back 0.5 s, a move ends by 1.5 s and has 0.3 s of room before that limit. The harness
keeps its own margin so the games it has recorded stay comparable."""


@dataclass(frozen=True)
class BuildRecord:
    """What ``connectx build`` wrote into a file: the spec and the parameters it baked in."""

    spec: str
    parameters: dict[str, Any]


def read_build_record(source: str) -> BuildRecord | None:
    """The spec and parameters a built file records, read with ``ast`` (nothing is executed); None for any
    other file, one that is not Python included."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):  # ValueError: a null byte in the text
        return None
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in (SPEC_CONSTANT, PARAMETERS_CONSTANT):
                try:
                    values[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    return None
    if not isinstance(values.get(SPEC_CONSTANT), str) or not isinstance(values.get(PARAMETERS_CONSTANT), dict):
        return None
    return BuildRecord(values[SPEC_CONSTANT], values[PARAMETERS_CONSTANT])


DIGEST_PREFIX = "# connectx build digest: sha256="
"""The last line of a built file, after the SHA-256 of everything before it: whether it was edited since."""


def with_digest(source: str) -> str:
    """``source`` with its digest line appended, as ``build`` writes it."""
    return f"{source}{DIGEST_PREFIX}{hashlib.sha256(source.encode('utf-8')).hexdigest()}\n"


def written_by_build(path: Path) -> bool:
    """Whether the file at ``path`` is one ``connectx build`` wrote, edited since or not: it records a build,
    or, edited past parsing, still holds the digest line; False for a file that cannot be read as UTF-8."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return read_build_record(text) is not None or any(line.startswith(DIGEST_PREFIX) for line in text.splitlines())


def unchanged_since_build(path: Path) -> bool:
    """Whether the file at ``path`` is exactly as ``connectx build`` wrote it: its digest line still matches."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    body, _, last = text.rstrip("\n").rpartition("\n")
    return last.startswith(DIGEST_PREFIX) and with_digest(body + "\n") == text


@dataclass(frozen=True)
class Bundle:
    """A built submission: its source text and what went into it."""

    spec: str
    source: str
    modules: tuple[str, ...]
    data_files: tuple[str, ...]
    missing_data: tuple[str, ...] = ()
    """Data files the agent reads that did not exist, left out (only with ``allow_missing_data``)."""


def build_bundle(spec: AgentSpec | str, allow_missing_data: bool = False) -> Bundle:
    """The submission for the registry agent ``spec`` (``name[:key=value,...]``, as everywhere else).

    Raises BuildError (or AgentSpecError for a bad spec) with the module, line and fix; a data
    file the agent reads that does not exist is one, unless ``allow_missing_data``.
    """
    agent = AgentSpec.of(spec)
    entry, explicit = agent.entry, agent.kwargs
    if entry is None:
        raise AgentSpecError(
            f"{agent.text} is not a registered agent: only those can be built (connectx agents lists them)"
        )
    factory = entry.factory
    if "." in factory.__qualname__:
        raise BuildError(f"{entry.name}: its factory {factory.__qualname__} must be a top-level function of its module")
    parameters = _baked_parameters(entry.name, factory, explicit)
    return bundle_factory(
        entry.name, factory.__module__, factory.__name__, parameters, allow_missing_data=allow_missing_data, guard=GUARD
    )


def bundle_factory(
    agent_name: str,
    module_name: str,
    factory_name: str,
    parameters: dict[str, Any],
    root: Path = PROJECT_ROOT,
    read: Callable[[str], bytes] = read_data,
    allow_missing_data: bool = False,
    guard: tuple[str, str] | None = None,
) -> Bundle:
    """The submission calling ``module_name.factory_name(**parameters)``, from the sources under ``root``.

    ``agent_name`` is the registry name the file records; ``read`` serves the data files it embeds.
    With ``guard`` (a module and a class in it), the factory makes a strategy and the file's agent is
    ``Guard(agent_name, strategy)``; without, the factory's result is the agent itself.
    """
    modules = collect_modules(module_name, root)
    if guard is not None:
        # Each list is dependency-first, so the guard's modules not met yet may follow the agent's.
        known = {module.name for module in modules}
        modules += [module for module in collect_modules(guard[0], root) if module.name not in known]
    for module in modules:
        _check_loader_safety(module)
    files, missing = read_files(data_names(modules), read, allow_missing_data)
    modules = [embedded_module(files, missing, root) if m.name == DATA_MODULE else m for m in modules]

    removed = {module.name: _removed_statements(module) for module in modules}
    reserved: dict[str, Identity] = {name: ("generated", name) for name in GENERATED_NAMES}
    plan = plan_names(modules, reserved, {name: set(map(id, statements)) for name, statements in removed.items()})
    sections = [
        _section(module.relative_path, rewrite(module, plan.renames[module.name], removed[module.name]))
        for module in modules
    ]

    settings = ",".join(f"{key}={value}" for key, value in parameters.items())
    canonical = f"{agent_name}:{settings}" if settings else agent_name
    if factory_name not in plan.exports[module_name]:
        raise BuildError(f"{module_name} defines no top-level {factory_name}")
    final_factory = plan.exports[module_name][factory_name]
    final_guard = None if guard is None else plan.exports[guard[0]][guard[1]]
    futures = sorted(
        {
            alias.name
            for module in modules
            for statement in removed[module.name]
            if isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            for alias in statement.names
        }
    )
    source = with_digest(
        "\n\n".join(
            [
                _header(canonical, modules),
                *([f"from __future__ import {', '.join(futures)}"] if futures else []),
                _load_clock(),
                *sections,
                _section(
                    "entry point (generated)",
                    _entry_point(canonical, parameters, final_factory, agent_name, final_guard),
                ),
            ]
        )
    )
    return Bundle(canonical, source, tuple(m.relative_path for m in modules), tuple(sorted(files)), tuple(missing))


def build_source(spec: AgentSpec | str) -> str:
    """Just the text of ``build_bundle(spec)``."""
    return build_bundle(spec).source


def _baked_parameters(name: str, factory: Any, explicit: dict[str, Any]) -> dict[str, Any]:
    """Every factory parameter with the value the bundle will pass, defaults written out."""
    bound = inspect.signature(factory).bind(**explicit)
    bound.apply_defaults()
    for key, value in bound.arguments.items():
        try:
            literal_ok = ast.literal_eval(repr(value)) == value
        except (ValueError, SyntaxError):
            literal_ok = False
        if not literal_ok:
            raise BuildError(
                f"{name}: parameter {key}={value!r} cannot be written into the file as a literal; "
                "give the factory parameters plain int, float, bool, str or None values"
            )
    return dict(bound.arguments)


def _check_loader_safety(module: ModuleSource) -> None:
    """BuildError for code that cannot work under Kaggle's loader, which defines no ``__file__``."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Name) and node.id == "__file__":
            raise BuildError(
                f"{module.relative_path}:{node.lineno} uses __file__, which Kaggle's loader does not "
                "define; ship files under agents/data/ and read them with data_files.read_data"
            )


def _removed_statements(module: ModuleSource) -> list[ast.stmt]:
    """The statements the bundle drops: imports of our modules and ``__future__`` imports (hoisted)."""
    removed: list[ast.stmt] = [statement for statement, _ in internal_imports(module)]
    removed += [s for s in module.tree.body if isinstance(s, ast.ImportFrom) and s.module == "__future__"]
    lines_used: dict[int, int] = {}
    for statement in module.tree.body:
        for line in range(statement.lineno, (statement.end_lineno or statement.lineno) + 1):
            lines_used[line] = lines_used.get(line, 0) + 1
    for statement in removed:
        if lines_used[statement.lineno] > 1 or lines_used[statement.end_lineno or statement.lineno] > 1:
            raise BuildError(
                f"{module.relative_path}:{statement.lineno}: put this import on its own line so the builder can drop it"
            )
    return sorted(removed, key=lambda s: s.lineno)


def _section(title: str, text: str) -> str:
    body = re.sub(r"\n{4,}", "\n\n\n", text.strip("\n"))
    return f"{SECTION_RULE}\n# {title}\n{SECTION_RULE}\n\n{body}\n"


def _header(spec: str, modules: list[ModuleSource]) -> str:
    listing = "\n".join(f"    {module.relative_path}" for module in modules)
    return (
        f'"""ConnectX submission: the agent {spec}, built by `connectx build` into one file.\n'
        "\n"
        "Generated: change the modules below in the connectx repository and rebuild instead of editing\n"
        "this file. It holds, in order, with their imports of each other removed:\n"
        "\n"
        f"{listing}\n"
        "\n"
        f"Kaggle's loader runs the file and calls the last function it defines, `{ENTRY_FUNCTION}`.\n"
        '"""'
    )


def _load_clock() -> str:
    return (
        "# Kaggle loads this file inside the first move's time: the agent's first clock starts here.\n"
        f"{LOAD_CLOCK} = __import__('time').perf_counter()\n"
    )


def _entry_point(
    spec: str, parameters: dict[str, Any], factory_name: str, agent_name: str, guard_name: str | None
) -> str:
    literal = "{" + ", ".join(f"{key!r}: {value!r}" for key, value in parameters.items()) + "}"
    made = f"{factory_name}(**{{**{PARAMETERS_CONSTANT}, **overrides}})"
    built = made if guard_name is None else f"{guard_name}({agent_name!r}, {made}, margin={SUBMISSION_MARGIN!r})"
    return (
        f"{SPEC_CONSTANT} = {spec!r}\n"
        f"{PARAMETERS_CONSTANT} = {literal}\n"
        "\n"
        "\n"
        f"def {FACTORY_FUNCTION}(**overrides):\n"
        '    """A fresh agent with the built parameters; `connectx validate` overrides the seed to compare moves."""\n'
        f"    return {built}\n"
        "\n"
        "\n"
        f"{INSTANCE} = {FACTORY_FUNCTION}()\n"
        f"{INSTANCE}.count_first_move_from({LOAD_CLOCK})\n"
        "# Everything alive now (modules, embedded data, the agent) lives as long as the game: the garbage\n"
        "# collector's full passes, which a move's search cannot afford, need never scan it again.\n"
        "__import__('gc').freeze()\n"
        "\n"
        "\n"
        f"def {ENTRY_FUNCTION}(observation, configuration):\n"
        '    """Kaggle\'s entry point: the last callable in this file. The file is run once per episode."""\n'
        f"    column = {INSTANCE}(observation, configuration)\n"
        "    # What a move leaves alive (the book decoded on the first one, tables, trees) is long-lived too:\n"
        "    # freezing it keeps it out of the collections of later moves (gc.freeze() costs no scan).\n"
        "    __import__('gc').freeze()\n"
        "    return column\n"
    )
