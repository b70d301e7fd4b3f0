"""An in-memory `Store`: the same behaviour as the SQL one, nothing kept after the process.

Events are kept as the JSON text a SQL store would hold (encoded once on the way in, decoded
on the rare way out: a restore, a resume), so what comes back is what a database gives back.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from tranque.server import json_text
from tranque.server.accounts.names import skeleton
from tranque.server.store.base import (
    AnalysisRow,
    BotRow,
    DuplicateEvent,
    FriendLink,
    GamePlayerRow,
    GameRow,
    Leaderboard,
    NameTaken,
    PlayedGame,
    PlayerPage,
    PlayerStat,
    PoolRating,
    Ranked,
    RatingPoint,
    RatingRow,
    StaleEpoch,
    Standing,
    StoredEvent,
    TableRow,
    TooManyBots,
    UserRow,
)
from tranque.server.store.friendship import friendship
from tranque.server.store.outbox import GameEnd, Keep, MemoryGameEnds


class MemoryStore:
    def __init__(self) -> None:
        self._tables: dict[str, TableRow] = {}
        self._events: dict[str, list[tuple[int, str, str, float]]] = {}  # seq, kind, JSON data, at
        self._records: dict[str, dict[str, Any]] = {}
        self._users: dict[int, UserRow] = {}
        self._sessions: dict[str, tuple[int, float]] = {}
        self._bot_tokens: dict[int, str] = {}  # bot id → its live token's hash
        self._bot_used: dict[int, float] = {}  # bot id → when a token last opened a socket
        self._games: dict[str, GameRow] = {}
        self._game_players: dict[str, list[GamePlayerRow]] = {}
        self._ratings: dict[tuple[int, str], RatingRow] = {}
        self._xp: dict[tuple[str, int], int] = {}  # (period, user_id) → XP
        self._friends: dict[tuple[int, int], tuple[str, float]] = {}  # (user, friend) → status, at
        self._blocks: dict[tuple[int, int], float] = {}  # (user, blocked) → at
        self._analyses: dict[str, AnalysisRow] = {}  # by game id
        self._game_ends = MemoryGameEnds()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None:
        self._tables[table_id] = TableRow(table_id, copy.deepcopy(config), "waiting", created_at)
        self._events[table_id] = []

    async def claim_table(self, table_id: str) -> int:
        row = self._tables[table_id]
        self._tables[table_id] = dataclasses.replace(row, epoch=row.epoch + 1)
        return row.epoch + 1

    async def table_epoch(self, table_id: str) -> int:
        return self._tables[table_id].epoch

    async def table(self, table_id: str) -> TableRow | None:
        row = self._tables.get(table_id)
        return dataclasses.replace(row, config=copy.deepcopy(row.config)) if row is not None else None

    def _check_epoch(self, table_id: str, epoch: int | None) -> None:
        """`KeyError` for an unknown table, `StaleEpoch` for an epoch given that is not its own."""
        row = self._tables[table_id]
        if epoch is not None and row.epoch != epoch:
            raise StaleEpoch(f"{table_id}: epoch {epoch}, the table's is {row.epoch}")

    async def set_table_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        self._check_epoch(table_id, epoch)
        self._tables[table_id] = dataclasses.replace(self._tables[table_id], status=status)

    async def append_event(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        self._append(table_id, [event], epoch)

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        self._append(table_id, events, epoch)

    def _append(self, table_id: str, events: Sequence[StoredEvent], epoch: int | None) -> None:
        """Nothing is awaited between the epoch's check and the writes: they are atomic."""
        if events and epoch is not None:
            self._check_epoch(table_id, epoch)
        for event in events:
            self._append_one(table_id, event)

    def _append_one(self, table_id: str, event: StoredEvent) -> None:
        log = self._events[table_id]
        if log and log[-1][0] >= event.seq:
            raise DuplicateEvent(f"{table_id}#{event.seq}")
        log.append((event.seq, event.kind, json_text.dumps(event.data), event.at))

    async def load_events(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        return [
            StoredEvent(seq, kind, json.loads(data), at)
            for seq, kind, data, at in self._events.get(table_id, [])
            if seq > after_seq
        ]

    async def tables(self, statuses: tuple[str, ...]) -> list[TableRow]:
        return [row for row in self._tables.values() if row.status in statuses]

    async def save_record(self, table_id: str, record: dict[str, Any]) -> None:
        self._records[table_id] = copy.deepcopy(record)

    async def load_record(self, table_id: str) -> dict[str, Any] | None:
        record = self._records.get(table_id)
        return copy.deepcopy(record) if record is not None else None

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        if await self.find_user(name) is not None or await self.find_similar_user(name) is not None:
            raise NameTaken(name)
        user = UserRow(len(self._users) + 1, name, password_hash, created_at)
        self._users[user.user_id] = user
        return user

    async def find_user(self, name: str) -> UserRow | None:
        return next((u for u in self._users.values() if u.name.casefold() == name.casefold()), None)

    async def find_similar_user(self, name: str) -> UserRow | None:
        key = skeleton(name)
        return next((u for u in self._users.values() if skeleton(u.name) == key), None)

    async def user_by_id(self, user_id: int) -> UserRow | None:
        return self._users.get(user_id)

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None:
        self._sessions[token_hash] = (user_id, expires_at)

    async def session_user(self, token_hash: str, now: float) -> UserRow | None:
        found = self._sessions.get(token_hash)
        if found is None or found[1] <= now:
            return None
        return self._users.get(found[0])

    async def delete_session(self, token_hash: str) -> None:
        self._sessions.pop(token_hash, None)

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        # Nothing below waits: the count and the creation are one step of the loop.
        if sum(user.bot_owner == owner_id for user in self._users.values()) >= most:
            raise TooManyBots(owner_id)
        user = await self.create_user(name, "", created_at)
        bot = dataclasses.replace(user, bot_owner=owner_id)
        self._users[bot.user_id] = bot
        return bot

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        return [
            BotRow(
                user.user_id,
                user.name,
                user.created_at,
                user.user_id in self._bot_tokens,
                self._bot_used.get(user.user_id),
            )
            for user in sorted(self._users.values(), key=lambda user: user.user_id)
            if user.bot_owner == owner_id
        ]

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        if token_hash is None:
            self._bot_tokens.pop(bot_id, None)
        else:
            self._bot_tokens[bot_id] = token_hash

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        bot_id = next((bot for bot, stored in self._bot_tokens.items() if stored == token_hash), None)
        if bot_id is None:
            return None
        self._bot_used[bot_id] = now
        return self._users[bot_id]

    # Finished games, ratings and XP ---------------------------------------------------

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

    # Game ends to record (outbox.py) ------------------------------------------------------

    async def game_ends(self, limit: int) -> list[GameEnd]:
        return self._game_ends.pending(self._events, limit)

    async def record_game_end(self, end: GameEnd, pool: str, accounts: Sequence[int], keep: Keep) -> bool:
        # Nothing is awaited from the mark to the last write: the recording is atomic.
        if not self._game_ends.claim(end):
            return False
        found = (self._ratings.get((user_id, pool)) for user_id in accounts)
        try:
            kept = keep({rating.user_id: rating for rating in found if rating is not None})
        except BaseException:
            self._game_ends.release(end)
            raise
        if kept is not None:
            await self.save_game(kept.game, kept.players, kept.ratings, kept.xp)
        return True

    async def load_game(self, game_id: str) -> GameRow | None:
        game = self._games.get(game_id)
        return copy.deepcopy(game) if game is not None else None

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
            relation = await self.relation(viewer_id, user_id)
        pools = [self._pool_rating(rating, history) for rating in rated]
        return PlayerPage(totals, self._stats(user_id), pools, games, relation)

    async def set_avatar(self, user_id: int, avatar: str | None) -> None:
        self._users[user_id] = dataclasses.replace(self._users[user_id], avatar=avatar)

    # Friends and blocks -------------------------------------------------------------------

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        rows = set()
        if (user_id, other_id) in self._friends:
            rows.add((True, self._friends[user_id, other_id][0]))
        if (other_id, user_id) in self._friends:
            rows.add((False, self._friends[other_id, user_id][0]))
        return friendship(rows), (user_id, other_id) in self._blocks

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        if (user_id, friend_id) not in self._friends and (friend_id, user_id) not in self._friends:
            self._friends[user_id, friend_id] = ("pending", at)

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        if self._friends.get((requester_id, user_id), ("", 0.0))[0] != "pending":
            return False
        self._friends[requester_id, user_id] = ("accepted", at)
        self._friends[user_id, requester_id] = ("accepted", at)
        return True

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        found = [self._friends.pop(key, None) for key in ((user_id, other_id), (other_id, user_id))]
        return any(row is not None for row in found)

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        links = []
        for (one, other), (status, at) in self._friends.items():
            if one == user_id and status == "accepted":
                links.append(FriendLink(self._users[other], "friends", at))
            elif one == user_id:
                links.append(FriendLink(self._users[other], "outgoing", at))
            elif other == user_id and status == "pending":
                links.append(FriendLink(self._users[one], "incoming", at))
        return sorted(links, key=lambda link: link.user.name.casefold())

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        await self.remove_friend(user_id, blocked_id)
        self._blocks.setdefault((user_id, blocked_id), at)

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        return self._blocks.pop((user_id, blocked_id), None) is not None

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        found = [self._users[blocked] for blocker, blocked in self._blocks if blocker == user_id]
        return sorted(found, key=lambda user: user.name.casefold())

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        among = set(user_ids)
        return {(a, b) for a, b in self._blocks if a in among and b in among}

    # Post-game analyses -----------------------------------------------------------------

    async def save_analysis(self, row: AnalysisRow) -> None:
        if row.game_id not in self._games:
            raise KeyError(row.game_id)
        self._analyses[row.game_id] = copy.deepcopy(row)

    async def analysis(self, game_id: str) -> AnalysisRow | None:
        row = self._analyses.get(game_id)
        return copy.deepcopy(row) if row is not None else None

    async def analyses_requested(self, user_id: int, since: float) -> tuple[int, int]:
        mine = [row for row in self._analyses.values() if row.user_id == user_id]
        recent = sum(1 for row in mine if row.created_at >= since)
        return recent, sum(1 for row in mine if row.status in ("pending", "running"))

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        rows = [row for row in self._analyses.values() if row.status in ("pending", "running")]
        return [copy.deepcopy(row) for row in sorted(rows, key=lambda row: (row.created_at, row.game_id))]

    async def unfinished_analysis_count(self) -> int:
        return sum(1 for row in self._analyses.values() if row.status in ("pending", "running"))

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        def claimable(row: AnalysisRow) -> bool:
            stale = row.heartbeat_at is None or row.heartbeat_at < stale_before
            return row.status == "pending" or (row.status == "running" and stale)

        rows = sorted(
            filter(claimable, self._analyses.values()), key=lambda row: (row.created_at, row.game_id)
        )
        if not rows:
            return None
        claimed = dataclasses.replace(rows[0], status="running", claimed_by=worker, heartbeat_at=now)
        self._analyses[claimed.game_id] = claimed
        return copy.deepcopy(claimed)

    async def save_claimed_analysis(self, row: AnalysisRow) -> bool:
        stored = self._analyses.get(row.game_id)
        if row.claimed_by is None or stored is None:
            return False
        if stored.status != "running" or stored.claimed_by != row.claimed_by:
            return False
        self._analyses[row.game_id] = copy.deepcopy(row)
        return True
