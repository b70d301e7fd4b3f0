"""A seat's worth of a round's result counts the game's score and target."""

from __future__ import annotations

from tranque import Rules
from tranque.bots.values import Valuer
from tranque.engine.bitboard import RoundState
from tranque.engine.deal import deal_from_seed
from tranque.engine.scoring import score_round


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


def test_R12_winning_the_round_is_worth_the_bonus_on_top_of_its_points() -> None:
    rules = Rules.preset("clasico")
    seen = set()
    for number in range(40):
        hands, rest = deal_from_seed(rules, b"bonus:%d" % number)
        state = RoundState(rules.players, hands, rest, number % rules.players, drawing=False)
        while not state.outcome:
            state.push(state.legal_moves()[number % len(state.legal_moves())])
        result = score_round(rules, state)
        for seat in range(rules.players):
            plain = Valuer(rules, seat, scores=(0, 0), goals=(0, 0))
            keen = Valuer(rules, seat, scores=(0, 0), goals=(0, 0), round_bonus=15)
            expected = 0 if result.winner is None else 15 if result.winner == rules.team_of(seat) else -15
            assert keen(state) - plain(state) == expected
            seen.add(expected)
    assert seen >= {15, -15}  # both a won and a lost round came up


def test_V6_C6_ponce_game_is_won_by_the_first_team_to_the_target() -> None:
    rules = Rules.preset("ponce")
    value = Valuer(rules, seat=0, scores=(18, 15), goals=(0, 0))
    # No passes, team 0 blocks: its 2 reach 20 before team 1's 9 palitos of pips.
    assert value.game_end([2, 9], [0, 0], (0, 0, 0)) == (1.0, 0.0)
    # The same points after a dominó by team 1, with 2 palitos of passes to team 0 first.
    assert value.game_end([2, 9], [0, 0], (2, 0, -1)) == (1.0, 0.0)
    # Without the passes' head start, team 1's pips come first.
    assert value.game_end([2, 9], [0, 0], (0, 0, -1)) == (0.0, 1.0)


def test_C6_ponce_pass_points_already_in_the_score_count_once() -> None:
    rules = Rules.preset("ponce")
    # Team 0 is at 19 with this round's pass already in; a round worth only that pass
    # leaves it at 19.
    value = Valuer(rules, seat=0, scores=(19, 0), goals=(0, 0), round_pass_points=(1, 0))
    assert value.game_end([1, 0], [0, 0], (1, 0, -1)) is None
    assert value.game_end([1, 2], [0, 0], (1, 0, 1)) is None
    assert value.game_end([3, 0], [0, 0], (1, 0, 0)) == (1.0, 0.0)
