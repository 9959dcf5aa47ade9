"""The evidence on claims about each move's search: nodes and time along the game, a speed-up over the same games."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from statistics import NormalDist

from connectx.evaluation import statistics
from connectx.papers import hypothesis_tests
from connectx.papers.cell_scores import design_clusters, one_cell
from connectx.papers.design import Claim
from connectx.papers.runner import CellResult, ExperimentResult, MoveSample, move_samples
from connectx.papers.verdicts import SIZE, Evidence, Hypothesis, direction_hypotheses, size_hypothesis, untested


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
    if claim.test != "falls_with_move":
        samples = [s for s in samples if s.seconds > 0]
    if len(samples) < 6:
        return untested(f"{len(samples)} moves with a recorded node count and time, too few", games, "none")
    if claim.test == "nodes_track_time":
        xs, ys, groups = _within_series(samples, lambda s: s.nodes, lambda s: s.seconds)
        direction, what = 1.0, "Pearson r of nodes and seconds"
        test = "Fisher's z of Pearson's r (nodes, seconds)"
    else:
        measure_of = "nodes" if claim.test == "falls_with_move" else "seconds"

        def value(s: MoveSample) -> float:
            return math.log(max(1, s.nodes)) if measure_of == "nodes" else math.log(s.seconds)

        xs, ys, groups = _within_series(samples, lambda s: float(s.move), value)
        direction, what = -1.0, f"Pearson r of log {measure_of} with the move number"
        test = f"Fisher's z of Pearson's r (move number, log {measure_of})"
    r = hypothesis_tests.correlation_interval(xs, ys).value
    # One mean removed per series: the residuals have n - (series - 1) degrees of freedom for Fisher's z.
    n = len(samples) - (groups - 1)
    z = direction * hypothesis_tests.correlation_z(r, n)
    if math.isnan(z):
        return untested(f"{what}: undefined over {len(samples)} moves", games, test)
    spread = statistics.Z95 / math.sqrt(n - 3)
    low, high = math.tanh(math.atanh(r) - spread), math.tanh(math.atanh(r) + spread)
    within = " within each series" if groups > 1 else ""
    ours = f"{what}{within} = {r:.2f} [{low:.2f}, {high:.2f}] over {len(samples)} moves"
    effect = claim.detectable

    def power(level: float) -> float:
        return hypothesis_tests.correlation_power(effect, n, level)

    test += (f"{', within each series' if groups > 1 else ''}, and of r = {direction * effect:+g} or further the "
             f"claimed way; power against r = {direction * effect:+g}; the moves of one game are not independent, so "
             "these p-values are optimistic")
    shortfall = (direction * math.atanh(max(-0.999999, min(0.999999, r))) - math.atanh(effect)) * math.sqrt(n - 3)
    size = f"a correlation of {direction * effect:+g} or further the claimed way (the smallest this report counts)"
    hypotheses = (direction_hypotheses(z), size_hypothesis([shortfall], f"|r| of {effect:g} or more"))
    return Evidence(ours, games, test, hypotheses, power, size)


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
