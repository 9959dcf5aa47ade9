"""The committed papers' reports read as a referee asked: the papers' claims counted apart from ours, each claim
stated once, short, every link working in any Markdown viewer, the ratings' misfit located."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPORTS = Path(__file__).resolve().parents[1] / "reports"
PROFILES = ("full", "quick")
ANSWERS = (
    "agree",
    "contradicted",
    "not settled",
    "lean one way, too few games to settle",
    "at the ceiling",
    "cannot be tested at this size",
)
DOCS = Path(__file__).resolve().parents[1] / "docs" / "papers.md"


def report(profile: str) -> str:
    return (REPORTS / profile / "report.md").read_text()


def appendix(profile: str) -> str:
    return (REPORTS / profile / "appendix.md").read_text()


def answer(text: str) -> str:
    return text[text.index("## The answer") : text.index("## How a verdict is reached")]


def tables(text: str) -> list[list[str]]:
    """The first screen's claim tables (the papers', then ours), each as its rows."""
    found: list[list[str]] = []
    rows: list[str] = []
    for line in answer(text).splitlines() + [""]:
        if re.match(r"\| \[\d+\]\(", line):
            rows.append(line)
        elif rows:
            found.append(rows)
            rows = []
    return found


def tally(text: str) -> dict[str, tuple[list[int], list[int]]]:
    """The first screen's count by answer: the claims under the rule and under Holm, as the numbers it lists."""
    counted: dict[str, tuple[list[int], list[int]]] = {}
    for line in answer(text).splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 5 and cells[0] in ANSWERS:
            rule = [int(n) for n in cells[2].split(", ") if n]
            holm = rule if cells[4] == "the same" else [int(n) for n in cells[4].split(", ") if n]
            assert (int(cells[1]), int(cells[3])) == (len(rule), len(holm)), line
            counted[cells[0]] = (rule, holm)
    return counted


def group(verdict: str) -> str:
    """Which of the first screen's answers a verdict counts as."""
    if verdict.startswith("agrees"):
        return "agree"
    if verdict.startswith(("contradicted", "reverses")):
        return "contradicted"
    if verdict.startswith("leans"):
        return "lean one way, too few games to settle"
    if verdict.startswith("at its ceiling"):
        return "at the ceiling"
    return "not settled" if verdict.startswith("not settled") else "cannot be tested at this size"


@pytest.mark.parametrize("profile", PROFILES)
def test_the_report_is_at_most_6500_words_with_no_line_over_800_characters(profile: str) -> None:
    text = report(profile)
    assert len(text.split()) <= 6500
    assert max(len(line) for line in text.splitlines()) <= 800


@pytest.mark.parametrize("profile", PROFILES)
def test_the_first_screen_counts_the_papers_claims_only_and_the_counts_are_its_rows(profile: str) -> None:
    text = report(profile)
    papers, own = tables(text)
    numbers = [int(re.match(r"\| \[(\d+)\]", row).group(1)) for row in papers]  # type: ignore[union-attr]
    verdicts = [re.search(r"\*\*(.+?)\*\* \|$", row).group(1) for row in papers]  # type: ignore[union-attr]
    counted = tally(text)
    assert re.search(rf"our games test {len(papers)}, each at 0.05", answer(text))
    for name in ANSWERS:
        rule = counted.get(name, ([], []))[0]
        assert rule == [n for n, v in zip(numbers, verdicts, strict=True) if group(v) == name], name
    # Holm's column counts every tested claim once too, and differs only where the sensitivity line says.
    assert sorted(n for _, holm in counted.values() for n in holm) == numbers
    # The project's own claims are apart: none among the papers', every one of ours marked as ours.
    assert not any("(ours)" in row or "Our solver" in row for row in papers)
    assert own and all("(ours)" in row or "the solver" in row for row in own)
    # The expected number of false verdicts is said, for the papers' claims.
    assert f"about {0.05 * len(papers):.1f} of these verdicts may be wrong by chance" in text


@pytest.mark.parametrize("profile", PROFILES)
def test_every_first_screen_row_carries_a_figure_and_the_takeaway_names_each_answer(profile: str) -> None:
    text = report(profile)
    papers, _ = tables(text)
    for row in papers:
        ours = row.split(" | ")[3]
        assert re.search(r"\d", ours), row
    takeaway = answer(text)[answer(text).index("**In short.**") :].split("\n\n")[0]
    assert "**What the games could not decide**" in takeaway and ("**What stands**" in takeaway) == (profile == "full")


def test_the_docs_counts_are_the_full_reports() -> None:
    docs, text = " ".join(DOCS.read_text().split()), report("full")
    papers, own = tables(text)
    untested = answer(text).split("Not tested (no game of ours can):")[1].split("This project's own")[0]
    games = re.search(r"Profile \*\*full\*\*: (\d+) real", text).group(1)  # type: ignore[union-attr]
    stated = re.search(
        r"the full profile: (\d+) of the papers' claims tested and (\d+) listed untested, (\d+) of this "
        r"project's own, over ([\d,]+) games",
        docs,
    )
    assert stated is not None
    assert [int(stated.group(i)) for i in (1, 2, 3)] == [len(papers), untested.count("\n- "), len(own)]
    assert stated.group(4).replace(",", "") == games
    assert f"testing {len(papers)} claims at 5% each" in docs
    assert "none is left" not in docs
    for count in re.findall(r"(\d+) claims", docs):
        assert int(count) == len(papers), count
    # The rating fit's tested pairings, as the docs say of Kang's.
    ratings = text[text.index("## Elo of every agent") :]
    assert "rests on Table 6's 15 pairings alone" in docs
    assert "the deviance rests on the other 15, all of them in Kang, Table 6." in ratings


@pytest.mark.parametrize("profile", PROFILES)
def test_each_claim_is_stated_once_and_its_test_is_linked(profile: str) -> None:
    text, tests = report(profile), appendix(profile)
    papers, own = tables(text)
    rows = papers + own
    numbers = [int(re.match(r"\| \[(\d+)\]", row).group(1)) for row in rows]  # type: ignore[union-attr]
    assert sorted(numbers) == list(range(1, len(rows) + 1))
    # The papers' rows give the claim's source before its words; ours, all of this project, do not.
    claims = [row.split(" | ")[2] for row in papers] + [row.split(" | ")[1] for row in own]
    for claim, number in zip(claims, numbers, strict=True):
        assert text.count(f" | {claim} | ") == 1, claim
        assert f'<a id="claim-{number}"></a>' in tests and f"### {number}. {claim}" in tests


@pytest.mark.parametrize("profile", PROFILES)
def test_every_link_is_relative_and_points_somewhere(profile: str) -> None:
    folder = REPORTS / profile
    for name, text in (("report.md", report(profile)), ("appendix.md", appendix(profile))):
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            assert not target.startswith("/"), f"{name}: root-absolute link {target}"
            path, _, anchor = target.partition("#")
            if path.startswith("http"):
                continue
            page = (folder / path) if path else folder / name
            assert page.exists(), f"{name}: {target}"
            if anchor and page.suffix == ".md" and page.parent == folder:
                assert f'<a id="{anchor}"></a>' in page.read_text(), f"{name}: {target}"
            elif anchor:
                assert f"## {anchor.replace('-', ' ')}" in page.read_text().lower(), f"{name}: {target}"


@pytest.mark.parametrize("profile", PROFILES)
def test_every_caveat_is_told_once_in_the_appendix(profile: str) -> None:
    text, tests = report(profile), appendix(profile)
    caveats = tests[tests.index("## Caveats, by experiment") : tests.index("## Every cell in full")]
    told = [line for line in caveats.splitlines() if line and not line.startswith(("#", "<a", "(And"))]
    assert told and len(told) == len(set(told))
    for note in (
        "The papers' minimax is played as written",
        "Kang et al.'s minimax is played as written",
        "Our enhanced minimax, beside it",
        "H1's values for its features 3 and 4",
    ):
        assert caveats.count(note) == 1 and note not in text, note


def test_the_ratings_locate_their_misfit_and_count_every_game_once() -> None:
    text = report("full")
    ratings = text[text.index("## Elo of every agent") :]
    assert "the model does not fit" in ratings and "not transitive" not in ratings
    assert re.search(
        r"of the \d+ triangles of agents that played all three pairings, \d+ (is a cycle|are cycles)", ratings
    )
    assert re.search(r"\d+% observed against \d+\.\d% fitted over \d+ games \(\d+% of the deviance\)", ratings)
    assert "the fit's deviance is" in ratings  # the fit without the outlying agent
    # Kang's Table 8 all-features cell plays Table 9's depth-4 games: counted once, 600 games, not 700.
    assert "features=1234" not in ratings and "`minimax:depth=4,evaluation=h1,rules=paper` | +72.0" in ratings
    assert re.search(r"`minimax:depth=4,evaluation=h1,rules=paper` \| [^|]+ \| [^|]+ \| 600 \|", ratings)
