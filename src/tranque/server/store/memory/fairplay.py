"""`MemoryFairPlay`: the sampled games' fair-play figures, in memory."""

from __future__ import annotations

from tranque.server.store.fairplay import FairPlaySample, RatedGame
from tranque.server.store.memory.data import MemoryData
from tranque.server.store.players import GamePlayerRow


class MemoryFairPlay(MemoryData):
    """`FairPlayStore` in memory."""

    async def rated_games_after(self, after: tuple[float, str] | None, limit: int) -> list[RatedGame]:
        games = sorted(
            (
                RatedGame(game.game_id, game.finished_at, game.format)
                for game in self._games.values()
                if game.rated
            ),
            key=lambda game: (game.finished_at, game.game_id),
        )
        return [game for game in games if after is None or (game.finished_at, game.game_id) > after][:limit]

    async def save_fairplay_samples(self, samples: list[FairPlaySample]) -> None:
        for sample in samples:
            if sample.game_id not in self._games:
                raise KeyError(sample.game_id)
            if sample.user_id not in self._users:
                raise KeyError(sample.user_id)
        for sample in samples:
            self._fairplay[sample.game_id, sample.user_id] = sample

    async def fairplay_sampled(self, game_id: str) -> bool:
        return any(key[0] == game_id for key in self._fairplay)

    async def fairplay_samples(self, since: float) -> list[FairPlaySample]:
        found = [sample for sample in self._fairplay.values() if sample.finished_at >= since]
        return sorted(found, key=lambda s: (s.finished_at, s.game_id, s.user_id))

    async def last_fairplay_sample(self) -> tuple[float, str] | None:
        keys = [(sample.finished_at, sample.game_id) for sample in self._fairplay.values()]
        return max(keys) if keys else None

    async def rated_results(self, since: float) -> list[GamePlayerRow]:
        found = [
            row
            for rows in self._game_players.values()
            for row in rows
            if row.finished_at >= since and row.mu_before is not None
        ]
        return sorted(found, key=lambda row: (row.finished_at, row.game_id, row.seat))
