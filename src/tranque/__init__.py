"""Tranque: dominó the way Colombia and the Caribbean play it."""

from tranque.engine import (
    Draw,
    Game,
    IllegalAction,
    Pass,
    Play,
    PlayerView,
    Round,
    RoundResult,
    Rules,
    RulesError,
    Side,
    Tile,
)

__all__ = [
    "Draw",
    "Game",
    "IllegalAction",
    "Pass",
    "Play",
    "PlayerView",
    "Round",
    "RoundResult",
    "Rules",
    "RulesError",
    "Side",
    "Tile",
]
__version__ = "0.1.0"
