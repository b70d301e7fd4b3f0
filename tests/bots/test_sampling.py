"""Deals of the hidden tiles: always consistent with the view, close to uniform, and turned
into the referee's fast state exactly."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

import pytest

from tests.bots.positions import rounds_with_views
from tests.bots.test_knowledge import fits_slots
from tests.engine.deals import COMBOS, rules_of
from tranque import Rules, Tile
from tranque.bots import sampling
from tranque.bots.knowledge import TILE_NUMBERS, Knowledge, knowledge_of
from tranque.bots.sampling import REJECTION_TRIES, DealSampler, state_from_view
from tranque.engine.scoring import score_round
from tranque.engine.tiles import BIT, indices


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_R17_every_sampled_deal_fits_the_view(name: str, players: int, mode: str) -> None:
    rules = rules_of(name, players, mode)
    rng = random.Random(5)
    for _, view in rounds_with_views(rules, seed=3):
        known = knowledge_of(view)
        sampler = DealSampler(known, rng)
        for _ in range(3):
            hands, rest = sampler.draw()
            assert hands[known.seat] == known.own
            every = known.own | known.played
            for seat, hand in enumerate(hands):
                assert hand.bit_count() == view.hand_counts[seat]
                if seat != known.seat:
                    assert fits_slots(indices(hand), known.slots[seat])
                    assert not every & hand
                    every |= hand
            for tile in rest:
                assert not every & BIT[tile]
                every |= BIT[tile]
            assert every == rules.set_mask
            assert len(rest) == known.hidden_count


def small_knowledge() -> Knowledge:
    """Six hidden tiles, two per other seat: seat 1 has no 6, and of seat 3's tiles the one
    it held when it passed shows neither 1, 2 nor 3."""
    unseen = 0
    for text in ("6-5", "6-4", "5-4", "3-2", "3-1", "2-1"):
        unseen |= BIT[Tile.parse(text).index]
    one_two_three = (1 << 1) | (1 << 2) | (1 << 3)
    return Knowledge(
        seat=0,
        players=4,
        own=BIT[Tile(0, 0).index],
        played=Rules.preset("sin-pozo").set_mask & ~unseen & ~BIT[Tile(0, 0).index],
        unseen=unseen,
        hand_counts=(1, 2, 2, 2),
        boneyard_count=0,
        slots=((), (1 << 6, 1 << 6), (0, 0), (one_two_three, 0)),
        ends=(0, 0),
    )


@pytest.mark.parametrize("tries", [0, REJECTION_TRIES], ids=["chain", "rejection"])
def test_deals_come_in_proportion_to_the_histories_that_explain_them(
    tries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every assignment of the hidden tiles to slots is equally likely (a uniform shuffle
    makes every history of deals and draws so): a hand that fits seat 3's slots two ways
    comes up twice as often as one that fits one way."""
    monkeypatch.setattr(sampling, "REJECTION_TRIES", tries)
    known = small_knowledge()
    sampler = DealSampler(known, random.Random(2))
    draws = 8000
    counts = Counter(tuple(sampler.draw()[0]) for _ in range(draws))
    ways = ways_to_fit(known)
    assert len(ways) == 33 and sorted(set(ways.values())) == [4, 8]
    total = sum(ways.values())
    assert set(counts) == set(ways)
    for deal, count in counts.items():
        expected = draws * ways[deal] / total
        assert 0.8 * expected < count < 1.2 * expected, (deal, count, expected)


def ways_to_fit(known: Knowledge) -> Counter[tuple[int, ...]]:
    """By brute force: for each deal (hands as sets), how many orders of the hidden tiles
    over the slots, in the sampler's order, give it with every tile fitting its slot."""
    masks = [mask for seat_slots in known.slots for mask in seat_slots]
    seats = [seat for seat, seat_slots in enumerate(known.slots) for _ in seat_slots]
    ways: Counter[tuple[int, ...]] = Counter()
    for order in permutations(indices(known.unseen)):
        if all(not TILE_NUMBERS[t] & m for t, m in zip(order, masks, strict=True)):
            hands = [known.own, 0, 0, 0]
            for seat, tile in zip(seats, order, strict=True):
                hands[seat] |= BIT[tile]
            ways[tuple(hands)] += 1
    return ways


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_the_state_of_the_real_deal_is_the_referees(name: str, players: int, mode: str) -> None:
    """Given the true hidden tiles, `state_from_view` rebuilds the round: same moves, and
    played out the same way, the same result."""
    rules = rules_of(name, players, mode)
    for number, (rnd, view) in enumerate(rounds_with_views(rules, seed=8)):
        if number % 3:
            continue
        real = rnd.fast_state()
        hands = list(real.hands)
        rest = list(real.boneyard[real.drawn :])
        state = state_from_view(view, hands, rest)
        assert (state.left, state.right, state.turn) == (real.left, real.right, real.turn)
        assert state.legal_moves() == real.legal_moves()
        while not real.outcome:
            move = real.legal_moves()[-1]
            assert state.legal_moves() == real.legal_moves()
            real.push(move)
            state.push(move)
        assert state.outcome == real.outcome
        assert score_round(rules, state) == score_round(rules, real)
