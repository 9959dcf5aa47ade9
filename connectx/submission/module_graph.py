"""Which of our modules an agent needs, in the order they must run: found by parsing imports.

Starting from the agent's module, every ``import`` is classified (``__future__``, standard
library, our own packages, anything else) by reading the source with ``ast``, never by running
it. Our modules are followed depth-first and listed dependencies first; anything outside the
standard library is a ``BuildError`` naming the import and the module that made it, because a
Kaggle submission is one file that runs where only the standard library is guaranteed.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from dataclasses import dataclass
from pathlib import Path

OUR_PACKAGES = ("connectx",)
"""This project's one top-level package (pyproject.toml's ``packages.find``): the only modules that are ours."""


def _packages_root() -> Path:
    """Where ``connectx`` is imported from (so a bundle holds the code this process runs), one level up."""
    spec = importlib.util.find_spec("connectx")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the connectx package cannot be found: install the project (pip install . or make install)")
    return Path(next(iter(spec.submodule_search_locations))).resolve().parent


PROJECT_ROOT = _packages_root()
"""The directory holding our packages: the repository in a clone (and an editable install), site-packages
in an installed wheel, where everyone else's packages sit beside ours (``is_internal`` tells them apart)."""


class BuildError(Exception):
    """The agent cannot be bundled; the message says where and what to change."""


@dataclass(frozen=True)
class InternalImport:
    """One name a top-level ``from <module> import <name> as <local>`` takes from one of our modules."""

    module: str
    name: str
    local: str


@dataclass(frozen=True)
class ModuleSource:
    """One of our modules: its dotted name, its path relative to ``root``, text and syntax tree.

    ``root`` is the directory holding our packages (the project root, or a test's fixture tree).
    """

    name: str
    relative_path: str
    text: str
    tree: ast.Module
    root: Path

    @property
    def short_name(self) -> str:
        return self.name.rpartition(".")[2]


def is_internal(module: str, root: Path = PROJECT_ROOT) -> bool:
    """Whether ``module`` (dotted) belongs to one of our packages under ``root``.

    Under ``PROJECT_ROOT`` only ``OUR_PACKAGES`` are ours (site-packages holds numpy beside them);
    under any other root (a test's fixture tree) every package there is.
    """
    top = module.partition(".")[0]
    if root == PROJECT_ROOT and top not in OUR_PACKAGES:
        return False
    return (root / top / "__init__.py").is_file() or (root / f"{top}.py").is_file()


def is_standard_library(module: str) -> bool:
    return module.partition(".")[0] in sys.stdlib_module_names


def load_module(name: str, root: Path = PROJECT_ROOT) -> ModuleSource:
    """The source of our module ``name``; BuildError if it is a package or does not exist."""
    relative = Path(*name.split("."))
    path = root / relative.with_suffix(".py")
    if not path.is_file():
        if (root / relative / "__init__.py").is_file():
            raise BuildError(f"{name} is a package: import names from its modules (from {name}.<module> import Name)")
        raise BuildError(f"module {name} not found at {path.relative_to(root)}")
    text = path.read_text(encoding="utf-8")
    relative_path = path.relative_to(root).as_posix()
    try:
        tree = ast.parse(text, filename=relative_path)
    except SyntaxError as error:
        raise BuildError(f"{relative_path} does not parse: {error}") from None
    return ModuleSource(name, relative_path, text, tree, root)


def absolute_module(module: ModuleSource, node: ast.ImportFrom) -> str:
    """The dotted module a ``from ... import`` names, relative imports resolved against ``module``."""
    if not node.level:
        return node.module or ""
    package = module.name.split(".")[: -node.level]
    if not package:
        raise BuildError(f"{module.relative_path}:{node.lineno}: relative import goes above the top-level package")
    return ".".join(package + ([node.module] if node.module else []))


def internal_imports(module: ModuleSource) -> list[tuple[ast.stmt, list[InternalImport]]]:
    """Top-level imports of our modules, each statement with what it binds.

    Only ``from our.module import Name [as Alias]`` at the top level is bundled: the bundle is one
    namespace, so there is no module object to hold ``import connectx.agents.core.position`` or a module
    imported by name, and an import inside a function would re-run at every call.
    """
    found: list[tuple[ast.stmt, list[InternalImport]]] = []
    top_level = set(map(id, module.tree.body))
    for node in ast.walk(module.tree):
        where = f"{module.relative_path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_internal(alias.name, module.root):
                    raise BuildError(
                        f"{where}: `import {alias.name}` cannot be bundled; "
                        f"write `from {alias.name} import <Name>` instead"
                    )
        elif isinstance(node, ast.ImportFrom):
            source = absolute_module(module, node)
            if not is_internal(source, module.root):
                continue
            if id(node) not in top_level:
                raise BuildError(
                    f"{where}: import of {source} inside a block cannot be bundled; move it to the top of the module"
                )
            if (module.root / Path(*source.split(".")) / "__init__.py").is_file():
                names = ", ".join(alias.name for alias in node.names)
                raise BuildError(
                    f"{where}: `from {source} import {names}` imports modules by name, which cannot be "
                    "bundled; import the names you use from each module "
                    f"(from {source}.<module> import Name)"
                )
            if any(alias.name == "*" for alias in node.names):
                raise BuildError(f"{where}: `from {source} import *` cannot be bundled; name what you import")
            found.append(
                (node, [InternalImport(source, alias.name, alias.asname or alias.name) for alias in node.names])
            )
    return found


def check_external_imports(module: ModuleSource) -> None:
    """BuildError for the first import of anything that is neither ours nor the standard library."""
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [absolute_module(module, node)]
        else:
            continue
        for name in names:
            if not is_internal(name, module.root) and not is_standard_library(name):
                raise BuildError(
                    f"{module.relative_path}:{node.lineno} imports {name!r}, which is not in the standard library: "
                    f"a submission runs where only the standard library is guaranteed, so agents may not use it "
                    f"(remove the import from {module.name}, or keep that code out of the agent's modules)"
                )


def collect_modules(start: str, root: Path = PROJECT_ROOT) -> list[ModuleSource]:
    """``start`` and every module of ours it imports, dependencies before the modules using them."""
    ordered: list[ModuleSource] = []
    done: set[str] = set()
    visiting: list[str] = []

    def visit(name: str) -> None:
        if name in done:
            return
        if name in visiting:
            cycle = " -> ".join(visiting[visiting.index(name) :] + [name])
            raise BuildError(f"import cycle {cycle}: a bundle runs each module once, top to bottom; break the cycle")
        visiting.append(name)
        module = load_module(name, root)
        check_external_imports(module)
        for _, imported in internal_imports(module):
            for item in imported:
                visit(item.module)
        visiting.pop()
        done.add(name)
        ordered.append(module)

    visit(start)
    return ordered
