"""`MemoryPlayers`: finished games, ratings, XP and leaderboards, in memory."""

from __future__ import annotations

import copy

from tranque.server.store.memory.data import MemoryData
from tranque.server.store.memory.social import relation_of
from tranque.server.store.players import (
    GamePlayerRow,
    GameRow,
    Leaderboard,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    Standing,
)


class MemoryPlayers(MemoryData):
    """`PlayerStore` in memory."""

    async def save_game(
        self,
        game: GameRow,
        players: list[GamePlayerRow],
        ratings: list[RatingRow],
        xp: list[tuple[str, int, int]],
    ) -> None:
        if game.game_id in self._games:
            return
        self._games[game.game_id] = copy.deepcopy(game)
        self._game_players[game.game_id] = sorted(players, key=lambda player: player.seat)
        for rating in ratings:
            self._ratings[rating.user_id, rating.pool] = rating
        for period, user_id, gained in xp:
            self._xp[period, user_id] = self._xp.get((period, user_id), 0) + gained

    async def load_game(self, game_id: str) -> GameRow | None:
        game = self._games.get(game_id)
        return copy.deepcopy(game) if game is not None else None

    async def kept_games(self, game_ids: list[str]) -> set[str]:
        return {game_id for game_id in game_ids if game_id in self._games}

    async def game_players(self, game_id: str) -> list[GamePlayerRow]:
        return list(self._game_players.get(game_id, []))

    async def ratings_of(self, user_ids: list[int], pool: str) -> dict[int, RatingRow]:
        found = (self._ratings.get((user_id, pool)) for user_id in user_ids)
        return {rating.user_id: rating for rating in found if rating is not None}

    async def xp_of(self, user_id: int) -> dict[str, int]:
        return {period: total for (period, user), total in self._xp.items() if user == user_id}

    def _xp_entries(self, period: str) -> list[Ranked]:
        return [
            Ranked(user_id, self._users[user_id].name, self._users[user_id].avatar, gained)
            for (of, user_id), gained in self._xp.items()
            if of == period
        ]

    def _rating_entries(self, pool: str) -> list[Ranked]:
        return [
            Ranked(
                row.user_id,
                self._users[row.user_id].name,
                self._users[row.user_id].avatar,
                row.shown,
                row.sigma,
                row.games,
            )
            for row in self._ratings.values()
            if row.pool == pool
        ]

    @staticmethod
    def _page(entries: list[Ranked], offset: int, limit: int, me: int | None) -> Leaderboard:
        ordered = sorted(entries, key=lambda entry: (-entry.value, entry.name.casefold()))
        page = ordered[offset : offset + limit]
        first = 1 + sum(entry.value > page[0].value for entry in entries) if page else offset + 1
        mine = next((entry for entry in entries if entry.user_id == me), None)
        standing = (
            None if mine is None else Standing(1 + sum(entry.value > mine.value for entry in entries), mine)
        )
        return Leaderboard(page, len(entries), first, standing)

    async def xp_leaderboard(
        self, period: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        return self._page(self._xp_entries(period), offset, limit, me)

    async def rating_leaderboard(
        self, pool: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        return self._page(self._rating_entries(pool), offset, limit, me)

    def _played(self, user_id: int) -> list[GamePlayerRow]:
        return [
            player
            for players in self._game_players.values()
            for player in players
            if player.user_id == user_id
        ]

    def _stats(self, user_id: int) -> list[PlayerStat]:
        tally: dict[tuple[str, str], tuple[int, int]] = {}
        for player in self._played(user_id):
            played, won = tally.get((player.preset, player.format), (0, 0))
            tally[player.preset, player.format] = (played + 1, won + player.won)
        return [
            PlayerStat(preset, fmt, played, won) for (preset, fmt), (played, won) in sorted(tally.items())
        ]

    def _pool_rating(self, rating: RatingRow, history: int) -> PoolRating:
        points = [
            RatingPoint(player.format, player.finished_at, player.mu_after, player.sigma_after)
            for player in sorted(self._played(rating.user_id), key=lambda player: player.finished_at)
            if player.format == rating.pool and player.mu_after is not None and player.sigma_after is not None
        ]
        return PoolRating(rating, points[max(0, len(points) - history) :])

    async def player_games(
        self, user_id: int, viewer_id: int | None, before: float | None, limit: int
    ) -> list[PlayedGame]:
        def visible(player: GamePlayerRow) -> bool:
            if not player.private or viewer_id == user_id:
                return True
            return any(other.user_id == viewer_id for other in self._game_players[player.game_id])

        found = [
            player
            for player in self._played(user_id)
            if (before is None or player.finished_at < before) and visible(player)
        ]
        found.sort(key=lambda player: player.finished_at, reverse=True)
        return [self._played_game(player) for player in found[:limit]]

    def _played_game(self, player: GamePlayerRow) -> PlayedGame:
        game = self._games[player.game_id]
        return PlayedGame(player, game.players, game.competitive, game.rated, copy.deepcopy(game.summary))

    async def player_page(
        self, user_id: int, viewer_id: int | None, periods: list[str], history: int, recent: int
    ) -> PlayerPage:
        totals = {period: self._xp[period, user_id] for period in periods if (period, user_id) in self._xp}
        rated = sorted(
            (row for row in self._ratings.values() if row.user_id == user_id), key=lambda row: row.pool
        )
        games = await self.player_games(user_id, viewer_id, None, recent)
        relation = None
        if viewer_id is not None and viewer_id != user_id:
            relation = relation_of(self, viewer_id, user_id)
        pools = [self._pool_rating(rating, history) for rating in rated]
        return PlayerPage(totals, self._stats(user_id), pools, games, relation)
