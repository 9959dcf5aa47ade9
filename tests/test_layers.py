"""The layers the README draws, held true: every module's imports are parsed and checked against them.

Lower layers never import higher ones, so each can be read, tested and reused without what sits
above it: agents run on Kaggle with the standard library alone, the harness runs without the
command line, the paper reproduction runs on the harness. ``MAY_IMPORT`` is the README's picture
as data; a new package needs a row here (and a place in the picture) before its tests pass.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

EVERYTHING = {"agents", "book", "analysis", "harness", "submission", "papers", "human", "cli"}
MAY_IMPORT: dict[str, set[str]] = {
    "agents": {"agents"},
    "book": {"agents", "book"},
    "analysis": {"agents", "book", "analysis"},
    "harness": {"agents", "harness"},
    "submission": {"agents", "submission"},
    "papers": {"agents", "harness", "papers"},
    "human": {"agents", "book", "analysis", "harness", "human"},
    "cli": EVERYTHING,
    "benchmarks": EVERYTHING - {"cli"},
}
"""Which of our packages each package (and the benchmark scripts) may import; nothing but cli imports cli."""

KAGGLE_IMPORTERS = {
    "harness/engine.py",
    # Validation runs a submission file with Kaggle's own loader and engine in a separate process
    # that must not see our packages, so it cannot go through the harness: it judges a file, it
    # does not play our games.
    "submission/isolated_runner.py",
}
"""The only modules that may import kaggle_environments."""

CLI_SHARED = {"cli.options", "cli.progress"}
"""What command modules may import from cli: the shared options and progress bar, never another command."""

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
                # `from cli import match` imports the module cli.match; `from cli.options import X` a name.
                yield node.lineno, f"{module}.{alias.name}" if "." not in module else module
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if function in IMPORTING_CALLS and isinstance(node.args[0].value, str):
                yield node.lineno, node.args[0].value


def violations(path: str, source: str) -> list[str]:
    """What in ``source`` (the text of the module at ``path``, relative to the repository) breaks the layers."""
    layer = path.split("/")[0]
    found = []
    for line, name in imported_names(path, source):
        top = name.split(".")[0]
        where = f"{path}:{line} imports {name}"
        if top in EVERYTHING and top not in MAY_IMPORT[layer]:
            found.append(f"{where}: {layer} may import only {', '.join(sorted(MAY_IMPORT[layer]))}")
        if top == "kaggle_environments" and path not in KAGGLE_IMPORTERS:
            found.append(f"{where}: only {', '.join(sorted(KAGGLE_IMPORTERS))} may import it")
        command = ".".join(name.split(".")[:2])
        if layer == "cli" and top == "cli" and path != "cli/main.py" and command not in CLI_SHARED | {"cli"}:
            found.append(f"{where}: a command imports no other command; share it through cli.options")
    return found


def layers() -> list[str]:
    """Our packages and the benchmark scripts: every top-level folder holding Python code but the tests."""
    return sorted(path.name for path in REPO.iterdir()
                  if (path / "__init__.py").is_file() or path.name == "benchmarks")


def modules() -> list[str]:
    return sorted(str(path.relative_to(REPO)) for layer in layers() for path in (REPO / layer).rglob("*.py"))


def test_every_package_has_a_place_in_the_layers() -> None:
    assert {"agents", "book", "harness", "papers", "submission", "cli", "benchmarks"} <= set(layers())
    unplaced = set(layers()) - set(MAY_IMPORT)
    assert not unplaced, f"give {', '.join(sorted(unplaced))} a row in MAY_IMPORT and a place in the README's picture"


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
    ("agents/position.py", "from harness.engine import BoardConfig", "agents may import only agents"),
    ("agents/solver_agent.py", "def f():\n    import book.native\n", "imports book.native"),
    ("book/generate.py", "from submission.bundler import build_bundle", "book may import only agents, book"),
    ("book/generate.py", "from harness import game", "imports harness.game"),
    ("harness/match.py", "from papers import runner", "harness may import only agents, harness"),
    ("harness/match.py", "from cli.options import InputError", "imports cli.options"),
    ("papers/runner.py", "import cli.main", "papers may import only"),
    ("submission/bundler.py", "from cli import build", "imports cli.build"),
    ("benchmarks/speed.py", "from cli.main import main", "imports cli.main"),
    ("analysis/games.py", "from harness.game import GameRecord", "analysis may import only"),
    ("harness/game.py", "import kaggle_environments", "only harness/engine.py"),
    ("harness/game.py", "from kaggle_environments.agent import build_agent", "only harness/engine.py"),
    ("papers/runner.py", "importlib.import_module('kaggle_environments.utils')", "only harness/engine.py"),
    ("cli/match.py", "from cli.play import board_config", "a command imports no other command"),
    ("cli/tournament.py", "from cli import match", "a command imports no other command"),
    ("cli/options.py", "from . import play", "a command imports no other command"),
])
def test_the_checker_catches_each_kind_of_bad_import(path: str, source: str, problem: str) -> None:
    (found,) = violations(path, source)
    assert problem in found


@pytest.mark.parametrize("path, source", [
    ("harness/engine.py", "import kaggle_environments"),
    ("submission/isolated_runner.py", "from kaggle_environments.agent import get_last_callable"),
    ("cli/main.py", "from cli import agents, match, play"),
    ("cli/match.py", "from cli.options import InputError\nfrom cli.progress import play_with_progress"),
    ("cli/report.py", "from papers.runner import run_experiments\nfrom harness.match import MatchResult"),
    ("papers/runner.py", "from harness.match import play_match\nfrom agents.agent_spec import AgentSpec"),
    ("human/session.py", "from analysis.games import Game\nfrom harness.game import play_game"),
    ("agents/solver_agent.py", "from . import position\nimport random"),
])
def test_the_checker_allows_what_the_layers_allow(path: str, source: str) -> None:
    assert violations(path, source) == []
