"""The page's server answers only its own page: a real server on 127.0.0.1 and a free port, raw HTTP requests.

Other sites' pages run in the same browser as ours, and a DNS-rebinding host name can point at the
loopback, so the server must refuse what only they would send: a foreign ``Host``, a foreign
``Origin``, a POST that is not JSON; and it must bound how much work anyone can ask of it.
"""

from __future__ import annotations

import http.client
import io
import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from connectx.analysis.solved_cache import SolvedCache
from connectx.play.column_values import ColumnAnalyst
from connectx.play.http_app import Server, make_server


@pytest.fixture(scope="module")
def log() -> io.StringIO:
    return io.StringIO()


@pytest.fixture(scope="module")
def server(log: io.StringIO) -> Iterator[Server]:
    with make_server(
        "127.0.0.1", 0, analysis_seconds=3.0, analyst=ColumnAnalyst(SolvedCache(None, None)), log=log
    ).in_background() as running:
        yield running


def request(
    server: Server, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], Any]:
    """Status, headers and decoded JSON body of one raw request; ``headers`` may replace ``Host``."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    sent = {"Host": f"127.0.0.1:{server.port}", **(headers or {})}
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in sent.items():
        connection.putheader(name, value)
    connection.putheader("Content-Length", str(len(body or b"")))
    connection.endheaders(body)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    kind = response.getheader("Content-Type", "")
    return response.status, dict(response.getheaders()), json.loads(data) if "json" in kind else data


def post(server: Server, path: str, data: Any, **headers: str) -> tuple[int, dict[str, str], Any]:
    return request(
        server,
        "POST",
        path,
        json.dumps(data).encode(),
        {"Content-Type": "application/json", **{k.replace("_", "-"): v for k, v in headers.items()}},
    )


NEW_GAME = {"opponent": "human", "rows": 6, "columns": 7, "inarow": 4, "first": "you"}


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1:1", "localhost", "", "127.0.0.1.nip.io:{port}"]
)
def test_a_foreign_host_is_refused_with_400(server: Server, host: str) -> None:
    status, _, answer = request(server, "GET", "/api/options", headers={"Host": host.format(port=server.port)})
    assert status == 400 and "this server answers only" in answer["error"]
    status, _, _ = post(server, "/api/new", NEW_GAME, Host=host.format(port=server.port))
    assert status == 400


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}", "LOCALHOST:{port}"])
def test_the_servers_own_names_are_answered(server: Server, host: str) -> None:
    status, _, options = request(server, "GET", "/api/options", headers={"Host": host.format(port=server.port)})
    assert status == 200 and options["defaults"]["opponent"] == "solver"


def test_a_foreign_origin_cannot_start_a_game(server: Server) -> None:
    for origin in (
        "http://evil.example",
        f"http://evil.example:{server.port}",
        "null",
        f"https://127.0.0.1:{server.port}",
        "http://127.0.0.1:1",
    ):
        status, _, answer = post(server, "/api/new", NEW_GAME, Origin=origin)
        assert status == 403 and "refused" in answer["error"], origin
    status, _, state = post(server, "/api/new", NEW_GAME, Origin=f"http://127.0.0.1:{server.port}")
    assert status == 200 and state["moves"] == []
    status, _, state = post(server, "/api/new", NEW_GAME, Origin=f"http://localhost:{server.port}")
    assert status == 200


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", None])
def test_a_post_that_is_not_json_is_refused_with_403(server: Server, kind: str | None) -> None:
    headers = {"Content-Type": kind} if kind is not None else {}
    status, _, answer = request(server, "POST", "/api/new", json.dumps(NEW_GAME).encode(), headers)
    assert status == 403 and "application/json" in answer["error"]


def test_unsupported_methods_and_paths_answer_json(server: Server) -> None:
    status, headers, answer = request(server, "PUT", "/api/new", b"{}", {"Content-Type": "application/json"})
    assert status == 405 and answer["error"] == "/api/new takes POST" and headers["allow"] == "POST"
    status, _, answer = request(server, "DELETE", "/api/options")
    assert status == 405 and "takes GET" in answer["error"]
    status, _, answer = request(server, "GET", "/nothing/here")
    assert status == 404 and "no page" in answer["error"]


@pytest.mark.parametrize("path", ["/api/new", "/api/upload"])
def test_absurdly_nested_json_is_a_400(server: Server, path: str) -> None:
    depth = 100_000
    body = b"[" * depth + b"]" * depth
    status, _, answer = request(server, "POST", path, body, {"Content-Type": "application/json"})
    assert status == 400 and "nested too deeply" in answer["error"]
    assert post(server, "/api/new", NEW_GAME)[0] == 200


def test_a_flood_of_analyses_is_bounded_and_told_when_to_retry(server: Server) -> None:
    """Two analyses run at once; the others are told to come back (429 with Retry-After), none fails."""
    sessions = [post(server, "/api/new", {**NEW_GAME, "rows": 7, "columns": 8})[2]["session"] for _ in range(8)]
    started = time.monotonic()
    with ThreadPoolExecutor(len(sessions)) as pool:
        answers = list(pool.map(lambda key: post(server, "/api/analysis", {"session": key}), sessions))
    statuses = sorted(status for status, _, _ in answers)
    assert set(statuses) == {200, 429} and statuses.count(200) >= 2, statuses
    for status, headers, answer in answers:
        if status == 429:
            assert headers["retry-after"].isdigit() and "try again" in answer["error"]
        else:
            assert len(answer["values"]) == 8
    assert time.monotonic() - started < 30
    assert post(server, "/api/analysis", {"session": sessions[0]})[0] == 200


def test_a_client_that_hangs_up_leaves_no_trace(server: Server, log: io.StringIO) -> None:
    state = post(server, "/api/new", NEW_GAME)[2]
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", server.port)) as raw:
            raw.sendall(
                f"GET /api/replay?session={state['session']}&format=html HTTP/1.1\r\n"
                f"Host: 127.0.0.1:{server.port}\r\n\r\n".encode()
            )
            raw.shutdown(socket.SHUT_RDWR)
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(
            b"POST /api/new HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"opp' % server.port
        )
    time.sleep(1)
    assert request(server, "GET", "/api/options")[0] == 200
    assert "Traceback" not in log.getvalue() and "Error" not in log.getvalue()
