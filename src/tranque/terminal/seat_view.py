"""One seat's view of its table, kept from the frames the server sends anyway, as the browser
keeps its table (web/js/table_state.js): a `sync` gives it whole, each numbered `event`
changes it, and the turn's `options` give its legal actions. `tranque bot run` chooses on
`player_view`, the same `PlayerView` a fresh `sync` would give (docs/protocol.md), without
asking the server for one each turn (docs/bots.md: a bot's socket has a message budget).

>>> from tranque.engine import Game, Rules
>>> game = Game(Rules.preset("clasico", players=2), seed=4)
>>> seat = SeatView()
>>> seat.sync({"seq": 7, "you": 0, "rules": game.rules.to_json(), "view": game.view(0).to_json(),
...            "turn": None, "seats": [], "phase": "playing", "results": []})
>>> options = [action.to_json() for action in game.view(0).legal_actions]  # the turn's options
>>> seat.player_view(options) == game.view(0)
True
"""

from __future__ import annotations

import copy
from enum import Enum
from typing import Any

from tranque.engine import FirstLead, PlayerView, Rules, Tile
from tranque.engine.scoring import scorer_of

Message = dict[str, Any]


class Fold(Enum):
    """What became of an event: folded in, already seen (a resume repeats), or one after a gap."""

    APPLIED = "applied"
    SEEN = "seen"
    GAP = "gap"


class SeatView:
    """The table as one seat knows it: its `PlayerView` as JSON (`view`, the form a `sync`
    carries), the last event's `seq`, the turn being played and each seat's state."""

    def __init__(self) -> None:
        self.seq: int | None = None  # None until a sync: nothing to fold events into
        self.rules: Rules | None = None
        self.you: int | None = None
        self.view: Message | None = None
        self.turn_id: int | None = None
        self.round = 0
        self.phase = "waiting"
        self.seat_states: dict[int, str] = {}

    # A whole snapshot ------------------------------------------------------------------

    def sync(self, message: Message) -> None:
        """Start again from a `sync` frame."""
        self.seq = message["seq"]
        self.rules = Rules.from_json(message["rules"])
        self.you = message["you"]
        self.phase = message["phase"]
        self.view = copy.deepcopy(message["view"])
        turn = message.get("turn")
        self.turn_id = None if turn is None else turn["turn_id"]
        self.round = message.get("round") or 0
        self.seat_states = {seat["seat"]: seat["state"] for seat in message.get("seats", [])}
        if self.view is not None and "pass_bonus_pending" not in self.view:
            # The sync leaves it out; the game's first scoring pass is still to come when no
            # pass has scored in any round so far (ponce, C6).
            scored = any(any(r.get("pass_points", {}).values()) for r in message.get("results", []))
            scored = scored or any(self.view["round_pass_points"])
            self.view["pass_bonus_pending"] = self.rules.pass_points and not scored

    # One event -------------------------------------------------------------------------

    def event(self, message: Message) -> Fold:
        """Fold a numbered `event` frame in (or say it was seen already, or comes after a gap)."""
        if self.seq is None:
            return Fold.GAP
        seq = message["seq"]
        if seq <= self.seq:
            return Fold.SEEN
        if seq != self.seq + 1:
            return Fold.GAP
        self.seq = seq
        handler = getattr(self, "_" + message["kind"], None)
        if handler is not None:
            handler(message.get("data") or {})
        return Fold.APPLIED

    def _seat(self, data: Message) -> None:
        self.seat_states[data["seat"]] = data["state"]

    def _game_started(self, data: Message) -> None:
        self.phase = "playing"
        if self.view is not None and self.rules is not None:  # a rematch: the first scoring pass again
            self.view["pass_bonus_pending"] = self.rules.pass_points

    def _round_started(self, data: Message) -> None:
        rules = self.rules
        assert rules is not None
        pending = rules.pass_points if self.view is None else self.view.get("pass_bonus_pending", False)
        if data["round"] == 0:
            pending = rules.pass_points
        self.phase, self.round, self.turn_id = "playing", data["round"], None
        self.view = {
            "seat": self.you,
            "preset": rules.preset_name,
            "hand": list(data["hand"] or []),
            "line": [],
            "layout": [],
            "ends": None,
            "hand_counts": list(data["hand_counts"]),
            "boneyard_count": data["boneyard_count"],
            "turn": data["starter"],
            "starter": data["starter"],
            "last_player": None,
            "events": [],
            "legal_actions": [],
            "forced_lead": None,
            "scores": list(data["scores"]),
            "goals": list(data["goals"]),
            "round_pass_points": [0] * (rules.players // 2),
            "pass_bonus_pending": pending,
            "is_over": False,
            "result": None,
            "revealed_hands": None,
        }

    def _turn(self, data: Message) -> None:
        self.turn_id = data["turn_id"]
        if self.view is not None:
            self.view["turn"] = data["seat"]

    def _action(self, data: Message) -> None:
        view = self.view
        assert view is not None
        seat, action = data["seat"], data["action"]
        kind = action["type"]
        view["legal_actions"], view["forced_lead"] = [], None
        if kind == "play":
            view["last_player"] = seat  # the engine's: the seat that laid the last tile
            tile = Tile.parse(action["tile"])
            laid = self._laid(tile, action["side"], view["ends"])
            if action["side"] == "left":
                view["layout"].insert(0, list(laid))
                view["line"].insert(0, str(tile))
            else:
                view["layout"].append(list(laid))
                view["line"].append(str(tile))
            view["hand_counts"][seat] -= 1
            if seat == self.you:
                view["hand"] = [text for text in view["hand"] if Tile.parse(text) != tile]
            view["events"].append(
                {"type": "play", "seat": seat, "tile": str(tile), "side": action["side"], "laid": list(laid)}
            )
            view["turn"] = (seat + 1) % len(view["hand_counts"])
        elif kind == "draw":
            view["hand_counts"][seat] += 1
            view["boneyard_count"] -= 1
            drawn = data.get("drawn")
            event: Message = {"type": "draw", "seat": seat}
            if drawn is not None and seat == self.you:
                view["hand"] = sorted([*view["hand"], drawn], key=Tile.parse)
                event["tile"] = drawn
            view["events"].append(event)
        else:
            view["events"].append({"type": "pass", "seat": seat})
            view["turn"] = (seat + 1) % len(view["hand_counts"])
        if data.get("ends") is not None:
            view["ends"] = list(data["ends"])
        scores = data.get("scores")
        if scores is not None:  # ponce: a pass that scored, counted at once (C6)
            points = view["round_pass_points"]
            for team, (now, before) in enumerate(zip(scores, view["scores"], strict=True)):
                if team < len(points):
                    points[team] += now - before
            view["scores"] = list(scores)
            view["pass_bonus_pending"] = False
        self.turn_id = None

    @staticmethod
    def _laid(tile: Tile, side: str | None, ends: list[int] | None) -> tuple[int, int]:
        """The tile's halves as it lies, left to right (the engine's `PlayEvent.laid`)."""
        high, low = tile.high, tile.low
        if ends is None or side is None:
            return (high, low)
        if side == "left":
            return (high + low - ends[0], ends[0])
        return (ends[1], high + low - ends[1])

    def _round_ended(self, data: Message) -> None:
        self.phase, self.turn_id = "between_rounds", None
        if self.view is not None:
            self.view.update(
                is_over=True,
                result=data["result"],
                revealed_hands=data["hands"],
                scores=list(data["scores"]),
                goals=list(data["goals"]),
                legal_actions=[],
            )

    def _game_ended(self, data: Message) -> None:
        self.phase, self.turn_id = "finished", None

    # What a bot needs ------------------------------------------------------------------

    def game_over_after(self, data: Message) -> bool:
        """Whether the round that ended with `round_ended`'s `data` ended the game too (a side
        reached the target: R14 and each preset's own), so no `ready` is due after it."""
        assert self.rules is not None
        return bool(scorer_of(self.rules).game_winners(self.rules, data["scores"], data["goals"]))

    def player_view(self, legal_actions: list[Message]) -> PlayerView:
        """The seat's `PlayerView` now, with the turn's `legal_actions` (from `options`)."""
        assert self.view is not None and self.rules is not None
        forced = None
        plays = [a for a in legal_actions if a["type"] == "play"]
        if (
            self.rules.first_round_lead is FirstLead.HIGHEST_DOUBLE
            and self.round == 0
            and self.view["ends"] is None
            and len(legal_actions) == 1
            and plays
        ):
            forced = plays[0]["tile"]  # R6: the first round's lead, the one thing it may do
        data = {**self.view, "legal_actions": legal_actions}
        if legal_actions:
            data["forced_lead"] = forced
        return PlayerView.from_json(data, self.rules)

    def own_state(self) -> str | None:
        """This seat's state (`present`, `away`, `covered`), as the last `seat` event said."""
        return None if self.you is None else self.seat_states.get(self.you)
