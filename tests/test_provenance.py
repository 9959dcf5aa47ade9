"""What played a game: every record a run writes carries the code digest, the CPU model and the games at once."""

from __future__ import annotations

import dataclasses
import json
import subprocess
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation import provenance
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.provenance import (
    Checkout,
    Provenance,
    code_digest,
    cpu_model,
    current_checkout,
    run_provenance,
)
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor


def quick_game(spec: GameSpec) -> GameRecord:
    """A game the first mover wins at once: no engine needed to test what the schedule adds to its record."""
    return GameRecord(
        spec.index, spec.names, spec.config, spec.seed, (), (spec.index % 7,), 0, ("DONE", "DONE"), "line"
    )


def test_every_record_of_a_run_carries_its_provenance_into_the_stored_games(tmp_path: Path) -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("random"), AgentSpec.of("kaggle:random"), 4),
        PlayOptions(jobs=3, out=tmp_path, executor=InlineExecutor(), play=quick_game),
    )
    expected = run_provenance(3)
    assert all(record.provenance == expected for record in result.records)
    assert expected.concurrency == 3 and len(expected.code) == 12 and expected.cpu == cpu_model()
    stored = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert all(line["provenance"] == expected.to_json() for line in stored)
    # Read back, resumed: the provenance is the one each game was played with.
    resumed = ResultsStore(tmp_path).open(result.plan.to_json(), True, may_change=("games",))
    assert [r.provenance for r in resumed] == [expected] * 4


def test_a_record_from_before_provenance_was_kept_reads_as_unknown() -> None:
    record = quick_game(GameSpec(0, ("random", "kaggle:random")))
    data = record.to_json()
    assert "provenance" not in data and GameRecord.from_json(data).provenance is None
    kept = GameRecord.from_json(data | {"provenance": {"code": "abc", "cpu": "x", "concurrency": 2}})
    assert kept.provenance == Provenance("abc", "x", 2) and kept.provenance.commit_text == "commit unknown"
    traced = Provenance("abc", "x", 2, Checkout("f" * 40, True, "0123456789ab"))
    assert Provenance.from_json(traced.to_json()) == traced
    assert traced.commit_text == "commit ffffffffffff with uncommitted changes (diff 0123456789ab)"


def git(folder: Path, *arguments: str) -> str:
    return subprocess.run(["git", *arguments], cwd=folder, capture_output=True, text=True, check=True).stdout


def test_the_checkout_says_its_commit_and_whether_the_sources_differ_from_it(tmp_path: Path) -> None:
    package = tmp_path / "connectx"
    package.mkdir()
    (package / "__init__.py").write_text("")
    assert current_checkout(package) is None  # not a checkout: unknown, never an error
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "first")
    head = git(tmp_path, "rev-parse", "HEAD").strip()
    assert current_checkout(package) == Checkout(head, False, "")
    (tmp_path / "notes.md").write_text("a report is not the package\n")
    assert current_checkout(package) == Checkout(head, False, "")
    (package / "__init__.py").write_text("X = 1\n")
    edited = current_checkout(package)
    assert edited is not None and edited.dirty and len(edited.difference) == 12
    (package / "extra.py").write_text("Y = 2\n")
    untracked = current_checkout(package)
    assert untracked is not None and untracked.dirty and untracked.difference != edited.difference


def test_a_resumed_run_refuses_games_played_by_other_code_unless_told(tmp_path: Path) -> None:
    result = play_match(
        MatchPlan(AgentSpec.of("random"), AgentSpec.of("kaggle:random"), 4),
        PlayOptions(jobs=1, out=tmp_path, executor=InlineExecutor(), play=quick_game),
    )
    games = tmp_path / "games.jsonl"
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    for line in lines:
        line["provenance"]["code"] = "000000000000"
    games.write_text("".join(json.dumps(line) + "\n" for line in lines))
    longer = dataclasses.replace(result.plan, games=6)
    with pytest.raises(RunDirectoryError, match="other code .*allow_code_change=True"):
        play_match(longer, PlayOptions(out=tmp_path, resume=True, jobs=1, executor=InlineExecutor(), play=quick_game))
    assert len(games.read_text().splitlines()) == 4  # nothing appended
    # Nothing left to play: reading a finished run back never refuses.
    finished = play_match(
        result.plan, PlayOptions(out=tmp_path, resume=True, executor=InlineExecutor(), play=quick_game)
    )
    assert len(finished.records) == 4
    mixed = play_match(
        longer,
        PlayOptions(
            out=tmp_path, resume=True, jobs=1, executor=InlineExecutor(), play=quick_game, allow_code_change=True
        ),
    )
    assert {r.provenance.code for r in mixed.records if r.provenance} == {"000000000000", code_digest()}


def test_the_cpu_model_is_the_operating_systems_name_for_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\n")
    monkeypatch.setattr(provenance, "CPUINFO", cpuinfo)
    cpu_model.cache_clear()
    try:
        assert cpu_model() == "AMD EPYC 7B13"
        monkeypatch.setattr(provenance, "CPUINFO", tmp_path / "missing")
        cpu_model.cache_clear()
        assert cpu_model()  # whatever platform knows, never empty
    finally:
        cpu_model.cache_clear()


def test_the_code_digest_covers_the_game_loop_not_the_statistics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = tmp_path / "evaluation"
    harness.mkdir()
    for name in (*provenance.GAME_LOOP, "statistics.py"):
        (harness / name).write_text(f"# {name}\n")
    monkeypatch.setattr(provenance.evaluation, "__path__", [str(harness)])
    before = code_digest()
    (harness / "statistics.py").write_text("# a new statistic\n")
    assert code_digest() == before
    digests = {before}
    for name in ("engine.py", "game_record.py", "game_in_process.py", "game.py", "move_journal.py"):  # each in a game
        (harness / name).write_text(f"# a new {name}\n")
        digests.add(code_digest())
    assert len(digests) == 6


def test_the_code_digest_changes_with_the_agents_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = code_digest()
    assert code_digest() == before  # the same files, the same digest
    fake = tmp_path / "agents"
    fake.mkdir()
    (fake / "strategy.py").write_text("MOVE = 3\n")
    monkeypatch.setattr(provenance.agents, "__path__", [str(fake)])
    changed = code_digest()
    (fake / "strategy.py").write_text("MOVE = 4\n")
    assert len({before, changed, code_digest()}) == 3
