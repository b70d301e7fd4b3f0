"""`MemorySeasons`: a peña's seasons and their games, in memory."""

from __future__ import annotations

import dataclasses
from typing import Any

from tranque.server.store.memory.data import MemoryData
from tranque.server.store.players import GameRow
from tranque.server.store.seasons import SeasonInfo, SeasonOverlaps


class MemorySeasons(MemoryData):
    """`SeasonStore` in memory; each method is one step of the loop."""

    async def create_season(
        self,
        pena_id: int,
        name: str,
        scope: str,
        points: str,
        starts_at: float,
        ends_at: float,
        created_by: int,
        at: float,
    ) -> SeasonInfo:
        for other in self._seasons.values():
            if other.pena_id == pena_id and other.starts_at < ends_at and starts_at < other.ends_at:
                raise SeasonOverlaps(other.name)
        self._season_serial += 1
        season = SeasonInfo(
            self._season_serial, pena_id, name, scope, points, starts_at, ends_at, created_by, at, starts_at
        )
        self._seasons[season.id] = season
        self._season_games[season.id] = {}
        return season

    async def season_by_id(self, season_id: int) -> SeasonInfo | None:
        return self._seasons.get(season_id)

    async def seasons_of_pena(self, pena_id: int) -> list[SeasonInfo]:
        found = [season for season in self._seasons.values() if season.pena_id == pena_id]
        return sorted(found, key=lambda season: (-season.starts_at, -season.id))

    async def add_season_games(
        self, season_id: int, records: list[tuple[str, dict[str, Any]]], scanned_until: float
    ) -> None:
        season = self._seasons.get(season_id)
        if season is None or season.final is not None:
            return
        kept = self._season_games[season_id]
        for game_id, record in records:
            kept.setdefault(game_id, record)
        if scanned_until > season.scanned_until:
            self._seasons[season_id] = dataclasses.replace(season, scanned_until=scanned_until)

    async def season_games(self, season_id: int, game_ids: list[str] | None = None) -> list[dict[str, Any]]:
        kept = self._season_games.get(season_id, {})
        wanted = kept.keys() if game_ids is None else [game_id for game_id in game_ids if game_id in kept]
        records = [kept[game_id] for game_id in wanted]
        return sorted(records, key=lambda record: (record["finished_at"], record["game_id"]))

    async def season_game_ids(self, season_id: int) -> list[str]:
        return list(self._season_games.get(season_id, {}))

    async def freeze_season(self, season_id: int, rows: list[dict[str, Any]], at: float) -> bool:
        season = self._seasons.get(season_id)
        if season is None or season.final is not None:
            return False
        self._seasons[season_id] = dataclasses.replace(season, final=rows, frozen_at=at)
        return True

    async def games_of_players(self, user_ids: list[int], since: float, until: float) -> list[GameRow]:
        wanted = set(user_ids)
        found = [
            self._games[game_id]
            for game_id, players in self._game_players.items()
            if any(player.user_id in wanted for player in players)
            and since <= self._games[game_id].finished_at < until
        ]
        return sorted(found, key=lambda game: (game.finished_at, game.game_id))
