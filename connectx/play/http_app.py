"""The page's HTTP layer: Starlette routes the requests of ``App``, uvicorn serves them, only on the address given.

A server on 127.0.0.1 is still reachable from every web page open in the same browser, so it
answers only its own page:

* the ``Host`` must be the address it listens on (``127.0.0.1:PORT``, ``localhost:PORT`` or
  ``[::1]:PORT``), else 400: a DNS-rebinding host name never gets an answer;
* a ``POST`` must say ``Content-Type: application/json`` (a cross-site form or "simple" request
  cannot) and, when the browser sends an ``Origin``, come from the server's own origin, else 403;
* analyses run at most ``ANALYSIS_SLOTS`` at a time across all sessions; a request that finds
  no slot within ``SLOT_WAIT`` seconds gets 429 with ``Retry-After``.

Every answer of the API is JSON, errors included (``{"error": "..."}``): an unknown path (404),
a method a path does not take (405), a body over ``MAX_BODY`` (413), a body that is not JSON or
is nested absurdly deep (400). A client that hangs up mid-answer costs nothing but its request.
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
import sys
import threading
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from http import HTTPStatus
from importlib.resources import files
from typing import Any, TextIO

import uvicorn
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from connectx.evaluation.option_words import OptionError
from connectx.play.api import ANALYSIS_SECONDS, MAX_BODY, App, RequestError

ANALYSIS_SLOTS = 2
"""Analyses (a position's columns, an uploaded game) running at once across all sessions: one a core."""
SLOT_WAIT = 1.0
"""Seconds an analysis request waits for a free slot before it is told to come back later (429)."""
DRAIN_LIMIT = 64 * 1024 * 1024
"""An oversized body up to this size is read and dropped before the 413, so the client sees it; a larger
one is answered at once and the connection closed."""
RETRY_AFTER = 5
"""The ``Retry-After`` seconds a 429 answer suggests."""
STATIC_FILES = {
    "/": ("index.html", "text/html"),
    "/index.html": ("index.html", "text/html"),
    "/app.js": ("app.js", "text/javascript"),
    "/style.css": ("style.css", "text/css"),
}
"""The only files served: the page's own."""
SECURITY_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


def error_response(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status, headers={**SECURITY_HEADERS, **(headers or {})})


class LocalOnly:
    """ASGI middleware: refuse requests that do not come from the page this server serves (see the module's doc)."""

    def __init__(self, app: ASGIApp, hosts: set[str]) -> None:
        self.app = app
        self.hosts = hosts
        self.origins = {f"http://{host}" for host in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self.refusal(scope["method"], headers)
        if refusal is None:
            await self.app(scope, receive, send)
        else:
            await error_response(*refusal)(scope, receive, send)

    def refusal(self, method: str, headers: Headers) -> tuple[int, str] | None:
        """Why a request is refused (status, message), or None to let it through."""
        if headers.get("host", "").lower() not in self.hosts:
            host = headers.get("host", "")[:80]
            return 400, f"this server answers only {', '.join(sorted(self.hosts))}, not Host {host!r}"
        if method == "POST":
            origin = headers.get("origin")
            if origin is not None and origin.lower() not in self.origins:
                return 403, f"requests from {origin[:80]!r} are refused: use the page this server serves"
            kind = headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind != "application/json":
                return 403, "a POST must send Content-Type: application/json"
        return None


class AnalysisSlots:
    """At most ``count`` analyses at once; ``run`` waits up to ``wait`` seconds for a slot, then refuses (429)."""

    def __init__(self, count: int = ANALYSIS_SLOTS, wait: float = SLOT_WAIT) -> None:
        self._slots = threading.BoundedSemaphore(count)
        self.wait = wait

    def run(self, work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        self.acquire()
        try:
            return work()
        finally:
            self.release()

    def acquire(self) -> None:
        """Take a slot, waiting up to ``wait`` seconds; RequestError (429) when none frees up."""
        if not self._slots.acquire(timeout=self.wait):
            raise RequestError(
                f"the server is busy with other analyses: try again in {RETRY_AFTER} s", HTTPStatus.TOO_MANY_REQUESTS
            )

    def release(self) -> None:
        self._slots.release()


class Hangup(Exception):
    """The client of a streamed analysis went away: the analysis stops at its next ply."""


async def read_body(request: Request) -> bytes:
    """The request body, at most ``MAX_BODY`` bytes; RequestError (413) for a larger one."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY:
        if int(declared) <= DRAIN_LIMIT:  # read and dropped, so that the client, still sending, reads the answer
            async for _ in request.stream():
                pass
        raise RequestError(
            f"the upload is {int(declared) / 1e6:.1f} MB; the limit is {MAX_BODY / 1e6:.0f} MB "
            "(a Kaggle ConnectX episode is far smaller)",
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
        )
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise RequestError(
                f"the upload is over the limit of {MAX_BODY / 1e6:.0f} MB", HTTPStatus.REQUEST_ENTITY_TOO_LARGE
            )
    return bytes(body)


def parse_json(body: bytes, what: str = "the request") -> Any:
    """``body`` decoded as JSON; RequestError (400) for text that is not JSON or is nested too deeply to read."""
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError(f"{what} is not JSON ({error})") from None
    except RecursionError:
        raise RequestError(f"{what} is nested too deeply to be a ConnectX request") from None


def json_object(body: bytes) -> dict[str, Any]:
    """The JSON object a POST's body holds (an empty body is an empty object); RequestError otherwise."""
    data = parse_json(body) if body else {}
    if not isinstance(data, dict):
        raise RequestError("the request is not a JSON object")
    return data


def answer(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(data, headers=SECURITY_HEADERS)


class Routes:
    """The page's routes as small named handlers over ``api``: each reads its request, asks ``api`` (in a
    worker thread, holding one of ``slots`` when it analyses) and answers JSON or server-sent events."""

    def __init__(self, api: App, log: TextIO, slots: AnalysisSlots) -> None:
        self.api, self.log, self.slots = api, log, slots
        self.static = files("connectx.play") / "static"

    def table(self) -> list[Route]:
        """Every path the server answers, with the methods it takes."""
        api = self.api
        return [
            *(Route(path, self.page, methods=["GET"]) for path in STATIC_FILES),
            Route("/api/options", self.options, methods=["GET"]),
            Route("/api/replay", self.replay, methods=["GET"]),
            Route("/api/new", self.json_post(api.new_game), methods=["POST"]),
            Route("/api/move", self.json_post(api.move), methods=["POST"]),
            Route("/api/undo", self.json_post(api.take_back), methods=["POST"]),
            Route("/api/analysis", self.json_post(api.analysis, limited=True), methods=["POST"]),
            Route("/api/analysis/stream", self.analysis_stream, methods=["POST"]),
            Route("/api/upload", self.upload, methods=["POST"]),
            Route("/api/upload/stream", self.upload_stream, methods=["POST"]),
        ]

    def page(self, request: Request) -> Response:
        name, kind = STATIC_FILES[request.url.path]
        return Response(
            (self.static / name).read_bytes(), headers=SECURITY_HEADERS, media_type=f"{kind}; charset=utf-8"
        )

    async def options(self, request: Request) -> Response:
        return answer(self.api.options())

    async def replay(self, request: Request) -> Response:
        query = {name: request.query_params.getlist(name) for name in request.query_params}
        data, kind, name = await run_in_threadpool(self.api.replay, query)
        return Response(
            data, media_type=kind, headers={**SECURITY_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'}
        )

    def json_post(
        self, action: Callable[[dict[str, Any]], dict[str, Any]], limited: bool = False
    ) -> Callable[[Request], Awaitable[Response]]:
        """A POST endpoint answering ``action(body)``; ``limited``: it analyses, so it holds a slot meanwhile."""

        async def endpoint(request: Request) -> Response:
            data = json_object(await read_body(request))
            work = (lambda: self.slots.run(lambda: action(data))) if limited else (lambda: action(data))
            return answer(await run_in_threadpool(work))

        return endpoint

    async def upload(self, request: Request) -> Response:
        episode = parse_json(await read_body(request), "the file")
        seconds = request.query_params.get("seconds")
        return answer(await run_in_threadpool(self.slots.run, lambda: self.api.upload(episode, seconds)))

    async def upload_stream(self, request: Request) -> Response:
        """The upload's analysis as server-sent events: ``start``, ``ply`` for each ply in order once the whole
        game is analysed and its values agree, then ``done`` with the whole answer (or ``error``). Bad input and
        a busy server are refused first."""
        game = self.api.uploaded_game(parse_json(await read_body(request), "the file"))
        seconds = self.api.seconds(request.query_params.get("seconds"))
        await run_in_threadpool(self.slots.acquire)
        start = {"plies": len(game.moves), "seconds": seconds}
        return self.event_stream(
            lambda send: self.api.analyze_upload(game, seconds, lambda row: send("ply", row)), start
        )

    async def analysis_stream(self, request: Request) -> Response:
        """The column values as server-sent events: ``column`` each time one is settled or refined (an
        estimate first, then what the proofs show), then ``done`` with the whole answer (or ``error``)."""
        data = json_object(await read_body(request))
        await run_in_threadpool(self.slots.acquire)
        return self.event_stream(lambda send: self.api.analysis(data, lambda value: send("column", value)))

    def event_stream(
        self, work: Callable[[Callable[[str, Any], None]], dict[str, Any]], start: dict[str, Any] | None = None
    ) -> StreamingResponse:
        """``work(send)`` in a worker thread (holding an analysis slot, which it frees), its ``send(event, data)``
        calls as server-sent events, then ``done`` with what it returns, or ``error``; a client that hangs
        up stops it at its next ``send``."""
        events: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        gone = threading.Event()

        def send(kind: str, data: Any) -> None:
            if gone.is_set():
                raise Hangup
            loop.call_soon_threadsafe(events.put_nowait, (kind, data))

        def run() -> None:
            try:
                send("done", work(send))
            except Hangup:
                pass
            except RequestError as error:
                loop.call_soon_threadsafe(events.put_nowait, ("error", {"error": str(error)}))
            except Exception as error:  # a bug must cost one request, never the server
                traceback.print_exception(error, file=self.log)
                loop.call_soon_threadsafe(
                    events.put_nowait, ("error", {"error": f"the analysis failed ({type(error).__name__}: {error})"})
                )
            finally:
                self.slots.release()

        async def stream() -> AsyncIterator[str]:
            loop.run_in_executor(None, run)
            try:
                if start is not None:
                    yield f"event: start\ndata: {json.dumps(start)}\n\n"
                while True:
                    kind, data = await events.get()
                    yield f"event: {kind}\ndata: {json.dumps(data)}\n\n"
                    if kind in ("done", "error"):
                        break
            finally:
                gone.set()  # the work stops at its next event if nobody reads on; its thread frees the slot

        return StreamingResponse(stream(), media_type="text/event-stream", headers=SECURITY_HEADERS)

    async def server_error(self, request: Request, error: Exception) -> Response:
        traceback.print_exception(error, file=self.log)  # a bug must cost one request, never the server
        return error_response(500, f"the server failed on this request ({type(error).__name__}: {error})")


async def request_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestError)
    retry = {"Retry-After": str(RETRY_AFTER)} if error.status == HTTPStatus.TOO_MANY_REQUESTS else None
    return error_response(error.status, str(error), retry)


async def http_error(request: Request, error: Exception) -> Response:
    """Starlette's 404 and 405 as JSON that says what the path is or takes."""
    assert isinstance(error, HTTPException)
    path = request.url.path[:80]
    if error.status_code == HTTPStatus.METHOD_NOT_ALLOWED:
        allowed = (error.headers or {}).get("Allow", "")
        methods = " or ".join(method for method in allowed.split(", ") if method != "HEAD")
        return error_response(405, f"{path} takes {methods}", {"Allow": allowed})
    if error.status_code == HTTPStatus.NOT_FOUND:
        return error_response(404, f"no page {path!r} here")
    return error_response(error.status_code, str(error.detail))


async def hung_up(request: Request, error: Exception) -> Response:
    return Response(status_code=204)  # nobody is left to read it


def build_app(api: App, hosts: set[str], log: TextIO, slots: AnalysisSlots | None = None) -> ASGIApp:
    """The ASGI application: ``api``'s routes behind ``LocalOnly`` for ``hosts`` (each ``name:port``)."""
    routes = Routes(api, log, slots if slots is not None else AnalysisSlots())
    handlers = {
        RequestError: request_error,
        HTTPException: http_error,
        ClientDisconnect: hung_up,
        Exception: routes.server_error,
    }
    return LocalOnly(Starlette(routes=routes.table(), exception_handlers=handlers), hosts)


def local_names(host: str, port: int) -> set[str]:
    """The ``Host`` values a server listening on ``host:port`` answers: that address, and the loopback's names
    when it listens there."""
    shown = f"[{host}]" if ":" in host else host
    names = {f"{shown}:{port}".lower()}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
    return names


class Server:
    """The page's server: a socket bound at once (so ``url`` is known), served by uvicorn until ``shutdown``."""

    def __init__(self, host: str, port: int, app: App, log: TextIO, verbose: bool = False) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.create_server((host, port), family=family)
        self.host = host
        self.port = self.socket.getsockname()[1]
        self.app = app
        self.log = log
        config = uvicorn.Config(
            build_app(app, local_names(host, self.port), log),
            log_config=None,
            access_log=verbose,
            log_level="info" if verbose else "warning",
            lifespan="off",
            timeout_graceful_shutdown=2,
        )
        self._server = uvicorn.Server(config)
        self._stopped = threading.Event()

    @property
    def url(self) -> str:
        shown = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{shown}:{self.port}/"

    def serve_forever(self) -> None:
        """Serve until ``shutdown`` (or, in the main thread, Ctrl-C)."""
        try:
            self._server.run(sockets=[self.socket])
        finally:
            self._stopped.set()

    def shutdown(self) -> None:
        """Stop serving and wait until ``serve_forever`` has returned."""
        self._server.should_exit = True
        self._stopped.wait(10)

    def server_close(self) -> None:
        self.socket.close()

    @contextmanager
    def in_background(self) -> Iterator[Server]:
        """Serve from a thread of this process while the ``with`` block runs, then stop and release everything
        (tests, benchmarks, screenshots)."""
        threading.Thread(target=self.serve_forever, name="connectx-serve", daemon=True).start()
        try:
            yield self
        finally:
            self.shutdown()
            self.server_close()
            self.app.close()


class ServeError(OptionError):
    """The page cannot be served as asked: the port is taken, the address cannot be bound, the time is not positive."""


def make_server(
    host: str = "127.0.0.1",
    port: int = 0,
    analysis_seconds: float = ANALYSIS_SECONDS,
    analyst: Any = None,
    verbose: bool = False,
    log: TextIO | None = None,
) -> Server:
    """The server, bound (``port`` 0: a free port, see ``.url``) but not yet serving; ServeError if it cannot bind."""
    if not analysis_seconds > 0:
        raise ServeError("{analysis_seconds}={seconds}: give a positive number of seconds", seconds=analysis_seconds)
    try:
        return Server(host, port, App(analysis_seconds, analyst), log if log is not None else sys.stderr, verbose)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise ServeError(
                "{port}={number} on {address} is in use; give another {port}, or {port}=0 for a free one",
                number=port,
                address=host,
            ) from None
        raise ServeError(
            "cannot serve on {address}:{number} ({why}); check {host} and {port}",
            address=host,
            number=port,
            why=error.strerror,
        ) from None


def serve(
    host: str = "127.0.0.1",
    port: int = 0,
    analysis_seconds: float = ANALYSIS_SECONDS,
    verbose: bool = False,
    stdout: TextIO | None = None,
) -> int:
    """Serve the page until Ctrl-C; the exit status (0). ServeError if the address cannot be used."""
    stdout = stdout if stdout is not None else sys.stdout
    server = make_server(host, port, analysis_seconds, verbose=verbose)
    stdout.write(f"Serving the ConnectX page on {server.url} (Ctrl-C stops)\n")
    stdout.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        stdout.write("\nStopped.\n")
        server.server_close()
        server.app.close()
    return 0
