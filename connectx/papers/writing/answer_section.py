"""The report's first screen: the papers' claims counted and listed once, ours apart, the claims no game tests, and
which verdicts another defensible error control would change.

Each claim is numbered once (the papers' first, then the project's own) and stated once, in its row
here; the experiment's section and the appendix refer to it by that number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from connectx.papers.claims.verdicts import (
    AGREES,
    ALPHA,
    CANNOT_TEST,
    CEILING,
    CONTRADICTED,
    CONTROLS,
    HOLM,
    LEANS,
    NOT_SETTLED,
    PER_CLAIM,
    POWER_FLOOR,
    REVERSES,
    RULE_VERSION,
    Verdict,
)
from connectx.papers.experiments.design import Claim, Experiment, UntestedClaim
from connectx.papers.writing.report_format import APPENDIX_FILE, sentence_lines

RULE_LINK = "../../docs/papers.md#the-rule"
"""The rule's statement, relative to ``reports/<profile>/``: a link any Markdown viewer of the checkout follows."""
ANSWERS = (AGREES, CONTRADICTED, NOT_SETTLED, LEANS, CEILING, CANNOT_TEST)
"""The answers the first screen counts (``Verdict.group``), in its order."""
ANSWER_WORDS = {
    AGREES: "agree",
    CONTRADICTED: "contradicted",
    NOT_SETTLED: "not settled",
    LEANS: "lean one way, too few games to settle",
    CEILING: "at the ceiling",
    CANNOT_TEST: "cannot be tested at this size",
}
"""Each answer as the tally names it."""


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
    return [
        ClaimEntry(numbers[i], claim, experiment, verdicts) for i, (claim, experiment, verdicts) in enumerate(judged)
    ]


def paper_number(claim: Claim) -> str:
    if claim.reading:
        return claim.reading
    return f"{100 * claim.paper_value:g}%" if claim.paper_value is not None else "none"


def section_link(experiment: Experiment) -> str:
    """A link to an experiment's section by its short name: ``[Kang, Table 6](#kang-table6)``."""
    return f"[{experiment.source}](#{experiment.key})"


def answer_lines(entries: Sequence[ClaimEntry], untested: Sequence[UntestedClaim]) -> list[str]:
    """The first screen: the papers' claims counted under the rule and under Holm, the takeaway in plain words,
    the claims listed, ours apart, the untested ones, the sensitivity."""
    papers = sorted((e for e in entries if not e.claim.own), key=lambda e: e.number)
    own = sorted((e for e in entries if e.claim.own), key=lambda e: e.number)
    lines = [
        '<a id="the-answer"></a>',
        "",
        "## The answer",
        "",
        *tally_lines(papers, untested),
        "",
        *takeaway_lines(papers),
        "",
        *_claim_table(papers),
        "",
    ]
    lines += _sensitivity_lines(papers) + [""]
    if untested:
        lines += ["Not tested (no game of ours can):", ""]
        lines += [f"- {u.source}: *{u.text}*; needs {u.needs}." for u in untested] + [""]
    if own:
        own_counts = ", ".join(
            f"{sum(e.verdict.group == a for e in own)} {ANSWER_WORDS[a]}"
            for a in ANSWERS
            if any(e.verdict.group == a for e in own)
        )
        lines += [
            f"This project's own {len(own)} claims (our enhanced agents beside the papers', our solver), "
            f"judged by the same rule in a family of their own: {own_counts}.",
            "",
            "| # | our claim | verdict |",
            "|---:|---|---|",
            *[f"| {e.link} | {e.claim.text} | **{e.verdict.summary}** |" for e in own],
            "",
        ]
    return lines


def tally_lines(papers: Sequence[ClaimEntry], untested: Sequence[UntestedClaim]) -> list[str]:
    """The papers' claims counted by answer under the rule (each claim at ``ALPHA``) and, beside it, under Holm's
    family-wise correction over them: a reader who wants every verdict safe at once reads the second column."""
    rows = []
    for answer in ANSWERS:
        rule = [e for e in papers if e.verdict.group == answer]
        holm = [e for e in papers if e.verdicts[HOLM].group == answer]
        if not rule and not holm:
            continue
        same = "the same" if holm == rule and rule else _numbers(holm)
        rows.append(f"| {ANSWER_WORDS[answer]} | {len(rule)} | {_numbers(rule)} | {len(holm)} | {same} |")
    reversals = [e for e in papers if e.verdict.status == REVERSES]
    notes = []
    if reversals:
        verb = "reverses" if len(reversals) == 1 else "reverse"
        notes.append(
            f"Contradicted counts {_claims_words(reversals)}, which {verb} over part of its range while "
            "the claimed trend holds over the whole."
        )
    if untested:
        needs = "claim needs" if len(untested) == 1 else "claims need"
        notes.append(f"{len(untested)} more {needs} games never played (below).")
    return [
        f"Of the papers' claims, our games test {len(papers)}, each at {ALPHA:g} ([the rule, version "
        f"{RULE_VERSION}]({RULE_LINK})), so about {ALPHA * len(papers):.1f} of these verdicts may be wrong by "
        "chance; under Holm's correction the chance of any wrong verdict is below 5%.",
        "",
        "| answer | under the rule | claims | under Holm | claims |",
        "|---|---:|---|---:|---|",
        *rows,
    ] + (["", *sentence_lines(" ".join(notes))] if notes else [])


def takeaway_lines(papers: Sequence[ClaimEntry]) -> list[str]:
    """Two or three plain sentences: which findings stand (agree under the rule and under Holm), which do not
    (contradicted under both; those Holm would leave open said apart), and what the games could not decide."""

    def gists(chosen: Sequence[ClaimEntry]) -> str:
        words = list(dict.fromkeys(e.claim.gist or e.claim.text for e in chosen))
        return "; ".join(words)

    stand = [e for e in papers if e.verdict.group == AGREES and e.verdicts[HOLM].group == AGREES]
    fall = [e for e in papers if e.verdict.group == CONTRADICTED and e.verdicts[HOLM].group == CONTRADICTED]
    shaky = [e for e in papers if e.verdict.group == CONTRADICTED and e.verdicts[HOLM].group != CONTRADICTED]
    open_ = [
        e
        for e in papers
        if e.verdict.group not in (AGREES, CONTRADICTED)
        or e.verdict.group == AGREES
        and e.verdicts[HOLM].group != AGREES
    ]
    sentences = []
    if stand:
        sentences.append(f"**What stands**: {gists(stand)}.")
    if fall or shaky:
        sentences.append(
            "**What does not**"
            + (f": {gists(fall)}" if fall else "")
            + (
                "; by the rule but not under Holm"
                if fall and shaky
                else ", by the rule but not under Holm"
                if shaky
                else ""
            )
            + (f": {gists(shaky)}" if shaky else "")
            + "."
        )
    if open_:
        sentences.append(f"**What the games could not decide**: {gists(open_)}.")
    # One sentence a line, a long list broken at its semicolons: Markdown joins the lines into one paragraph.
    return [part for line in sentence_lines("**In short.** " + " ".join(sentences)) for part in _wrapped(line)]


def _wrapped(line: str, width: int = 400) -> list[str]:
    """``line`` in pieces of at most about ``width`` characters, broken after a semicolon."""
    pieces = [""]
    for item in line.split("; "):
        joined = f"{pieces[-1]}; {item}" if pieces[-1] else item
        if len(joined) > width and pieces[-1]:
            pieces[-1] += ";"
            pieces.append(item)
        else:
            pieces[-1] = joined
    return pieces


def _claims_words(entries: Sequence[ClaimEntry]) -> str:
    numbers = [str(e.number) for e in entries]
    return f"claim {numbers[0]}" if len(numbers) == 1 else f"claims {', '.join(numbers[:-1])} and {numbers[-1]}"


def _numbers(entries: Sequence[ClaimEntry]) -> str:
    return ", ".join(str(e.number) for e in entries)


def _are(count: int) -> str:
    return "is" if count == 1 else "are"


def _claim_table(entries: Sequence[ClaimEntry]) -> list[str]:
    lines = ["| # | source | the paper says | ours | verdict |", "|---:|---|---|---|---|"]
    for e in entries:
        lines.append(
            f"| {e.link} | {section_link(e.experiment)} | {e.claim.text} | {_ours_short(e.verdict)} | "
            f"**{e.verdict.summary}** |"
        )
    return lines


def _sensitivity_lines(papers: Sequence[ClaimEntry]) -> list[str]:
    """Which of the papers' verdicts another defensible error control changes: Holm's, whose counts the tally shows,
    by number; Benjamini-Hochberg's, to what."""
    parts: list[str] = []
    for control in CONTROLS:
        if control == PER_CLAIM:
            continue
        changed = [e for e in papers if e.verdicts[control].status != e.verdict.status]
        if control == HOLM:
            parts.append(
                f"Holm's correction over the papers' {len(papers)} claims changes "
                + (
                    f"{len(changed)} verdicts ({_numbers(changed)}; the tally's second column)"
                    if changed
                    else "no verdict"
                )
            )
            continue
        parts.append(
            "Benjamini-Hochberg's changes "
            + (
                ", ".join(f"{e.number} ({e.verdict.status} to {e.verdicts[control].status})" for e in changed)
                if changed
                else "none"
            )
        )
    return sentence_lines("**Sensitivity.** " + "; ".join(parts) + ".")


def _ours_short(verdict: Verdict) -> str:
    """Our measurement in a line with its figure: ``Verdict.headline`` where the test gives one, else the first parts
    of ``Verdict.ours`` without the counts of games behind them or words in brackets that carry no number, cut
    after ``SHORT`` characters but never before its first interval closes."""
    if verdict.headline:
        return verdict.headline
    parts = [
        re.sub(r"(, \d+ games \(\d+ distinct\)| \(\d+ games, \d+ distinct| \(pooled: ).*$", "", part)
        for part in verdict.ours.split("; ")[:3]
    ]
    text = "; ".join(part for part in parts if part and not part.startswith("over every range"))
    text = re.sub(r" \([^()\d]*\)", "", text)
    end = text.find("]") + 1
    if len(text) <= max(SHORT, end + 1):
        return text
    # After the first interval when it ends past SHORT, else at the last space before SHORT outside an interval.
    cut = text.find(" ", end) if end > SHORT else text.rfind(" ", 0, SHORT)
    if text.count("[", 0, cut) > text.count("]", 0, cut):
        cut = text.rfind(" ", 0, text.rfind("[", 0, cut))
    return text if cut <= 0 else text[:cut].rstrip(",;") + " ..."


SHORT = 40
"""The characters of our measurement the first screen shows past its first interval at most (the appendix has all)."""


def plain_rule_lines() -> list[str]:
    """The rule in a paragraph, for a reader who is not a statistician."""
    return [
        "## How a verdict is reached",
        "",
        *sentence_lines(
            "Each claim becomes a question our games can answer: is the effect the paper describes there, is its "
            'opposite there, and, where the words imply a size ("much", "easily"), is an effect that large ruled '
            "out. A claim **agrees** when our games show the effect and is **contradicted** when they show its "
            "opposite or rule out the size its words imply; a claim about every cell names the cells that fail. A "
            "trend one step carries **agrees only in part**; one that goes significantly the other way over part of "
            "its range **reverses** (counted as contradicted). Two rates alike only because both are near 0% "
            "**agree only at the floor**. Shown neither way, a claim is **not settled** when its test had at least "
            f"{100 * POWER_FLOOR:g}% power; below that it **leans** the claimed way or against the words where part "
            "of it is shown, with the figure, and otherwise **cannot be tested at this size**; one whose every game "
            "went one way is **at its ceiling**. A second reading of the words is stated beside a verdict, never "
            f"counted. Each claim is tested at {ALPHA:g}. The rule is [version {RULE_VERSION}]({RULE_LINK}); "
            "versions 2 and 4 were written after the games had been seen, version 3's depth reading after the first "
            "three of its games (the history is there), hence the sensitivity line. The tests are in "
            f"[the appendix]({APPENDIX_FILE})."
        ),
        "",
    ]
