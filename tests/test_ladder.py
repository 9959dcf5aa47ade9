"""The ladder: openskill's updates as Kaggle describes them, the pairing, the folding of records, and the command."""

from __future__ import annotations

import colorsys
import dataclasses
import importlib.util
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.cli.main import main
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.ladder import (
    MU,
    SIGMA,
    LadderPlan,
    LadderSummary,
    Ratings,
    draw_pairing,
    play_ladder,
    summarize_ladder,
)
from connectx.evaluation.ladder_pool import ALPHA_BETA, CANDIDATE, KAGGLE
from connectx.evaluation.provenance import code_digest
from connectx.evaluation.results_store import RunDirectoryError
from connectx.evaluation.run_loop import PlayOptions
from connectx.evaluation.scheduling import InlineExecutor


def test_a_win_raises_the_winner_lowers_the_loser_and_shrinks_both_sigmas():
    ratings = Ratings(["a", "b"])
    ratings.rate("a", "b", 1.0)
    assert ratings.mu("a") > MU > ratings.mu("b")
    assert ratings.sigma("a") < SIGMA and ratings.sigma("b") < SIGMA


def test_an_upset_moves_ratings_further_than_an_expected_result():
    expected, upset = Ratings(["strong", "weak"]), Ratings(["strong", "weak"])
    for ratings in (expected, upset):
        for _ in range(5):
            ratings.rate("strong", "weak", 1.0)
    before = expected.mu("strong")
    expected.rate("strong", "weak", 1.0)
    upset.rate("strong", "weak", 0.0)
    assert before - upset.mu("strong") > expected.mu("strong") - before > 0


def test_a_draw_pulls_two_ratings_together():
    ratings = Ratings(["high", "low"])
    for _ in range(3):
        ratings.rate("high", "low", 1.0)
    high, low = ratings.mu("high"), ratings.mu("low")
    ratings.rate("low", "high", 0.5)
    assert low < ratings.mu("low") < ratings.mu("high") < high


def test_pairs_are_drawn_among_similar_ratings_and_seats_at_random():
    ratings = Ratings(["top", "near", "far"])
    for _ in range(8):
        ratings.rate("top", "far", 1.0)
        ratings.rate("near", "far", 1.0)
    rng = random.Random(1)
    pairs = Counter(frozenset(draw_pairing(ratings, rng)) for _ in range(2000))
    assert pairs[frozenset(("top", "near"))] > 3 * pairs[frozenset(("top", "far"))]
    seats = Counter(draw_pairing(ratings, rng)[0] for _ in range(2000))
    assert seats["top"] > 400 and seats["near"] > 400


def record(index: int, first: str, second: str, winner: int | None, cause: str = "line") -> GameRecord:
    return GameRecord(index, (first, second), BoardConfig(), index, (), (3, 3), winner, ("DONE", "DONE"), cause)


def test_the_summary_folds_the_records_in_order_and_scores_each_seat_against_each_kind():
    plan = LadderPlan((AgentSpec.parse("negamax"),), pool="fast", episodes=10)
    records = [
        record(0, "negamax", "kaggle:random", 0),
        record(1, "kaggle:random", "negamax", 1),
        record(2, "negamax", "negamax:depth=1", None),
        record(3, "negamax", "kaggle:random", None, "aborted"),
    ]
    summary = summarize_ladder(plan, records)
    negamax = summary.standing("negamax")
    assert (negamax.kind, negamax.episodes, negamax.wins, negamax.draws, negamax.losses) == (CANDIDATE, 3, 2, 1, 0)
    assert negamax.by_kind[(KAGGLE, 0)].points == 1 and negamax.by_kind[(KAGGLE, 1)].points == 1
    assert negamax.by_kind[(ALPHA_BETA, 0)].score == 0.5
    assert summary.standings[0].agent == "negamax"
    assert all(len(history) == 4 for history in summary.history.values())  # the start, then 3 rated episodes
    ratings = Ratings(plan.agents)
    for game in records:
        ratings.add(game)
    assert negamax.mu == ratings.mu("negamax")


def test_the_terminal_table_says_what_its_cells_mean():
    from connectx.evaluation.results_text import ladder_table

    plan = LadderPlan((AgentSpec.parse("negamax"),), pool="fast", episodes=10)
    records = [
        record(0, "negamax", "kaggle:random", 0),
        record(1, "kaggle:random", "negamax", None),
        record(2, "kaggle:random", "negamax", 1),
        record(3, "kaggle:random", "negamax", 1),
    ]
    table = ladder_table(summarize_ladder(plan, records))
    row = next(line for line in table.splitlines() if line.startswith("| 1 | negamax |"))
    assert "1.00 (1) / 0.83 (3)" in row
    legend = table.rstrip("\n").splitlines()[-1]
    assert "score moving first / score moving second" in legend and "episodes behind each in brackets" in legend


def test_the_rated_agents_are_drawn_black_and_no_two_neighbours_share_a_hue():
    from connectx.evaluation.ladder_pool import pool_members
    from connectx.evaluation.plots import HIGHLIGHT_COLOR, ratings_line_styles

    pool = [member.agent for member in pool_members("default")]
    names = [*pool[:5], "mine.py", "solver", *pool[5:]]
    styles = ratings_line_styles(names, highlight=["mine.py", "solver"])
    distance = lambda a, b: sum((x - y) ** 2 for x, y in zip(a, b, strict=True)) ** 0.5  # noqa: E731
    assert styles["mine.py"].color == styles["solver"].color == HIGHLIGHT_COLOR
    assert styles["mine.py"].dashes != styles["solver"].dashes and styles["solver"].width > styles[pool[0]].width
    assert min(distance(styles[name].color, HIGHLIGHT_COLOR) for name in pool) > 0.4
    colours = [styles[name].color for name in pool]
    assert len(set(colours)) == len(pool)
    hues = [colorsys.rgb_to_hsv(*colour)[0] for colour in colours]
    # In tab20's own order every strong colour has its light shade beside it: a hue apart of 0.
    assert min(min(abs(a - b), 1 - abs(a - b)) for a, b in zip(hues, hues[1:], strict=False)) > 0.05


def fake_episode(spec: GameSpec) -> GameRecord:
    """An episode without kaggle-environments: the seat whose agent's text is longer wins (a draw on a tie)."""
    first, second = (len(name) for name in spec.names)
    winner = None if first == second else (0 if first > second else 1)
    return GameRecord(
        spec.index,
        spec.names,
        spec.config,
        spec.seed,
        (),
        (3, 3),
        winner,
        ("DONE", "DONE"),
        "draw" if winner is None else "line",
    )


def test_the_ratings_updated_episode_by_episode_equal_the_full_refold_of_every_episode_so_far():
    plan = LadderPlan((AgentSpec.parse("negamax"),), pool="fast", episodes=30, seed=5)
    seen: list[tuple[GameRecord, LadderSummary]] = []
    result = play_ladder(
        plan,
        PlayOptions(executor=InlineExecutor(), play=fake_episode),
        on_game=lambda game, summary: seen.append((game, summary())),
    )
    assert len(seen) == 30 and len({frozenset(game.agents) for game, _ in seen}) > 3
    for count, (_, summary) in enumerate(seen, start=1):
        refold = Ratings(plan.agents)  # the old way: every rating from μ = 600 again, over all episodes so far
        for game, _ in seen[:count]:
            refold.add(game)
        assert {(s.agent, s.mu, s.sigma) for s in summary.standings} == {
            (agent, refold.mu(agent), refold.sigma(agent)) for agent in plan.agents
        }
    assert result.summary == summarize_ladder(plan, [game for game, _ in seen])


def test_a_resumed_ladder_refuses_episodes_played_by_other_code_unless_told(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    plan = LadderPlan((AgentSpec.parse("negamax"),), pool="fast", episodes=4)
    play_ladder(plan, PlayOptions(out=tmp_path, executor=InlineExecutor(), play=fake_episode))
    games = tmp_path / "games.jsonl"
    lines = [json.loads(line) for line in games.read_text().splitlines()]
    for line in lines:
        line["provenance"]["code"] = "000000000000"
    games.write_text("".join(json.dumps(line) + "\n" for line in lines))
    longer = dataclasses.replace(plan, episodes=6)
    with pytest.raises(RunDirectoryError, match="other code .*allow_code_change=True"):
        play_ladder(longer, PlayOptions(out=tmp_path, resume=True, executor=InlineExecutor(), play=fake_episode))
    assert len(games.read_text().splitlines()) == 4
    command = ["ladder", "negamax", "--pool", "fast", "--episodes", "6", "--out", str(tmp_path), "--resume"]
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "other code" in err and "--allow-code-change" in err
    assert len(games.read_text().splitlines()) == 4  # refused before anything was written
    mixed = play_ladder(
        longer,
        PlayOptions(out=tmp_path, resume=True, executor=InlineExecutor(), play=fake_episode, allow_code_change=True),
    )
    assert {r.provenance.code for r in mixed.records if r.provenance} == {"000000000000", code_digest()}


def test_a_candidate_that_is_also_in_the_pool_plays_once_as_a_candidate():
    plan = LadderPlan((AgentSpec.parse("kaggle:random"),), pool="fast")
    assert plan.agents.count("kaggle:random") == 1 and plan.kind("kaggle:random") == CANDIDATE


AGENT_FILE = (
    "def agent(observation, configuration):\n    return [c for c in range(configuration.columns)\n"
    "            if observation.board[c] == 0][0]\n"
)


@pytest.mark.games
def test_a_small_ladder_with_an_agent_file_plays_writes_everything_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    leftmost = tmp_path / "leftmost.py"
    leftmost.write_text(AGENT_FILE)
    out = tmp_path / "ladder"
    arguments = ["ladder", str(leftmost), "negamax:depth=1", "--pool", "none", "--jobs", "1", "--out", str(out)]
    assert main([*arguments, "--episodes", "3"]) == 0
    assert len((out / "games.jsonl").read_text().splitlines()) == 3
    first = json.loads((out / "summary.json").read_text())
    assert main([*arguments, "--episodes", "6", "--resume"]) == 0
    lines = (out / "games.jsonl").read_text().splitlines()
    assert len(lines) == 6 and len({json.loads(line)["index"] for line in lines}) == 6
    printed = capsys.readouterr().out
    assert "| rank | agent | kind | μ | σ | episodes |" in printed and str(leftmost) in printed
    summary = json.loads((out / "summary.json").read_text())
    assert sum(s["episodes"] for s in summary["standings"]) == 12
    assert summary["standings"][0]["agent"] == "negamax:depth=1"  # it takes the wins the file leaves it
    assert first["standings"] != summary["standings"]
    assert (out / "ratings.png").stat().st_size > 1000 and "![ratings.png]" in (out / "ladder.md").read_text()


@pytest.mark.games
def test_an_interrupted_ladder_continues_from_the_ratings_it_stopped_at(tmp_path: Path):
    out = tmp_path / "ladder"
    plan = LadderPlan((AgentSpec.parse("negamax:depth=1"),), pool="fast", episodes=4, seed=3)

    class Interrupt(Exception):
        pass

    def stop_after_two(game: GameRecord, summary: object) -> None:
        if game.index == 1:
            raise Interrupt

    with pytest.raises(Interrupt):
        play_ladder(plan, PlayOptions(jobs=1, out=out), on_game=stop_after_two)
    kept = len((out / "games.jsonl").read_text().splitlines())
    assert 1 <= kept <= 4
    result = play_ladder(plan, PlayOptions(jobs=1, out=out, resume=True))
    assert len(result.records) == 4
    assert result.summary == summarize_ladder(plan, result.records)


def test_the_ladders_page_describes_every_member_of_the_default_pool():
    from connectx.evaluation.ladder_pool import DEFAULT_POOL

    page = (Path(__file__).parent.parent / "docs" / "ladder.md").read_text()
    for member in DEFAULT_POOL:
        assert f"| `{member.agent}` | {member.kind} |" in page


@pytest.mark.games
@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask's distributed is not installed: make install-cluster (make test does it)",
)
def test_a_ladder_plays_on_a_local_cluster_with_an_agent_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)  # the workers cannot open the relative path: the file travels as source
    Path("leftmost.py").write_text(AGENT_FILE)
    assert (
        main(
            [
                "ladder",
                "leftmost.py",
                "negamax:depth=1",
                "--pool",
                "none",
                "--episodes",
                "6",
                "--cluster",
                "local:1",
                "--out",
                "run",
            ]
        )
        == 0
    )
    records = [json.loads(line) for line in Path("run/games.jsonl").read_text().splitlines()]
    assert len(records) == 6 and all(record["cause"] in ("line", "draw") for record in records)
    assert all("leftmost.py" in record["agents"] for record in records)
