"""Helpers for bot tests: real positions to look at (every seating of every preset is
`COMBOS` in tests/engine/deals.py).

Positions come from whole rounds played by `greedy` bots from fixed seeds, so the tests see
passes, draws, ponce pass points and late endgames without spelling each one out.
"""

from __future__ import annotations

from collections.abc import Iterator

from tranque import Game, Round, Rules
from tranque.bots import make_bot
from tranque.engine import PlayerView


def rounds_with_views(rules: Rules, seed: int, rounds: int = 2) -> Iterator[tuple[Round, PlayerView]]:
    """(round, the view of the seat to act) before every action of the first `rounds` rounds
    of a seeded game of greedy bots. The round is the live one: read it before moving on."""
    game = Game(rules, seed=seed)
    bots = [make_bot("greedy", seed=seed * 10 + seat) for seat in range(rules.players)]
    for number in range(rounds):
        rnd = game.round
        while not rnd.is_over and not game.is_over:
            view = game.view(rnd.turn)
            yield rnd, view
            game.apply(bots[rnd.turn].choose(view))
        if game.is_over or number == rounds - 1:
            return
        game.start_next_round()
