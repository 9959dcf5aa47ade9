"""Games on a Dask cluster: ``--cluster local:N`` or ``--cluster ADDRESS``, as one ``Executor``.

The harness plays games on any ``concurrent.futures.Executor`` (see ``scheduling``), so a cluster
is just another executor: ``open_cluster`` starts a local Dask cluster or connects to a running
scheduler and yields a ``ClusterExecutor``, which matches, tournaments and the paper report use
unchanged. What stays as it is locally:

- the watchdog: each task runs the harness's game function (``game.play_isolated``) on a worker,
  which plays it in its watched game process (replaced after any game that goes wrong), so a hung or
  crashing agent costs its own game only;
- results: the command's process gets each record once, as it finishes, and stores it there;
  a worker that dies costs the games it held, which Dask plays again elsewhere;
- agent files: no shared file system is assumed, so a file's source is read where the command
  runs and shipped with each task; the worker plays it from a private copy, and the record keeps
  the spec's text as given, so records and ``--resume`` match a local run's;
- versions: every worker must run the same connectx and kaggle-environments as the command
  (checked when connecting, and by each task for workers that join later).

Dask is imported only when a cluster is opened: without ``--cluster`` nothing here touches it.
A local cluster listens on 127.0.0.1 only (scheduler, workers and dashboard).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import logging
import multiprocessing
import os
import signal
import tempfile
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, InvalidStateError
from concurrent.futures import wait as wait_for_futures
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from connectx.agents.agent_spec import AgentKind, AgentSpec
from connectx.evaluation.engine import kaggle_environments
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.option_words import OptionError, OptionWords

LOCAL_PREFIX = "local:"
SCHEMES = ("tcp", "tls")
LOCALHOST = "127.0.0.1"
CLUSTER_FORMS = (
    "local:N (a Dask cluster of N worker processes on this machine) or the address of a running "
    "Dask scheduler, such as tcp://scheduler-host:8786"
)
CONNECT_TIMEOUT = 30.0
"""Seconds to reach a scheduler, and then for at least one worker to be there."""
PACKAGES = ("connectx", "kaggle-environments")
"""What must be the same version on every worker: the agents and harness, and the engine that judges."""


class ClusterError(RuntimeError):
    """The cluster cannot play the games: unreachable, no workers, other versions, Dask missing."""


class MissingExtra(ClusterError):
    """Dask is not installed here: the message names the command that installs it."""


class ClusterLostError(OptionWords, ClusterError):
    """The cluster went away in the middle of a run; the games stored so far stay, and resuming continues."""


@dataclass(frozen=True)
class ClusterTarget:
    """Where games run: a local cluster of ``workers`` processes, or the scheduler at ``address``."""

    workers: int | None = None
    address: str | None = None

    @classmethod
    def parse(cls, text: str) -> ClusterTarget:
        """The target ``text`` names (``local:N`` or ``tcp://host:port``); a one-line ValueError otherwise."""
        value = text.strip()
        if value.startswith(LOCAL_PREFIX):
            count = value[len(LOCAL_PREFIX) :]
            if not count.isdigit() or int(count) < 1:
                raise OptionError(
                    "{cluster} {text!r}: local:N needs a whole number of workers N >= 1, such as local:2", text=text
                )
            return cls(workers=int(count))
        parts = urlsplit(value)
        try:
            port_ok = parts.port is None or parts.port > 0
        except ValueError:  # not a number, or out of range
            port_ok = False
        if parts.scheme not in SCHEMES or not parts.hostname or not port_ok or parts.path.strip("/") or parts.query:
            raise OptionError("{cluster} {text!r}: give {forms}", text=text, forms=CLUSTER_FORMS)
        return cls(address=value)

    @classmethod
    def of(cls, value: ClusterTarget | str) -> ClusterTarget:
        return value if isinstance(value, ClusterTarget) else cls.parse(value)

    @property
    def text(self) -> str:
        return f"{LOCAL_PREFIX}{self.workers}" if self.address is None else self.address


@lru_cache(maxsize=1)
def package_versions() -> dict[str, str]:
    """This process's versions of ``PACKAGES`` ("not installed" for one that is only importable)."""
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def version_mismatch(ours: dict[str, str], theirs: dict[str, str], where: str) -> str | None:
    """A one-line message if ``theirs`` (the versions at ``where``) differ from ``ours``, else None."""
    for name in PACKAGES:
        if ours.get(name) != theirs.get(name):
            return (
                f"the Dask worker {where} has {name} {theirs.get(name)} but this command runs {ours.get(name)}; "
                f"install the same version on every worker (pip install 'connectx[cluster]' from the same source)"
            )
    return None


@contextmanager
def open_cluster(target: ClusterTarget | str, *, timeout: float = CONNECT_TIMEOUT) -> Iterator[ClusterExecutor]:
    """An executor on ``target``, everything it started closed on exit.

    ``local:N`` starts a Dask cluster of N single-threaded worker processes on 127.0.0.1 (its
    dashboard too, if bokeh is installed) and stops it on exit; an address connects to a running
    scheduler and leaves it running. ValueError for a bad target; ClusterError if Dask is not
    installed, the scheduler cannot be reached or has no worker within ``timeout`` seconds, or a
    worker runs other versions.
    """
    target = ClusterTarget.of(target)
    distributed = _import_distributed()
    with ExitStack() as stack:
        if target.address is None:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=target.workers,
                    threads_per_worker=1,
                    processes=True,
                    host=LOCALHOST,
                    dashboard_address=f"{LOCALHOST}:0" if importlib.util.find_spec("bokeh") else None,
                    silence_logs=logging.ERROR,
                    preload=[__name__],
                )
            )
            client = stack.enter_context(distributed.Client(cluster, timeout=timeout))
        else:
            client = _connect(distributed, target.address, timeout)
            stack.callback(_close_quietly, client)
        executor = ClusterExecutor.connect(client, timeout=timeout)
        stack.callback(executor.shutdown, wait=False, cancel_futures=True)
        yield executor


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingExtra(
            "a cluster needs Dask's distributed package: pip install 'connectx[cluster]' "
            "(make install-cluster in a checkout)"
        ) from None
    return distributed


def _connect(distributed: Any, address: str, timeout: float) -> Any:
    try:
        return distributed.Client(address, timeout=timeout)
    except (OSError, TimeoutError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason}); start it "
            f"with `dask scheduler` or check the address"
        ) from None


def _close_quietly(client: Any) -> None:
    """Close ``client``; after a lost scheduler, without Dask's traceback of the reconnection it gives up."""
    logger = logging.getLogger("distributed.client")
    level = logger.level
    if client.status != "running":
        logger.setLevel(logging.CRITICAL)
    try:
        client.close()
    finally:
        logger.setLevel(level)


class ClusterExecutor(Executor):
    """A ``concurrent.futures.Executor`` that plays each submitted call as a task on a Dask cluster.

    Build one with ``open_cluster``, or with ``ClusterExecutor.connect(client)`` around a Client
    you manage yourself (it is not closed here). A call whose first argument is a ``GameSpec``
    with agent files carries their source (read here once per file) to the worker.
    """

    def __init__(self, client: Any) -> None:
        self._client = client
        self._address = client.scheduler.address
        self._versions = package_versions()
        self._sources: dict[str, str] = {}
        self._pending: dict[Future[Any], Any] = {}
        self._shutdown = False

    @classmethod
    def connect(cls, client: Any, *, timeout: float = CONNECT_TIMEOUT) -> ClusterExecutor:
        """An executor on ``client``'s cluster, once a worker is there and every worker runs our versions."""
        address = client.scheduler.address
        try:
            client.wait_for_workers(1, timeout=timeout)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {address} has no worker (none joined in {timeout:g} s); "
                f"start one with `dask worker {address}` on each machine"
            ) from None
        reports = client.run(package_versions, on_error="return")
        for worker, versions in sorted(reports.items()):
            if not isinstance(versions, dict):
                raise ClusterError(
                    f"the Dask worker {worker} cannot run connectx ({type(versions).__name__}: "
                    f"{versions}); install it there: pip install 'connectx[cluster]'"
                )
            message = version_mismatch(package_versions(), versions, worker)
            if message is not None:
                raise ClusterError(message)
        return cls(client)

    @property
    def client(self) -> Any:
        """The Dask ``Client`` the games go through."""
        return self._client

    @property
    def jobs(self) -> int:
        """The worker threads in the cluster now: how many games it plays at once."""
        return max(1, int(sum(self._client.nthreads().values())))

    @property
    def address(self) -> str:
        """The scheduler's address."""
        return str(self._address)

    @property
    def dashboard_link(self) -> str | None:
        """Where to watch the cluster in a browser, if its scheduler serves a dashboard."""
        try:
            return str(self._client.dashboard_link)
        except (KeyError, AttributeError):
            return None

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._shutdown:
            raise RuntimeError("cannot play games on a cluster executor after shutdown")
        if self._client.status != "running":
            raise self._lost()
        task = _ClusterTask(fn, args, kwargs, self._versions, self._ship(args))
        key = f"game-{args[0].index}-{uuid.uuid4().hex}" if args and isinstance(args[0], GameSpec) else None
        dask_future = self._client.submit(task, key=key, pure=False)
        future: Future[Any] = Future()
        self._pending[future] = dask_future
        dask_future.add_done_callback(lambda done: self._settle(future, done))
        return future

    def _ship(self, args: tuple[Any, ...]) -> dict[str, str]:
        """The source of each agent file the call plays, read here (once per file)."""
        if not args or not isinstance(args[0], GameSpec):
            return {}
        for agent in args[0].agents:
            if agent.kind is AgentKind.FILE and agent.name not in self._sources:
                with open(agent.name, encoding="utf-8") as handle:
                    self._sources[agent.name] = handle.read()
        return {agent.name: self._sources[agent.name] for agent in args[0].agents if agent.kind is AgentKind.FILE}

    def _settle(self, future: Future[Any], dask_future: Any) -> None:
        """Pass a finished task's outcome on (in Dask's callback thread); a cancelled task means a lost cluster."""
        self._pending.pop(future, None)
        if future.done():
            return
        try:
            if dask_future.status == "finished":
                outcome: Any = dask_future.result()
            elif dask_future.status == "cancelled":
                outcome = self._lost()
            else:
                outcome = self._translated(dask_future.exception())
        except Exception as error:  # the result could not be fetched: the scheduler went away meanwhile
            outcome = self._lost() if self._client.status != "running" else error
        try:
            if isinstance(outcome, BaseException):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)
        except InvalidStateError:  # cancelled by shutdown meanwhile
            pass

    def _translated(self, error: BaseException) -> BaseException:
        """A worker-killing game as a ClusterLostError (resuming continues the run); any other error as it is."""
        if type(error).__name__ == "KilledWorker":
            task = getattr(error, "task", "a game")
            return ClusterLostError(
                "every Dask worker that played {task} died while playing it (out of memory? see the workers' logs); "
                "the games finished so far are stored: rerun with {resume}",
                task=task,
            )
        return error

    def _lost(self) -> ClusterLostError:
        return ClusterLostError(
            "lost the Dask scheduler at {address} in the middle of the run; the games finished so far are stored: "
            "rerun with {resume} (here or on a cluster) for the rest",
            address=self._address,
        )

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; with ``cancel_futures`` (or not ``wait``) drop what is queued or running.

        A game already running on a worker plays on there (a thread cannot be stopped) but its
        result is dropped; a local cluster's workers are stopped when ``open_cluster`` exits.
        """
        self._shutdown = True
        pending = dict(self._pending)
        if wait and not cancel_futures:
            wait_for_futures(pending)
            return
        for future in pending:
            if future.cancel():
                future.set_running_or_notify_cancel()  # wakes up anyone in concurrent.futures.wait
        self._pending.clear()
        if self._client.status == "running":  # cancelling needs the scheduler; a lost one is not waited for
            self._client.cancel(list(pending.values()))


@dataclass(frozen=True)
class _ClusterTask:
    """One submitted call as the worker runs it, with our versions and the agent files' source."""

    function: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    versions: dict[str, str]
    sources: dict[str, str]

    def __call__(self) -> Any:
        _prepare_worker()
        message = version_mismatch(self.versions, package_versions(), f"pid {os.getpid()}")
        if message is not None:
            raise ClusterError(message)
        if not self.sources:
            return self.function(*self.args, **self.kwargs)
        return _play_shipped(self.function, self.args, self.kwargs, self.sources)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in each worker process of a local cluster as it starts (restarts too).

    Ctrl-C reaches every process of the terminal's group: the command handles it and stops the
    cluster, so its workers ignore it rather than print a traceback each. Workers started with
    ``dask worker`` do not preload this and stop on Ctrl-C as usual.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@lru_cache(maxsize=1)
def _prepare_worker() -> None:
    """Let this Dask worker fork games, and import kaggle-environments once, before its first game.

    Dask starts its workers as daemonic processes, which ``multiprocessing`` forbids to have
    children; the flag only asks for children to be killed with the worker, and a game's process
    ends itself once its parent is gone (``orphans.exit_when_gone``), so lifting it is safe.
    """
    process = multiprocessing.current_process()
    if process.daemon:
        process.daemon = False
    kaggle_environments()


def _play_shipped(
    function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], sources: dict[str, str]
) -> Any:
    """Play ``args[0]`` (a GameSpec) with its agent files written from ``sources`` to a private directory.

    The record names the agents by the spec's own text, and the copies' paths in its detail and
    replay are put back to the original paths.
    """
    spec: GameSpec = args[0]
    with tempfile.TemporaryDirectory(prefix="connectx-agents-") as directory:
        copies: dict[str, str] = {}
        for number, (original, source) in enumerate(sources.items()):
            folder = os.path.join(directory, str(number))
            os.mkdir(folder)
            copies[original] = os.path.join(folder, os.path.basename(original) or "agent.py")
            with open(copies[original], "w", encoding="utf-8") as handle:
                handle.write(source)
        first, second = (
            AgentSpec(AgentKind.FILE, copies[a.name]) if a.kind is AgentKind.FILE else a for a in spec.agents
        )
        record = function(replace(spec, agents=(first, second)), *args[1:], **kwargs)
    if not isinstance(record, GameRecord):
        return record
    renames = {copy: original for original, copy in copies.items()}
    return replace(
        record,
        agents=spec.names,
        detail=_renamed(record.detail, renames),
        replay=None
        if record.replay is None
        else json.loads(_renamed(json.dumps(record.replay), renames, escaped=True)),
    )


def _renamed(text: str, renames: dict[str, str], escaped: bool = False) -> str:
    """``text`` with each copy's path replaced by the original (as JSON string content with ``escaped``)."""
    for copy, original in renames.items():
        if escaped:
            copy, original = json.dumps(copy)[1:-1], json.dumps(original)[1:-1]
        text = text.replace(copy, original)
    return text
