"""The games behind three of the full report's intervals, as inputs for ``make statistics-reference``.

Claims 7, 16 and 26 are pooled rates whose Wilson interval at the effective number of games (the report's)
and cluster-robust Wald interval (statsmodels' OLS with ``cov_type="cluster"``) differ in the digit the
report prints. This script reads those claims' games from the stored full report (``reports/full/runs``, no
game played) and writes each game's outcome, cluster (its shared opening) and cell to ``claim_games.json``;
``make_statistics_reference.py`` computes both intervals from them with statsmodels, and
``tests/test_statistics_reference.py`` holds ours to the one the report names. It runs in the project's
environment, before ``make statistics-reference``, when the stored games change.
"""

from __future__ import annotations

import json
from pathlib import Path

from connectx.papers.claims.cell_scores import cells_at, design_clusters, game_outcome
from connectx.papers.experiments.catalogue import FULL
from connectx.papers.experiments.runner import run_experiments

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "claim_games.json"
CLAIMS = {
    7: ("sheoran-fig5", "minimax at depth 4/5 wins 79% of its games against MCTS on average over T_max"),
    16: ("kang-table6", "the deeper H1 tends to win more often (pooled over every pair of unequal depths)"),
    26: ("kang-table9", "from depth 4 on, H1 wins more than H2 (pooled over the depths from 4)"),
}


def main() -> None:
    results = {
        r.experiment.key: r
        for r in run_experiments(FULL, ROOT / "reports" / "full", only=sorted({key for key, _ in CLAIMS.values()}))
    }
    games = {}
    for number, (key, text) in CLAIMS.items():
        result = results[key]
        claim = next(c for c in result.experiment.claims if c.text == text)
        records, cells = [], []
        for k, cell in enumerate(cells_at(result, claim.cells)):
            scored = [record for record in cell.match.records if record.scored]
            records += scored
            cells += [k] * len(scored)
        clusters = [0] * len(records)
        for label, members in enumerate(design_clusters(records, cells)):
            for index in members:
                clusters[index] = label
        games[str(number)] = {
            "claim": text,
            "outcomes": [game_outcome(r, claim.counts) for r in records],
            "clusters": clusters,
            "cells": cells,
        }
    OUT.write_text(json.dumps(games) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
