"""The docs kept true: the architecture page's module table matches the tree, and every link points somewhere.

``docs/architecture.md`` lists every module of the packages under "## Every module", one row
each (``| `path/to/module.py` | its job |``); a module without a row, or a row for a module that
is gone, fails here. Links of the README and the pages are checked too: a relative link must
name a file or folder that exists (a link from the repository's root, ``/reports/...``, is
resolved there), its ``#anchor`` a heading of the page it names; a path written in backticks
(``agents/core/position.py``) must exist. The MkDocs build (``make docs``) adds its own strict
checks where MkDocs is installed.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARCHITECTURE = REPO / "docs" / "architecture.md"
DOCUMENTED = ("connectx", "benchmarks", "book")
"""The folders whose every module the architecture page's table lists."""
PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])

ROW = re.compile(r"^\|\s*`([^`|]+\.py)`\s*\|", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\n]+)`")
REPOSITORY_PATH = re.compile(
    r"(?:agents|submission|evaluation|connectx|benchmarks|book|tests|positions|reports|docs|"
    r"examples)/[\w./-]*"
)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*$", re.MULTILINE)


def modules() -> set[str]:
    """Every module of the documented folders (a package's ``__init__.py`` is described by the package's row)."""
    return {
        str(path.relative_to(REPO))
        for folder in DOCUMENTED
        for path in (REPO / folder).rglob("*.py")
        if path.name != "__init__.py" and "__pycache__" not in path.parts
    }


def table_rows() -> list[str]:
    """The modules the architecture page's tables name, in order (repeats kept)."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    start = text.index("\n## Every module")
    end = text.find("\n## ", start + 1)
    return ROW.findall(text[start : end if end != -1 else len(text)])


def prose(path: Path, text: str | None = None) -> str:
    """A page (or ``text`` as if it were that page) without its fenced code blocks: commands and output, not links."""
    return FENCE.sub("", path.read_text(encoding="utf-8") if text is None else text)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MkDocs both write it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\s-]", "", heading.replace("`", "").strip().lower())
    return re.sub(r"\s", "-", text)


def anchors(path: Path) -> set[str]:
    return {slug(heading) for heading in HEADING.findall(prose(path))}


def test_every_module_has_a_row_in_the_architecture_table() -> None:
    missing = sorted(modules() - set(table_rows()))
    assert not missing, f"docs/architecture.md has no row for {', '.join(missing)}: add one line each"


def test_every_row_of_the_architecture_table_names_a_module() -> None:
    gone = sorted(set(table_rows()) - modules())
    assert not gone, f"docs/architecture.md has rows for modules that do not exist: {', '.join(gone)}"


def test_no_module_has_two_rows() -> None:
    rows = table_rows()
    twice = sorted({row for row in rows if rows.count(row) > 1})
    assert not twice, f"docs/architecture.md lists these modules twice: {', '.join(twice)}"


def link_problems(page: Path, text: str | None = None) -> list[str]:
    """Every link of ``page`` (or of ``text`` placed there) that names no file, or no heading of the page it names."""
    problems = []
    for target in LINK.findall(prose(page, text)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        location, _, anchor = target.partition("#")
        if not location:
            path = page
        elif location.startswith("/"):
            path = REPO / location.lstrip("/")
        else:
            path = (page.parent / location).resolve()
        where = f"{page.relative_to(REPO)}: link {target}"
        if not path.exists():
            problems.append(f"{where}: {path} does not exist")
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            problems.append(f"{where}: {path.name} has no heading #{anchor}")
    return problems


def path_problems(page: Path, text: str | None = None) -> list[str]:
    """Every repository path written in backticks on ``page`` (or in ``text``) that does not exist."""
    problems = []
    for code in CODE.findall(prose(page, text)):
        candidate = REPOSITORY_PATH.fullmatch(code.strip())
        if candidate is not None and not (REPO / candidate.group(0)).exists():
            problems.append(f"{page.relative_to(REPO)}: `{code}` names a path that does not exist")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(REPO)))
def test_links_and_paths_point_somewhere(page: Path) -> None:
    problems = link_problems(page) + path_problems(page)
    assert not problems, "\n".join(problems)


def test_the_checks_catch_a_dead_link_a_missing_heading_and_a_stale_path() -> None:
    page = REPO / "docs" / "example.md"
    text = (
        "[gone](nowhere.md) [anchor](agents.md#no-such-heading) [fine](agents.md#the-contract) "
        "[root](/reports/gone.md) `agents/core/gone.py` `agents/core/position.py`\n"
        "```sh\n[ignored](in-a-code-block.md) `agents/ignored.py`\n```\n"
    )
    assert len(link_problems(page, text)) == 3
    assert path_problems(page, text) == ["docs/example.md: `agents/core/gone.py` names a path that does not exist"]


def test_the_readme_is_a_front_door() -> None:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 150, f"README.md has {len(lines)} lines; move reference material to docs/"
    commands = "\n".join(lines[:20])
    assert "make demo" in commands and "make test" in commands


def test_the_docs_build_strictly(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs", reason="mkdocs is in the docs group: make docs installs it")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(tmp_path / "site")],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
