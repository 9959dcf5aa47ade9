"""``mcts``: UCB1 Monte Carlo tree search with random rollouts, after Sheoran et al. (2021).

Each simulation walks down the tree by UCB1 (mean value + c * sqrt(ln N / n), c = 2 in the
paper), adds one child, plays random moves to the end of the game and backs the result up the
path. Three things go beyond the paper, none of which changes its idea:

- *MCTS-solver* (``proofs``): a node whose outcome is known (its move completes a line, or its
  mover can complete one at once, or every child is proven) is marked proven, proofs are
  propagated up the tree, proven nodes are never rolled out again, and children proven lost are
  never chosen;
- the tree is kept between moves and reused when the new position descends from the old root (``reuse``);
- the move played is the one in ``final_choice_key``: a proven win, else the most visited child.

With ``proofs=false`` and ``reuse=false`` it is the paper's plain UCB1 search: a finished game (a
line or a full board) is a leaf whose result is backed up as a rollout's would be, nothing is
proven, and the move played is the most visited child.

The time budget is wall time (``clock="wall"``) or CPU seconds of this process (``clock="cpu"``,
``time.process_time``): a move then gets the same computation however busy the machine is. Kaggle
runs both agents of a game in one process, one move at a time, so the process's CPU time during a
move is this agent's own.

Values are stored from the point of view of the player who made the move into the node: a win
for that player is 1, a draw 0.5, a loss 0.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.strategy import MoveStats

WIN, DRAW, LOSS = 1.0, 0.5, 0.0
CLOCKS = ("wall", "cpu")


class Node:
    """Statistics of one position in the tree; ``proven`` is its exact value once known, else None."""

    __slots__ = ("position", "column", "children", "untried", "visits", "total", "proven")

    def __init__(
        self, position: Position, column: int = -1, untried: list[int] | None = None, proofs: bool = True
    ) -> None:
        self.position = position
        self.column = column
        self.children: list[Node] = []
        self.untried = position.legal_columns() if untried is None else untried
        self.visits = 0
        self.total = 0.0
        self.proven: float | None = _known_value(position) if proofs else None
        if self.proven is not None or not proofs and position.is_over():
            self.untried = []

    def mean(self) -> float:
        """The average result for the player who moved into this node (0.5 before any visit)."""
        return self.total / self.visits if self.visits else DRAW

    def __repr__(self) -> str:
        return f"Node(column={self.column}, visits={self.visits}, mean={self.mean():.3f}, proven={self.proven})"


def _known_value(position: Position) -> float | None:
    """The value for the player who just moved, when the position settles it without search."""
    if position.is_won():
        return WIN
    if position.is_full():
        return DRAW
    if position.winning_cells() & position.geometry.possible(position.mask):
        return LOSS
    return None


def ucb(child: Node, parent_visits: int, exploration: float) -> float:
    """UCB1 of ``child`` for the player choosing at its parent."""
    return child.mean() + exploration * math.sqrt(math.log(parent_visits) / child.visits)


def final_choice_key(child: Node) -> tuple[bool, bool, int, float]:
    """The rule for the move played, largest key first.

    A child proven won for the mover beats everything; a child proven lost comes last; among
    the rest the most visited wins, ties going to the higher mean value (then to the earlier
    child, which is the one nearer the centre, as children are made centre first).
    """
    return (child.proven == WIN, child.proven != LOSS, child.visits, child.mean())


def choose_child(root: Node) -> Node:
    """The child ``final_choice_key`` ranks first (``max`` keeps the earliest of equal keys)."""
    return max(root.children, key=final_choice_key)


def rollout(position: Position, rng: random.Random) -> float:
    """Random legal moves to the end of the game: the result for the player who moved into ``position``."""
    shape = position.geometry
    current, mask, moves = position.current, position.mask, position.moves
    top_bits, bottom_bits, columns = shape.top_bits, shape.bottom_bits, range(shape.columns)
    has_line, random_fraction = shape.has_line, rng.random
    opponent_moves = True
    while moves < shape.cells:
        open_columns = [c for c in columns if not mask & top_bits[c]]
        column = open_columns[int(random_fraction() * len(open_columns))]
        played = mask | (mask + bottom_bits[column])
        mine = current | (played ^ mask)
        if has_line(mine):
            return LOSS if opponent_moves else WIN
        current, mask = mine ^ played, played
        moves += 1
        opponent_moves = not opponent_moves
    return DRAW


class TreeSearch:
    """A UCB1 tree over one root, grown by ``simulate`` and reusable after moves are played."""

    def __init__(self, root: Position, exploration: float, rng: random.Random, proofs: bool = True) -> None:
        self.proofs = proofs
        self.root = Node(root, proofs=proofs)
        self.exploration = exploration
        self.rng = rng
        self.simulations = 0
        self.rollouts = 0

    def simulate(self) -> None:
        """One selection-expansion-rollout-backpropagation pass."""
        path = self._select()
        leaf = path[-1]
        if leaf.proven is not None:
            result = leaf.proven
        elif not self.proofs and leaf.position.is_over():
            result = WIN if leaf.position.is_won() else DRAW  # for the player who made the finishing move
        else:
            result = rollout(leaf.position, self.rng)
            self.rollouts += 1
        self._backpropagate(path, result)
        self.simulations += 1

    def _select(self) -> list[Node]:
        """The visit path: UCB1 down through expanded nodes, then one new child if any is left."""
        node = self.root
        path = [node]
        while node.proven is None:
            if node.untried:
                column = node.untried.pop(0)
                child = Node(node.position.play(column), column, proofs=self.proofs)
                node.children.append(child)
                path.append(child)
                return path
            if not node.children:  # a finished game (only without proofs: with them it is proven)
                return path
            node = max(
                (c for c in node.children if c.proven != LOSS), key=lambda c: ucb(c, node.visits, self.exploration)
            )
            path.append(node)
        return path

    def _backpropagate(self, path: list[Node], result: float) -> None:
        """Add ``result`` (for the player who moved into the leaf) along the path, and settle proofs."""
        for node in reversed(path):
            node.visits += 1
            node.total += result
            result = 1.0 - result  # the parent's mover is the other player: a win for one is a loss for the other
        if not self.proofs:
            return
        for parent in reversed(path[:-1]):
            if parent.proven is not None or not _settle(parent):
                break

    def descend(self, position: Position) -> bool:
        """Make the node for ``position`` the root if it lies within two plies; False if it does not."""
        for node in _within_two_plies(self.root):
            if node.position == position:
                self.root = node
                return True
        return False


def _settle(node: Node) -> bool:
    """Mark ``node`` proven if its children decide it; whether they did.

    Its mover wins if any child is a proven win for it; otherwise, once every child exists
    and is proven, the node is worth the best child's value for the mover, seen from the other side.
    """
    children = node.children
    if any(child.proven == WIN for child in children):
        node.proven = LOSS
        return True
    if node.untried or any(child.proven is None for child in children):
        return False
    node.proven = 1.0 - max(child.proven for child in children if child.proven is not None)
    return True


def _within_two_plies(root: Node) -> Iterator[Node]:
    yield root
    for child in root.children:
        yield child
        yield from child.children


class MctsStrategy:
    """Runs simulations until the time budget (or the simulation cap) is spent, keeping the tree."""

    def __init__(
        self,
        time_budget: float | None = None,
        simulations: int | None = None,
        exploration: float = 2.0,
        reuse: bool = True,
        seed: int | None = None,
        proofs: bool = True,
        clock: str = "wall",
    ) -> None:
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"mcts time_budget {time_budget}: expected seconds > 0, or none for most of actTimeout")
        if simulations is not None and simulations < 1:
            raise ValueError(f"mcts simulations {simulations}: expected 1 or more, or none for no cap")
        if exploration < 0:
            raise ValueError(f"mcts exploration {exploration}: expected 0 or more")
        if clock not in CLOCKS:
            raise ValueError(f"mcts clock={clock}: expected one of {', '.join(CLOCKS)}")
        if clock == "cpu" and time_budget is None:
            raise ValueError("mcts clock=cpu needs a time_budget, the CPU seconds per move")
        # A simulation cap replaces the budget (a capped move is reproducible): it then stops only at
        # the hard deadline, which the guard caps at ``time_budget`` otherwise. On the CPU clock the
        # strategy counts its own budget, so the guard leaves the wall deadline at Kaggle's.
        capped = simulations is not None
        self.time_budget = None if capped or clock == "cpu" else time_budget
        self.cpu_budget = time_budget if clock == "cpu" and not capped else None
        self.simulations = simulations
        self.exploration = exploration
        self.reuse = reuse
        self.proofs = proofs
        self.seed = seed
        self.rng = random.Random(seed)
        self.tree: TreeSearch | None = None
        self.last_stats: MoveStats = {}

    def search(self, position: Position, deadline: Deadline) -> TreeSearch:
        """The tree for ``position`` grown until the budget, cap or a proof ends the move."""
        tree = self.tree
        if tree is None or not self.reuse or not tree.descend(position):
            tree = TreeSearch(position, self.exploration, self.rng, self.proofs)
        tree.simulations = tree.rollouts = 0
        root = tree.root
        if root.proven is not None and not root.children:
            root.children = [Node(root.position.play(column), column) for column in root.position.legal_columns()]
        cap = self.simulations
        cpu_stop = None if self.cpu_budget is None else time.process_time() + self.cpu_budget
        while tree.root.proven is None:
            if cap is not None and tree.simulations >= cap:
                break
            if cap is None and deadline.expired():
                break
            if cpu_stop is not None and time.process_time() >= cpu_stop:
                break
            tree.simulate()
            if cap is not None and deadline.expired():
                break
        return tree

    def choose(self, position: Position, deadline: Deadline) -> int:
        tree = self.search(position, deadline)
        if not tree.root.children:
            tree.simulate()
        child = choose_child(tree.root)
        self.last_stats = {
            "nodes": tree.simulations,
            "depth": 0,
            "evaluations": tree.rollouts,
            "simulations": tree.simulations,
            "source": "proof" if tree.root.proven is not None else "search",
        }
        tree.root = child
        self.tree = tree
        return child.column

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        self.tree = None


def make_strategy(
    time_budget: float | None = None,
    simulations: int | None = None,
    exploration: float = 2.0,
    reuse: bool = True,
    seed: int | None = None,
    proofs: bool = True,
    clock: str = "wall",
) -> MctsStrategy:
    """UCB1 MCTS with random rollouts and MCTS-solver proofs.

    ``time_budget`` is seconds per move (default: Kaggle's actTimeout less the boundary's
    margin); ``simulations`` caps the simulations per move (with a cap the clock stops only at
    the hard deadline, so a seed fixes the game); ``exploration`` is UCB1's c (the paper's 2);
    ``reuse=false`` starts a fresh tree every move; ``proofs=false`` turns off the MCTS-solver
    proofs; ``clock=cpu`` measures ``time_budget`` in CPU seconds of this process rather than
    wall seconds (Kaggle's actTimeout, wall time, still stops the move).

    Sheoran's plain UCB1 MCTS as written: ``proofs=false,reuse=false`` (c = 2 and random rollouts
    to the end of the game are the defaults).
    """
    return MctsStrategy(time_budget, simulations, exploration, reuse, seed, proofs, clock)
