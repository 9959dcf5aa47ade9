"""Run a submission file the way Kaggle does, in a process that cannot import our packages.

``connectx validate`` starts this script with ``python -I -S`` (no site-packages, no .pth files,
so not the editable install of our packages) and hands it, in a JSON request file, the
directories that hold kaggle-environments. It uses only the standard library and
kaggle-environments: Kaggle's own loader (``get_last_callable``) and the arguments Kaggle's
call would give what it returns (``kaggle_arguments``), real episodes in
``env.run``, and the bundle's ``new_agent`` on the positions of each comparison. It writes what
it saw to a JSON result file and judges nothing; the validator turns the figures into checks.

Usage: python -I -S isolated_runner.py REQUEST.json RESULT.json
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import io
import json
import os
import random
import sys
import time
import traceback
from typing import Any

FILE = "FILE"
"""In an episode's agent list, the submission under test (anything else is a kaggle built-in)."""


def isolation(forbidden: list[str], project_root: str) -> list[str]:
    """Which of ``forbidden`` (our package names) this process could import from ``project_root``.

    Only the origin counts: kaggle-environments puts its own environments on ``sys.path``, and
    one of them has an ``agents`` module, which is not ours.
    """
    visible = []
    for name in forbidden:
        spec = importlib.util.find_spec(name)
        places = [spec.origin or "", *(spec.submodule_search_locations or [])] if spec is not None else []
        if any(place.startswith(os.path.join(project_root, name)) for place in places):
            visible.append(name)
    return visible


def load(path: str) -> dict[str, Any]:
    """Kaggle's loader on the file: the callable it would use, and how long loading took."""
    from kaggle_environments.agent import get_last_callable

    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
    started = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            entry = get_last_callable(raw, path=path)
    except Exception:
        return {"ok": False, "error": traceback.format_exc(limit=3)}
    seconds = time.perf_counter() - started
    arguments = kaggle_arguments(entry)
    return {
        "ok": True,
        "seconds": seconds,
        "name": getattr(entry, "__name__", type(entry).__name__),
        "is_class": inspect.isclass(entry),
        "parameters": parameters_of(entry),
        "arguments": arguments,
        "call_error": call_error(entry, arguments),
        "stdout": out.getvalue(),
    }


def kaggle_arguments(entry: Any) -> list[str]:
    """Which of ``observation, configuration`` Kaggle passes ``entry`` at every move.

    As ``kaggle_environments.agent`` does: a callable with a ``__code__`` gets the first
    ``co_argcount`` of the two (its positional parameters, so ``*args`` counts none), any other
    callable (a class, an object with ``__call__``) gets both.
    """
    both = ["observation", "configuration"]
    code = getattr(entry, "__code__", None)
    if code is None or not hasattr(code, "co_argcount"):
        return both
    return both[:code.co_argcount]


def parameters_of(entry: Any) -> str | None:
    """The parameter list of ``entry`` as Python writes it, or None where it cannot be read (some built-ins)."""
    try:
        return str(inspect.signature(entry))
    except (TypeError, ValueError):
        return None


def call_error(entry: Any, arguments: list[str]) -> str | None:
    """Why calling ``entry`` with ``arguments`` fails before it runs (a parameter left without a value,
    one too many), or None when the call binds or the parameters cannot be read."""
    try:
        signature = inspect.signature(entry)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*arguments)
    except TypeError as error:
        return str(error)
    return None


def episode(kaggle: Any, path: str, spec: dict[str, Any], configuration: dict[str, Any]) -> dict[str, Any]:
    """One game in kaggle-environments; per seat its final status, the duration of each move and its
    overage bank at the start and the end."""
    agents = [path if name == FILE else name for name in spec["agents"]]
    try:
        env = kaggle.make("connectx", configuration=configuration)
        random.seed(spec["seed"])
        env.run(agents)
    except Exception:
        return {"name": spec["name"], "error": traceback.format_exc(limit=3)}
    final = env.steps[-1]
    durations: list[list[float]] = [[], []]
    stderr = ["", ""]
    for step_logs in env.logs:
        for seat, log in enumerate(step_logs[:2]):
            if log and "duration" in log:
                durations[seat].append(log["duration"])
                if log.get("stderr", "").strip() and not stderr[seat]:
                    stderr[seat] = log["stderr"]
    return {
        "name": spec["name"],
        "agents": spec["agents"],
        "statuses": [str(state.status) for state in final],
        "rewards": [state.reward for state in final],
        "moves": len(env.steps) - 1,
        "durations": durations,
        "overage": [[state.observation.remainingOverageTime for state in (env.steps[0][seat], final[seat])]
                    for seat in range(2)],
        "stderr": stderr,
        "error": None,
    }


def compare(path: str, comparison: dict[str, Any]) -> dict[str, Any]:
    """The bundle's choice on each position of one comparison: a fresh ``new_agent(**overrides)`` per position."""
    from kaggle_environments.utils import structify

    with open(path, encoding="utf-8") as handle:
        code = compile(handle.read(), path, "exec")
    namespace: dict[str, Any] = {}
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)
        factory = namespace[comparison["factory"]]
        columns = []
        for observation, configuration in zip(comparison["observations"], comparison["configurations"], strict=True):
            agent = factory(**comparison["overrides"])
            column = agent(structify(observation), structify(configuration))
            columns.append(column if isinstance(column, int) else repr(column))
    except Exception:
        return {"error": traceback.format_exc(limit=3)}
    return {"columns": columns, "error": None}


def main(request_path: str, result_path: str) -> int:
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    sys.path.extend(request["site_dirs"])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import kaggle_environments as kaggle
    visible = isolation(request["forbidden_packages"], request["project_root"])
    result: dict[str, Any] = {"isolation": {"visible": visible, "sys_path": list(sys.path)}}
    path = request["file"]
    result["load"] = load(path)
    if result["load"]["ok"]:
        result["episodes"] = [episode(kaggle, path, spec, request["configuration"]) for spec in request["episodes"]]
        result["comparisons"] = [compare(path, comparison) for comparison in request.get("comparisons", [])]
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
