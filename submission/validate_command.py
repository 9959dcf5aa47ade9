"""Check a submission file the way Kaggle does, in a process that cannot import our packages.

Prints every check with its figures (load time, first-move time, slowest move, size) and, for
each failure, what to do; exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from submission.validator import DEFAULT_MARGIN, validate_file

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
                        help="skip the five games (and so the timing check): load, size and move comparison only")
    parser.add_argument("--no-compare", dest="compare", action="store_false",
                        help="skip comparing moves with the unbundled agent (for files not built here)")


def run(args: argparse.Namespace) -> int:
    try:
        report = validate_file(args.file, args.act_timeout, args.margin, args.games, args.compare,
                               args.overage_reserve)
    except (FileNotFoundError, RuntimeError) as error:
        print(f"connectx validate: {error}", file=sys.stderr)
        return 2
    for check in report.checks:
        print(check)
    verdict = "valid" if report.passed else f"INVALID ({len(report.failures())} failed)"
    print(f"{report.path}: {verdict}")
    return 0 if report.passed else 1
