"""The bot interface: a bot sees one `PlayerView` and returns one of its legal actions."""

from __future__ import annotations

import random
from typing import Protocol

from tranque.engine import Action, IllegalAction, Play, PlayerView


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


def ends_after(view: PlayerView, action: Action) -> tuple[int, int] | None:
    """The line's ends once `action`, a play, is made from `view`; None for a draw or a pass."""
    if not isinstance(action, Play):
        return None
    tile = action.tile
    if view.ends is None or action.side is None:
        return (tile.high, tile.low)
    left, right = view.ends
    if action.side.value == "left":
        return (tile.pips - left, right)
    return (left, tile.pips - right)
