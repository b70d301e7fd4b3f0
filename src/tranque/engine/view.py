"""`PlayerView`: exactly what R17 lets one seat know, with no way back to the round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine.actions import Action, action_from_json
from tranque.engine.board import Board
from tranque.engine.events import Event, event_from_json
from tranque.engine.rules import Rules
from tranque.engine.scoring import RoundResult
from tranque.engine.tiles import Tile


@dataclass(frozen=True, repr=False)
class PlayerView:
    """One seat's knowledge of a round. Every field is an immutable copy.

    `seat` is None for a spectator, who has no hand and no legal actions. `revealed_hands`
    and `result` are filled only once the round is over (R17: all hands are shown).
    `layout` and the events' `laid` give the line's geometry: which half faces out where.
    """

    seat: int | None
    rules: Rules
    hand: tuple[Tile, ...]
    line: tuple[Tile, ...]
    layout: tuple[tuple[int, int], ...]  # the line left to right, each tile as laid
    ends: tuple[int, int] | None
    hand_counts: tuple[int, ...]
    boneyard_count: int
    turn: int
    starter: int
    last_player: int | None
    events: tuple[Event, ...]
    legal_actions: tuple[Action, ...]
    forced_lead: Tile | None  # R6: the tile this seat must lead with (only when it is to act)
    scores: tuple[int, ...]
    goals: tuple[int, ...]
    round_pass_points: tuple[int, ...]  # ponce: palitos earned by passes this round
    pass_bonus_pending: bool  # ponce: the game's first scoring pass is still to come
    is_over: bool
    result: RoundResult | None
    revealed_hands: tuple[tuple[Tile, ...], ...] | None

    def __repr__(self) -> str:
        who = "a spectator" if self.seat is None else f"seat {self.seat}"
        state = "over" if self.is_over else f"turn {self.turn}"
        return (
            f"<PlayerView of {who}, {self.rules.preset_name}, {state}, "
            f"{len(self.hand)} in hand, {len(self.line)} on the line>"
        )

    def __str__(self) -> str:
        return self.board()

    def board(self, lang: str = "es") -> str:
        """What this seat knows as text (`str(view)` in Spanish): its own hand, how many tiles
        the others hold (every hand once the round is over), the line and whose turn it is.
        See `tranque.engine.board`."""
        hands: list[tuple[Tile, ...] | None] = [None] * len(self.hand_counts)
        if self.revealed_hands is not None:
            hands = list(self.revealed_hands)
        elif self.seat is not None:
            hands[self.seat] = self.hand
        return Board(
            rules=self.rules,
            layout=self.layout,
            ends=self.ends,
            hands=hands,
            hand_counts=self.hand_counts,
            boneyard_count=self.boneyard_count,
            turn=None if self.is_over else self.turn,
            legal_actions=self.legal_actions,
            scores=self.scores,
            goals=self.goals,
            result=self.result,
            seen_by=self.seat,
            spectator=self.seat is None,
        ).text(lang)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "preset": self.rules.preset_name,
            "hand": [str(t) for t in self.hand],
            "line": [str(t) for t in self.line],
            "layout": [list(pair) for pair in self.layout],
            "ends": None if self.ends is None else list(self.ends),
            "hand_counts": list(self.hand_counts),
            "boneyard_count": self.boneyard_count,
            "turn": self.turn,
            "starter": self.starter,
            "last_player": self.last_player,
            "events": [e.to_json() for e in self.events],
            "legal_actions": [a.to_json() for a in self.legal_actions],
            "forced_lead": None if self.forced_lead is None else str(self.forced_lead),
            "scores": list(self.scores),
            "goals": list(self.goals),
            "round_pass_points": list(self.round_pass_points),
            "is_over": self.is_over,
            "result": None if self.result is None else self.result.to_json(),
            "revealed_hands": None
            if self.revealed_hands is None
            else [[str(t) for t in hand] for hand in self.revealed_hands],
        }

    @staticmethod
    def from_json(data: dict[str, Any], rules: Rules) -> PlayerView:
        """The view `to_json` gave, back (with the table's `rules`, which the JSON only names):
        what a program playing over the server's protocol rebuilds from a `sync` frame's
        `view`, whose `line` may also be the boxes the tiles lie in (each with its `tile`).
        The JSON has never carried `pass_bonus_pending` (ponce's first scoring pass, which
        only the game knows): it is read if present, else False.

        >>> from tranque.engine import Game
        >>> view = Game(Rules.preset("clasico"), seed=3).view(0)
        >>> PlayerView.from_json(view.to_json(), view.rules) == view
        True
        """
        ends = data["ends"]
        forced = data["forced_lead"]
        result = data["result"]
        revealed = data["revealed_hands"]
        return PlayerView(
            seat=data["seat"],
            rules=rules,
            hand=tuple(Tile.parse(text) for text in data["hand"]),
            line=tuple(Tile.parse(item["tile"] if isinstance(item, dict) else item) for item in data["line"]),
            layout=tuple((int(left), int(right)) for left, right in data["layout"]),
            ends=None if ends is None else (int(ends[0]), int(ends[1])),
            hand_counts=tuple(data["hand_counts"]),
            boneyard_count=data["boneyard_count"],
            turn=data["turn"],
            starter=data["starter"],
            last_player=data["last_player"],
            events=tuple(event_from_json(event) for event in data["events"]),
            legal_actions=tuple(action_from_json(action) for action in data["legal_actions"]),
            forced_lead=None if forced is None else Tile.parse(forced),
            scores=tuple(data["scores"]),
            goals=tuple(data["goals"]),
            round_pass_points=tuple(data["round_pass_points"]),
            pass_bonus_pending=bool(data.get("pass_bonus_pending", False)),
            is_over=data["is_over"],
            result=None if result is None else RoundResult.from_json(result),
            revealed_hands=None
            if revealed is None
            else tuple(tuple(Tile.parse(text) for text in hand) for hand in revealed),
        )
