"""The move journal: what a game process notes, its parent reads once, whole, in order, even after the writer died."""

from __future__ import annotations

import multiprocessing
import os

from connectx.evaluation.move_journal import LENGTH, MoveJournal


def test_notes_are_read_once_in_order_with_their_times() -> None:
    journal = MoveJournal()
    journal.note(("move", 0, 60.0), 1.5)
    journal.note(("moved", 0, 0.01, 3, (("nodes", 7),)), 1.51)
    assert journal.read() == [(1.5, ("move", 0, 60.0)), (1.51, ("moved", 0, 0.01, 3, (("nodes", 7),)))]
    assert journal.read() == []
    journal.note(("move", 1, 59.0), 2.0)
    assert journal.read() == [(2.0, ("move", 1, 59.0))]
    journal.close()


def test_a_note_still_being_written_waits_for_the_next_read() -> None:
    journal = MoveJournal()
    journal.note(("move", 0, 60.0), 1.0)
    whole = os.pread(journal.descriptor, 1000, 0)
    os.ftruncate(journal.descriptor, 0)
    os.write(journal.descriptor, whole[: LENGTH.size + 3])  # the frame and the start of the pickle only
    assert journal.read() == []
    os.write(journal.descriptor, whole[LENGTH.size + 3 :])
    assert journal.read() == [(1.0, ("move", 0, 60.0))]
    journal.close()


def test_clearing_forgets_every_note_and_later_notes_start_afresh() -> None:
    journal = MoveJournal()
    journal.note(("move", 0, 60.0), 1.0)
    journal.clear()
    assert journal.read() == []
    journal.note(("move", 1, 60.0), 2.0)
    assert journal.read() == [(2.0, ("move", 1, 60.0))]
    journal.close()


def _note_and_die(journal: MoveJournal) -> None:
    journal.note(("move", 0, 60.0), 1.0)
    journal.note(("moved", 0, 0.5, 4, ()), 1.5)
    os._exit(3)


def test_a_forked_writer_s_notes_outlive_it() -> None:
    journal = MoveJournal()
    process = multiprocessing.get_context("fork").Process(target=_note_and_die, args=(journal,))
    process.start()
    process.join(10)
    assert process.exitcode == 3
    assert journal.read() == [(1.0, ("move", 0, 60.0)), (1.5, ("moved", 0, 0.5, 4, ()))]
    journal.close()
