"""Real games in kaggle-environments, isolated: every way an agent can fail costs one game, with its cause."""

from __future__ import annotations

import textwrap
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.evaluation import engine
from connectx.evaluation.engine import BoardConfig, OwnRandomStream, seat_seed
from connectx.evaluation.game import Watchdog, play_isolated
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import NO_STATS, GameRecord, GameSpec, move_stats
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor

FIRST_OPEN = "[c for c in range(config.columns) if obs.board[c] == 0][0]"

BAD_AGENTS = {
    "crashes": f"""
        def agent(obs, config):
            if sum(1 for cell in obs.board if cell) >= 2:
                raise RuntimeError("boom")
            return {FIRST_OPEN}
    """,
    "dies": """
        import os
        def agent(obs, config):
            os._exit(7)
    """,
    "exits": """
        import sys
        def agent(obs, config):
            sys.exit(4)
    """,
    "hangs": f"""
        import time
        def agent(obs, config):
            if sum(1 for cell in obs.board if cell) >= 2:
                while True:
                    time.sleep(0.1)
            return {FIRST_OPEN}
    """,
    "illegal": """
        def agent(obs, config):
            return config.columns + 3
    """,
    "full_column": """
        def agent(obs, config):
            return 0
    """,
    "numpy_int": f"""
        import numpy as np
        def agent(obs, config):
            return np.int64({FIRST_OPEN})
    """,
    "float": f"""
        def agent(obs, config):
            return float({FIRST_OPEN})
    """,
}


@pytest.fixture(scope="module")
def agent_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    directory = tmp_path_factory.mktemp("agents")
    paths = {}
    for name, source in BAD_AGENTS.items():
        path = directory / f"{name}.py"
        path.write_text(textwrap.dedent(source))
        paths[name] = str(path)
    return paths


def replay_moves(record: GameRecord) -> Position:
    position = Position.initial(record.config.rows, record.config.columns, record.config.inarow)
    for column in record.moves:
        assert position.can_play(column)
        position = position.play(column)
    return position


@pytest.mark.games
def test_a_real_game_is_recorded_consistently_with_kaggle() -> None:
    spec = GameSpec(0, ("negamax:depth=2", "kaggle:random"), BoardConfig(), seed=11, opening=(3, 3))
    record = play_isolated(spec)
    assert record.cause in ("line", "draw") and record.offender is None
    assert record.moves[:2] == (3, 3)
    final = replay_moves(record)
    if record.cause == "line":
        # The winner made the last move, so the side to move in the final position is the loser.
        assert final.is_won()
        assert record.winner == (len(record.moves) - 1) % 2
    else:
        assert final.is_draw() and record.winner is None
    # Each seat's agent was called once per move it made after the opening.
    agent_moves = len(record.moves) - 2
    assert len(record.durations[0]) == (agent_moves + 1) // 2
    assert len(record.durations[1]) == agent_moves // 2
    assert play_isolated(spec).moves == record.moves
    assert 0 < record.cpu_seconds < record.wall_seconds + 1


@pytest.mark.games
def test_the_same_seed_replays_the_same_game_and_another_seed_differs() -> None:
    spec = GameSpec(0, ("random", "kaggle:random"), BoardConfig(), seed=5)
    games = {play_game(GameSpec(0, spec.agents, spec.config, seed)).moves for seed in (5, 5, 6, 7)}
    assert play_game(spec).moves == play_game(spec).moves
    assert len(games) >= 2


def test_each_seat_gets_its_own_stable_seed_from_the_game_seed() -> None:
    # Recorded games are replayed from these: a change here changes what every record means.
    assert [seat_seed(5, 0), seat_seed(5, 1), seat_seed(0, 0)] == [292576286, 1323562955, 1225224341]
    assert all(seat_seed(game, 0) != seat_seed(game, 1) for game in range(1000))
    assert len({seat_seed(game, 0) for game in range(1000)}) == 1000


def repeats_of_the_previous_column(agents: tuple[str, str], games: int) -> float:
    """The share of the second seat's moves that repeat the first seat's move just before."""
    repeats = moves = 0
    for seed in range(games):
        record = play_game(GameSpec(seed, agents, BoardConfig(), seed=seed))
        assert record.cause in ("line", "draw"), record
        for ply in range(1, len(record.moves), 2):
            moves += 1
            repeats += record.moves[ply] == record.moves[ply - 1]
    return repeats / moves


@pytest.mark.games
@pytest.mark.parametrize(
    "agents", [("random", "kaggle:random"), ("random", "random"), ("kaggle:random", "kaggle:random")]
)
def test_seeded_seats_draw_from_independent_streams(agents: tuple[str, str]) -> None:
    # With one stream for both seats the second seat copied every move (a share of 1); independent
    # uniform choices among 7 columns repeat about one move in 7 (a little more as columns fill).
    assert repeats_of_the_previous_column(agents, 15) < 0.3


@pytest.mark.games
def test_a_seed_the_spec_gives_is_kept_and_the_record_names_the_spec() -> None:
    # Both seats seeded alike on purpose: the same stream, so the second seat copies the first.
    record = play_game(GameSpec(0, ("random:seed=4", "random:seed=4"), BoardConfig(), seed=1))
    assert record.agents == ("random:seed=4", "random:seed=4")
    assert all(record.moves[ply] == record.moves[ply - 1] for ply in range(1, len(record.moves), 2))


def test_game_specs_hold_parsed_agents_and_records_their_text() -> None:
    spec = GameSpec(0, ("minimax:weights=1/3/9/81", "kaggle:random"))
    assert spec.agents == (AgentSpec.parse("minimax:weights=1/3/9/81"), AgentSpec.parse("kaggle:random"))
    assert spec.names == ("minimax:weights=1/3/9/81", "kaggle:random")


@pytest.mark.games
@pytest.mark.parametrize(
    "name, cause, detail",
    [
        ("crashes", "ERROR", "boom"),
        ("illegal", "INVALID", ""),
        ("numpy_int", "INVALID", ""),
        ("float", "ERROR", "float"),
        ("dies", "ERROR", "exit code 7"),
        ("exits", "ERROR", "exit code 4"),
    ],
)
def test_a_faulty_agent_loses_with_its_cause(agent_files: dict[str, str], name: str, cause: str, detail: str) -> None:
    for seat in (0, 1):
        agents = (agent_files[name], "random") if seat == 0 else ("random", agent_files[name])
        record = play_isolated(GameSpec(seat, agents, BoardConfig(), seed=1))
        assert (record.cause, record.offender, record.winner) == (cause, seat, 1 - seat), record
        assert record.statuses[seat] == cause
        assert detail in record.detail


@pytest.mark.games
def test_filling_a_column_is_invalid_once_it_is_full(agent_files: dict[str, str]) -> None:
    # Five in a row on a 4-row board: nobody can win before column 0 is full, so the agent that
    # always plays column 0 makes the move after it fills an INVALID one.
    record = play_isolated(GameSpec(0, (agent_files["full_column"], "kaggle:random"), BoardConfig(4, 5, 5), seed=2))
    assert (record.cause, record.offender, record.winner) == ("INVALID", 0, 1)
    assert record.moves.count(0) == 4 and set(record.moves[0::2]) == {0}
    assert len(record.durations[0]) == len(record.moves[0::2]) + 1


@pytest.mark.games
def test_a_hung_agent_is_killed_by_the_watchdog_and_blamed(agent_files: dict[str, str]) -> None:
    record = play_isolated(
        GameSpec(0, ("random", agent_files["hangs"]), BoardConfig(), seed=1), Watchdog(move_limit=1.0)
    )
    assert (record.cause, record.offender, record.winner) == ("TIMEOUT", 1, 0)
    assert "watchdog" in record.detail and record.wall_seconds < 30
    assert 1.0 <= record.durations[1][-1] < 1.5  # killed at its limit, not at some later look at the journal


@pytest.mark.games
def test_a_match_survives_every_kind_of_fault(agent_files: dict[str, str]) -> None:
    for name in ("crashes", "dies", "float", "numpy_int"):
        result = play_match(
            MatchPlan(AgentSpec.of(agent_files[name]), AgentSpec.of("random"), 2),
            PlayOptions(executor=InlineExecutor()),
        )
        assert result.summary.total.losses == 2
        assert sum(sum(by_agent.values()) for by_agent in result.summary.forfeits.values()) == 2


def test_an_agent_spec_that_cannot_be_built_in_the_game_is_an_error_of_its_seat(tmp_path: Path) -> None:
    missing = tmp_path / "gone.py"
    record = play_game(GameSpec(0, ("random", str(missing)), BoardConfig(), seed=1))
    assert (record.cause, record.offender) == ("ERROR", 1)
    # Weights for 3 in a row on a 4-in-a-row board: refused before the first move, not on it.
    record = play_game(GameSpec(0, ("minimax:weights=1/3/9", "random"), BoardConfig(), seed=1))
    assert (record.cause, record.offender, record.moves) == ("ERROR", 0, ())
    assert "expected 4 positive integers separated by '/'" in record.detail


def test_importing_kaggle_leaves_sys_path_alone_so_workers_find_our_agents_package() -> None:
    import sys

    from connectx.evaluation.engine import kaggle_environments

    kaggle_environments()
    assert not [entry for entry in sys.path if "kaggle_environments" in entry]


@pytest.mark.games
def test_a_kept_replay_is_plain_json_data_that_kaggle_can_load() -> None:
    from connectx.evaluation.engine import replayed_environment

    record = play_isolated(GameSpec(0, ("random", "kaggle:random"), BoardConfig(4, 5, 3), seed=3, keep_replay=True))
    assert record.replay is not None
    assert type(record.replay["steps"][0][0]) is dict and type(record.replay["configuration"]) is dict
    env = replayed_environment(record.replay)
    assert [state.status for state in env.steps[-1]] == list(record.statuses)
    assert len(env.steps) == len(record.moves) + 1


@pytest.mark.games
def test_the_agent_whose_answer_breaks_env_run_is_blamed_whatever_the_opening(agent_files: dict[str, str]) -> None:
    # After a one-move opening the second seat moves first; the float agent in the first seat then
    # answers after both seats have been called once each.
    record = play_game(GameSpec(0, (agent_files["float"], "random"), BoardConfig(), seed=1, opening=(3,)))
    assert (record.cause, record.offender) == ("ERROR", 0)
    assert len(record.durations[0]) == len(record.durations[1]) == 1


class ReportingAgent:
    """An agent object that reports its search statistics after each move, as our agents' ``last_stats`` does.

    It plays the leftmost open column and reports as nodes 1000 plus the stones it saw, so every
    reported figure can be told apart and traced to its move; ``hang_after`` makes it hang on that call.
    """

    def __init__(self, seat: int, hang_after: int | None = None) -> None:
        self.seat = seat
        self.hang_after = hang_after
        self.calls = 0
        self.last_stats: dict[str, object] | None = None

    def __call__(self, observation, configuration) -> int:
        self.calls += 1
        if self.calls == self.hang_after:
            while True:
                time.sleep(0.1)
        stones = sum(1 for cell in observation.board if cell)
        self.last_stats = {"nodes": 1000 + stones, "depth": self.seat + 1, "source": "fake", "tree": [1, 2]}
        return [c for c in range(configuration.columns) if observation.board[c] == 0][0]


def reporting_agents(monkeypatch: pytest.MonkeyPatch, hang_after: int | None = None) -> None:
    """Every seat of the next games gets a fresh ReportingAgent (through the engine, so the seat's seeding wraps it)."""
    seats = iter(range(1_000_000))
    monkeypatch.setattr(
        engine, "kaggle_callable", lambda spec, env, config: ReportingAgent(next(seats) % 2, hang_after)
    )


def expected_stats(record: GameRecord, seat: int) -> list[tuple[tuple[str, int | float | str], ...]]:
    """What the ReportingAgent in ``seat`` reported on each of its moves of ``record``."""
    return [
        (("nodes", 1000 + ply), ("depth", seat + 1), ("source", "fake"))
        for ply in range(len(record.opening), len(record.moves))
        if ply % 2 == seat
    ]


def test_a_seeded_seat_still_shows_its_agents_stats() -> None:
    wrapped = OwnRandomStream(ReportingAgent(0), seed=1)
    assert wrapped.last_stats is None
    board = [0] * 41 + [1]
    assert wrapped(SimpleNamespace(board=board), SimpleNamespace(columns=7)) == 0
    assert wrapped.last_stats == {"nodes": 1001, "depth": 1, "source": "fake", "tree": [1, 2]}
    assert OwnRandomStream(lambda obs, config: 0, seed=1).last_stats is None


def test_move_stats_keeps_numbers_and_text_in_the_agents_order() -> None:
    assert move_stats(
        {"nodes": 12, "seconds": 0.5, "source": "book", "ok": True, "tree": [1], "bad": float("nan")}
    ) == (("nodes", 12), ("seconds", 0.5), ("source", "book"), ("ok", 1))
    assert move_stats(None) == () and move_stats([("nodes", 1)]) == ()


@pytest.mark.games
def test_the_record_keeps_each_moves_search_stats_as_the_agent_reported_them(monkeypatch: pytest.MonkeyPatch) -> None:
    reporting_agents(monkeypatch)
    spec = GameSpec(0, ("random", "negamax"), BoardConfig(4, 5, 3), seed=2, opening=(2,))
    for record in (play_game(spec), play_isolated(spec)):
        assert record.cause in ("line", "draw")
        for seat in (0, 1):
            assert list(record.search_stats[seat]) == expected_stats(record, seat)
            assert len(record.search_stats[seat]) == len(record.durations[seat])
        assert record.stats(1, 0) == {"nodes": 1001, "depth": 2, "source": "fake"}
        assert record.stats(1, 99) == {}
        assert GameRecord.from_json(record.to_json()).search_stats == record.search_stats


@pytest.mark.games
def test_a_killed_game_keeps_the_stats_of_the_moves_before(monkeypatch: pytest.MonkeyPatch) -> None:
    reporting_agents(monkeypatch, hang_after=3)
    record = play_isolated(GameSpec(0, ("random", "negamax"), BoardConfig(6, 7, 4), seed=2), Watchdog(move_limit=1.0))
    assert (record.cause, record.offender) == ("TIMEOUT", 0)
    assert [dict(move)["nodes"] for move in record.search_stats[0]] == [1000, 1002]
    assert [dict(move)["nodes"] for move in record.search_stats[1]] == [1001, 1003]
    assert len(record.durations[0]) == 3


@pytest.mark.games
def test_agents_that_report_nothing_leave_no_stats_in_the_record() -> None:
    record = play_game(GameSpec(0, ("kaggle:random", "kaggle:negamax"), BoardConfig(4, 5, 3), seed=2))
    assert record.search_stats == NO_STATS and "search_stats" not in record.to_json()


@pytest.mark.games
def test_a_game_records_the_cpu_it_used_and_the_load_around_it() -> None:
    spec = GameSpec(0, ("negamax:depth=3", "kaggle:random"), BoardConfig(), seed=3)
    for record in (play_game(spec), play_isolated(spec)):
        assert record.load_average is not None and all(value >= 0 for value in record.load_average)
        assert 0 < record.cpu_seconds
        assert GameRecord.from_json(record.to_json()).load_average == tuple(
            round(value, 2) for value in record.load_average
        )


@pytest.mark.games
def test_one_game_process_plays_game_after_game_and_a_fault_costs_only_its_own_game(
    agent_files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from connectx.evaluation import game

    host = game.GameProcess()
    fast = GameSpec(0, ("negamax:depth=1", "kaggle:random"), BoardConfig(), seed=1)
    first = host.play(fast, game.DEFAULT_WATCHDOG)
    resident = host.process.pid
    assert host.play(replace(fast, seed=2), game.DEFAULT_WATCHDOG).cause in ("line", "draw")
    assert host.process.pid == resident and host.games == 2  # no fork for the second game
    hung = host.play(GameSpec(1, ("random", agent_files["hangs"]), BoardConfig(), seed=1), Watchdog(move_limit=1.0))
    assert (hung.cause, hung.offender) == ("TIMEOUT", 1) and host.process is None  # killed, not reused
    assert host.play(fast, game.DEFAULT_WATCHDOG).moves == first.moves  # a fresh process plays the same game
    assert host.process.pid != resident
    host.play(GameSpec(2, (agent_files["float"], "random"), BoardConfig(), seed=1), game.DEFAULT_WATCHDOG)
    assert host.process is None  # an agent file never shares its process with a later game
    monkeypatch.setattr(game, "RETIRE_ABOVE_KIB", 1)
    host.play(fast, game.DEFAULT_WATCHDOG)
    assert host.process is None  # past the memory mark: replaced before the next game
