"""How well the horizon evaluation orders exactly solved positions, and the weights that would order them best.

The depth-limited search only compares the values of its leaves, so what the evaluation must get
right is their order: of two positions with different outcomes for the side to move (win, draw,
loss), the better one should get the higher value. The positions (benchmarks/results/evaluation_positions.txt,
one a line: the board, the moves as 1-based column digits, the exact score for the side to move)
are leaf-like: a position of a stored ``other_boards`` game at ply 10 to 30, then two random
moves that do not lose at once, with no immediate win for the mover, on 7x7/4 and 8x7/4 (9x7/4 and
10x8/5 do not fit the 64-bit boards of the C solver that found the scores, ``connectx/agents/data/solver.c``).
``evaluation_positions`` makes them. The test checks the latest positions of each board against
``connectx.agents.search.exact_search``.

For each board it prints the share of such pairs ranked right, over all pairs and over the pairs of
the same ply (the search compares positions of one stage of a game). ``--weights`` measures other
weights; ``--fit`` fits them (an ordinal logistic regression of the outcome on the evaluation's
features, the raw counts ``line_evaluation`` weighs) on two thirds of the positions, reports the
ranking on the other third for both, and prints the fitted weights scaled to the fill-up game's.

Usage: .venv/bin/python -m benchmarks.evaluation_ranking [--weights L1,L2,THREAT,ZUGZWANG] [--fit]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from benchmarks import RESULTS
from benchmarks.other_boards import clocked_board
from connectx.agents.core.position import Position, geometry
from connectx.agents.heuristics.line_evaluation import (
    ZUGZWANG,
    LineEvaluation,
    LineWeights,
    line_evaluator,
    line_weights,
    raw_bound,
)

POSITIONS = RESULTS / "evaluation_positions.txt"
FEATURES = ("lines", "threat", "zugzwang")
"""The ``LineWeights`` fields; ``lines`` is one feature per counted length."""


@dataclass(frozen=True)
class Board:
    """One board's solved positions: their features (one row each), outcomes and plies."""

    features: np.ndarray
    outcomes: np.ndarray
    plies: np.ndarray


def unit_weights(inarow: int) -> list[LineWeights]:
    """One ``LineWeights`` per feature with that feature's weight 1 and every other 0."""
    lengths = [k for k, weight in enumerate(line_weights(inarow).lines) if weight]
    zero = LineWeights(tuple(0 for _ in range(inarow)), 0, 0)
    units = [replace(zero, lines=tuple(int(k == length) for k in range(inarow))) for length in lengths]
    return units + [replace(zero, **{name: 1}) for name in FEATURES[1:]]


def load(path: Path) -> dict[str, Board]:
    """Each board's positions, with the evaluation's raw features computed by the evaluation itself."""
    rows: dict[str, list[tuple[list[int], int, int]]] = {}
    counters: dict[str, list[tuple[LineEvaluation, int]]] = {}  # per board: each unit evaluation and its bound
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            board, moves, score = line.split()
            config = clocked_board(board)
            position = Position.from_moves(moves, config.rows, config.columns, config.inarow)
        except ValueError as error:
            raise ValueError(f"{path}:{number}: {error}") from None
        if board not in counters:
            shape = geometry(config.rows, config.columns, config.inarow)
            counters[board] = [
                (line_evaluator(shape, unit), raw_bound(shape, unit)) for unit in unit_weights(config.inarow)
            ]
        mine, theirs = position.winning_cells(), position.opponent_winning_cells()
        # The evaluation is linear in its weights: with one weight 1 it gives that feature's raw count.
        features = [
            round(evaluate(position.current, position.mask, position.moves, theirs, mine) * bound)
            for evaluate, bound in counters[board]
        ]
        rows.setdefault(board, []).append((features, int(score), position.moves))
    return {
        board: Board(
            np.array([f for f, _, _ in found], float),
            np.sign([s for _, s, _ in found]),
            np.array([p for _, _, p in found]),
        )
        for board, found in rows.items()
    }


def ranked_right(values: np.ndarray, outcomes: np.ndarray, groups: np.ndarray | None = None) -> float:
    """The share of pairs with different outcomes whose better one has the higher value (a tie counts half)."""
    right = pairs = 0.0
    for group in np.unique(groups) if groups is not None else [None]:
        chosen = groups == group if groups is not None else slice(None)
        better = outcomes[chosen][:, None] > outcomes[chosen][None, :]
        order = np.sign(values[chosen][:, None] - values[chosen][None, :])
        right += ((order > 0) & better).sum() + 0.5 * ((order == 0) & better).sum()
        pairs += better.sum()
    return right / pairs


def rankings(values: np.ndarray, outcomes: np.ndarray, plies: np.ndarray) -> tuple[str, str]:
    """``ranked_right`` over all pairs and over same-ply pairs, printed to four places."""
    return f"{ranked_right(values, outcomes):.4f}", f"{ranked_right(values, outcomes, plies):.4f}"


def fit(features: np.ndarray, outcomes: np.ndarray, steps: int = 4000, rate: float = 0.05) -> np.ndarray:
    """Ordinal logistic regression: P(outcome > loss) and P(outcome > draw) share one linear value."""
    scale = features.std(axis=0) + 1e-9
    x = features / scale  # standardised, so one learning rate suits every feature
    weights, cuts = np.zeros(x.shape[1]), np.array([-0.5, 0.5])
    for _ in range(steps):
        value = x @ weights
        gradient, cut_gradient = np.zeros_like(weights), np.zeros(2)
        for index, above in enumerate((-1, 0)):
            error = 1 / (1 + np.exp(cuts[index] - value)) - (outcomes > above)
            gradient += x.T @ error / len(x)
            cut_gradient[index] = -error.mean()
        weights -= rate * (gradient + 1e-3 * weights)
        cuts -= rate * cut_gradient
    return weights / scale


def weight_vector(weights: LineWeights) -> np.ndarray:
    """``weights`` as one number per feature, in ``unit_weights``' order."""
    return np.array([w for w in weights.lines if w] + [getattr(weights, name) for name in FEATURES[1:]], float)


def parse_feature_weights(text: str, count: int) -> np.ndarray:
    """``--weights`` as ``count`` numbers; ValueError saying what to give otherwise."""
    try:
        values = [float(value) for value in text.split(",")]
    except ValueError:
        values = []
    if len(values) != count:
        raise ValueError(
            f"--weights {text}: give {count} numbers, comma-separated (the counted line lengths' "
            "weights, then the threat's and the zugzwang's)"
        )
    return np.array(values)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--weights",
        help="other weights to measure, comma-separated: the counted line "
        "lengths' (shortest first), then the threat's and the zugzwang's",
    )
    parser.add_argument("--fit", action="store_true", help="fit the weights and compare them on held-out positions")
    parser.add_argument("--positions", type=Path, default=POSITIONS, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        boards = load(args.positions)
        default = {board: weight_vector(line_weights(clocked_board(board).inarow)) for board in boards}
        other = (
            {board: parse_feature_weights(args.weights, len(vector)) for board, vector in default.items()}
            if args.weights
            else None
        )
    except (OSError, ValueError) as error:
        print(f"evaluation_ranking: {error}", file=sys.stderr)
        return 2
    print("pairs of positions with different outcomes ranked right: all pairs / pairs of the same ply")
    for board, found in boards.items():
        line = f"{board}: {len(found.outcomes)} positions; default weights"
        line += " {} / {}".format(*rankings(found.features @ default[board], found.outcomes, found.plies))
        if other is not None:
            line += "; --weights {} / {}".format(*rankings(found.features @ other[board], found.outcomes, found.plies))
        print(line)
    if args.fit:
        report_fit(boards, default)
    return 0


def report_fit(boards: dict[str, Board], default: dict[str, np.ndarray]) -> None:
    """Fit on two thirds of every board's positions together; rank the other third with both weights."""
    shapes = {len(vector) for vector in default.values()}
    if len(shapes) > 1:
        print("--fit: the boards count different line lengths (mixed inarow); fit one inarow at a time")
        return
    held_out = {board: np.arange(len(found.outcomes)) % 3 == 0 for board, found in boards.items()}
    features = np.vstack([found.features[~held_out[board]] for board, found in boards.items()])
    outcomes = np.concatenate([found.outcomes[~held_out[board]] for board, found in boards.items()])
    fitted = fit(features, outcomes)
    print("held-out third, default / fitted weights:")
    for board, found in boards.items():
        test = held_out[board]
        default_all, default_same_ply = rankings(
            found.features[test] @ default[board], found.outcomes[test], found.plies[test]
        )
        fitted_all, fitted_same_ply = rankings(found.features[test] @ fitted, found.outcomes[test], found.plies[test])
        print(f"  {board}: all pairs {default_all} / {fitted_all}; same ply {default_same_ply} / {fitted_same_ply}")
    scaled = fitted * (ZUGZWANG / fitted[-1])
    print("fitted weights, scaled to the default zugzwang weight:", ",".join(f"{w:.0f}" for w in scaled))


if __name__ == "__main__":
    sys.exit(main())
