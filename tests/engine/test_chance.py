"""Randomness for simulations: `SplitFloat`'s choices, `random_deal` and `RoundState.playout`.

These feed the bots' rollouts and the benchmarks, never a real table (tables deal with
`deal_from_seed`). The uniformity checks are seeded, so they give the same verdict on every
run; their bounds are several standard deviations wide.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.engine.deals import COMBOS, rules_of
from tranque.engine.bitboard import DOMINO, ONGOING, TRANQUE, RoundState
from tranque.engine.chance import SplitFloat
from tranque.engine.deal import first_lead, random_deal
from tranque.engine.round import state_for
from tranque.engine.scoring import score_round
from tranque.engine.tiles import BIT, indices


class CountingRandom:
    """`random.Random(seed).random`, counting its calls."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.calls = 0

    def __call__(self) -> float:
        self.calls += 1
        return self.rng.random()


def test_below_stays_in_range_for_every_size() -> None:
    chance = SplitFloat(random.Random(1).random)
    for count in list(range(1, 60)) * 200:
        assert 0 <= chance.below(count) < count


def test_below_is_uniform_over_its_range() -> None:
    chance = SplitFloat(random.Random(2).random)
    for count in (2, 3, 7, 13, 28):
        draws = 1_000 * count
        seen = Counter(chance.below(count) for _ in range(draws))
        assert set(seen) == set(range(count))
        # Each value is about 1,000 times, with a standard deviation near 32.
        assert all(820 <= n <= 1_180 for n in seen.values()), seen


def test_below_is_uniform_over_pairs_of_consecutive_choices() -> None:
    """Choices drawn from one float must not depend on each other."""
    chance = SplitFloat(random.Random(3).random)
    pairs = Counter((chance.below(6), chance.below(6)) for _ in range(36_000))
    assert len(pairs) == 36
    assert all(820 <= n <= 1_180 for n in pairs.values()), pairs


def test_one_float_feeds_several_choices() -> None:
    source = CountingRandom(4)
    chance = SplitFloat(source)
    for _ in range(1_000):
        chance.below(7)
    # 7**11 < 2**32 < 7**12: eleven choices among 7 per float.
    assert source.calls == 91


def test_the_same_floats_give_the_same_choices() -> None:
    first = SplitFloat(random.Random(5).random)
    second = SplitFloat(random.Random(5).random)
    assert [first.below(n) for n in range(1, 200)] == [second.below(n) for n in range(1, 200)]


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_random_deal_deals_the_whole_set_by_the_rules(name: str, players: int, mode: str) -> None:
    rules = rules_of(name, players, mode)
    rng = random.Random(6)
    for _ in range(200):
        hands, boneyard = random_deal(rules, rng.random)
        assert len(hands) == rules.players
        assert [len(indices(hand)) for hand in hands] == [rules.hand_size] * rules.players
        assert len(boneyard) == rules.boneyard_size == len(set(boneyard))
        every = 0
        for hand in hands:
            assert not every & hand
            every |= hand
        for tile in boneyard:
            assert not every & BIT[tile]
            every |= BIT[tile]
        assert every == rules.set_mask


def test_random_deal_gives_each_tile_to_each_seat_alike() -> None:
    rules = rules_of("clasico", 4, "pairs")
    rng = random.Random(7)
    holder: Counter[tuple[int, int]] = Counter()
    deals = 8_000
    for _ in range(deals):
        hands, _ = random_deal(rules, rng.random)
        for seat, hand in enumerate(hands):
            for tile in indices(hand):
                holder[tile, seat] += 1
    # 2,000 expected per (tile, seat), standard deviation near 39.
    assert len(holder) == 28 * 4
    assert all(1_800 <= n <= 2_200 for n in holder.values())


def test_random_deal_orders_the_boneyard_uniformly() -> None:
    rules = rules_of("clasico", 2, "individual")
    rng = random.Random(8)
    first_drawn = Counter(random_deal(rules, rng.random)[1][0] for _ in range(14_000))
    # Any of the 28 tiles may be the first drawn: each about 500 times (deviation near 22).
    assert len(first_drawn) == 28
    assert all(400 <= n <= 600 for n in first_drawn.values()), first_drawn


def dealt(name: str, players: int, mode: str, seed: int) -> RoundState:
    rules = rules_of(name, players, mode)
    hands, boneyard = random_deal(rules, random.Random(seed).random)
    starter, lead = first_lead(hands)
    return state_for(rules, hands, boneyard, starter, forced_lead=lead)


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_playout_plays_legal_moves_chosen_by_below(name: str, players: int, mode: str) -> None:
    """`playout` is the loop its docstring gives: `legal_moves()[chance.below(n)]`, no draw
    for a single legal move, so the same floats end the round in the same state."""
    for seed in range(20):
        fast = dealt(name, players, mode, seed)
        slow = fast.copy()
        fast.playout(random.Random(seed).random)
        chance = SplitFloat(random.Random(seed).random)
        while slow.outcome == ONGOING:
            moves = slow.legal_moves()
            slow.push(moves[chance.below(len(moves)) if len(moves) > 1 else 0])
        assert fast.outcome == slow.outcome != ONGOING
        for field in ("hands", "left", "right", "turn", "closer", "capicua", "drawn", "team_points"):
            assert getattr(fast, field) == getattr(slow, field), field
        rules = rules_of(name, players, mode)
        assert score_round(rules, fast) == score_round(rules, slow)


def test_playout_ends_rounds_both_ways() -> None:
    ends: Counter[int] = Counter()
    for seed in range(300):
        state = dealt("clasico", 4, "pairs", seed)
        state.playout(random.Random(seed).random)
        ends[state.outcome] += 1
    assert set(ends) == {DOMINO, TRANQUE}
