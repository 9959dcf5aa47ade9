"""The example notebook runs top to bottom in a fresh kernel beside a Kaggle user's files, what it shows holds
real values, and it is stored with its outputs."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

nbclient = pytest.importorskip("nbclient", reason="nbclient is in the dev group: make install-dev")
nbformat = pytest.importorskip("nbformat", reason="nbformat is in the dev group: make install-dev")

REPO = Path(__file__).resolve().parents[1]


def load_runner() -> Any:
    """``examples/execute_notebook.py``, the code ``make notebook`` runs (examples/ is no package)."""
    spec = importlib.util.spec_from_file_location("execute_notebook", REPO / "examples" / "execute_notebook.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


runner = load_runner()


def outputs(cell: Any) -> tuple[str, dict[str, str]]:
    """A cell's printed text, and its rich outputs by MIME type."""
    text = "".join(output.get("text", "") for output in cell.outputs if output.output_type == "stream")
    rich = {kind: value for output in cell.outputs for kind, value in output.get("data", {}).items()}
    return text, rich


def test_the_notebook_is_stored_with_its_outputs() -> None:
    notebook = nbformat.read(runner.NOTEBOOK, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) >= 6 and all(cell.outputs for cell in code), "run make notebook and commit what it writes"
    assert not any(output.output_type == "error" for cell in code for output in cell.outputs)
    assert f"{runner.BUILT_FILE}: valid" in outputs(code[-1])[0]


@pytest.mark.games
def test_the_tour_notebook_runs_beside_kaggle_files_and_builds_a_valid_submission(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path / "cache"))  # the kernel inherits it: no user cache touched
    directory = runner.kaggle_directory(tmp_path)
    notebook = nbformat.read(runner.NOTEBOOK, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    runner.execute(notebook, directory)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for cell in code:
        assert not any(output.output_type == "error" for output in cell.outputs)
        assert "Warning" not in outputs(cell)[0], outputs(cell)[0]
    assert outputs(code[0])[0].startswith("connectx 0.")

    table = next(rich["text/markdown"] for cell in code if "text/markdown" in (rich := outputs(cell)[1]))
    assert "**random** vs **negamax**: 4 games scored of 4 planned" in table
    total = re.search(r"^\| total \| 4 \| (\d+) \| (\d+) \| (\d+) \|", table, re.MULTILINE)
    assert total is not None and sum(map(int, total.groups())) == 4

    games = next(text for cell in code if (text := outputs(cell)[0]).startswith("game 0:"))
    finished = re.findall(r"^game \d: .* vs .*, \d+ moves, (?:won by \w+|draw) \((?:line|draw)\)$", games, re.MULTILINE)
    assert len(finished) == 4

    viewer = next(rich["text/html"] for cell in code if "text/html" in (rich := outputs(cell)[1]))
    assert "<iframe srcdoc=" in viewer and "kaggle" in viewer.lower() and len(viewer) > 10_000

    report = next(text for cell in code if (text := outputs(cell)[0]).startswith("7x6 board, 4 in a row"))
    plies = re.findall(r"^\s+\d+\s+[XO] \d\s", report, re.MULTILINE)
    moves = int(re.search(r"4 in a row, (\d+) moves", report).group(1))
    assert len(plies) == moves
    assert re.search(r"(\d+) of \d+ positions exact", report)
    assert re.search(r"\b(win|loss) in \d+", report), "some value proven within the limit"

    values = next(text for cell in code if "moves that changed the outcome" in (text := outputs(cell)[0]))
    first = re.search(r"'scores': \[([^\]]*)\]", values)
    assert first is not None and len(first.group(1).split(",")) == 7

    built = outputs(code[-1])[0]
    assert f"wrote {runner.BUILT_FILE}: negamax" in built and re.search(rf"^{runner.BUILT_FILE}: valid$", built, re.M)
    assert "[FAIL]" not in built
    submission = (directory / runner.BUILT_FILE).read_text()
    assert submission.startswith('"""ConnectX submission: the agent negamax') and "def agent(" in submission
    for name, text in runner.KAGGLE_FILES.items():  # the user's own files, submission.py first, are left as they were
        assert (directory / name).read_text() == text
