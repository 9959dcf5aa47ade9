"""The solver on boards without an opening book: real games against mcts, minimax and the previous solver.

The targets: ``solver`` scores at least 90% against ``mcts`` and 95% against ``minimax`` (both at
their defaults) on boards without a book, with a mean move under 1.5 s, and shows its gain over
the solver before its open-board play (built from ``PREVIOUS_COMMIT``). Each cell of the table is
a match of colour-swapped pairs from shared random openings (``--openings`` plies, the same for
both games of a pair), played and scored by the harness in kaggle-environments on Kaggle's clock
(``actTimeout`` 2 s and the 60 s overage bank). The cells are played in rounds of ``--step``
games each, so a run stopped early still covers every cell; each cell's games go to
benchmarks/results/other-boards/<board>/<solver>-vs-<opponent>/ (``--out``), ``--resume``
continues them, and ``--table`` prints the table of the whole pairs stored so far without playing a
game. The games are kept in the repository: the whole run takes about 5.5 hours of both cores, more
than one sitting, and the table can be checked from a clone. Each cell records a digest of the
agents' code it was played with (``agents.sha256``), and a cell played by other code is refused on
``--resume`` and marked in ``--table``: its games measure another agent.

The boards: 8x7/4, 9x7/4 and 10x8/5, and 7x7/4 in place of 6x5/4. On
6x5/4 most 2-ply openings are already decided and within the proofs' reach a few plies later:
in a 20-game run against ``mcts`` every opening of a game the solver did not win was proven
(exact search) a first-player win or a draw, and ``mcts``' own proofs then hold the draw or the
win, so colour-swapped pairs cap the score near 50% plus the opponent's early slips whatever
the solver does. 7x7/4 is as big as 7x6 (no book) and its openings are not decided within a move.

The table gives, per cell, the games played, W/D/L overall and in each seat (the solver moving
first, then second), the score with its Wilson 95% interval, the target, and the solver's mean and
largest move time.

Usage: .venv/bin/python -m benchmarks.other_boards [--games 60] [--step 10] [--boards 8x7/4 ...]
       [--opponents mcts minimax previous] [--jobs N] [--out DIR] [--resume | --table]
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path

from benchmarks.conditions import jobs_phrase, machine_conditions
from benchmarks.matches import Progress, slug, wdl
from benchmarks.revisions import RevisionError, revision_agent
from connectx.agents.agent_spec import AgentSpec
from connectx.agents.board_spec import BoardSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.match import MatchPlan, MatchResult, play_match
from connectx.evaluation.provenance import hash_tree
from connectx.evaluation.results_store import ResultsStore
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import default_jobs

OUT = Path("benchmarks") / "results" / "other-boards"
AGENTS = Path(__file__).resolve().parent.parent / "agents"
FINGERPRINT = "agents.sha256"
"""The file in each cell's directory naming the agents' code its games were played with."""
BOARDS = ("8x7/4", "9x7/4", "7x7/4", "10x8/5")
"""Columns x rows / in a row: Kaggle writes the columns first."""

SOLVER = "solver"
PREVIOUS_COMMIT = "3798f90d254aa5ff034e06136f82e33c77faf5e9"
"""The last commit whose solver played every board as it plays 7x6 past its book (depth-limited
iterations, then the exact search's proofs on the rest of the clock): the previous solver."""
REVISIONS = Path("out") / "bench" / "revisions"
"""Where the previous solver's agent file is built (once) and read from."""

OPPONENTS = {"mcts": "mcts", "minimax": "minimax", "previous": f"solver-{PREVIOUS_COMMIT[:12]}"}
"""Each opponent's name in the cells' directories; ``opponent_spec`` gives the agent that plays."""
TARGETS = {"mcts": 0.90, "minimax": 0.95}
"""The score each opponent must be beaten by; the previous solver's cell shows the gain."""

MEAN_MOVE_TARGET = 1.5
ACT_TIMEOUT = 2.0


@dataclass(frozen=True)
class Matchup:
    """One cell of the table: the solver against ``opponent`` (a key of ``OPPONENTS``) on ``board``."""

    board: str
    opponent: str

    @property
    def config(self) -> BoardConfig:
        return clocked_board(self.board)

    def directory(self, root: Path, solver: str) -> Path:
        return root / self.board.replace("/", "-") / f"{slug(solver)}-vs-{OPPONENTS[self.opponent]}"


def opponent_spec(opponent: str) -> str:
    """The agent spec ``opponent`` plays as: the previous solver is its commit's agent file, built once."""
    if opponent == "previous":
        return str(revision_agent(PREVIOUS_COMMIT, SOLVER, REVISIONS))
    return OPPONENTS[opponent]


def clocked_board(text: str) -> BoardConfig:
    """The board ``text`` writes (``8x7/4``: 8 columns, 7 rows, 4 in a row) on the benchmarks' clock;
    a BoardSpecError (a ValueError) saying what to give otherwise."""
    return BoardConfig.of(BoardSpec.parse(text), ACT_TIMEOUT)


def check_rounds(boards: list[str], games: int, step: int) -> None:
    """ValueError saying what to give when a board is unreadable or games per board or round are not whole pairs."""
    for board in boards:
        clocked_board(board)
    if games < 2 or games % 2 or step < 2 or step % 2:
        raise ValueError(f"--games {games} --step {step}: give even numbers of at least 2 (colour-swapped pairs)")


def agents_fingerprint() -> str:
    """A digest of every source and data file under agents/: what a cell's games measure."""
    digest = hashlib.sha256()
    hash_tree(digest, AGENTS)
    return digest.hexdigest()


def played_by_other_code(directory: Path, fingerprint: str) -> bool:
    """Whether a cell's stored games were played by agents' code other than ``fingerprint``'s."""
    recorded = directory / FINGERPRINT
    return directory.exists() and (not recorded.exists() or recorded.read_text().strip() != fingerprint)


def recorded_games(directory: Path) -> int:
    """Games already stored in a cell's run directory (0 when there is none)."""
    return len(ResultsStore(directory).load())


def complete_pairs(directory: Path) -> int:
    """The stored games of a cell up to its first missing one, in whole colour-swapped pairs.

    Games finish out of order on several jobs, so a stopped run may hold game 13 but not game 12.
    """
    stored = {record.index for record in ResultsStore(directory).load()}
    games = 0
    while games in stored:
        games += 1
    return games - games % 2


def cell_plan(cell: Matchup, specs: dict[str, str], args: argparse.Namespace, games: int) -> MatchPlan:
    """The match of ``cell``'s first ``games`` games: the solver against the cell's opponent on its board."""
    solver, opponent = AgentSpec.of(args.solver), AgentSpec.of(specs[cell.opponent])
    return MatchPlan(solver, opponent, games, config=cell.config, seed=15, opening_plies=args.openings)


def table(results: dict[Matchup, MatchResult], solver: str) -> str:
    """The Markdown table of every cell played, with the targets met or not."""
    lines = [
        f"| board | opponent | games | W/D/L | as first | as second | score (Wilson 95%) | target "
        f"| {solver} mean s | max s |",
        "|---|---|---:|---|---|---|---|---|---:|---:|",
    ]
    for cell, result in results.items():
        summary = result.summary
        total, score = summary.total, summary.score
        times = summary.times[summary.first]
        target = TARGETS.get(cell.opponent)
        verdict = "gain" if target is None else f">= {target:.2f}: " + ("met" if score.value >= target else "NOT met")
        lines.append(
            f"| {cell.board} | {OPPONENTS[cell.opponent]} | {total.games} | "
            f"{wdl(total)} | {wdl(summary.as_first)} | {wdl(summary.as_second)} | "
            f"{score.value:.3f} [{score.low:.3f}, {score.high:.3f}] | "
            f"{verdict} | {times.mean:.2f} | {times.max:.2f} |"
        )
    return "\n".join(lines)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per cell, even (default 60)")
    parser.add_argument("--step", type=int, default=10, help="games per cell per round, even (default 10)")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), help="boards as COLUMNSxROWS/INAROW")
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS), choices=list(OPPONENTS))
    parser.add_argument("--solver", default=SOLVER, help="the solver's spec (default: solver, Kaggle's clock)")
    parser.add_argument("--openings", type=int, default=2, help="random opening plies shared by a pair (default 2)")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="games at once (default: the cores)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where the cells' games are kept (default {OUT})")
    parser.add_argument("--resume", action="store_true", help="continue the runs in their output directories")
    parser.add_argument(
        "--table", action="store_true", help="print the table of the complete pairs stored so far and play nothing"
    )
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        check_rounds(args.boards, args.games, args.step)
    except ValueError as error:
        print(f"other_boards: {error}", file=sys.stderr)
        return 2
    cells = [Matchup(board, opponent) for board in args.boards for opponent in args.opponents]
    try:
        specs = {opponent: opponent_spec(opponent) for opponent in args.opponents}
    except RevisionError as error:
        print(f"other_boards: the previous solver: {error}", file=sys.stderr)
        return 2
    if args.table:
        return print_stored(cells, specs, args)
    directories = {cell: cell.directory(args.out, args.solver) for cell in cells}
    existing = [directory for directory in directories.values() if directory.exists()]
    if existing and not args.resume:
        print(f"other_boards: {existing[0]} exists; continue it with --resume, or remove it", file=sys.stderr)
        return 2
    fingerprint = agents_fingerprint()
    stale = [directory for directory in existing if played_by_other_code(directory, fingerprint)]
    if stale:
        print(
            f"other_boards: {stale[0]} holds games played by other agents' code (agents/ changed since); "
            "move it aside to play the cell again",
            file=sys.stderr,
        )
        return 2
    print(f"{args.solver} on boards without a book, {jobs_phrase(args.jobs)}; at the start {machine_conditions()}")
    done = sum(min(args.games, recorded_games(directory)) for directory in directories.values())
    progress = Progress(args.games * len(cells), done)
    results: dict[Matchup, MatchResult] = {}
    for target in range(args.step, args.games + args.step, args.step):
        for cell in cells:
            games = min(target, args.games)
            directory = directories[cell]
            directory.mkdir(parents=True, exist_ok=True)
            (directory / FINGERPRINT).write_text(fingerprint + "\n")
            results[cell] = play_match(
                cell_plan(cell, specs, args, games),
                PlayOptions(jobs=args.jobs, out=directory, resume=directory.exists()),
                on_game=progress.on_game(f"{cell.board} vs {cell.opponent}"),
            )
    progress.close()
    print(f"\nat the end {machine_conditions()}")
    print_results(results, args.solver)
    return 0


def print_stored(cells: list[Matchup], specs: dict[str, str], args: argparse.Namespace) -> int:
    """``--table``: the table of what each cell's directory holds in whole pairs, with no game played."""
    results: dict[Matchup, MatchResult] = {}
    fingerprint = agents_fingerprint()
    stale = []
    for cell in cells:
        directory = cell.directory(args.out, args.solver)
        games = min(args.games, complete_pairs(directory))
        if games:
            results[cell] = play_match(
                cell_plan(cell, specs, args, games), PlayOptions(jobs=1, out=directory, resume=True)
            )
            if played_by_other_code(directory, fingerprint):
                stale.append(f"{cell.board} vs {cell.opponent}")
    if not results:
        print(f"other_boards: no games stored under {args.out}; play some first (without --table)", file=sys.stderr)
        return 2
    print(f"{args.solver} on boards without a book: the games stored so far")
    print_results(results, args.solver)
    if stale:
        print(f"played by other agents' code than this checkout's (agents/ changed since): {', '.join(stale)}")
    return 0


def print_results(results: dict[Matchup, MatchResult], solver: str) -> None:
    print(table(results, solver))
    slow = [
        cell for cell, result in results.items() if result.summary.times[result.summary.first].mean >= MEAN_MOVE_TARGET
    ]
    print(f"mean move under {MEAN_MOVE_TARGET} s in every cell: {'met' if not slow else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
