"""Fuzz every registered agent through Kaggle's call: illegal moves, faults and late moves must all be 0.

Each agent, at its registry defaults (Kaggle's clock, no time_budget), answers ``--moves`` random
legal positions (the game still on) of random boards within ``connectx.agents.board_spec``'s limits (rows and
columns 1-12, inarow 2-8 and at most the longer side, so a line always fits), with Kaggle's default
7x6/4 for a fifth of them. Each position is asked exactly as Kaggle asks it,
``agent(observation, configuration)`` with plain dicts, a random ``remainingOverageTime`` (0-60 s)
and an ``actTimeout`` drawn from ``ACT_TIMEOUTS`` (short, so that 50,000 moves fit in hours on 2
cores; the guard's 0.3 s margin is then most of a move's time). Per agent it prints the moves,
illegal answers, the faults the agent's guard recorded (by kind), moves over actTimeout (that no
overage drawn on purpose paid for), moves that drew on the overage bank, and the mean and slowest
move with its geometry. Exit status 1 if any illegal move, fault or late move was seen.

Positions come in chunks of ``CHUNK`` moves, each a fresh agent (as in a new game) answering
positions drawn from ``--seed`` and the chunk's number, so every agent meets the same positions.
Finished chunks are appended to ``--out`` (one JSON line each) as they come, and ``--resume``
continues an interrupted run where it stopped::

    .venv/bin/python -m benchmarks.fuzz --moves 10000 --resume
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tqdm import tqdm

from benchmarks.conditions import machine_conditions
from connectx.agents.agent_spec import AgentSpec
from connectx.agents.board_spec import MAX_SIDE, MIN_INAROW, MIN_SIDE, BoardSpec
from connectx.agents.core.kaggle_boundary import FaultKind, board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.registry import REGISTRY

ACT_TIMEOUTS = (0.2, 0.5, 1.0)
"""The actTimeout of a position, drawn uniformly: the search gets 0.05, 0.2 and 0.7 s of them."""
KAGGLE_SHARE = 0.2
"""Share of the positions on Kaggle's default board, 6 rows, 7 columns, 4 in a row."""
MAX_INAROW = 8
"""The longest line drawn; a board's longer side caps it too, so that a line fits (``connectx.agents.board_spec``)."""
BOARDS = f"rows and columns {MIN_SIDE}-{MAX_SIDE}, inarow {MIN_INAROW}-{MAX_INAROW} within the longer side"
CHUNK = 20
"""Moves per chunk: per fresh agent, and per line of the results file."""
DEFAULT_OUT = Path("out") / "bench" / "fuzz.jsonl"


@dataclass(frozen=True)
class Question:
    """One position as Kaggle would ask it: the board size, the 0-based columns played, the clock."""

    rows: int
    columns: int
    inarow: int
    moves: tuple[int, ...]
    act_timeout: float
    overage: float

    def position(self) -> Position:
        return Position.replayed(self, self.moves)

    @property
    def board(self) -> BoardSpec:
        return BoardSpec(self.rows, self.columns, self.inarow)

    def describe(self) -> str:
        return f"{self.board} with {len(self.moves)} stones, actTimeout {self.act_timeout:g} s"


def random_question(rng: random.Random, max_overage: float) -> Question:
    """A random legal position, game still on, with random clock settings.

    Random moves that never complete a line, up to a random number of stones below the full board,
    so every fill level occurs (a purely random game ends early on most boards).
    """
    board = BoardSpec() if rng.random() < KAGGLE_SHARE else random_board(rng)
    position = Position.replayed(board)
    target = rng.randint(0, position.geometry.cells - 1)
    played: list[int] = []
    while position.moves < target:
        quiet = [c for c in position.legal_columns() if not position.is_winning_move(c)]
        if not quiet:
            break
        column = rng.choice(quiet)
        position = position.play(column)
        played.append(column)
    return Question(
        board.rows,
        board.columns,
        board.inarow,
        tuple(played),
        rng.choice(ACT_TIMEOUTS),
        round(rng.uniform(0.0, max_overage), 3),
    )


def random_board(rng: random.Random) -> BoardSpec:
    """A board of ``BOARDS``: its sides first (drawn again for a 1x1, where no line fits), then inarow."""
    while True:
        rows, columns = rng.randint(MIN_SIDE, MAX_SIDE), rng.randint(MIN_SIDE, MAX_SIDE)
        longest = min(max(rows, columns), MAX_INAROW)
        if longest >= MIN_INAROW:
            return BoardSpec(rows, columns, rng.randint(MIN_INAROW, longest))


def chunk_questions(seed: int, chunk: int, count: int, max_overage: float) -> list[Question]:
    rng = random.Random(f"fuzz:{seed}:{chunk}")
    return [random_question(rng, max_overage) for _ in range(count)]


def kaggle_call(question: Question, position: Position) -> tuple[dict[str, Any], dict[str, Any]]:
    """The observation and configuration Kaggle's ConnectX passes (as plain dicts)."""
    observation = {
        "board": board_of(position),
        "mark": mark_of(position),
        "step": position.moves,
        "remainingOverageTime": question.overage,
    }
    configuration = {
        "rows": question.rows,
        "columns": question.columns,
        "inarow": question.inarow,
        "actTimeout": question.act_timeout,
        "episodeSteps": 1000,
        "runTimeout": 2400,
        "agentTimeout": 60,
        "timeout": 2,
    }
    return observation, configuration


def play_chunk(task: tuple[str, int, int, int, float]) -> dict[str, Any]:
    """One chunk: a fresh agent answers its questions; the JSON-ready record of every answer."""
    name, seed, chunk, count, max_overage = task
    agent = AgentSpec.parse(name).build()
    answers = []
    for question in chunk_questions(seed, chunk, count, max_overage):
        position = question.position()
        observation, configuration = kaggle_call(question, position)
        faults_before, draws_before = len(agent.faults), len(agent.overage_draws)
        started = time.perf_counter()
        column = agent(observation, configuration)
        seconds = time.perf_counter() - started
        draws = agent.overage_draws[draws_before:]
        answers.append(
            {
                "question": asdict(question),
                "column": column if type(column) is int else repr(column),
                "legal": type(column) is int and column in position.legal_columns(),
                "seconds": round(seconds, 6),
                "faults": [fault.kind.value for fault in agent.faults[faults_before:]],
                "drew": round(draws[0].granted, 6) if draws else None,
            }
        )
    return {"agent": name, "chunk": chunk, "answers": answers}


@dataclass(frozen=True)
class Settings:
    """What a results file was written with: resuming with anything else would mix two runs."""

    seed: int
    chunk: int
    act_timeouts: tuple[float, ...]
    kaggle_share: float
    max_overage: float
    boards: str = BOARDS
    """The boards drawn, so that a file drawn from other boards is not resumed."""

    def to_json(self) -> dict[str, Any]:
        return {"settings": {**asdict(self), "act_timeouts": list(self.act_timeouts)}}


def read_results(path: Path, settings: Settings) -> dict[tuple[str, int], dict[str, Any]]:
    """The finished chunks in ``path`` by (agent, chunk); ValueError if it was written with other settings."""
    lines = path.read_text().splitlines()
    if not lines:
        return {}
    header = json.loads(lines[0])
    if header != settings.to_json():
        raise ValueError(
            f"{path} was written with {header.get('settings')}; resume with those (--seed, "
            "--max-overage) or choose another --out"
        )
    done = {}
    for text in lines[1:]:
        try:
            record = json.loads(text)
        except ValueError:
            continue  # a line torn by a kill: played again
        done[(record["agent"], record["chunk"])] = record
    return done


def late(answer: dict[str, Any]) -> bool:
    """Over actTimeout, measured around Kaggle's call, without overage drawn on purpose to pay for it."""
    return answer["seconds"] > answer["question"]["act_timeout"] and answer["drew"] is None


def agent_summary(name: str, answers: list[dict[str, Any]]) -> tuple[str, bool]:
    """One table row for ``name`` and whether it is clean (no illegal move, fault or late move)."""
    illegal = sum(1 for a in answers if not a["legal"])
    kinds = Counter(kind for a in answers for kind in a["faults"])
    faults = sum(kinds.values())
    over = sum(1 for a in answers if late(a))
    drew = [a for a in answers if a["drew"] is not None]
    longest_draw = max((a["seconds"] - a["question"]["act_timeout"] for a in drew), default=0.0)
    on_the_clock = [a for a in answers if a["drew"] is None] or answers
    slowest = max(on_the_clock, key=lambda a: a["seconds"])
    by_kind = ", ".join(f"{kind.value} {kinds[kind.value]}" for kind in FaultKind if kinds[kind.value]) or "none"
    row = (
        f"| {name} | {len(answers)} | {illegal} | {faults} ({by_kind}) | {over} | "
        f"{len(drew)} ({longest_draw:.2f} s) | {statistics.fmean(a['seconds'] for a in answers):.3f} | "
        f"{slowest['seconds']:.3f} s: {Question(**slowest['question']).describe()} |"
    )
    return row, illegal == 0 and faults == 0 and over == 0


def tasks(names: list[str], settings: Settings, moves: int) -> Iterator[tuple[str, int, int]]:
    """``(agent, chunk, count)`` for every chunk, chunk by chunk across the agents so all progress together."""
    for chunk in range((moves + settings.chunk - 1) // settings.chunk):
        count = min(settings.chunk, moves - chunk * settings.chunk)
        for name in names:
            yield name, chunk, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=10_000, help="moves per agent (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (default 1)")
    parser.add_argument("--agents", nargs="*", default=sorted(REGISTRY), help="registry names (default: all)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument(
        "--max-overage",
        type=float,
        default=60.0,
        help="remainingOverageTime is drawn from 0 to this (default 60, Kaggle's bank)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"results file (default {DEFAULT_OUT})")
    parser.add_argument("--resume", action="store_true", help="continue the run in --out")
    args = parser.parse_args(argv)
    unknown = [name for name in args.agents if name not in REGISTRY]
    problem = (
        f"unknown agents {', '.join(unknown)}; registered: {', '.join(REGISTRY)}"
        if unknown
        else "--moves must be 1 or more"
        if args.moves < 1
        else "--jobs must be 1 or more"
        if args.jobs < 1
        else "--max-overage must be 0 or more"
        if args.max_overage < 0
        else f"{args.out} exists: pass --resume to continue it, or another --out"
        if args.out.exists() and not args.resume
        else None
    )
    settings = Settings(args.seed, CHUNK, ACT_TIMEOUTS, KAGGLE_SHARE, args.max_overage)
    done: dict[tuple[str, int], dict[str, Any]] = {}
    if problem is None and args.out.exists():
        try:
            done = read_results(args.out, settings)
        except ValueError as error:
            problem = str(error)
    if problem is not None:
        print(f"fuzz: {problem}", file=sys.stderr)
        return 2

    todo = [
        (name, chunk, count)
        for name, chunk, count in tasks(args.agents, settings, args.moves)
        if (name, chunk) not in done
    ]
    print(
        f"fuzz: {args.moves} moves per agent of {', '.join(args.agents)}, seed {args.seed}, {args.jobs} workers; "
        f"actTimeout from {{{', '.join(f'{t:g}' for t in ACT_TIMEOUTS)}}} s, remainingOverageTime 0-"
        f"{args.max_overage:g} s, {BOARDS}, "
        f"{KAGGLE_SHARE:.0%} on 7x6/4; {len(done)} chunks already in {args.out}; {machine_conditions()}",
        flush=True,
    )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if not args.out.exists() or not args.out.read_text().strip():
        args.out.write_text(json.dumps(settings.to_json()) + "\n")
    started = time.perf_counter()
    total = args.moves * len(args.agents)
    work = [(name, args.seed, chunk, count, args.max_overage) for name, chunk, count in todo]
    with (
        tqdm(total=total, initial=total - sum(count for _, _, count in todo), unit="move") as bar,
        args.out.open("a") as out,
    ):
        with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _InProcess() as pool:
            for record in pool.imap_unordered(play_chunk, work):
                out.write(json.dumps(record) + "\n")
                out.flush()
                done[(record["agent"], record["chunk"])] = record
                bar.update(len(record["answers"]))
    print(f"{len(work)} chunks played in {time.perf_counter() - started:.0f} s; finished at {machine_conditions()}")

    chunks = {chunk for _, chunk, _ in tasks(args.agents, settings, args.moves)}
    print(
        "| agent | moves | illegal | faults (by kind) | over actTimeout | drew on the bank (most s past "
        "actTimeout) | mean s | slowest move not paid by the bank |"
    )
    print("|---|---|---|---|---|---|---|---|")
    clean = True
    for name in args.agents:
        answers = [answer for chunk in sorted(chunks) for answer in done[(name, chunk)]["answers"]][: args.moves]
        row, agent_clean = agent_summary(name, answers)
        clean &= agent_clean
        print(row)
    print("clean: no illegal move, fault or late move" if clean else "NOT CLEAN: see the table (exit status 1)")
    return 0 if clean else 1


class _InProcess:
    """``multiprocessing.Pool``'s ``imap_unordered`` in this process, for ``--jobs 1``."""

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, function: Any, items: list[Any]) -> Iterator[Any]:
        return map(function, items)


if __name__ == "__main__":
    sys.exit(main())
