"""Prove a submission file locally the way Kaggle checks it, and say how to fix what fails.

The file runs in a fresh ``python -I -S`` process (``isolated_runner``) that sees only the
standard library and kaggle-environments, from a directory holding nothing but a copy of it, so
a bundle that still needs our packages fails here and not on Kaggle. The checks:

(a) Kaggle's loader returns the entry function; (b) the validation episode, the file against
itself, ends with both statuses DONE; (c) so do games against kaggle's ``random`` and
``negamax`` in both seats; (d) the first move (loading included) and every later move finish
within ``actTimeout`` less a margin; (e) the file is at most 5 MB; (f) on fixed positions the
bundled agent chooses the columns the unbundled one does.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.position import Position
from agents.registry import AgentSpecError, parse_spec
from submission import isolated_runner
from submission.bundler import FACTORY_FUNCTION, PARAMETERS_CONSTANT, SPEC_CONSTANT
from submission.module_graph import PROJECT_ROOT

DEFAULT_MARGIN = 0.2
"""Seconds every move must leave unused of ``actTimeout``: Kaggle's own timing adds overhead."""
SIZE_LIMIT = 5_000_000
"""Bytes; larger submissions are reported to fail on Kaggle."""
OUR_PACKAGES = ("agents", "evaluation", "submission")
EPISODE_SEED = 20260
COMPARISON_PARAMETERS = {"seed": 1, "simulations": 200, "max_nodes": 5000, "time_budget": 0.5}
"""Overrides applied, where the factory takes them, to both agents compared in check (f), so a
choice depends on the position rather than on the clock: a seed, a cap on simulations (mcts) or
nodes (solver), and a short budget to keep the comparison quick."""
RUNNER_TIMEOUT = 3600.0
"""Seconds before the isolated process is abandoned (five games at 2 s a move fit well inside)."""


@dataclass(frozen=True)
class Check:
    """One named check: whether it passed, the figures it saw, and what to do when it failed."""

    name: str
    passed: bool
    detail: str
    fix: str = ""

    def __str__(self) -> str:
        text = f"[{'PASS' if self.passed else 'FAIL'}] {self.name}: {self.detail}"
        return text if self.passed or not self.fix else f"{text}\n       fix: {self.fix}"


@dataclass(frozen=True)
class ValidationReport:
    path: str
    size_bytes: int
    checks: tuple[Check, ...]
    load_seconds: float | None = None
    first_move_seconds: float | None = None
    slowest_move_seconds: float | None = None
    overage_left_seconds: float | None = None
    """The lowest overage bank the file ended a game with (Kaggle starts it at 60 s)."""

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]


@dataclass(frozen=True)
class BuildRecord:
    """What ``connectx build`` wrote into the file: the spec and the parameters it baked in."""

    spec: str
    parameters: dict[str, Any]


def read_build_record(source: str) -> BuildRecord | None:
    """The spec and parameters a built file records, read with ``ast`` (nothing is executed)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    values: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id in (SPEC_CONSTANT, PARAMETERS_CONSTANT):
                try:
                    values[node.targets[0].id] = ast.literal_eval(node.value)
                except ValueError:
                    return None
    if SPEC_CONSTANT not in values or not isinstance(values.get(PARAMETERS_CONSTANT), dict):
        return None
    return BuildRecord(values[SPEC_CONSTANT], values[PARAMETERS_CONSTANT])


def comparison_positions() -> list[Position]:
    """The fixed positions of check (f): openings, a win to take, a loss to block, late middlegames.

    The late positions come from seeded random play, so the list is the same on every run; two
    geometries exercise more of the code than one.
    """
    positions = [Position.from_moves(moves) for moves in ("", "4", "44", "4453", "121212", "12121")]
    rng = random.Random(5)
    for rows, columns, inarow, stones in ((6, 7, 4, 24), (6, 7, 4, 30), (6, 7, 4, 34), (4, 5, 3, 12)):
        position = Position.initial(rows, columns, inarow)
        while position.moves < stones:
            position = position.play(rng.choice(position.legal_columns()))
            if position.is_over():
                position = Position.initial(rows, columns, inarow)
        positions.append(position)
    positions.append(Position.initial(4, 5, 3))
    return positions


def _observation(position: Position) -> dict[str, Any]:
    return {"board": position.to_board(), "mark": position.mark, "step": position.moves,
            "remainingOverageTime": 60.0}


def _configuration(position: Position, act_timeout: float) -> dict[str, Any]:
    shape = position.geometry
    return {"rows": shape.rows, "columns": shape.columns, "inarow": shape.inarow, "actTimeout": act_timeout}


def validation_episodes() -> list[dict[str, Any]]:
    file = isolated_runner.FILE
    pairs = [("validation episode (the file against itself)", [file, file])]
    for builtin in ("random", "negamax"):
        pairs.append((f"first against kaggle's {builtin}", [file, builtin]))
        pairs.append((f"second against kaggle's {builtin}", [builtin, file]))
    return [{"name": name, "agents": agents, "seed": EPISODE_SEED + index}
            for index, (name, agents) in enumerate(pairs)]


def _kaggle_site_dirs() -> list[str]:
    spec = importlib.util.find_spec("kaggle_environments")
    if spec is None or spec.origin is None:
        raise RuntimeError("kaggle-environments is not installed: run `make install`")
    return [str(Path(spec.origin).resolve().parent.parent)]


def _expected_columns(record: BuildRecord, overrides: dict[str, Any], positions: list[Position],
                      act_timeout: float) -> list[int]:
    entry, _ = parse_spec(record.spec.partition(":")[0])
    columns = []
    for position in positions:
        agent = entry.factory(**{**record.parameters, **overrides})
        columns.append(agent(_observation(position), _configuration(position, act_timeout)))
    return columns


def _comparison_overrides(record: BuildRecord) -> dict[str, Any]:
    return {key: value for key, value in COMPARISON_PARAMETERS.items() if key in record.parameters}


def run_isolated(path: Path, request: dict[str, Any], python: str = sys.executable) -> dict[str, Any]:
    """Run ``isolated_runner`` on a copy of ``path`` alone in a temporary directory; its JSON result."""
    with tempfile.TemporaryDirectory(prefix="connectx-validate-") as workdir:
        copy = Path(workdir) / "submission.py"
        shutil.copyfile(path, copy)
        request = {**request, "file": str(copy), "site_dirs": _kaggle_site_dirs(),
                   "forbidden_packages": list(OUR_PACKAGES), "project_root": str(PROJECT_ROOT)}
        request_path, result_path = Path(workdir) / "request.json", Path(workdir) / "result.json"
        request_path.write_text(json.dumps(request))
        completed = subprocess.run(
            [python, "-I", "-S", isolated_runner.__file__, str(request_path), str(result_path)],
            cwd=workdir, capture_output=True, text=True, timeout=RUNNER_TIMEOUT,
        )
        if completed.returncode != 0 or not result_path.exists():
            raise RuntimeError(f"the isolated validation process failed (exit {completed.returncode}):\n"
                               + completed.stderr[-2000:])
        result: dict[str, Any] = json.loads(result_path.read_text())
        return result


def validate_file(path: str | Path, act_timeout: float = 2.0, margin: float = DEFAULT_MARGIN,
                  games: bool = True, compare: bool = True, overage_reserve: float | None = None,
                  python: str = sys.executable) -> ValidationReport:
    """Every check on the submission at ``path``; ``games=False`` skips (b)-(d), the slow part.

    By default no move may take more than ``act_timeout - margin``. With ``overage_reserve``, a
    later move may, for agents that spend Kaggle's overage bank on purpose, as long as the bank
    never falls below ``overage_reserve`` seconds; the first move must always fit.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist: build one with `connectx build AGENT -o {path}`")
    size = path.stat().st_size
    checks = [Check("(e) size", size <= SIZE_LIMIT, f"{size:,} bytes (limit {SIZE_LIMIT:,})",
                    "embed less data (a smaller opening book) or compress it better")]
    source = path.read_text(encoding="utf-8")
    record = read_build_record(source)
    positions = comparison_positions()
    request: dict[str, Any] = {"episodes": validation_episodes() if games else [],
                               "configuration": {"actTimeout": act_timeout}}
    overrides: dict[str, Any] = {}
    expected: list[int] | None = None
    if compare and record is not None:
        overrides = _comparison_overrides(record)
        try:
            expected = _expected_columns(record, overrides, positions, act_timeout)
        except AgentSpecError as error:
            checks.append(Check("(f) same moves as unbundled", False, f"cannot build {record.spec} unbundled: {error}",
                                "validate the file in the checkout it was built from, or rebuild it here"))
        else:
            request["parity"] = {"factory": FACTORY_FUNCTION, "overrides": overrides,
                                 "observations": [_observation(p) for p in positions],
                                 "configurations": [_configuration(p, act_timeout) for p in positions]}
    elif compare:
        checks.append(Check("(f) same moves as unbundled", False,
                            f"{path} records no {SPEC_CONSTANT}/{PARAMETERS_CONSTANT}",
                            "build the file with `connectx build AGENT`, or validate with --no-compare"))

    result = run_isolated(path, request, python)
    visible = result["isolation"]["visible"]
    checks.append(Check("isolation", not visible,
                        "the validation process cannot import our packages" if not visible
                        else f"the validation process can import {', '.join(visible)}",
                        "run the validator from an environment where our packages come only from the project's "
                        "editable install (make install), not from site-packages"))
    load = result["load"]
    if not load["ok"]:
        checks.append(Check("(a) Kaggle's loader", False, "loading failed:\n" + load["error"].rstrip(),
                            "run the file with `python FILE` to see the error; if it needs one of our modules, "
                            "rebuild it with `connectx build`"))
        return ValidationReport(str(path), size, tuple(checks))
    entry_ok = load["name"] == "agent" and load["argcount"] in (1, 2)
    checks.append(Check("(a) Kaggle's loader", entry_ok,
                        f"returns {load['name']}() taking {load['argcount']} arguments, "
                        f"loaded in {load['seconds']:.3f} s",
                        "the last callable the file binds must be agent(observation, configuration); "
                        "rebuild with `connectx build` and define nothing after the entry function"))
    report_times: dict[str, float | None] = {"load_seconds": load["seconds"]}
    if games:
        checks.extend(_episode_checks(result["episodes"]))
        timing = timing_check(result["episodes"], act_timeout, margin, overage_reserve)
        checks.append(timing.check)
        report_times.update(first_move_seconds=timing.first, slowest_move_seconds=timing.slowest,
                            overage_left_seconds=timing.overage_left)
    if expected is not None:
        checks.append(_parity_check(result.get("parity", {}), expected, positions, overrides))
    return ValidationReport(str(path), size, tuple(checks), **report_times)


def _our_seats(episode: dict[str, Any]) -> list[int]:
    return [seat for seat, name in enumerate(episode["agents"]) if name == isolated_runner.FILE]


def _episode_checks(episodes: list[dict[str, Any]]) -> list[Check]:
    checks = []
    for episode in episodes:
        label = "(b)" if episode["name"].startswith("validation") else "(c)"
        name = f"{label} {episode['name']}"
        if episode.get("error"):
            checks.append(Check(name, False, "the episode raised:\n" + episode["error"].rstrip(),
                                "run `connectx play` with the file to reproduce it"))
            continue
        statuses = episode["statuses"]
        noisy = [seat for seat in _our_seats(episode) if episode["stderr"][seat]]
        if statuses != ["DONE", "DONE"]:
            checks.append(Check(name, False, f"ended with statuses {statuses} after {episode['moves']} moves",
                                "ERROR means the agent raised, INVALID a bad column, TIMEOUT too slow a move: "
                                "replay it with `connectx play FILE kaggle:negamax`"))
        elif noisy:
            first_line = episode["stderr"][noisy[0]].strip().splitlines()[0]
            checks.append(Check(name, False, f"ended DONE but the agent reported an error it covered with a fallback "
                                f"move: {first_line}", "fix the failure the agent logs on stderr"))
        else:
            checks.append(Check(name, True, f"both DONE after {episode['moves']} moves, rewards {episode['rewards']}"))
    return checks


@dataclass(frozen=True)
class Timing:
    check: Check
    first: float | None = None
    slowest: float | None = None
    overage_left: float | None = None


def timing_check(episodes: list[dict[str, Any]], act_timeout: float, margin: float,
                  overage_reserve: float | None) -> Timing:
    """(d): the slowest first move (which includes loading the file), the slowest later move, and
    the lowest overage bank the file finished a game with."""
    first_moves: list[float] = []
    later_moves: list[float] = []
    overage_left: list[float] = []
    for episode in episodes:
        if episode.get("error"):
            continue
        for seat in _our_seats(episode):
            durations = episode["durations"][seat]
            first_moves += durations[:1]
            later_moves += durations[1:]
            overage_left.append(episode["overage"][seat][1])
    if not first_moves:
        return Timing(Check("(d) move times", False, "no move of the file was timed", "see the failed episodes above"))
    limit = act_timeout - margin
    first, slowest, lowest_bank = max(first_moves), max(later_moves, default=0.0), min(overage_left)
    over = sum(duration > limit for duration in later_moves)
    detail = (f"first move (loading included) {first:.3f} s, slowest later move {slowest:.3f} s, "
              f"limit {limit:.2f} s (actTimeout {act_timeout:g} less {margin:g} margin)")
    if overage_reserve is None:
        passed = first <= limit and not over
    else:
        passed = first <= limit and lowest_bank >= overage_reserve
        detail += (f"; {over} later moves over the limit drew on the overage bank, lowest bank left "
                   f"{lowest_bank:.1f} s (reserve {overage_reserve:g} s)")
    fix = ("a slow first move means a slow load: embed less data or decode it lazily; a slow later move means "
           "the agent's budget ignores actTimeout: give it a deadline from the configuration (an agent that "
           "spends the overage bank on purpose is validated with --overage-reserve SECONDS)")
    return Timing(Check("(d) move times", passed, detail, fix), first, slowest, lowest_bank)


def _parity_check(result: dict[str, Any], expected: list[int], positions: list[Position],
                  overrides: dict[str, Any]) -> Check:
    name = "(f) same moves as unbundled"
    if result.get("error") or "columns" not in result:
        return Check(name, False, "the bundled agent failed on the comparison positions:\n"
                     + str(result.get("error", "no answer")).rstrip(),
                     "rebuild with `connectx build`; if it still fails, the bundler mangled a module: report it")
    actual = result["columns"]
    differing = [f"{position!r}: unbundled {want}, bundled {got}"
                 for position, want, got in zip(positions, expected, actual, strict=True) if want != got]
    setting = ", ".join(f"{k}={v}" for k, v in overrides.items()) or "built parameters"
    if differing:
        return Check(name, False, f"{len(differing)} of {len(positions)} positions differ ({setting}):\n  "
                     + "\n  ".join(differing),
                     "rebuild from the current sources; if the agent's choice depends on the clock, give its "
                     "factory a parameter that fixes it (like mcts's simulations) and add it to COMPARISON_PARAMETERS")
    return Check(name, True, f"{len(positions)} positions, identical columns ({setting})")
