"""connectx report's experiments: their definitions, and the runner that plays them, resumes and reads what the
games recorded."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from papers_fakes import counting, fake_game

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.players.minimax import MinimaxStrategy
from connectx.cli.main import main
from connectx.evaluation import engine
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import NO_STATS, GameRecord, GameSpec
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor
from connectx.papers.claims.claim_tests import judge
from connectx.papers.experiments import runner
from connectx.papers.experiments.catalogue import FULL, PROFILES, QUICK, experiments
from connectx.papers.experiments.design import KINDS, SERIES, Cell, Claim, Experiment
from connectx.papers.experiments.kang import KANG_CONFIG
from connectx.papers.experiments.runner import CellResult, ExperimentResult, run_experiments
from connectx.papers.experiments.sheoran import MCTS_NOTE, MINIMAX_NOTE, NEGAMAX_TEXT


@pytest.mark.parametrize("profile", [QUICK, FULL], ids=lambda p: p.name)
def test_every_cell_names_real_agents_and_every_experiment_is_well_formed(profile) -> None:
    chosen = experiments(profile)
    assert len({e.key for e in chosen}) == len(chosen)
    for experiment in chosen:
        assert experiment.kind in KINDS and experiment.games % 2 == 0 and experiment.claims
        assert len({c.slug for c in experiment.cells}) == len(experiment.cells)
        for cell in experiment.cells:
            AgentSpec.parse(cell.first).check(experiment.config.geometry)
            AgentSpec.parse(cell.second).check(experiment.config.geometry)
    assert PROFILES == {"quick": QUICK, "full": FULL}


def test_the_papers_numbers_are_those_of_their_text() -> None:
    claims = {claim.text: claim for e in experiments(FULL) for claim in e.claims}
    quoted = {claim.paper_value for claim in claims.values() if claim.paper_value is not None}
    assert quoted == {0.9375, 1.0, 0.79, 0.5}  # 0.5: Table 8's "close to H2", read as an even win rate
    fig3 = next(e for e in experiments(FULL) if e.key == "sheoran-fig3")
    adaptive = fig3.cell("vs kaggle:negamax", "4/5")
    assert fig3.games == 100 and adaptive.first == "minimax:rules=paper" and fig3.games_of(adaptive) == 400
    assert fig3.cell("vs kaggle:negamax (ours)", "4/5").first == "minimax"


def test_a_claim_on_a_cell_the_experiment_lacks_is_refused() -> None:
    cell = Cell("a", "1", "random", "kaggle:random")
    with pytest.raises(ValueError, match="no cell has"):
        Experiment("x", "p", "t", "s", SERIES, (cell,), 2, (Claim("c", "above_half", (("a", "2"),)),))
    with pytest.raises(ValueError, match="even number"):
        Experiment("x", "p", "t", "s", SERIES, (cell,), 3, ())
    with pytest.raises(ValueError, match="needs the paper's value"):
        Claim("c", "win_rate", (("a", "1"),))


def nodes_experiment(cell: Cell, match) -> ExperimentResult:
    experiment = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13")
    return ExperimentResult(experiment, (CellResult(cell, match),))


def test_nodes_are_those_the_games_recorded_and_nothing_is_searched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(MinimaxStrategy, "choose", lambda *args: pytest.fail("a position was searched again"))
    spec = "minimax:depth=3,evaluation=h1"
    cell = Cell("depth 3", "self-play", spec, spec)
    match = play_match(
        MatchPlan(AgentSpec.of(spec), AgentSpec.of(spec), 2, opening_plies=2),
        PlayOptions(executor=InlineExecutor(), play=fake_game),
    )
    samples = runner.move_samples(nodes_experiment(cell, match))
    record = match.records[0]
    assert len(samples) == 2 * (len(record.moves) - len(record.opening))
    assert [s.move for s in samples[:6]] == [3, 4, 5, 6, 7, 8]
    assert samples[1].move == 4 and samples[1].nodes == 1000 * 3 // 4 and samples[1].depth == 3
    assert samples[1].evaluations == 1000 * 3 // 4 // 3
    assert samples[0].seconds == record.durations[0][0] and samples[1].seconds == record.durations[1][0]
    # A move whose agent reported nothing is left out, not made up.
    silent = play_match(
        MatchPlan(AgentSpec.of(spec), AgentSpec.of(spec), 2, opening_plies=2),
        PlayOptions(
            executor=InlineExecutor(), play=lambda game: dataclasses.replace(fake_game(game), search_stats=NO_STATS)
        ),
    )
    assert runner.move_samples(nodes_experiment(cell, silent)) == []
    claim = next(e for e in experiments(QUICK) if e.key == "kang-fig12-13").claims[0]
    assert judge(claim, nodes_experiment(cell, silent)).status == "cannot be tested at this size"


class ReportingAgent:
    """An agent object that reports its search after each move (as ``last_stats``): nodes 100 plus the stones seen."""

    def __init__(self) -> None:
        self.last_stats: dict[str, int] | None = None

    def __call__(self, observation, configuration) -> int:
        stones = sum(1 for cell in observation.board if cell)
        self.last_stats = {"nodes": 100 + stones, "depth": 2, "evaluations": stones}
        return [c for c in range(configuration.columns) if observation.board[c] == 0][0]


@pytest.mark.games
def test_the_report_counts_the_nodes_the_agents_reported_while_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "kaggle_callable", lambda spec, env, config: ReportingAgent())
    spec = "minimax:depth=2,evaluation=h1"
    cell = Cell("depth 2", "self-play", spec, spec)
    match = play_match(
        MatchPlan(AgentSpec.of(spec), AgentSpec.of(spec), 2, config=BoardConfig(4, 5, 3), opening_plies=2),
        PlayOptions(executor=InlineExecutor(), play=play_game),
    )
    samples = runner.move_samples(nodes_experiment(cell, match))
    assert len(samples) == sum(len(r.moves) - len(r.opening) for r in match.records) > 0
    assert all(s.nodes == 100 + s.move - 1 and s.evaluations == s.move - 1 and s.depth == 2 for s in samples)


@pytest.mark.games
def test_minimax_reports_the_nodes_of_the_search_that_chose_its_move() -> None:
    spec = "minimax:depth=3,evaluation=h1"
    record = play_game(GameSpec(0, (spec, spec), BoardConfig(), seed=4, opening=(3, 3)))
    assert record.cause in ("line", "draw")
    position = Position.initial()
    for ply, column in enumerate(record.moves):
        if ply >= len(record.opening):
            seat, call = ply % 2, (ply - len(record.opening)) // 2
            strategy = MinimaxStrategy(depth=3, evaluation="h1")
            strategy.choose(position, Deadline.after(1e9))
            assert strategy.last_search is not None
            assert record.stats(seat, call)["nodes"] == strategy.last_search.nodes > 0
        position = position.play(column)


def test_an_interrupted_report_plays_only_the_missing_games(tmp_path: Path) -> None:
    def interrupted(spec: GameSpec) -> GameRecord:
        if len(calls) == 7:
            raise KeyboardInterrupt
        calls.append(spec.index)
        return fake_game(spec)

    calls: list[int] = []
    with pytest.raises(KeyboardInterrupt):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=interrupted, only=["sheoran-fig3"])
    recorded = sum(len(ResultsStore(d).load()) for d in (tmp_path / "runs" / "sheoran-fig3").iterdir())
    assert 6 <= recorded <= 7 == len(calls)
    play, rest = counting(fake_game)
    results = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["sheoran-fig3"])
    fig3 = results[0].experiment
    total = sum(fig3.games_of(cell) for cell in fig3.cells)
    assert len(rest) == total - recorded
    assert sum(len(c.match.records) for c in results[0].cells) == total
    with pytest.raises(ValueError, match="unknown experiment"):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["fig99"])


def test_a_cell_directory_holding_another_run_stops_the_report_before_any_game(tmp_path: Path) -> None:
    fig3 = next(e for e in experiments(QUICK) if e.key == "sheoran-fig3")
    last = runner.cell_directory(tmp_path, fig3, fig3.cells[-1])
    last.mkdir(parents=True)
    (last / "run.json").write_text(json.dumps({"kind": "match", "first": "someone else"}))
    play, calls = counting(fake_game)
    with pytest.raises(RunDirectoryError, match="different run"):
        run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play, only=["sheoran-fig3"])
    assert calls == [] and sorted(tmp_path.rglob("*")) == [
        tmp_path / "runs",
        tmp_path / "runs" / "sheoran-fig3",
        last,
        last / "run.json",
    ]


@pytest.mark.games
def test_connectx_report_plays_real_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "--quick", "--only", "kang-table9", "--jobs", "2", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "[4/4] kang-table9" in printed and "report in" in printed  # H1 vs H2 at depths 2 and 4, the papers' and ours
    report = (tmp_path / "quick" / "report.md").read_text()
    assert "Table 9: H1 against H2 at equal depths" in report and (tmp_path / "quick" / "kang-table9.png").exists()
    games = list((tmp_path / "quick" / "runs" / "kang-table9").glob("*/games.jsonl"))
    records = [GameRecord.from_json(json.loads(line)) for path in games for line in path.read_text().splitlines()]
    assert len(records) == 24 and all(r.scored and r.config == KANG_CONFIG for r in records)
    assert main(["report", "--quick", "--only", "nonesuch", "--out", str(tmp_path)]) == 2
    assert "unknown experiment" in capsys.readouterr().err


def test_each_claims_notes_describe_the_agents_that_play_in_its_cells() -> None:
    by_key = {e.key: e for e in experiments(FULL)}
    for claim in by_key["sheoran-fig5"].claims:
        assert MINIMAX_NOTE in claim.note and MCTS_NOTE in claim.note and NEGAMAX_TEXT not in claim.note, claim
    averages = [claim for claim in by_key["sheoran-fig5"].claims if "on average over T_max" in claim.text]
    assert len(averages) == 2
    for claim in averages:
        assert "depends on which T_max values are averaged" in claim.note and claim.sensitivity
    against_negamax = [c for c in by_key["sheoran-fig3"].claims if "negamax" in c.text]
    assert against_negamax and all(NEGAMAX_TEXT in c.note for c in against_negamax)
