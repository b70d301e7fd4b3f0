"""The rules engine: pure rules, no I/O, no clock, randomness only through a given seed."""

from tranque.engine import docstrings
from tranque.engine.actions import DRAW, PASS, Action, Draw, IllegalAction, Pass, Play, Side, action_from_json
from tranque.engine.deal import DealError
from tranque.engine.errors import EngineError
from tranque.engine.events import DrawEvent, Event, PassEvent, PlayEvent, event_from_json
from tranque.engine.game import Game
from tranque.engine.round import Round
from tranque.engine.rules import (
    Drawing,
    FirstLead,
    Mode,
    NextStart,
    Rules,
    RulesError,
    Scoring,
    TieStart,
    TranqueCount,
    TranqueTie,
)
from tranque.engine.scoring import RoundEnd, RoundResult
from tranque.engine.tiles import Tile, TileError
from tranque.engine.view import PlayerView

docstrings.restore(__name__)

__all__ = [
    "DRAW",
    "PASS",
    "Action",
    "DealError",
    "Draw",
    "DrawEvent",
    "Drawing",
    "EngineError",
    "Event",
    "FirstLead",
    "Game",
    "IllegalAction",
    "Mode",
    "NextStart",
    "Pass",
    "PassEvent",
    "Play",
    "PlayEvent",
    "PlayerView",
    "Round",
    "RoundEnd",
    "RoundResult",
    "Rules",
    "RulesError",
    "Scoring",
    "Side",
    "TieStart",
    "Tile",
    "TileError",
    "TranqueCount",
    "TranqueTie",
    "action_from_json",
    "event_from_json",
]
