"""Bundle an agent (with its parameters) into one self-contained file Kaggle accepts as a submission.

The output may already exist: a file ``connectx build`` wrote earlier is replaced while it is
exactly as written (the digest on its last line still matches); one edited since, or any other
(the ``submission.py`` a Kaggle user keeps their own agent in), only with ``--force``; without it
the command stops before building, with one line and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from connectx.agents.agent_spec import AgentKind, AgentSpec
from connectx.agents.core.position import geometry
from connectx.cli.options import InputError, check_output_file
from connectx.submission.bundler import build_bundle, unchanged_since_build, written_by_build
from connectx.submission.module_graph import BuildError

NAME = "build"
HELP = "bundle an agent into one submission file"
DEFAULT_OUTPUT = Path("out/submission.py")
KAGGLE_BOARD = geometry(6, 7, 4)
"""The board a submission's parameters are checked against: Kaggle's ConnectX."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("agent", metavar="AGENT", help="registry name with optional parameters, e.g. negamax:depth=5")
    parser.add_argument(
        "-o", "--output", type=Path, default=DEFAULT_OUTPUT, help=f"where to write the file (default {DEFAULT_OUTPUT})"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace the -o file even if `connectx build` did not write it or it was edited since "
        "(by default only its own earlier output, unchanged, is replaced, so your own "
        "submission.py and your edits are safe)",
    )
    parser.add_argument(
        "--allow-missing-data",
        action="store_true",
        help="build even if a data file the agent reads (an opening book) does not exist yet; "
        "the file then plays as the agent does without it",
    )


def run(args: argparse.Namespace) -> int:
    spec = AgentSpec.parse(args.agent)
    if spec.kind is not AgentKind.REGISTRY:
        raise InputError(
            f"{spec.text} is not a registered agent; build bundles a registry agent "
            "(connectx agents lists them), and a kaggle built-in or an agent file needs no bundling"
        )
    spec.check(KAGGLE_BOARD)
    check_output_file(args.output, "output")
    if args.output.exists() and not args.force and not unchanged_since_build(args.output):
        if written_by_build(args.output):
            raise InputError(
                f"-o {args.output} was written by `connectx build` but edited since (its digest no "
                "longer matches): choose another -o, or pass --force to replace your edits"
            )
        raise InputError(
            f"-o {args.output} exists and `connectx build` did not write it (it may be your own agent): "
            "choose another -o, or pass --force to replace it"
        )
    try:
        bundle = build_bundle(spec.text, args.allow_missing_data)
    except BuildError as error:
        print(f"connectx build: {error}", file=sys.stderr)
        return 2
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(bundle.source, encoding="utf-8")
    size = args.output.stat().st_size
    data = ", ".join(bundle.data_files) or "none"
    print(f"wrote {args.output}: {bundle.spec}, {size:,} bytes")
    print(f"  modules: {', '.join(bundle.modules)}")
    print(f"  embedded data: {data}")
    if bundle.missing_data:
        print(f"  WARNING: missing, so left out: {', '.join(bundle.missing_data)}")
    print(f"check it with: connectx validate {args.output}")
    return 0
