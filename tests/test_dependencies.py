"""A dependency a command imports but the installed package cannot is one line naming its install, not a traceback;
one only other commands import is never asked for.

The modules are made unimportable for real: a fresh interpreter whose import system refuses them
(a finder first on ``sys.meta_path``) runs the command line's ``main``. Which declared dependencies
each command needs is checked against what its modules import (parsed, a function's own imports
included). tests/test_wheel_install.py runs the commands where only kaggle-environments and numpy
are installed; tests/test_oldest_dependencies.py where the wheel alone is.
"""

from __future__ import annotations

import ast
import importlib.metadata
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from connectx.cli import main, progress
from connectx.cli.dependencies import (
    declared_requirements,
    distribution_name,
    floors,
    import_name,
    problem_lines,
    release,
    requirements,
    unmet,
)

REPOSITORY = Path(__file__).resolve().parent.parent
DECLARED = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["project"]["dependencies"]
OPTIONAL = {progress.BAR, progress.FIGURES}
"""What a command that reaches ``connectx.cli.progress`` uses where it is installed and does without."""
OTHERS = sorted(
    import_name(requirement) for requirement in DECLARED if distribution_name(requirement) not in main.NEEDS
)
"""The modules of the declared dependencies beyond the command line's own: a Kaggle image may lack any of them."""

BLOCKED_RUN = textwrap.dedent("""
    import sys

    REFUSED = sys.argv[1].split(",")

    class Refuse:
        '''A finder that makes the modules named in the first argument unimportable.'''
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in REFUSED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Refuse())
    from connectx.cli.main import main
    sys.exit(main(sys.argv[2:]))
""")
PLAY = ("play", "random", "kaggle:random", "--json", "game.json")


def run_without(modules: list[str], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """``connectx ARGV`` (by default a game written to game.json) in ``cwd``, in a fresh interpreter that cannot
    import ``modules``."""
    return subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN, ",".join(modules), *(argv or PLAY)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def source_of(module: str) -> Path | None:
    """The file of ``module`` if it is a module or package of the connectx source tree, else None."""
    parts = module.split(".")
    if parts[0] != "connectx":
        return None
    for path in (REPOSITORY.joinpath(*parts).with_suffix(".py"), REPOSITORY.joinpath(*parts, "__init__.py")):
        if path.is_file():
            return path
    return None


def is_type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:``, whose imports are the type checker's and never run."""
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(module: str) -> set[str]:
    """Every name ``module`` of ours imports, at its top or in a function, its type checker's imports left out;
    ``from a import b`` gives ``a`` and ``a.b`` (``b`` may be a module)."""
    path = source_of(module)
    assert path is not None, module
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: set[str] = set()
    todo: list[ast.AST] = [ast.parse(path.read_text())]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            within = package[: len(package) - node.level + 1] if node.level else []
            base = ".".join([*within, *([node.module] if node.module else [])])
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        todo += [child for child in ast.iter_child_nodes(node) if not is_type_checking(child)]
    return found


def reached(module: str) -> set[str]:
    """``module`` and every module of ours it may import, in turn, with the packages that hold them."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for imported in imports_of(name):
            parts = imported.split(".")
            todo += [prefix for end in range(1, len(parts) + 1) if source_of(prefix := ".".join(parts[:end]))]
    return seen


def dependencies_imported(modules: set[str]) -> set[str]:
    """The declared dependencies (distribution names; an extra's left out) that ``modules`` import."""
    roots = {name.split(".")[0] for module in modules for name in imports_of(module)}
    return {
        distribution_name(requirement) for requirement in declared_requirements() if import_name(requirement) in roots
    }


def declared(name: str) -> str:
    [requirement] = [requirement for requirement in DECLARED if distribution_name(requirement) == name]
    return requirement


def test_the_installed_metadata_declares_what_pyproject_declares() -> None:
    """The check reads the installed metadata, so it follows pyproject.toml (after `make install`) without a copy."""
    assert declared_requirements() == [requirement.replace(" ", "") for requirement in DECLARED]
    assert not [requirement for requirement in declared_requirements() if "distributed" in requirement], (
        "the cluster extra is optional: --cluster says when it is missing"
    )


def test_each_requirement_installs_the_module_the_check_looks_for() -> None:
    """The check knows a missing distribution only by its name: each of ours installs a package of that name."""
    for requirement in declared_requirements():
        files = importlib.metadata.files(distribution_name(requirement)) or []
        assert any(str(file).startswith(f"{import_name(requirement)}/") for file in files), requirement


def test_nothing_is_missing_in_the_project_environment() -> None:
    assert problem_lines(declared_requirements()) == []


def test_the_command_line_needs_what_it_imports_itself() -> None:
    """kaggle-environments and numpy, nothing else: with them every command module loads (``connectx --help``)."""
    assert dependencies_imported(reached("connectx.cli.main")) == set(main.NEEDS)
    assert len(requirements(main.NEEDS)) == len(main.NEEDS)
    assert OTHERS == ["matplotlib", "openskill", "starlette", "tqdm", "uvicorn"]


@pytest.mark.parametrize("command", main.COMMANDS)
def test_each_command_needs_what_its_modules_import(command: str) -> None:
    """A command's ``NEEDS`` is what its modules import beyond the command line's own, less the live bar and the
    figures, which a run of games does without (``connectx.cli.progress``)."""
    modules = reached(f"connectx.cli.{command}")
    optional = OPTIONAL if "connectx.cli.progress" in modules else set()
    imported = dependencies_imported(modules) - set(main.NEEDS) - optional
    assert imported == set(getattr(main.command_module(command), "NEEDS", ())), command


def test_the_parse_sees_an_import_in_a_function_but_not_one_for_type_checkers() -> None:
    assert "connectx.play.http_app" in imports_of("connectx.cli.serve")  # inside run()
    assert "connectx.evaluation.ladder" not in imports_of("connectx.evaluation.results_text")
    assert {"starlette", "uvicorn"} <= dependencies_imported(reached("connectx.cli.serve"))


def test_a_missing_dependency_is_one_line_naming_its_pip_install(tmp_path: Path) -> None:
    done = run_without(["numpy"], tmp_path)
    assert done.returncode == 2
    assert done.stderr == f'connectx play: numpy is not installed: pip install "{declared("numpy")}"\n'
    assert done.stdout == "" and not (tmp_path / "game.json").exists()


def test_every_missing_dependency_has_its_line_in_declared_order(tmp_path: Path) -> None:
    done = run_without(["numpy", "kaggle_environments"], tmp_path, "--version")
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f'connectx: kaggle-environments is not installed: pip install "{declared("kaggle-environments")}"',
        f'connectx: numpy is not installed: pip install "{declared("numpy")}"',
    ]
    done = run_without(["uvicorn", "starlette"], tmp_path, "serve", "--port", "0")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        f'connectx serve: starlette is not installed: pip install "{declared("starlette")}"',
        f'connectx serve: uvicorn is not installed: pip install "{declared("uvicorn")}"',
    ]


def test_a_command_is_not_held_back_by_what_only_others_import(tmp_path: Path) -> None:
    done = run_without(OTHERS, tmp_path)
    assert done.returncode == 0 and (tmp_path / "game.json").is_file(), done.stderr
    listed = run_without(OTHERS, tmp_path, "--help")
    assert listed.returncode == 0 and all(command in listed.stdout for command in main.COMMANDS), listed.stderr
    ladder = run_without(OTHERS, tmp_path, "ladder", "random", "--pool", "none")
    assert ladder.returncode == 2 and ladder.stdout == ""
    assert ladder.stderr == f'connectx ladder: openskill is not installed: pip install "{declared("openskill")}"\n'


@pytest.mark.games
def test_a_match_without_the_bar_and_the_figures_writes_its_games_and_report(tmp_path: Path) -> None:
    done = run_without(
        [progress.BAR, progress.FIGURES],
        tmp_path,
        "match",
        "random",
        "kaggle:random",
        "-n",
        "2",
        "--jobs",
        "1",
        "--out",
        "match",
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    *_, last_game, skipped = done.stderr.splitlines()
    assert last_game.startswith("2/2 games: ")
    assert skipped == (
        f'connectx match: figures skipped; matplotlib is not installed: pip install "{declared("matplotlib")}"'
    )
    out = tmp_path / "match"
    assert (out / "games.jsonl").read_text().count("\n") == 2 and json.loads((out / "summary.json").read_text())
    assert "| total |" in (out / "report.md").read_text() and "![" not in (out / "report.md").read_text()
    assert not list(out.glob("*.png")) and "| total |" in done.stdout


def test_only_the_named_distributions_are_checked() -> None:
    assert requirements(["numpy", "no-such-distribution"]) == [declared("numpy").replace(" ", "")]
    assert unmet(["numpy"]) == [] and unmet([]) == []


@pytest.mark.parametrize(
    "requirement, name, module",
    [
        ("kaggle-environments>=1.9.7", "kaggle-environments", "kaggle_environments"),
        ("Some.Package>=2", "Some.Package", "some_package"),
        ("numpy", "numpy", "numpy"),
    ],
)
def test_a_requirement_names_its_distribution_and_module(requirement: str, name: str, module: str) -> None:
    assert distribution_name(requirement) == name and import_name(requirement) == module


def test_a_module_the_interpreter_finds_is_not_missing() -> None:
    assert problem_lines(["json>=0", "no_such_module_here>=1.0"]) == [
        'no_such_module_here is not installed: pip install "no_such_module_here>=1.0"'
    ]


def test_an_installed_version_below_the_floor_is_named_with_its_install() -> None:
    numpy = importlib.metadata.version("numpy")
    assert problem_lines([f"numpy>={numpy}"]) == []
    assert problem_lines([f"numpy>={numpy}.1"]) == [
        f'numpy {numpy} is older than connectx needs: pip install "numpy>={numpy}.1"'
    ]


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


def test_the_notebook_and_the_install_page_give_the_same_install_and_file_names() -> None:
    """What a Kaggle user copies from either: the wheel installed offline alone, and the file built and validated."""
    notebook = json.loads((REPOSITORY / "examples" / "connectx_tour.ipynb").read_text())
    code = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    [install] = [line.removeprefix("# ") for cell in code for line in cell.splitlines() if "pip install" in line]
    assert install.startswith("!pip install --no-index --no-deps /kaggle/input/"), install
    for page in (REPOSITORY / "docs" / "kaggle.md", REPOSITORY / "README.md"):
        assert install in [line.strip() for line in page.read_text().splitlines()], page
    built = re.search(r'"build", "[^"]+", "-o", "([^"]+)"', code[-1])
    command = re.search(
        r"!connectx build \S+ -o (\S+) && connectx validate (\S+)", (REPOSITORY / "docs" / "kaggle.md").read_text()
    )
    assert built is not None and command is not None and command.groups() == (built[1], built[1])


def test_validate_asks_for_the_declared_kaggle_environments() -> None:
    """The validator's missing-dependency line keeps its own copy of the floor (its layer may not read the
    command line's check): it must be pyproject's."""
    from connectx.submission.validator import KAGGLE_ENVIRONMENTS_REQUIREMENT

    assert KAGGLE_ENVIRONMENTS_REQUIREMENT == declared("kaggle-environments").replace(" ", "")
