"""Made-up games for the papers' tests: the stronger agent wins, and depth-limited agents report a search.

Shared by the tests of each room (``tests/test_papers_*.py``), which import it by name: ``tests/`` is on
pytest's ``pythonpath``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from connectx.agents.core.position import Position
from connectx.evaluation.game_record import NO_STATS, GameRecord, GameSpec, MoveStats


def strength(spec: str) -> float:
    """A made-up strength that orders the agents as the papers expect, for the fake game."""
    if spec.startswith("solver"):
        return 100.0
    if spec.startswith("kaggle:random") or spec == "random":
        return 0.0
    if "time_budget=" in spec:
        return 2.0 + float(spec.split("time_budget=")[1].split(",")[0])
    if "depth=" in spec:
        depth = float(spec.split("depth=")[1].split(",")[0])
        return depth + (0.5 if "h2" in spec else 0.0)
    return 4.5


def fake_stats(agent: str, ply: int) -> MoveStats:
    """What a depth-limited agent might report for its move at ``ply``: fewer nodes as the board fills."""
    if "depth=" not in agent and not agent.startswith("minimax"):
        return ()
    depth = int(agent.split("depth=")[1].split(",")[0]) if "depth=" in agent else 4
    nodes = 1000 * depth // (ply + 1)
    return ("nodes", nodes), ("depth", depth), ("evaluations", nodes // 3)


def fake_game(spec: GameSpec) -> GameRecord:
    """The stronger agent wins (equal ones draw) after six random legal moves past the opening.

    Depth-limited agents report made-up search statistics for each move (``fake_stats``)."""
    config = spec.config
    position = Position.replayed(config, spec.opening)
    moves = list(spec.opening)
    rng = random.Random(spec.seed)
    for _ in range(6):
        column = rng.choice(position.legal_columns())
        position, moves = position.play(column), moves + [column]
    first, second = (strength(agent) for agent in spec.names)
    winner = None if first == second else 0 if first > second else 1
    played = len(moves) - len(spec.opening)
    durations = (tuple(0.001 * (k + 1) for k in range((played + 1) // 2)), tuple(0.002 for _ in range(played // 2)))
    stats: tuple[list[MoveStats], list[MoveStats]] = ([], [])
    for ply in range(len(spec.opening), len(moves)):
        stats[ply % 2].append(fake_stats(spec.names[ply % 2], ply))
    search_stats = (tuple(stats[0]), tuple(stats[1])) if any(stats[0] + stats[1]) else NO_STATS
    return GameRecord(
        spec.index,
        spec.names,
        config,
        spec.seed,
        spec.opening,
        tuple(moves),
        winner,
        ("DONE", "DONE"),
        "draw" if winner is None else "line",
        durations=durations,
        wall_seconds=9.0,
        search_stats=search_stats,
    )


def counting(game: Callable[[GameSpec], GameRecord]) -> tuple[Callable[[GameSpec], GameRecord], list[int]]:
    """``game`` as a game function that notes each game's index in the list returned beside it."""
    calls: list[int] = []

    def play(spec: GameSpec) -> GameRecord:
        calls.append(spec.index)
        return game(spec)

    return play, calls
