"""List the registered agents, their parameters, kaggle's built-ins, and ``human`` where a person can play."""

from __future__ import annotations

import argparse

from connectx.agents.agent_spec import HUMAN, KAGGLE_BUILTINS, KAGGLE_PREFIX
from connectx.agents.registry import REGISTRY

NAME = "agents"
HELP = "list the agents you can name"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def run(args: argparse.Namespace) -> int:
    width = max(len(name) for name in [*REGISTRY, *(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS), HUMAN]) + 2
    for entry in REGISTRY.values():
        params = ", ".join(f"{key}=<{kind.__name__}>" for key, kind in entry.parameters().items())
        print(f"{entry.name:<{width}}{entry.summary}" + (f"  [{params}]" if params else ""))
    for builtin in KAGGLE_BUILTINS:
        print(f"{KAGGLE_PREFIX + builtin:<{width}}kaggle-environments' built-in {builtin} agent")
    print(
        f"{HUMAN:<{width}}a person at the keyboard, in connectx play only (connectx play human solver; "
        "in a browser: connectx serve)"
    )
    print(
        "\nParameters go after a colon, e.g. negamax:depth=5,seed=1 or minimax:weights=1/3/9/81; "
        "a path to a .py file names an agent file."
    )
    return 0
