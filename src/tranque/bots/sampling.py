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
from collections.abc import Sequence

from tranque.bots.convention import Reading
from tranque.bots.knowledge import Knowledge, tiles_without
from tranque.engine import PlayerView
from tranque.engine.bitboard import RoundState
from tranque.engine.round import state_for
from tranque.engine.tiles import BIT, PIPS, Mask, TileIndex, indices

REJECTION_TRIES = 8
SWEEPS = 3  # swap attempts per hidden tile between two deals of the Markov chain

Deal = tuple[list[Mask], list[TileIndex]]


class DealSampler:
    """Draws deals of the unseen tiles that fit `known`, each (nearly) uniformly among all
    the deals that do, or in proportion to how well they keep to assumptions about how the
    others play (`assumed`).

    Without constraints a deal is a shuffle. With few, shuffles are drawn until one fits
    (exactly uniform). When too many are refused, the sampler finds one deal that fits
    (augmenting paths) and then walks between fitting deals by swapping two tiles whenever
    both fit their new places: a Markov chain whose steady state is uniform over the deals
    that fit; each `draw` takes its state after a few sweeps.

    `assumed[seat]` lists tile sets the seat is assumed not to have held (one per play it
    made, `heavy_first_assumptions`); a deal weighs `slack` to the power of the assumptions
    it breaks. The walk then accepts a swap that breaks k more with probability `slack`**k
    (Metropolis), so its steady state is the deals that fit, in proportion to that weight.
    """

    def __init__(
        self, known: Knowledge, rng: random.Random, assumed: Sequence[Sequence[Mask]] = (), slack: float = 1.0
    ) -> None:
        self.known = known
        self.rng = rng
        self.tiles = indices(known.unseen)
        self.slot_seats = [seat for seat, seat_slots in enumerate(known.slots) for _ in seat_slots]
        # Every place a hidden tile can take: the slots, then the boneyard (no constraint),
        # each as the tiles it may hold.
        everything = known.unseen
        places = [tiles_without(mask, everything) for seat_slots in known.slots for mask in seat_slots]
        self.slot_count = len(places)
        self.allowed: list[Mask] = places + [everything] * (len(self.tiles) - len(places))
        self.place_seats = self.slot_seats + [-1] * (len(self.tiles) - len(places))
        self.assumed = [list(a) for a in assumed] if slack < 1 and any(assumed) else []
        self.slack = slack
        self.constrained = bool(self.assumed) or any(place != everything for place in places)
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
            if not self.assumed:
                for _ in range(REJECTION_TRIES):
                    order = rng.sample(self.tiles, len(self.tiles))
                    if self._fits(order):
                        return order
            self.chain = self._start()
            self._walk(self.chain, 4 * SWEEPS)
        self._walk(self.chain, SWEEPS)
        return list(self.chain)

    def _start(self) -> list[TileIndex]:
        """A deal that fits, and keeps to every assumption if one can."""
        if self.assumed:
            kept = [
                place & ~self._assumed_union(seat) if seat >= 0 else place
                for place, seat in zip(self.allowed, self.place_seats, strict=True)
            ]
            try:
                return _matching(self.tiles, kept, self.rng)
            except ValueError:
                pass
        return _matching(self.tiles, self.allowed, self.rng)

    def _assumed_union(self, seat: int) -> Mask:
        union = 0
        for mask in self.assumed[seat]:
            union |= mask
        return union

    def _fits(self, order: list[TileIndex]) -> bool:
        return all(BIT[t] & a for t, a in zip(order, self.allowed, strict=True))

    def _walk(self, order: list[TileIndex], sweeps: int) -> None:
        allowed = self.allowed
        seats = self.place_seats
        assumed = self.assumed
        hands = [0] * self.known.players
        if assumed:
            for seat, tile in zip(seats, order, strict=True):
                if seat >= 0:
                    hands[seat] |= BIT[tile]
        broken = [sum(1 for mask in masks if hands[seat] & mask) for seat, masks in enumerate(assumed)]
        size = len(order)
        rand = self.rng.random
        for _ in range(sweeps * size):
            i = int(rand() * size)
            j = int(rand() * size)
            a, b = order[i], order[j]
            if not (BIT[b] & allowed[i] and BIT[a] & allowed[j]):
                continue
            if (
                assumed
                and seats[i] != seats[j]
                and not self._weighed_swap(hands, broken, seats[i], seats[j], a, b)
            ):
                continue
            order[i], order[j] = b, a

    def _weighed_swap(
        self, hands: list[Mask], broken: list[int], seat_a: int, seat_b: int, a: TileIndex, b: TileIndex
    ) -> bool:
        """Whether tiles `a` (of `seat_a`, -1: not in a hand) and `b` (of `seat_b`) trade
        places, as Metropolis accepts it; if they do, `hands` and `broken` follow."""
        change = BIT[a] | BIT[b]
        more = 0
        now = [0, 0]
        for k, seat in enumerate((seat_a, seat_b)):
            if seat >= 0 and self.assumed[seat]:
                now[k] = sum(1 for mask in self.assumed[seat] if (hands[seat] ^ change) & mask)
                more += now[k] - broken[seat]
        if more > 0 and self.rng.random() >= self.slack**more:
            return False
        for k, seat in enumerate((seat_a, seat_b)):
            if seat >= 0:
                hands[seat] ^= change
                if self.assumed[seat]:
                    broken[seat] = now[k]
        return True


def _matching(tiles: list[TileIndex], places: list[Mask], rng: random.Random) -> list[TileIndex]:
    """A tile for every place, each fitting its place, by augmenting paths (Kuhn): always
    found when one exists (without assumptions, the real deal is one)."""
    allowed = [[t for t in tiles if BIT[t] & place] for place in places]
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
    for place in sorted(range(len(places)), key=lambda p: len(allowed[p])):
        if not augment(place, set()):
            raise ValueError("ningún reparto de las fichas ocultas cuadra con lo jugado")
    order = [0] * len(places)
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

    Some opponents always play their heaviest tile that fits ("bota gorda"): each opponent
    is believed to be one with `heavy_first_share`, and its plays weigh as the mixture of both
    readings, the heavy-first one with `heavy_first` in place of `heaviness`; its own plays
    decide which reading explains the deal better. The partner may instead keep the
    expert's convention (`convention.Reading`): its plays weigh as the mixture of the mild
    model (`partner_heaviness`) and the convention, `share` of it the convention's.

    A sampler may have drawn the deals in proportion to `slack` to the power of the
    `proposal` assumptions they break (`heavy_first_assumptions`); the weight undoes that.
    """

    def __init__(
        self,
        known: Knowledge,
        heaviness: float,
        partner_heaviness: float,
        partner: int | None,
        reading: Reading | None = None,
        share: float = 0.0,
        heavy_first: float = 0.0,
        heavy_first_share: float = 0.0,
        proposal: Sequence[Sequence[Mask]] = (),
        slack: float = 1.0,
    ) -> None:
        def table(beta: float) -> list[float]:
            return [math.exp(beta * pips) for pips in range(19)]

        self.partner = partner
        self.mixed = heavy_first_share if heavy_first > 0 else 0.0
        # An opponent's readings: the mild one, and the heavy-first one if it is believed at all.
        opponents = (table(heaviness), table(heavy_first)) if self.mixed else (table(heaviness),)
        partners = (table(partner_heaviness),)
        # Per play: the seat, its tile, what fitted, what it played since, and the weight
        # tables of its readings (the partner has one here; `reading` is its other).
        self.choices = [
            (seat, tile, fitting, later, partners if seat == partner else opponents)
            for seat, tile, fitting, later, *_ in known.choices
            if (partner_heaviness if seat == partner else max(heaviness, self.mixed)) > 0
        ]
        self.reading = reading if reading and share > 0 else None
        self.share = share
        self.players = known.players
        self.proposal = [(seat, mask) for seat, masks in enumerate(proposal) for mask in masks]
        if not 0 < slack < 1:
            self.proposal = []
        self.slack = slack
        self._sums: dict[tuple[int, Mask, int], float] = {}

    @property
    def informative(self) -> bool:
        return bool(self.choices) or self.reading is not None or bool(self.proposal)

    def weight(self, hands: list[Mask]) -> float:
        sums = self._sums
        # Per seat, the likelihood of its plays under each of its readings.
        odds = [[1.0, 1.0] for _ in range(self.players)]
        for seat, tile, fitting, later, tables in self.choices:
            playable = (hands[seat] | later) & fitting
            seat_odds = odds[seat]
            for k, exp in enumerate(tables):
                total = sums.get((seat, playable, k))
                if total is None:
                    total = sums[seat, playable, k] = sum(exp[PIPS[t]] for t in indices(playable))
                seat_odds[k] *= exp[PIPS[tile]] / total
        weight = 1.0
        mixed = self.mixed
        for seat, (first, second) in enumerate(odds):
            if seat == self.partner:
                if self.reading is None:
                    weight *= first
                else:
                    share = self.share
                    weight *= (1 - share) * first + share * self.reading.likelihood(hands)
            else:
                weight *= (1 - mixed) * first + mixed * second
        if self.proposal:
            weight /= self.slack ** sum(1 for seat, mask in self.proposal if hands[seat] & mask)
        return weight


# HEAVIER[p]: the tiles with more than p pips.
HEAVIER: list[Mask] = [sum(BIT[t] for t in range(len(PIPS)) if PIPS[t] > p) for p in range(19)]


def heavy_first_assumptions(known: Knowledge, seats: Sequence[int]) -> list[list[Mask]]:
    """Per seat of `seats`, what its plays say if it always plays its heaviest tile that fits
    ("bota gorda"): for each play, the unseen tiles that fitted then and were heavier than
    the one it played, which it then did not hold. A play its own later plays already show
    was not its heaviest says nothing more and is left out."""
    assumed: list[list[Mask]] = [[] for _ in range(known.players)]
    for seat, tile, fitting, later, *_ in known.choices:
        heavier = fitting & HEAVIER[PIPS[tile]]
        if seat in seats and not heavier & later and heavier & known.unseen:
            assumed[seat].append(heavier & known.unseen)
    return assumed
