"""The page's JSON API over real HTTP: a server on 127.0.0.1 and a free port, called with ``urllib``.

Every bad request must get a clear JSON error and leave the server answering the next one.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from connectx.agents.core.kaggle_boundary import board_of
from connectx.agents.core.position import Position
from connectx.agents.search.exact_search import analyze
from connectx.analysis.games import game_from_episode
from connectx.analysis.solved_cache import SolvedCache
from connectx.evaluation.engine import BoardConfig, make_environment
from connectx.play.api import MAX_BODY
from connectx.play.column_values import ColumnAnalyst
from connectx.play.http_app import Server, make_server
from connectx.solver.score_range import describe


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with make_server(
        "127.0.0.1", 0, analysis_seconds=2.0, analyst=ColumnAnalyst(SolvedCache(None, None))
    ).in_background() as running:
        yield running


def call(server: Server, path: str, body: Any = None, raw: bytes | None = None) -> tuple[int, Any]:
    """The status and the decoded JSON answer of ``path`` (a POST when there is a body)."""
    data = raw if raw is not None else None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path.lstrip("/"), data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def new_game(server: Server, **fields: Any) -> dict[str, Any]:
    body = {"opponent": "negamax", "rows": 6, "columns": 7, "inarow": 4, "first": "you", **fields}
    status, state = call(server, "/api/new", body)
    assert status == 200, state
    return state


def still_serving(server: Server) -> None:
    status, options = call(server, "/api/options")
    assert status == 200 and options["defaults"]["opponent"] == "solver"


def test_the_page_and_its_options_are_served(server: Server) -> None:
    files = {}
    for path in ("", "app.js", "style.css"):
        with urllib.request.urlopen(server.url + path, timeout=30) as response:
            files[path] = response.read().decode()
    assert "<title>ConnectX" in files[""] and 'src="/app.js"' in files[""]
    for text in files.values():  # nothing is fetched from elsewhere
        assert not re.search(r"""(src|href)=["']?(https?:)?//|url\(|@import|https?://""", text)
    status, options = call(server, "/api/options")
    names = [opponent["name"] for opponent in options["opponents"]]
    assert status == 200
    assert {
        "random",
        "negamax",
        "minimax",
        "mcts",
        "solver",
        "fallible",
        "kaggle:random",
        "kaggle:negamax",
        "human",
    } == set(names)
    assert options["max_upload"] == MAX_BODY


@pytest.mark.parametrize(
    "opponent",
    ["nosuch", "./agent.py", "/etc/passwd", "negamax:depth=9", "kaggle:nosuch", "kaggle:", "", None, 7, ["solver"]],
)
def test_only_listed_opponents_are_accepted(server: Server, opponent: Any) -> None:
    status, answer = call(server, "/api/new", {"opponent": opponent, "rows": 6, "columns": 7, "inarow": 4})
    assert status == 400
    assert answer["error"].startswith("unknown opponent") and "choose one of random, negamax" in answer["error"]
    still_serving(server)


@pytest.mark.parametrize(
    "board, complaint",
    [
        ({"rows": 0, "columns": 7, "inarow": 4}, "rows 0: choose a whole number from 1 to 12"),
        ({"rows": 13, "columns": 7, "inarow": 4}, "rows 13"),
        ({"rows": 3, "columns": 3, "inarow": 4}, "nobody could ever win"),
        ({"rows": 6, "columns": "7", "inarow": 4}, "columns 7: choose a whole number"),
        ({"rows": 6, "columns": 7.5, "inarow": 4}, "columns 7.5"),
        ({"rows": 6, "columns": True, "inarow": 4}, "columns True"),
        ({"rows": 6, "inarow": 4}, "columns None"),
        ({"rows": 6, "columns": 7, "inarow": 1}, "in a row 1: choose a whole number from 2 to 7"),
        ({"rows": 6, "columns": 7, "inarow": 8}, "in a row 8"),
    ],
)
def test_bad_boards_are_refused(server: Server, board: dict[str, Any], complaint: str) -> None:
    status, answer = call(server, "/api/new", {"opponent": "negamax", **board})
    assert status == 400 and complaint in answer["error"]
    still_serving(server)


def test_malformed_requests_get_clear_errors(server: Server) -> None:
    status, answer = call(server, "/api/new", raw=b"{not json")
    assert status == 400 and answer["error"].startswith("the request is not JSON")
    assert call(server, "/api/new", raw=b"[1, 2]") == (400, {"error": "the request is not a JSON object"})
    assert (
        call(server, "/api/new", {"opponent": "negamax", "rows": 6, "columns": 7, "inarow": 4, "first": "me"})[1][
            "error"
        ]
        == "first 'me': choose you or opponent"
    )
    status, answer = call(server, "/api/move", {"session": "no-such-game", "column": 3})
    assert status == 404 and "start a new game" in answer["error"]
    assert call(server, "/api/move")[0] == 405  # a GET of a POST route
    assert call(server, "/api/nothing", {})[0] == 404
    for path in ("/../pyproject.toml", "/static/app.js/../../server.py", "/etc/passwd"):
        assert call(server, path)[0] == 404
    status, answer = call(server, "/api/replay?session=x&format=exe")
    assert status == 404  # the session is checked first
    still_serving(server)


def test_oversized_upload_is_refused_and_the_server_carries_on(server: Server) -> None:
    status, answer = call(server, "/api/upload", raw=b" " * (MAX_BODY + 1))
    assert status == 413 and "the limit is 2 MB" in answer["error"]
    status, answer = call(server, "/api/upload", raw=b'{"configuration": {"rows": 6}}')
    assert status == 400 and answer["error"].startswith("not a ConnectX episode")
    status, answer = call(server, "/api/upload", raw="\u00e9t\u00e9".encode("latin-1"))
    assert status == 400 and "not JSON" in answer["error"]
    still_serving(server)


@pytest.mark.games
def test_illegal_moves_are_refused_and_change_nothing(server: Server) -> None:
    state = new_game(server, rows=2, columns=4, inarow=3)
    session = state["session"]
    for column, complaint in [
        (4, "there is no column 5 on a 4-column board: pick 1 to 4"),
        (-1, "there is no column 0"),
        ("2", "column '2': expected a column number"),
        (True, "column 'True'"),
        (None, "column 'None'"),
        (1.0, "column '1.0'"),
    ]:
        status, answer = call(server, "/api/move", {"session": session, "column": column})
        assert status == 400 and complaint in answer["error"], answer
    while True:  # fill the first column: the agent may help
        status, state = call(server, "/api/move", {"session": session, "column": 0, "ply": len(state["moves"])})
        if status == 400:
            assert state["error"] == "column 1 is full: pick another"
            break
        assert status == 200
    status, answer = call(server, "/api/move", {"session": session, "column": 1, "ply": 99})
    assert status == 409
    status, state = call(server, "/api/undo", {"session": session})
    assert status == 200 and state["moves"].count(0) < 2


@pytest.mark.games
def test_a_game_played_taken_back_and_downloaded(server: Server) -> None:
    state = new_game(server, opponent="kaggle:negamax", first="opponent")
    assert state["names"] == ["kaggle:negamax", "human"] and len(state["moves"]) == 1 and state["to_move"] == 1
    assert not state["can_take_back"]
    assert (
        call(server, "/api/undo", {"session": state["session"]})[1]["error"]
        == "nothing to take back: you have not moved yet"
    )
    status, after = call(server, "/api/move", {"session": state["session"], "column": 3, "ply": 1})
    assert status == 200 and after["moves"][:2] == [state["moves"][0], 3] and len(after["moves"]) == 3
    assert after["added"] == after["moves"][1:]
    board = board_of(Position.from_moves("".join(str(c + 1) for c in after["moves"])))
    assert after["board"] == board
    with urllib.request.urlopen(f"{server.url}api/replay?session={state['session']}&format=json", timeout=60) as answer:
        assert "attachment" in answer.headers["Content-Disposition"]
        episode = json.loads(answer.read())
    assert list(game_from_episode(episode).moves) == after["moves"]
    with urllib.request.urlopen(f"{server.url}api/replay?session={state['session']}&format=html", timeout=60) as answer:
        assert "kaggle:negamax" in answer.read().decode()
    status, back = call(server, "/api/undo", {"session": state["session"]})
    assert status == 200 and back["moves"] == state["moves"] and back["to_move"] == 1


@pytest.mark.games
def test_a_shared_position_and_two_people(server: Server) -> None:
    state = new_game(server, opponent="human", position="4453")
    assert state["moves"] == [3, 3, 4, 2] and state["people"] == [0, 1] and state["position"] == "4453"
    status, after = call(server, "/api/move", {"session": state["session"], "column": 5})
    assert status == 200 and after["moves"] == [3, 3, 4, 2, 5] and after["to_move"] == 1
    status, back = call(server, "/api/undo", {"session": state["session"]})
    assert back["moves"] == [3, 3, 4, 2]
    status, answer = call(
        server, "/api/new", {"opponent": "human", "rows": 6, "columns": 7, "inarow": 4, "position": "4444444"}
    )
    assert status == 400 and "full column 4" in answer["error"]


@pytest.mark.games
def test_a_finished_game_refuses_moves_and_analysis(server: Server) -> None:
    state = new_game(server, opponent="human", rows=2, columns=3, inarow=2, position="12")
    status, over = call(server, "/api/move", {"session": state["session"], "column": 0})
    assert over["over"] and over["winner"] == 0 and over["result"] == "Player 1 wins after 3 moves."
    status, answer = call(server, "/api/move", {"session": state["session"], "column": 2})
    assert status == 400 and answer["error"].startswith("the game is over")
    status, answer = call(server, "/api/analysis", {"session": state["session"]})
    assert status == 400 and "game is over" in answer["error"]


@pytest.mark.games
def test_analysis_gives_each_columns_exact_value(server: Server) -> None:
    digits = "5554224333234511764415115"  # positions/Test_L2_R1: column 5 is full
    state = new_game(server, opponent="human", position=digits)
    status, answer = call(server, "/api/analysis", {"session": state["session"]})
    assert status == 200
    exact = analyze(Position.from_moves(digits))
    assert exact is not None
    values = answer["values"]
    assert [value["score"] if value else None for value in values] == [exact.get(c) for c in range(7)]
    assert values[4] is None
    for value in filter(None, values):
        word = "win in" if value["score"] > 0 else "loss in" if value["score"] < 0 else "draw"
        assert value["text"].startswith(word)


@pytest.mark.games
def test_several_tabs_play_at_once_and_old_games_are_dropped(server: Server) -> None:
    states = [new_game(server, opponent=name, rows=5, columns=6, inarow=4) for name in ("negamax", "random")]

    def play(state: dict[str, Any], columns: list[int]) -> list[int]:
        for column in columns:
            status, state = call(server, "/api/move", {"session": state["session"], "column": column})
            assert status == 200, state
        return state["moves"]

    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(play, states, [[0, 1, 2], [5, 4, 3]])
    assert first[0::2] == [0, 1, 2] and second[0::2] == [5, 4, 3]
    sessions = server.app.sessions
    limit, sessions.limit = sessions.limit, 2
    try:
        newest = [new_game(server, opponent="human", rows=4, columns=4, inarow=3) for _ in range(2)]
        status, answer = call(server, "/api/move", {"session": states[0]["session"], "column": 3})
        assert status == 404 and "no longer on the server" in answer["error"]
        assert call(server, "/api/move", {"session": newest[0]["session"], "column": 3})[0] == 200
    finally:
        sessions.limit = limit


@pytest.mark.games
def test_an_uploaded_episode_is_analysed_with_the_lost_win_flagged(server: Server) -> None:
    env = make_environment(BoardConfig(4, 5, 3), ["a", "b"])
    for ply, column in enumerate([0, 1, 0, 1, 4, 1]):  # X could win in column 1 at ply 4, plays 5: O wins
        env.step([column, None] if ply % 2 == 0 else [None, column])
    status, answer = call(server, "/api/upload", raw=json.dumps(env.toJSON()).encode())
    assert status == 200
    assert answer["moves"] == "121252"
    assert 4 in answer["flagged"]
    ply = answer["plies"][4]
    assert ply["flagged"] and ply["before"] == "win in 1" and ply["after"] == "loss in 1" and ply["best"] == [1]
    assert "<html" in answer["html"] and 'href="#ply-4"' in answer["html"]


def _naive(position: Position, memo: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """The mover's result (1, 0, -1) under perfect play, and the plies to the end counting the mover's next one:
    the winner hurries, the loser delays. A deliberately plain search, for a tiny board."""
    key = position.key()
    if key not in memo:
        if any(position.is_winning_move(column) for column in position.legal_columns()):
            memo[key] = (1, 1)
        elif position.is_full():
            memo[key] = (0, 0)
        else:
            outcomes = [_naive(position.play(column), memo) for column in position.legal_columns()]
            memo[key] = max(
                ((-result, plies + 1) for result, plies in outcomes),
                key=lambda answer: (answer[0], -answer[1] if answer[0] > 0 else answer[1]),
            )
    return memo[key]


def _words(position: Position, column: int, memo: dict[int, tuple[int, int]]) -> str:
    if position.is_winning_move(column):
        return "win in 1"
    child = position.play(column)
    if child.is_full():
        return "draw"
    result, plies = _naive(child, memo)
    plies += 1  # this move too
    return "draw" if result == 0 else f"loss in {plies // 2}" if result > 0 else f"win in {(plies + 1) // 2}"


def test_the_words_for_a_value_count_the_moves_to_the_end() -> None:
    analyst = ColumnAnalyst(SolvedCache(None, None), native=False)
    memo: dict[int, tuple[int, int]] = {}
    try:
        for digits in ("", "2", "23", "2233", "1441", "21122"):
            position = Position.from_moves(digits, 3, 4, 3)
            values = analyst.values(position.geometry, [int(d) - 1 for d in digits], 5.0)
            shown = [describe(value, position.geometry, position.moves) for value in values]
            expected = [_words(position, column, memo) if position.can_play(column) else "full" for column in range(4)]
            assert shown == expected, digits
    finally:
        analyst.close()


def events_of(server: Server, path: str, body: bytes) -> list[tuple[str, Any]]:
    """The server-sent events of a streamed answer, in order: (event name, decoded data)."""
    request = urllib.request.Request(
        server.url + path.lstrip("/"), data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=300) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        text = response.read().decode()
    found = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        found.append((fields["event"], json.loads(fields["data"])))
    return found


@pytest.mark.games
def test_an_upload_streams_each_ply_as_it_is_settled_then_the_whole_analysis(server: Server) -> None:
    env = make_environment(BoardConfig(4, 5, 3), ["first", "second"])
    for ply, column in enumerate([0, 1, 0, 1, 4, 1]):  # X could win in column 1 at ply 4, plays 5: O wins
        env.step([column, None] if ply % 2 == 0 else [None, column])
    events = events_of(server, "/api/upload/stream?seconds=1", json.dumps(env.toJSON()).encode())
    kinds = [kind for kind, _ in events]
    assert kinds == ["start"] + ["ply"] * 6 + ["done"]
    assert events[0][1] == {"plies": 6, "seconds": 1.0}
    rows = [data for kind, data in events if kind == "ply"]
    assert [row["ply"] for row in rows] == list(range(6))  # in play order, as they were settled
    done = events[-1][1]
    assert done["plies"] == rows and done["seconds"] == 1.0 and 4 in done["flagged"]
    assert rows[4]["flagged"] and rows[4]["best"] == [1] and rows[4]["line"]  # the line that punishes it
    line = rows[4]["line"]  # ply 4 is X's: the line starts with O's reply
    assert rows[4]["line_text"] == ", ".join(f"{'OX'[step % 2]} {column}" for step, column in enumerate(line))
    status, answer = call(server, "/api/upload/stream?seconds=7", raw=json.dumps(env.toJSON()).encode())
    assert status == 400 and answer["error"].startswith("seconds 7: choose one of")
    status, answer = call(server, "/api/upload/stream", raw=b'{"configuration": {"rows": 6}}')
    assert status == 400 and answer["error"].startswith("not a ConnectX episode")
    still_serving(server)


def test_the_column_values_stream_in_an_estimate_first_then_what_the_proofs_show(server: Server) -> None:
    state = new_game(server, opponent="human", rows=7, columns=8, inarow=4, position="4455")
    body = json.dumps({"session": state["session"], "seconds": 1}).encode()
    events = events_of(server, "/api/analysis/stream", body)
    assert events[-1][0] == "done" and all(kind == "column" for kind, _ in events[:-1])
    done = events[-1][1]
    assert done["seconds"] == 1.0 and len(done["values"]) == 8
    seen: dict[int, list[dict[str, Any]]] = {}
    for _, data in events[:-1]:
        seen.setdefault(data["column"], []).append(data["value"])
    assert sorted(seen) == list(range(8))
    for column, values in seen.items():
        assert values[-1] == done["values"][column]  # the last word on each column is the answer's
        first = values[0]
        assert first["outcome"] is not None or first["estimate"] is not None  # never a bare "not proven"
    events = events_of(server, "/api/analysis/stream", json.dumps({"session": state["session"], "seconds": 7}).encode())
    assert events == [("error", {"error": "seconds 7: choose one of 1, 2, 3, 10, 30"})]  # the stream says what is wrong
