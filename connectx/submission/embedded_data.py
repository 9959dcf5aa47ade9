"""Data files inside the bundle: which ones an agent reads, and the ``read_data`` that serves them.

Agents read data only through ``connectx.agents.core.data_files.read_data("name")``. The builder finds the
names by parsing those calls, so each name must be a string literal (or a module constant
assigned one, once), and replaces the module with generated source holding each file
zlib-compressed and base64-encoded, decoded on each call (agents cache what they decode).
"""

from __future__ import annotations

import ast
import base64
import zlib
from collections.abc import Callable
from pathlib import Path

from connectx.submission.module_graph import BuildError, ModuleSource, internal_imports

DATA_MODULE = "connectx.agents.core.data_files"
READ_FUNCTION = "read_data"
EMBEDDED_NAME = "_EMBEDDED_DATA"
"""The generated module's dictionary of file names to their compressed, encoded bytes."""
LINE_WIDTH = 96
"""Characters of base64 per source line, so the bundle stays readable in an editor."""


def data_names(modules: list[ModuleSource]) -> list[str]:
    """Every name passed to ``read_data`` in ``modules``, sorted; BuildError for a non-literal name."""
    names: set[str] = set()
    for module in modules:
        readers = {
            item.local
            for _, imported in internal_imports(module)
            for item in imported
            if item.module == DATA_MODULE and item.name == READ_FUNCTION
        }
        if not readers:
            continue
        constants = literal_constants(module)
        called: set[int] = set()
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in readers:
                called.add(id(node.func))
                argument = node.args[0] if len(node.args) == 1 and not node.keywords else None
                if isinstance(argument, ast.Name) and argument.id in constants:
                    argument = constants[argument.id]
                if not (isinstance(argument, ast.Constant) and isinstance(argument.value, str)):
                    raise BuildError(
                        f"{module.relative_path}:{node.lineno}: {node.func.id}(...) must be called with one string "
                        'literal, e.g. read_data("opening_book_7x6x4.bin"), or a module constant assigned one '
                        "once: the builder embeds the files it can name by reading the source"
                    )
                names.add(argument.value)
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Name) and node.id in readers and id(node) not in called:
                raise BuildError(
                    f"{module.relative_path}:{node.lineno}: {node.id} is used without being called; "
                    "call it directly with a string literal so the builder can find the data it reads"
                )
    return sorted(names)


def literal_constants(module: ModuleSource) -> dict[str, ast.Constant]:
    """Top-level names assigned a string literal and never bound again: as static as the literal."""
    assigned: dict[str, int] = {}
    for node in ast.walk(module.tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            assigned[node.id] = assigned.get(node.id, 0) + 1
    constants = {}
    for statement in module.tree.body:
        if (
            isinstance(statement, (ast.Assign, ast.AnnAssign))
            and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str)
        ):
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name) and assigned.get(target.id) == 1:
                    constants[target.id] = statement.value
    return constants


def read_files(
    names: list[str], read: Callable[[str], bytes], allow_missing: bool = False
) -> tuple[dict[str, bytes], list[str]]:
    """The bytes of each data file in ``names``, and the names of those that do not exist.

    A missing file is a BuildError unless ``allow_missing``: then the bundle behaves as the agent
    does without the file (its ``read_data`` raises FileNotFoundError for it, as ours would).
    """
    files: dict[str, bytes] = {}
    missing: list[str] = []
    for name in names:
        try:
            files[name] = read(name)
        except FileNotFoundError as error:
            if not allow_missing:
                raise BuildError(
                    f"data file {name!r}, read by the agent, is missing ({error}): generate or restore "
                    "it before building, or build with --allow-missing-data to ship the agent "
                    "without it"
                ) from None
            missing.append(name)
        except OSError as error:
            raise BuildError(f"data file {name!r}, read by the agent, cannot be read: {error}") from None
    return files, missing


def embedded_module(files: dict[str, bytes], missing: list[str], root: Path) -> ModuleSource:
    """Generated source standing in for ``connectx.agents.core.data_files``, serving ``files`` and not ``missing``."""
    entries = []
    for name, data in sorted(files.items()):
        encoded = base64.b64encode(zlib.compress(data, 9)).decode("ascii")
        chunks = [encoded[i : i + LINE_WIDTH] for i in range(0, len(encoded), LINE_WIDTH)] or [""]
        body = "\n".join(f'        "{chunk}"' for chunk in chunks)
        entries.append(
            f"    # {name}: {len(data)} bytes, {len(encoded)} characters compressed\n    {name!r}: (\n{body}\n    ),\n"
        )
    text = (
        '"""The data files the agent reads, embedded by the submission builder (zlib, then base64)."""\n'
        "\n"
        "import base64\n"
        "import zlib\n"
        "\n"
        f"{EMBEDDED_NAME} = {{\n" + "".join(entries) + "}\n"
        f"_MISSING_DATA = {tuple(sorted(missing))!r}\n"
        '"""Files the agent reads that did not exist at build time: it plays as it does without them."""\n'
        "\n"
        "\n"
        "def read_data(name: str) -> bytes:\n"
        '    """The bytes ``agents/data/<name>`` held when this file was built."""\n'
        "    if name in _MISSING_DATA:\n"
        '        raise FileNotFoundError(f"agents/data/{name} was missing when this submission was built")\n'
        f"    if name not in {EMBEDDED_NAME}:\n"
        '        raise FileNotFoundError(f"{name} is not embedded in this submission: read it with a literal "\n'
        "                                \"name, read_data('...'), so the builder embeds it, and rebuild\")\n"
        f"    return zlib.decompress(base64.b64decode({EMBEDDED_NAME}[name]))\n"
    )
    path = DATA_MODULE.replace(".", "/") + ".py (generated: embedded data)"
    return ModuleSource(DATA_MODULE, path, text, ast.parse(text), root)


def embedded_files(source: str) -> dict[str, bytes]:
    """The data files a built submission's text embeds, by name, read back without running it (empty for
    any other file)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return {}
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and [getattr(target, "id", None) for target in node.targets] == [EMBEDDED_NAME]
        ):
            files = {}
            for key, value in zip(node.value.keys, node.value.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(value, ast.Constant) and isinstance(value.value, str):
                    files[str(key.value)] = zlib.decompress(base64.b64decode(value.value))
            return files
    return {}
