"""A bot asked to choose when its seat may not act says so clearly, whatever its level."""

from __future__ import annotations

import pytest

from tranque import Game, IllegalAction, Rules
from tranque.bots import bot_names, make_bot


@pytest.mark.parametrize("level", bot_names())
def test_a_bot_out_of_turn_raises_not_your_turn(level: str) -> None:
    game = Game(Rules.preset("clasico"), seed=3)
    turn = game.turn
    assert turn is not None
    bot = make_bot(level, seed=1)
    for seat in [s for s in range(4) if s != turn] + [None]:
        with pytest.raises(IllegalAction) as caught:
            bot.choose(game.view(seat))
        assert caught.value.code == "not_your_turn"
        assert caught.value.text("en") == f"It is not this seat's turn: seat {turn} is to play."
    assert bot.choose(game.view(turn)) in game.legal_actions()


@pytest.mark.parametrize("level", bot_names())
def test_a_bot_after_the_round_raises_round_over(level: str) -> None:
    game = Game(Rules.preset("clasico", players=2, mode="individual", target=500), seed=8)
    while not game.round.is_over:
        game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalAction) as caught:
        make_bot(level, seed=1).choose(game.view(game.round.turn))
    assert caught.value.code == "round_over"
