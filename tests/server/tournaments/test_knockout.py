"""The minitorneo's bracket: seeds placed so the best meet last, a final and a third-place game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tranque.server.tournaments.knockout import SIZES, bracket, is_final, next_round, podium, rounds_of


def test_round_one_pairs_1_v_n_and_2_v_n_minus_1() -> None:
    assert bracket([1, 2, 3, 4]) == [(1, 4), (2, 3)]
    assert bracket(list(range(1, 9))) == [(1, 8), (4, 5), (2, 7), (3, 6)]


def test_a_bracket_of_another_size_is_refused() -> None:
    with pytest.raises(ValueError):
        bracket([1, 2, 3, 4, 5, 6])


@given(size=st.sampled_from(SIZES), seed=st.integers(0, 10_000))
def test_the_two_best_seeds_meet_only_in_the_final(size: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [100 + i for i in range(size)]
    games = bracket(entrants)
    met: dict[frozenset[int], int] = {}
    number = 1
    while True:
        for game in games[:1] if len(games) == 2 and number == rounds_of(size) else games:
            met[frozenset(game)] = number
        # the top two seeds always win: they must reach the final; others win at random
        winners = {g: (min(g) if min(g) in entrants[:2] else rng.choice(g)) for g in games}
        if number == rounds_of(size):
            final, third = games
            assert set(final) == {100, 101}
            top = podium(final, winners[final], third, winners[third])
            assert top[:2] == [100, 101] and top[2] in third
            break
        games = next_round(games, winners)
        number += 1
        if number < rounds_of(size):
            assert frozenset((100, 101)) not in {frozenset(g) for g in games}
    assert met[frozenset((100, 101))] == rounds_of(size)


def test_the_last_round_is_the_final_and_the_semi_finals_losers_for_third() -> None:
    semis = [(1, 4), (2, 3)]
    assert next_round(semis, {(1, 4): 4, (2, 3): 2}) == [(4, 2), (1, 3)]


def test_a_winner_who_did_not_play_is_refused() -> None:
    with pytest.raises(ValueError):
        next_round([(1, 4), (2, 3)], {(1, 4): 2, (2, 3): 2})


def test_rounds_and_the_final() -> None:
    assert [rounds_of(size) for size in SIZES] == [2, 3, 4]
    assert is_final(1) and not is_final(2)


def test_podium_orders_winner_runner_up_and_third() -> None:
    assert podium((5, 7), 7, (1, 2), 1) == [7, 5, 1]
