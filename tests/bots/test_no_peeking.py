"""R17 for bots: a bot cannot learn a hidden tile. Re-deal the tiles a seat cannot see among
the others (and the boneyard) in any way that agrees with everything public and with the
seat's own hand: the seat's view is the same, and so is every level's choice."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from tranque import IllegalAction, Round, Rules, Tile
from tranque.bots import bot_names, make_bot
from tranque.engine import Action, FirstLead, PlayerView
from tranque.engine.deal import deal_from_seed
from tranque.engine.tiles import TILES, indices

Deal = tuple[Sequence[Sequence[Tile]], Sequence[Tile]]

PRESETS = [
    pytest.param("clasico", 4, "pairs", id="clasico-4-pairs"),
    pytest.param("clasico", 2, "individual", id="clasico-2-drawing"),
    pytest.param("clasico", 6, "pairs", id="clasico-6-pairs"),
    pytest.param("sin-pozo", 4, "pairs", id="sin-pozo"),
    pytest.param("ponce", 4, "pairs", id="ponce"),
    pytest.param("en-contra", 3, "individual", id="en-contra-3"),
]


def start(rules: Rules, deal: Deal) -> Round:
    if rules.first_round_lead is FirstLead.HIGHEST_DOUBLE:
        return Round.deal(rules, *deal, first=True)
    return Round.deal(rules, *deal, starter=0)


def replay(rules: Rules, deal: Deal, actions: list[Action]) -> Round:
    rnd = start(rules, deal)
    for action in actions:
        rnd.apply(action)
    return rnd


def redeal(
    rules: Rules, deal: Deal, actions: list[Action], seat: int, rng: random.Random
) -> tuple[Deal, int]:
    """Swap hidden tiles two at a time, keeping each swap only if the same actions stay legal
    and the seat's view stays the same. Returns the new deal and how many hidden tiles
    ended up somewhere else."""
    target = replay(rules, deal, actions).view(seat)
    on_table = set(target.line)
    hands = [list(hand) for hand in deal[0]]
    boneyard = list(deal[1])
    places = [(owner, i) for owner in range(rules.players) if owner != seat for i in range(len(hands[owner]))]
    places += [(-1, i) for i in range(len(boneyard))]

    def get(place: tuple[int, int]) -> Tile:
        owner, i = place
        return boneyard[i] if owner < 0 else hands[owner][i]

    def put(place: tuple[int, int], tile: Tile) -> None:
        owner, i = place
        if owner < 0:
            boneyard[i] = tile
        else:
            hands[owner][i] = tile

    hidden = [p for p in places if get(p) not in on_table]
    for _ in range(300):
        a, b = rng.sample(hidden, 2)
        tile_a, tile_b = get(a), get(b)
        put(a, tile_b)
        put(b, tile_a)
        try:
            same = replay(rules, (hands, boneyard), actions).view(seat) == target
        except IllegalAction:
            same = False
        if not same:
            put(a, tile_a)
            put(b, tile_b)
    moved = sum(1 for p in hidden if get(p) != original(deal, p))
    return (hands, boneyard), moved


def original(deal: Deal, place: tuple[int, int]) -> Tile:
    owner, i = place
    return deal[1][i] if owner < 0 else deal[0][owner][i]


def positions(rules: Rules, seed: int) -> list[tuple[Deal, list[Action], int]]:
    """Mid-round positions (deal, actions so far, seat to act) where the seat has a choice."""
    hands_masks, rest = deal_from_seed(rules, b"peek:%d" % seed)
    deal: Deal = ([[TILES[t] for t in indices(mask)] for mask in hands_masks], [TILES[t] for t in rest])
    rnd = start(rules, deal)
    bot = make_bot("random", seed=seed)
    actions: list[Action] = []
    found = []
    while not rnd.is_over:
        view = rnd.view(rnd.turn)
        if len(view.legal_actions) > 1 and len(view.line) >= 3:
            found.append((deal, list(actions), rnd.turn))
        actions.append(rnd.apply(bot.choose(view)).action)
    return found[:: max(1, len(found) // 3)][:3]


@pytest.mark.parametrize(("name", "players", "mode"), PRESETS)
def test_R17_a_bot_chooses_the_same_whatever_the_hidden_deal(name: str, players: int, mode: str) -> None:
    rules = Rules.preset(name, players=players, mode=mode)
    rng = random.Random(1)
    compared = 0
    for seed in range(3):
        for deal, actions, seat in positions(rules, seed):
            view: PlayerView = replay(rules, deal, actions).view(seat)
            other, moved = redeal(rules, deal, actions, seat, rng)
            assert moved >= 4  # the other hands really are different
            assert other != deal
            other_view = replay(rules, other, actions).view(seat)
            assert other_view == view
            for level in bot_names():
                for bot_seed in (1, 2):
                    assert make_bot(level, bot_seed).choose(view) == make_bot(level, bot_seed).choose(
                        other_view
                    )
            compared += 1
    assert compared >= 6
