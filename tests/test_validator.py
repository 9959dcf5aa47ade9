"""The validator: Kaggle's checks, run where our packages cannot be imported, each failure named.

Full validation plays five games, so it runs for two fast agents and for the file `make
submission` builds; every registered agent gets the cheap checks (loader, size, isolation, same
moves as unbundled under shipped and overridden parameters). Broken files are small hand-written
agents or a real bundle with one thing changed; bad inputs never get as far as running anything.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import inspect
import io
import re
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.agents.registry import REGISTRY
from connectx.cli.main import main
from connectx.submission import isolated_runner, validator
from connectx.submission.bundler import BuildRecord, build_bundle, read_build_record
from connectx.submission.fixed_positions import PROVEN_ENDGAMES, is_proven_choice
from connectx.submission.module_graph import OUR_PACKAGES, PROJECT_ROOT
from connectx.submission.validator import (
    MARGIN_CHECK,
    OVERRIDDEN,
    SHIPPED,
    SIZE_LIMIT,
    ValidationReport,
    comparisons,
    run_isolated,
    timing_check,
    validate_file,
    validation_episodes,
)

REPOSITORY = Path(__file__).resolve().parent.parent
FIRST_LEGAL = """
def agent(observation, configuration):
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)
"""


def built(tmp_path: Path, spec: str, name: str = "submission.py") -> Path:
    """``spec`` built into ``tmp_path``; a data file not generated yet is left out, as the agent does without it."""
    path = tmp_path / name
    path.write_text(build_bundle(spec, allow_missing_data=True).source)
    return path


def check_named(report: ValidationReport, prefix: str) -> list[str]:
    """Pass/fail of every check whose name starts with ``prefix``."""
    return [("PASS" if check.passed else "FAIL") for check in report.checks if check.name.startswith(prefix)]


@pytest.fixture
def both_cores_busy() -> Iterator[None]:
    """Two processes that keep both of the machine's cores busy while the test runs: a loaded Kaggle worker."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


@pytest.mark.games
@pytest.mark.parametrize("name", sorted(set(REGISTRY) - {"solver"}))
def test_every_built_agent_keeps_its_margin_on_a_busy_machine(tmp_path: Path, name: str, both_cores_busy: None) -> None:
    """Every check passes under --strict, the stricter margin included, on Kaggle's clock while both cores are
    taken: the submission keeps 0.5 s back and validate allows 0.2 s less than actTimeout. ``solver`` is
    validated so by `make submission`'s own commands (``test_the_file_make_submission_builds_passes_...``).
    """
    report = validate_file(built(tmp_path, name), compare=False, strict=True)
    assert report.passed and not report.warnings(), "\n".join(map(str, report.checks))
    names = [check.name for check in report.checks]
    for prefix, count in (
        ("(a)", 1),
        ("(b)", 1),
        ("(c)", 4),
        ("(d)", 2),
        ("(e)", 1),
        ("(f)", 1),
        ("(g)", 1),
        ("isolation", 1),
    ):
        assert sum(name.startswith(prefix) for name in names) == count, prefix
    assert report.first_move_seconds is not None and report.slowest_move_seconds is not None
    assert report.load_seconds is not None and 0 < report.load_seconds < 1.8
    assert 0 < report.first_move_seconds < 1.8
    assert report.slowest_move_seconds < 1.8 and report.overage_left_seconds == 60
    assert report.slowest_move_at is not None and re.fullmatch(r".+, move \d+", report.slowest_move_at)
    games = [check for check in report.checks if check.name[:3] in ("(b)", "(c)")]
    assert all(re.search(r"slowest later move \d+\.\d{3} s \(move \d+\)", check.detail) for check in games)


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_agent_passes_the_cheap_checks(tmp_path: Path, name: str) -> None:
    report = validate_file(built(tmp_path, name), games=False)
    assert report.passed, "\n".join(map(str, report.failures()))
    assert [check.name for check in report.checks if check.name.startswith("(f)")] == [
        f"(f) same moves as unbundled, {SHIPPED}",
        f"(f) same moves as unbundled, {OVERRIDDEN}",
    ]
    assert check_named(report, "(f)") == ["PASS", "PASS"]


def record_for(spec: str) -> BuildRecord:
    source = build_bundle(spec, allow_missing_data=True).source
    record = read_build_record(source)
    assert record is not None
    return record


def test_the_solver_is_compared_as_it_ships_on_book_proven_and_tactical_positions() -> None:
    record = record_for("solver")
    shipped, overridden = comparisons(REGISTRY["solver"], record)
    assert shipped.name == SHIPPED and shipped.overrides == {}
    kinds = [fixed.kind for fixed in shipped.positions]
    assert kinds.count("tactical") >= 4 and kinds.count("book") >= 8 and kinds.count("proven") >= 8
    assert overridden.name == OVERRIDDEN and overridden.overrides["max_nodes"] == 5000


@pytest.mark.parametrize(
    "spec,shipped_overrides,kinds",
    [
        ("mcts", {}, {"tactical"}),
        ("negamax", {"seed": 1}, {"tactical", "seeded"}),
        ("negamax:seed=7", {}, {"tactical", "seeded"}),
        ("random", {"seed": 1}, {"tactical", "seeded"}),
    ],
)
def test_clocked_agents_ship_unchanged_and_clock_free_ones_get_only_a_missing_seed(
    spec: str, shipped_overrides: dict[str, int], kinds: set[str]
) -> None:
    shipped, _ = comparisons(REGISTRY[AgentSpec.parse(spec).name], record_for(spec))
    assert shipped.overrides == shipped_overrides
    assert {fixed.kind for fixed in shipped.positions} == kinds


def test_a_bundle_that_breaks_only_as_it_ships_fails_the_shipped_comparison(tmp_path: Path) -> None:
    """The clock branch of the solver's compiled search, which no overridden comparison (a node cap) ever takes,
    is broken: it gives itself no time, in the move or from the bank."""
    path = built(tmp_path, "solver")
    source = path.read_text()
    clocked = "solver.search(position, seconds=deadline.remaining(), lower=lower, upper=upper)"
    banked = "if not _outcome_known(found) and slice_ > 0:"
    assert source.count(clocked) == 1 and source.count(banked) == 1
    path.write_text(
        source.replace(clocked, "solver.search(position, seconds=0.0, lower=lower, upper=upper)").replace(
            banked, "if False:"
        )
    )
    report = validate_file(path, games=False)
    assert check_named(report, f"(f) same moves as unbundled, {SHIPPED}") == ["FAIL"]
    assert check_named(report, f"(f) same moves as unbundled, {OVERRIDDEN}") == ["PASS"]
    assert "(proven): unbundled" in report.failures()[0].detail


def test_the_file_runs_where_our_packages_cannot_be_imported(tmp_path: Path) -> None:
    result = run_isolated(built(tmp_path, "negamax"), {"episodes": [], "configuration": {}})
    assert result["isolation"]["visible"] == []
    project_root = str(Path(__file__).resolve().parent.parent)
    assert not [entry for entry in result["isolation"]["sys_path"] if entry.rstrip("/") == project_root]
    assert result["load"]["ok"] and result["load"]["name"] == "agent"
    assert result["load"]["arguments"] == ["observation", "configuration"] and result["load"]["call_error"] is None


def test_the_isolation_check_sees_our_packages_where_they_are_importable() -> None:
    visible = isolated_runner.isolation(["connectx", "submission", "json"], str(PROJECT_ROOT))
    assert visible == ["connectx", "submission"]


def test_our_packages_are_the_ones_the_wheel_ships() -> None:
    setup = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert sorted(OUR_PACKAGES) == sorted({name.removesuffix(".*") for name in setup["packages"]["find"]["include"]})


def test_installed_from_a_wheel_the_file_sees_site_packages_without_our_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site-packages"
    for name in ("kaggle_environments", "numpy", *OUR_PACKAGES):
        (site / name).mkdir(parents=True)
        (site / name / "__init__.py").write_text("")
    (site / "six.py").write_text("")
    spec = importlib.machinery.ModuleSpec(
        "kaggle_environments", None, origin=str(site / "kaggle_environments" / "__init__.py")
    )
    monkeypatch.setattr(validator.importlib.util, "find_spec", lambda name: spec)
    (workdir := tmp_path / "work").mkdir()
    [view] = validator._kaggle_site_dirs(workdir)
    assert sorted(path.name for path in Path(view).iterdir()) == ["kaggle_environments", "numpy", "six.py"]
    assert (Path(view) / "numpy").resolve() == site / "numpy"


def test_the_proven_positions_are_the_first_endgames_of_the_benchmark_that_qualify() -> None:
    qualifying: list[str] = []
    for line in (REPOSITORY / "positions" / "Test_L3_R1").read_text().splitlines():
        if len(qualifying) == len(PROVEN_ENDGAMES):
            break
        if is_proven_choice(Position.from_moves(line.split()[0])):
            qualifying.append(line.split()[0])
    assert tuple(qualifying) == PROVEN_ENDGAMES


def test_a_file_that_fails_to_load_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("from connectx.agents.core.position import Position\n" + FIRST_LEGAL)
    report = validate_file(path, compare=False)
    failed = report.failures()
    assert [check.name for check in failed] == ["(a) Kaggle's loader"]
    assert "ModuleNotFoundError: No module named 'connectx'" in failed[0].detail
    assert "from connectx.agents.core.position import Position" in failed[0].detail
    assert failed[0].detail.count("Traceback") == 0 and str(path) in failed[0].detail
    assert "connectx build" in failed[0].fix and "alone" in failed[0].fix


@pytest.mark.parametrize(
    "helper", ["def helper():\n    return 0\n", "def helper(observation, configuration):\n    return 0\n"]
)
def test_a_built_file_with_a_callable_bound_after_its_entry_function_fails(tmp_path: Path, helper: str) -> None:
    """Even one Kaggle could call: check (f) compares ``agent``, so it no longer vouches for what Kaggle plays."""
    path = built(tmp_path, "negamax")
    path.write_text(path.read_text() + "\n\n" + helper)
    report = validate_file(path, games=False)
    assert [check.name for check in report.failures()] == ["(a) Kaggle's loader"]
    assert "returns helper(" in report.failures()[0].detail and "bind nothing after" in report.failures()[0].fix


@pytest.mark.games
def test_illegal_moves_fail_every_game(tmp_path: Path) -> None:
    path = tmp_path / "illegal.py"
    path.write_text("def agent(observation, configuration):\n    return -1\n")
    report = validate_file(path, compare=False)
    assert check_named(report, "(b)") == ["FAIL"] and check_named(report, "(c)") == ["FAIL"] * 4
    assert "INVALID" in report.failures()[0].detail


@pytest.mark.games
def test_a_slow_load_fails_the_stricter_margin_only_under_strict_and_names_the_load(tmp_path: Path) -> None:
    """Kaggle would play a 0.4 s first move (2 s allowed): the margin of 1.7 s is ours, so it warns, and
    fails with strict; either way the advice blames the load, which the report measured."""
    path = tmp_path / "slow_load.py"
    path.write_text("import time\ntime.sleep(0.4)\n" + FIRST_LEGAL)
    report = validate_file(path, act_timeout=2.0, margin=1.7, compare=False)
    assert report.passed and [check.name for check in report.warnings()] == [MARGIN_CHECK]
    assert check_named(report, "(d) Kaggle's clock") == ["PASS"]
    assert "loading the file took" in report.warnings()[0].fix and "--margin 0" in report.warnings()[0].fix
    assert report.first_move_seconds is not None and report.first_move_seconds >= 0.4
    assert report.slowest_move_seconds is not None and report.slowest_move_seconds < 0.3
    strict = validate_file(path, act_timeout=2.0, margin=1.7, compare=False, strict=True)
    assert [check.name for check in strict.failures()] == [MARGIN_CHECK]


SLOW_SECOND_MOVE = """
import time


def agent(observation, configuration):
    if sum(1 for cell in observation.board if cell) in (2, 3):
        time.sleep(0.3)
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)
"""


@pytest.mark.games
def test_a_slow_later_move_fails_unless_the_overage_bank_may_pay_for_it(tmp_path: Path) -> None:
    path = tmp_path / "slow_move.py"
    path.write_text(SLOW_SECOND_MOVE)
    result = run_isolated(path, {"episodes": validation_episodes(), "configuration": {"actTimeout": 2.0}})
    strict = timing_check(result["episodes"], act_timeout=2.0, margin=1.8, overage_reserve=None)
    assert not strict.check.passed and strict.slowest is not None and strict.slowest >= 0.3
    assert strict.slowest_at is not None and re.search(r", move [34]$", strict.slowest_at)
    assert strict.first is not None and strict.first < 0.2
    assert timing_check(result["episodes"], 2.0, 1.8, overage_reserve=50).check.passed
    assert not timing_check(result["episodes"], 2.0, 1.8, overage_reserve=61).check.passed


@pytest.mark.games
def test_the_command_reports_the_slowest_move_of_each_game_and_of_all(tmp_path: Path) -> None:
    """The slow moves are the third and fourth of a game, so each game names one of them."""
    path = tmp_path / "slow_move.py"
    path.write_text(SLOW_SECOND_MOVE)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["validate", str(path), "--no-compare", "--margin", "1.5"]) == 0
    lines = out.getvalue().splitlines()
    games = [line for line in lines if line.startswith(("[PASS] (b)", "[PASS] (c)"))]
    assert len(games) == 5
    for line in games:
        seconds = re.search(r"slowest later move (\d+\.\d+) s \(move ([34])\)", line)
        assert seconds is not None and float(seconds[1]) >= 0.3, line
    figures = next(line for line in lines if line.startswith("figures: "))
    overall = re.search(r"slowest later move (\d+\.\d+) s \[(.+), move ([34])\]", figures)
    assert overall is not None and float(overall[1]) >= 0.3 and overall[2] in [e["name"] for e in validation_episodes()]
    assert "size " in figures and "first move " in figures


def test_a_file_over_five_megabytes_fails(tmp_path: Path) -> None:
    path = tmp_path / "large.py"
    path.write_text(FIRST_LEGAL + "\nPADDING = '" + "x" * SIZE_LIMIT + "'\n")
    report = validate_file(path, games=False, compare=False)
    assert [check.name for check in report.failures()] == ["(e) size"]


def test_a_bundle_that_plays_differently_from_its_agent_fails_the_comparison(tmp_path: Path) -> None:
    path = built(tmp_path, "negamax")
    source = path.read_text()
    tampered = source.replace("**{**BUILT_PARAMETERS, **overrides}", "**{**BUILT_PARAMETERS, **overrides, 'depth': 1}")
    assert tampered != source
    path.write_text(tampered)
    report = validate_file(path, games=False)
    assert check_named(report, "(f)") == ["FAIL", "FAIL"]
    assert all("positions differ" in check.detail for check in report.failures())


def test_the_comparison_is_skipped_for_a_file_not_built_here_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "foreign.py"
    path.write_text(FIRST_LEGAL)
    assert read_build_record(FIRST_LEGAL) is None
    report = validate_file(path, games=False)
    assert report.passed
    [skipped] = [check for check in report.checks if check.name.startswith("(f)")]
    assert skipped.skipped and "not written by `connectx build`" in skipped.detail
    assert str(skipped).startswith("[SKIP] (f) same moves as unbundled: ")


def test_a_built_file_skips_the_comparison_only_when_asked(tmp_path: Path) -> None:
    report = validate_file(built(tmp_path, "random"), games=False, compare=False)
    [skipped] = [check for check in report.checks if check.name.startswith("(f)")]
    assert report.passed and skipped.skipped and skipped.detail == "--no-compare was given"


def my_agent(observation, configuration):  # Kaggle's starter agent, word for word
    from random import choice

    return choice([c for c in range(configuration.columns) if observation.board[c] == 0])


def write_agent_to_file(function: Callable[..., object], file: Path) -> None:
    """What Kaggle's ConnectX starter does to make ``submission.py``: the function's source, appended."""
    with open(file, "a" if file.exists() else "w") as handle:
        handle.write(inspect.getsource(function))


@pytest.mark.games
def test_the_file_kaggles_starter_writes_is_valid_with_no_flags(tmp_path: Path) -> None:
    path = tmp_path / "submission.py"
    write_agent_to_file(my_agent, path)
    assert path.read_text().startswith("def my_agent(observation, configuration):")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["validate", str(path)])
    text = out.getvalue()
    assert status == 0, text
    assert re.search(
        r"^\[PASS\] \(a\) Kaggle's loader: returns my_agent\(observation, configuration\), which Kaggle "
        r"calls as my_agent\(observation, configuration\)",
        text,
        re.MULTILINE,
    )
    assert "note: Kaggle takes the last callable whatever its name, so my_agent is the agent it plays" in text
    assert len(re.findall(r"^\[PASS\] \([bc]\) .*both DONE", text, re.MULTILINE)) == 5
    assert re.search(r"^\[SKIP\] \(f\) same moves as unbundled: the file was not written by", text, re.MULTILINE)
    assert "[FAIL]" not in text and text.rstrip().endswith(f"{path}: valid")


FIRST_LEGAL_BODY = "    return next(c for c in range(7) if observation.board[c] == 0)\n"
LAST_CALLABLES = {
    # name: (the file, whether Kaggle can play it, what check (a) notes or why it fails)
    "plain agent": (FIRST_LEGAL, True, ""),
    "another name": (
        "def my_agent(observation, configuration):\n" + FIRST_LEGAL_BODY,
        True,
        "so my_agent is the agent it plays",
    ),
    "observation only": ("def agent(observation):\n" + FIRST_LEGAL_BODY, True, "the observation only"),
    "a parameter with a default": ("def agent(observation, configuration, depth=3):\n" + FIRST_LEGAL_BODY, True, ""),
    "a lambda": (
        "agent = lambda observation, configuration: next(c for c in range(7) if observation.board[c] == 0)\n",
        True,
        "so <lambda> is the agent",
    ),
    "an object with __call__": (
        "class Player:\n    def __call__(self, observation, configuration):\n    "
        + FIRST_LEGAL_BODY
        + "\n\nagent = Player()\n",
        True,
        "so Player is the agent",
    ),
    "star arguments": (
        "def agent(*args):\n    observation, configuration = args\n" + FIRST_LEGAL_BODY,
        False,
        "it gets no arguments",
    ),
    "a parameter Kaggle never passes": (
        "def agent(observation, configuration, depth):\n" + FIRST_LEGAL_BODY,
        False,
        "missing a required argument: 'depth'",
    ),
    "a helper bound last": (FIRST_LEGAL + "\n\ndef helper():\n    return 0\n", False, "it gets no arguments"),
    "a class bound last": (FIRST_LEGAL + "\n\nclass Board:\n    pass\n", False, "Board is a class"),
    "an imported function bound last": (
        FIRST_LEGAL + "\n\nfrom math import floor\n",
        False,
        "that call fails: too many positional arguments",
    ),
}


@pytest.mark.parametrize("case", sorted(LAST_CALLABLES))
def test_the_loader_check_judges_the_last_callable_as_kaggle_calls_it(tmp_path: Path, case: str) -> None:
    source, playable, words = LAST_CALLABLES[case]
    path = tmp_path / "submission.py"
    path.write_text(source)
    [loader] = [check for check in validate_file(path, games=False).checks if check.name.startswith("(a)")]
    assert loader.passed == playable, str(loader)
    assert words in (loader.note if playable else loader.detail), str(loader)
    assert bool(loader.note) == bool(playable and words)


@pytest.mark.games
@pytest.mark.parametrize("case", sorted(LAST_CALLABLES))
def test_the_loader_check_agrees_with_kaggle_playing_the_file(tmp_path: Path, case: str) -> None:
    """Check (a) passes exactly when kaggle-environments plays the file against itself to DONE, DONE."""
    source, playable, _ = LAST_CALLABLES[case]
    path = tmp_path / "submission.py"
    path.write_text(source)
    result = run_isolated(path, {"episodes": validation_episodes()[-1:], "configuration": {"actTimeout": 2.0}})
    [episode] = result["episodes"]
    assert (episode["statuses"] == ["DONE", "DONE"]) == playable, episode["statuses"]


def test_the_command_prints_checks_and_exits_by_verdict(tmp_path: Path) -> None:
    good = built(tmp_path, "negamax", "good.py")
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('boom')\n" + FIRST_LEGAL)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["validate", str(good), "--no-games"]) == 0
        assert main(["validate", str(bad), "--no-games", "--no-compare"]) == 1
    text = out.getvalue()
    assert "[PASS] (e) size" in text and f"{good}: valid" in text
    assert "[FAIL] (a) Kaggle's loader" in text and "fix:" in text and f"{bad}: INVALID" in text


NOT_UTF8 = "def agent(observation, configuration):\n    return 0  # caf\xe9\n".encode("latin-1")


@pytest.mark.parametrize(
    "name,content,options,message",
    [
        ("missing.py", None, [], "does not exist"),
        ("folder", "directory", [], "is a directory"),
        ("latin1.py", NOT_UTF8, [], "is not UTF-8"),
        (
            "syntax.py",
            b"def agent(observation, configuration)\n    return 0\n",
            [],
            "syntax.py is not valid Python (line 1",
        ),
        ("game.json", b'{"steps": []}', [], "game.json is not a .py file"),
        ("broken.tar.gz", b"not an archive", [], "is not a .tar.gz archive Kaggle could unpack"),
        ("no_function.py", b"COLUMN = 3\nprint(COLUMN)\n", [], "binds no function"),
        ("fine.py", FIRST_LEGAL.encode(), ["--overage-reserve", "-1"], "--overage-reserve -1"),
        ("fine.py", FIRST_LEGAL.encode(), ["--act-timeout", "0"], "--act-timeout 0"),
        ("fine.py", FIRST_LEGAL.encode(), ["--margin", "2"], "--margin 2"),
    ],
)
def test_a_bad_input_is_one_line_exit_2_and_nothing_run(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    content: bytes | str | None,
    options: list[str],
    message: str,
) -> None:
    path = tmp_path / name
    if content == "directory":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)

    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("validation ran on a bad input")

    monkeypatch.setattr("connectx.submission.validator.run_isolated", no_run)
    before = sorted(tmp_path.rglob("*"))
    assert main(["validate", str(path), *options]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert captured.err.startswith("connectx validate: ") and message in captured.err
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("content", ["COLUMN = 3\n", "", "def agent(observation, configuration)\n"])
def test_the_advice_for_a_file_no_check_can_judge_works_and_never_replaces_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    """The user's broken or empty file is theirs: the advice builds beside it, never over it with --force."""
    path = tmp_path / "submission.py"
    path.write_text(content)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    advice = re.search(r"`connectx (build AGENT -o .*)`$", err)
    assert advice is not None and "--force" not in err, err
    assert advice[1] == f"build AGENT -o {tmp_path / 'submission_built.py'}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(shlex.split(advice[1].replace("AGENT", "random"))) == 0
    assert path.read_text() == content
    assert main(["validate", str(tmp_path / "submission_built.py"), "--no-games"]) == 0


def test_only_a_file_build_wrote_is_offered_to_build_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = built(tmp_path, "random")
    path.write_text(path.read_text() + "\nCOLUMN = (\n")
    assert main(["validate", str(path)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"`connectx build AGENT -o {path} --force`")


MAKEFILE = REPOSITORY / "Makefile"


def make_submission_commands(output: Path) -> list[list[str]]:
    """The `connectx` commands of the Makefile's submission recipe, writing ``output`` for out/submission.py."""
    text = MAKEFILE.read_text(encoding="utf-8")
    agent = re.search(r"^SUBMISSION_AGENT \?= (\S+)$", text, re.MULTILINE)
    recipe = re.search(r"^submission:.*\n((?:\t.*\n)+)", text, re.MULTILINE)
    assert agent is not None and recipe is not None, "the Makefile has no submission recipe"
    commands = []
    for line in recipe[1].splitlines():
        words = shlex.split(line.replace("$(SUBMISSION_AGENT)", agent[1]))
        assert words[0] == "$(BIN)/connectx", line
        commands.append([str(output) if word == "out/submission.py" else word for word in words[1:]])
    return commands


@pytest.mark.games
def test_the_file_make_submission_builds_passes_every_episode(tmp_path: Path, both_cores_busy: None) -> None:
    """`make submission`'s own commands, on its own agent: the shipped file, validated with all its games under
    --strict while both cores are busy, with each of its compiled solver's cores."""
    path = tmp_path / "submission.py"
    commands = make_submission_commands(path)
    assert [command[0] for command in commands] == ["build", "validate"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        for command in commands:
            assert main(command) == 0, out.getvalue()
    text = out.getvalue()
    for episode in validation_episodes():
        assert re.search(rf"\[PASS\] \([bc]\) {re.escape(episode['name'])}: .*slowest later move", text)
    shipped = re.search(rf"\[PASS\] \(f\) same moves as unbundled, {SHIPPED}: (.*)", text)
    assert shipped is not None and "book" in shipped[1] and "proven" in shipped[1]
    assert "parameters exactly as built" in shipped[1]
    assert re.search(r"^figures: .*first move .*slowest later move \d+\.\d+ s \[.+\]", text, re.MULTILINE)
    core = text[text.index("[PASS] (h) compiled solver") :]
    assert "CONNECTX_CORE=source: source, compiled and loaded" in core
    assert "CONNECTX_CORE=python: python (no compiled solver)" in core
    assert "validation episode (the file against itself): binary, loaded in" in core
    assert f"{path}: valid" in text
