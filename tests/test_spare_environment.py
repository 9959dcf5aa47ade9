"""An environment made ahead of its game plays it exactly as one made for it, and is never used on another board."""

from __future__ import annotations

from dataclasses import replace

import pytest

from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_in_process import SpareEnvironment, play_game
from connectx.evaluation.game_record import GameSpec


@pytest.mark.games
def test_a_game_in_an_environment_made_ahead_is_the_game_made_for_it() -> None:
    spare = SpareEnvironment()
    first = GameSpec(0, ("random", "kaggle:random"), BoardConfig(), seed=3, keep_replay=True)
    play_game(first, spare=spare)
    spare.prepare(first.config)
    second = GameSpec(1, ("kaggle:random", "random"), BoardConfig(), seed=4, opening=(3, 3), keep_replay=True)
    made_ahead = play_game(second, spare=spare)
    fresh = play_game(second)
    assert spare.made is None  # taken by the game
    assert (made_ahead.moves, made_ahead.winner, made_ahead.cause) == (fresh.moves, fresh.winner, fresh.cause)
    assert made_ahead.replay is not None and fresh.replay is not None
    assert made_ahead.replay["info"] == fresh.replay["info"] == {"TeamNames": ["kaggle:random", "random"]}
    assert made_ahead.replay["steps"] == fresh.replay["steps"]


def test_an_environment_made_for_another_board_is_dropped() -> None:
    spare = SpareEnvironment()
    spare.prepare(BoardConfig())
    assert spare.made is not None
    made_ahead = spare.made[1]
    other = GameSpec(0, ("random", "random"), BoardConfig(5, 6, 4), seed=1)
    env = spare.take(other)
    assert env is not made_ahead and env.configuration.rows == 5 and spare.made is None
    same = replace(other, config=BoardConfig())
    spare.prepare(same.config)
    assert spare.made is not None
    kept = spare.made[1]
    assert spare.take(same) is kept and kept.info == {"TeamNames": ["random", "random"]}
