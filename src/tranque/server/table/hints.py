"""«Pista»: the expert's suggestion for a seat's move at a practice table (docs/protocol.md, `hint`).

A hint is computed from the seat's own `PlayerView` and nothing else, exactly as a bot
decides (R17: the other hands and the pozo stay hidden), by the `expert` level through the
server's `Bots` (table/bots.py), so the search runs in a worker, never on the event loop.
The table's actor decides it (`commands.Hint`) and stores the fact as a `hint` event
(`events.HintGiven`); a game in which hints were used says so in its record and its
summary (`with_hints`, `players.archive.finished_game`).
"""

from __future__ import annotations

from typing import Any

from tranque.engine import Action, Game, PlayerView
from tranque.server.table.bots import Bots
from tranque.server.table.state import TableState

HINT_LEVEL = "expert"


def hint_view(game: Game, seat: int) -> PlayerView:
    """What a hint for `seat` is computed from: that seat's own view of the game."""
    return game.view(seat)


async def suggest(bots: Bots, game: Game, seat: int) -> Action:
    """The expert's choice for `seat`, one of its legal actions, from its own view alone."""
    return await bots.choose(HINT_LEVEL, hint_view(game, seat))


def with_hints(record: dict[str, Any], state: TableState) -> dict[str, Any]:
    """A game's record, and how many hints each seat used (`"hints": [2, 0]`) when any did.

    The key is the server's, beside `table` and the revealed seeds: the engine's record
    format is unchanged, so `tranque verify` and `POST /api/verify` check it as any other."""
    counts = state.hint_counts()
    if not any(counts):
        return record
    return {**record, "hints": counts}
