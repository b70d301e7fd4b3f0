"""Who may see a kept game: a public game anyone, a private one only its players.

Everything that serves a kept game (its summary, record, replay, a player's history) asks
`can_see`, and answers a game it may not show exactly as one that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterable

from tranque.server.store import GamePlayerRow, GameRow, UserRow


def can_see(game: GameRow, players: Iterable[GamePlayerRow], user: UserRow | None) -> bool:
    if not game.private:
        return True
    return user is not None and any(player.user_id == user.user_id for player in players)
