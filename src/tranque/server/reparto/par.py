"""The par of a day and mode: the expert team's own result on the day's deals, every seat
(the person's too) played by the expert, the game played exactly as a table of the day plays
it (the same rules, deals and starters). Pure and CPU-bound: run in a worker
(`worker_pools.WorkerPool`), once per day and mode, and kept in the store.
"""

from __future__ import annotations

import hashlib
from typing import Any

from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.engine import Game
from tranque.engine.rules import FirstLead
from tranque.server.lobby.registry import shared_deal_rules
from tranque.server.reparto.deals import mode_rules, source


def play_par(seed: bytes, mode: str, hands: int, level: str) -> dict[str, Any]:
    """`{"level", "points": [[team 0, team 1] per hand], "scores", "diff"}`: `diff` is side 0's
    points minus side 1's, side 0 being the person's side at a table of the day."""
    rules = shared_deal_rules(mode_rules(mode, hands))
    if rules.first_round_lead is FirstLead.RANDOM_ANY:  # the reparto's preset leads by the deal
        raise ValueError("a reparto preset's first lead must come from the deal")
    secrets_of = source(seed, mode)
    game = Game(rules, seed_for_round=lambda number: secrets_of(number).seed)
    bot_seed = int.from_bytes(hashlib.sha256(b"tranque-reparto-par:" + seed).digest()[:4], "big")
    bots = [make_bot(level, seed=bot_seed * 16 + seat) for seat in range(rules.players)]
    play_out(game, bots)
    scores = list(game.scores)
    return {
        "level": level,
        "points": [list(result.points) for result in game.results],
        "scores": scores,
        "diff": scores[0] - scores[1],
    }
