"""One namespace for many modules: who binds which top-level name, and the renames that keep them apart.

A bundle runs every module in the same globals, so two modules binding one name (negamax's
``make_strategy`` and mcts's, ``dataclasses.field`` and kaggle_boundary's ``field``) would silently
overwrite each other. ``plan_names`` gives every top-level binding a unique final name (the later
module's binding becomes ``<module>_<name>``), and ``rewrite`` applies the renames as edits at
the positions ``ast`` reports, so the emitted code keeps its comments and layout.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

from connectx.submission.module_graph import BuildError, ModuleSource, internal_imports

Identity = tuple[str, ...]
"""What a top-level name is bound to: ("import", module, attribute) for a standard-library import
(two modules importing the same thing do not collide), ("def", module, name) for anything else."""


@dataclass(frozen=True)
class Scopes:
    """The names a module binds at its top level and in its inner scopes, and every ``Name`` node.

    ``analyse`` fills the collections while it walks the module; nothing changes them afterwards.
    """

    top_level: dict[str, Identity] = field(default_factory=dict)
    inner: set[str] = field(default_factory=set)
    unrenamable: set[str] = field(default_factory=set)
    """Names bound where the rewrite cannot follow: ``global``/``nonlocal`` declarations, and
    ``except ... as``/``match`` captures at the top level (their names are not ``Name`` nodes)."""
    names: list[ast.Name] = field(default_factory=list)
    definitions: dict[str, ast.AST] = field(default_factory=dict)
    """Top-level ``def``/``class`` nodes and standard-library import ``alias`` nodes by bound name."""


def analyse(module: ModuleSource, skip: set[int]) -> Scopes:
    """Scopes of ``module``, ignoring the statements whose ``id`` is in ``skip`` (removed imports)."""
    scopes = Scopes()

    def bind(name: str, inner: bool, identity: Identity, node: ast.AST | None = None) -> None:
        if inner:
            scopes.inner.add(name)
        elif not (name.startswith("__") and name.endswith("__")):
            scopes.top_level.setdefault(name, identity)
            if node is not None:
                scopes.definitions.setdefault(name, node)

    def own(name: str) -> Identity:
        return ("def", module.name, name)

    def visit(node: ast.AST, inner: bool) -> None:
        if id(node) in skip:
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name, inner, own(node.name), node)
            outer_parts: list[ast.AST] = list(node.decorator_list)
            if isinstance(node, ast.ClassDef):
                outer_parts += [*node.bases, *node.keywords]
                inner_parts: list[ast.AST] = list(node.body)
            else:
                outer_parts += node.args.defaults + [d for d in node.args.kw_defaults if d is not None]
                annotations = [a.annotation for a in _all_args(node.args) if a.annotation is not None]
                outer_parts += annotations + ([node.returns] if node.returns else [])
                scopes.inner.update(a.arg for a in _all_args(node.args))
                inner_parts = list(node.body)
            for part in outer_parts:
                visit(part, inner)
            for part in inner_parts:
                visit(part, True)
            return
        if isinstance(node, ast.Lambda):
            for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
                visit(default, inner)
            scopes.inner.update(a.arg for a in _all_args(node.args))
            visit(node.body, True)
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            inner = True
        if isinstance(node, ast.Name):
            scopes.names.append(node)
            if isinstance(node.ctx, (ast.Store, ast.Del)):
                bind(node.id, inner, own(node.id))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                local = alias.asname or alias.name.partition(".")[0]
                target = alias.name if alias.asname else local
                bind(local, inner, ("import", target, ""), alias)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                bind(alias.asname or alias.name, inner, ("import", node.module or "", alias.name), alias)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            scopes.unrenamable.update(node.names)
        else:
            captured = _captured_name(node)
            if captured:
                bind(captured, inner, own(captured))
                if not inner:
                    scopes.unrenamable.add(captured)
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    for statement in module.tree.body:
        visit(statement, False)
    return scopes


def _captured_name(node: ast.AST) -> str | None:
    """The name an ``except ... as`` clause or a ``match`` pattern binds, if ``node`` is one."""
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return node.name
    if isinstance(node, ast.MatchMapping):
        return node.rest
    return None


def _all_args(args: ast.arguments) -> list[ast.arg]:
    extra = [a for a in (args.vararg, args.kwarg) if a is not None]
    return [*args.posonlyargs, *args.args, *args.kwonlyargs, *extra]


@dataclass(frozen=True)
class NamePlan:
    """For every module, ``{name as written in it: name in the bundle}`` where the two differ,
    and every module's final name for each of its top-level bindings (what importers resolve to)."""

    renames: dict[str, dict[str, str]]
    exports: dict[str, dict[str, str]]


def plan_names(modules: list[ModuleSource], reserved: dict[str, Identity], skip: dict[str, set[int]]) -> NamePlan:
    """Unique final names for every top-level binding of ``modules`` (given in execution order).

    ``reserved`` names are taken before any module (the bundle's own generated names); every
    builtin is reserved too, so a module defining ``field`` or ``max`` can never shadow a builtin
    another module relies on. The later of two colliding bindings is renamed.
    """
    taken: dict[str, Identity] = {name: ("builtin", name) for name in dir(builtins)}
    taken.update(reserved)
    renames: dict[str, dict[str, str]] = {}
    exports: dict[str, dict[str, str]] = {}
    for module in modules:
        scopes = analyse(module, skip[module.name])
        own_renames: dict[str, str] = {}
        for statement, imported in internal_imports(module):
            for item in imported:
                target = exports.get(item.module, {}).get(item.name)
                if target is None:
                    raise BuildError(
                        f"{module.relative_path}:{statement.lineno}: {item.module} has no top-level "
                        f"name {item.name!r} to import"
                    )
                if target != item.local:
                    own_renames[item.local] = target
        final_names: dict[str, str] = {}
        for name, identity in scopes.top_level.items():
            final = name
            if name in taken and taken[name] != identity:
                final = _free_name(module, name, taken)
                own_renames[name] = final
            taken.setdefault(final, identity)
            final_names[name] = final
        for name in own_renames:
            if name in scopes.inner or name in scopes.unrenamable:
                raise BuildError(
                    f"{module.relative_path}: the top-level name {name!r} must be renamed to {own_renames[name]!r} "
                    f"in the bundle (another bundled module or a builtin uses {name!r}), but {module.name} also "
                    f"binds {name!r} inside a function or class, declares it global, or captures it in an except or "
                    "match clause; rename one of them"
                )
        renames[module.name] = own_renames
        exports[module.name] = final_names
    return NamePlan(renames, exports)


def _free_name(module: ModuleSource, name: str, taken: dict[str, Identity]) -> str:
    private = name.startswith("_")
    base = f"_{module.short_name}{name}" if private else f"{module.short_name}_{name}"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}{number}", number + 1
    return candidate


_DEFINITION = re.compile(rb"(?:async\s+)?(?:def|class)\s+")


def rewrite(module: ModuleSource, renames: dict[str, str], removed: list[ast.stmt]) -> str:
    """``module``'s text with ``removed`` statements cut out and every name in ``renames`` renamed."""
    lines = [line.encode("utf-8") for line in module.text.splitlines(keepends=True)]
    skip = {id(statement) for statement in removed}
    edits: list[tuple[int, int, int, bytes, bytes]] = []
    """(line index, start byte, end byte, expected old text, new text)"""
    if renames:
        scopes = analyse(module, skip)
        for node in scopes.names:
            if node.id in renames:
                edits.append(
                    (
                        node.lineno - 1,
                        node.col_offset,
                        node.end_col_offset or 0,
                        node.id.encode(),
                        renames[node.id].encode(),
                    )
                )
        for name, definition in scopes.definitions.items():
            if name in renames:
                edits.append(_definition_edit(module, definition, name, renames[name], lines))
    for index, start, end, old, new in sorted(set(edits), reverse=True):
        line = lines[index]
        if line[start:end] != old:
            raise BuildError(
                f"{module.relative_path}:{index + 1}: expected {old.decode()!r} at column {start} "
                "while renaming; write that line more plainly (e.g. outside an f-string)"
            )
        lines[index] = line[:start] + new + line[end:]
    for statement in removed:
        end = statement.end_lineno or statement.lineno
        for index in range(statement.lineno - 1, end):
            lines[index] = b""
    return b"".join(lines).decode("utf-8")


def _definition_edit(
    module: ModuleSource, node: ast.AST, name: str, new: str, lines: list[bytes]
) -> tuple[int, int, int, bytes, bytes]:
    """The edit renaming a ``def``/``class`` name or a standard-library import alias."""
    where = f"{module.relative_path}:{getattr(node, 'lineno', 0)}"
    if isinstance(node, ast.alias):
        if "." in node.name and node.asname is None:
            raise BuildError(
                f"{where}: `import {node.name}` binds {name!r}, which collides with another module's "
                f"name; write `import {name}` or rename the other binding"
            )
        end = node.end_col_offset or 0
        return (
            node.lineno - 1,
            node.col_offset,
            end,
            lines[node.lineno - 1][node.col_offset : end],
            f"{node.name} as {new}".encode(),
        )
    assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
    line = lines[node.lineno - 1]
    match = _DEFINITION.match(line, node.col_offset)
    if match is None:
        raise BuildError(
            f"{where}: cannot find the name of {name!r} on its line; keep `def`/`class` and the name together"
        )
    start = match.end()
    return (node.lineno - 1, start, start + len(name.encode()), name.encode(), new.encode())
