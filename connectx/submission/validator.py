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
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import AgentSpec, SourceFileError, read_python_file
from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.fault_words import error_lines, invalid_text, returned_problem, timeout_text
from connectx.agents.core.kaggle_boundary import FAULT_MARK, board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.registry import AgentEntry, AgentSpecError
from connectx.agents.search.compiled_solver import CORE_MARK
from connectx.submission import isolated_runner
from connectx.submission.bundler import (
    ENTRY_FUNCTION,
    FACTORY_FUNCTION,
    BuildRecord,
    read_build_record,
    written_by_build,
)
from connectx.submission.compiled_core import (
    GLIBC_CEILING,
    embedded_library,
    forced_core_episodes,
    glibc_needed,
    version_text,
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
FULL_BANK = isolated_runner.FULL_BANK
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
    warns: bool = False
    """A stricter check of ours than Kaggle's (its name says so) run without ``--strict``: failing, it warns."""

    @classmethod
    def skip(cls, name: str, why: str) -> Check:
        """A check that does not apply, saying why: a silent omission would read as a check forgotten."""
        return cls(name, True, why, skipped=True)

    @property
    def holds(self) -> bool:
        """Whether the check lets the file pass: it passed, or it is a stricter check of ours that only warns."""
        return self.passed or self.warns

    def __str__(self) -> str:
        label = "SKIP" if self.skipped else "PASS" if self.passed else "WARN" if self.warns else "FAIL"
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
        return all(check.holds for check in self.checks)

    def failures(self) -> list[Check]:
        return [check for check in self.checks if not check.holds]

    def warnings(self) -> list[Check]:
        return [check for check in self.checks if not check.passed and check.warns]

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


ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")
"""Kaggle's other kind of submission: an archive with `main.py` at its root, beside the files it reads."""
ARCHIVE_ENTRY = "main.py"
ALONE = (
    "validate runs a copy of the file alone in an empty folder, as Kaggle runs a single-file submission: "
    "embed the data it reads in the file (connectx build embeds our agents' data), or submit a .tar.gz "
    f"with {ARCHIVE_ENTRY} and the data at its root, reading them from the folder Kaggle's loader puts last "
    f"on sys.path while {ARCHIVE_ENTRY} loads (validate takes the .tar.gz as Kaggle does)"
)
"""What a file that reads or imports something beside it needs to know: shown where that fails."""


def is_archive(path: Path) -> bool:
    return path.name.endswith(ARCHIVE_SUFFIXES)


def read_submission(path: Path) -> str:
    """The submission's Python (the file, or an archive's `main.py`); ValidationInputError if it is no
    submission a check could judge. The advice never risks the user's own file: only a file
    ``connectx build`` wrote is offered to ``build --force``, any other gets a new name."""
    if path.is_file() and path.suffix != ".py" and not is_archive(path):
        raise ValidationInputError(
            f"{path} is not a .py file (nor a .tar.gz with {ARCHIVE_ENTRY} at its root, "
            "Kaggle's other kind of submission): give the agent's Python file"
        )
    if written_by_build(path):
        rebuild = f"rebuild it with `connectx build AGENT -o {path} --force`"
    else:
        rebuild = f"build a new one with `connectx build AGENT -o {_fresh_name(path)}`"
    if is_archive(path) and path.is_file():
        source = _archive_entry(path)
        where = f"{path}'s {ARCHIVE_ENTRY}"
    else:
        try:
            source = read_python_file(str(path))
        except SourceFileError as error:
            remedy = f"{error.remedy} or " if error.remedy else "fix it or " if path.is_file() else ""
            raise ValidationInputError(f"{path} {error.problem}; {remedy}{rebuild}") from None
        where = str(path)
    tree = ast.parse(source, str(path))
    if not any(_may_bind_a_callable(statement) for statement in tree.body):
        raise ValidationInputError(
            f"{where} binds no function at its top level, so Kaggle's loader finds no agent: "
            f"end it with def agent(observation, configuration), or {rebuild}"
        )
    return source


def _fresh_name(path: Path) -> Path:
    """A name beside ``path`` that no file has: where ``build`` may write without replacing anything."""
    stem = path.name.split(".")[0] or "submission"
    candidate = path.with_name(f"{stem}_built.py")
    number = 2
    while candidate.exists():
        candidate, number = path.with_name(f"{stem}_built{number}.py"), number + 1
    return candidate


def _archive_entry(path: Path) -> str:
    """The text of an archive's `main.py`; ValidationInputError if Kaggle could not run it."""
    try:
        with tarfile.open(path, "r:gz") as archive:
            names = {name.removeprefix("./"): name for name in archive.getnames()}
            if ARCHIVE_ENTRY not in names:
                raise ValidationInputError(
                    f"{path} holds no {ARCHIVE_ENTRY} at its root, the file Kaggle runs "
                    f"from a .tar.gz: pack it with tar -czf {path.name} {ARCHIVE_ENTRY} "
                    "and the files it reads"
                )
            member = archive.extractfile(names[ARCHIVE_ENTRY])
            data = member.read() if member is not None else b""
    except (tarfile.TarError, OSError, EOFError) as error:
        raise ValidationInputError(
            f"{path} is not a .tar.gz archive Kaggle could unpack ({error}): pack it with "
            f"tar -czf {path.name} {ARCHIVE_ENTRY} and the files it reads"
        ) from None
    try:
        source = data.decode("utf-8")
        compile(source, ARCHIVE_ENTRY, "exec")
    except UnicodeDecodeError:
        raise ValidationInputError(f"{path}'s {ARCHIVE_ENTRY} is not UTF-8 text: save it as UTF-8") from None
    except (SyntaxError, ValueError) as error:
        line = f"line {error.lineno}: " if isinstance(error, SyntaxError) and error.lineno else ""
        message = error.msg if isinstance(error, SyntaxError) else str(error)
        raise ValidationInputError(
            f"{path}'s {ARCHIVE_ENTRY} is not valid Python ({line}{message}): fix it and pack it again"
        ) from None
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
        raise ValidationInputError(
            f"--act-timeout {act_timeout:g}: give Kaggle's actTimeout in seconds, a positive number (2 on Kaggle)"
        )
    if not 0 <= margin < act_timeout:
        raise ValidationInputError(
            f"--margin {margin:g}: give the seconds every move must leave unused, "
            f"0 or more and less than --act-timeout {act_timeout:g}"
        )
    if overage_reserve is not None and not overage_reserve >= 0:
        raise ValidationInputError(
            f"--overage-reserve {overage_reserve:g}: give the seconds of Kaggle's 60 s "
            "overage bank that must stay unspent, 0 or more (make submission uses 20)"
        )


def _observation(position: Position) -> dict[str, Any]:
    return {
        "board": board_of(position),
        "mark": mark_of(position),
        "step": position.moves,
        "remainingOverageTime": 60.0,
    }


def _configuration(position: Position, act_timeout: float) -> dict[str, Any]:
    shape = position.geometry
    return {**BoardSpec(shape.rows, shape.columns, shape.inarow).to_kaggle(), "actTimeout": act_timeout}


def validation_episodes() -> list[dict[str, Any]]:
    """The five games every validation plays: against each built-in in both seats, then the file against itself.

    Kaggle's own validation episode (the file against itself) comes last: a file that runs out of
    time ends the validation at its first TIMEOUT, and against kaggle's instant ``random`` that comes
    after one bank (about a minute), where two seats of a slow file would spend two.
    """
    file = isolated_runner.FILE
    pairs = []
    for builtin in ("random", "negamax"):
        pairs.append((f"first against kaggle's {builtin}", [file, builtin]))
        pairs.append((f"second against kaggle's {builtin}", [builtin, file]))
    pairs.append(("validation episode (the file against itself)", [file, file]))
    return [
        {"name": name, "agents": agents, "seed": EPISODE_SEED + index} for index, (name, agents) in enumerate(pairs)
    ]


def _kaggle_site_dirs(workdir: Path) -> list[str]:
    """The directory holding kaggle-environments as the isolated process sees it: without our packages.

    In a clone our packages are not there (the editable install finds them through a path hook
    that ``-S`` turns off). Installed from a wheel they sit beside kaggle-environments, so the
    process gets a directory in ``workdir`` of links to everything else there instead.
    """
    spec = importlib.util.find_spec("kaggle_environments")
    if spec is None or spec.origin is None:
        raise RuntimeError(
            "kaggle-environments is not installed, and validation runs the file in it: "
            f'run `pip install "{KAGGLE_ENVIRONMENTS_REQUIREMENT}"`'
        )
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


Progress = Callable[[dict[str, Any]], None]
"""Told each move the isolated process played: ``{"episode": name, "move": n, "seconds": s}``."""


def run_isolated(
    path: Path, request: dict[str, Any], python: str = sys.executable, progress: Progress | None = None
) -> dict[str, Any]:
    """Run ``isolated_runner`` on a copy of ``path`` alone in a temporary directory; its JSON result.

    A ``.tar.gz`` is unpacked there instead, and its `main.py` runs beside its files, as Kaggle runs
    one. The process's working directory is the folder above, so a file that opens its data by a
    relative name fails here as it may on Kaggle, which promises no working directory.
    """
    with tempfile.TemporaryDirectory(prefix="connectx-validate-") as workdir:
        folder = Path(workdir) / "agent"
        folder.mkdir()
        if is_archive(path):
            with tarfile.open(path, "r:gz") as archive:
                if hasattr(tarfile, "data_filter"):  # Python 3.11.4 on: refuse links and paths that leave the folder
                    archive.extractall(folder, filter="data")
                else:
                    archive.extractall(folder)
            copy = folder / ARCHIVE_ENTRY
        else:
            copy = folder / "submission.py"
            shutil.copyfile(path, copy)
        progress_path = Path(workdir) / "progress.jsonl"
        request = {
            **request,
            "file": str(copy),
            "site_dirs": _kaggle_site_dirs(Path(workdir)),
            "forbidden_packages": list(OUR_PACKAGES),
            "project_root": str(PROJECT_ROOT),
            "progress": str(progress_path),
            "marks": {"absorbed": FAULT_MARK, "core": CORE_MARK},
            "parent": os.getpid(),
        }
        request_path, result_path = Path(workdir) / "request.json", Path(workdir) / "result.json"
        request_path.write_text(json.dumps(request))
        # A file, not a pipe: a file that writes much to stderr as it loads must not block on a full pipe.
        stderr_path = Path(workdir) / "stderr.txt"
        with (
            stderr_path.open("w") as stderr,
            subprocess.Popen(
                [python, "-I", "-S", isolated_runner.__file__, str(request_path), str(result_path)],
                cwd=workdir,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
            ) as process,
        ):
            _follow(process, progress_path, progress or (lambda line: None))
        if process.returncode != 0 or not result_path.exists():
            raise RuntimeError(
                f"the isolated validation process failed (exit {process.returncode}):\n"
                + stderr_path.read_text(errors="replace")[-2000:]
            )
        # The reader knows their file by its own name, not by the copy's.
        text = result_path.read_text().replace(json.dumps(str(copy))[1:-1], json.dumps(str(path))[1:-1])
        result: dict[str, Any] = json.loads(text)
        return result


def _follow(process: subprocess.Popen[bytes], progress_path: Path, progress: Progress) -> None:
    """Tell ``progress`` each line the process appends until it ends (or ``RUNNER_TIMEOUT``)."""
    started, told = time.monotonic(), 0
    while process.poll() is None:
        if time.monotonic() - started > RUNNER_TIMEOUT:
            process.kill()
            break
        told = _tell_new_lines(progress_path, told, progress)
        time.sleep(0.1)
    _tell_new_lines(progress_path, told, progress)


def _tell_new_lines(progress_path: Path, told: int, progress: Progress) -> int:
    """Tell ``progress`` the complete lines past the first ``told``; how many have been told now."""
    if not progress_path.exists():
        return told
    lines = progress_path.read_text(encoding="utf-8").split("\n")[:-1]  # the last is incomplete, or empty
    for line in lines[told:]:
        progress(json.loads(line))
    return len(lines)


def validate_file(
    path: str | Path,
    act_timeout: float = 2.0,
    margin: float = DEFAULT_MARGIN,
    games: bool = True,
    compare: bool = True,
    overage_reserve: float | None = None,
    python: str = sys.executable,
    strict: bool = False,
    progress: Progress | None = None,
) -> ValidationReport:
    """Every check on the submission at ``path``; ``games=False`` skips (b)-(d), the slow part.

    The verdict is Kaggle's: a game's fault status, its clock (``actTimeout`` plus the 60 s bank),
    its loader, its size. Two checks of ours are stricter, and say so beside Kaggle's figure: the
    margin (no move over ``act_timeout - margin``; with ``overage_reserve``, a later move may be,
    while the bank keeps that many seconds) and no fault our guard absorbed. They warn, and fail
    only with ``strict``. Raises ValidationInputError, before running anything, for a file or setting
    no check can judge.
    """
    path = Path(path)
    check_settings(act_timeout, margin, overage_reserve)
    source = read_submission(path)
    size = path.stat().st_size
    checks = [
        Check(
            "(e) size",
            size <= SIZE_LIMIT,
            f"{size:,} bytes (limit {SIZE_LIMIT:,})",
            "embed less data (a smaller opening book) or compress it better",
        )
    ]
    record = read_build_record(source)
    library = embedded_library(source) if record is not None else None
    planned_episodes = [*validation_episodes(), *(forced_core_episodes(EPISODE_SEED + 100) if library else [])]
    request: dict[str, Any] = {
        "episodes": planned_episodes if games else [],
        "configuration": {"actTimeout": act_timeout},
    }
    planned, unplanned = _planned_comparisons(record, compare, act_timeout)
    request["comparisons"] = [
        {
            "factory": FACTORY_FUNCTION,
            "overrides": comparison.overrides,
            "observations": [_observation(fixed.position) for fixed in comparison.positions],
            "configurations": [_configuration(fixed.position, act_timeout) for fixed in comparison.positions],
        }
        for comparison, _ in planned
    ]

    result = run_isolated(path, request, python, progress)
    visible = result["isolation"]["visible"]
    checks.append(
        Check(
            "isolation",
            not visible,
            "the validation process cannot import our packages"
            if not visible
            else f"the validation process can import {', '.join(visible)}",
            "install the project (`pip install -e .` in a checkout, or its wheel) instead of copying "
            "or linking its packages into site-packages",
        )
    )
    load = result["load"]
    checks.append(loader_check(load, built=record is not None))
    if not load["ok"]:
        return ValidationReport(str(path), size, (*checks, *([unplanned] if unplanned else [])))
    report_times: dict[str, Any] = {"load_seconds": load["seconds"]}
    if games:
        episodes = [
            {"label": planned.get("label"), **played}
            for planned, played in zip(request["episodes"], result["episodes"], strict=True)
        ]
        checks.extend(_episode_checks(episodes, act_timeout))
        timing = timing_check(episodes, act_timeout, margin, overage_reserve, load["seconds"])
        checks.append(kaggle_clock_check(episodes, act_timeout, timing))
        checks.append(replace(timing.check, warns=not strict))
        checks.append(
            replace(absorbed_faults_check(episodes), warns=not strict)
            if record is not None
            else Check.skip(
                ABSORBED_CHECK,
                "the file was not written by `connectx build`, whose guard alone reports the faults it covers",
            )
        )
        report_times.update(
            first_move_seconds=timing.first,
            slowest_move_seconds=timing.slowest,
            slowest_move_at=timing.slowest_at,
            overage_left_seconds=timing.overage_left,
        )
    if library is not None:
        checks.append(core_check(library, result.get("episodes", [])))
    answers = result.get("comparisons", [])
    for index, (comparison, expected) in enumerate(planned):
        checks.append(_parity_check(answers[index] if index < len(answers) else {}, expected, comparison))
    if unplanned is not None:
        checks.append(unplanned)
    return ValidationReport(str(path), size, tuple(checks), **report_times)


def _planned_comparisons(
    record: BuildRecord | None, compare: bool, act_timeout: float
) -> tuple[list[tuple[Comparison, list[int]]], Check | None]:
    """Check (f)'s comparisons with the unbundled agent's columns, or the check saying why there are none.

    Only a file ``connectx build`` wrote names an agent of ours to compare with; any other is skipped.
    """
    name = "(f) same moves as unbundled"
    if not compare:
        return [], Check.skip(name, "--no-compare was given")
    if record is None:
        return [], Check.skip(
            name, "the file was not written by `connectx build`, so there is no agent of ours to compare it with"
        )
    try:
        entry = AgentSpec.parse(record.spec.partition(":")[0]).entry
        if entry is None:
            raise AgentSpecError(f"{record.spec} names no registered agent")
        return [
            (comparison, _expected_columns(entry, record, comparison, act_timeout))
            for comparison in comparisons(entry, record)
        ], None
    except AgentSpecError as error:
        return [], Check(
            name,
            False,
            f"cannot build {record.spec} unbundled: {error}",
            "validate the file in the checkout it was built from, or rebuild it here",
        )


def loader_check(load: dict[str, Any], built: bool) -> Check:
    """Check (a): what Kaggle's loader returned, judged as Kaggle runs it.

    Kaggle calls the last callable the file binds, whatever its name, with as many of
    ``observation, configuration`` as it has positional parameters (``isolated_runner.kaggle_arguments``);
    it fails if it never gets the observation or the call cannot bind. A file ``connectx build``
    wrote ends with ``agent``, the function check (f) compares: anything bound after it fails.
    """
    name = "(a) Kaggle's loader"
    if not load["ok"]:
        return Check(name, False, "loading failed:\n" + _indented(error_lines(load["error"])), _load_fix(load))
    called, arguments = load["name"], load["arguments"]
    call = f"{called}({', '.join(arguments)})"
    detail = (
        f"returns {called}{load['parameters'] or '(...)'}, which Kaggle calls as {call}; "
        f"loaded in {load['seconds']:.3f} s"
    )
    last = (
        "Kaggle's loader takes the last callable the file binds (a def, class, lambda or imported function): "
        "end the file with your agent, def agent(observation, configuration)"
    )
    if built and called != ENTRY_FUNCTION:
        return Check(
            name,
            False,
            f"{detail}; the file was built with {ENTRY_FUNCTION}() last, the function check (f) "
            "compares, and something bound after it now comes last",
            "rebuild with `connectx build` and bind nothing after the entry function",
        )
    if load["is_class"]:
        return Check(
            name,
            False,
            f"{detail}; {called} is a class, so Kaggle would take the object that call makes as its move",
            last,
        )
    if not arguments:
        return Check(
            name,
            False,
            f"{detail}; with no positional parameter it gets no arguments, so it never sees the board",
            last,
        )
    if load["call_error"]:
        return Check(
            name,
            False,
            f"{detail}; that call fails: {load['call_error']}",
            "Kaggle passes nothing but these arguments: give any further parameter a default; if this "
            "is not your agent, end the file with it, def agent(observation, configuration)",
        )
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
        timed = [
            (seconds, 2 * index + seat + 1)
            for seat in _our_seats(episode)
            for index, seconds in enumerate(episode["durations"][seat])
            if index > 0
        ]
        if not timed:
            return None
        seconds, move = max(timed)
        return cls(seconds, move)


def _load_fix(load: dict[str, Any]) -> str:
    """What to do about a file that failed to load, by what failed."""
    if load.get("timed_out"):
        return (
            "loading is part of the first move on Kaggle: do the slow work (decoding data, building tables) "
            "lazily, within a move's deadline, or ship it precomputed"
        )
    last = load["error"].strip().splitlines()[-1] if load["error"].strip() else ""
    if last.startswith(("FileNotFoundError", "ModuleNotFoundError", "ImportError")):
        return ALONE
    return "the lines above end where the file failed; if it needs one of our modules, rebuild it with `connectx build`"


def _indented(text: str) -> str:
    return "\n".join(f"         {line}" for line in text.splitlines())


def episode_failure(episode: dict[str, Any], act_timeout: float) -> str:
    """Why the file's seat of a failed episode failed, in a few lines of its own: what it returned, what it
    raised or how long it took (empty when the file's seats ended DONE)."""
    if episode.get("error"):
        mover = episode.get("mover")
        answer = (episode.get("answers") or [None, None])[mover] if mover is not None else None
        returned = returned_problem(*answer) if answer else None
        if returned:
            return f"{returned} (kaggle-environments' rules then raised: {error_lines(episode['error'], 1)})"
        return "the episode raised:\n" + _indented(error_lines(episode["error"]))
    lines = []
    for seat in _our_seats(episode):
        status = episode["statuses"][seat]
        if status == "DONE":
            continue
        answer = episode["answers"][seat]
        if status == "TIMEOUT":
            durations, bank = episode["durations"][seat], episode["last_banks"][seat]
            lines.append(timeout_text(durations[-1] if durations else 0.0, act_timeout, bank or 0.0))
        elif status == "ERROR":
            lines.append("raised:\n" + _indented(error_lines(episode["stderr"][seat])))
        else:
            lines.append(invalid_text(tuple(answer) if answer else None))
    return "\n".join(lines)


def _episode_checks(episodes: list[dict[str, Any]], act_timeout: float) -> list[Check]:
    checks = []
    for episode in episodes:
        label = episode.get("label") or ("(b)" if episode["name"].startswith("validation") else "(c)")
        name = f"{label} {episode['name']}"
        if episode.get("skipped"):
            checks.append(
                Check.skip(
                    name,
                    f"not played: the file ran out of Kaggle's time in '{episode['skipped']}', "
                    "and every game would spend its bank the same way",
                )
            )
            continue
        if episode.get("error"):
            checks.append(
                Check(
                    name,
                    False,
                    episode_failure(episode, act_timeout),
                    "reproduce it with `connectx play FILE kaggle:negamax`",
                )
            )
            continue
        statuses = episode["statuses"]
        slowest = SlowestMove.of(episode)
        slowest_text = f", slowest later move {slowest.seconds:.3f} s (move {slowest.move})" if slowest else ""
        if statuses != ["DONE", "DONE"]:
            checks.append(
                Check(
                    name,
                    False,
                    f"ended with statuses {statuses} after {episode['moves']} moves: "
                    + episode_failure(episode, act_timeout),
                    "reproduce it with `connectx play FILE kaggle:negamax` (ERROR: it raised, INVALID: "
                    "Kaggle would not play its answer, TIMEOUT: it ran past actTimeout plus the bank)",
                )
            )
        else:
            checks.append(
                Check(
                    name, True, f"both DONE after {episode['moves']} moves, rewards {episode['rewards']}" + slowest_text
                )
            )
    return checks


ABSORBED_CHECK = "(g) no fault absorbed, stricter than Kaggle"
CORE_CHECK = "(h) compiled solver"


def core_check(library: bytes, episodes: list[dict[str, Any]]) -> Check:
    """The compiled solver the file embeds: the newest glibc it needs, and which core played each game
    (the agent names it on stderr once it needs it; a game the book and the scores answered never does)."""
    needs = glibc_needed(library)
    newest = needs[-1] if needs else (0,)
    played = []
    for episode in episodes:
        lines = [
            line
            for seat in _our_seats(episode)
            for line in [(episode.get("marked") or {}).get("core", ["", ""])[seat]]
            if line
        ]
        said = lines[0].replace(CORE_MARK, "").strip() if lines else "not needed (book and scores answered)"
        played.append(f"{episode['name']}: {said}")
    detail = (
        f"the embedded library needs glibc {version_text(newest)} at most "
        f"({', '.join('GLIBC_' + version_text(version) for version in needs) or 'no versioned symbol'}; "
        f"built for {version_text(GLIBC_CEILING)} or newer, Kaggle's image has 2.35)"
    )
    if played:
        detail += "; the core each game loaded:\n  " + "\n  ".join(played)
    return Check(
        CORE_CHECK,
        newest <= GLIBC_CEILING,
        detail,
        "rebuild the library with `make core`, which targets glibc 2.28, and the file with `connectx build`",
    )


def absorbed_faults_check(episodes: list[dict[str, Any]]) -> Check:
    """Stricter than Kaggle: no game in which our guard covered a fault of the agent with a legal move.

    Kaggle plays such a move and the game goes on; but the agent's own move failed, which a bundle
    of ours must never do. Found by the guard's mark (``FAULT_MARK``) on stderr: anything else an
    agent writes there, a debug line or a log record, is no fault.
    """
    name = ABSORBED_CHECK
    reports = [
        (episode["name"], line)
        for episode in episodes
        for seat in _our_seats(episode)
        for line in [(episode.get("marked") or {}).get("absorbed", ["", ""])[seat]]
        if line
    ]
    if not reports:
        return Check(name, True, "the agent's guard covered no failure of its own with a fallback move")
    first_game, first_line = reports[0]
    return Check(
        name,
        False,
        f"Kaggle played every move, but in {len(reports)} games the agent's guard covered a "
        f"failure of its own with a legal fallback move; first, in {first_game}: "
        f"{first_line.replace(FAULT_MARK, '').strip()}",
        "fix the failure the guard reports (run the agent with `connectx play` to see it whole)",
    )


@dataclass(frozen=True)
class Timing:
    check: Check
    first: float | None = None
    slowest: float | None = None
    slowest_at: str | None = None
    overage_left: float | None = None


MARGIN_CHECK = "(d) margin, stricter than Kaggle"


def timing_check(
    episodes: list[dict[str, Any]],
    act_timeout: float,
    margin: float,
    overage_reserve: float | None,
    load_seconds: float | None = None,
) -> Timing:
    """Our stricter clock: the slowest first move (which includes loading the file), the slowest later move
    over every game and where it was, and the lowest overage bank the file finished a game with, against
    ``actTimeout`` less ``margin``, the room a busy Kaggle worker may need. The advice names the slow
    phase: loading (``load_seconds``, measured alone), the first move's own work, or a later move."""
    first_moves: list[float] = []
    later_moves: list[float] = []
    overage_left: list[float] = []
    slowest_by_game: list[tuple[float, str]] = []
    for episode in episodes:
        if episode.get("error") or episode.get("skipped"):
            continue
        for seat in _our_seats(episode):
            durations = episode["durations"][seat]
            first_moves += durations[:1]
            later_moves += durations[1:]
            overage_left.append(max(0.0, episode["overage"][seat][1]))  # Kaggle's goes below 0 on a TIMEOUT
        slowest_move = SlowestMove.of(episode)
        if slowest_move is not None:
            slowest_by_game.append((slowest_move.seconds, f"{episode['name']}, move {slowest_move.move}"))
    if not first_moves:
        return Timing(Check.skip(MARGIN_CHECK, "no move of the file was timed: see the failed games above"))
    limit = act_timeout - margin
    first, lowest_bank = max(first_moves), min(overage_left)
    slowest, slowest_at = max(slowest_by_game, default=(0.0, "no later move"))
    over = sum(duration > limit for duration in later_moves)
    detail = (
        f"first move (loading included) {first:.3f} s, slowest later move {slowest:.3f} s "
        f"[{slowest_at}], our limit {limit:.2f} s (actTimeout {act_timeout:g} less a {margin:g} s margin; "
        f"Kaggle allows actTimeout plus what is left of its {FULL_BANK:g} s overage bank)"
    )
    if overage_reserve is None:
        passed = first <= limit and not over
    else:
        passed = first <= limit and lowest_bank >= overage_reserve
        detail += (
            f"; {over} later moves over our limit drew on the overage bank, lowest bank left "
            f"{lowest_bank:.1f} s (reserve {overage_reserve:g} s)"
        )
    late = any(timed_out(episode) for episode in episodes if not episode.get("error") and not episode.get("skipped"))
    fix = _slow_phase(first, limit, load_seconds, margin, late)
    return Timing(Check(MARGIN_CHECK, passed, detail, fix), first, slowest, slowest_at, lowest_bank)


def _slow_phase(first: float, limit: float, load_seconds: float | None, margin: float, late: bool) -> str:
    """The advice for a file over the margin's limit, naming the phase that was slow; unless Kaggle's clock
    failed it too (``late``), it says which options check Kaggle's own limit instead."""
    loosen = (
        ""
        if late
        else (
            f"; Kaggle itself would accept these times: --margin 0 checks actTimeout alone, and an agent that "
            f"spends the bank on purpose is checked with --overage-reserve SECONDS (the margin {margin:g} s is "
            "room for a busy machine)"
        )
    )
    if first > limit and load_seconds is not None and load_seconds >= first / 2:
        return (
            f"loading the file took {load_seconds:.3f} s of the first move's {first:.3f} s: embed less data "
            "or decode it lazily" + loosen
        )
    if first > limit:
        return (
            f"the first move's own work took {first - (load_seconds or 0.0):.3f} s after loading: give it a "
            "deadline that counts the load (Kaggle charges loading to the first move)" + loosen
        )
    return "a later move ran long: give the agent a deadline from configuration.actTimeout" + loosen


def kaggle_clock_check(episodes: list[dict[str, Any]], act_timeout: float, timing: Timing) -> Check:
    """Kaggle's clock: every move within ``actTimeout`` plus what is left of the bank, the figures beside it."""
    name = "(d) Kaggle's clock"
    late = [episode["name"] for episode in episodes if not episode.get("skipped") and timed_out(episode)]
    if timing.first is None:
        return Check.skip(name, "no move of the file was timed: see the failed games above")
    figures = (
        "no move of the file was timed"
        if timing.first is None
        else f"first move {timing.first:.3f} s, slowest later move {timing.slowest:.3f} s, lowest bank left "
        f"{timing.overage_left:.1f} s"
    )
    if late:
        return Check(
            name,
            False,
            f"the file ran out of time in {', '.join(late)} ({figures})",
            "see the game's line above: the move that ran out and how long it took",
        )
    return Check(name, True, f"no move ran past actTimeout {act_timeout:g} s plus the overage bank ({figures})")


def timed_out(episode: dict[str, Any]) -> bool:
    """Whether one of the file's seats ended the episode in TIMEOUT."""
    statuses = episode.get("statuses") or []
    return any(statuses[seat] == "TIMEOUT" for seat in _our_seats(episode) if seat < len(statuses))


def _parity_check(result: dict[str, Any], expected: list[int], comparison: Comparison) -> Check:
    name = f"(f) same moves as unbundled, {comparison.name}"
    if result.get("error") or "columns" not in result:
        return Check(
            name,
            False,
            "the bundled agent failed on the comparison positions:\n" + str(result.get("error", "no answer")).rstrip(),
            "rebuild with `connectx build`; if it still fails, the bundler mangled a module: report it",
        )
    actual = result["columns"]
    differing = [
        f"{fixed.position!r} ({fixed.kind}): unbundled {want}, bundled {got}"
        for fixed, want, got in zip(comparison.positions, expected, actual, strict=True)
        if want != got
    ]
    count = len(comparison.positions)
    if differing:
        if comparison.name == OVERRIDDEN:
            fix = (
                "if the agent's choice depends on the clock, give its factory a parameter that fixes it "
                "(like mcts's simulations) and add it to COMPARISON_PARAMETERS"
            )
        else:
            fix = (
                "if one of these positions does not fix the agent's move whatever the clock, correct how "
                "submission/fixed_positions.py chooses them"
            )
        return Check(
            name,
            False,
            f"{len(differing)} of {count} positions differ ({comparison.setting()}):\n  " + "\n  ".join(differing),
            "rebuild from the current sources; " + fix,
        )
    return Check(name, True, f"{count} positions ({comparison.kinds()}), identical columns ({comparison.setting()})")
