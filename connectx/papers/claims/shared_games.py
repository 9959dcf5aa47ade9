"""Cells of different experiments that played largely the same games: claims resting on them are not independent."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from connectx.evaluation.match import first_seat
from connectx.papers.claims.cell_scores import cell_name
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import ExperimentResult


@dataclass(frozen=True)
class SharedGames:
    """Two cells of different experiments that played largely the same games, and the claims resting on either."""

    first: str
    second: str
    common: int
    games: int
    """The smaller cell's games: ``common`` of them are the same in the other cell."""
    claims: tuple[Claim, ...]


def shared_games(results: Sequence[ExperimentResult], least: float = 0.5) -> list[SharedGames]:
    """Cells of different experiments at least ``least`` of whose games are the same games: the same schedule
    slot, the first agent in the same seat and the same moves (the same agents under two names)."""
    cells = []
    for result in results:
        for c in result.cells:
            games = {(r.index, first_seat(r), r.moves) for r in c.match.records if r.scored}
            claims = tuple(
                claim
                for claim in result.experiment.claims
                if (c.cell.series, c.cell.x) in set(claim.cells + claim.baseline)
            )
            cells.append((result.experiment, c, games, claims))
    found = []
    for i, (experiment, cell, mine, claims) in enumerate(cells):
        for other_experiment, other, theirs, other_claims in cells[i + 1 :]:
            smaller = min(len(mine), len(theirs))
            common = len(mine & theirs)
            if experiment.key != other_experiment.key and smaller and common >= least * smaller:
                found.append(
                    SharedGames(
                        f"{experiment.title.split(':')[0]} {cell_name(cell)}",
                        f"{other_experiment.title.split(':')[0]} {cell_name(other)}",
                        common,
                        smaller,
                        claims + other_claims,
                    )
                )
    return found
