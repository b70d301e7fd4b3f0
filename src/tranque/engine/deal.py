"""Dealing: the verifiable shuffle, explicit deals (C9) and who leads the first round (R6).

The shuffle is a Fisher–Yates shuffle driven by SHA-256 in counter mode, so anyone who
knows a round's seed can re-deal it in any language and check it (docs/design.md, fair deals):

    for i from len-1 down to 1: j = uniform(0..i); swap(tiles[i], tiles[j])

where each uniform draw takes the next 4 bytes (big-endian) of the stream
SHA-256(seed ‖ counter as 8 bytes big-endian) for counter = 0, 1, 2, … and rejects values
at or above the largest multiple of i+1 below 2³².
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from tranque.engine.chance import SplitFloat
from tranque.engine.errors import EngineError
from tranque.engine.rules import Rules
from tranque.engine.tiles import BIT, LEAD_ORDER, TILE_COUNT, TILES, Mask, Tile, TileIndex, as_tile, indices


class DealError(EngineError):
    """An explicit deal that does not fit the rules (C9)."""


def _stream(seed: bytes) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        counter += 1


def shuffled(items: Sequence[TileIndex], seed: bytes) -> list[TileIndex]:
    """The items in the order the seed gives them (see the module docstring)."""
    order = list(items)
    words = _stream(seed)
    for i in range(len(order) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - (1 << 32) % bound
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % bound
        order[i], order[j] = order[j], order[i]
    return order


def deal_from_seed(rules: Rules, seed: bytes) -> tuple[list[Mask], list[TileIndex]]:
    """Shuffle the set with `seed` and deal it: seat k takes the k-th run of `hand_size`
    tiles of the shuffled order, and the rest, in order, is the boneyard."""
    return deal_in_order(rules, shuffled(indices(rules.set_mask), seed))


_ORDER: Final = list(range(TILE_COUNT))


def random_deal(rules: Rules, random: Callable[[], float]) -> tuple[list[Mask], list[TileIndex]]:
    """A uniformly random deal from `random()` floats, for simulations and search: the
    Fisher–Yates shuffle of `shuffled` with its choices from a `SplitFloat` (a few floats
    per deal), dealt by `deal_in_order`. Real tables deal with `deal_from_seed`, whose
    shuffle anyone can check."""
    chance = SplitFloat(random)
    order = _ORDER[: rules.tile_count]  # the set's tiles are indices 0..tile_count-1
    for i in range(len(order) - 1, 0, -1):
        j = chance.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return deal_in_order(rules, order)


def deal_in_order(rules: Rules, order: list[TileIndex]) -> tuple[list[Mask], list[TileIndex]]:
    """Seat k takes the k-th run of `hand_size` tiles of `order`; the rest is the boneyard."""
    size = rules.hand_size
    hands = []
    for seat in range(rules.players):
        mask = 0
        for tile in order[seat * size : (seat + 1) * size]:
            mask |= BIT[tile]
        hands.append(mask)
    return hands, order[rules.players * size :]


def parse_deal(
    rules: Rules, hands: Sequence[Sequence[Tile | str]], boneyard: Sequence[Tile | str]
) -> tuple[list[Mask], list[TileIndex]]:
    """Check an explicit deal against the rules (C9) and turn it into masks."""
    if len(hands) != rules.players:
        raise DealError("deal_hand_count", hands=len(hands), players=rules.players)
    full = rules.set_mask
    seen = 0
    masks = []
    for seat, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise DealError("deal_hand_size", seat=seat, size=len(hand), hand_size=rules.hand_size)
        mask = 0
        for value in hand:
            bit = BIT[_tile_in_set(value, full, seen, rules)]
            mask |= bit
            seen |= bit
        masks.append(mask)
    rest = []
    for value in boneyard:
        index = _tile_in_set(value, full, seen, rules)
        seen |= BIT[index]
        rest.append(index)
    missing = full & ~seen
    if missing:
        raise DealError("deal_missing_tiles", tiles=[str(TILES[i]) for i in indices(missing)[:5]])
    return masks, rest


def _tile_in_set(value: Tile | str, full: Mask, seen: Mask, rules: Rules) -> TileIndex:
    """The index of a dealt tile that belongs to the set and was not dealt already."""
    if isinstance(value, Tile):
        tile = value
    else:
        try:
            tile = as_tile(value)
        except EngineError as error:
            raise DealError("deal_bad_tile", cause=error) from None
    bit = BIT[tile.index]
    if not bit & full:
        raise DealError("deal_tile_not_in_set", tile=str(tile), set_max=rules.set_max)
    if bit & seen:
        raise DealError("deal_tile_twice", tile=str(tile))
    return tile.index


def first_lead(hands: Sequence[Mask]) -> tuple[int, TileIndex]:
    """R6: (seat, tile) of the highest double dealt, else of the highest tile (pips, then
    high half). With the set's highest double dealt this is its holder."""
    dealt = 0
    for hand in hands:
        dealt |= hand
    for tile in LEAD_ORDER:
        bit = BIT[tile]
        if dealt & bit:
            for seat, hand in enumerate(hands):
                if hand & bit:
                    return seat, tile
    return 0, -1
