"""The report's first screen: the papers' claims counted and listed once, ours apart, the claims no game tests, and
which verdicts another defensible error control would change.

Each claim is numbered once (the papers' first, then the project's own) and stated once, in its row
here; the experiment's section and the appendix refer to it by that number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from connectx.papers.design import Claim, Experiment, UntestedClaim
from connectx.papers.report_format import APPENDIX_FILE, sentence_lines
from connectx.papers.verdicts import (
    AGREES,
    ALPHA,
    CANNOT_TEST,
    CONTRADICTED,
    CONTROLS,
    NOT_SETTLED,
    PER_CLAIM,
    POWER_FLOOR,
    RULE_VERSION,
    Verdict,
)

RULE_LINK = "../../docs/papers.md#the-rule"
"""The rule's statement, relative to ``reports/<profile>/``: a link any Markdown viewer of the checkout follows."""
ANSWERS = (AGREES, CONTRADICTED, NOT_SETTLED, CANNOT_TEST)
"""The four answers the first screen counts (``Verdict.group``)."""


@dataclass(frozen=True)
class ClaimEntry:
    """One claim as the report shows it: its number, its experiment, its verdict under each error control."""

    number: int
    claim: Claim
    experiment: Experiment
    verdicts: dict[str, Verdict]

    @property
    def verdict(self) -> Verdict:
        """The verdict under the rule's own control (``PER_CLAIM``)."""
        return self.verdicts[PER_CLAIM]

    @property
    def anchor(self) -> str:
        return f"claim-{self.number}"

    @property
    def link(self) -> str:
        """The claim's number, linked to its test in the appendix."""
        return f"[{self.number}]({APPENDIX_FILE}#{self.anchor})"


def number_claims(judged: Sequence[tuple[Claim, Experiment, dict[str, Verdict]]]) -> list[ClaimEntry]:
    """The claims in report order, numbered the papers' first and then the project's own."""
    order = sorted(range(len(judged)), key=lambda i: (judged[i][0].own, i))
    numbers = {index: number for number, index in enumerate(order, 1)}
    return [ClaimEntry(numbers[i], claim, experiment, verdicts) for i, (claim, experiment, verdicts) in
            enumerate(judged)]


def paper_number(claim: Claim) -> str:
    if claim.reading:
        return claim.reading
    return f"{100 * claim.paper_value:g}%" if claim.paper_value is not None else "none"


def section_link(experiment: Experiment) -> str:
    """A link to an experiment's section by its short name: ``[Kang, Table 6](#kang-table6)``."""
    return f"[{experiment.source}](#{experiment.key})"


def answer_lines(entries: Sequence[ClaimEntry], untested: Sequence[UntestedClaim]) -> list[str]:
    """The first screen: the papers' claims counted and listed, ours apart, the untested ones, the sensitivity."""
    papers = sorted((e for e in entries if not e.claim.own), key=lambda e: e.number)
    own = sorted((e for e in entries if e.claim.own), key=lambda e: e.number)
    counts = {answer: sum(e.verdict.group == answer for e in papers) for answer in ANSWERS}
    partly = sum(e.verdict.group == AGREES and e.verdict.status != AGREES for e in papers)
    reversed_ = sum(e.verdict.group == CONTRADICTED and e.verdict.status != CONTRADICTED for e in papers)
    lines = ['<a id="the-answer"></a>', "", "## The answer", "",
             f"Of the papers' {len(papers)} claims our games test, **{counts[AGREES]} agree**"
             + (f" ({partly} only in part, or smaller than the words imply)" if partly else "")
             + f", **{counts[CONTRADICTED]} {_are(counts[CONTRADICTED])} contradicted**"
             + (f" ({reversed_} a reversal)" if reversed_ else "")
             + f", **{counts[NOT_SETTLED]} {_are(counts[NOT_SETTLED])} not settled** (the games could have told, and "
             "did not) and "
             f"**{counts[CANNOT_TEST]} cannot be tested at this size**"
             + (f"; {len(untested)} more need games never played" if untested else "")
             + f". Each claim is tested at {ALPHA:g}, so about {ALPHA * len(papers):.1f} of these "
             f"{len(papers)} verdicts may be wrong by chance ([the rule, version {RULE_VERSION}]({RULE_LINK})).", "",
             *_claim_table(papers), ""]
    lines += _sensitivity_lines(papers) + [""]
    if untested:
        lines += ["Not tested (no game of ours can):", ""]
        lines += [f"- {u.source}: *{u.text}*; needs {u.needs}." for u in untested] + [""]
    if own:
        own_counts = ", ".join(f"{sum(e.verdict.group == a for e in own)} {a}" for a in ANSWERS
                               if any(e.verdict.group == a for e in own))
        lines += [f"This project's own {len(own)} claims (our enhanced agents beside the papers', our solver), "
                  f"judged by the same rule in a family of their own: {own_counts}.", "",
                  "| # | source | our claim | verdict |", "|---:|---|---|---|",
                  *[f"| {e.link} | {section_link(e.experiment)} | {e.claim.text} | **{e.verdict.summary}** |"
                    for e in own], ""]
    return lines


def _are(count: int) -> str:
    return "is" if count == 1 else "are"


def _claim_table(entries: Sequence[ClaimEntry]) -> list[str]:
    lines = ["| # | source | the paper says | its number (none: a direction) | ours | verdict |",
             "|---:|---|---|---|---|---|"]
    for e in entries:
        lines.append(f"| {e.link} | {section_link(e.experiment)} | {e.claim.text} | {paper_number(e.claim)} | "
                     f"{_ours_short(e.verdict)} | **{e.verdict.summary}** |")
    return lines


def _sensitivity_lines(papers: Sequence[ClaimEntry]) -> list[str]:
    """Which of the papers' verdicts another defensible error control changes, and to what."""
    parts: list[str] = []
    for control in CONTROLS:
        if control == PER_CLAIM:
            continue
        changed = [f"{e.number} ({e.verdict.status} to {e.verdicts[control].status})" for e in papers
                   if e.verdicts[control].status != e.verdict.status]
        over = f"over the papers' {len(papers)} claims"
        parts.append(f"{'Under' if not parts else 'under'} {control}'s correction {over}, " + (
            f"{len(changed)} verdicts change: {', '.join(changed)}" if changed else "no verdict changes"))
    return sentence_lines("**Sensitivity.** " + "; ".join(parts) + ".")


def _ours_short(verdict: Verdict) -> str:
    """Our measurement in a line: the first parts of ``Verdict.ours`` without the counts of games behind them."""
    parts = [re.sub(r"(, \d+ games \(\d+ distinct\)| \(\d+ games, \d+ distinct| \(pooled: ).*$", "", part)
             for part in verdict.ours.split("; ")[:3]]
    text = "; ".join(part for part in parts if part and not part.startswith("over every range"))
    return text if len(text) <= SHORT else text[:text.rfind(" ", 0, SHORT)] + " ..."


SHORT = 50
"""The most characters of our measurement the first screen shows (the appendix has all of it)."""


def plain_rule_lines() -> list[str]:
    """The rule in a paragraph, for a reader who is not a statistician."""
    return ["## How a verdict is reached", "", *sentence_lines(
        "Each claim becomes a question our games can answer: is the effect the paper describes there, is its "
        "opposite there, and, where the words imply a size (\"much\", \"easily\"), is an effect that large ruled "
        "out. A claim **agrees** when our games show the effect and is **contradicted** when they show its "
        "opposite or rule out the size its words imply; a claim about every cell names the cells that fail. A "
        "trend one step carries **agrees only in part**; one that goes significantly the other way over part of "
        "its range **reverses** (counted as contradicted). Shown neither way, a claim is **not settled** when its "
        f"test had at least {100 * POWER_FLOOR:g}% power, and **cannot be tested at this size** below that or at "
        f"a ceiling. Each claim is tested at {ALPHA:g}; its 95% intervals are the ones its test uses, but for a "
        "claim about every cell the other way is tested over the cells (Bonferroni), so one cell's interval may "
        "leave 50% the other way without contradicting the claim. The rule "
        f"is stated in [docs/papers.md]({RULE_LINK}), with the words explained, as version {RULE_VERSION}. "
        "Version 2 was written after most of these games were seen, in answer to a referee, hence the "
        "sensitivity line; version 3 added two claims' tests before their games. The tests are in "
        f"[the appendix]({APPENDIX_FILE})."), ""]
