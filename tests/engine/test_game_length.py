"""How long a game lasts beyond its target: a set number of hands (G1, duplicado) and the
time cap (G2–G5 of docs/rules.md), with their records."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.deals import COMBOS, assert_same_game, finish_round, play_randomly, rules_of
from tranque import Game, Rules
from tranque.engine.game import GameEnd
from tranque.engine.record import RecordError, replay, to_record
from tranque.engine.rules import RulesError


def played(rules: Rules, seed: int, steps: int | None = None) -> Game:
    return play_randomly(Game(rules, seed=seed), random.Random(seed), steps)


def leaders(game: Game) -> list[int]:
    best = min(game.scores) if game.scorer.points_against else max(game.scores)
    return [team for team, total in enumerate(game.scores) if total == best]


# G1: a game of a set number of hands --------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_G1_a_game_of_n_hands_is_over_after_its_last_hand(name: str, players: int, mode: str) -> None:
    rules = rules_of(name, players, mode).replace(hands=3)
    game = played(rules, seed=players)
    assert game.is_over
    assert len(game.results) == 3 and len(game.rounds) == 3
    assert game.winners == leaders(game)
    assert game.ended_by is GameEnd.HANDS


def test_G1_the_target_never_ends_a_game_of_n_hands() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual", target=1, hands=4)
    game = played(rules, seed=3)
    assert len(game.results) == 4
    assert max(game.scores) >= 1  # the target was passed long before the last hand


def test_G1_ponce_passes_score_but_never_end_a_game_of_n_hands() -> None:
    rules = Rules.preset("ponce", target=1, hands=2)
    game = played(rules, seed=8)
    assert len(game.results) == 2 and game.ended_by is GameEnd.HANDS


def test_G1_equal_best_totals_share_the_win() -> None:
    rules = Rules.preset("sin-pozo", players=2, mode="individual", hands=1)  # tranques are common
    for seed in range(300):
        game = played(rules, seed=seed)
        if game.results[0].tie:  # a tied tranque scores nothing: 0 to 0
            assert game.winners == [0, 1]
            return
    pytest.fail("no tied tranque in 300 seeded games")


def test_G1_penalty_scoring_the_fewest_points_win() -> None:
    rules = Rules.preset("en-contra", players=3, hands=2)
    game = played(rules, seed=4)
    assert game.winners == [team for team, total in enumerate(game.scores) if total == min(game.scores)]


def test_G1_hands_is_written_only_when_set_so_old_records_read_the_same() -> None:
    assert "hands" not in Rules.preset("clasico").to_json()
    rules = Rules.preset("clasico", hands=4)
    assert rules.to_json()["hands"] == 4
    assert Rules.from_json(rules.to_json()) == rules
    old = Rules.preset("clasico").to_json()
    assert Rules.from_json(old).hands is None


@pytest.mark.parametrize("hands", [0, -2])
def test_G1_hands_must_be_positive(hands: int) -> None:
    with pytest.raises(RulesError) as raised:
        Rules.preset("clasico", hands=hands)
    assert raised.value.code == "hands_not_positive" and raised.value.parameter == "hands"


def test_G1_a_record_of_n_hands_replays() -> None:
    game = played(Rules.preset("latino", hands=3), seed=5)
    again = replay(to_record(game))
    assert_same_game(game, again)
    assert again.ended_by is GameEnd.HANDS


# G2–G4: the time cap ------------------------------------------------------------------------


def _called_mid_round(rules: Rules, seed: int, steps: int) -> tuple[Game, int]:
    """A game with time called after `steps` random steps, while a hand is in play."""
    game = played(rules, seed=seed, steps=steps)
    while game.round.is_over and not game.is_over:
        game.start_next_round()
    called = game.round_number
    game.call_time()
    return game, called


def test_G2_the_hand_in_play_is_finished() -> None:
    rules = Rules.preset("clasico")
    game, called = _called_mid_round(rules, seed=1, steps=3)
    assert not game.is_over and game.time_called == called
    assert game.legal_actions()  # play goes on
    finish_round(game, random.Random(1))
    assert game.round.is_over


def test_G3_at_the_end_of_that_hand_the_side_ahead_wins() -> None:
    for seed in range(30):
        game, called = _called_mid_round(Rules.preset("clasico"), seed=seed, steps=5)
        finish_round(game, random.Random(seed))
        if len(leaders(game)) == 1:
            assert game.is_over and game.winners == leaders(game)
            assert game.ended_by is GameEnd.TIME or max(game.scores) >= 100
            assert game.round_number == called
            return
    pytest.fail("no hand ended with a side ahead")


def test_G3_called_between_hands_a_side_ahead_wins_at_once() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    for seed in range(30):
        game = Game(rules, seed=seed)
        finish_round(game, random.Random(seed))
        if not game.is_over and len(leaders(game)) == 1:
            game.call_time()
            assert game.is_over and game.winners == leaders(game) and game.ended_by is GameEnd.TIME
            assert game.time_called == 0
            return
    pytest.fail("no first hand left a side ahead")


def test_G4_level_at_the_end_of_the_hand_one_more_hand_is_played() -> None:
    rules = Rules.preset("sin-pozo", players=2, mode="individual")
    for seed in range(300):
        game = Game(rules, seed=seed)
        finish_round(game, random.Random(seed))
        if game.results[0].tie:  # 0 to 0 after the first hand
            game.call_time()
            assert not game.is_over
            game.start_next_round()
            rng = random.Random(seed)
            while not game.is_over:
                finish_round(game, rng)
                if not game.is_over:
                    assert len(leaders(game)) > 1  # only a shared lead plays on
                    game.start_next_round()
            assert len(game.winners) == 1 and game.winners == leaders(game)
            return
    pytest.fail("no tied first hand in 300 seeded games")


def test_G2_a_target_reached_in_the_last_hand_ends_the_game_as_always() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual", target=1)
    game, _ = _called_mid_round(rules, seed=2, steps=2)
    finish_round(game, random.Random(2))
    if game.results[-1].tie:
        pytest.skip("a tied hand")
    assert game.is_over and game.ended_by is GameEnd.TARGET


def test_G2_calling_time_twice_or_after_the_end_changes_nothing() -> None:
    game, called = _called_mid_round(Rules.preset("clasico"), seed=4, steps=4)
    game.call_time()
    assert game.time_called == called
    over = played(Rules.preset("clasico", players=2, mode="individual"), seed=4)
    winners = list(over.winners)
    over.call_time()
    assert over.time_called is None and over.winners == winners


@settings(max_examples=60, deadline=None)
@given(
    combo=st.sampled_from([tuple(combo.values) for combo in COMBOS]),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 400),
    hands=st.one_of(st.none(), st.integers(1, 4)),
)
def test_G3_G4_with_time_called_every_game_ends_with_one_side_ahead_or_at_its_limits(
    combo: tuple[str, int, str], seed: int, steps: int, hands: int | None
) -> None:
    name, players, mode = combo
    rules = rules_of(name, players, mode).replace(hands=hands)
    game = played(rules, seed=seed, steps=steps)
    game.call_time()
    play_randomly(game, random.Random(seed + 1))
    assert game.is_over
    if game.ended_by is GameEnd.TIME:
        assert game.winners == leaders(game) and len(game.winners) == 1
        assert game.time_called is not None and game.round_number >= game.time_called
    if hands is not None:
        assert len(game.results) <= hands
    again = replay(to_record(game))  # G5
    assert_same_game(game, again)
    assert again.ended_by is game.ended_by


# G5: the record keeps when time was called ------------------------------------------------


def test_G5_a_record_says_in_which_round_time_was_called_and_replays_it() -> None:
    game, called = _called_mid_round(Rules.preset("clasico"), seed=6, steps=30)
    play_randomly(game, random.Random(6))
    record = to_record(game)
    assert record["time_called"] == called
    again = replay(record)
    assert again.time_called == called and again.winners == game.winners


def test_G5_a_record_without_time_called_has_no_such_key() -> None:
    game = played(Rules.preset("clasico"), seed=7)
    assert "time_called" not in to_record(game)


def test_G5_dropping_time_called_from_a_time_decided_record_does_not_replay() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    for seed in range(40):
        game = Game(rules, seed=seed)
        finish_round(game, random.Random(seed))
        if not game.is_over and len(leaders(game)) == 1:
            game.call_time()
            record: dict[str, Any] = to_record(game)
            del record["time_called"]
            with pytest.raises(RecordError) as raised:
                replay(record)
            assert raised.value.code == "record_total_differs"
            return
    pytest.fail("no first hand left a side ahead")


@pytest.mark.parametrize("called", [99, -1, "0", True])
def test_G5_a_time_called_outside_the_record_is_refused(called: object) -> None:
    game = played(Rules.preset("clasico"), seed=7)
    record = to_record(game) | {"time_called": called}
    with pytest.raises(RecordError) as raised:
        replay(record)
    assert raised.value.code == "record_bad_time_called"
