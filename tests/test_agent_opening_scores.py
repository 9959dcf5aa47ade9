"""The agents' opening scores (``connectx.agents.core.opening_scores``): the file reads back what was written,
agrees with the C solver's table and with the exact search, and holds every position of its whole plies."""

from __future__ import annotations

import pytest

from book.opening_table import positions_by_ply
from connectx.agents.core.opening_scores import (
    OpeningScores,
    decode_opening_scores,
    encode_opening_scores,
    load_opening_scores,
)
from connectx.agents.core.position import Position
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import column_scores
from connectx.analysis.exact_scores import ExactScores

SHIPPED = load_opening_scores()


def test_the_file_reads_back_every_key_and_signed_score() -> None:
    positions = [Position.from_moves(moves) for moves in ("", "4", "44", "4455", "1234567")]
    written = {position.canonical_key(): score for position, score in zip(positions, (1, -1, 18, -18, 0), strict=True)}
    read = decode_opening_scores(encode_opening_scores(written, (6, 7, 4), 2))
    assert (read.board, read.complete_plies, len(read)) == ((6, 7, 4), 2, 5)
    assert [read.score(position) for position in positions] == [1, -1, 18, -18, 0]
    assert read.score(Position.from_moves("1")) is None
    assert read.score(Position.initial(5, 6, 4)) is None, "another board is never answered"


def test_a_file_of_another_kind_is_refused_with_what_to_do() -> None:
    with pytest.raises(ValueError, match="make book"):
        decode_opening_scores(b"CXB1" + bytes(8))


def test_every_position_of_the_whole_plies_is_held_with_the_c_solvers_score() -> None:
    table = ExactScores.shipped()
    assert SHIPPED.complete_plies >= 6
    for level in positions_by_ply(5):
        for position in level.values():
            assert SHIPPED.score(position) == table.score(position) is not None


def test_a_positions_columns_are_scored_as_the_exact_search_scores_them() -> None:
    """Along the book's second-seat lines: our book move, then every reply the first player had."""
    checked = 0
    for moves, ours in (("14344355345", 3), ("14443363747", 3), ("23133344742", 3)):
        after = Position.from_moves(moves).play(ours)
        known = SHIPPED.column_scores(after)
        assert known is not None and known == column_scores(after, TranspositionTable())
        checked += 1
    assert checked == 3


def test_the_opening_is_scored_from_the_first_move_and_a_gap_is_none() -> None:
    assert SHIPPED.column_scores(Position.initial()) == {3: 1, 2: 0, 4: 0, 1: -1, 5: -1, 0: -2, 6: -2}
    partial = OpeningScores((6, 7, 4), 0, [Position.from_moves("4").canonical_key()], bytes([255]))
    assert partial.column_scores(Position.initial()) is None, "one column's position is missing"
