"""A dependency the installed package declares but cannot import is one line naming its install, not a traceback.

The modules are made unimportable for real: a fresh interpreter whose import system refuses them
(a finder first on ``sys.meta_path``) runs the command line's ``main``. tests/test_oldest_dependencies.py
does the same with an environment that holds the wheel and nothing else.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from connectx.cli.dependencies import (
    declared_requirements,
    distribution_name,
    floors,
    import_name,
    problem_lines,
    release,
)

REPOSITORY = Path(__file__).resolve().parent.parent
DECLARED = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["dependencies"]

BLOCKED_RUN = textwrap.dedent("""
    import sys

    class Refuse:
        '''A finder that makes the modules named on the command line unimportable.'''
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in sys.argv[1:]:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    from connectx.cli.main import main
    sys.exit(main(["play", "random", "kaggle:random", "--json", "game.json"]))
""")


def run_without(modules: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``connectx play ... --json game.json`` in ``cwd``, in a fresh interpreter that cannot import ``modules``."""
    return subprocess.run([sys.executable, "-c", BLOCKED_RUN, *modules], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def declared(name: str) -> str:
    [requirement] = [requirement for requirement in DECLARED if distribution_name(requirement) == name]
    return requirement


def test_the_installed_metadata_declares_what_pyproject_declares() -> None:
    """The check reads the installed metadata, so it follows pyproject.toml (after `make install`) without a copy."""
    assert declared_requirements() == [requirement.replace(" ", "") for requirement in DECLARED]
    assert not [requirement for requirement in declared_requirements() if "distributed" in requirement], \
        "the cluster extra is optional: --cluster says when it is missing"


def test_each_requirement_installs_the_module_the_check_looks_for() -> None:
    """The check knows a missing distribution only by its name: each of ours installs a package of that name."""
    for requirement in declared_requirements():
        files = importlib.metadata.files(distribution_name(requirement)) or []
        assert any(str(file).startswith(f"{import_name(requirement)}/") for file in files), requirement


def test_nothing_is_missing_in_the_project_environment() -> None:
    assert problem_lines(declared_requirements()) == []


def test_a_missing_dependency_is_one_line_naming_its_pip_install(tmp_path: Path) -> None:
    done = run_without(["numpy"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == f'connectx: numpy is not installed: pip install "{declared("numpy")}"\n'
    assert done.stdout == "" and not (tmp_path / "game.json").exists()


def test_every_missing_dependency_has_its_line_in_declared_order(tmp_path: Path) -> None:
    done = run_without(["openskill", "kaggle_environments"], tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f'connectx: kaggle-environments is not installed: pip install "{declared("kaggle-environments")}"',
        f'connectx: openskill is not installed: pip install "{declared("openskill")}"',
    ]


@pytest.mark.parametrize("requirement, name, module", [
    ("kaggle-environments>=1.9.7", "kaggle-environments", "kaggle_environments"),
    ("Some.Package>=2", "Some.Package", "some_package"),
    ("numpy", "numpy", "numpy"),
])
def test_a_requirement_names_its_distribution_and_module(requirement: str, name: str, module: str) -> None:
    assert distribution_name(requirement) == name and import_name(requirement) == module


def test_a_module_the_interpreter_finds_is_not_missing() -> None:
    assert problem_lines(["json>=0", "no_such_module_here>=1.0"]) == [
        'no_such_module_here is not installed: pip install "no_such_module_here>=1.0"']


def test_an_installed_version_below_the_floor_is_named_with_its_install() -> None:
    numpy = importlib.metadata.version("numpy")
    assert problem_lines([f"numpy>={numpy}"]) == []
    assert problem_lines([f"numpy>={numpy}.1"]) == [
        f'numpy {numpy} is older than connectx needs: pip install "numpy>={numpy}.1"']


@pytest.mark.parametrize("older, newer", [("1.26", "2.0"), ("1.9.7", "1.33.2"), ("1.26rc1", "1.26.1"), ("3.9", "3.10")])
def test_releases_compare_by_their_numbers(older: str, newer: str) -> None:
    assert release(older) < release(newer)


def test_a_release_ignores_trailing_zeros_and_suffixes() -> None:
    assert release("1.26") == release("1.26.0") == release("1.26.0.post1") == (1, 26)


def test_only_the_floors_are_compared() -> None:
    assert floors("numpy>=1.26,<3") == ["1.26"] and floors("numpy") == [] and floors("py7zr>=0.20") == ["0.20"]


def test_the_install_page_gives_each_declared_floor() -> None:
    """docs/kaggle.md's table of oldest versions follows pyproject.toml, the cluster extra's included."""
    page = (REPOSITORY / "docs" / "kaggle.md").read_text()
    extras = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for requirement in [*DECLARED, *(requirement for group in extras.values() for requirement in group)]:
        [floor] = floors(requirement)
        assert f"| `{distribution_name(requirement)}` | {floor} |" in page, requirement
    assert f"`{declared('kaggle-environments')}`" in (REPOSITORY / "README.md").read_text()


def test_validate_asks_for_the_declared_kaggle_environments() -> None:
    """The validator's missing-dependency line keeps its own copy of the floor (its layer may not read the
    command line's check): it must be pyproject's."""
    from connectx.submission.validator import KAGGLE_ENVIRONMENTS_REQUIREMENT

    assert KAGGLE_ENVIRONMENTS_REQUIREMENT == declared("kaggle-environments").replace(" ", "")
