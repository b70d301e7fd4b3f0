"""The bot interface: a bot sees one `PlayerView` and returns one of its legal actions."""

from __future__ import annotations

import random
from typing import Protocol

from tranque.engine import Action, IllegalAction, PlayerView


class Bot(Protocol):
    name: str

    def choose(self, view: PlayerView) -> Action:
        """One of `view.legal_actions`."""
        ...


def legal_choices(view: PlayerView) -> tuple[Action, ...]:
    """The actions a bot chooses among; a clear `IllegalAction` when its seat may not act."""
    if view.is_over:
        raise IllegalAction("round_over")
    if view.seat is None or view.seat != view.turn or not view.legal_actions:
        raise IllegalAction("not_your_turn", turn=view.turn)
    return view.legal_actions


def bot_rng(seed: int | None) -> random.Random:
    """A bot's own randomness: reproducible with a seed, else from the OS."""
    return random.Random(seed) if seed is not None else random.Random()
