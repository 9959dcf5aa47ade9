"""The layers ``docs/architecture.md`` draws, held true: every module's imports are parsed and checked against them.

Lower layers never import higher ones, so each can be read, tested and reused without what sits
above it: agents run on Kaggle with the standard library alone, the harness runs without the
command line, the paper reproduction runs on the harness. ``MAY_IMPORT`` is the architecture page's
picture as data; a new package needs a row here (and a place in the picture) before its tests pass.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

SOURCE_FOLDERS = {"connectx": "connectx", "benchmarks": "benchmarks", "book": "book"}
"""Each folder of code (tests aside) and the package it is: the design's folders are real subpackages inside
``connectx/`` (the top-level ``agents`` and the like are links into it, never read here, so each file is read
once). Named, never discovered: a stray ``build/`` or ``dist/`` must not change what is tested."""

AGENT_LAYERS = [
    "connectx.agents.core",
    "connectx.agents.heuristics",
    "connectx.agents.search",
    "connectx.agents.players",
]
"""``agents``' subpackages, bottom up: each may import those before it (and ``agents``' own modules none of them)."""
AGENTS = {*AGENT_LAYERS, "connectx.agents"}
PAPERS_ROOMS = ["connectx.papers.experiments", "connectx.papers.claims", "connectx.papers.writing"]
"""``papers``' subpackages, in the order they read each other: each may import those before it (and the harness)."""
PAPERS = {*PAPERS_ROOMS, "connectx.papers"}
MAY_IMPORT: dict[str, set[str]] = {
    **{layer: set(AGENT_LAYERS[: number + 1]) for number, layer in enumerate(AGENT_LAYERS)},
    "connectx.agents": AGENTS,
    "connectx.submission": AGENTS | {"connectx.submission"},
    "connectx.evaluation": AGENTS | {"connectx.evaluation"},
    "connectx.solver": AGENTS | {"connectx.solver"},
    "connectx.analysis": AGENTS | {"connectx.solver", "connectx.analysis"},
    "book": AGENTS | {"connectx.solver", "connectx.analysis", "book"},
    **{room: AGENTS | {"connectx.evaluation", *PAPERS_ROOMS[: number + 1]} for number, room in enumerate(PAPERS_ROOMS)},
    "connectx.papers": AGENTS | {"connectx.evaluation", "connectx.papers"},
    "connectx.play": AGENTS | {"connectx.evaluation", "connectx.solver", "connectx.analysis", "connectx.play"},
    "connectx.cli": AGENTS
    | {
        "connectx.submission",
        "connectx.evaluation",
        "connectx.solver",
        "connectx.analysis",
        *PAPERS,
        "connectx.play",
        "connectx.cli",
        "connectx",
    },
    "connectx": {"connectx.cli", "connectx"},
    "benchmarks": AGENTS
    | {
        "connectx.submission",
        "connectx.evaluation",
        "connectx.solver",
        "connectx.analysis",
        "book",
        *PAPERS,
        "connectx.play",
        "benchmarks",
    },
}
"""Which of our layers each layer (a package, or ``agents``' and ``connectx``' subpackages) may import; only
``connectx`` itself (``python -m connectx``) imports the command line, which reads its version there."""
EVERYTHING = set(MAY_IMPORT)
BARE_NAMES = {"agents", "submission", "evaluation"}
"""The design's folders, which are imported only as ``connectx``'s subpackages: a bare ``agents`` is a user's file."""
OLD_LAYOUT_READERS = {"benchmarks/open_board_measure.py"}
"""Modules that import another revision's code, which may predate the one name (``agents`` at the top)."""

KAGGLE_IMPORTERS = {
    "connectx/evaluation/engine.py",
    # Validation runs a submission file with Kaggle's own loader and engine in a separate process
    # that must not see our packages, so it cannot go through the harness: it judges a file, it
    # does not play our games.
    "connectx/submission/isolated_runner.py",
}
"""The only modules that may import kaggle_environments."""

CLI_SHARED = {"connectx.cli.options", "connectx.cli.progress", "connectx.cli.exit_status", "connectx.cli.dependencies"}
"""What command modules may import from the command line: the shared options, progress bar, exit status and
dependency check, never another command."""

IMPORTING_CALLS = {"import_module", "__import__"}


def module_name(path: str) -> str:
    """The dotted name of the module at ``path`` (relative to the repository): ``agents/core/position.py`` is
    ``connectx.agents.core.position``."""
    folder, _, rest = path.removesuffix(".py").partition("/")
    return ".".join([SOURCE_FOLDERS[folder], *rest.split("/")]) if rest else SOURCE_FOLDERS[folder]


def imported_names(path: str, source: str) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every import in ``source``, nested ones and ``import_module("...")`` included."""
    package = module_name(path).split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                # `from connectx.cli import match` imports a module; `from connectx.cli.options import X` a name.
                yield node.lineno, f"{module}.{alias.name}" if module in EVERYTHING or "." not in module else module
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if function in IMPORTING_CALLS and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def layer_of(name: str) -> str | None:
    """The layer a dotted module name belongs to, the longest that holds it (``connectx.agents.core.position`` ->
    ``connectx.agents.core``), None if not ours."""
    holding = [layer for layer in EVERYTHING if name == layer or name.startswith(layer + ".")]
    return max(holding, key=len) if holding else None


def violations(path: str, source: str) -> list[str]:
    """What in ``source`` (the text of the module at ``path``, relative to the repository) breaks the layers."""
    layer = layer_of(module_name(path).removesuffix(".__init__"))
    assert layer is not None, f"{path} is in no layer"
    found = []
    for line, name in imported_names(path, source):
        target = layer_of(name)
        where = f"{path}:{line} imports {name}"
        if name.split(".")[0] in BARE_NAMES and path not in OLD_LAYOUT_READERS:
            found.append(f"{where}: import it as connectx.{name}, the one name it has")
        if target is not None and target not in MAY_IMPORT[layer]:
            found.append(f"{where}: {layer} may import only {', '.join(sorted(MAY_IMPORT[layer]))}")
        if name.split(".")[0] == "kaggle_environments" and path not in KAGGLE_IMPORTERS:
            found.append(f"{where}: only {', '.join(sorted(KAGGLE_IMPORTERS))} may import it")
        command = ".".join(name.split(".")[:3])
        if (
            layer == "connectx.cli"
            and target == "connectx.cli"
            and path != "connectx/cli/main.py"
            and command not in CLI_SHARED | {"connectx.cli"}
        ):
            found.append(f"{where}: a command imports no other command; share it through connectx.cli.options")
    return found


def packages() -> list[str]:
    """Every package of ours (dotted), subpackages included: each folder of ``SOURCE_FOLDERS`` with an ``__init__``."""
    return sorted(
        module_name(str(path.parent.relative_to(REPO)) + ".py")
        for folder in SOURCE_FOLDERS
        for path in (REPO / folder).rglob("__init__.py")
    )


def modules() -> list[str]:
    """Every module of ours, as a path relative to the repository."""
    return sorted(str(path.relative_to(REPO)) for folder in SOURCE_FOLDERS for path in (REPO / folder).rglob("*.py"))


def test_every_package_has_a_place_in_the_layers() -> None:
    assert {
        "connectx.agents",
        "connectx.agents.core",
        "connectx.submission",
        "connectx.evaluation",
        "connectx.cli",
        "benchmarks",
    } <= set(packages())
    unplaced = {package for package in packages() if package not in MAY_IMPORT and layer_of(package) is None}
    assert not unplaced, f"give {', '.join(sorted(unplaced))} a row in MAY_IMPORT and a place in docs/architecture.md"


def test_no_module_imports_across_the_layers() -> None:
    assert len(modules()) > 50
    found = [problem for module in modules() for problem in violations(module, (REPO / module).read_text())]
    assert found == []


def test_exactly_the_allowed_modules_import_kaggle_environments() -> None:
    importers = {
        module
        for module in modules()
        if any(
            name.split(".")[0] == "kaggle_environments"
            for _, name in imported_names(module, (REPO / module).read_text())
        )
    }
    assert importers == KAGGLE_IMPORTERS


@pytest.mark.parametrize(
    "path, source, problem",
    [
        (
            "connectx/agents/core/position.py",
            "from connectx.evaluation.engine import BoardConfig",
            "connectx.agents.core may import only connectx.agents.core",
        ),
        (
            "connectx/agents/core/position.py",
            "from connectx.agents.search.exact_search import solve",
            "connectx.agents.core may import only",
        ),
        (
            "connectx/agents/heuristics/window_table.py",
            "from connectx.agents.players import mcts",
            "connectx.agents.heuristics may import only",
        ),
        (
            "connectx/agents/players/solver_agent.py",
            "def f():\n    import connectx.solver.native\n",
            "imports connectx.solver",
        ),
        (
            "connectx/agents/players/solver_agent.py",
            "from connectx.agents.registry import REGISTRY",
            "connectx.agents.players may import only",
        ),
        ("book/generate.py", "from connectx.submission.bundler import build_bundle", "book may import only"),
        ("book/generate.py", "from connectx.evaluation import game", "imports connectx.evaluation.game"),
        ("connectx/cli/match.py", "from evaluation.match import play_match", "import it as connectx.evaluation.match"),
        ("connectx/play/api.py", "import agents.registry", "the one name it has"),
        ("connectx/evaluation/match.py", "from connectx.papers import runner", "connectx.evaluation may import only"),
        ("connectx/evaluation/match.py", "from connectx.cli.options import InputError", "imports connectx.cli.options"),
        ("connectx/papers/experiments/runner.py", "import connectx.cli.main", "connectx.papers.experiments may import"),
        (
            "connectx/papers/claims/verdicts.py",
            "from connectx.papers.writing.report_format import APPENDIX_FILE",
            "connectx.papers.claims may import only",
        ),
        ("connectx/submission/bundler.py", "from connectx.cli import build", "imports connectx.cli.build"),
        ("benchmarks/speed.py", "from connectx.cli.main import main", "imports connectx.cli.main"),
        (
            "connectx/analysis/games.py",
            "from connectx.evaluation.game import GameRecord",
            "connectx.analysis may import only",
        ),
        ("connectx/evaluation/game.py", "import kaggle_environments", "only connectx/evaluation/engine"),
        (
            "connectx/evaluation/game.py",
            "from kaggle_environments.agent import build_agent",
            "only connectx/evaluation/engine",
        ),
        (
            "connectx/papers/experiments/runner.py",
            "importlib.import_module('kaggle_environments.utils')",
            "only connectx/evaluation/engine",
        ),
        ("connectx/cli/match.py", "from connectx.cli.play import board_config", "a command imports no other command"),
        ("connectx/cli/tournament.py", "from connectx.cli import match", "a command imports no other command"),
        ("connectx/cli/options.py", "from . import play", "a command imports no other command"),
    ],
)
def test_the_checker_catches_each_kind_of_bad_import(path: str, source: str, problem: str) -> None:
    (found,) = violations(path, source)
    assert problem in found


@pytest.mark.parametrize(
    "path, source",
    [
        ("connectx/evaluation/engine.py", "import kaggle_environments"),
        ("connectx/submission/isolated_runner.py", "from kaggle_environments.agent import get_last_callable"),
        ("connectx/cli/main.py", "from connectx.cli import agents, match, play"),
        ("connectx/__main__.py", "from connectx.cli.main import main"),
        (
            "connectx/agents/registry.py",
            "from connectx.agents.players import mcts\nfrom connectx.agents.core.strategy import Strategy",
        ),
        ("connectx/cli/match.py", "from connectx.cli.options import InputError\nfrom connectx.cli import progress"),
        (
            "connectx/cli/report.py",
            "from connectx.papers.experiments.runner import run_experiments\nfrom connectx.evaluation import match",
        ),
        (
            "connectx/papers/experiments/runner.py",
            "from connectx.evaluation.match import play_match\nfrom connectx.agents.agent_spec import AgentSpec",
        ),
        (
            "connectx/play/session.py",
            "from connectx.analysis.games import Game\nfrom connectx.evaluation.game import play_game",
        ),
        ("connectx/agents/players/solver_agent.py", "from connectx.agents.search import exact_search\nimport random"),
        (
            "connectx/agents/search/exact_search.py",
            "from . import move_order\nfrom connectx.agents.heuristics import zugzwang",
        ),
    ],
)
def test_the_checker_allows_what_the_layers_allow(path: str, source: str) -> None:
    assert violations(path, source) == []
