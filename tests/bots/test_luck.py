"""«La suerte del reparto» (tranque.bots.luck): each side's expected points from a round's
deal alone, beside what it scored."""

from __future__ import annotations

import pickle

from tests.bots.test_analysis import small_game
from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.bots.luck import (
    RoundDeal,
    expected_points,
    game_luck,
    playout,
    round_deal,
    round_luck,
    side_seats,
)
from tranque.bots.uniform import rules_unit
from tranque.engine import Game, Rules
from tranque.engine.tiles import as_tile

PAIRS = Rules.preset("clasico")  # four in pairs: sides (0, 2) and (1, 3)


def mask(tiles: list[str]) -> int:
    return sum(1 << as_tile(tile).index for tile in tiles)


# Seat 0 holds every double, its partner the heaviest of the rest: the other side has the
# light tiles of every number.
DOUBLES = ["6-6", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"]
HEAVY = ["6-5", "6-4", "5-4", "6-3", "5-3", "6-2", "4-3"]
LIGHT_1 = ["1-0", "2-0", "2-1", "3-0", "3-1", "3-2", "4-0"]
LIGHT_3 = ["4-1", "4-2", "5-0", "5-1", "5-2", "6-0", "6-1"]
STUCK = RoundDeal(PAIRS, (mask(DOUBLES), mask(LIGHT_1), mask(HEAVY), mask(LIGHT_3)), (), 0, True, False)


def test_a_dealt_round_played_again_with_its_actions_ends_as_it_did() -> None:
    for preset in ("clasico", "ponce", "internacional", "futbol"):
        rules = Rules.preset(preset)
        game = play_out(Game(rules, seed=4), [make_bot("greedy", seed) for seed in range(rules.players)])
        for number, played in enumerate(game.rounds):
            again = round_deal(game, number).fresh()
            for at, _seat, action in game.actions:
                if at == number:
                    again.apply(action)
            assert again.result == played.result, (preset, number)


def test_the_same_deal_and_seed_give_the_same_figures_and_another_seed_may_not() -> None:
    game = small_game(seed=3)
    deal = round_deal(game, 0)
    assert expected_points(deal, playouts=3, seed=7) == expected_points(deal, playouts=3, seed=7)
    assert pickle.loads(pickle.dumps(deal)) == deal  # what crosses to the worker


def test_each_side_s_expectation_is_the_mean_of_what_it_scored_in_the_playouts() -> None:
    deal = round_deal(small_game(seed=3), 0)
    results = [playout(deal, seed) for seed in range(3)]
    expected = expected_points(deal, playouts=3, seed=0)
    for team in range(2):
        assert expected[team] == sum(r.points[team] for r in results) / 3
    # In clásico only the side that wins a round scores: every playout adds its points to one.
    assert all(min(r.points) == 0 for r in results)


def test_the_sides_are_the_teams_with_what_they_scored() -> None:
    game = small_game(seed=3, players=4)
    result = game.rounds[0].result
    assert result is not None
    sides = round_luck(round_deal(game, 0), result, playouts=2)
    assert [side["seats"] for side in sides] == side_seats(game.rules) == [[0, 2], [1, 3]]
    assert [side["scored"] for side in sides] == list(result.points)
    assert all(isinstance(side["expected"], float) for side in sides)


def test_a_side_holding_every_double_is_expected_to_lose_the_round() -> None:
    ours, theirs = expected_points(STUCK, playouts=6)
    assert theirs > ours + 5


def test_a_game_s_luck_numbers_its_finished_rounds_from_one_and_says_its_unit() -> None:
    game = small_game(seed=3)
    body = game_luck(game, playouts=1)
    assert body["status"] == "done" and body["unit"] == "points" and body["against"] is False
    assert [r["round"] for r in body["rounds"]] == list(range(1, len(game.rounds) + 1))
    assert rules_unit(Rules.preset("ponce")) == "palitos"
    assert rules_unit(Rules.preset("en-contra")) == "points"
