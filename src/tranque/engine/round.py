"""`Round`: one deal played out (a *mano*), the public face of `RoundState`."""

from __future__ import annotations

import copy
from collections.abc import Sequence

from tranque.engine.actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Play, Side
from tranque.engine.deal import DealError, first_lead, parse_deal
from tranque.engine.events import DrawEvent, Event, PassEvent, PlayEvent, public
from tranque.engine.rules import Drawing, FirstLead, Rules
from tranque.engine.scoring import RoundResult, score_round
from tranque.engine.state import (
    DRAW_MOVE,
    LEAD,
    LEFT_END,
    MOVE_COUNT,
    PASS_MOVE,
    Move,
    RoundState,
)
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, TILES, WITH_NUMBER, Mask, Tile, TileIndex, indices
from tranque.engine.view import PlayerView

# Indexed by a move's end; 3 is never a legal end.
_END_SIDE = (None, Side.LEFT, Side.RIGHT, None)

# The action object of every move, and back: actions are interned at the surface.
ACTION_OF_MOVE: list[Action] = [Play(TILES[m >> 2], _END_SIDE[m & 3]) for m in range(MOVE_COUNT)]
ACTION_OF_MOVE += [DRAW, PASS]
MOVE_OF_ACTION: dict[Action, Move] = {
    action: move for move, action in enumerate(ACTION_OF_MOVE) if move >= MOVE_COUNT or move & 3 != 3
}
_END_NAME = {Side.LEFT: "izquierda", Side.RIGHT: "derecha"}


def _tiles(mask: Mask) -> list[Tile]:
    return [TILES[i] for i in indices(mask)]


class Round:
    """A round: deal it with `Round.deal`, then `legal_actions()` / `apply()` until `is_over`."""

    def __init__(self, rules: Rules, state: RoundState) -> None:
        self.rules = rules
        self._state = state
        # (seat, move, tile drawn or -1): everything else is derived from it on demand.
        self._log: list[tuple[int, Move, TileIndex]] = []
        self._derived_at = -1
        self._layout: list[tuple[int, int]] = []
        self._line: list[Tile] = []
        self._events: list[Event] = []
        self._legal: tuple[Move, ...] | None = None
        self._result: RoundResult | None = None
        self._dealt = state.hands.copy()
        self.dealt_boneyard: tuple[Tile, ...] = ()

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
            raise DealError("indica first=True (primera mano) o starter=k, y solo uno de los dos")
        masks, rest = parse_deal(rules, hands, boneyard)
        if first and rules.first_round_lead is FirstLead.RANDOM_ANY:
            raise DealError("en esta modalidad la primera salida se sortea: indica starter=k")
        if starter is not None and not (isinstance(starter, int) and 0 <= starter < rules.players):
            raise DealError(f"starter debe ser un asiento de 0 a {rules.players - 1}, no {starter!r}")
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
        forced = -1
        if first and rules.first_round_lead is FirstLead.HIGHEST_DOUBLE:
            starter, forced = first_lead(hands)
        assert starter is not None
        state = RoundState(
            rules.players,
            hands,
            boneyard,
            starter,
            drawing=rules.drawing is Drawing.UNTIL_PLAYABLE,
            forced_lead=forced,
            pass_points=rules.pass_points,
            pass_bonus_pending=pass_bonus_pending and rules.pass_points,
        )
        round_ = cls(rules, state)
        round_.dealt_boneyard = tuple(TILES[i] for i in boneyard)
        return round_

    # What everybody may know ---------------------------------------------------------

    @property
    def turn(self) -> int:
        return self._state.turn

    @property
    def starter(self) -> int:
        return self._state.starter

    @property
    def ends(self) -> tuple[int, int] | None:
        state = self._state
        return None if state.left < 0 else (state.left, state.right)

    @property
    def line(self) -> list[Tile]:
        self._derive()
        return list(self._line)

    @property
    def layout(self) -> list[tuple[int, int]]:
        """The line as laid, left to right: each tile's halves in table order."""
        self._derive()
        return list(self._layout)

    @property
    def dealt_hands(self) -> tuple[tuple[Tile, ...], ...]:
        return tuple(tuple(_tiles(h)) for h in self._dealt)

    @property
    def boneyard_count(self) -> int:
        return self._state.boneyard_count

    @property
    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self._state.hands]

    @property
    def events(self) -> list[Event]:
        """The public history: draws without their tile (R17)."""
        self._derive()
        return [public(e, None) for e in self._events]

    @property
    def last_player(self) -> int | None:
        last = self._state.last_player
        return None if last < 0 else last

    @property
    def pass_points(self) -> tuple[int, ...]:
        """Ponce: palitos earned by passes so far this round, per team."""
        return self._state.team_points

    @property
    def pass_bonus_pending(self) -> bool:
        return self._state.pass_bonus_pending

    @property
    def is_over(self) -> bool:
        return bool(self._state.outcome)

    @property
    def result(self) -> RoundResult | None:
        if self._result is None and self._state.outcome:
            self._result = score_round(self.rules, self._state)
        return self._result

    # The referee's view --------------------------------------------------------------

    @property
    def hands(self) -> list[list[Tile]]:
        return [_tiles(h) for h in self._state.hands]

    @property
    def boneyard(self) -> list[Tile]:
        """The undrawn tiles in drawing order (referee only; never shown to players)."""
        state = self._state
        return [TILES[i] for i in state.boneyard[state.drawn :]]

    @property
    def full_events(self) -> list[Event]:
        """The history with every drawn tile (referee only)."""
        self._derive()
        return list(self._events)

    def fast_state(self) -> RoundState:
        """A copy of the bitmask state, for search and tests of the fast path."""
        return self._state.copy()

    # Acting --------------------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        if self._legal is None:
            self._legal = self._state.legal_moves()
        return self._legal

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take; empty once the round is over."""
        return [ACTION_OF_MOVE[m] for m in self.legal_moves()]

    def timeout_action(self) -> Action:
        """R15: the move the system makes when the clock of the seat to act runs out."""
        if self.is_over:
            raise IllegalAction("La mano ya terminó.")
        return ACTION_OF_MOVE[self._state.timeout_move()]

    def apply(self, action: Action) -> Action:
        """Play `action` for the seat to act and return it as applied (a lead's or a single
        placement's side filled in). Raises `IllegalAction` and changes nothing if the rules
        do not allow it."""
        legal = self.legal_moves()
        for move in legal:
            if ACTION_OF_MOVE[move] is action:
                break
        else:
            move = MOVE_OF_ACTION.get(action, -1) if isinstance(action, (Play, Draw, Pass)) else -1
            if move not in legal:
                move = self._interpret(action, legal)
        state = self._state
        drawn = state.boneyard[state.drawn] if move == DRAW_MOVE else -1
        self._log.append((state.turn, move, drawn))
        state.push(move)
        self._legal = None
        return ACTION_OF_MOVE[move]

    def _derive(self) -> None:
        """Bring the line, the layout and the events up to date with the log."""
        if self._derived_at == len(self._log):
            return
        left = right = -1
        layout: list[tuple[int, int]] = []
        line: list[Tile] = []
        events: list[Event] = []
        for seat, move, drawn in self._log:
            if move == DRAW_MOVE:
                events.append(DrawEvent(seat, TILES[drawn]))
                continue
            if move == PASS_MOVE:
                events.append(PassEvent(seat))
                continue
            tile, end = move >> 2, move & 3
            if end == LEAD:
                left, right = HIGH[tile], LOW[tile]
                layout.append((left, right))
                line.append(TILES[tile])
            elif end == LEFT_END:
                layout.insert(0, (PIPS[tile] - left, left))
                line.insert(0, TILES[tile])
                left = PIPS[tile] - left
            else:
                layout.append((right, PIPS[tile] - right))
                line.append(TILES[tile])
                right = PIPS[tile] - right
            events.append(PlayEvent(seat, TILES[tile], _END_SIDE[end]))
        self._layout, self._line, self._events = layout, line, events
        self._derived_at = len(self._log)

    def _interpret(self, action: object, legal: tuple[Move, ...]) -> Move:
        """The move a loosely given action means, or `IllegalAction` saying why not."""
        state = self._state
        if state.outcome:
            raise IllegalAction("La mano ya terminó.")
        if isinstance(action, Draw):
            return self._explain_draw(legal)
        if isinstance(action, Pass):
            if DRAW_MOVE in legal:
                raise IllegalAction("No puedes pasar: todavía puedes robar del pozo.")
            raise IllegalAction("No puedes pasar: tienes una ficha que pega.")
        if not isinstance(action, Play) or not isinstance(action.tile, Tile):
            raise IllegalAction(f"Jugada desconocida: {action!r}.")
        tile = action.tile
        if not state.hands[state.turn] & BIT[tile.index]:
            raise IllegalAction(f"No tienes la ficha {tile}.")
        if state.left < 0:
            if state.forced_lead >= 0:
                raise IllegalAction(f"Debes salir con el {TILES[state.forced_lead]}.")
            return tile.index * 4
        choices = [m for m in legal if m < MOVE_COUNT and m >> 2 == tile.index]
        if not choices:
            raise IllegalAction(
                f"La ficha {tile} no pega en ninguna punta (las puntas son {state.left} y {state.right})."
            )
        if len(choices) == 1 and (action.side is None or state.left == state.right):
            return choices[0]
        if action.side is None:
            raise IllegalAction(f"La ficha {tile} pega en las dos puntas: elige izquierda o derecha.")
        end = state.left if action.side is Side.LEFT else state.right
        raise IllegalAction(f"La ficha {tile} no pega en la punta {_END_NAME[action.side]} ({end}).")

    def _explain_draw(self, legal: tuple[Move, ...]) -> Move:
        if self.rules.drawing is Drawing.NONE:
            raise IllegalAction("En esta modalidad no se roba: las fichas que sobran quedan fuera.")
        if PASS_MOVE in legal:
            raise IllegalAction("El pozo está vacío: te toca pasar.")
        raise IllegalAction("No puedes robar: tienes una ficha que pega.")

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
        sides = self.rules.side_count
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
            scores=tuple(scores) if scores is not None else (0,) * sides,
            goals=tuple(goals) if goals is not None else (0,) * sides,
            round_pass_points=state.team_points,
            pass_bonus_pending=state.pass_bonus_pending,
            is_over=over,
            result=copy.deepcopy(self.result) if over else None,
            revealed_hands=tuple(tuple(_tiles(h)) for h in state.hands) if over else None,
        )

    def playable_mask(self, seat: int) -> Mask:
        """Tiles of `seat` that fit an open end now (every tile before the lead)."""
        state = self._state
        if state.left < 0:
            return state.hands[seat]
        return state.hands[seat] & (WITH_NUMBER[state.left] | WITH_NUMBER[state.right])
