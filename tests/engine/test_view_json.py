"""`PlayerView.from_json` is the inverse of `to_json`: a program playing over the server's
protocol rebuilds exactly the view the engine would give its seat (what `tranque bot run`
hands the built-in bots)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tranque.engine import Game, PlayerView, Rules
from tranque.engine.presets import PRESETS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_view_of_a_whole_game_comes_back_from_its_json(preset: str) -> None:
    rules = Rules.preset(preset)
    game = Game(rules, seed=11)
    rng = random.Random(preset)
    checked = 0
    while not game.is_over:
        if game.round.is_over:
            game.start_next_round()
        for seat in [None, *range(rules.players)]:
            view = game.view(seat)
            data = view.to_json()
            assert PlayerView.from_json(data, rules) == replace(view, pass_bonus_pending=False)
            data["pass_bonus_pending"] = view.pass_bonus_pending  # what the JSON leaves out
            assert PlayerView.from_json(data, rules) == view
            checked += 1
        if not game.round.is_over:
            game.apply(rng.choice(game.legal_actions()))
    over = game.view(0)
    assert over.result is not None and over.revealed_hands is not None
    assert (
        PlayerView.from_json({**over.to_json(), "pass_bonus_pending": over.pass_bonus_pending}, rules) == over
    )
    assert checked > 20


def test_a_line_given_as_the_servers_boxes_is_read_by_their_tiles() -> None:
    rules = Rules.preset("clasico", players=2)
    game = Game(rules, seed=5)  # clasico has no pass points: nothing is left out
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    view = game.view(game.turn)
    data = view.to_json()
    data["line"] = [{"tile": str(tile), "x": 0, "y": 0, "w": 1, "h": 2} for tile in view.line]
    assert PlayerView.from_json(data, rules) == view
    assert len(view.line) >= 1
