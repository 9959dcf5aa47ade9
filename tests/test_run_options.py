"""One door for every run: each run kind takes a plan and one ``PlayOptions``, built from the flags in one place."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.main import build_parser
from connectx.cli.options import run_options
from connectx.evaluation.game import Watchdog
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.ladder import LadderPlan, play_ladder
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.results_store import RunDirectoryError
from connectx.evaluation.run_loop import GameCount, ListedGames, PlayOptions, play_prepared, prepare_run
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.tournament import TournamentPlan, play_tournament

RANDOM, NEGAMAX, KAGGLE = (AgentSpec.of(text) for text in ("random", "negamax", "kaggle:random"))

RUNS: dict[str, tuple[Any, Callable[..., Any]]] = {
    "match": (MatchPlan(RANDOM, NEGAMAX, 4), play_match),
    "tournament": (TournamentPlan((RANDOM, NEGAMAX, KAGGLE), 2), play_tournament),
    "ladder": (LadderPlan((RANDOM, NEGAMAX), pool="none", episodes=4), play_ladder),
}
"""Every run kind: a plan of a few games and its door."""


def first_seat_wins(played: list[GameSpec]) -> Callable[[GameSpec], GameRecord]:
    """A game without kaggle-environments that remembers the spec it was given."""

    def play(spec: GameSpec) -> GameRecord:
        played.append(spec)
        moves = (0, 1, 0, 1, 0, 1, 0)
        return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), moves, 0, ("DONE", "DONE"), "line")

    return play


@pytest.mark.parametrize("kind", RUNS)
def test_every_option_reaches_every_run_kind(kind: str, tmp_path: Path) -> None:
    plan, door = RUNS[kind]
    played: list[GameSpec] = []
    options = PlayOptions(out=tmp_path, keep_replays=True, executor=InlineExecutor(), play=first_seat_wins(played))
    result = door(plan, options)
    assert played and all(spec.keep_replay for spec in played)
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == len(result.records) == len(played)
    with pytest.raises(RunDirectoryError, match="already holds a run"):
        door(plan, options)
    # Resumed over games recorded by other code: refused, unless the options allow it.
    games = tmp_path / "games.jsonl"
    games.write_text("\n".join(games.read_text().splitlines()[:1]).replace('"code":"', '"code":"0') + "\n")
    with pytest.raises(RunDirectoryError, match="other code"):
        door(plan, PlayOptions(out=tmp_path, resume=True, executor=InlineExecutor(), play=first_seat_wins([])))
    resumed = door(
        plan,
        PlayOptions(
            out=tmp_path, resume=True, allow_code_change=True, executor=InlineExecutor(), play=first_seat_wins([])
        ),
    )
    assert len(resumed.records) == len(result.records)
    assert len({json.loads(line)["provenance"]["code"] for line in games.read_text().splitlines()}) == 2


@pytest.mark.parametrize(
    "command", [["match", "random", "negamax"], ["tournament", "random", "negamax"], ["ladder", "random"]]
)
def test_every_command_builds_the_same_options_from_the_same_flags(command: list[str], tmp_path: Path) -> None:
    flags = ["--jobs", "3", "--resume", "--allow-code-change", "--replays", "--grace", "2", "--move-limit", "9"]
    args = build_parser().parse_args([*command, *flags])
    assert run_options(args, tmp_path) == PlayOptions(
        jobs=3,
        out=tmp_path,
        resume=True,
        keep_replays=True,
        watchdog=Watchdog(2.0, move_limit=9.0),
        allow_code_change=True,
    )


def test_a_listed_plan_grows_on_resume_and_keeps_the_code_check(tmp_path: Path) -> None:
    def listed(count: int) -> ListedGames:
        games = tuple(GameSpec(10 * index, (RANDOM, NEGAMAX)) for index in range(count))
        return ListedGames("benchmark", games, (("seeds", count), ("seed", 7)), may_change=("seeds",))

    played: list[GameSpec] = []
    options = PlayOptions(out=tmp_path, resume=True, executor=InlineExecutor(), play=first_seat_wins(played))
    first = play_prepared(prepare_run(listed(2), options), GameCount())
    grown = play_prepared(prepare_run(listed(3), options), GameCount())
    assert [spec.index for spec in played] == [0, 10, 20]
    assert sorted(record.index for record in grown.records) == [0, 10, 20] and len(first.records) == 2
    with pytest.raises(RunDirectoryError, match="different run"):
        prepare_run(replace(listed(3), parameters=(("seeds", 3), ("seed", 8))), options)
    games = tmp_path / "games.jsonl"
    games.write_text(games.read_text().replace('"code":"', '"code":"0'))
    assert len(prepare_run(listed(3), options).recorded) == 3  # a finished run reads back as it is
    with pytest.raises(RunDirectoryError, match="other code"):
        prepare_run(listed(4), options)


def test_no_benchmark_plays_or_stores_games_around_the_run_loop() -> None:
    around = re.compile(r"\bplay_schedule\(|\bplay_isolated\b|\bstore\.(open|start|append)\(")
    scripts = sorted((Path(__file__).parents[1] / "benchmarks").glob("*.py"))
    assert scripts and [path.name for path in scripts if around.search(path.read_text())] == []
