"""The report of the seed papers' experiments: Markdown beside the papers' claims, with one PNG per figure.

The report is a pure function of the recorded games plus the run's software: win rates and scores
with 95% intervals, the conditions each experiment's games were played under (as the games
recorded them), nodes per move as the games' searches reported them, the Elo of every agent the
games can rate, and the verdict on each claim (``connectx.papers.verdicts``), every claim's test corrected
for all the others.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation import statistics
from connectx.evaluation.results_text import interval_text, signed
from connectx.evaluation.statistics import Interval
from connectx.papers import clustered_scores, hypothesis_tests, rated_group
from connectx.papers.experiments import ELO_ANCHOR, ELO_EXPERIMENTS, NODES, SEATS, Claim, Experiment, Profile, h_spec
from connectx.papers.runner import ExperimentResult, PlayConditions, move_samples, play_conditions, simulations_per_move
from connectx.papers.verdicts import (
    AGREES,
    ALPHA,
    CONTRADICTED,
    NOT_COMPARABLE,
    NOT_SETTLED,
    PARTLY,
    SMALLER,
    WIN,
    Verdict,
    cell_score,
    clustered_percent,
    judge_all,
    percent,
    sensitivity_table,
    shared_games,
    trend_strata,
    win_rate,
)

REPORT_FILE = "report.md"


def write_report(profile: Profile, results: Sequence[ExperimentResult], out: Path,
                 conditions: Sequence[str] = (), seconds: float | None = None) -> Path:
    """``out/report.md`` (the answer first, then each experiment), ``out/appendix.md`` (every test, p-value and
    condition) and one PNG per figure, from the recorded games of ``results``."""
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from connectx.evaluation import plots

    out.mkdir(parents=True, exist_ok=True)
    claims = [(claim, result) for result in results for claim in result.experiment.claims]
    all_verdicts = judge_all(claims)
    judged = iter(all_verdicts)
    by_experiment = [(result, [(claim, next(judged)) for claim in result.experiment.claims]) for result in results]
    total_games = sum(len(c.match.records) for r in results for c in r.cells)
    new_games = sum(c.played for r in results for c in r.cells)
    played = {r.experiment.key: play_conditions(r) for r in results}
    game_hours = sum(c.game_seconds for c in played.values()) / 3600
    told: dict[str, str] = {}
    sections = [_section(result, verdicts, out, plots, told) for result, verdicts in by_experiment]
    unrated: list[str] = []
    elo = _elo_section(results, out, plots, unrated)
    report = [
        "# The seed papers' experiments, reproduced", "",
        f"Profile **{profile.name}**: {total_games} real kaggle-environments games in colour-swapped pairs, read "
        f"back from `runs/`. Intervals are 95%. Every test, p-value and condition is in [the appendix]"
        f"({APPENDIX_FILE}).", "",
        *_quick_warning(profile),
        *_answer_lines(by_experiment),
        *_plain_rule_lines(),
        *sections, *elo]
    appendix = [
        "# Appendix: how each verdict was reached", "",
        f"The tests behind [the report]({REPORT_FILE}), with every number. Profile **{profile.name}**: "
        f"{total_games} games, schedule seed {profile.seed} (game seeds and openings follow from it).", "",
        *[f"- {line}" for line in conditions],
        f"- the games took {game_hours:.1f} h of game time in all (each game's wall time, summed; per "
        "experiment in the conditions table)",
        f"- written {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC" + _invocation_text(new_games, seconds),
        f"- rerun: `connectx report{' --quick' if profile.name == 'quick' else ''} --out {out.parent}` "
        "(it resumes from the games recorded under `runs/`)", "",
        *_full_rule_lines(len(claims), sum(len(v.hypotheses) for v in all_verdicts)),
        *_test_lines(by_experiment),
        *_conditions_section(played),
        *_shared_games_lines(results),
        *(['<a id="not-rated"></a>', "", "## Agents the ratings leave out", "", *unrated, ""] if unrated else [])]
    (out / APPENDIX_FILE).write_text("\n".join(appendix) + "\n")
    path = out / REPORT_FILE
    path.write_text("\n".join(report) + "\n")
    return path


APPENDIX_FILE = "appendix.md"
COUNTED = (AGREES, CONTRADICTED, NOT_SETTLED, NOT_COMPARABLE)
"""The four answers the first screen counts; "agrees only in part" and "smaller than the words imply" count as
agreeing, and the first screen says how many of those there are."""


def verdict_group(status: str) -> str:
    """Which of the four answers (``COUNTED``) a verdict counts as on the first screen."""
    return AGREES if status in (PARTLY, SMALLER) else status


def _quick_warning(profile: Profile) -> list[str]:
    if profile.name == "full":
        return []
    return [f"**This is the {profile.name} profile, a smoke run: with this few games per point the intervals are "
            "far too wide to confirm or refute the papers. Run `make report` for the full profile.**", ""]


def _answer_lines(by_experiment: Sequence[tuple[ExperimentResult, list[tuple[Claim, Verdict]]]]) -> list[str]:
    """The first screen: how many claims hold, and one row per claim with a link to its section."""
    verdicts = [v for _, pairs in by_experiment for _, v in pairs]
    counts = {group: sum(verdict_group(v.status) == group for v in verdicts) for group in COUNTED}
    qualified = sum(v.status in (PARTLY, SMALLER) for v in verdicts)
    lines = ["## The answer", "",
             f"Of the papers' {len(verdicts)} claims, **{counts[AGREES]} agree** with our games"
             + (f" ({qualified} of them only in part, or smaller than the words imply)" if qualified else "")
             + f", **{counts[CONTRADICTED]} are contradicted**, **{counts[NOT_SETTLED]} are not settled** (our games "
             f"cannot tell) and **{counts[NOT_COMPARABLE]} are not comparable** (the paper's number depends on "
             "settings it does not state).", "",
             "| # | source | the paper says | its number | ours | verdict |", "|---:|---|---|---|---|---|"]
    number = 0
    for result, pairs in by_experiment:
        experiment = result.experiment
        for claim, verdict in pairs:
            number += 1
            lines.append(f"| {number} | {_section_link(experiment)} | "
                         f"{claim.text} | {_paper_number(claim)} | {_ours_short(verdict)} | **{verdict.summary}** |")
    return lines + [""]


def _ours_short(verdict: Verdict) -> str:
    """Our measurement in a line: the first parts of ``Verdict.ours`` without the counts of games behind them."""
    parts = [re.sub(r"(, \d+ games \(\d+ distinct\)| \(\d+ games, \d+ distinct| \(pooled: ).*$", "", part)
             for part in verdict.ours.split("; ")[:3]]
    text = "; ".join(part for part in parts if part and not part.startswith("over every range"))
    return text if len(text) <= SHORT else text[:text.rfind(" ", 0, SHORT)] + " ..."


SHORT = 90
"""The most characters of our measurement the first screen shows (the claim's section has all of it)."""


def _sentence_lines(paragraph: str) -> list[str]:
    """A paragraph one sentence a line: Markdown joins them, and no line grows too long to read in a diff."""
    return re.split(r"(?<=[.:])\s+(?=[A-Z*(\"])", paragraph)


def _plain_rule_lines() -> list[str]:
    return ["## How a verdict is reached", "", *_sentence_lines(
            "Each claim is turned into a question our games can answer: is the effect the paper describes there, "
            "is its opposite there, and, where the words imply a size (\"much\", \"easily\", \"dominates\"), is "
            "an effect that large ruled out. A claim **agrees** when our games show the effect, is **contradicted** "
            "when they show its opposite or rule out the size its words imply, and is **not settled** when they "
            "show neither. A claim about a trend (\"as T_max grows\") must hold across the range its words "
            "cover: when one step carries it, it **agrees only in part**, and the verdict says where it holds "
            "and where not. A claimed average over settings the paper does not give is **not comparable** when "
            "some of our settings reach its number. All claims are tested together, so the chance of any false "
            f"verdict stays below {ALPHA:g}. What the words mean, for a reader who is not a statistician: "
            "[the papers' report](/docs/papers.md); the tests themselves: [the appendix](" + APPENDIX_FILE + ")."), ""]


def _full_rule_lines(claims: int, hypotheses: int) -> list[str]:
    return [line for paragraph in _full_rule(claims, hypotheses) for line in _sentence_lines(paragraph)]


def _full_rule(claims: int, hypotheses: int) -> list[str]:
    return [
        "## The rule in full", "",
        "Every claim is read as a statement about an effect, signed so that the claim says it is positive (a rate "
        "above 50%, a rise along a series, a correlation the claimed way), or, for a claimed rate or two rates "
        "claimed similar, that it lies within a stated margin. Its test brings up to three hypotheses: *no "
        "effect* (two-sided; rejected the claimed way it shows the claim, the other way its opposite) or, for a "
        "rate, *further than the margin* (two one-sided tests, TOST; rejected: the claim is shown) and *within "
        "the margin* (the one-sided test at its nearer edge; rejected: the opposite is shown); and, for a "
        "direction, *an effect at least as large as the words imply* (one-sided).",
        "",
        "Words with a size (\"much\", \"easily\", \"dominates\") are given one; words without one are given the "
        "smallest effect the report counts, stated per claim, but ruling that out does not contradict them: a "
        "smaller effect would still bear them out, so the verdict is **not settled** and names the size ruled "
        "out. A rise along a series is looked for within each series and seat (a stratified Cochran-Armitage "
        "test: the first mover's advantage and a depth's level are fixed by the design), and Cochran's Q of the "
        "strata's slopes says whether they differ. A trend shown over its whole range must still be shown, at "
        f"{ALPHA:g} uncorrected, with the step at either end left out; if not, it **agrees only in part**.",
        "",
        f"The {hypotheses} hypotheses of the {claims} claims form one family, corrected by Holm's method at alpha "
        f"= {ALPHA:g}. Then: the opposite shown is **contradicted**; the claim shown is **agrees**, or **agrees in "
        "direction; smaller than the words imply** when the words imply a size and that size is ruled out too; a "
        "size the words imply ruled out without the claim shown is **contradicted**; otherwise **not settled**. "
        "A claim about every cell (\"at each depth\") is an intersection-union test: it is shown only when every "
        "cell shows it (the largest p-value), while its opposite or a size ruled out in any cell counts (the "
        "smallest p-value times the cells). A cell whose games all went one way cannot be tested and shows "
        "nothing (its p-value is 1, never a placeholder statistic). A claimed average over settings the paper "
        "does not state is **not comparable** when some range of our settings and some seat mix has the paper's "
        "number inside its 95% interval. The power printed is that of the test that would show the claim, at the "
        "level Holm held it to; it explains a verdict without making one.",
        "",
        "**Games that are not independent.** Games with independent seeds are independent draws, even when "
        "deterministic agents repeat a whole game move for move. Only the design ties games together: the two "
        "games of a colour-swapped pair played from a shared random opening, and, when cells are pooled, the "
        "games of the other cells played from the same opening; openings that reach the same position by "
        "different move orders are one. Those openings are the clusters; rates, intervals, tests and powers use "
        "the clustered (sandwich) variance with the small-sample correction G / (G - 1) over G clusters, each "
        "cell's games taken about their own cell's mean, i.e. an effective number of games. Where few games "
        "went the rarer way the estimated design effect is shrunk towards that of clusters whose games all "
        f"agree, so one win more cannot double it. Fewer than {clustered_scores.ENOUGH_CLUSTERS} clusters are "
        "flagged.",
        "",
        "Every MCTS counts its time per move T_max in CPU seconds of the game's process (`clock=cpu`), and its "
        "games allow 30 s of wall time per move, so a busy machine can neither shorten an MCTS move nor time a "
        "move out; kaggle's built-in agents search to a fixed depth. The solver alone stops on the wall clock, "
        "so a busy machine weakens it. The conditions table below is read from what each game recorded.", ""]


def _test_lines(by_experiment: Sequence[tuple[ExperimentResult, list[tuple[Claim, Verdict]]]]) -> list[str]:
    """Each claim's test, its p-values before and after Holm, its power and why its verdict is what it is."""
    lines = ["## Every claim's test", ""]
    number = 0
    for result, pairs in by_experiment:
        experiment = result.experiment
        for claim, verdict in pairs:
            number += 1
            lines += [f"### {number}. {claim.text}", "",
                      f"- {experiment.paper}, {experiment.title.split(':')[0]}; the paper's number: "
                      f"{_paper_number(claim)}",
                      f"- verdict: **{verdict.status}** ({verdict.reason})",
                      "- ours:", *[f"    - {part}" for part in verdict.ours.split("; ")],
                      f"- test: {verdict.test}",
                      f"- p-values: {_p_values(verdict)}; after Holm: {_adjusted(verdict)}; power {_power(verdict)}",
                      ""]
        for claim in experiment.claims:
            if claim.sensitivity:
                lines += _sensitivity_lines(claim, result) + [""]
            elif claim.test == "rises" and not claim.baseline:
                lines += _strata_lines(claim, result) + [""]
    return lines


def _paper_number(claim: Claim) -> str:
    if claim.reading:
        return claim.reading
    return f"{100 * claim.paper_value:g}%" if claim.paper_value is not None else "(direction only)"


def _p_values(verdict: Verdict) -> str:
    """Each hypothesis of the claim, named, with its p-value before Holm's correction."""
    return "; ".join(f"{h.name}: {p_value_text(h.p_value)}" for h in verdict.hypotheses) or "not tested"


def _adjusted(verdict: Verdict) -> str:
    """Each hypothesis's Holm-adjusted p-value, in the order of ``_p_values``."""
    return "; ".join(p_value_text(p) for p in verdict.adjusted) or "n/a"


def p_value_text(value: float) -> str:
    """A p-value to two significant digits (three below 0.1, so that 0.0497 never reads as 0.05)."""
    if value < 1e-4:
        return "< 0.0001"
    return f"{value:.2g}" if value < 0.01 else f"{value:.3g}" if value < 0.1 else f"{value:.2f}"


def _invocation_text(new_games: int, seconds: float | None) -> str:
    """What this invocation played: a report written again from stored games says so rather than "0 games"."""
    if seconds is None:
        return ""
    if new_games == 0:
        return "; every game was recorded before, and this invocation played none"
    return f"; this invocation played {new_games} of them in {seconds / 60:.1f} min of wall time"


def _power(verdict: Verdict) -> str:
    return "n/a" if math.isnan(verdict.power) else f"{100 * verdict.power:.0f}% (at {verdict.level:.2g})"


def _conditions_section(played: dict[str, PlayConditions]) -> list[str]:
    """How busy the machine was while each experiment's games were played (``played``: by experiment key)."""
    lines = ["## The conditions the games were played under", "",
             "Read from the game records: the machine's 1-minute load average at the start and end of each game "
             "(median and maximum over those samples), the median share of its wall time each game's process "
             "spent on a CPU (near 100% when the game had a core to itself), the slowest single move and the games' "
             "wall time summed; and what played the games, as each game recorded it: a digest of the code that "
             "plays games (agents, engine and game loop; digests recorded by earlier versions covered the whole "
             "harness, statistics included), the commit it was played from (unknown for games recorded before "
             "commits were kept), the CPU model and how many games the run played at once.", "",
             "| experiment | games | with conditions recorded | load average (median, max) | CPU / wall "
             "(median) | slowest move | game time | played by (games) |", "|---|---:|---:|---|---:|---:|---:|---|"]
    for key, c in played.items():
        load = "not recorded" if not c.recorded else f"{c.load_median:.2f}, {c.load_max:.2f}"
        share = "n/a" if not c.recorded else f"{100 * c.cpu_share_median:.0f}%"
        slowest = "n/a" if math.isnan(c.slowest_move) else f"{c.slowest_move:.2f} s"
        origins = "; ".join(("not recorded" if origin is None else
                             f"code {origin.code} at {origin.commit_text.removeprefix('commit ')}, on {origin.cpu}, "
                             f"{origin.concurrency} at once") + f" ({games})" for origin, games in c.provenance)
        lines.append(f"| {key} | {c.games} | {c.recorded} | {load} | {share} | {slowest} | "
                     f"{c.game_seconds / 60:.1f} min | {origins} |")
    return lines + [""]


def _section_link(experiment: Experiment) -> str:
    """A link to an experiment's section by its short name: ``[Kang, Table 6](#kang-table6)``."""
    return f"[{experiment.source}](#{experiment.key})"


CAVEAT_SENTENCE = re.compile(r"(?<=[\w)]\.)(?<! al\.)\s+(?=[A-Za-z])|(?<=:)\s+(?=[A-Z])")
"""Where a claim's note splits into caveat sentences: after a full stop (kaggle's name starts one in lower case;
neither an ellipsis nor "et al." ends one), or a colon before a capital."""


def _section(result: ExperimentResult, verdicts: list[tuple[Claim, Verdict]], out: Path, plots: ModuleType,
             told: dict[str, str]) -> str:
    """One experiment: its setup, table and figure, each claim's verdict with what we measured, its caveats once
    (``told`` maps each caveat sentence printed by an earlier section to a link to that section, which a
    later section refers to instead of repeating it)."""
    experiment = result.experiment
    config = experiment.config
    openings = f", from shared random {experiment.opening_plies}-ply openings" if experiment.opening_plies else ""
    lines = [f'<a id="{experiment.key}"></a>', "", f"## {experiment.paper}, {experiment.title}", "", experiment.setup,
             f"{experiment.games_text()}{openings}; board {config.columns}x{config.rows}, {config.inarow} "
             f"in a row, actTimeout {config.act_timeout:g} s.", ""]
    if experiment.kind == SEATS:
        lines += _seats_table(result, out, plots)
    elif experiment.heat_map:
        lines += _heat_table(result, out, plots)
    elif experiment.kind == NODES:
        lines += _nodes_figures(result, out, plots)
    else:
        lines += _series_table(result, out, plots)
    lines += ["", "The paper's claims (our measurement of each: [the answer](#the-answer), and all of it in the "
              f"[appendix]({APPENDIX_FILE})):",
              ""]
    for claim, verdict in verdicts:
        lines.append(f"- *{claim.text}*: **{verdict.status}** ({verdict.reason})")
    caveats: list[str] = []
    earlier: list[str] = []
    for claim, _ in verdicts:
        for sentence in CAVEAT_SENTENCE.split(claim.note):
            if not sentence:
                continue
            if sentence not in told:
                told[sentence] = _section_link(experiment)
                caveats.append(sentence)
            elif told[sentence] not in earlier and told[sentence] != _section_link(experiment):
                earlier.append(told[sentence])
    those = "those under " + (" and ".join(earlier) if len(earlier) < 3 else
                              ", ".join(earlier[:-1]) + " and " + earlier[-1])
    if caveats:
        # One sentence a line: one paragraph, no line too long to read.
        lines += ["", f"Caveats (and {those}):" if earlier else "Caveats:", *caveats]
    elif earlier:
        lines += ["", f"Caveats: {those}."]
    return "\n".join(lines) + "\n"


def _series_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    experiment = result.experiment
    marks = {(series, x): value for series, x, value in experiment.paper_points}
    simulations = [simulations_per_move(c) for c in result.cells]
    show_simulations = any(simulations)
    # Without a draw the score is the win rate: its column would repeat it.
    show_score = any(c.match.summary.total.draws for c in result.cells)
    lines = ["| series | " + experiment.x_label + " | first agent | second agent | W-D-L | W-D-L moving first | "
             "W-D-L moving second | win rate (95%) | " + ("score (95%) | " if show_score else "")
             + ("simulations per move | " if show_simulations else "") + "paper |",
             "|---|---|---|---|---|---|---|---|" + ("---|" if show_score else "")
             + ("---:|" if show_simulations else "") + "---:|"]
    series: dict[str, list[tuple[str | float, Interval]]] = {}
    for cell_result, sims in zip(result.cells, simulations, strict=True):
        cell, summary = cell_result.cell, cell_result.match.summary
        total, first, second = summary.total, summary.as_first, summary.as_second
        rate = cell_score(cell_result, WIN)
        x = cell.value if experiment.log_x and cell.value is not None else cell.x
        series.setdefault(cell.series, []).append((x, rate.interval()))
        paper = marks.get((cell.series, cell.x))
        sims_text = ", ".join(f"{value:.0f}" for value in sims.values()) or "n/a"
        lines.append(f"| {cell.series} | {cell.x} | `{cell.first}` | `{cell.second}` | "
                     f"{total.wins}-{total.draws}-{total.losses} | {first.wins}-{first.draws}-{first.losses} | "
                     f"{second.wins}-{second.draws}-{second.losses} | {clustered_percent(rate)} | "
                     + (f"{clustered_percent(cell_score(cell_result, 'score'))} | " if show_score else "")
                     + (f"{sims_text} | " if show_simulations else "")
                     + f"{'' if paper is None else f'{100 * paper:g}%'} |")
    reference = [(name, _placed(experiment, name, x), value) for name, x, value in experiment.paper_points]
    figure = plots.interval_series_plot(series, out / f"{experiment.key}.png", xlabel=experiment.x_label,
                                        ylabel="win rate of the first agent (95% interval)",
                                        title=f"{experiment.paper}, {experiment.title}",
                                        reference=reference, lines=experiment.paper_lines,
                                        log_x=experiment.log_x, x_unit="ms" if experiment.log_x else "",
                                        connect=experiment.ordered_x)
    note = "Rates are clustered estimates over the effective games ([appendix](" + APPENDIX_FILE + "))."
    if show_simulations:
        note += " Simulations per move: the MCTS agent's mean, as it reported them."
    return lines + ["", note, "", f"![{experiment.title}]({figure.name})"]


def _sensitivity_lines(claim: Claim, result: ExperimentResult) -> list[str]:
    """The claimed average recomputed over every range of its cells and seat mix, the paper's number marked."""
    assert claim.paper_value is not None
    table = sensitivity_table([c for c in result.cells if (c.cell.series, c.cell.x) in set(claim.cells)],
                              claim.counts)
    if not table:
        return []
    mixes = [mix for mix, _ in table[0][1]]
    lines = ["", f"*{claim.text}*: the average over each range of T_max (equally weighted) at each share of games "
             f"moving first, 95% intervals; **bold** where the paper's {100 * claim.paper_value:g}% lies inside.", "",
             "| T_max range | " + " | ".join(mixes) + " |", "|---|" + "---:|" * len(mixes)]
    for label, row in table:
        texts = [percent(interval) for _, interval in row]
        marked = [f"**{text}**" if interval.low <= claim.paper_value <= interval.high else text
                  for text, (_, interval) in zip(texts, row, strict=True)]
        lines.append(f"| {label} | " + " | ".join(marked) + " |")
    return lines


def _strata_lines(claim: Claim, result: ExperimentResult) -> list[str]:
    """A trend claim's strata (series by seat): each point's win rate and the rise across the series."""
    strata = trend_strata(claim, result)
    if not strata:
        return []
    labels = {x: point[1] for point, x in zip(claim.cells, claim.scores, strict=True)}
    xs = sorted({x for st in strata for x, _ in st.points}, key=lambda x: claim.scores.index(x))
    first, second, last = labels[xs[0]], labels[xs[1]], labels[xs[-1]]
    lines = ["", f"*{claim.text}*, by series and seat: the first agent's win rate at each point (95%), its change "
             f"from {first} to {last} (by the weighted least-squares trend, in points, 95%; a fall is negative) and "
             f"the change within the range from {second} to {last}, to show whether the first step carries it.", "",
             "| series, seat | " + " | ".join(labels[x] for x in xs) + f" | change {first} to {last} | change "
             f"{second} to {last} |", "|---|" + "---:|" * (len(xs) + 2)]
    for st in strata:
        by_x = dict(st.points)
        changes = [st.change(), st.within(xs[1:]).change() if len(st.points) > 2 else None]
        # every game alike: no trend to give
        shown = [None if c is None or not c.low < c.high else c for c in changes]
        lines.append(f"| {st.label} | " + " | ".join(clustered_percent(by_x[x]) if x in by_x else "" for x in xs)
                     + "".join(" | n/a" if c is None else f" | {100 * c.value:+.1f} [{100 * c.low:+.1f}, "
                               f"{100 * c.high:+.1f}]" for c in shown) + " |")
    return lines


def _shared_games_lines(results: Sequence[ExperimentResult]) -> list[str]:
    """Cells of different experiments whose games are largely the same games, and the claims resting on them."""
    shared = shared_games(results)
    if not shared:
        return []
    lines = ["## Claims resting on the same games", "",
             "Some cells of different experiments play the same agents (under two names) from the same openings and "
             "seeds, so their games are largely the same, move for move. Holm's correction holds under any "
             "dependence, so the claims resting on them are still tested, but they are not independent "
             "confirmations of each other.", ""]
    for item in shared:
        claims = "; ".join(f"*{claim.text}*" for claim in item.claims)
        lines.append(f"- {item.first} and {item.second}: {item.common} of {item.games} games the same move for "
                     f"move; claims resting on them: {claims or 'none'}")
    return lines + [""]


def _placed(experiment: Experiment, series: str, x: str) -> str | float:
    """Where the figure puts cell (series, x): its number on a log axis, else its label."""
    cell = experiment.cell(series, x)
    return cell.value if experiment.log_x and cell.value is not None else x


def _seats_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """Kang's layout: the first mover's depth by column, the second mover's by row, both win rates."""
    experiment = result.experiment
    by_seats: dict[tuple[str, str], list[int]] = {}
    for record in (r for c in result.cells for r in c.match.records if r.scored):
        tally = by_seats.setdefault(record.agents, [0, 0, 0])
        tally[0 if record.winner == 0 else 2 if record.winner == 1 else 1] += 1
    labels = {c.first: c.series for c in experiment.cells}
    specs = list(labels)
    lines = ["As the paper's Table 6: columns are the first mover's depth, rows the second mover's; each cell "
             "gives the first mover's win rate (95% interval) / the second mover's and the games. The pairs of "
             "a colour-swapped match sit in mirrored cells, so these intervals are plain Wilson over the games "
             "of one seat order.", "",
             "| second \\ first | " + " | ".join(labels[s] for s in specs) + " |",
             "|---|" + "---|" * len(specs)]
    grid: list[list[Interval | None]] = []
    notes: list[list[str]] = []
    for second in specs:
        cells: list[str] = []
        row: list[Interval | None] = []
        row_notes: list[str] = []
        for first in specs:
            wins, draws, losses = by_seats.get((first, second), [0, 0, 0])
            if wins + draws + losses == 0:
                cells.append("")
                row.append(None)
                row_notes.append("")
                continue
            mine, theirs = win_rate(wins, draws, losses), win_rate(losses, draws, wins)
            cells.append(f"{percent(mine)} / {100 * theirs.value:.1f}%, {wins + draws + losses}")
            row.append(mine)
            row_notes.append(f"2nd {100 * theirs.value:.0f}%, n={wins + draws + losses}")
        lines.append(f"| {labels[second]} | " + " | ".join(cells) + " |")
        grid.append(row)
        notes.append(row_notes)
    first_wins, draws, second_wins = (sum(t[k] for t in by_seats.values()) for k in range(3))
    lines += ["", f"Over the whole table the first mover won {percent(win_rate(first_wins, draws, second_wins))} "
              f"and the second mover {percent(win_rate(second_wins, draws, first_wins))} of "
              f"{first_wins + draws + second_wins} games, whatever the depths."]
    depth_labels = [labels[s] for s in specs]
    figure = plots.heat_map(grid, out / f"{experiment.key}.png", rows=depth_labels, columns=depth_labels,
                            xlabel="first mover's depth", ylabel="second mover's depth",
                            title=f"{experiment.paper}, {experiment.title.split(':')[0]}: first mover's win rate",
                            colour_label="first mover's win rate", notes=notes)
    return lines + ["", f"![{experiment.title}]({figure.name})"]


def _heat_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """Table 9 as the paper lays it out: one row per heuristic, one column per depth, each side's win rate."""
    experiment = result.experiment
    lines = _series_table(result, out, plots)[:-1]
    columns = list(dict.fromkeys(c.cell.x for c in result.cells))
    series = list(dict.fromkeys(c.cell.series for c in result.cells))
    labels: list[str] = []
    rows: list[list[Interval | None]] = []
    notes: list[list[str]] = []
    for name in series:
        # A series "H1 vs H2 (ours)" gives the rows "H1 (ours)" and "H2 (ours)".
        first, _, rest = name.partition(" vs ")
        second, suffix = rest.split(" ", 1) if " " in rest else (rest, "")
        labels += [f"{first} {suffix}".strip(), f"{second} {suffix}".strip()]
        by_x = {c.cell.x: c for c in result.cells if c.cell.series == name}
        mine: list[Interval | None] = []
        theirs: list[Interval | None] = []
        mine_notes, their_notes = [], []
        for x in columns:
            cell_result = by_x.get(x)
            if cell_result is None:
                mine.append(None)
                theirs.append(None)
                mine_notes.append("")
                their_notes.append("")
                continue
            total = cell_result.match.summary.total
            mine.append(win_rate(total.wins, total.draws, total.losses))
            theirs.append(win_rate(total.losses, total.draws, total.wins))
            mine_notes.append(f"n={total.games}")
            their_notes.append(f"draws {total.draws}")
        rows += [mine, theirs]
        notes += [mine_notes, their_notes]
    figure = plots.heat_map(rows, out / f"{experiment.key}.png", rows=labels,
                            columns=columns, xlabel="search depth of both",
                            ylabel="heuristic", colour_label="win rate", notes=notes,
                            title=f"{experiment.paper}, {experiment.title.split(':')[0]}: win rate of each heuristic")
    return lines + [f"![{experiment.title}]({figure.name})", "",
                    "The heat map gives each side's plain Wilson interval over its games."]


def _nodes_figures(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    experiment = result.experiment
    samples = move_samples(result)
    nodes: dict[str, list[tuple[str | float, Interval]]] = {}
    seconds: dict[str, list[tuple[str | float, Interval]]] = {}
    if not samples:
        return ["No move of these games reported its search statistics, so there are no node counts to show."]
    lines = ["Nodes, depths and evaluations are those each move's search reported during the game.", "",
             "| series | moves searched | depth reached | mean nodes per move (95%) | mean evaluations per move "
             "(95%) | mean ms per move (95%) |", "|---|---:|---|---|---|---|"]
    for series in dict.fromkeys(s.series for s in samples):
        mine = [s for s in samples if s.series == series]
        for move in sorted({s.move for s in mine}):
            at = [s for s in mine if s.move == move]
            nodes.setdefault(series, []).append((float(move), geometric_interval([max(1, s.nodes) for s in at])))
            timed = [1000 * s.seconds for s in at if s.seconds > 0]
            if timed:
                seconds.setdefault(series, []).append((float(move), geometric_interval(timed)))
        n = hypothesis_tests.mean_interval([s.nodes for s in mine])
        t = hypothesis_tests.mean_interval([1000 * s.seconds for s in mine if s.seconds == s.seconds])
        counted = [s.evaluations for s in mine if s.evaluations is not None]
        e = hypothesis_tests.mean_interval(counted) if counted else None
        lines.append(f"| {series} | {len(mine)} | {_depths([s.depth for s in mine])} | "
                     f"{n.value:.0f} [{n.low:.0f}, {n.high:.0f}] | "
                     + ("n/a" if e is None else f"{e.value:.0f} [{e.low:.0f}, {e.high:.0f}]")
                     + f" | {t.value:.1f} [{t.low:.1f}, {t.high:.1f}] |")
    title = f"{experiment.paper}, {experiment.title.split(':')[0]}"
    node_figure = plots.interval_series_plot(nodes, out / f"{experiment.key}-nodes.png", xlabel="move number",
                                             ylabel="nodes searched (geometric mean, 95% interval)", title=title,
                                             log_y=True, unit_range=False)
    time_figure = plots.interval_series_plot(seconds, out / f"{experiment.key}-time.png", xlabel="move number",
                                             ylabel="ms per move in the game (geometric mean, 95%)", title=title,
                                             log_y=True, unit_range=False)
    return lines + ["", f"![nodes per move]({node_figure.name})", "", f"![time per move]({time_figure.name})"]


def _depths(depths: Sequence[int | None]) -> str:
    """The depths the searches completed: ``4``, ``3 to 4`` when some stopped short, ``n/a`` if none said."""
    known = [d for d in depths if d is not None]
    if not known:
        return "n/a"
    low, high = min(known), max(known)
    return str(low) if low == high else f"{low} to {high}"


def geometric_interval(values: Sequence[float]) -> Interval:
    """The geometric mean and its 95% interval (the normal interval of the logarithms, mapped back).

    Counts and times spread over orders of magnitude and never go below zero, which the
    interval of their plain mean would. The values must be positive.
    """
    logs = hypothesis_tests.mean_interval([math.log(v) for v in values])
    return Interval(math.exp(logs.value), math.exp(logs.low), math.exp(logs.high))


KANG_ELO_EXPERIMENTS = ("kang-table6", "kang-table7", "kang-table8", "kang-table9")
"""Kang's H1/H2 variants meet only each other: their games make a scale of their own."""


def _elo_section(results: Sequence[ExperimentResult], out: Path, plots: ModuleType,
                 unrated: list[str]) -> list[str]:
    lines = ["## Elo of every agent the games can rate", "",
             "A joint maximum-likelihood (Bradley-Terry) fit, draws as half points, of the agents the games can "
             "place: each took points from, and gave points to, the others along some chain of games, winning and "
             f"losing at least {rated_group.MIN_DECISIVE_POINTS:g} points (the others are listed with the reason). "
             "Intervals are 95% profile-likelihood ones, relative to the anchor.", ""]
    lines += _elo_table(results, ELO_EXPERIMENTS, ELO_ANCHOR, "The Sheoran agents and the solver",
                        out / "elo.png", plots, unrated)
    lines += _elo_table(results, KANG_ELO_EXPERIMENTS, h_spec(2, "h1"),
                        "Kang's H1 and H2, on a scale of their own (no game ties them to the agents above)",
                        out / "kang-elo.png", plots, unrated)
    return lines


def _elo_table(results: Sequence[ExperimentResult], keys: Sequence[str], anchor: str, title: str, figure: Path,
               plots: ModuleType, unrated: list[str]) -> list[str]:
    """One fit's goodness of fit and table, the agents it cannot rate (why, into ``unrated``, for the appendix) and
    ``figure`` of its ratings by depth and T_max."""
    points: dict[tuple[str, str], tuple[float, int]] = {}
    for result in results:
        if result.experiment.key not in keys:
            continue
        for cell_result in result.cells:
            total = cell_result.match.summary.total
            # One agent, one name: a spec spelling a default out is the same agent as one that leaves it out.
            pair = (AgentSpec.parse(cell_result.cell.first).without_defaults().text,
                    AgentSpec.parse(cell_result.cell.second).without_defaults().text)
            if total.games and pair[0] != pair[1]:
                score, games = points.get(pair, (0.0, 0))
                points[pair] = (score + total.wins + total.draws / 2, games + total.games)
    lines = [f"### {title}", ""]
    rated = rated_group.rankable_players(points, anchor)
    if not rated:
        return lines + [f"No two agents of these experiments both won and lost {rated_group.MIN_DECISIVE_POINTS:g} "
                        "points against each other: nothing to rate.", ""]
    if anchor not in rated:
        anchor = max(sorted(rated), key=lambda name: sum(g for pair, (_, g) in points.items() if name in pair))
    inside = {pair: value for pair, value in points.items() if pair[0] in rated and pair[1] in rated}
    ratings = statistics.fit_ratings(inside, anchor, profile=True)
    fit = rated_group.rating_fit(inside, ratings)
    fit_text = f"Goodness of fit: deviance {fit.deviance:.1f} on {fit.df} df, p = {p_value_text(fit.p_value)}"
    if fit.fails:
        ratings = statistics.fit_ratings(inside, anchor, z=statistics.Z95 * math.sqrt(fit.dispersion), profile=True)
        fit_text += (f": **the model does not fit**. One Elo per agent does not explain these games: the results "
                     "are not transitive (an agent can beat a second that beats a third and still lose to the third), "
                     "so the scale orders the agents only roughly. The intervals below are quasi-likelihood ones, "
                     f"widened by the square root of the dispersion factor {fit.dispersion:.1f} (deviance / df) to "
                     "the spread the games really show.")
    else:
        fit_text += ": the model fits (one Elo per agent explains the games within their chance)."
    lines += [fit_text, "", f"`{anchor}` is pinned at 0. Agents whose intervals overlap share a rank (the rank is "
              "1 plus the agents whose interval lies wholly above).", "",
              "| rank | agent | Elo | 95% interval | games |", "|---:|---|---:|---|---:|"]
    for rank, rating in zip(rated_group.competition_ranks(ratings), ratings, strict=True):
        interval = "anchor" if rating.name == anchor else interval_text(rating.low, rating.high)
        lines.append(f"| {rank} | `{rating.name}` | {signed(rating.elo)} | {interval} | {rating.games} |")
    outside = sorted({name for pair in points for name in pair} - rated)
    if outside:
        lines += ["", "Not rated ([why](" + APPENDIX_FILE + "#not-rated)): " + ", ".join(f"`{n}`" for n in outside)]
        unrated += [f"- `{name}`: {_why_unrated(name, points, rated)}" for name in outside]

    panels: list[tuple[str, dict[str, list[tuple[str | float, Interval]]], bool]] = []
    for axis, log_x, series in zip(("minimax depth", "MCTS time per move (ms)", "search depth"), (False, True, False),
                                   elo_series(ratings), strict=True):
        if series:
            panels.append((axis, {label: [(x, Interval(r.elo, r.low, r.high)) for x, r in rated_points]
                                  for label, rated_points in series.items()}, log_x))
    if panels:
        caption = "Elo by depth" + (" and by time per move" if any(log_x for _, _, log_x in panels) else "")
        plots.elo_panels_plot(panels, figure, f"{caption} ({anchor} = 0)")
        lines += ["", f"![{caption}]({figure.name})"]
    return lines + [""]


EloSeries = dict[str, list[tuple[str | float, statistics.Rating]]]


def elo_series(ratings: Sequence[statistics.Rating]) -> tuple[EloSeries, EloSeries, EloSeries]:
    """The ratings that form a series, by label: minimax by depth, MCTS by T_max (ms), Kang's H1 and H2 by depth.

    Each paper's agent as written and our enhanced one are separate series (the papers' curves
    are about theirs); an agent with any other parameter (Kang's feature switches, a memo turned
    off at depth 4/5) is a point of no series.
    """
    by_depth: EloSeries = {}
    by_time: EloSeries = {}
    by_heuristic: EloSeries = {}
    for rating in ratings:
        spec = AgentSpec.parse(rating.name)
        parameters = spec.kwargs
        paper = parameters.pop("rules", None) == "paper"
        if spec.name == "minimax" and parameters.get("evaluation") in ("h1", "h2") and set(parameters) == {
                "depth", "evaluation"}:
            label = parameters["evaluation"].upper() + ("" if paper else " (ours)")
            by_heuristic.setdefault(label, []).append((float(parameters["depth"]), rating))
        # Sheoran's minimax as written has no table at depths 1-3 (memo=false) and one at 4/5; ours always has one
        elif spec.name == "minimax" and set(parameters) <= {"depth", "memo"} and \
                parameters.get("memo", True) == ("depth" not in parameters or not paper):
            label = "Sheoran's minimax" if paper else "our minimax"
            depth = str(parameters["depth"]) if "depth" in parameters else "4/5"
            by_depth.setdefault(label, []).append((depth, rating))
        elif spec.name == "mcts" and set(parameters) - {"clock", "proofs", "reuse"} == {"time_budget"}:
            plain = parameters.get("proofs") is False and parameters.get("reuse") is False
            ours = "proofs" not in parameters and "reuse" not in parameters
            if plain or ours:
                label = "Sheoran's MCTS (plain UCB1)" if plain else "our MCTS"
                by_time.setdefault(label, []).append((1000 * float(parameters["time_budget"]), rating))
    for series in (by_depth, by_time, by_heuristic):
        for points in series.values():
            points.sort(key=lambda point: point[0])
    return by_depth, by_time, by_heuristic


def _why_unrated(name: str, points: dict[tuple[str, str], tuple[float, int]], rated: set[str]) -> str:
    """Why ``name`` is outside the rated group: it won, or lost, every game against it (or never met it)."""
    scored = games = 0.0
    for (a, b), (score, played) in points.items():
        if a == name and b in rated:
            scored, games = scored + score, games + played
        elif b == name and a in rated:
            scored, games = scored + played - score, games + played
    if games == 0:
        return "played only agents outside the rated group"
    if 0 < scored < games and min(scored, games - scored) < rated_group.MIN_DECISIVE_POINTS:
        return (f"won {scored:g} and lost {games - scored:g} of {games:.0f} points against the rated agents: fewer "
                f"than {rated_group.MIN_DECISIVE_POINTS:g} won or lost, too few to place it")
    if scored == games:
        return f"won every one of its {games:.0f} games against the rated agents (its Elo is unbounded above)"
    if scored == 0:
        return f"lost every one of its {games:.0f} games against the rated agents (its Elo is unbounded below)"
    return "tied to the rated agents only through agents that won or lost every game"
