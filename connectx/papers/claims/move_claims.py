"""The evidence on claims about each move's search: nodes and time along the game, a speed-up, fewer nodes or a
deeper search over the same games."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.statistics import hypothesis_tests
from connectx.papers.claims.cell_scores import design_clusters, one_cell
from connectx.papers.claims.verdicts import FOR, SIZE, Evidence, Hypothesis, direction_hypotheses, untested
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import CellResult, ExperimentResult, MoveSample, move_samples


def _within_series(
    samples: Sequence[MoveSample], x: Callable[[MoveSample], float], y: Callable[[MoveSample], float]
) -> tuple[list[float], list[float], int]:
    """x and y of every sample less its series' means, and the number of series: the correlation of the
    residuals is the one within each series (depth), not the one between the series' levels."""
    xs: list[float] = []
    ys: list[float] = []
    series = list(dict.fromkeys(s.series for s in samples))
    for name in series:
        mine = [s for s in samples if s.series == name]
        mean_x = sum(x(s) for s in mine) / len(mine)
        mean_y = sum(y(s) for s in mine) / len(mine)
        xs += [x(s) - mean_x for s in mine]
        ys += [y(s) - mean_y for s in mine]
    return xs, ys, len(series)


def move_evidence(claim: Claim, samples: list[MoveSample], games: int) -> Evidence:
    """A correlation along each game's moves (log nodes or log seconds with the move number, or nodes with
    seconds), tested over independent games: each game's own Pearson r, Fisher-transformed, averaged over the
    games of a colour-swapped pair (one opening, so one observation), and the mean of those by Student's t.
    The moves of one game are not independent draws, so the games, not the moves, are the units; a game
    correlates its moves within one series (depth), so the depths' levels cannot pass for a trend. The r over
    every move within each series is printed beside it."""
    if claim.test != "falls_with_move":
        samples = [s for s in samples if s.seconds > 0]
    if claim.test == "nodes_track_time":

        def x(s: MoveSample) -> float:
            return float(s.nodes)

        def y(s: MoveSample) -> float:
            return s.seconds

        direction, what = 1.0, "Pearson r of nodes and seconds"
        test = "Student's t over independent games of each game's Fisher z of Pearson's r (nodes, seconds)"
    else:
        measure_of = "nodes" if claim.test == "falls_with_move" else "seconds"

        def x(s: MoveSample) -> float:
            return float(s.move)

        def y(s: MoveSample) -> float:
            return math.log(max(1, s.nodes)) if measure_of == "nodes" else math.log(s.seconds)

        direction, what = -1.0, f"Pearson r of log {measure_of} with the move number"
        test = (
            f"Student's t over independent games of each game's Fisher z of Pearson's r (move number, log {measure_of})"
        )
    units = _pair_units(samples, x, y)
    if len(units) < 2:
        return untested(
            f"{len(units)} independent game{'s' if len(units) != 1 else ''} with a correlation of its "
            f"moves, too few ({len(samples)} moves)",
            games,
            test,
        )
    xs, ys, groups = _within_series(samples, x, y)
    pooled = hypothesis_tests.correlation_interval(xs, ys).value
    n = len(units)
    mean = sum(units) / n
    deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
    error = max(deviation / math.sqrt(n), 1e-12)
    critical = hypothesis_tests.t_quantile(0.975, n - 1)
    within = " within each series" if groups > 1 else ""
    ours = (
        f"{what} within each game = {math.tanh(mean):.2f} [{math.tanh(mean - critical * error):.2f}, "
        f"{math.tanh(mean + critical * error):.2f}] over {n} independent games (a colour-swapped pair one); "
        f"over every move{within} r = {pooled:.2f}, {len(samples)} moves"
    )
    effect = claim.detectable

    def power(level: float) -> float:
        edge = hypothesis_tests.t_quantile(1 - level / 2, n - 1)
        return NormalDist().cdf(math.atanh(effect) / error - edge)

    test += (
        f" ({n - 1} df), and of r = {direction * effect:+g} or further the claimed way; power against "
        f"r = {direction * effect:+g}"
    )
    shortfall = (direction * mean - math.atanh(effect)) / error
    # The size test is one-sided: P(T <= t) from the two-sided tail of |t|.
    tail = hypothesis_tests.t_p_value(shortfall, n - 1) / 2
    size = f"a correlation of {direction * effect:+g} or further the claimed way (the smallest this report counts)"
    hypotheses = (
        direction_hypotheses(direction * mean / error, df=n - 1),
        Hypothesis(SIZE, tail if shortfall < 0 else 1 - tail, f"|r| of {effect:g} or more"),
    )
    return Evidence(ours, games, test, hypotheses, power, size)


def _pair_units(
    samples: Sequence[MoveSample], x: Callable[[MoveSample], float], y: Callable[[MoveSample], float]
) -> list[float]:
    """Each game's Fisher z of the correlation of ``x`` and ``y`` over its moves (a game of fewer than four moves,
    or with nothing varying, has none), averaged over the games of each colour-swapped pair of a series (games
    2p and 2p + 1 share an opening; in self-play they are the same game)."""
    by_game: dict[tuple[str, int], list[MoveSample]] = {}
    for sample in samples:
        by_game.setdefault((sample.series, sample.game), []).append(sample)
    by_pair: dict[tuple[str, int], list[float]] = {}
    for (series, game), moves in by_game.items():
        if len(moves) < 4:
            continue
        r = hypothesis_tests.correlation_interval([x(s) for s in moves], [y(s) for s in moves]).value
        if not math.isnan(r):
            by_pair.setdefault((series, game // 2), []).append(hypothesis_tests.fisher_z(r))
    return [sum(zs) / len(zs) for zs in by_pair.values()]


def _same_games(claimed: CellResult, baseline: CellResult) -> tuple[list[tuple[GameRecord, GameRecord]], int]:
    """The scored games of ``claimed`` and ``baseline`` with the same index and the same moves (the schedule gives
    both cells the same openings and seeds), and how many with the same index had different moves."""
    other = {r.index: r for r in baseline.match.records if r.scored}
    pairs = [(r, other[r.index]) for r in claimed.match.records if r.scored and r.index in other]
    same = [(mine, theirs) for mine, theirs in pairs if mine.moves == theirs.moves]
    return same, len(pairs) - len(same)


@dataclass(frozen=True)
class _MeanTest:
    """A t test of the mean of independent observations (log ratios, differences), the claimed way positive."""

    mean: float
    error: float
    df: int
    effect: float

    @classmethod
    def of(cls, units: Sequence[float], effect: float) -> _MeanTest:
        n = len(units)
        mean = sum(units) / n
        deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
        return cls(mean, max(deviation / math.sqrt(n), 1e-12), n - 1, effect)

    def interval(self) -> tuple[float, float]:
        critical = hypothesis_tests.t_quantile(0.975, self.df)
        return self.mean - critical * self.error, self.mean + critical * self.error

    def power(self, level: float) -> float:
        edge = hypothesis_tests.t_quantile(1 - level / 2, self.df)
        shift = self.effect / self.error
        return NormalDist().cdf(shift - edge) + NormalDist().cdf(-shift - edge)

    def hypotheses(self, size_name: str, *, sized: bool = False) -> tuple[Hypothesis, Hypothesis]:
        """ "No effect" and "an effect of at least ``effect``" (one-sided: P(T <= t) from the two-sided tail).

        ``sized``: the direction cannot fail (alpha-beta never searches more nodes than the full tree), so the
        claim is shown only by its size: ``FOR`` is "an effect of at most ``effect``", one-sided the other way."""
        shortfall = (self.mean - self.effect) / self.error
        tail = hypothesis_tests.t_p_value(shortfall, self.df) / 2
        size = Hypothesis(SIZE, tail if shortfall < 0 else 1 - tail, size_name)
        if sized:
            return Hypothesis(FOR, 1 - size.p_value, f"{size_name[: -len(' or more')]} or less"), size
        return direction_hypotheses(self.mean / self.error, df=self.df), size


def _dropped(diverging: int) -> str:
    return (
        f"; {diverging} game{'s' if diverging != 1 else ''} whose moves differed between the cells dropped"
        if diverging
        else ""
    )


def speed_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cell's games against the baseline's same games: a t test of the mean, over independent
    games, of log(baseline CPU seconds / CPU seconds) of the whole game.

    Two games are the same when they have the same index in the two cells and the same moves (a game
    whose moves differ is dropped and counted). The games of one opening (a colour-swapped pair,
    ``design_clusters``) are one cluster whose ratios are averaged into one observation. The per-move
    wall-time ratio over the same games is printed beside it.
    """
    test = "t test of the mean over independent games of log(CPU seconds without / with), the same games"
    claimed, baseline = one_cell(result, claim.cells), one_cell(result, claim.baseline)
    if claimed is None or baseline is None:
        return untested("a cell of the comparison has no games", 0, test)
    same, diverging = _same_games(claimed, baseline)
    timed = [(fast, slow) for fast, slow in same if fast.cpu_seconds > 0 and slow.cpu_seconds > 0]
    groups = design_clusters([fast for fast, _ in timed])
    distinct = len({fast.moves for fast, _ in timed})
    units = [
        sum(math.log(timed[i][1].cpu_seconds / timed[i][0].cpu_seconds) for i in group) / len(group) for group in groups
    ]
    dropped = _dropped(diverging)
    if len(units) < 2:
        return untested(
            f"{len(timed)} same games with CPU times in {len(units)} independent "
            f"group{'s' if len(units) != 1 else ''}, too few" + dropped,
            len(timed),
            test,
        )
    tested = _MeanTest.of(units, claim.detectable)
    low, high = tested.interval()
    effect = claim.detectable
    ours = (
        f"{math.exp(tested.mean):.2f}x as fast [{math.exp(low):.2f}, {math.exp(high):.2f}] in CPU seconds per "
        f"game over {len(timed)} same games, {distinct} distinct, from {len(units)} independent openings{dropped}"
    )
    ours += _per_move_text(claimed, baseline, {fast.index for fast, _ in same}, result)
    test += (
        f" (t, {tested.df} df), and of {math.exp(effect):.2f}x or more; power against {math.exp(effect):.2f}x as fast"
    )
    return Evidence(
        ours,
        len(timed),
        test,
        tested.hypotheses(f"{math.exp(effect):.2f}x as fast or more"),
        tested.power,
        f"a speed-up of {math.exp(effect):.2f}x (the smallest this report counts)",
    )


def game_nodes(record: GameRecord) -> int:
    """The nodes every search of ``record`` reported, both seats."""
    counts = (
        record.stats(seat, call).get("nodes") for seat in (0, 1) for call in range(len(record.search_stats[seat]))
    )
    return sum(nodes for nodes in counts if isinstance(nodes, int))


def nodes_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Each claimed cell's games against the same games of the baseline cell at its place (``_same_games``): a t
    test of the mean, over independent openings, of log(baseline nodes / nodes) of the whole game.

    The games of one opening, in every pair of cells, are one cluster (``design_clusters`` over the pooled
    cells) whose ratios are averaged into one observation; each pair's geometric mean ratio is printed beside.
    """
    test = "t test of the mean over independent openings of log(nodes without / with) per game, the same games"
    pairs = [
        (one_cell(result, (mine,)), one_cell(result, (theirs,)))
        for mine, theirs in zip(claim.cells, claim.baseline, strict=True)
    ]
    games: list[tuple[GameRecord, float]] = []
    cell_of: list[int] = []
    per_pair: list[str] = []
    short: list[str] = []
    diverging = 0
    for number, (claimed, baseline) in enumerate(pairs):
        if claimed is None or baseline is None:
            return untested("a cell of the comparison has no games", 0, test)
        same, differ = _same_games(claimed, baseline)
        diverging += differ
        ratios = [
            (fast, math.log(game_nodes(slow) / game_nodes(fast)))
            for fast, slow in same
            if game_nodes(fast) > 0 and game_nodes(slow) > 0
        ]
        games += ratios
        cell_of += [number] * len(ratios)
        if ratios:
            per_pair.append(_pair_text(claimed, [fast for fast, _ in same], [slow for _, slow in same], ratios))
            short.append(
                per_pair[-1].split(" (")[0].removeprefix(claimed.cell.series.rsplit(", ", 1)[0] + ", ")
                + "".join(f", {part.split(' (')[0]}" for part in per_pair[-1].split("), ")[1:2])
            )
    groups = design_clusters([record for record, _ in games], cell_of)
    units = [sum(games[i][1] for i in group) / len(group) for group in groups]
    dropped = _dropped(diverging)
    if len(units) < 2:
        return untested(
            f"{len(games)} same games with node counts in {len(units)} independent "
            f"group{'s' if len(units) != 1 else ''}, too few" + dropped,
            len(games),
            test,
        )
    tested = _MeanTest.of(units, claim.detectable)
    low, high = tested.interval()
    effect = math.exp(claim.detectable)
    ours = (
        f"{'; '.join(per_pair)}; over both, {math.exp(tested.mean):.2f}x fewer nodes [{math.exp(low):.2f}, "
        f"{math.exp(high):.2f}] (the geometric mean per game) over {len(games)} same games from {len(units)} "
        f"independent openings{dropped}"
    )
    sized = claim.magnitude
    test += (
        f" (t, {tested.df} df): "
        + (
            f"of {effect:.2f}x or less (the direction cannot fail: without pruning "
            "the search visits the whole tree, so the size is the claim)"
            if sized
            else "of no effect"
        )
        + f", and of {effect:.2f}x or more; power against {effect:.2f}x fewer nodes"
    )
    headline = "; ".join(short)
    return Evidence(
        ours,
        len(games),
        test,
        tested.hypotheses(f"{effect:.2f}x fewer nodes or more", sized=sized),
        tested.power,
        f"{effect:.2f}x fewer nodes",
        headline=headline,
        shown_as=f"more than {effect:g}x fewer nodes" if sized else "",
    )


def game_seconds(record: GameRecord) -> float:
    """The wall seconds every move of ``record`` took, both seats."""
    return sum(sum(seat) for seat in record.durations)


def _pair_text(
    claimed: CellResult,
    fast: Sequence[GameRecord],
    slow: Sequence[GameRecord],
    ratios: Sequence[tuple[GameRecord, float]],
) -> str:
    """One pair of cells in words: its geometric mean node ratio, its time ratio and each side's measured time per
    node (``3.90x fewer nodes, 2.78x less time ...``), so that time is never assumed to follow nodes."""
    nodes = [sum(game_nodes(r) for r in games) for games in (fast, slow)]
    seconds = [sum(game_seconds(r) for r in games) for games in (fast, slow)]
    text = (
        f"{claimed.cell.series}: {math.exp(sum(r for _, r in ratios) / len(ratios)):.2f}x fewer nodes "
        f"({len(ratios)} games)"
    )
    if all(seconds) and all(nodes):
        micro = [1e6 * t / n for t, n in zip(seconds, nodes, strict=True)]
        text += (
            f", {seconds[1] / seconds[0]:.1f}x less time ({micro[0]:.1f} against {micro[1]:.1f} microseconds a "
            "node, measured in the games)"
        )
    return text


def depths_searched(record: GameRecord, seat: int, *, every_move: bool = False) -> list[tuple[int, int]]:
    """The move number and the plies each search of ``seat`` reached while at least half the board was empty (where
    the clock, not the end of the game, stops a search), or at every move with ``every_move``, each capped at the
    empty cells (a depth past them searches nothing more)."""
    cells = record.config.rows * record.config.columns
    depths = []
    first = len(record.opening) + (seat - len(record.opening)) % 2  # the seat's first move after the opening
    for call, ply in enumerate(range(first, len(record.moves), 2)):
        depth = record.stats(seat, call).get("depth")
        empty = cells - ply
        if isinstance(depth, int) and (every_move or 2 * empty >= cells):
            depths.append((ply + 1, min(depth, empty)))
    return depths


def depth_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The two agents of one cell, on one clock in the same games: a t test of the mean, over independent openings,
    of the first agent's mean depth reached per move less the second's (``depths_searched``), each game one
    difference and the games of one opening (a colour-swapped pair) averaged into one observation."""
    test = "t test of the mean over independent openings of the per-game difference in mean depth reached per move"
    cell = one_cell(result, claim.cells)
    if cell is None:
        return untested("the cell has no games", 0, test)
    records, differences = [], []
    reached: tuple[list[int], list[int]] = ([], [])
    for record in cell.match.records:
        if not record.scored:
            continue
        first = 0 if record.agents[0] == cell.cell.first else 1
        mine = [depth for _, depth in depths_searched(record, first)]
        theirs = [depth for _, depth in depths_searched(record, 1 - first)]
        if mine and theirs:
            records.append(record)
            differences.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
            reached[0].extend(mine)
            reached[1].extend(theirs)
    units = [sum(differences[i] for i in group) / len(group) for group in design_clusters(records)]
    if len(units) < 2:
        return untested(
            f"{len(records)} games with depths in {len(units)} independent "
            f"group{'s' if len(units) != 1 else ''}, too few",
            len(records),
            test,
        )
    tested = _MeanTest.of(units, claim.detectable)
    low, high = tested.interval()
    effect = claim.detectable
    ours = (
        f"{tested.mean:+.2f} plies [{low:+.2f}, {high:+.2f}] deeper per move over {len(records)} games from "
        f"{len(units)} independent openings (depth reached {sum(reached[0]) / len(reached[0]):.2f} against "
        f"{sum(reached[1]) / len(reached[1]):.2f} on average, {len(reached[0])} and {len(reached[1])} moves "
        "searched with half the board or more empty)"
    )
    test += f" (t, {tested.df} df), and of {effect:g} plies or more; power against {effect:g} plies deeper"
    return Evidence(
        ours,
        len(records),
        test,
        tested.hypotheses(f"{effect:g} plies deeper or more"),
        tested.power,
        f"{effect:g} plies deeper (the smallest this report counts)",
    )


def _per_move_text(claimed: CellResult, baseline: CellResult, games: set[int], result: ExperimentResult) -> str:
    """The geometric mean per-move wall-time ratio over the same games, and the evaluations, as a side figure."""
    by_key: dict[tuple[str, int, int], MoveSample] = {}
    for sample in move_samples(result):
        if sample.game in games:
            by_key[(sample.series, sample.game, sample.move)] = sample
    logs: list[float] = []
    evaluations = [0, 0]
    for (series, game, move), fast in by_key.items():
        slow = by_key.get((baseline.cell.series, game, move))
        if series != claimed.cell.series or slow is None or not fast.seconds > 0 or not slow.seconds > 0:
            continue
        logs.append(math.log(slow.seconds / fast.seconds))
        evaluations[0] += fast.evaluations or 0
        evaluations[1] += slow.evaluations or 0
    if not logs:
        return ""
    text = f"; per move (wall seconds) {math.exp(sum(logs) / len(logs)):.2f}x over {len(logs)} paired moves"
    return text + (f"; evaluations {evaluations[0]:,} against {evaluations[1]:,}" if evaluations[1] else "")
