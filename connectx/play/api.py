"""What the page's JSON API does, apart from HTTP (``http_app`` serves it): games, moves, analyses as dicts.

The page (``static/``: one HTML, one script, one style sheet, nothing fetched from elsewhere)
talks to a small JSON API:

==============================  ======================================================================
``GET  /api/options``           the opponents (the registry's agents, kaggle's built-ins, a person),
                                the board limits and the analysis times offered
``POST /api/new``               ``{opponent, rows, columns, inarow, first, position}``: a new game
``POST /api/move``              ``{session, column, ply}``: the person's move (0-based) and the reply
``POST /api/undo``              ``{session}``: take back the person's last move and the reply to it
``POST /api/analysis``          ``{session, seconds}``: each column's value in the current position
``POST /api/analysis/stream``   the same as server-sent events, each column as it is settled
``GET  /api/replay``            ``?session=ID&format=json|html``: the Kaggle replay, as a download
``POST /api/upload``            ``?seconds=S`` and a Kaggle episode JSON: its analysis, ply by ply, the
                                moves that changed the outcome flagged with the line that punishes them
``POST /api/upload/stream``     the same as server-sent events: each ply's row, in order, once the whole
                                game is analysed and its plies' values agree, then the answer
==============================  ======================================================================

Every answer is JSON but the page, its files and the replays. Input is checked before anything
happens: an opponent that is not on the list (an agent file, a parameter, a path), a board out
of the limits, an illegal move, a body over ``MAX_BODY``, an unknown session: a 4xx answer with
``{"error": "..."}`` that the page shows, and the server carries on. No code ever comes from
the page: opponents are names looked up in the registry. Each tab plays its own game under a
session id; the server keeps the ``MAX_SESSIONS`` most recently used ones.
"""

from __future__ import annotations

import json
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

from connectx.agents.agent_spec import HUMAN, KAGGLE_BUILTINS, KAGGLE_PREFIX, AgentSpec
from connectx.agents.board_spec import MAX_SIDE, MIN_SIDE, BoardSpec, BoardSpecError
from connectx.agents.core.move_string import MAX_DIGIT_COLUMNS, digits_fit, digits_of
from connectx.agents.core.position import Position
from connectx.agents.registry import REGISTRY, AgentSpecError
from connectx.analysis.game_analysis import PlyAnalysis, best_columns, open_columns
from connectx.analysis.games import Game, game_from_digits, game_from_episode
from connectx.analysis.html_page import render_html, value_lines
from connectx.analysis.text_report import line_text
from connectx.evaluation.engine import BoardConfig
from connectx.play.column_values import ColumnAnalyst
from connectx.play.session import GameSession, MoveError
from connectx.solver.score_range import ScoreRange, describe

MAX_BODY = 2 * 1024 * 1024
"""The largest request body read (an uploaded episode): a full 7x6 Kaggle episode is about 100 kB."""
MAX_SESSIONS = 32
"""Games kept at once; starting one more drops the least recently used."""
SIDE_LIMITS = (MIN_SIDE, MAX_SIDE)
"""Smallest and largest number of rows or columns offered: those of every board (``connectx.agents.board_spec``)."""
ANALYSIS_SECONDS = 3.0
"""Default time for the analysis of one position (all its columns), and per ply of an uploaded game."""
TIME_CHOICES = (1.0, 3.0, 10.0, 30.0)
"""The analysis times per position the page offers ("think longer"), besides the server's own default."""
ACT_TIMEOUT = 2.0
"""Kaggle's actTimeout for the agents' moves."""


class RequestError(ValueError):
    """A request the server refuses; ``status`` is the HTTP status and the message the page shows."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


def opponents() -> list[dict[str, str]]:
    """What the page offers: every registry agent, kaggle's built-ins, and a person at the same screen."""
    offered = [{"name": name, "summary": entry.summary} for name, entry in REGISTRY.items()]
    offered += [
        {"name": KAGGLE_PREFIX + name, "summary": f"kaggle-environments' built-in {name} agent"}
        for name in KAGGLE_BUILTINS
    ]
    offered.append({"name": HUMAN, "summary": "two people taking turns at this page"})
    return offered


def parse_opponent(name: Any) -> AgentSpec | None:
    """The opponent named by the page: one of ``opponents()`` exactly (no parameters, no files), None for a person."""
    allowed = [entry["name"] for entry in opponents()]
    if not isinstance(name, str) or name not in allowed:
        raise RequestError(f"unknown opponent {str(name)[:60]!r}: choose one of {', '.join(allowed)}")
    return None if name == HUMAN else AgentSpec.parse(name)


def parse_board(data: dict[str, Any]) -> BoardConfig:
    """The board a request asks for (its rows, columns and inarow), checked as every board is."""
    try:
        board = BoardSpec.from_kaggle(data)
    except BoardSpecError as error:
        raise RequestError(str(error)) from None
    return BoardConfig.of(board, ACT_TIMEOUT)


def parse_position(text: Any, config: BoardConfig) -> tuple[int, ...]:
    """The moves of a shared position: 1-based column digits (``4453``), as in the page's address."""
    if text in (None, ""):
        return ()
    if not isinstance(text, str):
        raise RequestError("position: expected column digits such as 4453")
    if not digits_fit(config.columns):
        raise RequestError(
            f"a position is written in column digits, so it fits boards of up to {MAX_DIGIT_COLUMNS} columns"
        )
    try:
        return game_from_digits(text, BoardSpec(config.rows, config.columns, config.inarow)).moves
    except ValueError as error:
        raise RequestError(f"position {text[:50]!r}: {error}") from None


def value_json(value: ScoreRange | None, position: Position) -> dict[str, Any] | None:
    """A column's value for the page: the words, the short form above the board and the lines it is shown on
    there, the proven range, and its outcome once proven."""
    if value is None:
        return None
    shape, moves = position.geometry, position.moves
    short = describe(value, shape, moves, compact=True)
    return {
        "text": describe(value, shape, moves),
        "short": short,
        "lines": list(value_lines(short)),
        "lower": value.lower,
        "upper": value.upper,
        "exact": value.exact,
        "score": value.score,
        "outcome": value.outcome,
        "estimate": value.estimate,
        "depth": value.depth,
    }


@dataclass
class _Tab:
    """One tab's game, and the lock that makes its requests take turns."""

    session: GameSession
    lock: threading.Lock


class Sessions:
    """The games in play by session id, the least recently used dropped beyond ``limit``."""

    def __init__(self, limit: int = MAX_SESSIONS) -> None:
        self.limit = limit
        self._tabs: OrderedDict[str, _Tab] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: GameSession) -> str:
        key = secrets.token_urlsafe(12)
        with self._lock:
            self._tabs[key] = _Tab(session, threading.Lock())
            while len(self._tabs) > self.limit:
                self._tabs.popitem(last=False)
        return key

    def get(self, key: Any) -> tuple[str, _Tab]:
        """The session id and its tab; RequestError (404) for an id the server does not hold."""
        with self._lock:
            tab = self._tabs.get(key) if isinstance(key, str) else None
            if tab is None:
                raise RequestError(
                    "this game is no longer on the server (it restarted, or too many games were "
                    "started since): start a new game",
                    HTTPStatus.NOT_FOUND,
                )
            self._tabs.move_to_end(key)
            return key, tab

    def __len__(self) -> int:
        return len(self._tabs)


class App:
    """What the API does, apart from HTTP: the sessions, the analyst, the answers as JSON-ready dicts."""

    def __init__(
        self,
        analysis_seconds: float = ANALYSIS_SECONDS,
        analyst: ColumnAnalyst | None = None,
        max_sessions: int = MAX_SESSIONS,
    ) -> None:
        self.analysis_seconds = analysis_seconds
        self.analyst = analyst if analyst is not None else ColumnAnalyst()
        self.sessions = Sessions(max_sessions)

    def options(self) -> dict[str, Any]:
        return {
            "opponents": opponents(),
            "sides": list(SIDE_LIMITS),
            "analysis_seconds": self.analysis_seconds,
            "time_choices": sorted({*TIME_CHOICES, self.analysis_seconds}),
            "max_upload": MAX_BODY,
            "defaults": {"opponent": "solver", "rows": 6, "columns": 7, "inarow": 4},
        }

    def new_game(self, data: dict[str, Any]) -> dict[str, Any]:
        opponent = parse_opponent(data.get("opponent"))
        config = parse_board(data)
        first = data.get("first", "you")
        if first not in ("you", "opponent"):
            raise RequestError(f"first {str(first)[:20]!r}: choose you or opponent")
        opening = parse_position(data.get("position"), config)
        try:
            session = GameSession(opponent, 0 if first == "you" or opponent is None else 1, config, opening=opening)
        except AgentSpecError as error:
            raise RequestError(str(error)) from None
        except MoveError as error:
            raise RequestError(f"position: {error}") from None
        key = self.sessions.add(session)
        return state_json(key, session)

    def move(self, data: dict[str, Any]) -> dict[str, Any]:
        key, tab = self.sessions.get(data.get("session"))
        with tab.lock:
            session = tab.session
            ply = data.get("ply")
            if ply is not None and ply != len(session.moves):
                raise RequestError(
                    f"a move for ply {str(ply)[:10]}, but the game is at ply {len(session.moves)} "
                    "(another request moved): start a new game",
                    HTTPStatus.CONFLICT,
                )
            column = data.get("column")
            if type(column) is not int:
                raise RequestError(f"column {str(column)[:20]!r}: expected a column number (0-based)")
            try:
                added = session.play(column)
            except MoveError as error:
                raise RequestError(str(error)) from None
            return state_json(key, session, added)

    def take_back(self, data: dict[str, Any]) -> dict[str, Any]:
        key, tab = self.sessions.get(data.get("session"))
        with tab.lock:
            try:
                tab.session.take_back()
            except MoveError as error:
                raise RequestError(str(error)) from None
            return state_json(key, tab.session)

    def analysis(
        self, data: dict[str, Any], on_value: Callable[[dict[str, Any]], None] | None = None
    ) -> dict[str, Any]:
        """Each column's value in the session's position; ``on_value`` hears of each as it is settled or refined."""
        _, tab = self.sessions.get(data.get("session"))
        with tab.lock:
            session = tab.session
            if session.is_over:
                raise RequestError("the game is over: there is no move left to analyse")
            moves, position = session.moves, session.position
        seconds = self.seconds(data.get("seconds"))

        def shown(column: int, value: ScoreRange) -> None:
            if on_value is not None:
                on_value({"column": column, "value": value_json(value, position)})

        values = self.analyst.values(position.geometry, moves, seconds, shown)
        return {
            "ply": len(moves),
            "mover": "XO"[position.moves % 2],
            "seconds": seconds,
            "values": [value_json(value, position) for value in values],
            "best": list(best_columns(values)),
            "open": list(open_columns(values)),
        }

    def replay(self, query: dict[str, list[str]]) -> tuple[bytes, str, str]:
        """The replay download: its bytes, content type and file name."""
        _, tab = self.sessions.get(query.get("session", [""])[0])
        kind = query.get("format", ["json"])[0]
        if kind not in ("json", "html"):
            raise RequestError(f"format {kind[:20]!r}: choose json or html")
        with tab.lock:
            session = tab.session
            name = f"connectx-{'-'.join(session.names).replace(':', '_')}-{len(session.moves)}-moves.{kind}"
            if kind == "json":
                return json.dumps(session.replay_json()).encode(), "application/json", name
            return session.replay_html().encode(), "text/html; charset=utf-8", name

    def upload(
        self, episode: Any, seconds: Any = None, on_ply: Callable[[dict[str, Any]], None] | None = None
    ) -> dict[str, Any]:
        """The analysis of an uploaded Kaggle episode (a decoded ``env.toJSON()``), each ply within ``seconds``
        (the server's default when None). ``on_ply`` gets each ply's row in order, but only once every ply is
        analysed and the plies' values agree with each other (a flagged ply's once its punishing line is found):
        the rows come in a burst at the end, not one by one during the analysis."""
        return self.analyze_upload(self.uploaded_game(episode), seconds, on_ply)

    @staticmethod
    def uploaded_game(episode: Any) -> Game:
        """The game of an uploaded episode, checked; RequestError (400) saying what is wrong with it."""
        try:
            game = game_from_episode(episode)
        except ValueError as error:
            raise RequestError(f"not a ConnectX episode: {error}") from None
        if not game.moves:
            raise RequestError("the episode has no moves: nothing to analyse")
        return game

    def analyze_upload(
        self, game: Game, seconds: Any = None, on_ply: Callable[[dict[str, Any]], None] | None = None
    ) -> dict[str, Any]:
        """``upload`` for a checked game: its plies as the page's rows, the flagged ones, and the analysis page."""
        seconds = self.seconds(seconds)
        positions = list(game.positions())
        shape = positions[0].geometry

        def row(ply: PlyAnalysis) -> dict[str, Any]:
            return {
                "ply": ply.ply,
                "mover": "XO"[ply.ply % 2],
                "column": ply.column + 1,
                "before": describe(ply.before, shape, ply.ply),
                "after": describe(ply.after, shape, ply.ply),
                "best": [column + 1 for column in ply.best_columns],
                "open": [column + 1 for column in ply.open_columns],
                "line": [column + 1 for column in ply.line],
                "line_text": line_text(ply),
                "flagged": ply.changed_outcome,
            }

        shown = None if on_ply is None else lambda ply: on_ply(row(ply))
        analysis = self.analyst.analyze_game(game, seconds, shown)
        return {
            "moves": game.digits,
            **game.board.to_kaggle(),
            "seconds": seconds,
            "plies": [row(ply) for ply in analysis.plies],
            "flagged": [ply.ply for ply in analysis.flagged],
            "html": render_html(analysis),
        }

    def seconds(self, requested: Any) -> float:
        """The analysis time a request asks for (one of ``TIME_CHOICES``), or the server's default for None."""
        if requested is None:
            return self.analysis_seconds
        try:
            seconds = float(requested)
        except (TypeError, ValueError):
            seconds = math.nan
        if seconds not in TIME_CHOICES and seconds != self.analysis_seconds:
            choices = ", ".join(f"{choice:g}" for choice in sorted({*TIME_CHOICES, self.analysis_seconds}))
            raise RequestError(f"seconds {str(requested)[:20]}: choose one of {choices}")
        return seconds

    def close(self) -> None:
        self.analyst.close()


def state_json(key: str, session: GameSession, added: tuple[int, ...] = ()) -> dict[str, Any]:
    """What the page draws: the board, whose turn, the result, and what can be done next."""
    moves = session.moves
    config = session.config
    outcome = session.outcome
    return {
        "session": key,
        "opponent": session.opponent.text if session.opponent is not None else HUMAN,
        "names": list(session.names),
        "people": list(session.people_seats),
        **config.board.to_kaggle(),
        "board": session.board,
        "moves": list(moves),
        "position": digits_of(moves) if digits_fit(config.columns) else None,
        "added": list(added),
        "to_move": session.to_move,
        "over": session.is_over,
        "winner": outcome.winner if outcome is not None else None,
        "result": session.result_text(),
        "winning_line": session.winning_line if session.is_over else [],
        "can_take_back": any(ply % 2 in session.people_seats for ply in range(len(moves))),
    }
