"""Play the agents on a local web page, with every column's exact value on demand and uploaded games analysed."""

from __future__ import annotations

import argparse

from connectx.cli.options import port_number, positive_seconds

NAME = "serve"
HELP = "play the agents in a browser page on this machine (and analyse uploaded games)"
NEEDS = ("starlette", "uvicorn")
"""The page's routes and its server."""
ANALYSIS_SECONDS = 3.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)"
    )
    parser.add_argument("--port", type=port_number, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument(
        "--analysis-time",
        type=positive_seconds,
        default=ANALYSIS_SECONDS,
        help="seconds of analysis per position, and per move of an uploaded game (default 3)",
    )


def run(args: argparse.Namespace) -> int:
    from connectx.play.http_app import serve  # imported here: the web stack would slow every other command's start

    return serve(args.host, args.port, args.analysis_time)
