"""The committed papers' reports read as the issue asks: the answer on the first screen, short, counts that add up."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parents[1] / "reports"
PROFILES = ("full", "quick")
VERDICTS = ("agrees", "contradicted", "not settled", "not comparable")


def report(profile: str) -> str:
    return (REPORTS / profile / "report.md").read_text()


def answer_rows(text: str) -> list[str]:
    """The first screen's rows, one per claim."""
    answer = text[text.index("## The answer"):text.index("## How a verdict is reached")]
    return [line for line in answer.splitlines() if re.match(r"\| \d+ \| ", line)]


@pytest.mark.parametrize("profile", PROFILES)
def test_the_report_is_at_most_8000_words_with_no_line_over_800_characters(profile: str) -> None:
    text = report(profile)
    assert len(text.split()) <= 8000
    assert max(len(line) for line in text.splitlines()) <= 800


@pytest.mark.parametrize("profile", PROFILES)
def test_the_first_screen_counts_are_the_verdicts_of_its_rows(profile: str) -> None:
    text = report(profile)
    answer = text[text.index("## The answer"):text.index("## How a verdict is reached")]
    rows = answer_rows(text)
    verdicts = [re.search(r"\*\*(.+?)\*\* \|$", row).group(1) for row in rows]  # type: ignore[union-attr]
    grouped = ["agrees" if v.startswith("agrees") else v for v in verdicts]
    counts = re.search(r"Of the papers' (\d+) claims, \*\*(\d+) agree\*\*.*\*\*(\d+) are contradicted\*\*, "
                       r"\*\*(\d+) are not settled\*\*.*\*\*(\d+) are not comparable\*\*", answer)
    assert counts is not None
    assert int(counts.group(1)) == len(rows)
    assert [int(counts.group(i)) for i in range(2, 6)] == [grouped.count(v) for v in VERDICTS]
    # Every row links to its experiment's section, and every verdict is at most a dozen words.
    for row in rows:
        anchor = re.search(r"\]\(#([a-z0-9-]+)\)", row)
        assert anchor is not None and f'<a id="{anchor.group(1)}"></a>' in text
    assert all(len(v.split()) <= 12 for v in verdicts)


def test_the_appendix_keeps_every_claims_test_and_the_full_ratings_fit_is_stated() -> None:
    text = report("full")
    appendix = (REPORTS / "full" / "appendix.md").read_text()
    claims = len(answer_rows(text))
    assert len(re.findall(r"^### \d+\. ", appendix, re.MULTILINE)) == claims
    assert "after Holm" in appendix and "| experiment | games |" in appendix
    assert "Goodness of fit: deviance" in text and "the model does not fit" in text and "not transitive" in text
    # One agent, one name: Kang's depth-4 H1 with every feature is the depth-4 H1.
    ratings = text[text.index("## Elo of every agent"):]
    assert "features=1234" not in ratings and "`minimax:depth=4,evaluation=h1,rules=paper` | +72.0" in ratings


@pytest.mark.parametrize("profile", PROFILES)
def test_every_caveat_is_told_once_and_later_sections_link_to_it(profile: str) -> None:
    text = report(profile)
    told: list[str] = []
    for block in re.findall(r"^Caveats[^\n]*\n((?:[^\n]+\n)*)", text, re.MULTILINE):
        told += block.splitlines()
    assert told and len(told) == len(set(told))
    # The papers' minimax and Kang's notes: one section says them, the others refer to it.
    for note in ("The papers' minimax is played as written", "Kang et al.'s minimax is played as written",
                 "Our enhanced minimax, beside it", "H1's values for its features 3 and 4"):
        assert text.count(note) == 1, note
    for anchor in re.findall(r"^Caveats[^\n]*those under (.*)$", text, re.MULTILINE):
        for key in re.findall(r"\]\(#([a-z0-9-]+)\)", anchor):
            assert f'<a id="{key}"></a>' in text
    # Table 8 numbers its features as Table 7 does instead of listing them again.
    assert text.count("(1: a line, 2: three connected and the broken three") == 1
