"""``benchmarks/open_board_speed.py``: the same positions searched by a revision's code and this tree's, compared."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def run_benchmark(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "benchmarks/open_board_speed.py", *arguments], cwd=REPO,
                          capture_output=True, text=True, timeout=180)


def test_both_versions_search_the_stored_positions_and_the_verdict_matches_their_nodes_and_digests() -> None:
    run = run_benchmark("--before", "HEAD", "--boards", "8x7/4", "--games", "1", "--plies", "10", "--depth", "4",
                        "--rounds", "2")
    assert run.returncode == 0, run.stderr
    rows = re.findall(r"^\| 8x7/4 \| (.+?) \| ([\d,]+) \| [\d.]+ \| [\d,]+ \| (.+?) \|$", run.stdout, re.MULTILINE)
    assert [name for name, _, _ in rows][0] == "this working tree" and len(rows) == 2
    (_, after_nodes, after_digest), (_, before_nodes, before_digest) = rows
    assert int(after_nodes.replace(",", "")) > 0
    # two rounds of the same code find one digest: the search is reproducible
    assert re.fullmatch(r"[0-9a-f]{12}", after_digest) and re.fullmatch(r"[0-9a-f]{12}", before_digest)
    same = (after_nodes, after_digest) == (before_nodes, before_digest)
    assert re.search(r"^\| 8x7/4 \| after / before \| \| [\d.]+ \| \| same search: " + ("yes" if same else "no"),
                     run.stdout, re.MULTILINE)


def test_bad_input_is_one_line_with_exit_2() -> None:
    for arguments, message in ((("--before", "no-such-revision"), "not a commit of this repository"),
                               (("--boards", "8x7"), "expected COLUMNSxROWS/INAROW"),
                               (("--boards", "5x4/3"), "holds no games on it"),
                               (("--depth", "0"), "give positive numbers")):
        run = run_benchmark(*arguments)
        assert run.returncode == 2, arguments
        assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
