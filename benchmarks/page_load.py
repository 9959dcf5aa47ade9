"""The page's server under load: many sessions playing and analysing at once, over the loopback.

A real server (``connectx serve``'s, on 127.0.0.1 and a free port) and ``--sessions`` clients at
once, each a tab: a new game against ``random``, then moves, each followed by the analysis of the
position (at ``--seconds`` a position), until the game ends or ``--moves`` moves are played. A
client told 429 (the server's bound on analyses at once) waits as ``Retry-After`` says and asks
again, as the page's user would. Printed: requests, errors (anything but an answer or a 429:
must be 0), the 429s, and the median and 95th-percentile answer times.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from connectx.analysis.solved_cache import SolvedCache
from connectx.play.column_values import ColumnAnalyst
from connectx.play.http_app import Server, make_server


@dataclass
class Tally:
    """What the clients saw, added up under a lock."""

    seconds: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refused: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def call(server: Server, path: str, body: dict[str, Any], tally: Tally, retries: int = 20) -> dict[str, Any] | None:
    """POST ``body`` and return the answer; a 429 waits its Retry-After and asks again; None after an error."""
    request = urllib.request.Request(
        server.url + path.lstrip("/"), data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    for _ in range(retries):
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                answer = json.loads(response.read())
            with tally.lock:
                tally.seconds.append(time.perf_counter() - started)
            return answer
        except urllib.error.HTTPError as error:
            if error.code != 429:
                with tally.lock:
                    tally.errors.append(f"{path}: {error.code} {error.read()[:120]!r}")
                return None
            with tally.lock:
                tally.refused += 1
            time.sleep(float(error.headers.get("Retry-After", "1")))
        except OSError as error:
            with tally.lock:
                tally.errors.append(f"{path}: {error}")
            return None
    with tally.lock:
        tally.errors.append(f"{path}: still refused after {retries} tries")
    return None


def session(server: Server, moves: int, seconds: float, tally: Tally) -> None:
    """One tab: a game against random, each move followed by an analysis of the position."""
    state = call(
        server, "/api/new", {"opponent": "random", "rows": 6, "columns": 7, "inarow": 4, "first": "you"}, tally
    )
    for _ in range(moves):
        if state is None or state["over"]:
            return
        analysis = call(server, "/api/analysis", {"session": state["session"], "seconds": seconds}, tally)
        if analysis is None:
            return
        playable = [column for column, value in enumerate(analysis["values"]) if value is not None]
        column = analysis["best"][0] if analysis["best"] else playable[0]
        state = call(
            server, "/api/move", {"session": state["session"], "column": column, "ply": len(state["moves"])}, tally
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=20, help="tabs at once (default 20)")
    parser.add_argument("--moves", type=int, default=8, help="moves each tab plays at most (default 8)")
    parser.add_argument("--seconds", type=float, default=1.0, help="analysis seconds a position (default 1)")
    args = parser.parse_args(argv)
    tally = Tally()
    started = time.perf_counter()
    analyst = ColumnAnalyst(SolvedCache(None))
    with (
        make_server("127.0.0.1", 0, analysis_seconds=args.seconds, analyst=analyst).in_background() as server,
        ThreadPoolExecutor(args.sessions) as pool,
    ):
        for future in [pool.submit(session, server, args.moves, args.seconds, tally) for _ in range(args.sessions)]:
            future.result()
    elapsed = time.perf_counter() - started
    times = sorted(tally.seconds)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else float("nan")
    print(
        f"{args.sessions} sessions playing and analysing at once for {elapsed:.0f} s on the loopback "
        f"({platform.machine()}, Python {platform.python_version()}, {args.seconds:g} s a position):"
    )
    print(f"  requests answered {len(times)}, errors {len(tally.errors)}, told to retry (429) {tally.refused}")
    if times:
        print(
            f"  answer time: median {statistics.median(times):.3f} s, 95th percentile {p95:.3f} s, "
            f"slowest {times[-1]:.3f} s"
        )
    for error in tally.errors[:10]:
        print(f"  error: {error}")
    return 1 if tally.errors else 0


if __name__ == "__main__":
    sys.exit(main())
