"""`MemoryGameResults`: finished games read across players, in memory."""

from __future__ import annotations

import copy
from collections.abc import Callable

from tranque.server.store.game_results import GameResult
from tranque.server.store.memory.data import MemoryData
from tranque.server.store.players import GamePlayerRow


class MemoryGameResults(MemoryData):
    """`GameResultStore` in memory."""

    async def games_together(
        self, first_id: int, second_id: int, viewer_id: int | None, limit: int
    ) -> list[GameResult]:
        return self._newest(lambda accounts: {first_id, second_id} <= accounts, viewer_id, limit)

    async def games_of_any(self, user_ids: list[int], viewer_id: int | None, limit: int) -> list[GameResult]:
        wanted = set(user_ids)
        return self._newest(lambda accounts: bool(wanted & accounts), viewer_id, limit)

    def _newest(
        self, chosen: Callable[[set[int]], bool], viewer_id: int | None, limit: int
    ) -> list[GameResult]:
        found = []
        for game_id, players in self._game_players.items():
            accounts = {player.user_id for player in players}
            game = self._games[game_id]
            if chosen(accounts) and (not game.private or viewer_id in accounts):
                found.append(self._result(game_id, players))
        found.sort(key=lambda result: (result.finished_at, result.game_id), reverse=True)
        return found[:limit]

    def _result(self, game_id: str, players: list[GamePlayerRow]) -> GameResult:
        game = self._games[game_id]
        return GameResult(
            game.game_id,
            game.finished_at,
            game.preset,
            game.format,
            game.players,
            game.competitive,
            game.rated,
            game.private,
            copy.deepcopy(game.summary),
            list(players),
        )
