"""The partnership's convention: what a play says, the expert keeping it, and the reading of
a partner's plays by it, mixed with the heavy-first model by `reading_share`."""

from __future__ import annotations

import math
import random

import pytest

from tests.bots.positions import rounds_with_views
from tranque import Pass, Play, Round, Rules, Tile
from tranque.bots.convention import Reading, said, said_at, signals
from tranque.bots.expert import Budget, ExpertBot
from tranque.bots.knowledge import knowledge_of
from tranque.bots.sampling import ChoiceModel, DealSampler
from tranque.engine.tiles import BIT, PIPS, WITH_NUMBER, indices

HANDS = [
    ["6-6", "6-5", "5-5", "6-4", "5-4", "4-4", "5-3"],
    ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
    ["6-3", "4-3", "3-3", "6-2", "5-2", "4-2", "3-2"],
    ["6-1", "5-1", "4-1", "3-1", "6-0", "5-0", "4-0"],
]


def tiles(*texts: str) -> int:
    return sum(BIT[Tile.parse(text).index] for text in texts)


def index(text: str) -> int:
    return Tile.parse(text).index


def play(rnd: Round, text: str) -> None:
    rnd.apply(next(a for a in rnd.legal_actions() if isinstance(a, Play) and a.tile == Tile.parse(text)))


def opening() -> Round:
    """Seat 0 leads 6-6, seat 1 (no 6) passes, seat 2 (seat 0's partner) plays 6-3, not 6-2."""
    rnd = Round.deal(Rules.preset("sin-pozo"), HANDS, first=True)
    play(rnd, "6-6")
    rnd.apply(Pass())
    play(rnd, "6-3")
    return rnd


def test_a_play_says_the_tiles_kept_that_show_a_number_at_the_new_ends() -> None:
    hand = tiles("5-3", "3-1", "2-2", "6-6", "3-3")
    assert said(hand, index("5-3"), 5, 2) == 3  # ends 3 and 2: 3-1, 2-2, 3-3
    assert said_at(hand, index("5-3"), 5, 2) == 3
    # 3-2 fits both ends: on the 3 the ends are 2 and 2 (2-2), on the 2 they are 3 and 3.
    hand = tiles("3-2", "2-2", "3-3", "3-1")
    assert said_at(hand, index("3-2"), 3, 2) == 1
    assert said_at(hand, index("3-2"), 2, 3) == 2
    assert said(hand, index("3-2"), 3, 2) == 2  # the end that says more
    assert said(tiles("6-6"), index("6-6"), 6, 1) == 0  # nothing left to say


def test_what_each_play_says_counts_the_hand_left_against_the_ends_the_engine_makes() -> None:
    """From the engine's own board after each play, not from the convention's arithmetic."""

    def position() -> Round:
        rnd = opening()
        play(rnd, "3-1")  # seat 3
        return rnd

    view = position().view(0)
    told = signals(view, view.legal_actions)
    assert len(told) == len(view.legal_actions) >= 2
    assert len(set(told)) >= 2
    for action, count in zip(view.legal_actions, told, strict=True):
        after = position()
        after.apply(action)
        ends = after.view(0).ends
        assert ends is not None
        left, right = ends
        kept = sum(1 for tile in after.view(0).hand if {tile.high, tile.low} & {left, right})
        assert count == kept, action


def test_without_a_partner_a_play_says_nothing() -> None:
    rules = Rules.preset("clasico", players=2)
    checked = 0
    for _, view in rounds_with_views(rules, seed=4, rounds=2):
        if view.seat is not None and view.ends is not None and len(view.legal_actions) >= 2:
            assert set(signals(view, view.legal_actions)) == {0}
            checked += 1
    assert checked >= 3


def test_the_expert_keeps_the_convention_where_it_rolls_out() -> None:
    """With the signal worth far more than any score, the expert plays what says the most."""
    rnd = opening()
    play(rnd, "3-1")
    view = rnd.view(0)
    bot = ExpertBot(seed=2, budget=Budget(signal=1000.0, prior=0.0))
    chosen = bot.choose(view)
    told = signals(view, view.legal_actions)
    assert told[view.legal_actions.index(chosen)] == max(told)
    assert min(told) < max(told)


def test_a_deal_where_the_partners_play_said_much_explains_it_better() -> None:
    """Seat 2 played 6-3 on the 6s. A hand where 6-3 kept many 3s and 6s at the ends and the
    other 6 would have said little explains that play better than the reverse."""
    known = knowledge_of(opening().view(0))
    assert [c[0] for c in known.choices] == [2]
    reading = Reading(known, partner=2, strength=0.6, heaviness=0.15)
    talkative = [0, 0, tiles("6-0", "3-3", "3-2", "3-1", "4-3", "2-1"), 0]
    quiet = [0, 0, tiles("6-0", "0-0", "1-0", "2-0", "2-1", "1-1"), 0]

    def odds(kept: int, other: int) -> float:
        mine = math.exp(0.15 * PIPS[index("6-3")] + 0.6 * kept)
        return mine / (mine + math.exp(0.15 * PIPS[index("6-0")] + 0.6 * other))

    assert reading.likelihood(talkative) == pytest.approx(odds(5, 1))
    assert reading.likelihood(quiet) == pytest.approx(odds(1, 4))
    assert reading.likelihood(talkative) > 0.5 > reading.likelihood(quiet)


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_the_partners_plays_weigh_as_the_mixture_of_both_readings(share: float) -> None:
    known = knowledge_of(opening().view(0))
    reading = Reading(known, partner=2, strength=0.6, heaviness=0.15)
    blind = ChoiceModel(known, 0.5, 0.5, 2)
    mixed = ChoiceModel(known, 0.5, 0.5, 2, reading, share)
    assert mixed.informative
    for hand in (tiles("6-0", "3-3", "3-2", "3-1", "4-3", "2-1"), tiles("6-0", "0-0", "1-0", "2-0", "2-1")):
        hands = [0, 0, hand, 0]
        expected = (1 - share) * blind.weight(hands) + share * reading.likelihood(hands)
        assert mixed.weight(hands) == pytest.approx(expected)


def test_R17_the_reading_sees_only_the_partners_public_plays() -> None:
    """What the reading weighs comes from the view: the tile, the ends then and the tiles
    that fitted them, and what the partner played since."""
    known = knowledge_of(opening().view(0))
    (seat, tile, fitting, later, left, right) = known.choices[0]
    assert (seat, tile, fitting, later, left, right) == (
        2,
        index("6-3"),
        WITH_NUMBER[6],
        BIT[index("6-3")],
        6,
        6,
    )


def test_the_reading_weighs_each_play_by_what_every_tile_that_fitted_would_have_said() -> None:
    """The reading's fast path against its definition, over real games and sampled deals:
    a play's probability is exp(0.15 pips + 0.6 said) over the same for the tiles that fitted."""
    rules = Rules.preset("clasico")
    checked = 0
    for _, view in rounds_with_views(rules, seed=6, rounds=2):
        if view.seat is None or view.ends is None:
            continue
        known = knowledge_of(view)
        partner = rules.partner_of(view.seat)
        assert partner is not None
        reading = Reading(known, partner, strength=0.6, heaviness=0.15)
        if not reading:
            continue
        sampler = DealSampler(known, random.Random(checked))
        for _ in range(3):
            hands = sampler.draw()[0]
            expected = 1.0
            for seat, tile, fitting, later, left, right in known.choices:
                if seat != partner:
                    continue
                then = hands[partner] | later

                def weight(p: int, then: int = then, left: int = left, right: int = right) -> float:
                    return math.exp(0.15 * PIPS[p] + 0.6 * said(then, p, left, right))

                expected *= weight(tile) / sum(weight(p) for p in indices(then & fitting))
            assert reading.likelihood(hands) == pytest.approx(expected)
            checked += 1
    assert checked >= 20


@pytest.mark.parametrize(("preset", "players"), [("clasico", 2), ("clasico", 3), ("en-contra", 4)])
def test_without_a_partner_the_expert_plays_as_it_did_before_the_convention(
    preset: str, players: int
) -> None:
    rules = Rules.from_options(preset, players=players)
    before = Budget(signal=0.0, reading_share=0.0)
    checked = 0
    for _, view in rounds_with_views(rules, seed=8, rounds=1):
        if view.seat is None or view.seat != view.turn or len(view.legal_actions) < 2:
            continue
        assert ExpertBot(seed=checked).choose(view) == ExpertBot(seed=checked, budget=before).choose(view)
        checked += 1
    assert checked >= 3
