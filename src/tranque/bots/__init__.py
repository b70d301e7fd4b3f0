"""Players that see only a `PlayerView` and return an action, from beginner to expert.

>>> from tranque.bots import bot_names, make_bot
>>> bot_names()[:2]
['random', 'greedy']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tranque.bots.base import Bot
from tranque.bots.expert import ExpertBot
from tranque.bots.heuristic import HeuristicBot
from tranque.bots.imported import BotPathError, is_bot_path, make_imported_bot
from tranque.bots.simple import GreedyBot, RandomBot


@dataclass(frozen=True)
class BotLevel:
    name: str
    title: str  # Spanish display name
    summary: str  # one line, Spanish
    factory: Callable[[int | None], Bot]


LEVELS: dict[str, BotLevel] = {
    level.name: level
    for level in [
        BotLevel("random", "Novato", "Juega cualquier ficha que pegue, al azar.", RandomBot),
        BotLevel("greedy", "Bota gorda", "Suelta siempre la ficha que pega con más puntos.", GreedyBot),
        BotLevel(
            "heuristic",
            "Jugador de patio",
            "Sigue los consejos: suelta lo pesado, recuerda los pases y ayuda a su compañero.",
            HeuristicBot,
        ),
        BotLevel(
            "expert",
            "Maestro",
            "Reparte muchas veces las fichas que no ve, juega cada mano hasta el final"
            " y le hace señas a su compañero.",
            ExpertBot,
        ),
    ]
}


def bot_names() -> list[str]:
    """Every level, weakest to strongest."""
    return list(LEVELS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot of level `name`, or of your own class named by import path, ``mypkg.mybot:MyBot``
    (see `tranque.bots.imported`); `seed` makes its random choices repeatable."""
    if is_bot_path(name):
        return make_imported_bot(name, seed)
    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"no hay un bot «{name}»; hay: {', '.join(LEVELS)}")
    return level.factory(seed)


__all__ = ["LEVELS", "Bot", "BotLevel", "BotPathError", "bot_names", "make_bot"]
