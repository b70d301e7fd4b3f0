"""Who may see a kept game: a public game anyone, a private one only its players.

Everything that serves a kept game (its summary, record, replay, a player's history) asks
`can_see`, and answers a game it may not show exactly as one that does not exist; the record
a table serves by its id (GET /api/tables/{id}/record) asks `may_see` the same question.

A game is private when its table was private and the game was casual: a competitive
(«competitiva») game counts for the rankings, and what counts is public once it ends, at a
private table too (`private_game`; the table says so before it starts, docs/playing.md).
A game of el reparto del día is private too: it shows every hand of the day's deals, which
nobody who has not played the day may see (its best game is shown by reparto/routes.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from tranque.server.store import GamePlayerRow, GameRow, UserRow
from tranque.server.table.state import TableKind, TableOptions


def private_game(options: TableOptions) -> bool:
    """Whether a game at a table of these options is kept private (its players' alone)."""
    if options.deals is not None and options.deals.startswith("reparto:"):
        return True  # el reparto del día (reparto/deals.py `is_reparto`)
    return options.kind is TableKind.PRIVATE and not options.competitive


def may_see(private: bool, player_ids: Iterable[int | None], user: UserRow | None) -> bool:
    if not private:
        return True
    return user is not None and any(player_id == user.user_id for player_id in player_ids)


def can_see(game: GameRow, players: Iterable[GamePlayerRow], user: UserRow | None) -> bool:
    return may_see(game.private, (player.user_id for player in players), user)
