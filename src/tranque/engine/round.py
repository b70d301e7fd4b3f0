"""`Round`: one deal played out (a *mano*), the public face of `RoundState`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tranque.engine.actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Play, Side
from tranque.engine.bitboard import (
    DRAW_MOVE,
    LEAD,
    LEFT_END,
    MOVE_COUNT,
    PASS_MOVE,
    RIGHT_END,
    Move,
    RoundState,
)
from tranque.engine.board import Board, short_repr
from tranque.engine.deal import DealError, first_lead, parse_deal
from tranque.engine.events import DrawEvent, Event, PassEvent, PlayEvent, public
from tranque.engine.rules import Drawing, FirstLead, Rules
from tranque.engine.scoring import RoundResult, score_round
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, TILES, Mask, Tile, TileIndex, indices
from tranque.engine.view import PlayerView

# Indexed by a move's end; 3 is never a legal end.
_END_SIDE: Final = (None, Side.LEFT, Side.RIGHT, None)

# The one action<->move encoding: the action object of every move (interned at the
# surface), and back.
ACTION_OF_MOVE: Final[list[Action]] = [
    *(Play(TILES[m >> 2], _END_SIDE[m & 3]) for m in range(MOVE_COUNT)),
    DRAW,
    PASS,
]
MOVE_OF_ACTION: Final[dict[Action, Move]] = {
    action: move for move, action in enumerate(ACTION_OF_MOVE) if move >= MOVE_COUNT or move & 3 != 3
}

# Events are interned too: a play's event is fixed by seat, move and the number it covers.
_PLAY_EVENTS: Final[dict[int, PlayEvent]] = {}
_DRAW_EVENTS: Final[dict[int, DrawEvent]] = {}
_PASS_EVENTS: Final[list[PassEvent]] = [PassEvent(seat) for seat in range(6)]


def move_of(action: Action) -> Move:
    """The fast path's move for a well-formed action (a lead or a placement with its side)."""
    return MOVE_OF_ACTION[action]


def state_for(
    rules: Rules,
    hands: list[Mask],
    boneyard: list[TileIndex],
    starter: int,
    *,
    forced_lead: TileIndex = -1,
    pass_bonus_pending: bool = False,
) -> RoundState:
    """The one way to build the fast `RoundState` of a round played by `rules`."""
    return RoundState(
        rules.players,
        hands,
        boneyard,
        starter,
        drawing=rules.drawing is Drawing.UNTIL_PLAYABLE,
        forced_lead=forced_lead,
        pass_points=rules.pass_points,
        pass_bonus_pending=pass_bonus_pending and rules.pass_points,
        set_max=rules.set_max,
    )


def _tiles(mask: Mask) -> list[Tile]:
    return [TILES[i] for i in indices(mask)]


def _play_event(seat: int, move: Move, left: int, right: int) -> PlayEvent:
    """The event of `seat` making play `move` onto ends `left`/`right` (-1 before the lead)."""
    tile, end = move >> 2, move & 3
    covered = right if end == RIGHT_END else left
    key = (seat * MOVE_COUNT + move) * 16 + covered + 1
    event = _PLAY_EVENTS.get(key)
    if event is None:
        if end == LEAD:
            laid = (HIGH[tile], LOW[tile])
        elif end == LEFT_END:
            laid = (PIPS[tile] - left, left)
        else:
            laid = (right, PIPS[tile] - right)
        event = _PLAY_EVENTS[key] = PlayEvent(seat, TILES[tile], _END_SIDE[end], laid)
    return event


def _draw_event(seat: int, tile: TileIndex) -> DrawEvent:
    key = seat * 64 + tile
    event = _DRAW_EVENTS.get(key)
    if event is None:
        event = _DRAW_EVENTS[key] = DrawEvent(seat, TILES[tile])
    return event


class Round:
    """A round: deal it with `Round.deal`, then `legal_actions()` / `apply()` until `is_over`.

    Actions are written in the engine's notation (`Action.parse`), and `apply` answers with
    the event that happened, the line's geometry included:

    >>> from tranque.engine import Action, Game, IllegalAction, Rules
    >>> rnd = Game(Rules.preset("clasico"), seed=42).round
    >>> rnd.turn, [str(action) for action in rnd.legal_actions()]
    (2, ['6-6'])
    >>> rnd.apply(Action.parse("6-6"))
    PlayEvent(seat=2, tile=Tile(6, 6), side=None, laid=(6, 6))
    >>> rnd.apply(Action.parse("6-0i")).laid, rnd.ends
    ((0, 6), (0, 6))

    What the rules refuse raises `IllegalAction` with a code, and changes nothing:

    >>> try:
    ...     rnd.apply(Action.parse("5-5"))
    ... except IllegalAction as error:
    ...     print(error.code, "|", error, "|", error.text("en"))
    not_in_hand | No tienes la ficha 5-5. | You don't have the 5-5.
    """

    def __init__(self, rules: Rules, state: RoundState) -> None:
        self.rules = rules
        self._state = state
        # The full history (drawn tiles included); the line is derived from it on demand.
        self._events: list[Event] = []
        self._derived_at = 0
        self._layout: list[tuple[int, int]] = []
        self._line: list[Tile] = []
        self._legal: tuple[Move, ...] | None = None
        self._result: RoundResult | None = None
        self._dealt = state.hands.copy()
        self.dealt_boneyard: tuple[Tile, ...] = ()

    def __reduce__(self) -> tuple[type[Round], tuple[Rules, RoundState], tuple[object, ...]]:
        """Copy and pickle as rules, state and history (the line is derived again): same in both builds."""
        return (Round, (self.rules, self._state), (self._events, self._dealt, self.dealt_boneyard))

    def __setstate__(self, saved: tuple[list[Event], list[Mask], tuple[Tile, ...]]) -> None:
        self._events, self._dealt, self.dealt_boneyard = saved

    def __repr__(self) -> str:
        over = f"over: {self.result.kind.value}" if self.result is not None else None
        return short_repr("Round", self.rules, self.turn, len(self.line), over)

    def __str__(self) -> str:
        return self.board()

    def board(self, lang: str = "es") -> str:
        """The round as text (`str(round)` in Spanish): the line, its ends, every hand (a
        round holds the whole deal), the boneyard, and whose turn it is with their options,
        or how the round ended. See `tranque.engine.board`."""
        return self.board_of(lang)

    def board_of(
        self,
        lang: str,
        *,
        scores: Sequence[int] | None = None,
        goals: Sequence[int] | None = None,
        round_number: int | None = None,
        winners: Sequence[int] = (),
    ) -> str:
        """`board` with the game's totals, the round's number and the game's winners (a game
        may end before its round does: then nobody is to act)."""
        teams = self.rules.team_count
        over = self.is_over or bool(winners)
        return Board(
            rules=self.rules,
            layout=self.layout,
            ends=self.ends,
            hands=self.hands,
            hand_counts=self.hand_counts,
            boneyard_count=self.boneyard_count,
            turn=None if over else self.turn,
            legal_actions=() if over else self.legal_actions(),
            scores=scores if scores is not None else (0,) * teams,
            goals=goals if goals is not None else (0,) * teams,
            result=self.result,
            round_number=round_number,
            winners=winners,
        ).text(lang)

    def copy(self) -> Round:
        """An independent copy that shares what never changes (the rules, the events, the
        dealt boneyard): a few microseconds, to try a move on it. `copy.deepcopy` copies all."""
        other = Round(self.rules, self._state.copy())
        other._events = self._events.copy()
        other._dealt = self._dealt.copy()
        other.dealt_boneyard = self.dealt_boneyard
        return other

    @classmethod
    def deal(
        cls,
        rules: Rules,
        hands: Sequence[Sequence[Tile | str]],
        boneyard: Sequence[Tile | str] = (),
        *,
        first: bool = False,
        starter: int | None = None,
        pass_bonus_pending: bool | None = None,
    ) -> Round:
        """An explicit deal (C9). `first=True`: R6 picks the starter and the forced lead;
        `starter=k`: seat k leads with any tile. `boneyard[0]` is drawn first (C2)."""
        if first == (starter is not None):
            raise DealError("deal_first_or_starter")
        masks, rest = parse_deal(rules, hands, boneyard)
        if first and rules.first_round_lead is FirstLead.RANDOM_ANY:
            raise DealError("deal_first_lead_drawn")
        if starter is not None and not (isinstance(starter, int) and 0 <= starter < rules.players):
            raise DealError("deal_bad_starter", last=rules.players - 1, starter=repr(starter))
        bonus = first if pass_bonus_pending is None else pass_bonus_pending
        return cls.from_masks(rules, masks, rest, first=first, starter=starter, pass_bonus_pending=bonus)

    @classmethod
    def from_masks(
        cls,
        rules: Rules,
        hands: list[Mask],
        boneyard: list[TileIndex],
        *,
        first: bool,
        starter: int | None,
        pass_bonus_pending: bool = False,
    ) -> Round:
        """A round from bitmask hands and boneyard indices, already checked (`deal` checks
        a deal given as tiles and calls this): the fast way in for the bots and the tests."""
        forced = -1
        if first and rules.first_round_lead is FirstLead.HIGHEST_DOUBLE:
            starter, forced = first_lead(hands)
        assert starter is not None
        state = state_for(
            rules, hands, boneyard, starter, forced_lead=forced, pass_bonus_pending=pass_bonus_pending
        )
        round_ = cls(rules, state)
        round_.dealt_boneyard = tuple([TILES[i] for i in boneyard])
        return round_

    # What everybody may know ---------------------------------------------------------

    @property
    def turn(self) -> int:
        """The seat to act."""
        return self._state.turn

    @property
    def starter(self) -> int:
        """The seat that led the round."""
        return self._state.starter

    @property
    def ends(self) -> tuple[int, int] | None:
        """The line's open numbers, (left, right); None before the lead."""
        state = self._state
        return None if state.left < 0 else (state.left, state.right)

    @property
    def line(self) -> list[Tile]:
        """The tiles on the table, left to right (`layout` gives each one's halves as laid)."""
        self._derive()
        return list(self._line)

    @property
    def layout(self) -> list[tuple[int, int]]:
        """The line as laid, left to right: each tile's halves in table order."""
        self._derive()
        return list(self._layout)

    @property
    def dealt_hands(self) -> tuple[tuple[Tile, ...], ...]:
        """Every seat's hand as dealt, before any play or draw (referee only)."""
        return tuple(tuple(_tiles(h)) for h in self._dealt)

    @property
    def boneyard_count(self) -> int:
        """How many tiles are left to draw."""
        return self._state.boneyard_count

    @property
    def hand_counts(self) -> list[int]:
        """How many tiles each seat holds, by seat."""
        return [h.bit_count() for h in self._state.hands]

    @property
    def events(self) -> list[Event]:
        """The public history: draws without their tile (R17)."""
        return [public(e, None) for e in self._events]

    @property
    def last_player(self) -> int | None:
        """The seat that made the last play, draw or pass; None before the lead."""
        last = self._state.last_player
        return None if last < 0 else last

    @property
    def pass_points(self) -> tuple[int, ...]:
        """Ponce: palitos earned by passes so far this round, per team."""
        return self._state.team_points

    @property
    def pass_bonus_pending(self) -> bool:
        """Ponce: whether the game's first scoring pass, worth 2 palitos, is still to come."""
        return self._state.pass_bonus_pending

    @property
    def forced_lead(self) -> Tile | None:
        """R6: the tile the first round must be led with, until it is played."""
        state = self._state
        return TILES[state.forced_lead] if state.left < 0 and state.forced_lead >= 0 else None

    @property
    def is_over(self) -> bool:
        """Whether the round has ended, by a dominó or a tranque."""
        return bool(self._state.outcome)

    @property
    def result(self) -> RoundResult | None:
        """How the round ended and what it was worth (`RoundResult`); None while it is played."""
        if self._result is None and self._state.outcome:
            self._result = score_round(self.rules, self._state)
        return self._result

    # The referee's view --------------------------------------------------------------

    @property
    def hands(self) -> list[list[Tile]]:
        """Every seat's tiles now, by seat: the referee's view (a seat's own is in `view`)."""
        return [_tiles(h) for h in self._state.hands]

    @property
    def boneyard(self) -> list[Tile]:
        """The undrawn tiles in drawing order (referee only; never shown to players)."""
        state = self._state
        return [TILES[i] for i in state.boneyard[state.drawn :]]

    @property
    def full_events(self) -> list[Event]:
        """The history with every drawn tile (referee only)."""
        return list(self._events)

    def fast_state(self) -> RoundState:
        """A copy of the bitmask state, for search and tests of the fast path."""
        return self._state.copy()

    # Acting --------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal actions as the fast path's integer moves (`legal_actions` as objects)."""
        if self._legal is None:
            self._legal = self._state.legal_moves()
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take; empty once the round is over."""
        return [ACTION_OF_MOVE[m] for m in self.legal_moves()]

    def timeout_action(self) -> Action:
        """R15: the move the system makes when the clock of the seat to act runs out."""
        if self.is_over:
            raise IllegalAction("round_over")
        return ACTION_OF_MOVE[self._state.timeout_move()]

    def apply(self, action: Action, *, seat: int | None = None) -> Event:
        """Play `action` for the seat to act (if `seat` is given, it must be that seat) and
        return the event that happened: a lead's or a single placement's side filled in, a
        draw with the tile drawn. Raises `IllegalAction` and changes nothing if the rules do
        not allow it."""
        state = self._state
        if seat is not None and seat != state.turn and not state.outcome:
            raise IllegalAction("not_your_turn", turn=state.turn)
        legal = self.legal_moves()
        for move in legal:
            if ACTION_OF_MOVE[move] is action:
                break
        else:
            move = MOVE_OF_ACTION.get(action, -1) if isinstance(action, Action) else -1
            if move not in legal:
                move = self._interpret(action, legal)
        mover = state.turn
        event: Event
        if move < MOVE_COUNT:
            event = _play_event(mover, move, state.left, state.right)
        elif move == DRAW_MOVE:
            event = _draw_event(mover, state.boneyard[state.drawn])
        else:
            event = _PASS_EVENTS[mover]
        state.advance(move)
        self._events.append(event)
        self._legal = None
        return event

    def _derive(self) -> None:
        """Bring the line and the layout up to date with the events."""
        events = self._events
        for index in range(self._derived_at, len(events)):
            event = events[index]
            if isinstance(event, PlayEvent):
                if event.side is Side.LEFT:
                    self._layout.insert(0, event.laid)
                    self._line.insert(0, event.tile)
                else:
                    self._layout.append(event.laid)
                    self._line.append(event.tile)
        self._derived_at = len(events)

    def _interpret(self, action: object, legal: tuple[Move, ...]) -> Move:
        """The move a loosely given action means, or `IllegalAction` saying why not."""
        state = self._state
        if state.outcome:
            raise IllegalAction("round_over")
        if isinstance(action, Draw):
            return self._explain_draw(legal)
        if isinstance(action, Pass):
            if DRAW_MOVE in legal:
                raise IllegalAction("must_draw")
            raise IllegalAction("must_play", action="pass")
        if not isinstance(action, Play) or not isinstance(action.tile, Tile):
            raise IllegalAction("unknown_action", action=repr(action))
        tile = action.tile
        if not state.hands[state.turn] & BIT[tile.index]:
            raise IllegalAction("not_in_hand", tile=tile)
        if state.left < 0:
            if state.forced_lead >= 0:
                raise IllegalAction("forced_lead", tile=TILES[state.forced_lead])
            return tile.index * 4
        choices = [m for m in legal if m < MOVE_COUNT and m >> 2 == tile.index]
        if not choices:
            raise IllegalAction("does_not_fit", tile=tile, left=state.left, right=state.right)
        if len(choices) == 1 and (action.side is None or state.left == state.right):
            return choices[0]
        if action.side is None:
            raise IllegalAction("choose_end", tile=tile)
        end = state.left if action.side is Side.LEFT else state.right
        raise IllegalAction("wrong_end", tile=tile, side=action.side, end=end)

    def _explain_draw(self, legal: tuple[Move, ...]) -> Move:
        if self.rules.drawing is Drawing.NONE:
            raise IllegalAction("no_drawing")
        if PASS_MOVE in legal:
            raise IllegalAction("nothing_to_draw")
        raise IllegalAction("must_play", action="draw")

    # Views ---------------------------------------------------------------------------

    def view(
        self,
        seat: int | None,
        scores: Sequence[int] | None = None,
        goals: Sequence[int] | None = None,
    ) -> PlayerView:
        """What `seat` may know (R17); `seat=None` is a spectator. `scores`/`goals` are the
        game's totals, which a standalone round does not know."""
        state = self._state
        over = bool(state.outcome)
        own = state.hands[seat] if seat is not None else 0
        self._derive()
        teams = self.rules.team_count
        return PlayerView(
            seat=seat,
            rules=self.rules,
            hand=tuple(_tiles(own)),
            line=tuple(self.line),
            layout=tuple(self.layout),
            ends=self.ends,
            hand_counts=tuple(self.hand_counts),
            boneyard_count=state.boneyard_count,
            turn=state.turn,
            starter=state.starter,
            last_player=self.last_player,
            events=tuple(public(e, seat) for e in self._events),
            legal_actions=tuple(self.legal_actions()) if seat == state.turn and not over else (),
            forced_lead=self.forced_lead if seat == state.turn else None,
            scores=tuple(scores) if scores is not None else (0,) * teams,
            goals=tuple(goals) if goals is not None else (0,) * teams,
            round_pass_points=state.team_points,
            pass_bonus_pending=state.pass_bonus_pending,
            is_over=over,
            result=self.result if over else None,
            revealed_hands=tuple(tuple(_tiles(h)) for h in state.hands) if over else None,
        )
