"""The report of the seed papers' experiments: Markdown beside the papers' claims, with one PNG per figure.

The report is a pure function of the recorded games plus the run's software: win rates and scores
with 95% intervals, the conditions each experiment's games were played under (as the games
recorded them), nodes per move as the games' searches reported them, the Elo of every agent the
games can rate, and the verdict on each claim (``connectx.papers.claims.claim_tests``), every claim's test corrected
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

from connectx.evaluation.statistics import clustered_scores
from connectx.papers.claims.cell_scores import clustered_percent, percent
from connectx.papers.claims.claim_tests import judge, judge_every_control
from connectx.papers.claims.p_value_text import p_value_text
from connectx.papers.claims.sensitivity import sensitivity_table
from connectx.papers.claims.shared_games import shared_games
from connectx.papers.claims.trends import trend_strata
from connectx.papers.claims.verdicts import ALPHA, CONTROLS, PER_CLAIM, POWER_FLOOR, RULE_VERSION, Verdict
from connectx.papers.experiments.catalogue import UNTESTED
from connectx.papers.experiments.design import DEPTHS, NODES, SEATS, Claim, Experiment, Profile
from connectx.papers.experiments.runner import ExperimentResult, PlayConditions, play_conditions
from connectx.papers.writing.answer_section import (
    RULE_LINK,
    ClaimEntry,
    answer_lines,
    number_claims,
    paper_number,
    plain_rule_lines,
)
from connectx.papers.writing.figure_tables import (
    cells_table,
    depth_figure,
    heat_table,
    nodes_figures,
    seats_table,
    series_table,
)
from connectx.papers.writing.ratings_section import elo_section
from connectx.papers.writing.report_format import APPENDIX_FILE, REPORT_FILE, sentence_lines


def write_report(
    profile: Profile,
    results: Sequence[ExperimentResult],
    out: Path,
    conditions: Sequence[str] = (),
    seconds: float | None = None,
) -> Path:
    """``out/report.md`` (the answer first, then each experiment), ``out/appendix.md`` (every test, p-value and
    condition) and one PNG per figure, from the recorded games of ``results``."""
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from connectx.evaluation import plots

    out.mkdir(parents=True, exist_ok=True)
    claims = [(claim, result) for result in results for claim in result.experiment.claims]
    judged = judge_every_control(claims)
    entries = number_claims(
        [
            (claim, result.experiment, {control: judged[control][i] for control in judged})
            for i, (claim, result) in enumerate(claims)
        ]
    )
    by_experiment = [(result, [e for e in entries if e.experiment is result.experiment]) for result in results]
    total_games = sum(len(c.match.records) for r in results for c in r.cells)
    new_games = sum(c.played for r in results for c in r.cells)
    played = {r.experiment.key: play_conditions(r) for r in results}
    game_hours = sum(c.game_seconds for c in played.values()) / 3600
    sections = [_section(result, mine, out, plots) for result, mine in by_experiment]
    unrated: list[str] = []
    elo = elo_section(results, out, plots, unrated)
    report = [
        "# The seed papers' experiments, reproduced",
        "",
        f"Profile **{profile.name}**: {total_games} real kaggle-environments games in colour-swapped pairs, read "
        f"back from `runs/`. Intervals are 95%: a rate's is Wilson's score interval over its effective games (games "
        "from a shared opening are not independent, so they count as fewer), not the symmetric cluster-robust Wald "
        "interval, which can differ in the last digit. Every test, p-value and condition is in [the appendix]"
        f"({APPENDIX_FILE}).",
        "",
        *_quick_warning(profile),
        *answer_lines(entries, UNTESTED),
        *plain_rule_lines(),
        *sections,
        *elo,
    ]
    appendix = [
        "# Appendix: how each verdict was reached",
        "",
        f"The tests behind [the report]({REPORT_FILE}), with every number. Profile **{profile.name}**: "
        f"{total_games} games, schedule seed {profile.seed} (game seeds and openings follow from it).",
        "",
        *[f"- {line}" for line in conditions],
        f"- the games took {game_hours:.1f} h of game time in all (each game's wall time, summed; per "
        "experiment in the conditions table)",
        f"- written {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC" + _invocation_text(new_games, seconds),
        f"- rerun: `connectx report{' --quick' if profile.name == 'quick' else ''} --out {out.parent}` "
        "(it resumes from the games recorded under `runs/`)",
        "",
        *_full_rule_lines(),
        *_test_lines(by_experiment),
        *_caveat_lines(by_experiment),
        "## Every cell in full",
        "",
        *[line for result in results if result.experiment.kind != NODES for line in cells_table(result)],
        *_conditions_section(played),
        *_shared_games_lines(results),
        *(['<a id="not-rated"></a>', "", "## Agents the ratings leave out", "", *unrated, ""] if unrated else []),
    ]
    (out / APPENDIX_FILE).write_text("\n".join(appendix) + "\n")
    path = out / REPORT_FILE
    path.write_text("\n".join(report) + "\n")
    return path


def _quick_warning(profile: Profile) -> list[str]:
    if profile.name == "full":
        return []
    return [
        f"**This is the {profile.name} profile, a smoke run: with this few games per point the intervals are "
        "far too wide to confirm or refute the papers. Run `make report` for the full profile.**",
        "",
    ]


def _full_rule_lines() -> list[str]:
    return [line for paragraph in _full_rule() for line in sentence_lines(paragraph)]


def _full_rule() -> list[str]:
    return [
        "## The rule in full",
        "",
        f"Version {RULE_VERSION} of the rule, stated in [docs/papers.md]({RULE_LINK}) and applied by "
        "`connectx/papers/claims/verdicts.py`. Every claim is read as a statement about an effect, signed so that the "
        "claim says it is positive (a rate above 50%, a rise along a series, a correlation the claimed way), or, "
        "for a claimed rate or two rates claimed similar, that it lies within a stated margin. Its test brings "
        "up to three hypotheses: *no effect* (two-sided; rejected the claimed way it shows the claim, the other "
        "way its opposite) or, for a rate, *further than the margin* (two one-sided tests, TOST) and *within the "
        "margin* (the one-sided test at its nearer edge); and, for a direction, *an effect at least as large as "
        "the words imply* (one-sided). At most one of these nulls can be true at once, so testing each at "
        f"{ALPHA:g} keeps the chance of a false verdict on a claim at most {ALPHA:g}.",
        "",
        'Words with a size ("much", "easily", "dominates") are given one; words without one are given the '
        "smallest effect the report counts, and ruling that out leaves them **not settled**. A rise along a series "
        "is looked for within each series and seat (a stratified Cochran-Armitage test), and Cochran's Q of the "
        "strata's slopes says whether they differ. A trend shown over its whole range must still be shown, at "
        f"{ALPHA:g}, with the step at either end left out, or it **agrees only in part**; a stratum whose trend "
        f"over that rest goes the other way at {ALPHA:g} over the strata (Bonferroni) makes it **reverse**. A "
        "claim about every cell is an intersection-union test (shown only when every cell shows it; its opposite "
        "or a size ruled out in any cell counts, Bonferroni over the cells), and its verdict names the cells "
        f"that fail. Nothing rejected is **not settled** when the test had {100 * POWER_FLOOR:g}% power or more "
        "to show the claim. Below that power (version 4) it **leans the claimed way** when a claim about every "
        f"cell has cells significant the claimed way at {ALPHA:g} and none the other way, and **leans against the "
        "words** when two rates claimed similar differ significantly (their difference's interval leaves 0) "
        "without being shown beyond the margin; each verdict states the figure. Otherwise it **cannot be tested "
        "at this size**, and when every game went one way no test can run: the claim is **at its ceiling**. Two "
        "rates shown within the margin of each other while both intervals lie within the margin of 0% (or 100%) "
        "**agree only at the floor**. A claim whose direction cannot fail (alpha-beta never searches more nodes "
        "than the full tree) is shown by its size: its *no effect* becomes *at most the size the words imply*. "
        "Where the words allow a second reading, or say more than the claim tests, that reading is tested on the "
        "same games at the rule's level and stated beside the verdict, in no family and never counted.",
        "",
        "The papers' claims are one family and the project's own another. The sensitivity line on the first "
        "screen gives the verdicts under Holm's family-wise correction and under Benjamini-Hochberg's false "
        "discovery rate, each over the papers' claims; every claim's p-values under both are below.",
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
        "flagged. A rate's interval is Wilson's score interval with the effective games in place of the games "
        '(statsmodels\' `proportion_confint(method="wilson")` at count = rate x effective games, nobs = effective '
        "games, which the tests check it against): it stays inside 0% to 100% and is honest near them, where many "
        "of these cells lie. The cluster-robust Wald interval (the mean plus or minus 1.96 standard errors of "
        'statsmodels\' OLS with `cov_type="cluster"`) is symmetric and can differ in the last digit: for claims 7, '
        "16 and 26 of the full profile it gives 59.7 to 64.4, 28.0 to 33.9 and 36.2 to 48.1 where Wilson gives "
        "59.6 to 64.5, 28.0 to 34.0 and 36.3 to 48.3; no verdict rests on the difference.",
        "",
        "Every MCTS counts its time per move T_max in CPU seconds of the game's process (`clock=cpu`), and its "
        "games allow 30 s of wall time per move, so a busy machine can neither shorten an MCTS move nor time a "
        "move out; kaggle's built-in agents search to a fixed depth. The solver alone stops on the wall clock, "
        "so a busy machine weakens it. The conditions table below is read from what each game recorded.",
        "",
    ]


def _test_lines(by_experiment: Sequence[tuple[ExperimentResult, list[ClaimEntry]]]) -> list[str]:
    """Each claim's test, its p-values as tested and under the sensitivity line's corrections, its power and why
    its verdict is what it is."""
    lines = ["## Every claim's test", ""]
    for result, entries in by_experiment:
        experiment = result.experiment
        for entry in entries:
            verdict = entry.verdict
            others = "; ".join(
                f"{control}: {_p_list(entry.verdicts[control])} ({entry.verdicts[control].status})"
                for control in CONTROLS
                if control != PER_CLAIM
            )
            lines += [
                f'<a id="{entry.anchor}"></a>',
                "",
                f"### {entry.number}. {entry.claim.text}",
                "",
                f"- {experiment.paper}, {experiment.title.split(':')[0]}; the paper's number: "
                f"{paper_number(entry.claim)}",
                f"- verdict: **{verdict.status}** ({verdict.reason})",
                "- ours:",
                *[f"    - {part}" for part in verdict.ours.split("; ")],
                f"- test: {verdict.test}",
                f"- p-values: {_p_values(verdict)}; power {_power(verdict)}",
                f"- corrected over the papers' claims: {others}"
                if not entry.claim.own
                else f"- corrected over this project's claims: {others}",
                *_companion_lines(entry.claim, result),
                "",
            ]
        for claim in experiment.claims:
            if claim.sensitivity:
                lines += _sensitivity_lines(claim, result) + [""]
            elif claim.test == "rises" and not claim.baseline:
                lines += _strata_lines(claim, result) + [""]
    return lines


def _companion_lines(claim: Claim, result: ExperimentResult) -> list[str]:
    """The claim's companion reading's test in full (``Claim.companion``): stated beside the verdict, never counted."""
    if claim.companion is None:
        return []
    verdict = judge(claim.companion, result)
    return [
        f"- {claim.companion_words}, stated beside the verdict and never counted: *{claim.companion.text}*: "
        f"**{verdict.status}** ({verdict.reason}); ours: {verdict.ours}; test: {verdict.test}; p-values: "
        f"{_p_values(verdict)}; power {_power(verdict)}"
    ]


def _p_values(verdict: Verdict) -> str:
    """Each hypothesis of the claim, named, with its p-value as the rule tests it."""
    return "; ".join(f"{h.name}: {p_value_text(h.p_value)}" for h in verdict.hypotheses) or "not tested"


def _p_list(verdict: Verdict) -> str:
    """Each hypothesis's p-value as ``verdict``'s control adjusted it, in the order of ``_p_values``."""
    return ", ".join(p_value_text(p) for p in verdict.adjusted) or "n/a"


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
    lines = [
        "## The conditions the games were played under",
        "",
        "Read from the game records: the machine's 1-minute load average at the start and end of each game "
        "(median and maximum over those samples), the median share of its wall time each game's process "
        "spent on a CPU (near 100% when the game had a core to itself), the slowest single move and the games' "
        "wall time summed; and what played the games, as each game recorded it: a digest of the code that "
        "plays games (agents, engine and game loop; digests recorded by earlier versions covered the whole "
        "harness, statistics included), the commit it was played from (unknown for games recorded before "
        "commits were kept), the CPU model and how many games the run played at once.",
        "",
        "| experiment | games | with conditions recorded | load average (median, max) | CPU / wall "
        "(median) | slowest move | game time | played by (games) |",
        "|---|---:|---:|---|---:|---:|---:|---|",
    ]
    for key, c in played.items():
        load = "not recorded" if not c.recorded else f"{c.load_median:.2f}, {c.load_max:.2f}"
        share = "n/a" if not c.recorded else f"{100 * c.cpu_share_median:.0f}%"
        slowest = "n/a" if math.isnan(c.slowest_move) else f"{c.slowest_move:.2f} s"
        origins = "; ".join(
            (
                "not recorded"
                if origin is None
                else f"code {origin.code} at {origin.commit_text.removeprefix('commit ')}, on {origin.cpu}, "
                f"{origin.concurrency} at once"
            )
            + f" ({games})"
            for origin, games in c.provenance
        )
        lines.append(
            f"| {key} | {c.games} | {c.recorded} | {load} | {share} | {slowest} | "
            f"{c.game_seconds / 60:.1f} min | {origins} |"
        )
    return lines + [""]


CAVEAT_SENTENCE = re.compile(r"(?<=[\w)]\.)(?<! al\.)\s+(?=[A-Za-z])|(?<=:)\s+(?=[A-Z])")
"""Where a claim's note splits into caveat sentences: after a full stop (kaggle's name starts one in lower case;
neither an ellipsis nor "et al." ends one), or a colon before a capital."""


def _section(result: ExperimentResult, entries: list[ClaimEntry], out: Path, plots: ModuleType) -> str:
    """One experiment: its setup, table and figure, its claims by number and verdict, and a link to its caveats."""
    experiment = result.experiment
    config = experiment.config
    openings = f", from shared random {experiment.opening_plies}-ply openings" if experiment.opening_plies else ""
    lines = [
        f'<a id="{experiment.key}"></a>',
        "",
        f"## {experiment.paper}, {experiment.title}",
        "",
        experiment.setup,
        f"{experiment.games_text()}{openings}; board {config.columns}x{config.rows}, {config.inarow} "
        f"in a row, actTimeout {config.act_timeout:g} s.",
        "",
    ]
    if experiment.kind == SEATS:
        lines += seats_table(result, out, plots)
    elif experiment.heat_map:
        lines += heat_table(result, out, plots)
    elif experiment.kind == NODES:
        lines += nodes_figures(result, out, plots)
    elif experiment.kind == DEPTHS:
        lines += depth_figure(result, out, plots)
    else:
        lines += series_table(result, out, plots)
    caveats = (
        f"; caveats: [appendix]({APPENDIX_FILE}#{_caveats_anchor(experiment)})"
        if any(e.claim.note for e in entries)
        else ""
    )
    lines += ["", "Claims: " + ", ".join(f"{e.link} {e.verdict.group}" for e in entries) + caveats + "."]
    return "\n".join(lines) + "\n"


def _caveats_anchor(experiment: Experiment) -> str:
    return f"{experiment.key}-caveats"


def _caveat_lines(by_experiment: Sequence[tuple[ExperimentResult, list[ClaimEntry]]]) -> list[str]:
    """What differs between each paper's setup and ours, by experiment, each sentence once: a later experiment
    whose claims share a caveat refers to the first that gave it."""
    lines = ["## Caveats, by experiment", ""]
    told: dict[str, str] = {}
    for result, entries in by_experiment:
        experiment = result.experiment
        link = f"[{experiment.source}](#{_caveats_anchor(experiment)})"
        caveats: list[str] = []
        earlier: list[str] = []
        for claim in (e.claim for e in entries):
            for sentence in CAVEAT_SENTENCE.split(claim.note):
                if not sentence:
                    continue
                if sentence not in told:
                    told[sentence] = link
                    caveats.append(sentence)
                elif told[sentence] not in earlier and told[sentence] != link:
                    earlier.append(told[sentence])
        if not caveats and not earlier:
            continue
        those = "those under " + (
            " and ".join(earlier) if len(earlier) < 3 else ", ".join(earlier[:-1]) + " and " + earlier[-1]
        )
        lines += [f'<a id="{_caveats_anchor(experiment)}"></a>', "", f"### {experiment.source}", ""]
        # One sentence a line: one paragraph, no line too long to read.
        lines += ([f"(And {those}.)"] if earlier else []) + caveats + [""]
    return lines


def _sensitivity_lines(claim: Claim, result: ExperimentResult) -> list[str]:
    """The claimed average recomputed over every range of its cells and seat mix, the paper's number marked."""
    assert claim.paper_value is not None
    table = sensitivity_table([c for c in result.cells if (c.cell.series, c.cell.x) in set(claim.cells)], claim.counts)
    if not table:
        return []
    mixes = [mix for mix, _ in table[0][1]]
    lines = [
        "",
        f"*{claim.text}*: the average over each range of T_max (equally weighted) at each share of games "
        f"moving first, 95% intervals; **bold** where the paper's {100 * claim.paper_value:g}% lies inside.",
        "",
        "| T_max range | " + " | ".join(mixes) + " |",
        "|---|" + "---:|" * len(mixes),
    ]
    for label, row in table:
        texts = [percent(interval) for _, interval in row]
        marked = [
            f"**{text}**" if interval.low <= claim.paper_value <= interval.high else text
            for text, (_, interval) in zip(texts, row, strict=True)
        ]
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
    lines = [
        "",
        f"*{claim.text}*, by series and seat: the first agent's win rate at each point (95%), its change "
        f"from {first} to {last} (by the weighted least-squares trend, in points, 95%; a fall is negative) and "
        f"the change within the range from {second} to {last}, to show whether the first step carries it.",
        "",
        "| series, seat | " + " | ".join(labels[x] for x in xs) + f" | change {first} to {last} | change "
        f"{second} to {last} |",
        "|---|" + "---:|" * (len(xs) + 2),
    ]
    for st in strata:
        by_x = dict(st.points)
        changes = [st.change(), st.within(xs[1:]).change() if len(st.points) > 2 else None]
        # every game alike: no trend to give
        shown = [None if c is None or not c.low < c.high else c for c in changes]
        lines.append(
            f"| {st.label} | "
            + " | ".join(clustered_percent(by_x[x]) if x in by_x else "" for x in xs)
            + "".join(
                " | n/a" if c is None else f" | {100 * c.value:+.1f} [{100 * c.low:+.1f}, {100 * c.high:+.1f}]"
                for c in shown
            )
            + " |"
        )
    return lines


def _shared_games_lines(results: Sequence[ExperimentResult]) -> list[str]:
    """Cells of different experiments whose games are largely the same games, and the claims resting on them."""
    shared = shared_games(results)
    if not shared:
        return []
    lines = [
        "## Claims resting on the same games",
        "",
        "Some cells of different experiments play the same agents (under two names) from the same openings and "
        "seeds, so their games are largely the same, move for move. Each claim is still tested on its "
        "games, but the claims resting on them are not independent confirmations of each other.",
        "",
    ]
    for item in shared:
        claims = "; ".join(f"*{claim.text}*" for claim in item.claims)
        lines.append(
            f"- {item.first} and {item.second}: {item.common} of {item.games} games the same move for "
            f"move; claims resting on them: {claims or 'none'}"
        )
    return lines + [""]
