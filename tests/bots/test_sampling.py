"""Deals of the hidden tiles: always consistent with the view, close to uniform, and turned
into the referee's fast state exactly."""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter, defaultdict
from itertools import permutations

import pytest

from tests.bots.positions import rounds_with_views
from tests.bots.test_knowledge import fits_slots
from tests.engine.deals import COMBOS, rules_of
from tranque import Rules, Tile
from tranque.bots import sampling
from tranque.bots.knowledge import TILE_NUMBERS, Choice, Knowledge, knowledge_of
from tranque.bots.sampling import (
    REJECTION_TRIES,
    ChoiceModel,
    DealSampler,
    heavy_first_assumptions,
    state_from_view,
)
from tranque.engine.scoring import score_round
from tranque.engine.tiles import BIT, PIPS, WITH_NUMBER, indices


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


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_R17_heavy_first_assumes_nothing_false_of_heaviest_first_players(
    name: str, players: int, mode: str
) -> None:
    """Against players who do play their heaviest fitting tile (the greedy bots of these
    rounds), the assumption is true: no tile it rules out is really held, so the real deal
    keeps every assumption, and a sampler that lets none be broken keeps to them all."""
    rules = rules_of(name, players, mode)
    rng = random.Random(6)
    assumed_any = False
    for rnd, view in rounds_with_views(rules, seed=4):
        known = knowledge_of(view)
        others = [s for s in range(players) if s != known.seat]
        assumed = heavy_first_assumptions(known, others)
        held = [sum(BIT[t.index] for t in hand) for hand in rnd.hands]
        for seat in others:
            assert not any(mask & held[seat] for mask in assumed[seat]), (seat, assumed[seat])
        assumed_any = assumed_any or any(assumed)
        sampler = DealSampler(known, rng, assumed, slack=0.0)
        for _ in range(2):
            hands, _rest = sampler.draw()
            for seat in others:
                assert not any(mask & hands[seat] for mask in assumed[seat])
    assert assumed_any


def chosen_knowledge() -> Knowledge:
    """`small_knowledge` with three free plays on ends 5 and 3: seat 1 played 5-4 while it
    held 6-5 (played later), then 4-0; seat 3 played 3-1."""
    fitting = WITH_NUMBER[5] | WITH_NUMBER[3]
    return dataclasses.replace(
        small_knowledge(),
        choices=(
            Choice(1, Tile(5, 4).index, fitting, BIT[Tile(5, 4).index] | BIT[Tile(6, 5).index], 5, 3),
            Choice(3, Tile(3, 1).index, fitting, BIT[Tile(3, 1).index], 5, 3),
            Choice(1, Tile(4, 0).index, fitting, BIT[Tile(4, 0).index], 5, 3),
        ),
    )


def test_a_play_shown_not_to_be_the_heaviest_assumes_nothing() -> None:
    """Seat 1 played 5-4 on a 5 while it held 6-5, which it played later: that play says
    nothing; its play of 4-0, and seat 3's play of 3-1, rule out the heavier unseen
    tiles that fitted then."""
    known = chosen_knowledge()
    assumed = heavy_first_assumptions(known, [1, 3])
    assert assumed[1] == [tiles("6-5", "5-4", "3-2")]
    assert assumed[3] == [tiles("6-5", "5-4", "3-2")]
    assert heavy_first_assumptions(known, [3])[1] == []


def tiles(*texts: str) -> int:
    return sum(BIT[Tile.parse(text).index] for text in texts)


@pytest.mark.parametrize("slack", [0.0, 0.3])
def test_deals_weigh_slack_for_every_assumption_they_break(slack: float) -> None:
    """Seat 1 is assumed to hold neither 5-4 nor 3-2 (one play), seat 3 not 6-5 (another).
    Each deal comes up in proportion to the ways it fits times `slack` to the power of the
    assumptions it breaks: with slack 0 only the deals that keep both."""
    known = small_knowledge()
    assumed = [[], [tiles("5-4", "3-2")], [], [tiles("6-5")]]
    sampler = DealSampler(known, random.Random(3), assumed, slack)
    draws = 12000
    counts = Counter(tuple(sampler.draw()[0]) for _ in range(draws))
    expected = Counter(
        {
            deal: ways
            * slack ** sum(any(mask & deal[seat] for mask in masks) for seat, masks in enumerate(assumed))
            for deal, ways in ways_to_fit(known).items()
        }
    )
    total = sum(expected.values())
    assert {deal for deal, weight in expected.items() if weight} == set(counts)
    for deal, count in counts.items():
        share = draws * expected[deal] / total
        assert 0.8 * share < count < 1.2 * share, (deal, count, share)


def test_an_assumption_no_deal_keeps_still_gives_deals_that_fit() -> None:
    """Seat 1 (no 6, two tiles) cannot lack 5-4, 3-2 and 3-1 too: only 2-1 would be left for
    its two slots. Every deal still fits the passes, each breaking the assumption."""
    known = small_knowledge()
    assumed = [[], [tiles("5-4", "3-2", "3-1")], [], []]
    sampler = DealSampler(known, random.Random(1), assumed, 0.0)
    for _ in range(50):
        hands, _rest = sampler.draw()
        assert hands[1] & assumed[1][0]
        assert tuple(hands) in ways_to_fit(known)


def plays_likelihood(known: Knowledge, seat: int, hand: int, heaviness: float) -> float:
    """By definition: the probability of `seat`'s plays had it held `hand`, each tile chosen
    among those that fitted with probability proportional to exp(`heaviness` * pips)."""
    result = 1.0
    for choice in known.choices:
        if choice.seat == seat:
            playable = indices((hand | choice.later) & choice.fitting)
            total = sum(math.exp(heaviness * PIPS[t]) for t in playable)
            result *= math.exp(heaviness * PIPS[choice.tile]) / total
    return result


@pytest.mark.parametrize("share", [0.0, 0.4, 1.0])
def test_each_opponent_is_read_as_heavy_first_or_not_by_its_own_plays(share: float) -> None:
    """A deal weighs, per opponent, the mixture of its plays' likelihood as a heavy-first
    player and as one who prefers heavy tiles only mildly: one opponent's plays do not
    decide what the other is taken for."""
    known = chosen_knowledge()
    model = ChoiceModel(known, 0.5, 0.5, partner=2, heavy_first=3.0, heavy_first_share=share)
    for deal in ways_to_fit(known):
        expected = math.prod(
            (1 - share) * plays_likelihood(known, seat, deal[seat], 0.5)
            + share * plays_likelihood(known, seat, deal[seat], 3.0)
            for seat in (1, 3)
        )
        assert model.weight(list(deal)) == pytest.approx(expected)


def test_deals_drawn_as_if_the_opponents_played_heavy_first_are_weighed_back() -> None:
    """The sampler draws deals that keep the heavy-first assumptions more often (`slack`); the
    weights undo that, so the weighted deals come in proportion to the ways they fit times
    the mixture's likelihood, as if they had been drawn uniformly."""
    known = chosen_knowledge()
    assumed = heavy_first_assumptions(known, [1, 3])
    drawn = ChoiceModel(
        known, 0.5, 0.5, 2, heavy_first=3.0, heavy_first_share=0.5, proposal=assumed, slack=0.3
    )
    plain = ChoiceModel(known, 0.5, 0.5, 2, heavy_first=3.0, heavy_first_share=0.5)
    sampler = DealSampler(known, random.Random(4), assumed, 0.3)
    weighed: defaultdict[tuple[int, ...], float] = defaultdict(float)
    for _ in range(12000):
        hands = sampler.draw()[0]
        weighed[tuple(hands)] += drawn.weight(hands)
    expected = {deal: ways * plain.weight(list(deal)) for deal, ways in ways_to_fit(known).items()}
    weighed_total = sum(weighed.values())
    expected_total = sum(expected.values())
    checked = 0
    for deal, weight in expected.items():
        share = weight / expected_total
        if share > 0.02:
            assert 0.8 * share < weighed[deal] / weighed_total < 1.2 * share, (deal, share)
            checked += 1
    assert checked >= 5
