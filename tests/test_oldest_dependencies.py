"""The oldest versions the package declares work, installed as a Kaggle notebook without internet installs the wheel.

pyproject.toml declares ranges and the rest of the suite runs on the locked, newest versions. Here an
environment stands for a Kaggle notebook's image: it holds every declared dependency, the cluster
extra's too, at its floor (uv's ``--resolution lowest-direct``), and the wheel goes in the way
docs/kaggle.md tells a notebook to install it, ``pip install --no-index --no-deps``, offline. The
commands then play a game against kaggle's random and replay it, play a match on a local cluster
with its figures, rate a ladder, analyse a game, build and validate a submission; and the tests of
Kaggle's engine, the page's server and the statistics run against those versions. A second
environment holds the wheel and no dependency but one too old: the command line names each install
it needs (tests/test_wheel_install.py has the image with kaggle-environments and numpy alone).
"""

from __future__ import annotations

import email.parser
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from connectx.cli.dependencies import distribution_name, floors, release
from connectx.cli.main import NEEDS

REPOSITORY = Path(__file__).resolve().parent.parent
UV = REPOSITORY / ".tools" / "bin" / "uv"
LEFT_OUT = (".git", ".venv", ".tools", "out", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "reports")
"""What the copy the wheel is built from leaves out: environments, caches and results, never a package's file."""

SUITE_ON_THE_FLOORS = (
    "test_game.py",
    "test_kaggle_boundary.py",
    "test_play_server.py",
    "test_statistics.py",
    "test_hypothesis_tests.py",
    "test_statistics_reference.py",
    "test_clustered_scores.py",
)
"""The tests run again on the oldest versions: Kaggle's engine and viewer, starlette and uvicorn, numpy's statistics."""

CUT_ON_THE_FLOORS = ("test_game.py::test_a_faulty_agent_loses_with_its_cause[crashes-ERROR-boom]",)
"""Left out there: before kaggle-environments 1.17.11 an agent's error output is cut to its first 1,024 characters, so
the record of an agent that raised still says ERROR and whose, but its detail may lose the traceback's last line."""

pytestmark = [
    pytest.mark.games,
    pytest.mark.skipif(not UV.exists(), reason="no .tools/bin/uv: run `make install` first"),
]

Installed = tuple[Path, dict[str, str]]
"""``(bin directory, environment variables)`` of an environment the commands run in."""


def uv(*arguments: str) -> str:
    """``uv ARGUMENTS`` with no interpreter downloaded and no project environment in the way; its output."""
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run([str(UV), *arguments], env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"uv {' '.join(arguments)}: exit {done.returncode}\n{done.stderr}"
    return done.stdout + done.stderr


def environment(base: Path) -> Installed:
    """A fresh environment in ``base/venv`` (pip in it, as in a notebook) and the variables its commands run with."""
    venv = base / "venv"
    uv("venv", "--seed", "--python", sys.executable, str(venv))
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(CONNECTX_CACHE_DIR=str(base / "cache"), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return venv / "bin", env


def requirements_of(wheel: Path, *, extras: bool = True) -> list[str]:
    """The requirements the wheel declares, an extra's without its marker (``distributed>=2024.8``) or left out."""
    with zipfile.ZipFile(wheel) as archive:
        [name] = [name for name in archive.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = email.parser.Parser().parsestr(archive.read(name).decode())
    declared = metadata.get_all("Requires-Dist", [])
    return [requirement.split(";")[0].strip() for requirement in declared if extras or ";" not in requirement]


def connectx(installed: Installed, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    bin_directory, env = installed
    return subprocess.run(
        [str(bin_directory / "connectx"), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def succeeds(installed: Installed, cwd: Path, *argv: str) -> str:
    """``connectx ARGV``'s output; the test fails on a non-zero exit."""
    done = connectx(installed, cwd, *argv)
    assert done.returncode == 0, f"connectx {' '.join(argv)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("wheel")
    shutil.copytree(REPOSITORY, base / "source", ignore=shutil.ignore_patterns(*LEFT_OUT), symlinks=True)
    uv("build", "--wheel", "--out-dir", str(base / "dist"), str(base / "source"))
    [built] = (base / "dist").glob("connectx-*.whl")
    return built


@pytest.fixture(scope="module")
def image(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Installed, str]:
    """The notebook: every declared dependency at its floor, pytest, then the wheel installed offline with pip;
    the environment and what pip printed."""
    base = tmp_path_factory.mktemp("image")
    installed = environment(base)
    python = str(installed[0] / "python")
    (base / "floors.in").write_text("\n".join(requirements_of(wheel)) + "\n")
    # Wheels only: a package built from source could run anything, and an old one reaches beyond the registry.
    uv(
        "pip",
        "install",
        "--python",
        python,
        "--only-binary",
        ":all:",
        "--resolution",
        "lowest-direct",
        "-r",
        str(base / "floors.in"),
    )
    uv("pip", "install", "--python", python, "--only-binary", ":all:", f"pytest=={pytest.__version__}")
    recipe = subprocess.run(
        [python, "-m", "pip", "install", "--no-index", "--no-deps", str(wheel)],
        env=installed[1],
        capture_output=True,
        text=True,
    )
    assert recipe.returncode == 0, recipe.stderr
    return installed, recipe.stdout


def test_the_image_holds_each_declared_dependency_at_its_floor(wheel: Path, image: tuple[Installed, str]) -> None:
    (bin_directory, env), _ = image
    requirements = requirements_of(wheel)
    names = [distribution_name(requirement) for requirement in requirements]
    versions = "import sys, importlib.metadata as m; print(*(m.version(name) for name in sys.argv[1:]))"
    listed = subprocess.run(
        [str(bin_directory / "python"), "-c", versions, *names], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    for requirement, version in zip(requirements, listed, strict=True):
        [floor] = floors(requirement)
        assert release(version) == release(floor), f"{requirement}: {version} installed, not the floor"


def test_the_notebook_recipe_installs_the_wheel_alone_and_offline(wheel: Path, image: tuple[Installed, str]) -> None:
    _, printed = image
    name, version = wheel.name.split("-")[:2]
    assert printed.split("Successfully installed")[-1].split() == [f"{name}-{version}"], printed


def test_a_game_against_kaggle_random_its_replay_and_a_match_on_a_cluster(
    image: tuple[Installed, str], tmp_path: Path
) -> None:
    installed, _ = image
    succeeds(
        installed,
        tmp_path,
        "play",
        "negamax",
        "kaggle:random",
        "--seed",
        "1",
        "--html",
        "game.html",
        "--json",
        "game.json",
        "--out",
        "played",
    )
    assert "<html" in (tmp_path / "game.html").read_text().lower() and (tmp_path / "game.json").stat().st_size > 1000
    match = succeeds(
        installed, tmp_path, "match", "random", "kaggle:random", "-n", "2", "--cluster", "local:1", "--out", "match"
    )
    assert (tmp_path / "match" / "games.jsonl").read_text().count("\n") == 2, match
    assert (tmp_path / "match" / "time_per_move.png").stat().st_size > 1000  # matplotlib's figures
    succeeds(installed, tmp_path, "replay", "match", "--game", "1", "-o", "game1.html")
    assert "<html" in (tmp_path / "game1.html").read_text().lower()


def test_a_submission_built_there_is_valid(image: tuple[Installed, str], tmp_path: Path) -> None:
    installed, _ = image
    succeeds(installed, tmp_path, "build", "negamax", "-o", "submission.py")
    validation = succeeds(installed, tmp_path, "validate", "submission.py")
    assert "submission.py: valid" in validation and "[FAIL]" not in validation


def test_a_ladder_and_an_analysis(image: tuple[Installed, str], tmp_path: Path) -> None:
    installed, _ = image
    succeeds(
        installed, tmp_path, "ladder", "random", "kaggle:random", "--pool", "none", "--episodes", "4", "--out", "ladder"
    )
    assert (tmp_path / "ladder" / "ratings.png").is_file()
    assert "5 of 5 positions exact" in succeeds(installed, tmp_path, "analyze", "--moves", "44444")


def test_the_engine_server_and_statistics_tests_pass_on_the_floors(
    image: tuple[Installed, str], tmp_path: Path
) -> None:
    """Run from a directory of their own, so ``connectx`` is the installed wheel, not the repository's tree."""
    (bin_directory, env), _ = image
    done = subprocess.run(
        [
            str(bin_directory / "python"),
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(REPOSITORY),
            "-c",
            str(REPOSITORY / "pyproject.toml"),
            "--basetemp",
            str(tmp_path / "basetemp"),
            *(f"--deselect=tests/{test}" for test in CUT_ON_THE_FLOORS),
            *(str(REPOSITORY / "tests" / name) for name in SUITE_ON_THE_FLOORS),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and " skipped" not in done.stdout, done.stdout[-2000:]
    assert f"{len(CUT_ON_THE_FLOORS)} deselected" in done.stdout, "a test left out is gone: update CUT_ON_THE_FLOORS"


def test_without_its_dependencies_each_command_names_what_it_needs(wheel: Path, tmp_path: Path) -> None:
    """The wheel and a tqdm older than its floor: every command names kaggle-environments and numpy, which the
    command line imports; tqdm, which only the live bar uses where it can, stops nothing."""
    installed = environment(tmp_path)
    python = str(installed[0] / "python")
    uv("pip", "install", "--python", python, "--no-deps", str(wheel), "tqdm==4.66.0")
    required = [
        requirement for requirement in requirements_of(wheel, extras=False) if distribution_name(requirement) in NEEDS
    ]
    assert len(required) == 2
    for argv, prog in (
        (["play", "random", "kaggle:random", "--json", "game.json"], "connectx play"),
        (["--version"], "connectx"),
    ):
        done = connectx(installed, tmp_path, *argv)
        assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
        assert done.stderr.splitlines() == [
            f'{prog}: {distribution_name(requirement)} is not installed: pip install "{requirement}"'
            for requirement in required
        ]
    assert not (tmp_path / "game.json").exists()
