"""Deal the unseen tiles to the other hands in a way that fits everything public, and build
the engine's fast `RoundState` from a view and such a deal (a *determinization*).

A deal gives every other seat exactly as many tiles as it holds, each tile in a slot that may
hold it (`knowledge.Knowledge.slots`); the tiles left over form the boneyard, in a random
order, or lie out of play where nobody draws. The real deal is always one of the
possibilities, so a deal always exists.
"""

from __future__ import annotations

import math
import random

from tranque.bots.knowledge import TILE_NUMBERS, Knowledge, NumberMask
from tranque.engine import PlayerView
from tranque.engine.round import state_for
from tranque.engine.state import RoundState
from tranque.engine.tiles import BIT, PIPS, Mask, TileIndex, indices

REJECTION_TRIES = 8
SWEEPS = 3  # swap attempts per hidden tile between two deals of the Markov chain

Deal = tuple[list[Mask], list[TileIndex]]


class DealSampler:
    """Draws deals of the unseen tiles that fit `known`, each (nearly) uniformly among all
    the deals that do.

    Without constraints a deal is a shuffle. With few, shuffles are drawn until one fits
    (exactly uniform). When too many are refused, the sampler finds one deal that fits
    (augmenting paths) and then walks between fitting deals by swapping two tiles whenever
    both fit their new places: a Markov chain whose steady state is uniform over the deals
    that fit; each `draw` takes its state after a few sweeps.
    """

    def __init__(self, known: Knowledge, rng: random.Random) -> None:
        self.known = known
        self.rng = rng
        self.tiles = indices(known.unseen)
        self.slot_seats = [seat for seat, seat_slots in enumerate(known.slots) for _ in seat_slots]
        # Every place a hidden tile can take: the slots, then the boneyard (no constraint).
        masks = [mask for seat_slots in known.slots for mask in seat_slots]
        self.slot_count = len(masks)
        self.masks: list[NumberMask] = masks + [0] * (len(self.tiles) - len(masks))
        self.constrained = any(masks)
        self.chain: list[TileIndex] | None = None

    def draw(self) -> Deal:
        """Hands for every seat (the own hand as it is) and the leftover tiles in random order."""
        order = self._order()
        hands = [0] * self.known.players
        hands[self.known.seat] = self.known.own
        for seat, tile in zip(self.slot_seats, order, strict=False):
            hands[seat] |= BIT[tile]
        rest = order[self.slot_count :]
        self.rng.shuffle(rest)
        return hands, rest

    def _order(self) -> list[TileIndex]:
        rng = self.rng
        if not self.constrained:
            return rng.sample(self.tiles, len(self.tiles))
        if self.chain is None:
            for _ in range(REJECTION_TRIES):
                order = rng.sample(self.tiles, len(self.tiles))
                if self._fits(order):
                    return order
            self.chain = _matching(self.tiles, self.masks, rng)
            self._walk(self.chain, 4 * SWEEPS)
        self._walk(self.chain, SWEEPS)
        return list(self.chain)

    def _fits(self, order: list[TileIndex]) -> bool:
        return all(not TILE_NUMBERS[t] & m for t, m in zip(order, self.masks, strict=True))

    def _walk(self, order: list[TileIndex], sweeps: int) -> None:
        masks = self.masks
        size = len(order)
        rand = self.rng.random
        for _ in range(sweeps * size):
            i = int(rand() * size)
            j = int(rand() * size)
            a, b = order[i], order[j]
            if not (TILE_NUMBERS[b] & masks[i] or TILE_NUMBERS[a] & masks[j]):
                order[i], order[j] = b, a


def _matching(tiles: list[TileIndex], masks: list[NumberMask], rng: random.Random) -> list[TileIndex]:
    """A tile for every place, each fitting its place, by augmenting paths (Kuhn): always
    found when one exists, and the real deal is one."""
    allowed = [[t for t in tiles if not TILE_NUMBERS[t] & m] for m in masks]
    shuffled = [rng.sample(options, len(options)) for options in allowed]
    owner: dict[TileIndex, int] = {}

    def augment(place: int, visited: set[TileIndex]) -> bool:
        for tile in shuffled[place]:
            if tile in visited:
                continue
            visited.add(tile)
            if tile not in owner or augment(owner[tile], visited):
                owner[tile] = place
                return True
        return False

    # The most constrained places first: fewer detours.
    for place in sorted(range(len(masks)), key=lambda p: len(allowed[p])):
        if not augment(place, set()):
            raise ValueError("ningún reparto de las fichas ocultas cuadra con lo jugado")
    order = [0] * len(masks)
    for tile, place in owner.items():
        order[place] = tile
    return order


def state_from_view(view: PlayerView, hands: list[Mask], rest: list[TileIndex]) -> RoundState:
    """The referee's state of the round in `view`, had the hidden tiles been dealt as given."""
    forced = -1 if view.forced_lead is None else view.forced_lead.index
    state = state_for(
        view.rules, hands, rest, view.starter, forced_lead=forced, pass_bonus_pending=view.pass_bonus_pending
    )
    if view.ends is not None:
        state.left, state.right = view.ends
    state.turn = view.turn
    state.last_player = -1 if view.last_player is None else view.last_player
    state.team_points = view.round_pass_points
    return state


class ChoiceModel:
    """How plausible a sample makes the other seats' observed plays.

    People (and most bots) put down heavy tiles first: a seat that could play several tiles
    is modelled as choosing tile t with probability proportional to exp(`heaviness` * pips).
    A sample in which a seat passed over much heavier tiles than the one it played is
    therefore less likely. `heaviness` 0 makes every sample equally likely.
    """

    def __init__(
        self, known: Knowledge, heaviness: float, partner_heaviness: float, partner: int | None
    ) -> None:
        def table(beta: float) -> list[float]:
            return [math.exp(beta * pips) for pips in range(19)]

        tables = {
            seat: table(partner_heaviness if seat == partner else heaviness) for seat in range(known.players)
        }
        self.choices = [
            (seat, tile, fitting, later, tables[seat])
            for seat, tile, fitting, later in known.choices
            if (partner_heaviness if seat == partner else heaviness) > 0
        ]
        self._sums: dict[tuple[int, Mask], float] = {}

    @property
    def informative(self) -> bool:
        return bool(self.choices)

    def weight(self, hands: list[Mask]) -> float:
        weight = 1.0
        sums = self._sums
        for seat, tile, fitting, later, exp in self.choices:
            playable = (hands[seat] | later) & fitting
            total = sums.get((seat, playable))
            if total is None:
                total = sum(exp[PIPS[t]] for t in indices(playable))
                sums[seat, playable] = total
            weight *= exp[PIPS[tile]] / total
        return weight
