"""Run a submission file the way Kaggle does, in a process that cannot import our packages.

``connectx validate`` starts this script with ``python -I -S`` (no site-packages, no .pth files,
so not the editable install of our packages) and hands it, in a JSON request file, the
directories that hold kaggle-environments. It uses only the standard library and
kaggle-environments: Kaggle's own loader (``get_last_callable``) and the arguments Kaggle's
call would give what it returns (``kaggle_arguments``), real episodes in
``env.run``, and the bundle's ``new_agent`` on the positions of each comparison. It writes what
it saw to a JSON result file and judges nothing; the validator turns the figures into checks.
While the games run it appends a line per move to the request's progress file, stops a move at
Kaggle's limit (``MoveWatch``) and, once the file has timed out in one game, plays no more: every
later game would spend its 60 s bank the same way.

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
import signal
import sys
import threading
import time
import traceback
from typing import Any

FILE = "FILE"
"""In an episode's agent list, the submission under test (anything else is a kaggle built-in)."""


class OutOfTime(BaseException):
    """Raised into a move (by ``SIGALRM``) once it runs past what Kaggle allows: ``actTimeout`` plus the bank left.

    A ``BaseException``, so kaggle-environments' ``except Exception`` around the agent's call does not
    turn it into an ERROR: it ends ``env.run`` and the episode records the TIMEOUT Kaggle would give.
    """


GRACE = 0.5
"""Seconds past Kaggle's limit before a move is stopped: Kaggle's own status decides any move that ends sooner."""
FULL_BANK = 60.0
"""Kaggle's overage bank at the start of an episode, in seconds."""


def _out_of_time(signum: int, frame: Any) -> None:
    raise OutOfTime


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


def load(path: str, limit: float) -> dict[str, Any]:
    """Kaggle's loader on the file: the callable it would use, and how long loading took.

    Loading is stopped after ``limit`` seconds (all a first move may take on Kaggle, where loading
    is part of it). A failure keeps the traceback of the file's own exception, not the one Kaggle's
    loader raises while handling it, so the reader sees one traceback that ends in their line.
    """
    from kaggle_environments.agent import get_last_callable

    with open(path, encoding="utf-8") as handle:
        raw = handle.read()
    started = time.perf_counter()
    signal.signal(signal.SIGALRM, _out_of_time)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            entry = get_last_callable(raw, path=path)
    except OutOfTime:
        return {
            "ok": False,
            "error": f"loading was stopped after {limit:.1f} s, all a first move may take",
            "timed_out": True,
        }
    except Exception as error:
        cause = error.__context__ or error
        return {"ok": False, "error": "".join(traceback.format_exception(cause)), "timed_out": False}
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
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
    return both[: code.co_argcount]


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


class MoveWatch:
    """Kaggle's ``kaggle_environments.agent.Agent.act`` wrapped, as Kaggle calls it: answers kept, progress told.

    Nothing changes what the agent sees or how it is timed: the wrapper only notes the value the
    agent returned (its type is what Kaggle judges), writes a progress line after each move and
    arms a timer that stops a move that has already run past Kaggle's limit, so a hung or hopelessly
    slow agent is judged at that limit instead of blocking the validation.
    """

    def __init__(self, progress_path: str | None) -> None:
        self.progress_path = progress_path
        self.episode = ""
        self.moves = 0
        self.answers: dict[int, tuple[str, str]] = {}
        """Per seat, the type and repr of the last value the agent itself returned."""
        self.banks: dict[int, float] = {}
        """Per seat, the overage bank its last move started with."""
        self.moving: tuple[int, float, float] | None = None
        """The seat of the move under way, when it started and the bank it had: known when the timer fires."""

    def install(self, agent_class: Any) -> None:
        original = agent_class.act
        watch = self

        def act(agent: Any, observation: Any) -> Any:
            return watch.act(original, agent, observation)

        agent_class.act = act
        signal.signal(signal.SIGALRM, _out_of_time)

    def start(self, name: str) -> None:
        self.episode, self.moves, self.answers, self.banks, self.moving = name, 0, {}, {}, None
        self.tell({"episode": name, "move": 0, "seconds": 0.0})

    def act(self, original: Any, agent: Any, observation: Any) -> Any:
        seat = int(observation.get("mark", 1)) - 1
        bank = float(observation.get("remainingOverageTime", 0.0))
        raw = agent.agent
        started = time.perf_counter()
        self.moving = (seat, started, bank)
        self.banks[seat] = bank

        agent.agent = _Noted(raw, lambda answer: self.answers.__setitem__(seat, (type_name_of(answer), _shown(answer))))
        signal.setitimer(signal.ITIMER_REAL, float(agent.configuration.actTimeout) + bank + GRACE)
        try:
            return original(agent, observation)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            agent.agent = raw
            self.moves += 1
            self.tell({"episode": self.episode, "move": self.moves, "seconds": time.perf_counter() - started})

    def tell(self, line: dict[str, Any]) -> None:
        if self.progress_path is not None:
            with open(self.progress_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(line) + "\n")


def _shown(answer: Any) -> str:
    """An answer as the user would write it: a number plainly (``0`` of `numpy.int64(0)`), anything else's repr.

    ``connectx.agents.core.fault_words.shown`` is the same rule; this process cannot import it.
    """
    text = str(answer) if isinstance(answer, (int, float)) or hasattr(answer, "__index__") else repr(answer)
    return text[:80]


class _Noted:
    """An agent callable that hands each answer to ``note``; Kaggle reads ``__code__`` to pass as many
    arguments as the agent takes, so the wrapper shows the agent's own."""

    def __init__(self, agent: Any, note: Any) -> None:
        self.agent, self.note = agent, note
        if hasattr(agent, "__code__"):
            self.__code__ = agent.__code__

    def __call__(self, *arguments: Any) -> Any:
        answer = self.agent(*arguments)
        self.note(answer)
        return answer


def type_name_of(value: object) -> str:
    """``value``'s type as `module.qualname`, builtins bare (`numpy.int64`, ``float``): what Kaggle judges.

    ``connectx.agents.core.fault_words.type_name_of``'s twin, for a process that cannot import it.
    """
    kind = type(value)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module.split('.')[0]}.{kind.__qualname__}"


def episode(
    kaggle: Any, path: str, spec: dict[str, Any], configuration: dict[str, Any], watch: MoveWatch, marks: dict[str, str]
) -> dict[str, Any]:
    """One game in kaggle-environments; per seat its final status, the duration of each move, its overage
    bank at the start and the end, its last stderr, the last value its agent returned and, for each of
    ``marks`` (a name: a text our agents begin a report with), the first stderr line holding it."""
    agents = [path if name == FILE else name for name in spec["agents"]]
    watch.start(spec["name"])
    overran = None
    try:
        env = kaggle.make("connectx", configuration=configuration)
        random.seed(spec["seed"])
        env.run(agents)
    except OutOfTime:
        overran = watch.moving
    except Exception:
        return {
            "name": spec["name"],
            "agents": spec["agents"],
            "error": traceback.format_exc(limit=3),
            "answers": _answers(watch),
            "mover": watch.moving[0] if watch.moving else None,
        }
    durations: list[list[float]] = [[], []]
    stderr = ["", ""]
    marked: dict[str, list[str]] = {name: ["", ""] for name in marks}
    for step_logs in env.logs:
        for seat, log in enumerate(step_logs[:2]):
            if log and "duration" in log:
                durations[seat].append(log["duration"])
                text = log.get("stderr", "")
                if text.strip():
                    stderr[seat] = text
                for name, mark in marks.items():
                    if mark in text and not marked[name][seat]:
                        marked[name][seat] = next(line for line in text.splitlines() if mark in line)
    final = env.steps[-1]
    statuses = [str(state.status) for state in final]
    banks = [float(state.observation.remainingOverageTime) for state in final]
    if overran is not None:
        # Stopped where Kaggle would have: the move is the seat's last, and Kaggle calls it TIMEOUT.
        seat, started, bank = overran
        durations[seat].append(time.perf_counter() - started)
        statuses = ["TIMEOUT" if index == seat else "DONE" for index in range(2)]
        banks[seat] = bank - max(0.0, durations[seat][-1] - float(configuration.get("actTimeout", 2.0)))
    return {
        "name": spec["name"],
        "agents": spec["agents"],
        "statuses": statuses,
        "rewards": [None if status != "DONE" else state.reward for status, state in zip(statuses, final, strict=True)],
        "moves": len(env.steps) - 1,
        "durations": durations,
        "overage": [[float(env.steps[0][seat].observation.remainingOverageTime), banks[seat]] for seat in range(2)],
        "stderr": stderr,
        "marked": marked,
        "answers": _answers(watch),
        "last_banks": [watch.banks.get(seat) for seat in range(2)],
        "error": None,
    }


class _Enough(BaseException):
    """Raised by the stand-in opponent of ``position_move``: the file has made its one move."""


def _enough(observation: Any, configuration: Any) -> int:
    raise _Enough


def position_move(
    kaggle: Any, path: str, moves: list[int], configuration: dict[str, Any], watch: MoveWatch
) -> dict[str, Any]:
    """The file's move in the position ``moves`` (0-based columns) reach, as Kaggle asks an agent it has just
    loaded: the file is run afresh, stepped in with a full bank, and its answer, status and time kept."""
    env = kaggle.make("connectx", configuration=configuration)
    for ply, column in enumerate(moves):
        env.step([column, None] if ply % 2 == 0 else [None, column])
    seat = len(moves) % 2
    watch.start(f"position {''.join(str(column + 1) for column in moves)}")
    agents = [path, _enough] if seat == 0 else [_enough, path]
    overran = None
    try:
        env.run(agents)
    except _Enough:
        pass
    except OutOfTime:
        overran = watch.moving
    if overran is not None:
        return {"status": "TIMEOUT", "seconds": time.perf_counter() - overran[1], "column": None}
    state, log = env.steps[-1][seat], env.logs[-1][seat] if env.logs else {}
    return {
        "status": str(state.status),
        "column": state.action if str(state.status) in ("ACTIVE", "INACTIVE", "DONE") else None,
        "seconds": (log or {}).get("duration"),
        "stderr": (log or {}).get("stderr", ""),
        "answer": watch.answers.get(seat),
    }


def _answers(watch: MoveWatch) -> list[list[str] | None]:
    return [list(watch.answers[seat]) if seat in watch.answers else None for seat in range(2)]


def timed_out(result: dict[str, Any]) -> bool:
    """Whether the file's seat of a played episode ended in TIMEOUT: every later game would spend its bank alike."""
    return any(
        status == "TIMEOUT" and name == FILE
        for status, name in zip(result.get("statuses") or [], result.get("agents") or [], strict=False)
    )


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


@contextlib.contextmanager
def _environment(variables: dict[str, str]) -> Any:
    """``variables`` set in ``os.environ`` for the block, as they were after it (an episode's forced core)."""
    before = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _exit_with_parent(parent: int) -> None:
    """End this process once ``parent`` (the ``connectx validate`` that started it) is gone, killed or not.

    The harness's ``connectx.evaluation.orphans`` does this for games; this process cannot import it.
    """
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def main(request_path: str, result_path: str) -> int:
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    # The parent named in the request, not os.getppid(): killed while this process started, it has been replaced.
    threading.Thread(target=_exit_with_parent, args=(request["parent"],), daemon=True).start()
    sys.path.extend(request["site_dirs"])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        import kaggle_environments as kaggle
    visible = isolation(request["forbidden_packages"], request["project_root"])
    result: dict[str, Any] = {"isolation": {"visible": visible, "sys_path": list(sys.path)}}
    path = request["file"]
    act_timeout = float(request["configuration"].get("actTimeout", 2.0))
    result["load"] = load(path, act_timeout + FULL_BANK + GRACE)
    if result["load"]["ok"]:
        watch = MoveWatch(request.get("progress"))
        from kaggle_environments.agent import Agent

        watch.install(Agent)
        result["episodes"] = []
        for spec in request["episodes"]:
            late = next((played for played in result["episodes"] if timed_out(played)), None)
            if late is not None:
                result["episodes"].append({"name": spec["name"], "agents": spec["agents"], "skipped": late["name"]})
                continue
            with _environment(spec.get("environment", {})):
                result["episodes"].append(
                    episode(kaggle, path, spec, request["configuration"], watch, request.get("marks", {}))
                )
        result["positions"] = [
            position_move(kaggle, path, moves, request["configuration"], watch)
            for moves in request.get("positions", [])
        ]
        result["comparisons"] = [compare(path, comparison) for comparison in request.get("comparisons", [])]
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
