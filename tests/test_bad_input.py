"""Every bad input of every command: one line on stderr saying what to do, exit code 2, and nothing written.

Each case runs ``connectx`` in-process from a scratch directory holding the files the cases point
at (an agent file that is not UTF-8, a run directory, a regular file standing where a folder must
be created, ...) and checks that no file there was created, changed or removed, so no progress
bar, run.json or half-written output slipped out before the check. Tests run as root, which
chmod cannot stop, so an unwritable place is a path under a regular file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.main import main
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.match import MatchPlan

GOOD_AGENT = "def agent(observation, configuration):\n    return 0\n"
RECORD = GameRecord(0, ("random", "kaggle:random"), BoardConfig(), 1, (), (3, 3), None, ("DONE", "DONE"), "draw")


def scratch(root: Path) -> None:
    """The files the cases name, under ``root``."""
    (root / "good.py").write_text(GOOD_AGENT)
    (root / "latin.py").write_bytes(b"# caf\xe9\n" + GOOD_AGENT.encode())
    (root / "broken.py").write_text("def agent(observation, configuration)\n    return 0\n")
    (root / "file.txt").write_text("a regular file\n")
    (root / "folder").mkdir()
    (root / "empty").mkdir()
    run = root / "run"
    run.mkdir()
    (run / "run.json").write_text(json.dumps({"kind": "match", "first": "negamax", "second": "random"}))
    (run / "games.jsonl").write_text("".join(json.dumps({**RECORD.to_json(), "index": i}) + "\n" for i in (0, 1)))
    (run / "replays").mkdir()
    (run / "replays" / "game-00001.json").write_text("{}")
    corrupt = root / "corrupt"
    corrupt.mkdir()
    # The plan `match random kaggle:random` makes, so only its games are wrong.
    plan = MatchPlan(AgentSpec.parse("random"), AgentSpec.parse("kaggle:random"), 100)
    (corrupt / "run.json").write_text(json.dumps(plan.to_json()))
    (corrupt / "games.jsonl").write_bytes(b"\xff\xfe not a record\n")
    stray = root / "stray"
    stray.mkdir()
    (stray / "games.jsonl").write_text(json.dumps(RECORD.to_json()) + "\n")
    (root / "list.json").write_text("[1, 2, 3]\n")
    (root / "full.json").write_text(
        json.dumps(
            {
                "configuration": {"rows": 6, "columns": 7, "inarow": 4},
                "steps": [[{"status": "ACTIVE"}, {"status": "INACTIVE"}]],
            }
        )
    )
    (root / "impossible.json").write_text(
        json.dumps(
            {
                "configuration": {"rows": 3, "columns": 3, "inarow": 4},
                "steps": [[{"status": "ACTIVE"}, {"status": "INACTIVE"}]],
            }
        )
    )
    badplan = root / "badplan"
    badplan.mkdir()
    (badplan / "run.json").write_bytes(b"\xff{")


UNDER_FILE = "file.txt/sub"
"""A place nothing can be created in, even by root: its parent is a regular file."""

CASES: list[tuple[str, list[str], str]] = [
    # play
    ("play", ["play", "nope", "random"], "registered agents: random, negamax"),
    ("play", ["play", "kaggle:alphazero", "random"], "kaggle's agents: kaggle:random, kaggle:negamax"),
    ("play", ["play", "negamax:depth=x", "random"], "depth=x is not a whole number"),
    ("play", ["play", "negamax:deep=3", "random"], "its parameters: depth=<int>, seed=<int>"),
    ("play", ["play", "negamax:depth=0", "random"], "expected 1 or more"),
    ("play", ["play", "missing/agent.py", "random"], "does not exist"),
    ("play", ["play", "minimax:weights=1/3", "random"], "weights=1/3: expected 4 positive integers separated by '/'"),
    ("play", ["play", "minimax:weights=1/3/9/81", "random", "--inarow", "3"], "expected 3 positive integers"),
    ("play", ["play", "latin.py", "random"], "is not UTF-8 text"),
    ("play", ["play", "broken.py", "random"], "is not valid Python (line 1"),
    ("play", ["play", "random"], "the following arguments are required: B"),
    ("play", ["play", "random", "random", "--rows", "0"], "--rows: 0 is too small; give 1 or more"),
    ("play", ["play", "random", "random", "--columns", "x"], "--columns: 'x' is not a whole number"),
    ("play", ["play", "random", "random", "--act-timeout", "0"], "--act-timeout: 0 is not a positive number"),
    ("play", ["play", "random", "random", "--html", f"{UNDER_FILE}/game.html"], "nothing can be created under it"),
    ("play", ["play", "random", "random", "--json", "folder"], "--json folder is a directory"),
    ("play", ["play", "random", "random", "--seed", "one"], "--seed: invalid int value"),
    ("play", ["play", "random", "random", "--out", "run"], "already holds a run"),
    ("play", ["play", "random", "random", "--out", "file.txt"], "--out file.txt is a file"),
    ("play", ["play", "random", "random", "--out", UNDER_FILE], "nothing can be created under it"),
    ("play", ["play", "random", "random", "--move-limit", "0"], "--move-limit: 0 is not a positive"),
    # match
    ("match", ["match", "random", "kaggle:random", "-n", "0"], "-n/--games: 0 is too small; give 1 or more"),
    ("match", ["match", "random", "kaggle:random", "-n", "-5"], "-n/--games: -5 is too small"),
    ("match", ["match", "random", "kaggle:random", "--jobs", "0"], "--jobs: 0 is too small"),
    ("match", ["match", "random", "kaggle:random", "--openings", "-1"], "--openings: -1 is too small"),
    ("match", ["match", "random", "kaggle:random", "--openings", "42"], "a 7x6 board has 42 cells"),
    ("match", ["match", "random", "kaggle:random", "--grace", "-1"], "--grace: -1 is not zero or a positive"),
    ("match", ["match", "random", "kaggle:random", "--move-limit", "0"], "--move-limit: 0 is not a positive"),
    ("match", ["match", "random", "kaggle:random", "--sprt", "10", "0"], "elo0 = 10.0 must be below elo1 = 0.0"),
    ("match", ["match", "random", "kaggle:random", "--sprt", "0", "nan"], "is not a finite number"),
    ("match", ["match", "random", "kaggle:random", "--alpha", "0"], "--alpha: 0 is not between 0 and 1"),
    ("match", ["match", "random", "kaggle:random", "--beta", "1.5"], "--beta: 1.5 is not between 0 and 1"),
    (
        "match",
        ["match", "random", "kaggle:random", "--sprt", "0", "10", "--alpha", "0.6", "--beta", "0.5"],
        "sum below 1",
    ),
    ("match", ["match", "random", "kaggle:random", "--out", "run"], "already holds a run; pass --resume"),
    ("match", ["match", "random", "kaggle:random", "--out", "run", "--resume"], "holds a different run"),
    ("match", ["match", "random", "kaggle:random", "--out", "corrupt", "--resume"], "games.jsonl:1 is not a game"),
    ("match", ["match", "random", "kaggle:random", "--out", "badplan", "--resume"], "is not a run's plan"),
    ("match", ["match", "random", "kaggle:random", "--resume"], "--resume needs --out DIR"),
    ("match", ["match", "random", "kaggle:random", "--out", "stray"], "holds games.jsonl but no run.json"),
    # --resume with an --out that holds no run (a typo, an empty folder): nothing to continue, nothing started
    ("match", ["match", "random", "kaggle:random", "--out", "rnu", "--resume"], "--resume: rnu holds no run to"),
    ("match", ["match", "random", "kaggle:random", "--out", "empty", "--resume"], "empty holds no run to continue"),
    ("match", ["match", "random", "kaggle:random", "--out", "stray", "--resume"], "stray holds no run to continue"),
    ("tournament", ["tournament", "random", "negamax", "--out", "rnu", "--resume"], "rnu holds no run to continue"),
    ("ladder", ["ladder", "random", "--out", "empty", "--resume"], "--resume: empty holds no run to continue"),
    ("report", ["report", "--quick", "--out", "rnu", "--resume"], "--resume: rnu/quick holds no report's games"),
    ("report", ["report", "--quick", "--out", "empty", "--resume"], "empty/quick holds no report's games"),
    ("match", ["match", "random", "kaggle:random", "--out", "file.txt"], "--out file.txt is a file"),
    ("match", ["match", "random", "kaggle:random", "--out", UNDER_FILE], "nothing can be created under it"),
    ("match", ["match", "minimax:weights=1/3", "kaggle:random"], "expected 4 positive integers"),
    ("match", ["match", "random", "nope.py"], "agent file 'nope.py' does not exist"),
    ("match", ["match", "random", "kaggle:random", "--rows", "-2"], "--rows: -2 is too small"),
    # tournament
    ("tournament", ["tournament", "random"], "a tournament needs at least two agents"),
    ("tournament", ["tournament", "random", "random:"], "each agent may appear once"),
    ("tournament", ["tournament", "random", "negamax", "--anchor", "mcts"], "--anchor 'mcts' is not in the"),
    ("tournament", ["tournament", "random", "negamax", "--anchor", "nope"], "unknown agent 'nope'"),
    ("tournament", ["tournament", "random", "negamax", "--gauntlet", "-n", "0"], "-n/--games: 0 is too small"),
    ("tournament", ["tournament", "random", "negamax", "broken.py"], "is not valid Python"),
    ("tournament", ["tournament", "random", "negamax", "--jobs", "0"], "--jobs: 0 is too small"),
    ("tournament", ["tournament", "random", "negamax", "--out", "run"], "already holds a run"),
    (
        "tournament",
        ["tournament", "random", "negamax", "--openings", "12", *("--rows", "3", "--columns", "4")],
        "a 4x3 board has 12 cells",
    ),
    # ladder
    ("ladder", ["ladder", "random", "--pool", "none"], "a ladder needs at least two agents"),
    ("ladder", ["ladder", "random", "random:", "--pool", "fast"], "each agent may appear once"),
    ("ladder", ["ladder", "random", "--pool", "nope"], "--pool: invalid choice: 'nope'"),
    ("ladder", ["ladder", "random", "--episodes", "0"], "--episodes: 0 is too small"),
    ("ladder", ["ladder", "nope"], "registered agents"),
    ("ladder", ["ladder", "broken.py"], "is not valid Python"),
    ("ladder", ["ladder", "fallible:epsilon=2"], "expected a probability from 0 to 1"),
    ("ladder", ["ladder", "random", "--jobs", "0"], "--jobs: 0 is too small"),
    ("ladder", ["ladder", "random", "--out", "run"], "already holds a run; pass --resume"),
    ("ladder", ["ladder", "random", "--out", "run", "--resume"], "holds a different run"),
    ("ladder", ["ladder", "random", "--resume"], "--resume needs --out DIR"),
    ("ladder", ["ladder", "random", "--out", UNDER_FILE], "nothing can be created under it"),
    ("ladder", ["ladder", "random", "--cluster", "local:0"], "local:N"),
    ("ladder", ["ladder", "human"], "plays only in connectx play"),
    # replay
    ("replay", ["replay", "empty", "--game", "0"], "empty holds no games.jsonl"),
    ("replay", ["replay", "missing", "--game", "0"], "missing holds no games.jsonl"),
    ("replay", ["replay", "run", "--game", "5"], "no game 5 in run/games.jsonl (games 0..1)"),
    ("replay", ["replay", "run", "--game", "-1"], "--game: -1 is too small"),
    ("replay", ["replay", "run"], "the following arguments are required: --game"),
    ("replay", ["replay", "corrupt", "--game", "0"], "games.jsonl:1 is not a game record"),
    ("replay", ["replay", "run", "--game", "1"], "game-00001.json is not a replay"),
    ("replay", ["replay", "run", "--game", "0", "-o", f"{UNDER_FILE}/game.html"], "nothing can be created"),
    ("replay", ["replay", "run", "--game", "0", "-o", "folder"], "-o folder is a directory"),
    # analyze
    ("analyze", ["analyze"], "no game given: name a Kaggle episode JSON"),
    ("analyze", ["analyze", "missing.json"], "missing.json does not exist"),
    ("analyze", ["analyze", "file.txt"], "file.txt is not JSON"),
    ("analyze", ["analyze", "latin.py"], "latin.py is not JSON"),
    ("analyze", ["analyze", "list.json"], "a Kaggle episode is a JSON object, not list"),
    ("analyze", ["analyze", "full.json"], "full.json holds a game without moves: nothing to analyse"),
    ("analyze", ["analyze", "list.json", "--game", "0"], "--game picks a game of a run directory"),
    ("analyze", ["analyze", "run"], "run holds a run's games; say which one with --game N"),
    ("analyze", ["analyze", "run", "--game", "5"], "no game 5 in run/games.jsonl (games 0..1)"),
    ("analyze", ["analyze", "run", "--game", "-1"], "--game: -1 is too small"),
    ("analyze", ["analyze", "empty", "--game", "0"], "empty holds no games.jsonl"),
    ("analyze", ["analyze", "corrupt", "--game", "0"], "games.jsonl:1 is not a game record"),
    ("analyze", ["analyze", "run", "--game", "0", "--rows", "5"], "--rows, --columns and --inarow go with --moves"),
    ("analyze", ["analyze", "run", "--game", "0", "--from-ply", "2"], "--from-ply 2: the game has plies 0 to 1"),
    ("analyze", ["analyze", "file.txt", "--moves", "4453"], "both file.txt and --moves name a game"),
    ("analyze", ["analyze", "--moves", "44a3"], "is 'a': expected a column digit 1-7"),
    ("analyze", ["analyze", "--moves", "1111111"], "plays into full column 1"),
    ("analyze", ["analyze", "--moves", "4455667711"], "move 8 of '4455667711' comes after the game was won"),
    ("analyze", ["analyze", "--moves", ""], "--moves is empty: nothing to analyse"),
    ("analyze", ["analyze", "--moves", "4453", "--game", "0"], "--game picks a game of a run directory"),
    ("analyze", ["analyze", "--moves", "1", "--columns", "10"], "takes boards of up to 9 columns"),
    ("analyze", ["analyze", "--moves", "1", "--inarow", "0"], "--inarow: 0 is too small"),
    ("analyze", ["analyze", "--moves", "4453", "--time-limit", "-1"], "--time-limit: -1 is not zero or a positive"),
    ("analyze", ["analyze", "--moves", "4453", "--html", f"{UNDER_FILE}/game.html"], "nothing can be created"),
    ("analyze", ["analyze", "--moves", "4453", "--html", "folder"], "--html folder is a directory"),
    ("analyze", ["analyze", "--moves", "4453", "--cache", UNDER_FILE], "nothing can be created under it"),
    ("analyze", ["analyze", "--moves", "4453", "--cache", "folder", "--no-cache"], "not allowed with argument"),
    # report
    ("report", ["report", "--quick", "--only", "fig99"], "unknown experiment fig99"),
    ("report", ["report", "--quick", "--jobs", "0"], "--jobs: 0 is too small"),
    ("report", ["report", "--quick", "--out", "file.txt"], "nothing can be created under it"),
    # build
    ("build", ["build", "kaggle:random"], "kaggle:random is not a registered agent"),
    ("build", ["build", "good.py"], "good.py is not a registered agent"),
    ("build", ["build", "nope"], "registered agents"),
    ("build", ["build", "minimax:weights=1/3"], "weights=1/3: expected 4 positive integers separated by '/'"),
    ("build", ["build", "mcts:simulations=0"], "expected 1 or more"),
    ("build", ["build", "negamax", "-o", "folder"], "-o folder is a directory"),
    ("build", ["build", "negamax", "-o", f"{UNDER_FILE}/submission.py"], "nothing can be created under it"),
    # commands another helper owns, as they behave today
    ("validate", ["validate", "missing.py"], "does not exist"),
    ("validate", ["validate", "good.py", "--act-timeout", "abc"], "--act-timeout"),
    ("match", ["match", "random", "random", "--cluster", "nowhere"], "local:N"),
    ("tournament", ["tournament", "random", "negamax", "--cluster", "local:0"], "local:N"),
    ("report", ["report", "--quick", "--cluster", "udp://host:1"], "local:N"),
    ("serve", ["serve", "--port", "-1"], "--port"),
    ("serve", ["serve", "--port", "99999"], "99999 is no port: give 1 to 65535, or 0 for a free one"),
    # a place the system refuses, whatever access() says to root: checked before any game is played
    ("play", ["play", "random", "random", "--json", "/proc/connectx/game.json"], "/proc is not writable"),
    ("play", ["play", "random", "random", "--html", "/proc/game.html"], "is not writable"),
    ("serve", ["serve", "--analysis-time", "0"], "--analysis-time"),
    ("play", ["play", "human", "nosuchagent"], "nosuchagent"),
    ("solve", ["solve", "--time-limit", "-1"], "--time-limit -1: expected seconds per position, or 0 for no limit"),
    ("solve", ["solve", "--rows", "x"], "--rows"),
    # boards where nobody can ever win (no line of inarow fits), and boards out of the limits, in every command
    # that takes a board (build and validate take none: they check against Kaggle's 7x6/4)
    (
        "play",
        ["play", "solver", "random", "--inarow", "99"],
        "--inarow 99: choose a whole number from 2 to 7, the longer side of the board (no line of 99 fits on 7x6, "
        "so nobody could ever win)",
    ),
    (
        "play",
        ["play", "random", "random", "--rows", "3", "--columns", "3", "--inarow", "4"],
        "no line of 4 fits on 3x3",
    ),
    ("play", ["play", "human", "solver", "--columns", "2", "--rows", "2", "--inarow", "3"], "no line of 3 fits on 2x2"),
    ("play", ["play", "random", "random", "--inarow", "1"], "--inarow 1: choose a whole number from 2 to 7"),
    ("play", ["play", "random", "random", "--rows", "13"], "--rows 13: choose a whole number from 1 to 12"),
    (
        "match",
        ["match", "random", "kaggle:random", "--rows", "5", "--columns", "4", "--inarow", "6"],
        "no line of 6 fits on 4x5",
    ),
    (
        "match",
        ["match", "random", "kaggle:random", "--rows", "1", "--columns", "1"],
        "--inarow 4: a 1x1 board has room for no line of 2, so nobody could ever win",
    ),
    ("tournament", ["tournament", "random", "negamax", "--inarow", "8"], "no line of 8 fits on 7x6"),
    ("tournament", ["tournament", "random", "negamax", "--columns", "40"], "--columns 40: choose a whole number"),
    ("solve", ["solve", "--rows", "3", "--columns", "3", "--inarow", "4", "1"], "no line of 4 fits on 3x3"),
    ("solve", ["solve", "--rows", "0", "4"], "--rows: 0 is too small; give 1 or more"),
    (
        "analyze",
        ["analyze", "--moves", "1", "--rows", "2", "--columns", "3", "--inarow", "5"],
        "--inarow 5: choose a whole number from 2 to 3",
    ),
    ("analyze", ["analyze", "impossible.json"], "has inarow = 4: choose a whole number from 2 to 3"),
    # a person plays only in play
    ("match", ["match", "human", "solver"], "human (a person at the keyboard) plays only in connectx play"),
    ("tournament", ["tournament", "random", "human"], "plays only in connectx play, e.g. connectx play human solver"),
    # the program itself
    ("", ["--bogus"], "unrecognized arguments: --bogus"),
    ("agents", ["agents", "--verbose"], "unrecognized arguments: --verbose"),
    ("", ["nosuch"], "invalid choice: 'nosuch'"),
]


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (None for a directory)."""
    return {str(path.relative_to(root)): None if path.is_dir() else path.read_bytes() for path in root.rglob("*")}


@pytest.mark.parametrize("command, argv, message", CASES, ids=[" ".join(case[1]) for case in CASES])
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    command: str,
    argv: list[str],
    message: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    scratch(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = snapshot(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"connectx {command}: " if command else "connectx: "), lines[0]
    assert message in lines[0]
    assert snapshot(tmp_path) == before


def test_the_table_covers_every_command() -> None:
    from connectx.cli.main import COMMANDS

    assert set(COMMANDS) <= {case[0] for case in CASES}
    assert len(CASES) >= 30


@pytest.mark.games
def test_a_refused_command_leaves_the_directory_free_for_the_corrected_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = [
        "match",
        "random",
        "kaggle:random",
        "-n",
        "2",
        "--out",
        str(tmp_path / "run"),
        "--rows",
        "4",
        "--columns",
        "5",
        "--inarow",
        "3",
    ]
    assert main([*command, "--jobs", "0"]) == 2
    assert main([*command, "--jobs", "1"]) == 0
    assert "| total | 2 |" in capsys.readouterr().out


@pytest.mark.parametrize(
    "board, message",
    [
        (
            {"rows": 3, "columns": 3, "inarow": 4},
            "in a row 4: choose a whole number from 2 to 3, the longer side of the "
            "board (no line of 4 fits on 3x3, so nobody could ever win)",
        ),
        ({"rows": 6, "columns": 7, "inarow": 99}, "no line of 99 fits on 7x6"),
        ({"rows": 13, "columns": 7, "inarow": 4}, "rows 13: choose a whole number from 1 to 12"),
    ],
)
def test_the_page_refuses_the_boards_the_commands_refuse(board: dict[str, int], message: str) -> None:
    from connectx.play.api import App, RequestError

    app = App()
    with pytest.raises(RequestError) as caught:
        app.new_game({"opponent": "random", **board})
    assert message in str(caught.value) and caught.value.status == 400


def test_a_missing_dask_is_exit_2_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed: importing it raises ImportError
    assert main(["match", "random", "random", "-n", "2", "--cluster", "local:1", "--out", "m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'connectx[cluster]'" in err
    assert not (tmp_path / "m").exists()


def test_ctrl_c_anywhere_is_one_line_and_exit_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(args: object) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr("connectx.cli.build.run", interrupted)
    assert main(["build", "random", "-o", "x.py"]) == 130
    assert capsys.readouterr().err == "\nconnectx build: interrupted\n"


def test_ctrl_c_while_a_command_loads_is_the_same_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def loading(only: str | None = None) -> object:
        raise KeyboardInterrupt  # as if pressed while the command's libraries import

    monkeypatch.setattr("connectx.cli.main.build_parser", loading)
    assert main(["match", "random", "random"]) == 130
    assert capsys.readouterr().err == "\nconnectx match: interrupted\n"
