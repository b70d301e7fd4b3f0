"""`RoundState`: one round as plain integers, with `push`/`pop` — the rules of play (R5–R11).

This is the only implementation of how a round moves; the public `Round` wraps it with
objects and a history, and the bots search with it directly. A move is a small int:

* a play is ``tile_index * 4 + end`` with end 0 for the lead, 1 left, 2 right;
* `DRAW_MOVE` and `PASS_MOVE` come after every play.

`push` trusts its caller: it is meant for moves taken from `legal_moves()`. Validation with
reasons a person can read happens in `Round.apply`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from tranque.engine.chance import SplitFloat
from tranque.engine.tiles import (
    BIT,
    HIGH,
    LOW,
    MAX_NUMBER,
    PIPS,
    TILE_COUNT,
    WITH_NUMBER_IN_SET,
    Mask,
    TileIndex,
    indices,
)

LEAD: Final = 0
LEFT_END: Final = 1
RIGHT_END: Final = 2
MOVE_COUNT: Final = TILE_COUNT * 4
DRAW_MOVE: Final = MOVE_COUNT
PASS_MOVE: Final = MOVE_COUNT + 1

ONGOING: Final = 0
DOMINO: Final = 1
TRANQUE: Final = 2

Move = int


_DRAW_ONLY: Final = (DRAW_MOVE,)
_PASS_ONLY: Final = (PASS_MOVE,)
# Plays by (playable tiles, left end, right end): positions repeat a lot in playouts.
_PLAYS: Final[dict[int, tuple[Move, ...]]] = {}
_PLAYS_LIMIT: Final = 1 << 18


def _lead_moves(hand: Mask) -> tuple[Move, ...]:
    return tuple(tile * 4 for tile in indices(hand))


def _plays(playable: Mask, left: int, right: int, fits: list[Mask]) -> tuple[Move, ...]:
    """The plays of the tiles in `playable` (each fits an end) onto ends `left`/`right`;
    `fits[n]` holds the tiles showing n (`WITH_NUMBER` or a set's `WITH_NUMBER_IN_SET`)."""
    count = _play_count(playable, left, right, fits)
    return tuple([_nth_play(playable, left, right, fits, n) for n in range(count)])


def _play_count(playable: Mask, left: int, right: int, fits: list[Mask]) -> int:
    """How many plays `_plays` lists: one per tile, and two for the tile that fits both
    ends when they show different numbers."""
    count = 0
    rest = playable
    while rest:
        rest &= rest - 1
        count += 1
    if left != right and playable & fits[left] & fits[right]:
        count += 1
    return count


def _nth_play(playable: Mask, left: int, right: int, fits: list[Mask], n: int) -> Move:
    """`_plays(...)[n]`, without listing the others: tiles lowest first, each onto the left
    end if it fits there, then onto the right end."""
    fits_left = fits[left]
    fits_right = fits[right]
    while True:
        low_bit = playable & -playable
        tile4 = (low_bit.bit_length() - 1) * 4
        if low_bit & fits_left:
            if not n:
                return tile4 + LEFT_END
            n -= 1
        # Both ends showing one number make the two placements one move (R8).
        if low_bit & fits_right and (left != right or not low_bit & fits_left):
            if not n:
                return tile4 + RIGHT_END
            n -= 1
        playable ^= low_bit


# Every attribute of a RoundState (a compiled class exposes no `__slots__` to read).
STATE_FIELDS: Final = (
    "boneyard",
    "capicua",
    "closer",
    "drawing",
    "drawn",
    "fits",
    "forced_lead",
    "hands",
    "history",
    "in_hands",
    "last_player",
    "left",
    "outcome",
    "pass_bonus_pending",
    "pass_points",
    "players",
    "right",
    "starter",
    "team_points",
    "turn",
)


class RoundState:
    """The whole state of a round (the referee's view), cheap to copy and to undo."""

    __slots__ = STATE_FIELDS

    def __init__(
        self,
        players: int,
        hands: list[Mask],
        boneyard: list[TileIndex],
        starter: int,
        *,
        drawing: bool,
        forced_lead: TileIndex = -1,
        pass_points: bool = False,
        pass_bonus_pending: bool = False,
        set_max: int = MAX_NUMBER,
    ) -> None:
        self.players = players
        # The tiles showing each number, within the set in play (any set: the default).
        self.fits = WITH_NUMBER_IN_SET[set_max]
        self.drawing = drawing
        self.pass_points = pass_points
        self.hands = hands
        self.in_hands = 0
        for hand in hands:
            self.in_hands |= hand
        # Without drawing the undealt tiles are out of play (C3): nothing to draw.
        self.boneyard = boneyard if drawing else []
        self.drawn = 0
        self.left = -1
        self.right = -1
        self.turn = starter
        self.starter = starter
        self.forced_lead = forced_lead
        self.last_player = -1
        self.outcome = ONGOING
        self.closer = -1
        self.capicua = False
        self.team_points: tuple[int, ...] = (0,) * (players // 2)
        self.pass_bonus_pending = pass_bonus_pending
        self.history: list[tuple[int, int, int, int, int, int, bool, tuple[int, ...]]] = []

    def copy(self) -> RoundState:
        """An independent copy (without the undo history), for search."""
        other = RoundState(self.players, self.hands.copy(), self.boneyard, self.starter, drawing=self.drawing)
        other.pass_points = self.pass_points
        other.fits = self.fits
        other.in_hands = self.in_hands
        other.boneyard = self.boneyard
        other.drawn = self.drawn
        other.left = self.left
        other.right = self.right
        other.turn = self.turn
        other.starter = self.starter
        other.forced_lead = self.forced_lead
        other.last_player = self.last_player
        other.outcome = self.outcome
        other.closer = self.closer
        other.capicua = self.capicua
        other.team_points = self.team_points
        other.pass_bonus_pending = self.pass_bonus_pending
        other.history = []
        return other

    def __reduce__(self) -> tuple[Callable[[dict[str, object]], RoundState], tuple[dict[str, object]]]:
        """Copy and pickle as the values of `STATE_FIELDS`: the same in the compiled and pure builds."""
        return (_restore_state, ({name: getattr(self, name) for name in STATE_FIELDS},))

    @property
    def boneyard_count(self) -> int:
        """How many tiles are still to be drawn."""
        return len(self.boneyard) - self.drawn

    def legal_moves(self) -> tuple[Move, ...]:
        """R8/R9: forced play; draw only with nothing playable; pass only with nothing else."""
        if self.outcome:
            return ()
        left = self.left
        if left < 0:
            if self.forced_lead >= 0:
                return (self.forced_lead * 4,)
            return _lead_moves(self.hands[self.turn])
        right = self.right
        fits = self.fits
        playable = self.hands[self.turn] & (fits[left] | fits[right])
        if not playable:
            return _DRAW_ONLY if self.drawn < len(self.boneyard) else _PASS_ONLY
        key = (playable << 8) | (left << 4) | right
        moves = _PLAYS.get(key)
        if moves is None:
            moves = _plays(playable, left, right, fits)
            if len(_PLAYS) >= _PLAYS_LIMIT:
                _PLAYS.clear()
            _PLAYS[key] = moves
        return moves

    def push(self, move: Move) -> None:
        """Make `move`, remembering enough to `pop` it."""
        self.history.append(
            (
                move,
                self.turn,
                self.left,
                self.right,
                self.last_player,
                self.forced_lead,
                self.pass_bonus_pending,
                self.team_points,
            )
        )
        self.advance(move)

    def advance(self, move: Move) -> None:
        """Make `move` without remembering it: for playouts on a copy."""
        seat = self.turn
        if move < MOVE_COUNT:
            tile = move >> 2
            end = move & 3
            bit = BIT[tile]
            before_left = left = self.left
            before_right = right = self.right
            hand = self.hands[seat] ^ bit
            self.hands[seat] = hand
            in_hands = self.in_hands ^ bit
            self.in_hands = in_hands
            if end == LEFT_END:
                left = PIPS[tile] - left
                self.left = left
            elif end == RIGHT_END:
                right = PIPS[tile] - right
                self.right = right
            else:
                self.left = left = HIGH[tile]
                self.right = right = LOW[tile]
                self.forced_lead = -1
            self.last_player = seat
            if not hand:
                self.outcome = DOMINO
                self.closer = seat
                # V9: the last tile fitted both ends, and they showed different numbers.
                self.capicua = (
                    end != LEAD
                    and before_left != before_right
                    and {HIGH[tile], LOW[tile]} == {before_left, before_right}
                )
            elif self.drawn == len(self.boneyard) and not (in_hands & (self.fits[left] | self.fits[right])):
                self.outcome = TRANQUE
                self.closer = seat
            else:
                self.turn = (seat + 1) % self.players
        elif move == DRAW_MOVE:
            bit = BIT[self.boneyard[self.drawn]]
            self.drawn += 1
            self.hands[seat] |= bit
            self.in_hands |= bit
            # C1: a draw that empties the boneyard with nobody able to play is a tranque.
            if self.drawn == len(self.boneyard) and not (
                self.in_hands & (self.fits[self.left] | self.fits[self.right])
            ):
                self.outcome = TRANQUE
                self.closer = self.last_player
        else:
            if self.pass_points:
                self._score_pass(seat)
            self.turn = (seat + 1) % self.players

    def _score_pass(self, passer: int) -> None:
        """V6: a pass scores for the last player's team, unless the passer is their partner."""
        last = self.last_player
        half = self.players // 2
        if last < 0 or last % half == passer % half:
            return
        points = list(self.team_points)
        points[last % half] += 2 if self.pass_bonus_pending else 1
        self.pass_bonus_pending = False
        self.team_points = tuple(points)

    def pop(self) -> Move:
        """Undo the last `push`; returns the move undone."""
        move, seat, left, right, last_player, forced_lead, bonus_pending, team_points = self.history.pop()
        self.team_points = team_points
        self.turn = seat
        self.left = left
        self.right = right
        self.last_player = last_player
        self.forced_lead = forced_lead
        self.pass_bonus_pending = bonus_pending
        self.outcome = ONGOING
        self.closer = -1
        self.capicua = False
        if move < MOVE_COUNT:
            bit = BIT[move >> 2]
            self.hands[seat] ^= bit
            self.in_hands ^= bit
        elif move == DRAW_MOVE:
            self.drawn -= 1
            bit = BIT[self.boneyard[self.drawn]]
            self.hands[seat] ^= bit
            self.in_hands ^= bit
        return move

    def playout(self, random: Callable[[], float]) -> None:
        """Play the round out with uniformly random legal moves (no undo), as a rollout does:
        each turn `legal_moves()[chance.below(n)]` of its n moves, where `chance` is a
        `SplitFloat` over `random` and a turn with one legal move draws nothing. The moves
        are found without listing them, so a rollout costs a few calls of `random` and no
        tuples."""
        chance = SplitFloat(random)
        hands = self.hands
        fits = self.fits
        while not self.outcome:
            left = self.left
            if left >= 0:
                seat = self.turn
                right = self.right
                playable = hands[seat] & (fits[left] | fits[right])
                if not playable:
                    self.advance(DRAW_MOVE if self.drawn < len(self.boneyard) else PASS_MOVE)
                    continue
                count = _play_count(playable, left, right, fits)
                self.advance(_nth_play(playable, left, right, fits, chance.below(count) if count > 1 else 0))
                continue
            moves = self.legal_moves()  # the lead
            count = len(moves)
            self.advance(moves[chance.below(count) if count > 1 else 0])

    def timeout_move(self) -> Move:
        """R15/C10: the playable tile with most pips (ties: higher high half), left end first."""
        moves = self.legal_moves()
        plays = [m for m in moves if m < MOVE_COUNT]
        if not plays:
            return moves[0]
        return max(plays, key=lambda m: (PIPS[m >> 2], HIGH[m >> 2], -(m & 3)))


def _restore_state(fields: dict[str, object]) -> RoundState:
    """The inverse of `RoundState.__reduce__`."""
    state = RoundState(0, [], [], 0, drawing=False)
    for name, value in fields.items():
        setattr(state, name, value)
    return state
