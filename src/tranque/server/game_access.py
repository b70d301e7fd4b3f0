"""Who may see a finished game: a public one anyone, a private one only its players (R17)."""

from __future__ import annotations

from tranque.server.store import GamePlayerRow, GameRow, UserRow


def can_see(game: GameRow, players: list[GamePlayerRow], user: UserRow | None) -> bool:
    if not game.private:
        return True
    return user is not None and any(player.user_id == user.user_id for player in players)
