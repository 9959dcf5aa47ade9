"""Check a submission file the way Kaggle does, in a process that cannot import our packages.

Judges any file as Kaggle does (its agent is the last callable the file binds, whatever its
name), so the ``submission.py`` Kaggle's starter writes passes too, and so does a ``.tar.gz``
with `main.py` at its root, Kaggle's other kind of submission; only a file ``connectx build``
wrote is also compared with the agent it was built from. The verdict is Kaggle's; the checks
of ours that are stricter (a margin under actTimeout, no fault our guard absorbed) say so and
warn, and fail only with ``--strict``. The file runs alone, a copy in an empty folder, as Kaggle
runs it. Shows each game and move as it plays and stops at the first game the file runs out of
time in; then prints every check with its figures and, for each failure, what to do, then one
line of figures (size, load time, first move, the slowest later move over every game and where
it was, the lowest overage bank); exits 1 if any check fails. A file or setting no check can
judge (missing, a directory, not a .py file, not UTF-8, not Python, binding no function, a
negative reserve) is one line on stderr and exit 2, before anything runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from connectx.submission.validator import DEFAULT_MARGIN, ValidationInputError, validate_file, validation_episodes

NAME = "validate"
HELP = "prove a submission file works the way Kaggle runs it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        metavar="FILE",
        type=Path,
        help="the submission: a .py file (e.g. out/submission.py) or a .tar.gz with main.py",
    )
    parser.add_argument("--act-timeout", type=float, default=2.0, help="Kaggle's actTimeout in seconds (default 2)")
    parser.add_argument(
        "--margin",
        type=float,
        default=DEFAULT_MARGIN,
        help=f"seconds every move should leave unused of actTimeout, our stricter check for a busy "
        f"machine (default {DEFAULT_MARGIN}; Kaggle's own limit is actTimeout plus the bank)",
    )
    parser.add_argument(
        "--overage-reserve",
        type=float,
        default=None,
        metavar="SECONDS",
        help="let later moves pass the margin while Kaggle's overage bank (60 s) keeps this "
        "many seconds: for agents that spend it on purpose (default: no move may exceed)",
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="fail, not only warn, on the checks stricter than Kaggle's (the margin, a fault the "
        "agent's guard covered): `make submission` uses it for our own agents",
    )
    parser.add_argument(
        "--no-games",
        dest="games",
        action="store_false",
        help="skip the five games (and so the timing check): load, size and move comparisons only "
        "(by default every validation plays all five)",
    )
    parser.add_argument(
        "--no-compare",
        dest="compare",
        action="store_false",
        help="skip comparing moves with the unbundled agent; it runs only for a file `connectx "
        "build` wrote, any other (like Kaggle's starter's) skips it anyway",
    )


class _Progress:
    """The game and move under way on one rewritten line of a terminal's stderr; a line a game elsewhere."""

    def __init__(self) -> None:
        self.terminal = sys.stderr.isatty()
        self.episode = ""
        self.number = 0
        self.shown = False
        self.games = len(validation_episodes())

    def __call__(self, line: dict[str, Any]) -> None:
        if line["episode"] != self.episode:
            self.episode, self.number = line["episode"], self.number + 1
            if not self.terminal:
                print(f"validate: game {self.number} of {self.games}, {self.episode}", file=sys.stderr, flush=True)
        if self.terminal:
            move = f": move {line['move']} ({line['seconds']:.2f} s)" if line["move"] else ""
            print(
                f"\r\033[Kgame {self.number} of {self.games}, {self.episode}{move}", end="", file=sys.stderr, flush=True
            )
            self.shown = True

    def close(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    progress = _Progress()
    try:
        report = validate_file(
            args.file,
            args.act_timeout,
            args.margin,
            args.games,
            args.compare,
            args.overage_reserve,
            strict=args.strict,
            progress=progress,
        )
    except (ValidationInputError, RuntimeError) as error:
        print(f"connectx validate: {error}", file=sys.stderr)
        return 2
    finally:
        progress.close()
    for check in report.checks:
        print(check)
    print(report.figures())
    warnings = report.warnings()
    verdict = "valid" if report.passed else f"INVALID ({len(report.failures())} failed)"
    if warnings:
        verdict += (
            f", {len(warnings)} stricter check{'s' * (len(warnings) > 1)} of ours warned "
            "(Kaggle would not fail it for that; --strict fails on them)"
        )
    print(f"{report.path}: {verdict}")
    return 0 if report.passed else 1
