"""The bots' lean scoring agrees with the engine's on every preset, and a seat's worth of a
result counts the game's score and target."""

from __future__ import annotations

import random

import pytest

from tests.bots.positions import COMBOS, rules_of
from tranque import Rules
from tranque.bots.values import Valuer, hand_pips, round_points
from tranque.engine.deal import deal_from_seed
from tranque.engine.scoring import score_round
from tranque.engine.state import MOVE_COUNT, RoundState
from tranque.engine.tiles import mask_pips


def finished_states(rules: Rules, count: int, seed: int) -> list[RoundState]:
    """Rounds played to the end with random moves, from seeded deals."""
    rng = random.Random(seed)
    states = []
    for number in range(count):
        hands, rest = deal_from_seed(rules, b"values:%d" % number)
        state = RoundState(
            rules.players,
            hands,
            rest,
            number % rules.players,
            drawing=rules.drawing.value == "until-playable",
            pass_points=rules.pass_points,
            pass_bonus_pending=number % 2 == 0,
        )
        while not state.outcome:
            moves = state.legal_moves()
            plays = [m for m in moves if m < MOVE_COUNT]
            # Mostly heavy-first, sometimes random: tranques and dominós both come up.
            state.push(rng.choice(plays) if plays and rng.random() < 0.5 else moves[-1])
        states.append(state)
    return states


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_round_points_equal_score_round(name: str, players: int, mode: str) -> None:
    for capicua in (0, 15):
        try:
            rules = rules_of(name, players, mode).replace(capicua_bonus=capicua)
        except ValueError:
            continue  # V9: no capicúa bonus with this scoring
        for state in finished_states(rules, 60, seed=players):
            result = score_round(rules, state)
            points, goals = round_points(rules, state)
            assert points == [result.points[side] for side in range(rules.side_count)]
            assert goals == [result.goals.get(side, 0) for side in range(rules.side_count)]


def test_hand_pips_counts_every_tile_of_double_nine() -> None:
    every = (1 << 55) - 1
    assert hand_pips(every) == mask_pips(every) == 495
    assert hand_pips(1 << 54) == 18 and hand_pips(0) == 0


def test_R12_worth_in_pairs_is_the_difference_of_the_teams_points() -> None:
    rules = Rules.preset("clasico")
    value = Valuer(rules, seat=1, scores=(0, 0), goals=(0, 0))
    assert value.worth([30, 0], [0, 0]) == -30
    assert value.worth([0, 12], [0, 0]) == 12


def test_R14_a_result_that_wins_the_game_is_worth_the_target_more() -> None:
    rules = Rules.preset("clasico")
    value = Valuer(rules, seat=0, scores=(90, 95), goals=(0, 0))
    assert value.worth([12, 0], [0, 0]) == 12 + 100  # we reach 102 first
    assert value.worth([0, 5], [0, 0]) == -5 - 100  # they reach 100
    assert value.worth([8, 0], [0, 0]) == 8  # 98: not yet


def test_V8_penalty_worth_is_what_the_others_take_minus_what_we_take() -> None:
    rules = Rules.preset("en-contra", players=3)
    value = Valuer(rules, seat=2, scores=(10, 20, 30), goals=(0, 0, 0))
    assert value.worth([9, 3, 0], [0, 0, 0]) == (9 + 3) / 2
    # Seat 0 reaches 100: the game ends and the lowest total (seat 1, 20 + 0) wins.
    assert value.worth([90, 0, 5], [0, 0, 0]) == (90 + 0) / 2 - 5 - 100


def test_V7_a_goal_is_worth_a_tenth_of_the_target() -> None:
    rules = Rules.preset("futbol")
    value = Valuer(rules, seat=0, scores=(0, 0), goals=(0, 9))
    assert value.worth([0, 0], [1, 0]) == 10
    assert value.worth([0, 0], [0, 1]) == -10 - 100  # their tenth goal wins the game
