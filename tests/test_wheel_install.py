"""The wheel, installed into a fresh environment with nothing of the repository beside it, does what a clone does.

It is built with the repository's uv, installed with exactly the lock's dependencies (an export of
``uv.lock``, which keeps the overrides that leave kaggle-environments' 1.6 GB of other games out),
and every command runs from a directory of its own with the per-user cache inside the test's
temporary directory: the analysis with the compiled solver and the shipped exact scores, a
submission built and validated, a match, and the page served.

A second environment is a Kaggle notebook's without internet, at its barest: kaggle-environments
and numpy (this environment's files, linked, with what they need in turn) and the wheel installed
as docs/kaggle.md says, ``pip install --no-index --no-deps``. Every command either works there or
says in one line which package it needs.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from connectx.cli import main
from connectx.cli.dependencies import declared_requirements, distribution_name

REPOSITORY = Path(__file__).resolve().parent.parent
UV = REPOSITORY / ".tools" / "bin" / "uv"
LEFT_OUT = (".git", ".venv", ".tools", "out", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "reports")
"""What the copy the wheel is built from leaves out: environments, caches and results, never a package's file."""

pytestmark = [
    pytest.mark.games,
    pytest.mark.skipif(not UV.exists(), reason="no .tools/bin/uv: run `make install` first"),
]


KAGGLE_FILES = {
    "submission.py": "def my_agent(observation, configuration):\n    return 3\n",
    "agents.py": "AGENTS = []\n",
    "evaluation.py": "def evaluate(board):\n    return 0\n",
}
"""A Kaggle notebook's working directory: the user's own files, named like generic packages."""


def uv_environment() -> dict[str, str]:
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    return env


def built_wheel(base: Path, *, links: bool) -> Path:
    """The wheel built from a copy of the repository in ``base`` (setuptools leaves build/ in the directory it
    builds); without ``links``, each symbolic link of the copy is a small text file holding its target, as Git
    for Windows checks links out without developer mode (``core.symlinks=false``)."""
    source = base / "source"
    shutil.copytree(REPOSITORY, source, ignore=shutil.ignore_patterns(*LEFT_OUT), symlinks=True)
    if not links:
        for link in [path for path in source.rglob("*") if path.is_symlink()]:
            target = os.readlink(link)
            link.unlink()
            link.write_text(target)
    subprocess.run(
        [str(UV), "build", "--wheel", "--out-dir", str(base / "dist"), str(source)],
        check=True,
        capture_output=True,
        env=uv_environment(),
    )
    [built] = (base / "dist").glob("connectx-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_wheel(tmp_path_factory.mktemp("wheel"), links=True)


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """``(bin directory, environment)`` of a fresh environment holding the wheel and the lock's dependencies."""
    base = tmp_path_factory.mktemp("installed")
    uv_env = uv_environment()
    requirements = base / "requirements.txt"
    subprocess.run(
        [
            str(UV),
            "export",
            "--frozen",
            "--no-hashes",
            "--no-emit-project",
            "--no-header",
            "--project",
            str(REPOSITORY),
            "-o",
            str(requirements),
        ],
        check=True,
        capture_output=True,
        env=uv_env,
    )
    venv = base / "venv"
    subprocess.run(
        [str(UV), "venv", "--python", sys.executable, str(venv)], check=True, capture_output=True, env=uv_env
    )
    python = str(venv / "bin" / "python")
    subprocess.run(
        [str(UV), "pip", "install", "--python", python, "-r", str(requirements)],
        check=True,
        capture_output=True,
        env=uv_env,
    )
    subprocess.run(
        [str(UV), "pip", "install", "--python", python, "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        env=uv_env,
    )
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(CONNECTX_CACHE_DIR=str(base / "cache"), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    return venv / "bin", env


def run(installed: tuple[Path, dict[str, str]], cwd: Path, *argv: str, timeout: float = 600) -> str:
    """``connectx ARGV`` from ``cwd`` in the fresh environment; its output (the test fails on a non-zero exit)."""
    bin_directory, env = installed
    done = subprocess.run(
        [str(bin_directory / "connectx"), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"connectx {' '.join(argv)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


def test_the_wheel_holds_one_import_package_and_no_tool_that_writes_the_repository(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        [top_level] = [name for name in names if name.endswith(".dist-info/top_level.txt")]
        assert archive.read(top_level).decode().split() == ["connectx"]
    tops = {name.split("/")[0] for name in names if ".dist-info/" not in name}
    assert tops == {"connectx"}, f"a second top-level name in the wheel: {sorted(tops - {'connectx'})}"
    for design_folder in ("agents", "submission", "evaluation"):
        assert f"connectx/{design_folder}/__init__.py" in names
    assert "connectx/agents/data/solver.c" in names and "connectx/agents/data/solver_core_linux_x86_64.so" in names
    assert "connectx/analysis/data/exact_scores_7x6.npz" in names
    assert "connectx/py.typed" in names, "the package says it is typed (PEP 561)"
    assert "connectx/agents/data/opening_book_7x6x4.bin" in names
    assert not [name for name in names if name.endswith((".jsonl", ".jsonl.gz"))], "checkpoints stay in the repository"


def test_a_checkout_without_symbolic_links_builds_the_same_wheel(wheel: Path, tmp_path: Path) -> None:
    """The top-level ``agents``, ``submission`` and ``evaluation`` are links into the package: a checkout that
    writes them as text files loses only them, and installs exactly what a checkout with links installs."""
    assert {path.name for path in REPOSITORY.iterdir() if path.is_symlink()} == {"agents", "submission", "evaluation"}
    without_links = built_wheel(tmp_path, links=False)
    assert (tmp_path / "source" / "agents").is_file()  # the link as Git for Windows writes it
    with zipfile.ZipFile(wheel) as linked, zipfile.ZipFile(without_links) as unlinked:
        assert sorted(unlinked.namelist()) == sorted(linked.namelist())
        for name in linked.namelist():
            if not name.endswith(".dist-info/RECORD"):
                assert unlinked.read(name) == linked.read(name), name


def test_the_wheel_ships_its_data(installed: tuple[Path, dict[str, str]]) -> None:
    site = next((installed[0].parent / "lib").glob("python3*/site-packages"))
    assert (site / "connectx" / "agents" / "data" / "solver.c").is_file()
    assert (site / "connectx" / "analysis" / "data" / "exact_scores_7x6.npz").is_file()
    assert (site / "connectx" / "agents" / "data").is_dir() and (site / "connectx" / "play" / "static").is_dir()
    assert not (site / "positions").exists() and not (site / "book").exists()
    assert not (site / "connectx" / "agents").is_symlink()  # real files, wherever it is installed


def test_the_installed_commands_work_beside_a_kaggle_users_files(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    for name, text in KAGGLE_FILES.items():
        (tmp_path / name).write_text(text)
    bin_directory, env = installed
    api = subprocess.run(
        [
            str(bin_directory / "python"),
            "-c",  # the working directory comes first on sys.path
            "from connectx.submission.bundler import build_source; "
            "from connectx.agents.registry import REGISTRY; import agents, submission; "
            "print(len(build_source('negamax')) > 1000, agents.AGENTS, submission.my_agent(None, None))",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert api.returncode == 0 and api.stdout.split() == ["True", "[]", "3"], api.stderr
    analysis = run(installed, tmp_path, "analyze", "--moves", "44444")
    assert "5 of 5 positions exact" in analysis and "with the compiled (C) solver" in analysis
    assert list((Path(installed[1]["CONNECTX_CACHE_DIR"]) / "solver").glob("libsolver-7x6-*.so"))

    run(installed, tmp_path, "build", "solver", "-o", "connectx_submission.py")
    validation = run(installed, tmp_path, "validate", "connectx_submission.py", "--no-games")
    assert "connectx_submission.py: valid" in validation and "[PASS] isolation" in validation
    assert (tmp_path / "submission.py").read_text() == KAGGLE_FILES["submission.py"]  # the user's own agent, as it was

    match = run(installed, tmp_path, "match", "random", "negamax", "-n", "2", "--out", "match")
    assert (tmp_path / "match" / "games.jsonl").read_text().count("\n") == 2, match


def test_the_installed_page_is_served(installed: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    bin_directory, env = installed
    server = subprocess.Popen(
        [str(bin_directory / "connectx"), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = response.read().decode()
                break
            except OSError:
                assert server.poll() is None, f"connectx serve exited: {server.stderr.read() if server.stderr else ''}"
                assert time.monotonic() < deadline, "connectx serve did not answer within a minute"
                time.sleep(0.3)
        assert response.status == 200 and "<html" in page.lower()
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert shutil.which("connectx", path=str(bin_directory))


IMAGE = main.NEEDS
"""What the barest notebook image holds of the declared dependencies: kaggle-environments and numpy."""
OTHERS = {distribution_name(requirement) for requirement in declared_requirements()} - set(IMAGE)
"""The declared dependencies the barest image lacks, left out even where kaggle-environments lists one (tqdm)."""


def canonical(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def image_distributions() -> list[importlib.metadata.Distribution]:
    """``IMAGE``'s distributions in this environment, and in turn those each requires here (an extra's, one whose
    marker does not hold, and ``OTHERS`` left out)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = list(IMAGE)
    while todo:
        name = canonical(todo.pop())
        if name in found or name in map(canonical, OTHERS):
            continue
        try:
            found[name] = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:  # kaggle-environments' other games, left out by uv.lock
            continue
        for text in found[name].requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return list(found.values())


@pytest.fixture(scope="module")
def kaggle_image(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """``(bin directory, environment)`` of a venv (pip from the interpreter's own ensurepip, offline) holding links to
    this environment's files of ``image_distributions()``, then the wheel installed as docs/kaggle.md says."""
    base = tmp_path_factory.mktemp("kaggle-image")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    [site] = (venv / "lib").glob("python3*/site-packages")
    for distribution in image_distributions():
        for file in distribution.files or []:
            source = Path(str(distribution.locate_file(file)))
            if ".." not in file.parts and source.is_file():  # scripts in bin/ are no part of the image's library
                (site / file).parent.mkdir(parents=True, exist_ok=True)
                (site / file).symlink_to(source)
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env.update(
        CONNECTX_CACHE_DIR=str(base / "cache"),
        PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
    )
    recipe = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", "--no-deps", str(wheel)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert recipe.returncode == 0, recipe.stderr
    return venv / "bin", env


def connectx(installed: tuple[Path, dict[str, str]], cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    bin_directory, env = installed
    return subprocess.run(
        [str(bin_directory / "connectx"), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def test_the_barest_image_holds_kaggle_environments_and_numpy_and_none_of_the_others(
    kaggle_image: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_directory, env = kaggle_image
    listing = "import importlib.metadata as m; print(*sorted(d.metadata['Name'].lower() for d in m.distributions()))"
    names = set(
        subprocess.run(
            [str(bin_directory / "python"), "-c", listing],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.split()
    )
    assert {"connectx", "kaggle-environments", "numpy"} <= {canonical(name) for name in names}
    assert not {canonical(name) for name in names} & {canonical(name) for name in OTHERS}, names


WORKS = {
    "agents": ["agents"],
    "build": ["build", "negamax", "-o", "connectx_submission.py"],
    "validate": ["validate", "connectx_submission.py"],
    "play": ["play", "random", "kaggle:random", "--json", "game.json"],
    "match": ["match", "random", "negamax", "-n", "2", "--out", "match"],
    "replay": ["replay", "match", "--game", "1", "-o", "game1.html"],
    "tournament": ["tournament", "random", "kaggle:random", "-n", "2", "--out", "tournament"],
    "solve": ["solve", "4444"],
    "analyze": ["analyze", "--moves", "4444"],
}
"""The commands that work with kaggle-environments and numpy alone, in an order where each finds what it reads."""
NEED = {"ladder": ["ladder", "random", "--pool", "none"], "report": ["report", "--quick"], "serve": ["serve"]}
"""The commands that need more, each with the arguments it would run with."""


def test_every_command_is_run_in_the_barest_image() -> None:
    assert sorted([*WORKS, *NEED]) == sorted(main.COMMANDS)


def test_in_the_barest_image_the_commands_work_offline_beside_a_kaggle_users_files(
    kaggle_image: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    for name, text in KAGGLE_FILES.items():
        (tmp_path / name).write_text(text)
    for argv in (["--help"], ["--version"], *WORKS.values()):
        done = connectx(kaggle_image, tmp_path, *argv)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (
            f"connectx {' '.join(argv)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        if argv == ["--help"]:
            assert all(command in done.stdout for command in main.COMMANDS), done.stdout
        if argv[0] == "validate":
            assert "connectx_submission.py: valid" in done.stdout and "[FAIL]" not in done.stdout, done.stdout
        if argv[0] in ("match", "tournament"):  # games and report written, the figures skipped in one line
            out = tmp_path / argv[argv.index("--out") + 1]
            assert (out / "games.jsonl").is_file() and (out / "report.md").is_file() and not list(out.glob("*.png"))
            assert done.stderr.splitlines()[-1] == (
                f"connectx {argv[0]}: figures skipped; matplotlib is not "
                f'installed: pip install "{required("matplotlib")}"'
            )
    assert (tmp_path / "submission.py").read_text() == KAGGLE_FILES["submission.py"]
    assert (tmp_path / "game.json").is_file() and "<html" in (tmp_path / "game1.html").read_text().lower()


@pytest.mark.parametrize("command", sorted(NEED))
def test_in_the_barest_image_a_command_that_needs_more_names_each_install(
    kaggle_image: tuple[Path, dict[str, str]], tmp_path: Path, command: str
) -> None:
    done = connectx(kaggle_image, tmp_path, *NEED[command])
    needs = main.command_module(command).NEEDS
    assert done.returncode == 2 and done.stdout == "" and not list(tmp_path.iterdir())
    assert done.stderr.splitlines() == [
        f'connectx {command}: {name} is not installed: pip install "{required(name)}"' for name in needs
    ]


def required(name: str) -> str:
    """The declared requirement of the distribution ``name`` (``matplotlib>=3.10``)."""
    [requirement] = [requirement for requirement in declared_requirements() if distribution_name(requirement) == name]
    return requirement
