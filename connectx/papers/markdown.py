"""The report of the seed papers' experiments: Markdown beside the papers' claims, with one PNG per figure.

The report is a pure function of the recorded games plus the run's software: win rates and scores
with 95% intervals, the conditions each experiment's games were played under (as the games
recorded them), nodes per move as the games' searches reported them, the Elo of every agent the
games can rate, and the verdict on each claim (``connectx.papers.claim_tests``), every claim's test corrected
for all the others. The tables and figures (``figure_tables``) and the ratings (``ratings_section``)
are written by modules of their own.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from connectx.papers import clustered_scores
from connectx.papers.cell_scores import clustered_percent, percent
from connectx.papers.claim_tests import judge_all
from connectx.papers.design import NODES, SEATS, Claim, Experiment, Profile
from connectx.papers.figure_tables import heat_table, nodes_figures, seats_table, series_table
from connectx.papers.ratings_section import elo_section
from connectx.papers.report_format import APPENDIX_FILE, REPORT_FILE, p_value_text, sentence_lines
from connectx.papers.runner import ExperimentResult, PlayConditions, play_conditions
from connectx.papers.sensitivity import sensitivity_table
from connectx.papers.shared_games import shared_games
from connectx.papers.trends import trend_strata
from connectx.papers.verdicts import (
    AGREES,
    ALPHA,
    CONTRADICTED,
    NOT_COMPARABLE,
    NOT_SETTLED,
    PARTLY,
    SMALLER,
    Verdict,
)


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
    elo = elo_section(results, out, plots, unrated)
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


def _plain_rule_lines() -> list[str]:
    return ["## How a verdict is reached", "", *sentence_lines(
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
    return [line for paragraph in _full_rule(claims, hypotheses) for line in sentence_lines(paragraph)]


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
        lines += seats_table(result, out, plots)
    elif experiment.heat_map:
        lines += heat_table(result, out, plots)
    elif experiment.kind == NODES:
        lines += nodes_figures(result, out, plots)
    else:
        lines += series_table(result, out, plots)
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


