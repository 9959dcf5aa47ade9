"""Check a submission file the way Kaggle does, in a process that cannot import our packages.

Judges any file as Kaggle does (its agent is the last callable the file binds, whatever its
name), so the ``submission.py`` Kaggle's starter writes passes too; only a file ``connectx build``
wrote is also compared with the agent it was built from. Prints every check with its figures
and, for each failure, what to do, then one line of figures
(size, load time, first move, the slowest later move over every game and where it was, the
lowest overage bank); exits 1 if any check fails. A file or setting no check can judge (missing,
a directory, not UTF-8, not Python, binding no function, a negative reserve) is one line on
stderr and exit 2, before anything runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from connectx.submission.validator import DEFAULT_MARGIN, ValidationInputError, validate_file

NAME = "validate"
HELP = "prove a submission file works the way Kaggle runs it"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", type=Path, help="the submission file, e.g. out/submission.py")
    parser.add_argument("--act-timeout", type=float, default=2.0, help="Kaggle's actTimeout in seconds (default 2)")
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN,
                        help=f"seconds every move must leave unused of actTimeout (default {DEFAULT_MARGIN})")
    parser.add_argument("--overage-reserve", type=float, default=None, metavar="SECONDS",
                        help="accept later moves beyond the limit while Kaggle's overage bank (60 s) keeps this "
                             "many seconds: for agents that spend it on purpose (default: no move may exceed)")
    parser.add_argument("--no-games", dest="games", action="store_false",
                        help="skip the five games (and so the timing check): load, size and move comparisons only "
                             "(by default every validation plays all five)")
    parser.add_argument("--no-compare", dest="compare", action="store_false",
                        help="skip comparing moves with the unbundled agent; it runs only for a file `connectx "
                             "build` wrote, any other (like Kaggle's starter's) skips it anyway")


def run(args: argparse.Namespace) -> int:
    try:
        report = validate_file(args.file, args.act_timeout, args.margin, args.games, args.compare,
                               args.overage_reserve)
    except (ValidationInputError, RuntimeError) as error:
        print(f"connectx validate: {error}", file=sys.stderr)
        return 2
    for check in report.checks:
        print(check)
    print(report.figures())
    verdict = "valid" if report.passed else f"INVALID ({len(report.failures())} failed)"
    print(f"{report.path}: {verdict}")
    return 0 if report.passed else 1
