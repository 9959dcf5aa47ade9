"""The opponent model: its laws, and that its posterior finds the kind of player that made a sequence of moves.

The sequences are synthetic: random reply options (seven columns' exact scores, and a column for
each search depth), a move drawn from one hypothesis's own law each time, seeded.
"""

from __future__ import annotations

import math
import random

import pytest

from connectx.agents.search.opponent_model import (
    FLOOR,
    HORIZON,
    HYPOTHESES,
    LAPSE,
    MARGIN,
    PERFECT,
    PERFECT_PRIOR,
    RANDOM,
    RESULT,
    Hypothesis,
    OpponentModel,
    ReplyOptions,
    margin_probabilities,
    parse_hypothesis,
)
from connectx.agents.search.trap_play import GATE

DEPTHS = (4, 6, 8)


def random_options(rng: random.Random) -> ReplyOptions:
    """Seven columns' scores as a middle game has them (a few close, some far), and each depth's column."""
    scores = {column: rng.choice((-6, -3, -2, -1, 0, 1, 1, 2, 3, 5)) for column in range(7)}
    return ReplyOptions(scores, {depth: rng.randrange(7) for depth in DEPTHS})


def drawn_move(hypothesis: Hypothesis, options: ReplyOptions, rng: random.Random) -> int:
    """A column drawn from ``hypothesis``' own law (no floor)."""
    chances = hypothesis.column_probabilities(options)
    columns = sorted(chances)
    return rng.choices(columns, weights=[chances[column] for column in columns])[0]


def test_the_margin_law_is_a_softmax_of_the_score_gap() -> None:
    chances = margin_probabilities({0: 3, 1: 3, 2: 2, 3: -2}, temperature=1.0)
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances[0] == chances[1], "equally scored columns share alike"
    assert chances[2] / chances[0] == pytest.approx(math.exp(-1))
    assert chances[3] / chances[0] == pytest.approx(math.exp(-5))
    thin, wide = margin_probabilities({0: 1, 1: 0}, 1.0), margin_probabilities({0: 4, 1: 0}, 1.0)
    assert thin[1] > wide[1], "a slip is likelier where the margin is thin"


def test_every_law_is_a_distribution_over_scores_with_a_floor() -> None:
    rng = random.Random(2)
    for _ in range(50):
        options = random_options(rng)
        for hypothesis in HYPOTHESES:
            chances = hypothesis.score_probabilities(options)
            assert set(chances) == set(options.scores.values())
            assert sum(chances.values()) == pytest.approx(1.0)
            assert min(chances.values()) >= FLOOR / len(options.scores) - 1e-12


def test_hypotheses_are_named_as_move_statistics_record_them() -> None:
    assert [str(hypothesis) for hypothesis in HYPOTHESES[:3]] == ["perfect", "result", "random:0.03"]
    assert str(Hypothesis(MARGIN, 0.5)) == "margin:0.5" and str(Hypothesis(HORIZON, 8)) == "horizon:8"


def test_the_prior_and_reset() -> None:
    model = OpponentModel()
    assert model.perfect_share() == pytest.approx(PERFECT_PRIOR)
    assert model.untrappable_share() >= GATE, "the prior alone never sets a trap"
    model.observe(ReplyOptions({0: 2, 1: -3, 2: 1}, dict.fromkeys(DEPTHS, 1)), 1)  # a win given up
    assert model.untrappable_share() < GATE and model.observed == 1
    model.reset()
    assert model.perfect_share() == pytest.approx(PERFECT_PRIOR) and model.observed == 0


def test_best_moves_never_lower_the_perfect_players_weight_even_when_a_search_breaks_the_tie() -> None:
    """A deterministic hypothesis could gain from every tie a perfect player breaks its way; not on scores."""
    rng = random.Random(5)
    model = OpponentModel()
    share = model.perfect_share()
    for _ in range(200):
        options = random_options(rng)
        best = [column for column, score in options.scores.items() if score == options.best()]
        chosen = rng.choice(best)
        model.observe(ReplyOptions(options.scores, dict.fromkeys(DEPTHS, chosen)), chosen)
        assert model.perfect_share() >= share - 1e-12
        share = model.perfect_share()
    # Every kind that errs in a way these moves never showed falls away; a lapse into a search that always
    # agreed with the best move is no different from perfect play, so only those keep their weight.
    erring = sum(weight for hypothesis, weight in model.posterior() if hypothesis.kind not in (PERFECT, RESULT, LAPSE))
    assert erring < 0.01 and share > PERFECT_PRIOR and model.untrappable_share() >= share


@pytest.mark.parametrize(
    "truth",
    [
        Hypothesis(RANDOM, 0.3),
        Hypothesis(RANDOM, 0.1),
        Hypothesis(MARGIN, 0.5),
        Hypothesis(MARGIN, 2.0),
        Hypothesis(HORIZON, 4),
        Hypothesis(HORIZON, 8),
        Hypothesis(LAPSE, 6),
        Hypothesis(RESULT),
        Hypothesis(PERFECT),
    ],
)
def test_the_posterior_moves_to_the_kind_of_player_that_made_the_moves(truth: Hypothesis) -> None:
    rng = random.Random(11)
    model = OpponentModel()
    for _ in range(150):
        options = random_options(rng)
        model.observe(options, drawn_move(truth, options, rng))
    posterior = dict(model.posterior())
    assert model.likeliest() == truth, sorted(posterior.items(), key=lambda pair: -pair[1])[:3]
    assert posterior[truth] > 0.5
    if truth.kind in (PERFECT, RESULT):
        assert model.untrappable_share() > 0.9, "an opponent that never gives up its result is never trapped"
    else:
        assert model.untrappable_share() < GATE


def test_one_surprising_move_does_not_zero_any_hypothesis() -> None:
    model = OpponentModel()
    options = ReplyOptions({0: 5, 1: -5, 2: 5}, dict.fromkeys(DEPTHS, 0))
    for _ in range(3):
        model.observe(options, 1)  # a move no law but the floor and random slips expects
    assert all(weight > 0 and math.isfinite(math.log(weight)) for _, weight in model.posterior())


def test_the_mixture_keeps_the_weighty_hypotheses_renormalised() -> None:
    model = OpponentModel()
    model.observe(ReplyOptions({0: 2, 1: 1, 2: -3}, dict.fromkeys(DEPTHS, 2)), 1)
    posterior = dict(model.posterior())
    mixture = dict(model.mixture(0.05))
    assert set(mixture) == {hypothesis for hypothesis, weight in posterior.items() if weight >= 0.05}
    assert Hypothesis(PERFECT) not in mixture and Hypothesis(MARGIN, 1.0) in mixture
    assert sum(mixture.values()) == pytest.approx(1.0)
    kept = sum(posterior[hypothesis] for hypothesis in mixture)
    assert all(mixture[hypothesis] == pytest.approx(posterior[hypothesis] / kept) for hypothesis in mixture)


def test_a_kind_is_read_back_from_the_form_statistics_write_it_in() -> None:
    for hypothesis in HYPOTHESES:
        assert parse_hypothesis(str(hypothesis)) == hypothesis
    assert parse_hypothesis("random:0.05") == Hypothesis(RANDOM, 0.05)


@pytest.mark.parametrize("text", ["random", "perfect:1", "horizon:4.5", "margin:-1", "random:often", "gambler:1"])
def test_a_kind_that_does_not_exist_is_refused_with_the_kinds(text: str) -> None:
    with pytest.raises(ValueError, match=r"expected perfect, result, random:RATE"):
        parse_hypothesis(text)
