"""The two simplest levels: `random` and `greedy` ("bota gorda")."""

from __future__ import annotations

from tranque.bots.base import bot_rng, legal_choices
from tranque.engine import Action, Play, PlayerView


class RandomBot:
    """Any legal action, uniformly."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = bot_rng(seed)

    def choose(self, view: PlayerView) -> Action:
        """One of `view.legal_actions`, uniformly at random."""
        return self._rng.choice(legal_choices(view))


def heaviest_first(action: Action) -> tuple[int, int]:
    """Sort key for "bota gorda": most pips, then the higher high half."""
    if isinstance(action, Play):
        return (action.tile.pips, action.tile.high)
    return (-1, -1)


class GreedyBot:
    """ "Bota gorda": the playable tile with the most pips; the end chosen at random."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = bot_rng(seed)

    def choose(self, view: PlayerView) -> Action:
        """The playable tile with the most pips (ties by the higher half, then at random)."""
        actions = legal_choices(view)
        best = max(heaviest_first(a) for a in actions)
        return self._rng.choice([a for a in actions if heaviest_first(a) == best])
