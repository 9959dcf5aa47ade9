"""The book's checkpoints: gzip JSON lines that survive an interrupt anywhere and resume where they stopped."""

from __future__ import annotations

import gzip
from pathlib import Path

from book.checkpoint import Checkpoint, read_records, read_solved
from book.levels import Solved
from connectx.agents.core.position import Position


def solved(moves: str, score: int) -> Solved:
    return Solved(moves, score, -1, 0, 0.0)


def test_each_record_is_on_disk_as_soon_as_it_is_added(tmp_path: Path) -> None:
    path = tmp_path / "ply1.jsonl.gz"
    checkpoint = Checkpoint(path)
    checkpoint.add(Position.from_moves("1").canonical_key(), solved("1", 2))
    checkpoint.add(Position.from_moves("2").canonical_key(), solved("2", 1))
    records, clean = read_records(path)  # read while the run is still going: no gzip trailer yet
    assert [record.moves for record in records] == ["1", "2"] and not clean
    checkpoint.close()
    assert read_records(path) == (records, True)
    with gzip.open(path, "rt") as handle:  # any gzip reader reads it
        assert handle.read().count("\n") == 2


def test_an_interrupt_mid_write_loses_only_the_cut_record_and_a_rerun_appends(tmp_path: Path) -> None:
    path = tmp_path / "ply2.jsonl.gz"
    checkpoint = Checkpoint(path)
    for moves, score in (("11", 1), ("12", 0), ("13", -1)):
        checkpoint.add(Position.from_moves(moves).canonical_key(), solved(moves, score))
    checkpoint.close()
    path.write_bytes(path.read_bytes()[:-12])  # the trailer and the end of the last record gone
    records, clean = read_records(path)
    assert not clean and [record.moves for record in records] in (["11", "12"], ["11", "12", "13"])
    resumed = Checkpoint(path)  # rewrites what is whole, then appends a member of its own
    assert set(resumed.solved) == {Position.from_moves(r.moves).canonical_key() for r in records}
    resumed.add(Position.from_moves("14").canonical_key(), solved("14", 2))
    resumed.close()
    assert [record.moves for record in read_records(path)[0]] == [r.moves for r in records] + ["14"]
    assert len(read_solved(path)) == len(records) + 1


def test_a_missing_checkpoint_is_empty(tmp_path: Path) -> None:
    assert read_records(tmp_path / "none.jsonl.gz") == ([], True)
    assert read_solved(tmp_path / "none.jsonl.gz") == {}
