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

AGENT_LAYERS = ["agents.core", "agents.heuristics", "agents.search", "agents.players"]
"""``agents``' subpackages, bottom up: each may import those before it (and ``agents``' own modules none of them)."""
AGENTS = {*AGENT_LAYERS, "agents"}
MAY_IMPORT: dict[str, set[str]] = {
    **{layer: set(AGENT_LAYERS[:number + 1]) for number, layer in enumerate(AGENT_LAYERS)},
    "agents": AGENTS,
    "submission": AGENTS | {"submission"},
    "evaluation": AGENTS | {"evaluation"},
    "connectx.analysis": AGENTS | {"connectx.analysis"},
    "connectx.book": AGENTS | {"connectx.analysis", "connectx.book"},
    "connectx.papers": AGENTS | {"evaluation", "connectx.papers"},
    "connectx.play": AGENTS | {"evaluation", "connectx.analysis", "connectx.play"},
    "connectx.cli": AGENTS | {"submission", "evaluation", "connectx.analysis", "connectx.book", "connectx.papers",
                              "connectx.play", "connectx.cli", "connectx"},
    "connectx": {"connectx.cli", "connectx"},
    "benchmarks": AGENTS | {"submission", "evaluation", "connectx.analysis", "connectx.book", "connectx.papers",
                            "connectx.play", "benchmarks"},
}
"""Which of our layers each layer (a package, or ``agents``' and ``connectx``' subpackages) may import; only
``connectx`` itself (``python -m connectx``) imports the command line, which reads its version there."""
EVERYTHING = set(MAY_IMPORT)

KAGGLE_IMPORTERS = {
    "evaluation/engine.py",
    # Validation runs a submission file with Kaggle's own loader and engine in a separate process
    # that must not see our packages, so it cannot go through the harness: it judges a file, it
    # does not play our games.
    "submission/isolated_runner.py",
}
"""The only modules that may import kaggle_environments."""

CLI_SHARED = {"connectx.cli.options", "connectx.cli.progress"}
"""What command modules may import from the command line: the shared options and progress bar, never another command."""

IMPORTING_CALLS = {"import_module", "__import__"}


def imported_names(path: str, source: str) -> Iterator[tuple[int, str]]:
    """(line, dotted module name) of every import in ``source``, nested ones and ``import_module("...")`` included."""
    parts = path.removesuffix(".py").split("/")
    package = parts if parts[-1] == "__init__" else parts[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                # `from connectx.cli import match` imports a module; `from connectx.cli.options import X` a name.
                yield node.lineno, f"{module}.{alias.name}" if module in EVERYTHING or "." not in module else module
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if function in IMPORTING_CALLS and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def layer_of(name: str) -> str | None:
    """The layer a dotted module name belongs to (``agents.core.position`` -> ``agents.core``), None if not ours."""
    parts = name.split(".")
    if ".".join(parts[:2]) in EVERYTHING:
        return ".".join(parts[:2])
    return parts[0] if parts[0] in EVERYTHING else None


def violations(path: str, source: str) -> list[str]:
    """What in ``source`` (the text of the module at ``path``, relative to the repository) breaks the layers."""
    layer = layer_of(path.removesuffix(".py").replace("/", "."))
    assert layer is not None, f"{path} is in no layer"
    found = []
    for line, name in imported_names(path, source):
        target = layer_of(name)
        where = f"{path}:{line} imports {name}"
        if target is not None and target not in MAY_IMPORT[layer]:
            found.append(f"{where}: {layer} may import only {', '.join(sorted(MAY_IMPORT[layer]))}")
        if name.split(".")[0] == "kaggle_environments" and path not in KAGGLE_IMPORTERS:
            found.append(f"{where}: only {', '.join(sorted(KAGGLE_IMPORTERS))} may import it")
        command = ".".join(name.split(".")[:3])
        if (layer == "connectx.cli" and target == "connectx.cli" and path != "connectx/cli/main.py"
                and command not in CLI_SHARED | {"connectx.cli"}):
            found.append(f"{where}: a command imports no other command; share it through connectx.cli.options")
    return found


def packages() -> list[str]:
    """Every package of ours (dotted), subpackages included: every folder holding Python code but the tests."""
    return sorted(str(path.parent.relative_to(REPO)).replace("/", ".") for path in REPO.glob("*/**/__init__.py")
                  if path.parts[len(REPO.parts)] not in {"tests", ".venv", ".tools"})


def modules() -> list[str]:
    tops = {package.split(".")[0] for package in packages()}
    return sorted(str(path.relative_to(REPO)) for top in tops for path in (REPO / top).rglob("*.py"))


def test_every_package_has_a_place_in_the_layers() -> None:
    assert {"agents", "agents.core", "submission", "evaluation", "connectx.cli", "benchmarks"} <= set(packages())
    unplaced = {package for package in packages() if package not in MAY_IMPORT and layer_of(package) is None}
    assert not unplaced, f"give {', '.join(sorted(unplaced))} a row in MAY_IMPORT and a place in docs/architecture.md"


def test_no_module_imports_across_the_layers() -> None:
    assert len(modules()) > 50
    found = [problem for module in modules() for problem in violations(module, (REPO / module).read_text())]
    assert found == []


def test_exactly_the_allowed_modules_import_kaggle_environments() -> None:
    importers = {module for module in modules()
                 if any(name.split(".")[0] == "kaggle_environments"
                        for _, name in imported_names(module, (REPO / module).read_text()))}
    assert importers == KAGGLE_IMPORTERS


@pytest.mark.parametrize("path, source, problem", [
    ("agents/core/position.py", "from evaluation.engine import BoardConfig", "agents.core may import only agents.core"),
    ("agents/core/position.py", "from agents.search.exact_search import solve", "agents.core may import only"),
    ("agents/heuristics/window_table.py", "from agents.players import mcts", "agents.heuristics may import only"),
    ("agents/players/solver_agent.py", "def f():\n    import connectx.analysis.native\n", "imports connectx.analysis"),
    ("agents/players/solver_agent.py", "from agents.registry import REGISTRY", "agents.players may import only"),
    ("connectx/book/generate.py", "from submission.bundler import build_bundle", "connectx.book may import only"),
    ("connectx/book/generate.py", "from evaluation import game", "imports evaluation.game"),
    ("evaluation/match.py", "from connectx.papers import runner", "evaluation may import only"),
    ("evaluation/match.py", "from connectx.cli.options import InputError", "imports connectx.cli.options"),
    ("connectx/papers/runner.py", "import connectx.cli.main", "connectx.papers may import only"),
    ("submission/bundler.py", "from connectx.cli import build", "imports connectx.cli.build"),
    ("benchmarks/speed.py", "from connectx.cli.main import main", "imports connectx.cli.main"),
    ("connectx/analysis/games.py", "from evaluation.game import GameRecord", "connectx.analysis may import only"),
    ("evaluation/game.py", "import kaggle_environments", "only evaluation/engine.py"),
    ("evaluation/game.py", "from kaggle_environments.agent import build_agent", "only evaluation/engine.py"),
    ("connectx/papers/runner.py", "importlib.import_module('kaggle_environments.utils')", "only evaluation/engine.py"),
    ("connectx/cli/match.py", "from connectx.cli.play import board_config", "a command imports no other command"),
    ("connectx/cli/tournament.py", "from connectx.cli import match", "a command imports no other command"),
    ("connectx/cli/options.py", "from . import play", "a command imports no other command"),
])
def test_the_checker_catches_each_kind_of_bad_import(path: str, source: str, problem: str) -> None:
    (found,) = violations(path, source)
    assert problem in found


@pytest.mark.parametrize("path, source", [
    ("evaluation/engine.py", "import kaggle_environments"),
    ("submission/isolated_runner.py", "from kaggle_environments.agent import get_last_callable"),
    ("connectx/cli/main.py", "from connectx.cli import agents, match, play"),
    ("connectx/__main__.py", "from connectx.cli.main import main"),
    ("agents/registry.py", "from agents.players import mcts\nfrom agents.core.strategy import Strategy"),
    ("connectx/cli/match.py", "from connectx.cli.options import InputError\nfrom connectx.cli import progress"),
    ("connectx/cli/report.py", "from connectx.papers.runner import run_experiments\nfrom evaluation import match"),
    ("connectx/papers/runner.py", "from evaluation.match import play_match\nfrom agents.agent_spec import AgentSpec"),
    ("connectx/play/session.py", "from connectx.analysis.games import Game\nfrom evaluation.game import play_game"),
    ("agents/players/solver_agent.py", "from agents.search import exact_search\nimport random"),
    ("agents/search/exact_search.py", "from . import move_order\nfrom agents.heuristics import zugzwang"),
])
def test_the_checker_allows_what_the_layers_allow(path: str, source: str) -> None:
    assert violations(path, source) == []
