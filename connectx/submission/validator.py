"""Prove a submission file locally the way Kaggle checks it, and say how to fix what fails.

The file runs in a fresh ``python -I -S`` process (``isolated_runner``) that sees only the
standard library and kaggle-environments, from a directory holding nothing but a copy of it, so
a bundle that still needs our packages fails here and not on Kaggle. The checks:

(a) Kaggle's loader returns a callable that Kaggle's call gives the observation, judged as
``kaggle_environments`` runs it: the last callable the file binds, whatever its name, called
with as many of ``observation, configuration`` as it has positional parameters; (b) the
validation episode, the file against itself, ends with both statuses DONE; (c) so do games
against kaggle's ``random`` and ``negamax`` in both seats; (d) the first move (loading
included) and every later move finish within ``actTimeout`` less a margin, and the slowest move
of each game is reported (a garbage collector pause shows there); (e) the file is at most 5
MB; (f) for a file ``connectx build`` wrote (it records the agent and parameters it was built
from), the bundled agent chooses the columns the unbundled one does, once with the parameters
the file ships and once with ``COMPARISON_PARAMETERS``, each on positions whose move is fixed
(``fixed_positions``); any other file, like the one Kaggle's starter writes, has no agent of ours
to compare with, and (f) says it was skipped.

Before any of that runs, the inputs are checked (``read_submission``, ``check_settings``): a
file that is missing, a directory, unreadable, not UTF-8, not Python, or binds no callable at
all (no ``def``, ``lambda``, ``class`` or ``import`` at its top level) is a
``ValidationInputError``, one line saying what to do, since no check could say more about it.
A file that parses but fails when run (a missing import, an exception, a last callable Kaggle
cannot call) is what the checks are for: check (a) fails and says why.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import AgentSpec, SourceFileError, read_python_file
from connectx.agents.core.kaggle_boundary import board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.registry import AgentEntry, AgentSpecError
from connectx.submission import isolated_runner
from connectx.submission.bundler import (
    ENTRY_FUNCTION,
    FACTORY_FUNCTION,
    BuildRecord,
    read_build_record,
)
from connectx.submission.fixed_positions import (
    FixedPosition,
    comparison_positions,
    shipped_positions,
    watches_the_clock,
)
from connectx.submission.module_graph import OUR_PACKAGES, PROJECT_ROOT

KAGGLE_ENVIRONMENTS_REQUIREMENT = "kaggle-environments>=1.9.7"
"""What ``pip install`` needs to run validations: the oldest kaggle-environments the project is tested with."""
DEFAULT_MARGIN = 0.2
"""Seconds every move must leave unused of ``actTimeout``: Kaggle's own timing adds overhead."""
SIZE_LIMIT = 5_000_000
"""Bytes; larger submissions are reported to fail on Kaggle."""
EPISODE_SEED = 20260
COMPARISON_PARAMETERS = {"seed": 1, "simulations": 200, "max_nodes": 5000, "time_budget": 0.5}
"""Overrides applied, where the factory takes them, to both agents of the overridden comparison
of check (f), so a choice depends on the position rather than on the clock: a seed, a cap on
simulations (mcts) or nodes (solver), and a short budget to keep the comparison quick. The
shipped comparison takes only the seed from here, for a clock-free agent built without one
(``fixed_positions`` says why)."""
RUNNER_TIMEOUT = 3600.0
"""Seconds before the isolated process is abandoned (five games at 2 s a move fit well inside)."""
SHIPPED = "shipped parameters"
OVERRIDDEN = "overridden parameters"


class ValidationInputError(ValueError):
    """A file or setting no check can judge: the message is one line saying what to do instead."""


@dataclass(frozen=True)
class Check:
    """One named check: whether it passed, the figures it saw, and what to do when it failed.

    A ``note`` is worth knowing but fails nothing; a ``skipped`` check did not apply to the file,
    so it counts as passed and says why it was not run.
    """

    name: str
    passed: bool
    detail: str
    fix: str = ""
    note: str = ""
    skipped: bool = False

    @classmethod
    def skip(cls, name: str, why: str) -> Check:
        """A check that does not apply, saying why: a silent omission would read as a check forgotten."""
        return cls(name, True, why, skipped=True)

    def __str__(self) -> str:
        label = "SKIP" if self.skipped else "PASS" if self.passed else "FAIL"
        lines = [f"[{label}] {self.name}: {self.detail}"]
        if self.note:
            lines.append(f"       note: {self.note}")
        if self.fix and not self.passed:
            lines.append(f"       fix: {self.fix}")
        return "\n".join(lines)


@dataclass(frozen=True)
class ValidationReport:
    path: str
    size_bytes: int
    checks: tuple[Check, ...]
    load_seconds: float | None = None
    first_move_seconds: float | None = None
    slowest_move_seconds: float | None = None
    """The slowest move after the first, over every game the file played."""
    slowest_move_at: str | None = None
    """Where that move was: the game and the move number within it."""
    overage_left_seconds: float | None = None
    """The lowest overage bank the file ended a game with (Kaggle starts it at 60 s)."""

    @property
    def passed(self) -> bool:
        return all(check.passed for check in self.checks)

    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.passed]

    def figures(self) -> str:
        """The measured figures on one line, for the end of the command's output."""
        parts = [f"size {self.size_bytes:,} bytes"]
        if self.load_seconds is not None:
            parts.append(f"load {self.load_seconds:.3f} s")
        if self.first_move_seconds is not None:
            parts.append(f"first move {self.first_move_seconds:.3f} s (loading included)")
        if self.slowest_move_seconds is not None:
            parts.append(f"slowest later move {self.slowest_move_seconds:.3f} s [{self.slowest_move_at}]")
        if self.overage_left_seconds is not None:
            parts.append(f"lowest overage bank {self.overage_left_seconds:.1f} s")
        return "figures: " + ", ".join(parts)


@dataclass(frozen=True)
class Comparison:
    """One half of check (f): the parameters both agents get on top of the built ones, and the positions."""

    name: str
    overrides: dict[str, Any]
    positions: tuple[FixedPosition, ...]

    def setting(self) -> str:
        changed = ", ".join(f"{key}={value}" for key, value in self.overrides.items())
        return f"parameters as built but {changed}" if changed else "parameters exactly as built"

    def kinds(self) -> str:
        counts: dict[str, int] = {}
        for fixed in self.positions:
            counts[fixed.kind] = counts.get(fixed.kind, 0) + 1
        return ", ".join(f"{count} {kind}" for kind, count in counts.items())


def read_submission(path: Path) -> str:
    """The text of the submission at ``path``; ValidationInputError if it is no file a check could judge."""
    # `connectx build` replaces a file it did not write only when told to: the advice must say so.
    rebuild = f"build one with `connectx build AGENT -o {path}{' --force' if path.is_file() else ''}`"
    try:
        source = read_python_file(str(path))
    except SourceFileError as error:
        remedy = f"{error.remedy} or " if error.remedy else ""
        raise ValidationInputError(f"{path} {error.problem}; {remedy}{rebuild}") from None
    tree = ast.parse(source, str(path))
    if not any(_may_bind_a_callable(statement) for statement in tree.body):
        raise ValidationInputError(f"{path} binds no function at its top level, so Kaggle's loader finds no agent: "
                                   f"end it with def agent(observation, configuration), or {rebuild}")
    return source


def _may_bind_a_callable(statement: ast.stmt) -> bool:
    """Whether a top-level statement can bind a callable: a ``def``, ``class``, import or ``lambda`` assignment."""
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
        return True
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    return isinstance(value, ast.Lambda)


def check_settings(act_timeout: float, margin: float, overage_reserve: float | None) -> None:
    """ValidationInputError for timing settings no move could meet or that mean nothing."""
    if not act_timeout > 0:
        raise ValidationInputError(f"--act-timeout {act_timeout:g}: give Kaggle's actTimeout in seconds, "
                                   "a positive number (2 on Kaggle)")
    if not 0 <= margin < act_timeout:
        raise ValidationInputError(f"--margin {margin:g}: give the seconds every move must leave unused, "
                                   f"0 or more and less than --act-timeout {act_timeout:g}")
    if overage_reserve is not None and not overage_reserve >= 0:
        raise ValidationInputError(f"--overage-reserve {overage_reserve:g}: give the seconds of Kaggle's 60 s "
                                   "overage bank that must stay unspent, 0 or more (make submission uses 20)")


def _observation(position: Position) -> dict[str, Any]:
    return {"board": board_of(position), "mark": mark_of(position), "step": position.moves,
            "remainingOverageTime": 60.0}


def _configuration(position: Position, act_timeout: float) -> dict[str, Any]:
    shape = position.geometry
    return {"rows": shape.rows, "columns": shape.columns, "inarow": shape.inarow, "actTimeout": act_timeout}


def validation_episodes() -> list[dict[str, Any]]:
    """The five games every validation plays: the file against itself, then against each built-in in both seats."""
    file = isolated_runner.FILE
    pairs = [("validation episode (the file against itself)", [file, file])]
    for builtin in ("random", "negamax"):
        pairs.append((f"first against kaggle's {builtin}", [file, builtin]))
        pairs.append((f"second against kaggle's {builtin}", [builtin, file]))
    return [{"name": name, "agents": agents, "seed": EPISODE_SEED + index}
            for index, (name, agents) in enumerate(pairs)]


def _kaggle_site_dirs(workdir: Path) -> list[str]:
    """The directory holding kaggle-environments as the isolated process sees it: without our packages.

    In a clone our packages are not there (the editable install finds them through a path hook
    that ``-S`` turns off). Installed from a wheel they sit beside kaggle-environments, so the
    process gets a directory in ``workdir`` of links to everything else there instead.
    """
    spec = importlib.util.find_spec("kaggle_environments")
    if spec is None or spec.origin is None:
        raise RuntimeError("kaggle-environments is not installed, and validation runs the file in it: "
                           f"run `pip install \"{KAGGLE_ENVIRONMENTS_REQUIREMENT}\"`")
    site = Path(spec.origin).resolve().parent.parent
    ours = {name for name in OUR_PACKAGES if (site / name).exists()}
    if not ours:
        return [str(site)]
    view = workdir / "site-packages"
    view.mkdir()
    for entry in site.iterdir():
        if entry.name not in ours:
            (view / entry.name).symlink_to(entry)
    return [str(view)]


def comparisons(entry: AgentEntry, record: BuildRecord) -> list[Comparison]:
    """Check (f)'s two comparisons for the agent ``record`` describes: shipped, then overridden parameters."""
    unseeded = "seed" in record.parameters and record.parameters["seed"] is None
    seed = {"seed": COMPARISON_PARAMETERS["seed"]} if unseeded and not watches_the_clock(entry) else {}
    overridden = {key: value for key, value in COMPARISON_PARAMETERS.items() if key in record.parameters}
    return [
        Comparison(SHIPPED, seed, tuple(shipped_positions(entry, record.parameters))),
        Comparison(OVERRIDDEN, overridden, tuple(FixedPosition(p, "seeded") for p in comparison_positions())),
    ]


def _expected_columns(entry: AgentEntry, record: BuildRecord, comparison: Comparison, act_timeout: float) -> list[int]:
    """The unbundled agent's column on each position, a fresh agent for each, as the bundle is asked."""
    columns = []
    for fixed in comparison.positions:
        agent = entry.build({**record.parameters, **comparison.overrides})
        columns.append(agent(_observation(fixed.position), _configuration(fixed.position, act_timeout)))
    return columns


def run_isolated(path: Path, request: dict[str, Any], python: str = sys.executable) -> dict[str, Any]:
    """Run ``isolated_runner`` on a copy of ``path`` alone in a temporary directory; its JSON result."""
    with tempfile.TemporaryDirectory(prefix="connectx-validate-") as workdir:
        copy = Path(workdir) / "submission.py"
        shutil.copyfile(path, copy)
        request = {**request, "file": str(copy), "site_dirs": _kaggle_site_dirs(Path(workdir)),
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
    never falls below ``overage_reserve`` seconds; the first move must always fit. Raises
    ValidationInputError, before running anything, for a file or setting no check can judge.
    """
    path = Path(path)
    check_settings(act_timeout, margin, overage_reserve)
    source = read_submission(path)
    size = path.stat().st_size
    checks = [Check("(e) size", size <= SIZE_LIMIT, f"{size:,} bytes (limit {SIZE_LIMIT:,})",
                    "embed less data (a smaller opening book) or compress it better")]
    record = read_build_record(source)
    request: dict[str, Any] = {"episodes": validation_episodes() if games else [],
                               "configuration": {"actTimeout": act_timeout}}
    planned, unplanned = _planned_comparisons(record, compare, act_timeout)
    request["comparisons"] = [
        {"factory": FACTORY_FUNCTION, "overrides": comparison.overrides,
         "observations": [_observation(fixed.position) for fixed in comparison.positions],
         "configurations": [_configuration(fixed.position, act_timeout) for fixed in comparison.positions]}
        for comparison, _ in planned]

    result = run_isolated(path, request, python)
    visible = result["isolation"]["visible"]
    checks.append(Check("isolation", not visible,
                        "the validation process cannot import our packages" if not visible
                        else f"the validation process can import {', '.join(visible)}",
                        "install the project (`pip install -e .` in a checkout, or its wheel) instead of copying "
                        "or linking its packages into site-packages"))
    load = result["load"]
    checks.append(loader_check(load, built=record is not None))
    if not load["ok"]:
        return ValidationReport(str(path), size, (*checks, *([unplanned] if unplanned else [])))
    report_times: dict[str, Any] = {"load_seconds": load["seconds"]}
    if games:
        checks.extend(_episode_checks(result["episodes"]))
        timing = timing_check(result["episodes"], act_timeout, margin, overage_reserve)
        checks.append(timing.check)
        report_times.update(first_move_seconds=timing.first, slowest_move_seconds=timing.slowest,
                            slowest_move_at=timing.slowest_at, overage_left_seconds=timing.overage_left)
    answers = result.get("comparisons", [])
    for index, (comparison, expected) in enumerate(planned):
        checks.append(_parity_check(answers[index] if index < len(answers) else {}, expected, comparison))
    if unplanned is not None:
        checks.append(unplanned)
    return ValidationReport(str(path), size, tuple(checks), **report_times)


def _planned_comparisons(record: BuildRecord | None, compare: bool,
                         act_timeout: float) -> tuple[list[tuple[Comparison, list[int]]], Check | None]:
    """Check (f)'s comparisons with the unbundled agent's columns, or the check saying why there are none.

    Only a file ``connectx build`` wrote names an agent of ours to compare with; any other is skipped.
    """
    name = "(f) same moves as unbundled"
    if not compare:
        return [], Check.skip(name, "--no-compare was given")
    if record is None:
        return [], Check.skip(name, "the file was not written by `connectx build`, so there is no agent of ours "
                                    "to compare it with")
    try:
        entry = AgentSpec.parse(record.spec.partition(":")[0]).entry
        if entry is None:
            raise AgentSpecError(f"{record.spec} names no registered agent")
        return [(comparison, _expected_columns(entry, record, comparison, act_timeout))
                for comparison in comparisons(entry, record)], None
    except AgentSpecError as error:
        return [], Check(name, False, f"cannot build {record.spec} unbundled: {error}",
                         "validate the file in the checkout it was built from, or rebuild it here")


def loader_check(load: dict[str, Any], built: bool) -> Check:
    """Check (a): what Kaggle's loader returned, judged as Kaggle runs it.

    Kaggle calls the last callable the file binds, whatever its name, with as many of
    ``observation, configuration`` as it has positional parameters (``isolated_runner.kaggle_arguments``);
    it fails if it never gets the observation or the call cannot bind. A file ``connectx build``
    wrote ends with ``agent``, the function check (f) compares: anything bound after it fails.
    """
    name = "(a) Kaggle's loader"
    if not load["ok"]:
        return Check(name, False, "loading failed:\n" + load["error"].rstrip(),
                     "run the file with `python FILE` to see the error; if it needs one of our modules, "
                     "rebuild it with `connectx build`")
    called, arguments = load["name"], load["arguments"]
    call = f"{called}({', '.join(arguments)})"
    detail = (f"returns {called}{load['parameters'] or '(...)'}, which Kaggle calls as {call}; "
              f"loaded in {load['seconds']:.3f} s")
    last = ("Kaggle's loader takes the last callable the file binds (a def, class, lambda or imported function): "
            "end the file with your agent, def agent(observation, configuration)")
    if built and called != ENTRY_FUNCTION:
        return Check(name, False, f"{detail}; the file was built with {ENTRY_FUNCTION}() last, the function check (f) "
                     "compares, and something bound after it now comes last",
                     "rebuild with `connectx build` and bind nothing after the entry function")
    if load["is_class"]:
        return Check(name, False, f"{detail}; {called} is a class, so Kaggle would take the object that call makes "
                     "as its move", last)
    if not arguments:
        return Check(name, False, f"{detail}; with no positional parameter it gets no arguments, so it never sees "
                     "the board", last)
    if load["call_error"]:
        return Check(name, False, f"{detail}; that call fails: {load['call_error']}",
                     "Kaggle passes nothing but these arguments: give any further parameter a default; if this "
                     "is not your agent, end the file with it, def agent(observation, configuration)")
    notes = []
    if called != ENTRY_FUNCTION:
        notes.append(f"Kaggle takes the last callable whatever its name, so {called} is the agent it plays")
    if arguments == ["observation"]:
        notes.append("Kaggle passes it the observation only, as it has one positional parameter")
    return Check(name, True, detail, note="; ".join(notes))


def _our_seats(episode: dict[str, Any]) -> list[int]:
    return [seat for seat, name in enumerate(episode["agents"]) if name == isolated_runner.FILE]


@dataclass(frozen=True)
class SlowestMove:
    """The file's slowest move after its first in one game: seconds, and the move's number in the game."""

    seconds: float
    move: int

    @classmethod
    def of(cls, episode: dict[str, Any]) -> SlowestMove | None:
        """None when the file made no move after its first. Seat ``s`` makes the game's moves ``s+1, s+3, ...``."""
        timed = [(seconds, 2 * index + seat + 1) for seat in _our_seats(episode)
                 for index, seconds in enumerate(episode["durations"][seat]) if index > 0]
        if not timed:
            return None
        seconds, move = max(timed)
        return cls(seconds, move)


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
        slowest = SlowestMove.of(episode)
        slowest_text = f", slowest later move {slowest.seconds:.3f} s (move {slowest.move})" if slowest else ""
        if statuses != ["DONE", "DONE"]:
            checks.append(Check(name, False, f"ended with statuses {statuses} after {episode['moves']} moves",
                                "ERROR means the agent raised, INVALID a bad column, TIMEOUT too slow a move: "
                                "replay it with `connectx play FILE kaggle:negamax`"))
        elif noisy:
            first_line = episode["stderr"][noisy[0]].strip().splitlines()[0]
            checks.append(Check(name, False, f"ended DONE but the agent reported an error it covered with a fallback "
                                f"move: {first_line}", "fix the failure the agent logs on stderr"))
        else:
            checks.append(Check(name, True, f"both DONE after {episode['moves']} moves, rewards {episode['rewards']}"
                                + slowest_text))
    return checks


@dataclass(frozen=True)
class Timing:
    check: Check
    first: float | None = None
    slowest: float | None = None
    slowest_at: str | None = None
    overage_left: float | None = None


def timing_check(episodes: list[dict[str, Any]], act_timeout: float, margin: float,
                 overage_reserve: float | None) -> Timing:
    """(d): the slowest first move (which includes loading the file), the slowest later move over
    every game and where it was, and the lowest overage bank the file finished a game with."""
    first_moves: list[float] = []
    later_moves: list[float] = []
    overage_left: list[float] = []
    slowest_by_game: list[tuple[float, str]] = []
    for episode in episodes:
        if episode.get("error"):
            continue
        for seat in _our_seats(episode):
            durations = episode["durations"][seat]
            first_moves += durations[:1]
            later_moves += durations[1:]
            overage_left.append(episode["overage"][seat][1])
        slowest_move = SlowestMove.of(episode)
        if slowest_move is not None:
            slowest_by_game.append((slowest_move.seconds, f"{episode['name']}, move {slowest_move.move}"))
    if not first_moves:
        return Timing(Check("(d) move times", False, "no move of the file was timed", "see the failed episodes above"))
    limit = act_timeout - margin
    first, lowest_bank = max(first_moves), min(overage_left)
    slowest, slowest_at = max(slowest_by_game, default=(0.0, "no later move"))
    over = sum(duration > limit for duration in later_moves)
    detail = (f"first move (loading included) {first:.3f} s, slowest later move {slowest:.3f} s "
              f"[{slowest_at}], limit {limit:.2f} s (actTimeout {act_timeout:g} less {margin:g} margin)")
    if overage_reserve is None:
        passed = first <= limit and not over
    else:
        passed = first <= limit and lowest_bank >= overage_reserve
        detail += (f"; {over} later moves over the limit drew on the overage bank, lowest bank left "
                   f"{lowest_bank:.1f} s (reserve {overage_reserve:g} s)")
    fix = ("a slow first move means a slow load: embed less data or decode it lazily; a slow later move means "
           "the agent's budget ignores actTimeout: give it a deadline from the configuration (an agent that "
           "spends the overage bank on purpose is validated with --overage-reserve SECONDS)")
    return Timing(Check("(d) move times", passed, detail, fix), first, slowest, slowest_at, lowest_bank)


def _parity_check(result: dict[str, Any], expected: list[int], comparison: Comparison) -> Check:
    name = f"(f) same moves as unbundled, {comparison.name}"
    if result.get("error") or "columns" not in result:
        return Check(name, False, "the bundled agent failed on the comparison positions:\n"
                     + str(result.get("error", "no answer")).rstrip(),
                     "rebuild with `connectx build`; if it still fails, the bundler mangled a module: report it")
    actual = result["columns"]
    differing = [f"{fixed.position!r} ({fixed.kind}): unbundled {want}, bundled {got}"
                 for fixed, want, got in zip(comparison.positions, expected, actual, strict=True) if want != got]
    count = len(comparison.positions)
    if differing:
        if comparison.name == OVERRIDDEN:
            fix = ("if the agent's choice depends on the clock, give its factory a parameter that fixes it "
                   "(like mcts's simulations) and add it to COMPARISON_PARAMETERS")
        else:
            fix = ("if one of these positions does not fix the agent's move whatever the clock, correct how "
                   "submission/fixed_positions.py chooses them")
        return Check(name, False, f"{len(differing)} of {count} positions differ ({comparison.setting()}):\n  "
                     + "\n  ".join(differing), "rebuild from the current sources; " + fix)
    return Check(name, True, f"{count} positions ({comparison.kinds()}), identical columns ({comparison.setting()})")
