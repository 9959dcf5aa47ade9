"""Run the example notebook where a Kaggle user runs it, and store its outputs in it: ``make notebook``.

A Kaggle notebook's working directory holds the user's own files, and the ConnectX starter
writes the agent there as ``submission.py`` (``%%writefile submission.py``); many also keep an
``agents.py`` or an ``evaluation.py``. The notebook runs beside such files (``kaggle_directory``
writes them), so what it shows holds there too, and is stored with its outputs so that a reader
sees them without running it. ``tests/test_examples.py`` runs the same function.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parent / "connectx_tour.ipynb"
KAGGLE_FILES = {
    "submission.py": "def my_agent(observation, configuration):\n    return 3\n",
    "agents.py": "AGENTS = ['my_agent']\n",
    "evaluation.py": "def evaluate(board):\n    return 0\n",
}
"""What a Kaggle user's working directory holds beside the notebook: files named like our packages."""
BUILT_FILE = "connectx_submission.py"
"""The file the notebook builds and validates: its own name, so the user's ``submission.py`` stays theirs."""


def kaggle_directory(directory: Path) -> Path:
    """``directory`` with a Kaggle user's files in it."""
    for name, text in KAGGLE_FILES.items():
        (directory / name).write_text(text)
    return directory


def execute(notebook: nbformat.NotebookNode, directory: Path) -> nbformat.NotebookNode:
    """Run every cell of ``notebook`` in a fresh kernel whose working directory is ``directory``."""
    # "python3" is ipykernel's own kernel: jupyter_client starts it with this interpreter, sys.executable.
    client = nbclient.NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(directory)}}
    )
    client.execute()
    return notebook


def main() -> int:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    with tempfile.TemporaryDirectory(prefix="connectx-notebook-") as directory:
        execute(notebook, kaggle_directory(Path(directory)))
    for cell in notebook.cells:  # timings differ at every run: keep the stored notebook's diff to what it shows
        cell.get("metadata", {}).pop("execution", None)
    nbformat.write(notebook, NOTEBOOK)
    print(f"wrote {NOTEBOOK} with its outputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
