"""The evidence on claims about each move's search: nodes and time along the game, a speed-up over the same games."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

from connectx.papers import hypothesis_tests
from connectx.papers.cell_scores import design_clusters, one_cell
from connectx.papers.design import Claim
from connectx.papers.runner import CellResult, ExperimentResult, MoveSample, move_samples
from connectx.papers.verdicts import SIZE, Evidence, Hypothesis, direction_hypotheses, untested


def _within_series(samples: Sequence[MoveSample], x: Callable[[MoveSample], float],
                   y: Callable[[MoveSample], float]) -> tuple[list[float], list[float], int]:
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
        test = ("Student's t over independent games of each game's Fisher z of Pearson's r (move number, log "
                f"{measure_of})")
    units = _pair_units(samples, x, y)
    if len(units) < 2:
        return untested(f"{len(units)} independent game{'s' if len(units) != 1 else ''} with a correlation of its "
                        f"moves, too few ({len(samples)} moves)", games, test)
    xs, ys, groups = _within_series(samples, x, y)
    pooled = hypothesis_tests.correlation_interval(xs, ys).value
    n = len(units)
    mean = sum(units) / n
    deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
    error = max(deviation / math.sqrt(n), 1e-12)
    critical = hypothesis_tests.t_quantile(0.975, n - 1)
    within = " within each series" if groups > 1 else ""
    ours = (f"{what} within each game = {math.tanh(mean):.2f} [{math.tanh(mean - critical * error):.2f}, "
            f"{math.tanh(mean + critical * error):.2f}] over {n} independent games (a colour-swapped pair one); "
            f"over every move{within} r = {pooled:.2f}, {len(samples)} moves")
    effect = claim.detectable

    def power(level: float) -> float:
        edge = hypothesis_tests.t_quantile(1 - level / 2, n - 1)
        return NormalDist().cdf(math.atanh(effect) / error - edge)

    test += (f" ({n - 1} df), and of r = {direction * effect:+g} or further the claimed way; power against "
             f"r = {direction * effect:+g}")
    shortfall = (direction * mean - math.atanh(effect)) / error
    # The size test is one-sided: P(T <= t) from the two-sided tail of |t|.
    tail = hypothesis_tests.t_p_value(shortfall, n - 1) / 2
    size = f"a correlation of {direction * effect:+g} or further the claimed way (the smallest this report counts)"
    hypotheses = (direction_hypotheses(direction * mean / error, df=n - 1),
                  Hypothesis(SIZE, tail if shortfall < 0 else 1 - tail, f"|r| of {effect:g} or more"))
    return Evidence(ours, games, test, hypotheses, power, size)


def _pair_units(samples: Sequence[MoveSample], x: Callable[[MoveSample], float],
                y: Callable[[MoveSample], float]) -> list[float]:
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
            by_pair.setdefault((series, game // 2), []).append(math.atanh(max(-0.999999, min(0.999999, r))))
    return [sum(zs) / len(zs) for zs in by_pair.values()]


def speed_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cell's games against the baseline's same games: a t test of the mean, over independent
    games, of log(baseline CPU seconds / CPU seconds) of the whole game.

    Two games are the same when they have the same index in the two cells and the same moves (the
    schedule gives both cells the same openings and seeds; a game whose moves differ is dropped and
    counted). The games of one opening (a colour-swapped pair, ``design_clusters``) are one cluster
    whose ratios are averaged into one observation. The per-move wall-time ratio over the same games
    is printed beside it.
    """
    test = "t test of the mean over independent games of log(CPU seconds without / with), the same games"
    claimed, baseline = one_cell(result, claim.cells), one_cell(result, claim.baseline)
    if claimed is None or baseline is None:
        return untested("a cell of the comparison has no games", 0, test)
    slow_by_index = {r.index: r for r in baseline.match.records if r.scored}
    pairs = [(r, slow_by_index[r.index]) for r in claimed.match.records if r.scored and r.index in slow_by_index]
    same = [(fast, slow) for fast, slow in pairs if fast.moves == slow.moves]
    diverging = len(pairs) - len(same)
    timed = [(fast, slow) for fast, slow in same if fast.cpu_seconds > 0 and slow.cpu_seconds > 0]
    groups = design_clusters([fast for fast, _ in timed])
    distinct = len({fast.moves for fast, _ in timed})
    units = [sum(math.log(timed[i][1].cpu_seconds / timed[i][0].cpu_seconds) for i in group) / len(group)
             for group in groups]
    dropped = f"; {diverging} game{'s' if diverging != 1 else ''} whose moves differed between the cells dropped" \
        if diverging else ""
    if len(units) < 2:
        return untested(f"{len(timed)} same games with CPU times in {len(units)} independent "
                         f"group{'s' if len(units) != 1 else ''}, too few"
                         + dropped, len(timed), test)
    n = len(units)
    mean = sum(units) / n
    deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
    error = max(deviation / math.sqrt(n), 1e-12)
    critical = hypothesis_tests.t_quantile(0.975, n - 1)
    effect = claim.detectable

    def power(level: float) -> float:
        edge = hypothesis_tests.t_quantile(1 - level / 2, n - 1)
        shift = effect / error
        return NormalDist().cdf(shift - edge) + NormalDist().cdf(-shift - edge)

    ours = (f"{math.exp(mean):.2f}x as fast [{math.exp(mean - critical * error):.2f}, "
            f"{math.exp(mean + critical * error):.2f}] in CPU seconds per game over {len(timed)} same games, "
            f"{distinct} distinct, from {n} independent openings{dropped}")
    ours += _per_move_text(claimed, baseline, {fast.index for fast, _ in same}, result)
    test += f" (t, {n - 1} df), and of {math.exp(effect):.2f}x or more; power against {math.exp(effect):.2f}x as fast"
    shortfall = (mean - effect) / error
    # The size test is one-sided: P(T <= t) from the two-sided tail of |t|.
    tail = hypothesis_tests.t_p_value(shortfall, n - 1) / 2
    size = Hypothesis(SIZE, tail if shortfall < 0 else 1 - tail, f"{math.exp(effect):.2f}x as fast or more")
    return Evidence(ours, len(timed), test, (direction_hypotheses(mean / error, df=n - 1), size), power,
                    f"a speed-up of {math.exp(effect):.2f}x (the smallest this report counts)")


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
