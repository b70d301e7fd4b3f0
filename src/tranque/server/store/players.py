"""The players' area of the store: finished games, ratings, XP, leaderboards and profiles."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


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


class PlayerStore(Protocol):
    """Finished games with what they changed (ratings, XP), and what is read of them."""

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

    async def kept_games(self, game_ids: list[str]) -> set[str]:
        """Those of `game_ids` that are kept (have a replay): one read, not a game's rows."""
        ...

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
