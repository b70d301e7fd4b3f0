"""The expert's partnership convention, "la seña": what a play says about the hand it came from.

Partners in dominó read each other's plays, and good pairs play so as to be read. The expert
keeps one simple convention with its partner: among plays worth about the same, it prefers
the one that leaves at the ends numbers it still holds, so that its partner can keep them
open for it and the opponents cannot close them cheaply. What a play *says* is the count of
tiles the player still holds, after it, that show a number at the new ends (`said`).

The expert both keeps it (a bonus per tile said, `Budget.signal`, added to the search's
estimate where the search rolls out rather than solves) and reads it in its partner's plays:
a deal in which the partner's plays said much is more likely (`Reading`). The partner might
not keep the convention (a person, another program), so the reading is a mixture, weighed
by the plays seen: with the partner's plays modelled as heavy-first, or as keeping the
convention (`Budget.reading_share` is the share believed before any play).

>>> from tranque.engine.tiles import Tile, BIT
>>> hand = BIT[Tile(5, 3).index] | BIT[Tile(3, 1).index] | BIT[Tile(6, 6).index]
>>> said(hand, Tile(5, 3).index, 5, 2)     # 5-3 on the 5: the ends become 3 and 2; 3-1 shows 3
1
"""

from __future__ import annotations

import math

from tranque.bots.knowledge import Knowledge
from tranque.engine import Action, Play, PlayerView, Side
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, TILE_COUNT, WITH_NUMBER, Mask, TileIndex, indices


def said(hand: Mask, tile: TileIndex, left: int, right: int) -> int:
    """The tiles of `hand` besides `tile` that show a number at the open ends once `tile` is
    put at the end it fits (`left`, `right`: the ends before; the end that says more, when
    it fits both)."""
    rest = hand & ~BIT[tile]
    return max(((rest & shown).bit_count() for shown in ends_shown(tile, left, right)), default=0)


def said_at(hand: Mask, tile: TileIndex, end: int, other: int) -> int:
    """What `tile` says when put on the end showing `end`, the other end showing `other`."""
    return (hand & ~BIT[tile] & _showing(tile, end, other)).bit_count()


def ends_shown(tile: TileIndex, left: int, right: int) -> tuple[Mask, ...]:
    """For each end `tile` fits (`left`, then `right`), the tiles that show a number at the
    ends it leaves there."""
    return tuple(
        _showing(tile, end, other)
        for end, other in ((left, right), (right, left))
        if end in (HIGH[tile], LOW[tile])
    )


def _showing(tile: TileIndex, end: int, other: int) -> Mask:
    """The tiles that show a number at the ends once `tile` is put on `end`."""
    return WITH_NUMBER[PIPS[tile] - end] | WITH_NUMBER[other]


def signals(view: PlayerView, actions: tuple[Action, ...]) -> list[int]:
    """What each action says to the partner under the convention (`said_at`): 0
    for every one when there is no partner, no tile down yet, or an action that is not a play."""
    if view.seat is None or view.ends is None or view.rules.partner_of(view.seat) is None:
        return [0] * len(actions)
    if not all(isinstance(a, Play) and a.side is not None for a in actions):
        return [0] * len(actions)
    hand = 0
    for tile in view.hand:
        hand |= BIT[tile.index]
    left, right = view.ends
    told = []
    for action in actions:
        assert isinstance(action, Play)
        end, other = (left, right) if action.side is Side.LEFT else (right, left)
        told.append(said_at(hand, action.tile.index, end, other))
    return told


Candidate = tuple[Mask, int, tuple[Mask, ...]]  # a tile's bit, its pips, the ends it would show


class Reading:
    """How likely a deal makes the partner's plays if it keeps the convention: each play of
    tile t, among the tiles p that fitted, has probability proportional to
    exp(`heaviness` * pips(p) + `strength` * said(p)), said in the hand it had then."""

    def __init__(self, known: Knowledge, partner: int, strength: float, heaviness: float) -> None:
        self.partner = partner
        # Per play: the tiles played since (that one included), the tile's place among the
        # candidates, and every tile the partner might have played then, with the tiles that
        # show the new ends for each end it fits (`Candidate`).
        self.plays: list[tuple[Mask, int, list[Candidate]]] = []
        for seat, tile, fitting, later, left, right in known.choices:
            if seat != partner:
                continue
            candidates: list[Candidate] = []
            for p in indices(fitting & (known.unseen | later)):
                candidates.append((BIT[p], PIPS[p], ends_shown(p, left, right)))
            chosen = next(k for k, (bit, _, _) in enumerate(candidates) if bit == BIT[tile])
            self.plays.append((later, chosen, candidates))
        # score[pips][tiles said]: a candidate's weight before normalizing.
        self._score = [
            [math.exp(heaviness * pips + strength * said) for said in range(TILE_COUNT)] for pips in range(19)
        ]
        self._odds: dict[tuple[int, Mask], float] = {}

    def __bool__(self) -> bool:
        return bool(self.plays)

    def likelihood(self, hands: list[Mask]) -> float:
        """The probability of the partner's plays, had it held `hands[partner]`."""
        result = 1.0
        odds = self._odds
        held = hands[self.partner]
        for index, (later, chosen, candidates) in enumerate(self.plays):
            then = held | later
            key = (index, then)
            value = odds.get(key)
            if value is None:
                value = odds[key] = self._odds_of(then, chosen, candidates)
            result *= value
        return result

    def _odds_of(self, hand: Mask, chosen: int, candidates: list[Candidate]) -> float:
        score = self._score
        total = mine = 0.0
        for k, (bit, pips, shown) in enumerate(candidates):
            if hand & bit:
                rest = hand & ~bit
                weight = score[pips][max((rest & mask).bit_count() for mask in shown)]
                total += weight
                if k == chosen:
                    mine = weight
        return mine / total
