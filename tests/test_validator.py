"""The validator: Kaggle's checks, run where our packages cannot be imported, each failure named.

Full validation plays five games, so it runs for two fast agents; every registered agent gets
the cheap checks (loader, size, isolation, same moves as unbundled). Broken files are small
hand-written agents or a real bundle with one thing changed.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from agents.registry import REGISTRY
from evaluation.cli import main
from submission import isolated_runner
from submission.bundler import build_bundle
from submission.module_graph import PROJECT_ROOT
from submission.validator import (
    SIZE_LIMIT,
    ValidationReport,
    read_build_record,
    run_isolated,
    timing_check,
    validate_file,
    validation_episodes,
)

FIRST_LEGAL = '''
def agent(observation, configuration):
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)
'''


def built(tmp_path: Path, spec: str, name: str = "submission.py") -> Path:
    """``spec`` built into ``tmp_path``; a data file not generated yet is left out, as the agent does without it."""
    path = tmp_path / name
    path.write_text(build_bundle(spec, allow_missing_data=True).source)
    return path


def check_named(report: ValidationReport, prefix: str) -> list[str]:
    """Pass/fail of every check whose name starts with ``prefix``."""
    return [("PASS" if check.passed else "FAIL") for check in report.checks if check.name.startswith(prefix)]


@pytest.mark.parametrize("spec", ["negamax:depth=3", "random"])
def test_a_built_agent_passes_every_check_with_its_figures(tmp_path: Path, spec: str) -> None:
    report = validate_file(built(tmp_path, spec))
    assert report.passed, "\n".join(map(str, report.failures()))
    names = [check.name for check in report.checks]
    for prefix, count in (("(a)", 1), ("(b)", 1), ("(c)", 4), ("(d)", 1), ("(e)", 1), ("(f)", 1), ("isolation", 1)):
        assert sum(name.startswith(prefix) for name in names) == count, prefix
    assert report.first_move_seconds is not None and report.slowest_move_seconds is not None
    assert report.load_seconds is not None and 0 < report.load_seconds < 1.8
    assert 0 < report.first_move_seconds < 1.8 and report.overage_left_seconds == 60


@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_every_registered_agent_passes_the_cheap_checks(tmp_path: Path, name: str) -> None:
    report = validate_file(built(tmp_path, name), games=False)
    assert report.passed, "\n".join(map(str, report.failures()))
    assert check_named(report, "(f)") == ["PASS"]


def test_the_file_runs_where_our_packages_cannot_be_imported(tmp_path: Path) -> None:
    result = run_isolated(built(tmp_path, "negamax"), {"episodes": [], "configuration": {}})
    assert result["isolation"]["visible"] == []
    project_root = str(Path(__file__).resolve().parent.parent)
    assert not [entry for entry in result["isolation"]["sys_path"] if entry.rstrip("/") == project_root]
    assert result["load"]["ok"] and result["load"]["name"] == "agent"


def test_the_isolation_check_sees_our_packages_where_they_are_importable() -> None:
    assert isolated_runner.isolation(["agents", "submission", "json"], str(PROJECT_ROOT)) == ["agents", "submission"]


def test_a_file_that_fails_to_load_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("from agents.position import Position\n" + FIRST_LEGAL)
    report = validate_file(path, compare=False)
    failed = report.failures()
    assert [check.name for check in failed] == ["(a) Kaggle's loader"]
    assert "Invalid raw Python" in failed[0].detail and "from agents.position import Position" in failed[0].detail
    assert "connectx build" in failed[0].fix


def test_an_entry_function_that_is_not_last_is_reported(tmp_path: Path) -> None:
    path = built(tmp_path, "negamax")
    path.write_text(path.read_text() + "\n\ndef helper():\n    return 0\n")
    report = validate_file(path, games=False)
    assert check_named(report, "(a)") == ["FAIL"]
    assert "returns helper()" in report.failures()[0].detail


def test_illegal_moves_fail_every_game(tmp_path: Path) -> None:
    path = tmp_path / "illegal.py"
    path.write_text("def agent(observation, configuration):\n    return -1\n")
    report = validate_file(path, compare=False)
    assert check_named(report, "(b)") == ["FAIL"] and check_named(report, "(c)") == ["FAIL"] * 4
    assert "INVALID" in report.failures()[0].detail


def test_a_slow_load_fails_the_timing_check(tmp_path: Path) -> None:
    path = tmp_path / "slow_load.py"
    path.write_text("import time\ntime.sleep(0.4)\n" + FIRST_LEGAL)
    report = validate_file(path, act_timeout=2.0, margin=1.7, compare=False)
    assert [check.name for check in report.failures()] == ["(d) move times"]
    assert report.first_move_seconds is not None and report.first_move_seconds >= 0.4
    assert report.slowest_move_seconds is not None and report.slowest_move_seconds < 0.3


SLOW_SECOND_MOVE = """
import time


def agent(observation, configuration):
    if sum(1 for cell in observation.board if cell) in (2, 3):
        time.sleep(0.3)
    return next(c for c in range(configuration.columns) if observation.board[c] == 0)
"""


def test_a_slow_later_move_fails_unless_the_overage_bank_may_pay_for_it(tmp_path: Path) -> None:
    path = tmp_path / "slow_move.py"
    path.write_text(SLOW_SECOND_MOVE)
    result = run_isolated(path, {"episodes": validation_episodes(), "configuration": {"actTimeout": 2.0}})
    strict = timing_check(result["episodes"], act_timeout=2.0, margin=1.8, overage_reserve=None)
    assert not strict.check.passed and strict.slowest is not None and strict.slowest >= 0.3
    assert strict.first is not None and strict.first < 0.2
    assert timing_check(result["episodes"], 2.0, 1.8, overage_reserve=50).check.passed
    assert not timing_check(result["episodes"], 2.0, 1.8, overage_reserve=61).check.passed


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
    assert check_named(report, "(f)") == ["FAIL"]
    assert "positions differ" in report.failures()[0].detail


def test_a_file_not_built_here_cannot_be_compared_unless_asked_not_to(tmp_path: Path) -> None:
    path = tmp_path / "foreign.py"
    path.write_text(FIRST_LEGAL)
    assert read_build_record(FIRST_LEGAL) is None
    assert check_named(validate_file(path, games=False), "(f)") == ["FAIL"]
    assert validate_file(path, games=False, compare=False).passed


def test_the_command_prints_checks_and_exits_by_verdict(tmp_path: Path) -> None:
    good = built(tmp_path, "negamax", "good.py")
    bad = tmp_path / "bad.py"
    bad.write_text("raise RuntimeError('boom')\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["validate", str(good), "--no-games"]) == 0
        assert main(["validate", str(bad), "--no-games", "--no-compare"]) == 1
    text = out.getvalue()
    assert "[PASS] (e) size" in text and f"{good}: valid" in text
    assert "[FAIL] (a) Kaggle's loader" in text and "fix:" in text and f"{bad}: INVALID" in text
