"""`PlayerView`: exactly what R17 lets one seat know, with no way back to the round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine.actions import Action
from tranque.engine.events import Event
from tranque.engine.rules import Rules
from tranque.engine.scoring import RoundResult
from tranque.engine.tiles import Tile


@dataclass(frozen=True)
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
