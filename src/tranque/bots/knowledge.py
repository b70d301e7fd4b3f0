"""What a `PlayerView` implies about the hidden tiles (R17): the inference every level may use.

From the public history alone a seat can tell

* which tiles it has not seen (neither in its hand nor on the table): the *unseen* tiles,
  held by the others or in the boneyard (or out of play where nobody draws);
* which numbers each other seat cannot hold: a seat that passes, or draws, shows that none
  of its tiles fits either open end at that moment (R8, R9).

A tile drawn later may show a number the seat lacked before, so each hidden tile of a seat
is a *slot* with its own set of missing numbers, fixed at the moment the tile came to the
hand. An older slot has lived through every pass and draw a newer one has, so a seat's
slots are nested: each older slot lacks at least the numbers a newer one lacks.

>>> from tranque import Round, Rules, Pass
>>> rules = Rules.preset("sin-pozo")
>>> hands = [["6-6", "6-5", "5-5", "6-4", "5-4", "4-4", "6-3"],
...          ["0-0", "1-0", "1-1", "2-0", "2-1", "2-2", "3-0"],
...          ["5-3", "4-3", "3-3", "6-2", "5-2", "4-2", "3-2"],
...          ["6-1", "5-1", "4-1", "3-1", "6-0", "5-0", "4-0"]]
>>> rnd = Round.deal(rules, hands, first=True)
>>> _ = rnd.apply(rnd.legal_actions()[0])      # seat 0 leads 6-6
>>> _ = rnd.apply(Pass())                        # seat 1 has no 6
>>> known = knowledge_of(rnd.view(2))
>>> sorted(numbers(known.lacking[1]))
[6]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from tranque.engine import DrawEvent, PlayerView, PlayEvent, Side
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, TILE_COUNT, WITH_NUMBER, Mask, TileIndex, indices

NumberMask = int


class Choice(NamedTuple):
    """A free play another seat made, and what was public when it made it."""

    seat: int
    tile: TileIndex
    fitting: Mask  # the tiles that fitted the ends then
    later: Mask  # the tiles the seat has played since, this one included
    left: int  # the ends then
    right: int


# The numbers a tile shows, as a bitmask of numbers (bit n for the number n).
TILE_NUMBERS: list[NumberMask] = [(1 << HIGH[t]) | (1 << LOW[t]) for t in range(TILE_COUNT)]


def numbers(mask: NumberMask) -> list[int]:
    """The numbers in a number mask, lowest first."""
    return [n for n in range(10) if mask >> n & 1]


def tiles_without(lacking: NumberMask, candidates: Mask) -> Mask:
    """The tiles of `candidates` that show none of the numbers in `lacking`."""
    allowed = 0
    for tile in indices(candidates):
        if not TILE_NUMBERS[tile] & lacking:
            allowed |= BIT[tile]
    return allowed


@dataclass(frozen=True)
class Knowledge:
    """Everything one seat knows about where the tiles are."""

    seat: int
    players: int
    own: Mask  # the seat's own hand
    played: Mask  # tiles on the table
    unseen: Mask  # neither in the own hand nor on the table
    hand_counts: tuple[int, ...]
    boneyard_count: int  # tiles that can still be drawn (0 where nobody draws)
    # Per seat, one number mask per hidden tile, oldest tile first; empty for the own seat.
    slots: tuple[tuple[NumberMask, ...], ...]
    ends: tuple[int, int] | None
    # The other seats' free choices. A seat's choices before its last draw are left out: its
    # hand at the time is no longer known.
    choices: tuple[Choice, ...] = ()

    @property
    def lacking(self) -> tuple[NumberMask, ...]:
        """Per seat, the numbers it surely does not hold (those every one of its tiles lacks)."""
        result = []
        for seat_slots in self.slots:
            common = (1 << 10) - 1 if seat_slots else 0
            for mask in seat_slots:
                common &= mask
            result.append(common)
        return tuple(result)

    @property
    def hidden_count(self) -> int:
        """Unseen tiles that sit in no hand: the boneyard, or out of play."""
        return self.unseen.bit_count() - sum(len(s) for s in self.slots)

    def exhausted(self, number: int) -> bool:
        """True when every tile showing `number` is on the table or in the own hand."""
        return not self.unseen & WITH_NUMBER[number]

    def possible(self, seat: int) -> Mask:
        """Unseen tiles that `seat` might hold."""
        if seat == self.seat:
            return self.own
        return tiles_without(self.lacking[seat], self.unseen)


def knowledge_of(view: PlayerView) -> Knowledge:
    """Replay the public history of `view` and collect what it implies."""
    if view.seat is None:
        raise ValueError("un espectador no tiene mano")
    players = view.rules.players
    slots: list[list[NumberMask]] = [
        [] if seat == view.seat else [0] * view.rules.hand_size for seat in range(players)
    ]
    left = right = -1
    played = 0
    plays: list[tuple[int, int, Mask, int, int]] = []
    for event in view.events:
        seat = event.seat
        if isinstance(event, PlayEvent):
            tile = event.tile.index
            played |= BIT[tile]
            if seat != view.seat:
                _remove_slot(slots[seat], TILE_NUMBERS[tile])
                if left >= 0:
                    plays.append((seat, tile, WITH_NUMBER[left] | WITH_NUMBER[right], left, right))
            if event.side is None:
                left, right = HIGH[tile], LOW[tile]
            elif event.side is Side.LEFT:
                left = PIPS[tile] - left
            else:
                right = PIPS[tile] - right
        elif seat != view.seat:
            # A pass or a draw: nothing in the hand fitted either end.
            ends = (1 << left) | (1 << right) if left >= 0 else 0
            slots[seat] = [mask | ends for mask in slots[seat]]
            if isinstance(event, DrawEvent):
                slots[seat].append(0)
                plays = [play for play in plays if play[0] != seat]
    own = 0
    for held in view.hand:
        own |= BIT[held.index]
    unseen = view.rules.set_mask & ~own & ~played
    for seat in range(players):
        if seat != view.seat and len(slots[seat]) != view.hand_counts[seat]:
            raise ValueError(f"la historia no cuadra con las fichas del asiento {seat}")
    return Knowledge(
        seat=view.seat,
        players=players,
        own=own,
        played=played,
        unseen=unseen,
        hand_counts=view.hand_counts,
        boneyard_count=view.boneyard_count,
        slots=tuple(tuple(s) for s in slots),
        ends=view.ends,
        choices=_with_later_plays(plays),
    )


def _with_later_plays(plays: list[tuple[int, int, Mask, int, int]]) -> tuple[Choice, ...]:
    later = [0] * 10
    result = []
    for seat, tile, fitting, left, right in reversed(plays):
        later[seat] |= BIT[tile]
        result.append(Choice(seat, tile, fitting, later[seat], left, right))
    return tuple(reversed(result))


def _remove_slot(seat_slots: list[NumberMask], shown: NumberMask) -> None:
    """Take out the slot a played tile came from. Among the slots that could have held it,
    the one missing the most numbers (the oldest): with nested slots what remains is then
    exactly the union of every possibility."""
    for position, mask in enumerate(seat_slots):
        if not mask & shown:
            del seat_slots[position]
            return
    raise ValueError("una ficha jugada contradice los pases de quien la jugó")
