"""The submission builder: one self-contained, deterministic file per agent, or a build error that says why.

Fixture trees under ``tmp_path`` stand in for the project where a test needs modules that must
not exist in the real one (a third-party import, colliding names, a non-literal data name).
"""

from __future__ import annotations

import ast
import contextlib
import gc
import io
import json
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from connectx.agents.core.data_files import read_data
from connectx.agents.core.kaggle_boundary import board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.registry import REGISTRY
from connectx.cli.main import main
from connectx.submission.bundler import ENTRY_FUNCTION, build_bundle, build_source, bundle_factory
from connectx.submission.module_graph import BuildError, is_internal


@pytest.fixture(autouse=True)
def collector_given_back() -> Iterator[None]:
    """A bundle freezes the collector's view of the process it runs in, this one included: undo it."""
    yield
    gc.unfreeze()


def kaggle_loader(source: str) -> Any:
    """What Kaggle's loader takes from ``source``: the last callable it binds."""
    from connectx.evaluation.engine import kaggle_environments

    kaggle_environments()
    from kaggle_environments.agent import get_last_callable

    return get_last_callable(source)


def run_bundle(source: str) -> dict[str, Any]:
    """The namespace left by executing ``source`` as Kaggle does: fresh globals, no ``__file__``."""
    namespace: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "<submission>", "exec"), namespace)
    return namespace


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


BASE_FILES = {
    name: textwrap.dedent(text)
    for name, text in {
        "agents/__init__.py": "",
        # The data module sits where the bundler looks for it: connectx.agents.core.data_files.
        "connectx/__init__.py": "",
        "connectx/agents/core/data_files.py": """
        def read_data(name: str) -> bytes:
            raise AssertionError("the bundle must replace this module")
    """,
        # binds ``field`` (dataclasses') and ``helper``; both collide with boundary's below
        "agents/core.py": '''
        """Core."""
        from __future__ import annotations

        from dataclasses import dataclass, field


        @dataclass(frozen=True)
        class Box:
            items: list[int] = field(default_factory=list)


        def helper() -> str:
            return "core"
    ''',
        "agents/boundary.py": """
        from __future__ import annotations

        import random


        def field(record: dict, name: str) -> object:  # shadows dataclasses.field in one namespace
            return record[name]


        def helper() -> str:
            return "boundary"


        def describe(record: dict) -> tuple:
            return helper(), field(record, "a")
    """,
        "agents/toy.py": '''
        """A toy agent using both modules and a data file."""
        from __future__ import annotations

        from agents.boundary import describe, field, helper
        from agents.core import Box, helper as core_helper
        from connectx.agents.core.data_files import read_data

        TABLE_NAME = "table.bin"


        class Toy:
            def __init__(self, column: int) -> None:
                self.column = column

            def facts(self) -> tuple:
                return (core_helper(), helper(), field({"a": 1}, "a"), describe({"a": 2}), Box().items,
                        read_data("table.bin"))

            def __call__(self, observation, configuration) -> int:
                return self.column

            def count_first_move_from(self, started_at: float) -> None:
                self.started_at = started_at


        def make_agent(column: int = 0) -> Toy:
            return Toy(column)
    ''',
    }.items()
}


def build_fixture(root: Path, extra: dict[str, str] | None = None, module: str = "agents.toy") -> str:
    write_tree(root, {**BASE_FILES, **(extra or {})})
    data = {"table.bin": bytes(range(256)) * 40}
    return bundle_factory("toy", module, "make_agent", {"column": 3}, root=root, read=data.__getitem__).source


def test_modules_share_one_namespace_without_clobbering_each_other(tmp_path: Path) -> None:
    source = build_fixture(tmp_path)
    namespace = run_bundle(source)
    facts = namespace["new_agent"]().facts()
    assert facts == ("core", "boundary", 1, ("boundary", 2), [], bytes(range(256)) * 40)
    # toy imports boundary first, so boundary keeps the names and core's bindings are renamed
    assert namespace["helper"]() == "boundary" and namespace["core_helper"]() == "core"
    assert namespace["core_field"].__module__ == "dataclasses"
    assert "# shadows dataclasses.field in one namespace" in source, "comments survive the rewrite"


def test_the_entry_function_is_what_kaggles_loader_takes_and_parameters_are_baked_in(tmp_path: Path) -> None:
    source = build_fixture(tmp_path)
    entry = kaggle_loader(source)
    assert entry.__name__ == ENTRY_FUNCTION
    assert entry({"board": [0] * 42, "mark": 1}, {}) == 3


def test_imports_of_our_modules_are_gone_and_future_imports_lead(tmp_path: Path) -> None:
    tree = ast.parse(build_fixture(tmp_path))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    assert not [name for name in imported if name and is_internal(name, tmp_path)]
    assert isinstance(tree.body[1], ast.ImportFrom) and tree.body[1].module == "__future__"
    assert imported.count("__future__") == 1


def test_a_third_party_import_fails_the_build_naming_it_and_its_module(tmp_path: Path) -> None:
    extra = {"agents/core.py": BASE_FILES["agents/core.py"] + "\nimport numpy\n"}
    with pytest.raises(BuildError, match=r"agents/core\.py:\d+ imports 'numpy'"):
        build_fixture(tmp_path, extra)


def test_a_third_party_import_inside_a_function_fails_too(tmp_path: Path) -> None:
    extra = {
        "agents/boundary.py": BASE_FILES["agents/boundary.py"]
        + "\n\ndef plot() -> None:\n    from matplotlib import pyplot\n"
    }
    with pytest.raises(BuildError, match="'matplotlib'"):
        build_fixture(tmp_path, extra)


def test_a_non_literal_data_name_fails_the_build(tmp_path: Path) -> None:
    toy = BASE_FILES["agents/toy.py"].replace('read_data("table.bin")', 'read_data("table" + ".bin")')
    expected = r"agents/toy\.py:\d+: read_data\(\.\.\.\) must be called with one string literal"
    with pytest.raises(BuildError, match=expected):
        build_fixture(tmp_path, {"agents/toy.py": toy})


def test_a_data_name_held_in_a_module_constant_is_embedded(tmp_path: Path) -> None:
    toy = BASE_FILES["agents/toy.py"].replace('read_data("table.bin")', "read_data(TABLE_NAME)")
    namespace = run_bundle(build_fixture(tmp_path, {"agents/toy.py": toy}))
    assert namespace["new_agent"]().facts()[-1] == bytes(range(256)) * 40


def test_a_data_name_from_a_constant_that_is_rebound_fails_the_build(tmp_path: Path) -> None:
    toy = BASE_FILES["agents/toy.py"].replace('read_data("table.bin")', "read_data(TABLE_NAME)")
    toy += '\nTABLE_NAME = "other.bin"\n'
    with pytest.raises(BuildError, match="must be called with one string literal"):
        build_fixture(tmp_path, {"agents/toy.py": toy})


@pytest.mark.parametrize(
    "line, message",
    [
        ("import agents.core", "cannot be bundled"),
        ("from agents import core", "imports modules by name"),
        ("HERE = __file__", "uses __file__"),
    ],
)
def test_code_that_cannot_live_in_one_file_fails_the_build(tmp_path: Path, line: str, message: str) -> None:
    toy = BASE_FILES["agents/toy.py"] + f"\n{line}\n"
    with pytest.raises(BuildError, match=message):
        build_fixture(tmp_path, {"agents/toy.py": toy})


def test_a_name_that_must_be_renamed_but_is_also_local_fails_clearly(tmp_path: Path) -> None:
    core = BASE_FILES["agents/core.py"] + "\n\ndef local_helper(helper: int) -> int:\n    return helper\n"
    with pytest.raises(BuildError, match=r"agents/core\.py: the top-level name 'helper' must be renamed"):
        build_fixture(tmp_path, {"agents/core.py": core})


def test_relative_imports_are_followed(tmp_path: Path) -> None:
    toy = BASE_FILES["agents/toy.py"].replace("from agents.core import", "from .core import")
    namespace = run_bundle(build_fixture(tmp_path, {"agents/toy.py": toy}))
    assert namespace["new_agent"]().facts()[0] == "core"


def test_the_output_is_deterministic() -> None:
    assert build_source("negamax:depth=3") == build_source("negamax:depth=3")


def test_the_command_writes_byte_identical_files(tmp_path: Path) -> None:
    first, second = tmp_path / "a.py", tmp_path / "b" / "submission.py"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", "negamax:depth=2", "-o", str(first)]) == 0
        assert main(["build", "negamax:depth=2", "-o", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()


def test_the_command_reports_a_bad_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "no-such-agent"]) == 2
    assert "unknown agent 'no-such-agent'" in capsys.readouterr().err


def test_parameters_from_the_spec_are_baked_in() -> None:
    namespace = run_bundle(build_source("negamax:depth=2,seed=5"))
    assert namespace["BUILT_FROM"] == "negamax:depth=2,seed=5"
    strategy = namespace["new_agent"]().strategy
    assert (strategy.depth, strategy.seed) == (2, 5)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_agent_builds_into_a_file_kaggle_can_load(name: str) -> None:
    bundle = build_bundle(f"{name}:seed=1", allow_missing_data=True)
    entry = kaggle_loader(bundle.source)
    assert entry.__name__ == ENTRY_FUNCTION
    position = Position.from_moves("4444")
    observation = {"board": board_of(position), "mark": mark_of(position), "remainingOverageTime": 10}
    column = entry(observation, {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 0.5})
    assert type(column) is int and column in position.legal_columns()


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_data_file_an_agent_reads_is_embedded_intact(name: str) -> None:
    bundle = build_bundle(name, allow_missing_data=True)
    namespace = run_bundle(bundle.source)
    for data_name in bundle.data_files:
        assert namespace["read_data"](data_name) == read_data(data_name)
    for data_name in bundle.missing_data:
        with pytest.raises(FileNotFoundError):
            read_data(data_name)
        with pytest.raises(FileNotFoundError, match="missing when this submission was built"):
            namespace["read_data"](data_name)


def test_a_missing_data_file_fails_the_build_unless_allowed(tmp_path: Path) -> None:
    write_tree(tmp_path, BASE_FILES)

    def nothing(name: str) -> bytes:
        raise FileNotFoundError(name)

    with pytest.raises(BuildError, match="'table.bin', read by the agent, is missing"):
        bundle_factory("toy", "agents.toy", "make_agent", {}, root=tmp_path, read=nothing)
    bundle = bundle_factory("toy", "agents.toy", "make_agent", {}, root=tmp_path, read=nothing, allow_missing_data=True)
    assert bundle.missing_data == ("table.bin",) and bundle.data_files == ()
    with pytest.raises(FileNotFoundError, match="table.bin was missing"):
        run_bundle(bundle.source)["new_agent"]().facts()


def test_the_first_move_clock_starts_when_loading_starts(tmp_path: Path) -> None:
    """Kaggle counts loading the file against the first move, so the agent is told when it began."""
    before = time.perf_counter()
    namespace = run_bundle(build_fixture(tmp_path))
    assert before <= namespace["_submission_agent"].started_at == namespace["LOADING_STARTED_AT"] <= time.perf_counter()


COLLECTOR_AFTER_LOADING = """
import gc, json, sys

namespace = {}
with open(sys.argv[1], encoding="utf-8") as handle:
    exec(compile(handle.read(), "submission.py", "exec"), namespace)
frozen_at_load = gc.get_freeze_count()
column = namespace["agent"]({"board": [0] * 42, "mark": 1, "remainingOverageTime": 60},
                            {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2.0})
book = namespace["_submission_agent"].strategy._book
held = [item for item in gc.get_referents(book) if gc.is_tracked(item)]
scanned = {id(item) for item in gc.get_objects()}
print(json.dumps({"frozen_at_load": frozen_at_load, "column": column, "entries": len(book), "held": len(held),
                  "book_scanned": any(id(item) in scanned for item in [book, *held]), "enabled": gc.isenabled()}))
"""


def test_the_bundle_keeps_what_it_loads_and_its_book_out_of_the_collectors_scans(tmp_path: Path) -> None:
    """Loading freezes what is loaded; the first move decodes the book, and the move's end freezes that too."""
    path = tmp_path / "submission.py"
    path.write_text(build_source("solver"))
    completed = subprocess.run(
        [sys.executable, "-I", "-S", "-c", COLLECTOR_AFTER_LOADING, str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    facts = json.loads(completed.stdout)
    assert facts["frozen_at_load"] > 0
    assert facts["column"] == 3 and facts["entries"] > 100_000, "the first move must come from the book"
    assert facts["held"] >= 1 and not facts["book_scanned"]
    assert facts["enabled"], "freezing must not leave the collector off"


def test_only_our_packages_are_ours_where_they_are_installed() -> None:
    """Installed from a wheel, our packages sit in site-packages beside everyone else's: those stay external."""
    assert is_internal("connectx.agents.core.position") and is_internal("connectx.submission.bundler")
    assert is_internal("connectx")
    assert not is_internal("numpy") and not is_internal("kaggle_environments") and not is_internal("benchmarks")
