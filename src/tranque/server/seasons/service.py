"""A peña's seasons over the store (docs/penas.md#seasons): opening one, its live table and the
frozen table of a season that ended.

- A leader opens a season: a name, its first and last days (dates in Bogotá's time: it runs
  from the first day's midnight to the midnight after the last), what counts (`scope`) and a
  points rule (seasons/table.py). One season at a time: while one is scheduled or running no
  other opens; dates start today at the earliest, a season lasts at most `LONGEST_DAYS`.
- The games counted are kept as they are found (`catch_up`): each read of a season looks at
  the games its members finished since the last look, keeps those that count — checked
  against the peña's members of that moment, who joined before the game finished — and the
  table is computed from the kept ones. So a member who leaves keeps their games in the
  table, and nobody's earlier games are counted by joining later.
- A season is frozen once `GRACE_SECONDS` past its end (games recorded late still get in): a
  last look over all its dates, and its rows kept for good.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import replace
from typing import Any, Final
from zoneinfo import ZoneInfo

from tranque.server.penas.errors import PenaError
from tranque.server.penas.service import Penas
from tranque.server.seasons.table import (
    POINTS,
    SCOPES,
    GameRecord,
    SeasonRow,
    SeasonRules,
    Tally,
    counts,
    record_of_game,
)
from tranque.server.store import Store, UserRow
from tranque.server.store.penas import PenaRow
from tranque.server.store.seasons import SeasonInfo, SeasonOverlaps

ZONE: Final = ZoneInfo("America/Bogota")
LONGEST_DAYS: Final = 366
AHEAD_DAYS: Final = 366  # how far ahead a season may start
NAME_MOST: Final = 40
LATE_SECONDS: Final = 600.0  # a look goes back this far: games recorded a little after they ended
GRACE_SECONDS: Final = 3600.0  # a season is frozen this long after its end
CHUNK: Final = 250  # games read and added up at a time (about 3 ms), the loop free in between
QUIET_SECONDS: Final = 60.0  # a look that found nothing new is written down at most this often


def day_start(day: dt.date) -> float:
    return dt.datetime.combine(day, dt.time(), ZONE).timestamp()


def date_of(at: float) -> str:
    return dt.datetime.fromtimestamp(at, ZONE).date().isoformat()


def _day(text: str, parameter: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise PenaError(422, "season_dates", parameter=parameter) from None


def state_of(season: SeasonInfo, now: float) -> str:
    """ "scheduled" (not started), "live", or "ended"."""
    if now < season.starts_at:
        return "scheduled"
    return "live" if now < season.ends_at else "ended"


def rules_of(season: SeasonInfo) -> SeasonRules:
    return SeasonRules(season.pena_id, season.scope, season.points, season.starts_at, season.ends_at)


def row_json(rank: int, row: SeasonRow) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": row.name,
        "played": row.played,
        "won": row.won,
        "lost": row.lost,
        "tantos_for": row.tantos_for,
        "tantos_against": row.tantos_against,
        "difference": row.difference,
        "points": row.points,
    }


def record_json(record: GameRecord) -> dict[str, Any]:
    return {
        "game_id": record.game_id,
        "finished_at": record.finished_at,
        "rated": record.rated,
        "pena_id": record.pena_id,
        "seats": [list(seat) for seat in record.seats],
        "tantos": list(record.tantos),
        "winners": list(record.winners),
    }


def record_from_json(data: dict[str, Any]) -> GameRecord:
    return GameRecord(
        str(data["game_id"]),
        float(data["finished_at"]),
        bool(data["rated"]),
        None if data["pena_id"] is None else int(data["pena_id"]),
        tuple((None if u is None else int(u), int(team), str(name)) for u, team, name in data["seats"]),
        tuple(int(t) for t in data["tantos"]),
        tuple(int(t) for t in data["winners"]),
    )


class Seasons:
    def __init__(self, store: Store, penas: Penas) -> None:
        self.store = store
        self.penas = penas
        self._tallies: dict[int, Tally] = {}  # live season → its games added up so far

    # Opening --------------------------------------------------------------------------------

    async def open(
        self,
        user: UserRow,
        slug: str,
        name: str,
        starts: str,
        ends: str,
        scope: str,
        points: str,
        now: float,
    ) -> dict[str, Any]:
        pena = await self.penas.leader_of(user, slug)
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_MOST:
            raise PenaError(422, "season_name", parameter="name", most=str(NAME_MOST))
        if scope not in SCOPES:
            raise PenaError(422, "season_scope", parameter="scope")
        if points not in POINTS:
            raise PenaError(422, "season_points", parameter="points")
        first, last = _day(starts, "starts"), _day(ends, "ends")
        today = dt.datetime.fromtimestamp(now, ZONE).date()
        if last < first:
            raise PenaError(422, "season_dates_order", parameter="ends")
        if first < today:
            raise PenaError(422, "season_starts_past", parameter="starts")
        if (first - today).days > AHEAD_DAYS:
            raise PenaError(422, "season_starts_far", parameter="starts", most=str(AHEAD_DAYS))
        if (last - first).days + 1 > LONGEST_DAYS:
            raise PenaError(422, "season_too_long", parameter="ends", most=str(LONGEST_DAYS))
        current = await self._current(pena, now)
        if current is not None:
            raise PenaError(409, "season_open", name=current.name)
        try:
            season = await self.store.create_season(
                pena.id,
                name,
                scope,
                points,
                day_start(first),
                day_start(last + dt.timedelta(days=1)),
                user.user_id,
                now,
            )
        except SeasonOverlaps as taken:
            raise PenaError(409, "season_overlaps", name=str(taken)) from None
        return await self._json(season, now)

    async def _current(self, pena: PenaRow, now: float) -> SeasonInfo | None:
        """The season scheduled or running, if any."""
        return next((s for s in await self.store.seasons_of_pena(pena.id) if s.ends_at > now), None)

    # Reading --------------------------------------------------------------------------------

    async def listing(self, slug: str, viewer: UserRow | None, now: float) -> dict[str, Any]:
        """The peña's current season (scheduled or running) with its table, the past ones with
        theirs, and whether the viewer may open one."""
        pena = await self.penas.pena(slug)
        found = await self.store.seasons_of_pena(pena.id)
        current = next((s for s in found if s.ends_at > now), None)
        role = await self.store.pena_role(pena.id, viewer.user_id) if viewer is not None else None
        return {
            "pena": pena.slug,
            "current": await self._json(current, now) if current is not None else None,
            "past": [await self._json(s, now) for s in found if s.ends_at <= now],
            "may_open": role == "leader" and current is None,
            "scopes": list(SCOPES),
            "points": list(POINTS),
            "today": date_of(now),
        }

    async def season(self, slug: str, season_id: int, now: float) -> dict[str, Any]:
        pena = await self.penas.pena(slug)
        found = await self.store.season_by_id(season_id)
        if found is None or found.pena_id != pena.id:
            raise PenaError(404, "no_such_season")
        return await self._json(found, now)

    async def rows(self, season: SeasonInfo, now: float) -> list[dict[str, Any]]:
        """The season's rows: frozen ones of a season that ended, or computed from the games
        counted so far (looking for new ones first)."""
        if season.final is None and now >= season.ends_at + GRACE_SECONDS:
            await self.catch_up(season, now, everything=True)
            computed = await self._computed(season)
            await self.store.freeze_season(season.id, computed, now)
            self._tallies.pop(season.id, None)
            refreshed = await self.store.season_by_id(season.id)
            season = refreshed if refreshed is not None else season
        if season.final is not None:
            self._tallies.pop(season.id, None)
            return list(season.final)
        if now >= season.starts_at:
            await self.catch_up(season, now)
        return await self._computed(season)

    async def _computed(self, season: SeasonInfo) -> list[dict[str, Any]]:
        """The rows from the season's kept games: this process adds up only the games it had
        not added yet (a live season's table is read every few seconds by every viewer)."""
        tally = self._tallies.setdefault(season.id, Tally())
        new = [
            game_id for game_id in await self.store.season_game_ids(season.id) if game_id not in tally.games
        ]
        for first in range(0, len(new), CHUNK):  # a big season's first read yields between chunks
            for data in await self.store.season_games(season.id, new[first : first + CHUNK]):
                tally.add(record_from_json(data))
            await asyncio.sleep(0)
        return [row_json(rank, row) for rank, row in enumerate(tally.rows(season.points), start=1)]

    async def _json(self, season: SeasonInfo, now: float) -> dict[str, Any]:
        rows = await self.rows(season, now)
        return {
            "id": season.id,
            "name": season.name,
            "scope": season.scope,
            "points": season.points,
            "starts": date_of(season.starts_at),
            "ends": date_of(season.ends_at - 1),
            "starts_at": season.starts_at,
            "ends_at": season.ends_at,
            "state": state_of(season, now),
            "frozen": season.final is not None or (now >= season.ends_at + GRACE_SECONDS),
            "rows": rows,
        }

    # Counting -------------------------------------------------------------------------------

    async def catch_up(self, season: SeasonInfo, now: float, everything: bool = False) -> int:
        """Keep the games finished since the last look that count; how many new ones were kept."""
        until = min(now, season.ends_at)
        since = season.starts_at if everything else max(season.starts_at, season.scanned_until - LATE_SECONDS)
        if until <= since:
            return 0
        joined = {
            member.user_id: member.joined_at for member in await self.store.pena_members(season.pena_id)
        }

        def member_at(user_id: int, at: float) -> bool:
            return user_id in joined and joined[user_id] <= at

        rules = rules_of(season)
        found: list[tuple[str, dict[str, Any]]] = []
        tables: dict[str, int | None] = {}
        for game in await self.store.games_of_players(sorted(joined), since, until):
            record = record_of_game(game.game_id, game.finished_at, game.rated, None, game.summary)
            if record is None:
                continue
            if season.scope == "nights":
                if game.table_id not in tables:
                    row = await self.store.table(game.table_id)
                    pena_id = row.config.get("options", {}).get("pena_id") if row is not None else None
                    tables[game.table_id] = None if pena_id is None else int(pena_id)
                record = replace(record, pena_id=tables[game.table_id])
            if counts(rules, record, member_at):
                found.append((game.game_id, record_json(record)))
        if found:  # those kept already (a look goes back LATE_SECONDS) are not written again
            kept = set(await self.store.season_game_ids(season.id))
            found = [(game_id, record) for game_id, record in found if game_id not in kept]
        if found or until - season.scanned_until >= QUIET_SECONDS or everything:
            await self.store.add_season_games(season.id, found, max(since, until - LATE_SECONDS))
        return len(found)
