"""The `Store` interface every persistence backend implements."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from tranque.server.store.outbox import GameEnds


class DuplicateEvent(Exception):
    """An event with this (table_id, seq) is already stored: two owners for one table."""


class StaleEpoch(Exception):
    """Another owner has taken the table over: this writer's epoch is older than the table's
    (`Store.claim_table`), so nothing it asked to write was written."""


def stale_epoch(table_id: str, epoch: int, current: int) -> StaleEpoch:
    """The refusal of a write from `epoch` to a table whose epoch is `current` now."""
    return StaleEpoch(f"{table_id}: epoch {epoch}, the table's is {current}")


def split_by_epoch(
    writes: Sequence[tuple[str, int | None]], current: dict[str, int]
) -> tuple[list[int], dict[int, StaleEpoch]]:
    """A group commit's epoch check. Of a batch's writes (each its table and the writer's
    epoch, None for one not checked), the indexes that go on to the seq check, and those
    refused, with one `StaleEpoch` for each table and stale epoch. A checked write to a table
    missing from `current` (the tables' epochs) is in neither: written alone, it is told the
    table is unknown."""
    candidates: list[int] = []
    refused: dict[int, StaleEpoch] = {}
    errors: dict[tuple[str, int], StaleEpoch] = {}
    for index, (table_id, epoch) in enumerate(writes):
        if epoch is None:
            candidates.append(index)
        elif table_id not in current:
            continue
        elif current[table_id] != epoch:
            key = (table_id, epoch)
            refused[index] = errors.setdefault(key, stale_epoch(table_id, epoch, current[table_id]))
        else:
            candidates.append(index)
    return candidates, refused


def fresh_in_batch(batch: Sequence[tuple[str, StoredEvent]], last: dict[str, int]) -> list[int]:
    """The indexes of `batch`'s events newer than their table's last stored seq (`last`), as
    the backends' group commits insert them together. Once one of a table's events is not
    newer, none of its later ones in the batch is: a log has no gaps, and what followed a
    refused event was decided on a state never stored."""
    newest = dict(last)
    fresh: list[int] = []
    stale: set[str] = set()
    for index, (table_id, event) in enumerate(batch):
        if table_id not in stale and event.seq > newest.get(table_id, 0):
            fresh.append(index)
            newest[table_id] = event.seq
        else:
            stale.add(table_id)
    return fresh


class NameTaken(Exception):
    """A user with this name already exists."""


class TooManyBots(Exception):
    """The owner has as many bot accounts as it may (`Store.create_bot`'s `most`)."""


@dataclass(frozen=True)
class StoredEvent:
    """One numbered table event as persisted: the referee's data, before any filtering."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float  # seconds since the epoch


@dataclass(frozen=True)
class TableRow:
    table_id: str
    config: dict[str, Any]
    status: str  # waiting | playing | finished | annulled
    created_at: float
    epoch: int = 0  # how many times a process has claimed the table (`Store.claim_table`)


@dataclass(frozen=True)
class UserRow:
    user_id: int
    name: str
    password_hash: str
    created_at: float = 0.0
    avatar: str | None = None  # one of the site's drawings; None: the default
    bot_owner: int | None = None  # a bot account's owner (revision 0007); None: a person's account

    @property
    def is_bot(self) -> bool:
        return self.bot_owner is not None


@dataclass(frozen=True)
class BotRow:
    """One of a person's bot accounts, as their list shows it (never its token)."""

    user_id: int
    name: str
    created_at: float
    has_token: bool  # a token is live (it was never revoked, or a new one was made since)
    used_at: float | None  # when a token last opened a socket; None: never


@dataclass(frozen=True)
class GameRow:
    """A finished game as kept for history, profiles and replays (schema.games)."""

    game_id: str  # "<table_id>.<number>"
    table_id: str
    number: int  # 1-based: the table's first game, its rematch, ...
    finished_at: float
    preset: str
    format: str  # duel | individual | pairs (ratings.Pool)
    players: int
    table_kind: str
    private: bool
    competitive: bool
    rated: bool
    unrated_reason: str | None
    summary: dict[str, Any]  # seats (names, kinds, user ids), scores, goals, winners, hints
    record: dict[str, Any]  # the engine's game record with revealed seeds


@dataclass(frozen=True)
class GamePlayerRow:
    """One account's part in a finished game (schema.game_players)."""

    game_id: str
    user_id: int
    seat: int
    finished_at: float
    preset: str
    format: str
    private: bool
    won: bool
    abandoned: bool
    xp: int
    mu_before: float | None = None
    sigma_before: float | None = None
    mu_after: float | None = None
    sigma_after: float | None = None


@dataclass(frozen=True)
class RatingRow:
    """An account's current rating in one pool (schema.ratings)."""

    user_id: int
    pool: str
    mu: float
    sigma: float
    shown: float
    games: int
    updated_at: float


@dataclass(frozen=True)
class FriendLink:
    """One of an account's friendships or friend requests, as its lists show it."""

    user: UserRow  # the other account
    status: str  # friends | incoming (they asked) | outgoing (you asked)
    at: float  # when the request was made (or accepted)


@dataclass(frozen=True)
class Ranked:
    """A player on a leaderboard, with the value they are ranked by."""

    user_id: int
    name: str
    avatar: str | None
    value: float  # the period's XP, or the shown rating
    sigma: float | None = None  # a rating's σ (whether it is provisional); None for XP
    games: int = 0  # a rating's rated games in its pool; 0 for XP


@dataclass(frozen=True)
class Standing:
    """A player's place on a leaderboard: 1 + how many have strictly more."""

    rank: int
    row: Ranked


@dataclass(frozen=True)
class Leaderboard:
    """One page of a leaderboard, how many players the whole of it ranks, and the rank of
    the page's first row (1 + how many have strictly more: it may tie the page before)."""

    rows: list[Ranked]
    total: int
    first_rank: int
    me: Standing | None = None  # the player asked about; None if not ranked (or none asked about)


@dataclass(frozen=True)
class PlayerStat:
    """A player's games of one preset in one format (abandoned ones are played and lost)."""

    preset: str
    format: str
    played: int
    won: int


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating in a pool (the game's format) right after a rated game."""

    pool: str
    at: float
    mu: float
    sigma: float


@dataclass(frozen=True)
class PoolRating:
    """A player's current rating in a pool, and its last values after a game, oldest first."""

    rating: RatingRow
    history: list[RatingPoint]


@dataclass(frozen=True)
class PlayedGame:
    """One of a player's games as their history lists it: their part in it, and the game
    without its record."""

    player: GamePlayerRow
    players: int
    competitive: bool
    rated: bool
    summary: dict[str, Any]


@dataclass(frozen=True)
class PlayerPage:
    """What a player's profile shows of them, read in one go."""

    xp: dict[str, int]  # period → XP, for the periods asked for that have any
    stats: list[PlayerStat]  # by preset, then format
    ratings: list[PoolRating]  # by pool
    recent: list[PlayedGame]  # newest first, as the viewer may see them
    relation: tuple[str, bool] | None  # the viewer's `relation` to them; None: a guest, or themselves


ANALYSIS_STATUSES = ("pending", "running", "done", "failed")


@dataclass(frozen=True)
class AnalysisRow:
    """A finished game's post-game analysis, asked for on the site (schema.analyses): one per
    game, whoever asked first; `done` of `total` decisions evaluated so far."""

    game_id: str
    user_id: int  # the account that asked for it
    status: str  # pending | running | done | failed
    created_at: float
    done: int = 0
    total: int = 0  # the decisions to evaluate; 0 until the analysis starts
    result: dict[str, Any] | None = None  # `GameAnalysis.to_json()`, once done
    finished_at: float | None = None  # when it was done, or failed
    claimed_by: str | None = None  # the queue worker that took it last (`Store.claim_analysis`)
    heartbeat_at: float | None = None  # when that worker last said it was still at it


class Store(GameEnds, Protocol):
    async def start(self) -> None:
        """Connect, and create or migrate the schema."""
        ...

    async def close(self) -> None: ...

    # Tables and their event logs ------------------------------------------------------

    async def create_table(self, table_id: str, config: dict[str, Any], created_at: float) -> None: ...

    # Fencing: with several processes on one database, one owns a table at a time. A process
    # taking a table over claims it (its epoch goes up by one) and passes the epoch it got with
    # its writes; a write carrying an older epoch (a former owner, paused or cut off) changes
    # nothing and raises `StaleEpoch`. The check is atomic with the write: a write and a claim
    # of the same table never interleave. `epoch=None` writes without a check.

    async def claim_table(self, table_id: str) -> int:
        """Take the table over: add one to its epoch, atomically, and return the new epoch.
        From then on, writes carrying an older epoch are refused. `KeyError` for an unknown table."""
        ...

    async def table_epoch(self, table_id: str) -> int:
        """The table's current epoch (0 until it is first claimed); `KeyError` for an unknown table."""
        ...

    async def table(self, table_id: str) -> TableRow | None:
        """One table's row, config and epoch included; None for an unknown table."""
        ...

    async def set_table_status(self, table_id: str, status: str, epoch: int | None = None) -> None:
        """`KeyError` for an unknown table; `StaleEpoch`, unchanged, if `epoch` is given and is
        not the table's epoch."""
        ...

    async def append_event(self, table_id: str, event: StoredEvent, epoch: int | None = None) -> None:
        """Persist one event; `DuplicateEvent` if its seq is taken (UNIQUE(table_id, seq));
        `StaleEpoch`, and nothing stored, if `epoch` is given and is not the table's epoch."""
        ...

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        """Persist `events`, in order, as `append_event` would one by one, awaited together
        (a command's events: one wait for the store, not one per event). On a refusal the
        events before the refused one may be stored and those after it are not; but with an
        `epoch` that is not the table's, none is stored (`StaleEpoch`), whatever claim of the
        table runs at the same time. An empty `events` writes and checks nothing."""
        ...

    async def load_events(self, table_id: str, after_seq: int = 0) -> list[StoredEvent]:
        """The table's events with seq > after_seq, in order."""
        ...

    async def tables(self, statuses: tuple[str, ...]) -> list[TableRow]: ...

    async def save_record(self, table_id: str, record: dict[str, Any]) -> None: ...

    async def load_record(self, table_id: str) -> dict[str, Any] | None: ...

    # Accounts -------------------------------------------------------------------------

    async def create_user(self, name: str, password_hash: str, created_at: float) -> UserRow:
        """`NameTaken` if the name (case-insensitive) exists, or one that looks like it
        (the same `names.skeleton`)."""
        ...

    async def find_user(self, name: str) -> UserRow | None: ...

    async def find_similar_user(self, name: str) -> UserRow | None:
        """The account whose name looks like `name` (the same `names.skeleton`)."""
        ...

    async def user_by_id(self, user_id: int) -> UserRow | None: ...

    async def create_session(self, token_hash: str, user_id: int, expires_at: float) -> None: ...

    async def session_user(self, token_hash: str, now: float) -> UserRow | None: ...

    async def delete_session(self, token_hash: str) -> None: ...

    # Bot accounts (bot_tokens.py, bot_accounts.py) ------------------------------------------

    async def create_bot(self, name: str, owner_id: int, created_at: float, most: int) -> UserRow:
        """A bot account owned by `owner_id`, with no password and no token yet; `NameTaken`
        as `create_user`, and `TooManyBots` if the owner has `most` already. The count and
        the creation are one step: creations for one owner at the same time wait for each
        other, so none goes past `most`."""
        ...

    async def bots_of(self, owner_id: int) -> list[BotRow]:
        """The bot accounts `owner_id` owns, oldest first."""
        ...

    async def set_bot_token(self, bot_id: int, token_hash: str | None) -> None:
        """The bot's token is now the one of `token_hash` (its old one no longer works);
        None revokes it."""
        ...

    async def bot_by_token(self, token_hash: str, now: float) -> UserRow | None:
        """The bot account whose live token has this hash (and mark it used at `now`)."""
        ...

    # Finished games, ratings and XP ---------------------------------------------------

    async def save_game(
        self,
        game: GameRow,
        players: list[GamePlayerRow],
        ratings: list[RatingRow],
        xp: list[tuple[str, int, int]],
    ) -> None:
        """Keep a finished game and what it changed, in one transaction: its players' rows,
        their new ratings (upserted) and XP gained, as (period, user_id, xp) added to the
        period's total. Saving a game_id already kept changes nothing (a replayed log)."""
        ...

    async def load_game(self, game_id: str) -> GameRow | None: ...

    async def game_players(self, game_id: str) -> list[GamePlayerRow]: ...

    async def ratings_of(self, user_ids: list[int], pool: str) -> dict[int, RatingRow]:
        """The current ratings in `pool` of those of `user_ids` who have one (by user id)."""
        ...

    async def xp_of(self, user_id: int) -> dict[str, int]:
        """An account's XP in every period it has gained some in (period → total)."""
        ...

    async def xp_leaderboard(
        self, period: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        """The period's players by XP, most first, then by name (casefolded); and where
        player `me` stands in it."""
        ...

    async def rating_leaderboard(
        self, pool: str, offset: int, limit: int, me: int | None = None
    ) -> Leaderboard:
        """The pool's rated players by shown rating, highest first, then by name (casefolded);
        and where player `me` stands in it."""
        ...

    async def player_games(
        self, user_id: int, viewer_id: int | None, before: float | None, limit: int
    ) -> list[PlayedGame]:
        """The player's games, newest first, finished before `before` (if given), as
        `viewer_id` may see them: a private game only if the viewer played it too (None:
        a guest, who sees public games only)."""
        ...

    async def player_page(
        self, user_id: int, viewer_id: int | None, periods: list[str], history: int, recent: int
    ) -> PlayerPage:
        """The player's XP in `periods`, games per preset and format, ratings with their last
        `history` values, and `recent` last games as `player_games` lists them to the viewer."""
        ...

    async def set_avatar(self, user_id: int, avatar: str | None) -> None: ...

    # Friends and blocks -------------------------------------------------------------------

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        """How `user_id` stands with `other_id`: "none", "outgoing" (a request sent),
        "incoming" (a request received) or "friends"; and whether user_id blocks other_id."""
        ...

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        """Keep a request from `user_id` to `friend_id` (nothing if any row links them already)."""
        ...

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        """`user_id` accepts the request of `requester_id`; False if there is none."""
        ...

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        """End a friendship, or decline or cancel a request, between the two; False if none."""
        ...

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        """The account's friends and requests both ways, by the other account's name."""
        ...

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        """`user_id` blocks `blocked_id`: also ends any friendship or request between them."""
        ...

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False if `user_id` did not block `blocked_id`."""
        ...

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        """Whom the account blocks, by name."""
        ...

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        """Every (blocker, blocked) pair with both in `user_ids`."""
        ...

    # Post-game analyses (analysis_queue.py) -------------------------------------------------

    async def save_analysis(self, row: AnalysisRow) -> None:
        """Keep `row` as the analysis of its game, replacing the one there was."""
        ...

    async def analysis(self, game_id: str) -> AnalysisRow | None: ...

    async def analyses_requested(self, user_id: int, since: float) -> tuple[int, int]:
        """How many analyses the account asked for from `since` on, and how many of all it
        asked for are not over yet (pending or running)."""
        ...

    async def unfinished_analyses(self) -> list[AnalysisRow]:
        """The analyses pending or running, oldest first."""
        ...

    async def unfinished_analysis_count(self) -> int:
        """How many analyses of the whole site are pending or running (the queue's bound)."""
        ...

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        """Take the oldest analysis that is pending, or running with a heartbeat older than
        `stale_before` (its worker's process died): it is marked running, claimed by `worker`,
        heartbeat `now`, and returned. Two claimers never get the same row. None: no job."""
        ...

    async def save_claimed_analysis(self, row: AnalysisRow) -> bool:
        """Keep `row` (progress, heartbeat, result, status) only if its worker still holds the
        claim: the stored row is running and claimed by `row.claimed_by`. False, nothing
        written: another worker took the job over (or it is over)."""
        ...
