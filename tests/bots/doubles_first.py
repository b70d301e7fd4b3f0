"""A small bot of the kind a newcomer writes, for the tests that run one by import path."""

from __future__ import annotations

import random

from tranque.engine import Action, Play, PlayerView


class DoublesFirst:
    """Doubles first, then the heaviest tile; draws or passes when that is all there is."""

    name = "doubles-first"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView) -> Action:
        def worth(action: Action) -> tuple[bool, int]:
            if isinstance(action, Play):
                return (action.tile.is_double, action.tile.pips)
            return (False, -1)

        best = max(worth(action) for action in view.legal_actions)
        return self.rng.choice([action for action in view.legal_actions if worth(action) == best])


class NoChoose:
    """Looks like a bot class, but cannot choose."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed


class NeedsAName:
    """A bot whose constructor wants something the arena cannot give."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(self, view: PlayerView) -> Action:
        return view.legal_actions[0]
