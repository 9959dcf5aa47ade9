"""The positions of check (f), chosen so the agent's move on each is a function of the position alone.

Check (f) asks whether a bundle chooses the columns its unbundled agent does. The comparison
means something only where the agent's choice cannot depend on anything but the position: not
on the clock (how far a search got before its deadline), and not on an unseeded generator. Two
comparisons meet that in different ways:

* **Overridden parameters** (``comparison_positions``): both agents get a seed and a node or
  simulation cap (``validator.COMPARISON_PARAMETERS``), which makes every position's move
  fixed, openings and middlegames included; but that is not the configuration that ships.
* **Shipped parameters** (``shipped_positions``): both agents get exactly the parameters the
  file was built with, on positions whose move is fixed *whatever the clock* (and whatever an
  unset seed draws). Which positions those are depends on the agent:

  - ``seeded``, for agents that never watch a clock (their factory takes no ``time_budget``:
    random, negamax, minimax): a fixed depth under a seed is a function of the position, so
    every position of the overridden comparison qualifies (minimax's deadline only drops a
    depth that would not finish inside the move, far beyond what these positions take). Their
    seed is the one thing that can still vary, so a file built without one is compared under
    ``validator.COMPARISON_PARAMETERS``'s seed: it breaks ties, and changes no depth;
  - ``tactical``, for every agent: exactly one column wins at once, or none wins and exactly one
    does not lose at once (and that one is not lost). Every searcher answers these before its
    clock matters (the agent contract test holds them all to it): the solver without searching
    at all (``exact_search``'s root rules); mcts as soon as each root child exists, a handful of
    simulations, because a winning child is proven won and every other non-blocking child is
    proven lost, and a proof never marks the block lost when it is not;
  - ``book``, for the solver with its book: the opening book answers before any search starts;
  - ``proven``, for the solver: late endgames of Pons' ``positions/Test_L3_R1`` where exactly one
    column keeps the position's outcome (the only winning move, or the only move that does not
    lose a drawn position) and the exact solve takes at most ``PROOF_NODE_CAP`` nodes. Every
    step of the solver's search that can end its move plays that column (a depth-limited search
    that reaches the end of the game, the win or draw proof, the exact solve), and the proofs
    fit inside the move's time many times over, so the clock cannot end the move before one
    of them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.players.opening_book import OpeningBook, load_opening_book
from connectx.agents.registry import AgentEntry
from connectx.agents.search.exact_search import analyze, solve

PROVEN_ENDGAMES = (
    "67152117737262713366376314254",
    "655651721435342216255374674123",
    "3336513263356226156221176142517577574",
    "47715713331437527153255735112",
    "171231226144413625631766635232354",
    "26152653322136634677576524721",
    "7574351513437646536627543374245122671",
    "463664536261521546311273242457332",
)
"""The ``proven`` positions: the first eight endgames of Pons' easy endgame benchmark (the repository's
``positions/Test_L3_R1``, ply 28 or more) that ``is_proven_choice`` accepts. Written out because an
installed package has no ``positions/``; the tests check that they are exactly those."""
PROOF_NODE_CAP = 5_000
"""Nodes the exact solve of a ``proven`` position may take: some 50 ms of CPython, a thirtieth of a move."""
TACTICAL_CAP = 2_000
"""Nodes allowed to prove that a forced block is not lost; positions needing more are skipped."""
CLOCK_FREE_KINDS: dict[str, tuple[str, ...]] = {"solver": ("book", "proven")}
"""Beyond ``tactical``, the kinds of positions a clocked agent answers whatever the clock (see above)."""


@dataclass(frozen=True)
class FixedPosition:
    """A comparison position and the kind of reason (module docstring) its move is fixed."""

    position: Position
    kind: str


def comparison_positions() -> list[Position]:
    """The positions of the overridden comparison: openings, a win to take, a loss to block, late middlegames.

    The late positions come from seeded random play, so the list is the same on every run; two
    geometries exercise more of the code than one.
    """
    positions = [Position.from_moves(moves) for moves in ("", "4", "44", "4453", "121212", "12121")]
    rng = random.Random(5)
    for rows, columns, inarow, stones in ((6, 7, 4, 24), (6, 7, 4, 30), (6, 7, 4, 34), (4, 5, 3, 12)):
        position = Position.initial(rows, columns, inarow)
        while position.moves < stones:
            position = position.play(rng.choice(position.legal_columns()))
            if position.is_over():
                position = Position.initial(rows, columns, inarow)
        positions.append(position)
    positions.append(Position.initial(4, 5, 3))
    return positions


def watches_the_clock(entry: AgentEntry) -> bool:
    """Whether the agent's search stops on a clock: its registry entry declares a time budget."""
    return entry.time_budget is not None


def shipped_positions(entry: AgentEntry, parameters: dict[str, Any]) -> list[FixedPosition]:
    """The positions on which ``entry``'s agent, built with ``parameters``, moves the same whatever the clock."""
    fixed = [FixedPosition(position, "tactical") for position in tactical_positions()]
    if not watches_the_clock(entry):
        return fixed + [FixedPosition(position, "seeded") for position in comparison_positions()]
    kinds = CLOCK_FREE_KINDS.get(entry.name, ())
    if "book" in kinds and parameters.get("use_book", True):
        fixed += [FixedPosition(position, "book") for position in book_positions()]
    if "proven" in kinds:
        fixed += [FixedPosition(position, "proven") for position in proven_positions()]
    return fixed


def tactical_positions() -> list[Position]:
    """Two positions with exactly one winning column and two with exactly one non-losing one (not lost).

    Taken from seeded random play on two geometries, the same on every run. Few, because a
    clocked agent spends its whole move's time on a forced block (mcts searches on).
    """
    found = []
    for (rows, columns, inarow), seed in (((6, 7, 4), 3), ((4, 5, 3), 4)):
        plays = _random_play(rows, columns, inarow, seed)
        found.append(next(position for position in plays if len(position.winning_columns()) == 1))
        found.append(next(position for position in plays if _is_forced_block(position)))
    return found


def _random_play(rows: int, columns: int, inarow: int, seed: int) -> Iterator[Position]:
    """Every position of seeded random games, one game after another."""
    rng = random.Random(seed)
    while True:
        position = Position.initial(rows, columns, inarow)
        while not position.is_over():
            yield position
            position = position.play(rng.choice(position.legal_columns()))


def _is_forced_block(position: Position) -> bool:
    """No win at once, a choice of columns, only one that does not lose at once, and that one not lost."""
    safe = position.non_losing_columns()
    if position.winning_columns() or len(safe) != 1 or len(position.legal_columns()) < 2:
        return False
    after = solve(position.play(safe[0]), limit=SearchLimit(max_nodes=TACTICAL_CAP))
    return after is not None and after.score <= 0


def book_positions() -> list[Position]:
    """The positions of one seeded line per side where the opening book has the move, empty if no book.

    On our side the book's move is played, on the other a seeded random one, so each line runs
    as deep as the book does for that side.
    """
    try:
        book = load_opening_book()
    except Exception:  # the agent plays without a book then, and so nothing is fixed by one
        return []
    found = []
    for side, seed in ((0, 7), (1, 8)):
        rng = random.Random(seed)
        position = Position.replayed(book)
        while not position.is_over():
            if position.moves % 2 == side:
                column = _book_move(book, position)
                if column is None:
                    break
                found.append(position)
            else:
                column = rng.choice(position.legal_columns())
            position = position.play(column)
    return found


def _book_move(book: OpeningBook, position: Position) -> int | None:
    column = book.move_for(book.rows, book.columns, book.inarow, position.current, position.mask)
    return column if column is not None and position.can_play(column) else None


def proven_positions() -> list[Position]:
    """The ``proven`` positions (``PROVEN_ENDGAMES``)."""
    return [Position.from_moves(moves) for moves in PROVEN_ENDGAMES]


def is_proven_choice(position: Position) -> bool:
    """Whether exactly one column keeps the outcome of a position that is not lost, by a proof of a few nodes.

    Positions with a win at once or a single non-losing move are left to ``tactical``, lost ones
    out (every move keeps a loss), so each one accepted exercises the proofs.
    """
    if position.winning_columns() or len(position.non_losing_columns()) < 2:
        return False
    solution = solve(position, limit=SearchLimit(max_nodes=PROOF_NODE_CAP))
    if solution is None or solution.score < 0:
        return False
    scores = analyze(position, limit=SearchLimit(max_nodes=PROOF_NODE_CAP))
    if scores is None:
        return False
    keeping = [column for column, score in scores.items() if (score > 0 if solution.score > 0 else score >= 0)]
    return len(keeping) == 1
