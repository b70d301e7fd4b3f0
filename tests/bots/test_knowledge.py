"""What a view implies about the hidden tiles: never more than is true, and the passes and
draws it must read (R8, R9, R17)."""

from __future__ import annotations

import pytest

from tests.bots.positions import rounds_with_views
from tests.engine.deals import COMBOS, complete_deal, rules_of, run
from tranque import Round, Rules
from tranque.bots.knowledge import TILE_NUMBERS, knowledge_of, numbers
from tranque.engine.tiles import BIT, Mask


def mask_of(tiles: list) -> Mask:  # type: ignore[type-arg]
    mask = 0
    for tile in tiles:
        mask |= BIT[tile.index]
    return mask


def fits_slots(tiles: list[int], slots: tuple[int, ...]) -> bool:
    """Can each tile go to its own slot, showing none of that slot's missing numbers? Slots
    are nested (older ones lack more), so filling the most demanding slot first is exact."""
    free = list(tiles)
    for mask in sorted(slots, key=lambda m: -m.bit_count()):
        choice = next((t for t in free if not TILE_NUMBERS[t] & mask), None)
        if choice is None:
            return False
        free.remove(choice)
    return not free


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_R17_knowledge_is_true_of_the_real_deal(name: str, players: int, mode: str) -> None:
    """At every turn of real rounds, what the seat infers holds for the hands it cannot see."""
    rules = rules_of(name, players, mode)
    checked = 0
    for rnd, view in rounds_with_views(rules, seed=11):
        known = knowledge_of(view)
        hidden = 0
        for seat, hand in enumerate(rnd.hands):
            if seat == view.seat:
                assert known.own == mask_of(hand)
                continue
            hidden |= mask_of(hand)
            assert len(known.slots[seat]) == len(hand)
            assert fits_slots([t.index for t in hand], known.slots[seat])
            assert not known.lacking[seat] & any_numbers(hand)
        assert known.unseen == hidden | mask_of(rnd.boneyard) | out_of_play(rnd)
        assert known.played == mask_of(rnd.line)
        checked += 1
    assert checked > 20


def any_numbers(hand: list) -> int:  # type: ignore[type-arg]
    shown = 0
    for tile in hand:
        shown |= TILE_NUMBERS[tile.index]
    return shown


def out_of_play(rnd: Round) -> Mask:
    """Undealt tiles where nobody draws (C3)."""
    return 0 if rnd.rules.drawing.value == "until-playable" else mask_of(list(rnd.dealt_boneyard))


PASSING_DEAL = [
    "6-6 5-5 4-4 3-3 2-2 1-1 0-0",
    "5-4 5-3 5-2 5-1 5-0 4-3 4-2",
    "6-5 6-4 6-3 6-2 6-1 6-0 4-1",
    "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
]


def test_R9_a_pass_shows_both_ends_missing() -> None:
    rules = Rules.preset("sin-pozo")
    rnd = Round.deal(rules, [h.split() for h in PASSING_DEAL], first=True)
    run(rnd, "6-6 pass 6-5 pass")  # seat 1 has no 6; seat 3 neither 5 nor 6
    known = knowledge_of(rnd.view(0))
    assert [numbers(m) for m in known.lacking] == [[], [6], [], [5, 6]]
    assert known.slots[3] == (BIT_5_6,) * 7
    assert known.exhausted(6) is False and known.ends == (5, 6)
    # The partner (seat 2) knows the same about the opponents.
    assert [numbers(m) for m in knowledge_of(rnd.view(2)).lacking] == [[], [6], [], [5, 6]]


BIT_5_6 = (1 << 5) | (1 << 6)


def test_R9_a_draw_shows_the_ends_missing_but_not_in_the_tiles_drawn_later() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    hands = ["6-6 6-5 6-4 6-3 6-2 5-5 5-4", "0-0 2-0 2-2 3-2 3-3 4-2 4-3"]
    deal = complete_deal(rules, hands, boneyard="3-0 6-1 4-0 1-0")
    rnd = Round.deal(rules, *deal, first=True)
    run(rnd, "6-6 draw draw 6-1")  # seat 1 keeps the 3-0 and plays the 6-1 it drew
    assert knowledge_of(rnd.view(0)).slots[1] == (1 << 6,) * 8
    run(rnd, "6-5R draw draw 1-0L")  # ends 1 and 5: keeps the 4-0, plays the 1-0
    known = knowledge_of(rnd.view(0))
    one_five_six = (1 << 1) | (1 << 5) | (1 << 6)
    assert known.slots[1] == (one_five_six,) * 8 + ((1 << 1) | (1 << 5),)
    assert numbers(known.lacking[1]) == [1, 5]
    assert known.boneyard_count == rnd.boneyard_count == 10
