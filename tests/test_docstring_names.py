"""Docstrings kept true: every name a docstring writes in double backticks still exists.

A docstring that sends the reader to ``results_store.check_same_code`` or ``--allow-code-change``
is only useful while that function or option is there; after a rename the docstring goes on
naming the old one, and nothing else fails. So every ````name````, ````module.name````,
````Class.attribute```` and ````--option```` in the docstrings of ``connectx``, ``book`` and
``benchmarks`` must resolve: a module of ours (by its dotted path, or its last part as the code
writes it), an object reached from it, a name the code defines or uses, a string the code holds
(Kaggle's ``INVALID``, a file name), or an option some parser declares. Lowercase dotted names
that are no module but a variable of the code (``env.run``, ``obs.mark``) are an instance and its
attribute: the attribute must be a name the code uses. ``EXTERNAL`` lists what docstrings cite from outside the code.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import keyword
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("connectx", "book", "benchmarks")
REFERENCE = re.compile(r"``([^`\s]+)``")
EXTERNAL = {
    "c4solver": "Pons' solver program, which a benchmark compares against",
    "test_proportions_2indep": "statsmodels' function, which the reference values came from",
    "Host": "an HTTP header",
    "Origin": "an HTTP header",
    "packages.find": "pyproject.toml's setuptools table",
    "--help": "argparse's own option",
    "obs": "Kaggle's name for an agent's observation",
    "prop.trend.test": "R's trend test, which the reference values agree with",
}
"""Names docstrings cite that are not ours, each with why it is cited."""


@dataclass
class Code:
    """What the code base defines and uses: the vocabulary a docstring may cite."""

    modules: dict[str, list[str]] = field(default_factory=dict)
    """Each module's last part (``engine``) and the dotted names it stands for."""
    top_level: dict[str, str] = field(default_factory=dict)
    """Each class or function defined at a module's top, and that module's dotted name."""
    names: set[str] = field(default_factory=lambda: set(dir(builtins)) | set(keyword.kwlist))
    strings: set[str] = field(default_factory=set)
    docstrings: list[tuple[str, str, str]] = field(default_factory=list)
    """(file, module's dotted name, docstring) of every module, class, function and attribute docstring."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def read_code(sources: dict[Path, str]) -> Code:
    """The vocabulary of ``sources`` (path -> text)."""
    code = Code()
    for path, text in sources.items():
        module = module_name(path)
        code.modules.setdefault(module.rsplit(".", 1)[-1], []).append(module)
        tree = ast.parse(text)
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                code.top_level.setdefault(node.name, module)
        for node in ast.walk(tree):
            code.names.update(_names_of(node))
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                code.strings.add(node.value)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                text_of = ast.get_docstring(node, clean=False)
                if text_of:
                    code.docstrings.append((str(path.relative_to(REPO)), module, text_of))
            elif (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):  # an attribute's docstring, below its assignment
                code.docstrings.append((str(path.relative_to(REPO)), module, node.value.value))
    return code


def _names_of(node: ast.AST) -> Iterator[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield node.name
    elif isinstance(node, ast.arg):
        yield node.arg
    elif isinstance(node, ast.Name):
        yield node.id
    elif isinstance(node, ast.Attribute):
        yield node.attr
    elif isinstance(node, ast.keyword) and node.arg:
        yield node.arg
    elif isinstance(node, ast.alias):
        yield from node.name.split(".")
        if node.asname:
            yield node.asname


def resolves(dotted: str, code: Code) -> bool:
    """Whether ``dotted`` imports and its attributes exist (an attribute only annotated, or set on instances,
    counts when it is the last part and the code uses the name)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for number, attribute in enumerate(parts[cut:], start=cut):
            if hasattr(found, attribute):
                found = getattr(found, attribute)
            else:
                return number == len(parts) - 1 and attribute in code.names
        return True
    return False


def stale(reference: str, module: str, code: Code) -> bool:
    """Whether ``reference``, cited in a docstring of ``module``, names nothing that exists."""
    name = reference.removesuffix("()")
    if name in EXTERNAL or name in code.strings or name in code.modules:
        return False
    if name.startswith("--"):
        return name.split("=")[0] not in code.strings
    if re.fullmatch(r"[A-Za-z_]\w*", name):
        return name not in code.names and not resolves(name, code)
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", name):
        return False  # an expression, a path or a value: not a name
    first, _, rest = name.partition(".")
    if first in EXTERNAL:
        return False
    candidates = [
        name,
        *(f"{dotted}.{rest}" for dotted in code.modules.get(first, [])),
        f"{module.rpartition('.')[0]}.{name}",
    ]
    if first in code.top_level:
        candidates.append(f"{code.top_level[first]}.{name}")
    if any(resolves(candidate, code) for candidate in candidates):
        return False
    variable = first[0].islower() and first in code.names and first not in code.modules
    return not (variable and all(part in code.names for part in rest.split(".")))  # a variable and its attributes


def stale_references(code: Code) -> list[str]:
    return sorted(
        {
            f"{path}: ``{reference}`` names nothing that exists"
            for path, module, text in code.docstrings
            for reference in REFERENCE.findall(text)
            if stale(reference, module, code)
        }
    )


@pytest.fixture(scope="module")
def code() -> Code:
    return read_code(
        {
            path: path.read_text(encoding="utf-8")
            for folder in FOLDERS
            for path in sorted((REPO / folder).rglob("*.py"))
            if "__pycache__" not in path.parts
        }
    )


def test_every_name_a_docstring_cites_exists(code: Code) -> None:
    assert stale_references(code) == []


def test_the_check_catches_a_renamed_function_module_and_option(code: Code) -> None:
    module = REPO / "connectx" / "evaluation" / "example.py"
    text = (
        '"""See ``results_store.check_same_code``, ``results_store.check_old_code``, ``gone_module.run``,\n'
        '``no_such_function()``, ``--allow-code-change`` and ``--no-such-option``."""\n'
    )
    problems = stale_references(_with(code, module, text))
    assert problems == [
        f"connectx/evaluation/example.py: ``{name}`` names nothing that exists"
        for name in ("--no-such-option", "gone_module.run", "no_such_function()", "results_store.check_old_code")
    ]


def _with(code: Code, path: Path, text: str) -> Code:
    """``code`` with the docstrings of one more module (its names left out, so only the real code's count)."""
    extra = read_code({path: text})
    return Code(code.modules, code.top_level, code.names, code.strings, extra.docstrings)
