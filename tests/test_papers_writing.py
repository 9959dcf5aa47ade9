"""connectx report's writing: every figure, interval and claim in the report, and its tables, heat maps and ratings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from papers_fakes import counting, fake_game

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.game_record import GameRecord, GameSpec, MoveStats
from connectx.evaluation.match import MatchPlan, play_match
from connectx.evaluation.provenance import cpu_model
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor
from connectx.evaluation.statistics.elo import Interval, Rating
from connectx.papers.experiments import runner
from connectx.papers.experiments.catalogue import FULL, QUICK, experiments
from connectx.papers.experiments.design import SERIES, Cell, Claim, Experiment
from connectx.papers.experiments.runner import CellResult, ExperimentResult, run_experiments
from connectx.papers.writing import ratings_section, report_format
from connectx.papers.writing.markdown import write_report


def report_and_appendix(path: Path) -> str:
    """The written report followed by its appendix: what the report's tests read, wherever each part is."""
    return path.read_text() + (path.parent / report_format.APPENDIX_FILE).read_text()


FIGURES = (
    "sheoran-fig3.png",
    "sheoran-fig4.png",
    "sheoran-fig5.png",
    "sheoran-speed-nodes.png",
    "kang-table6.png",
    "kang-table7.png",
    "kang-table8.png",
    "kang-table9.png",
    "kang-fig12-13-nodes.png",
    "kang-fig12-13-time.png",
    "solver.png",
)


def test_the_report_has_every_figure_interval_and_claim_and_resumes(tmp_path: Path) -> None:
    play, calls = counting(fake_game)
    results = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=play)
    total = sum(e.games_of(c) for e in experiments(QUICK) for c in e.cells)
    assert len(calls) == total
    path = write_report(QUICK, results, tmp_path, ["machine: test"], 1.0)
    text = report_and_appendix(path)
    for figure in FIGURES:
        assert (tmp_path / figure).stat().st_size > 1000 and f"]({figure})" in text
    for claim in (c for e in experiments(QUICK) for c in e.claims):
        assert claim.text in text
    assert f"{total} games" in text and "machine: test" in text and "quick profile, a smoke run" in text
    assert f"this invocation played {total} of them" in text
    assert f"- the games took {total * 9.0 / 3600:.1f} h of game time in all" in text
    # Every game recorded what played it, and the conditions table says so.
    assert re.search(
        rf"\| code [0-9a-f]{{12}} at [0-9a-f]{{12}}( with uncommitted changes \(diff [0-9a-f]{{12}}\))?, "
        rf"on {re.escape(cpu_model())}, \d+ at once \(\d+\) \|",
        text,
    )
    # The 79% claim gets its sensitivity table, the trend claims their strata by seat.
    assert "| T_max range | 0% moving first |" in text and "| 10 ms to 100 ms | " in text
    assert "by series and seat" in text and "| depth 1, moving first | " in text
    # Table 8's all-features H1 and Table 9's depth-4 H1 are one agent under two names: the report says so.
    assert "Table 8 H1 vs H2 at F1+F2+F3+F4 and Table 9 H1 vs H2 at depth 4: " in text
    # A smoke run's handful of games per agent places nobody: the Elo section says so rather than guess.
    assert "won and lost 10 points against each other: nothing to rate" in text and "`solver:time_budget=0.25`" in text
    assert any(line.startswith("| depth 4 | ") and " | 4 | " in line for line in text.splitlines())  # depth reached
    negamax_rows = [line for line in text.splitlines() if line.startswith("| vs kaggle:negamax |")]
    # Fig. 3 and Fig. 4: the win rate, and the score where the experiment had a draw (else it would repeat it); each
    # cell once in the report and once, with its agents and seats, in the appendix.
    assert len(negamax_rows) == 2 * (4 + 3) and all(line.count("[") in (1, 2) for line in negamax_rows)
    # The fake lets the deeper agent win. Every cell of Table 6 plays the same 3 openings (one per pair), and
    # every game went the deeper side's way, so its 18 games of unequal depths are worth the 3 openings: the
    # claim that says so points the right way but cannot be tested at this size.
    table6 = next(line for line in text.splitlines() if "the deeper H1 tends" in line and line.startswith("|"))
    assert re.search(r"\*\*cannot be tested at this size \(power \d+%\)\*\* \|$", table6), table6
    assert "the shallower H1 (the first agent of each pair of depths) scored 0.0% [" in text
    appendix = text[text.index("# Appendix") :]
    test6 = appendix[appendix.index("the deeper H1 tends") :]
    assert "18 games (18 distinct) from 3 shared openings, worth 3 independent ones (fewer than 30" in test6
    assert "- verdict: **cannot be tested at this size** (no hypothesis rejected, by a test with" in test6
    # Table 6 in the paper's orientation: columns are the first mover's depth, rows the second mover's, so
    # the row of a second mover at depth 1 ends with the first mover at depth 4, who (deeper) won every game.
    assert "| second \\ first | depth 1 | depth 2 | depth 4 |" in text
    row = next(line for line in text.splitlines() if line.startswith("| depth 1 | ") and " / " in line)
    assert row.split(" | ")[-1].startswith("100% / 0%") and row.split(" | ")[1].startswith("0% / 0%")  # equal: draws

    again, calls_again = counting(fake_game)
    resumed = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=again)
    assert calls_again == []
    rewritten = report_and_appendix(write_report(QUICK, resumed, tmp_path, ["machine: test"], 1.0))
    assert without_clock(rewritten) == without_clock(text) and "this invocation played none" in rewritten


def test_only_agents_with_enough_won_and_lost_points_are_rated(tmp_path: Path) -> None:
    cells = (
        Cell("s", "a", "random", "kaggle:random"),
        Cell("s", "b", "negamax", "kaggle:random"),
        Cell("s", "c", "minimax", "random"),
        Cell("s", "d", "mcts", "kaggle:random"),
    )
    # The first agent's wins in 24 games: random and kaggle:random trade 12 each, negamax wins all, minimax 22,
    # mcts 14: minimax lost only 2 points, too few to place it; mcts won 14 and lost 10, enough.
    wins = {"random": 12, "negamax": 24, "minimax": 22, "mcts": 14}
    experiment = Experiment("solver", "p", "t", "s", SERIES, cells, 24, (Claim("c", "above_half", (("s", "a"),)),))

    def play(spec: GameSpec) -> GameRecord:
        seat = spec.index % 2  # the cell's first agent moves first in even games
        name = spec.names[seat]
        winner = seat if spec.index < wins[name] else 1 - seat
        return GameRecord(
            spec.index, spec.names, spec.config, spec.seed, (), (spec.index,), winner, ("DONE", "DONE"), "line"
        )

    results = tuple(
        CellResult(
            cell,
            play_match(
                MatchPlan(AgentSpec.of(cell.first), AgentSpec.of(cell.second), 24),
                PlayOptions(executor=InlineExecutor(), play=play),
            ),
        )
        for cell in cells
    )
    text = report_and_appendix(write_report(QUICK, [ExperimentResult(experiment, results)], tmp_path))
    rated = [line for line in text.splitlines() if re.match(r"\| \d+ \| `", line)]
    assert sorted(line.split("`")[1] for line in rated) == ["kaggle:random", "mcts", "random"]
    assert "- `negamax`: won every one of its 24 games against the rated agents" in text
    assert "- `minimax`: won 22 and lost 2 of 24 points against the rated agents: fewer than 10" in text
    assert "Intervals are 95% profile-likelihood ones" in text and "-inf" not in text and "+inf" not in text


def without_clock(report: str) -> list[str]:
    return [line for line in report.splitlines() if not line.startswith("- written ")]


def test_the_report_shows_the_conditions_and_simulations_the_games_recorded(tmp_path: Path) -> None:
    cell = Cell("s", "10 ms", "mcts:time_budget=0.01", "kaggle:random", 10.0)
    claim = Claim("a wins", "above_half", (("s", "10 ms"),))
    experiment = Experiment("x", "p", "t", "s", SERIES, (cell,), 4, (claim,), log_x=True)

    def play(spec: GameSpec) -> GameRecord:
        mcts = spec.names.index(cell.first)
        stats: list[tuple[MoveStats, ...]] = [(), ()]
        stats[mcts] = ((("simulations", 100 * (spec.index + 1)),), (("simulations", 300),))
        return GameRecord(
            spec.index,
            spec.names,
            spec.config,
            spec.seed,
            (),
            (spec.index,),
            mcts,
            ("DONE", "DONE"),
            "line",
            durations=((0.5,), (0.25,)),
            wall_seconds=2.0,
            cpu_seconds=0.5 * (spec.index + 1),
            search_stats=(stats[0], stats[1]),
            load_average=(float(spec.index), 1.0),
        )

    match = play_match(
        MatchPlan(AgentSpec.of(cell.first), AgentSpec.of(cell.second), 4),
        PlayOptions(executor=InlineExecutor(), play=play),
    )
    result = ExperimentResult(experiment, (CellResult(cell, match),))
    conditions = runner.play_conditions(result)
    # Load samples 0, 1, 1, 1, 2, 1, 3, 1: median 1, max 3; CPU shares 0.25, 0.5, 0.75, 1.0: median 0.75.
    assert (conditions.recorded, conditions.load_median, conditions.load_max) == (4, 1.0, 3.0)
    assert conditions.cpu_share_median == 0.75 and conditions.slowest_move == 0.5
    # Simulations: (100 + 300), (200 + 300), (300 + 300), (400 + 300) over 8 moves: a mean of 275.
    assert runner.simulations_per_move(result.cells[0]) == {cell.first: 275.0}
    text = report_and_appendix(write_report(QUICK, [result], tmp_path))
    assert "| x | 4 | 4 | 1.00, 3.00 | 75% | 0.50 s | 0.1 min |" in text
    assert "simulations per move |" in text and "| 275 |" in text


def test_table6_text_table_and_heat_map_put_the_first_mover_in_the_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for profile in (QUICK, FULL):
        table6 = next(e for e in experiments(profile) if e.key == "kang-table6")
        assert "laid out as the paper's Table 6 (\"the first row is the depth for the first H1" in table6.setup
        assert (
            f"each seat order (each cell of the table off the diagonal) has {profile.kang_games // 2} games"
            in table6.setup
        )
    from connectx.evaluation import plots

    drawn: dict[str, str] = {}
    real = plots.heat_map

    def heat_map(*args, **kwargs):  # type: ignore[no-untyped-def]
        drawn.update(xlabel=kwargs["xlabel"], ylabel=kwargs["ylabel"])
        return real(*args, **kwargs)

    monkeypatch.setattr(plots, "heat_map", heat_map)
    results = run_experiments(QUICK, tmp_path, executor=InlineExecutor(), play=fake_game, only=["kang-table6"])
    text = report_and_appendix(write_report(QUICK, results, tmp_path))
    assert "columns are the first mover's depth, rows the second mover's" in text
    assert drawn == {"xlabel": "first mover's depth", "ylabel": "second mover's depth"}


def test_a_narrow_heat_maps_long_title_is_wrapped_to_fit_the_figure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from matplotlib.figure import Figure

    from connectx.evaluation import plots

    kept: list[Figure] = []
    monkeypatch.setattr(plots.plt, "close", kept.append)  # keep the figure to measure it
    rate = Interval(0.5, 0.3, 0.7)
    plots.heat_map(
        [[rate, rate], [rate, rate]],
        tmp_path / "map.png",
        rows=["H1", "H2"],
        columns=["depth 2", "depth 4"],
        xlabel="search depth of both",
        ylabel="heuristic",
        title="Kang, Wang & Hu 2019, Table 9: win rate of each heuristic against the other "
        "at the same search depth, both seats",
        colour_label="win rate",
    )
    figure = kept[0]
    box = figure.axes[0].title.get_window_extent(figure.canvas.get_renderer())
    assert box.x0 >= 0 and box.x1 <= figure.bbox.width


def test_elo_series_keep_each_papers_agent_apart_from_ours_and_leave_out_variants() -> None:
    names = [
        "minimax:depth=1,memo=false,rules=paper",
        "minimax:rules=paper",
        "minimax:depth=2",
        "minimax",
        "minimax:memo=false,rules=paper",
        "minimax:depth=2,rules=paper",
        "mcts:clock=cpu,proofs=false,reuse=false,time_budget=0.01",
        "mcts:clock=cpu,time_budget=1",
        "mcts:clock=cpu,proofs=false,time_budget=0.1",
        "minimax:depth=4,evaluation=h1,rules=paper",
        "minimax:depth=4,evaluation=h1,rules=paper,features=12",
        "minimax:depth=8,evaluation=h2,rules=paper",
        "minimax:depth=2,evaluation=h2,rules=ours",
        "kaggle:random",
        "solver:time_budget=0.5",
    ]
    ratings = [Rating(name, float(i), i - 1.0, i + 1.0, 10) for i, name in enumerate(names)]

    def xs(series: ratings_section.EloSeries) -> dict[str, list[str | float]]:
        return {label: [x for x, _ in points] for label, points in series.items()}

    by_depth, by_time, by_heuristic = ratings_section.elo_series(ratings)
    assert xs(by_depth) == {"Sheoran's minimax": ["1", "4/5"], "our minimax": ["2", "4/5"]}
    assert xs(by_time) == {"Sheoran's MCTS (plain UCB1)": [10.0], "our MCTS": [1000.0]}
    assert xs(by_heuristic) == {"H1": [4.0], "H2": [8.0], "H2 (ours)": [2.0]}
