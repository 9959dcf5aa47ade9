"""Write the agents' file of exact opening scores: ``python -m book.agent_scores`` (``make book``).

It takes the scores from the analysis's table (``book.opening_table`` writes it from the C
solver's checkpoints) and keeps what the trap of ``solver`` reads in the second seat
(``connectx.agents.core.opening_scores`` says why): every position of plies 0 to
``--complete-plies`` (all of them must be known), the positions of the next plies that the
table knows, and the positions of odd plies up to ``--reply-plies`` that the book's generation
solved (the replies a first player had along our book's lines).
"""

from __future__ import annotations

import argparse
import sys
import time

from book.checkpoint import read_solved
from book.opening_table import BOARD, positions_by_ply
from book.paths import BOOK_POSITIONS, OPENING_TABLE, REPOSITORY
from connectx.agents.core.data_files import read_data
from connectx.agents.core.opening_scores import SCORES_FILE, decode_opening_scores, encode_opening_scores
from connectx.analysis.exact_scores import ExactScores

AGENT_SCORES = REPOSITORY / "connectx" / "agents" / "data" / SCORES_FILE


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--complete-plies", type=int, default=6, help="plies whose every position is held (default 6)")
    parser.add_argument(
        "--partial-plies",
        type=int,
        default=7,
        help="deepest ply whose positions the table knows are all held (default 7)",
    )
    parser.add_argument(
        "--reply-plies", type=int, default=13, help="deepest odd ply whose book positions are held (default 13)"
    )
    return parser


def selected_scores(table: ExactScores, complete: int, partial: int, replies: int) -> dict[int, int]:
    """``{canonical_key: score}`` of the positions the module docstring lists; ValueError where a
    position of the complete plies is missing from ``table`` (solve it first: ``make opening-scores``)."""
    scores: dict[int, int] = {}
    for ply, level in enumerate(positions_by_ply(partial)):
        for key, position in level.items():
            score = table.score(position)
            if score is None and ply <= complete:
                raise ValueError(
                    f"ply {ply} is not solved whole ({position.moves} plies deep, key {key}): "
                    "run `make opening-scores` for it, or lower --complete-plies"
                )
            if score is not None:
                scores[key] = score
    for key, record in read_solved(BOOK_POSITIONS).items():
        if len(record.moves) % 2 == 1 and len(record.moves) <= replies:
            scores[key] = record.score
    return scores


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    started = time.perf_counter()
    scores = selected_scores(ExactScores(OPENING_TABLE), args.complete_plies, args.partial_plies, args.reply_plies)
    data = encode_opening_scores(scores, BOARD, args.complete_plies)
    AGENT_SCORES.write_bytes(data)
    decoded = decode_opening_scores(read_data(SCORES_FILE))
    assert len(decoded) == len(scores), "the file must read back whole"
    print(
        f"wrote {AGENT_SCORES.relative_to(REPOSITORY)}: {len(scores):,} positions, {len(data):,} bytes, "
        f"in {time.perf_counter() - started:.0f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
