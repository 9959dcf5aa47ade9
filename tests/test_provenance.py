"""What played a game: every record a run writes carries the code digest, the CPU model and the games at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from connectx.evaluation import provenance
from connectx.evaluation.game import GameRecord, GameSpec
from connectx.evaluation.match import run_match
from connectx.evaluation.provenance import Provenance, code_digest, cpu_model, run_provenance
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.scheduling import InlineExecutor


def quick_game(spec: GameSpec) -> GameRecord:
    """A game the first mover wins at once: no engine needed to test what the schedule adds to its record."""
    return GameRecord(spec.index, spec.names, spec.config, spec.seed, (), (spec.index % 7,), 0, ("DONE", "DONE"),
                      "line")


def test_every_record_of_a_run_carries_its_provenance_into_the_stored_games(tmp_path: Path) -> None:
    result = run_match("random", "kaggle:random", 4, jobs=3, out=tmp_path, executor=InlineExecutor(), play=quick_game)
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
    assert kept.provenance == Provenance("abc", "x", 2)


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
