"""What the players' pages show, as the JSON bodies of http/players.py: leaderboard rows,
a player's games, a game's page.

Ratings are shown as `rating_scale` says (rounded to a whole number); a game's rating change
is the difference of the two shown ratings, so that it adds up with what the player sees.
"""

from __future__ import annotations

from typing import Any

from tranque.server.accounts.avatars import avatar_of
from tranque.server.players.rating_scale import provisional, shown
from tranque.server.store import GamePlayerRow, GameRow, PlayedGame, PoolRating, Ranked

PER_PAGE = 50


def shown_rating(mu: float | None, sigma: float | None) -> int | None:
    return None if mu is None or sigma is None else round(shown(mu, sigma))


def xp_row(rank: int, entry: Ranked) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": entry.name,
        "avatar": avatar_of(entry.user_id, entry.avatar),
        "xp": int(entry.value),
    }


def rating_row(rank: int, entry: Ranked) -> dict[str, Any]:
    return {
        "rank": rank,
        "name": entry.name,
        "avatar": avatar_of(entry.user_id, entry.avatar),
        "rating": round(entry.value),
        "provisional": entry.sigma is None or provisional(entry.sigma),
        "games": entry.games,
    }


def page_ranks(entries: list[Ranked], first_rank: int, offset: int) -> list[int]:
    """The rank of each row of a page (ordered most first), given the first row's: a row
    that ties the one before shares its rank, any other has everybody before it above it.

    >>> page_ranks([Ranked(1, "a", None, 9), Ranked(2, "b", None, 9), Ranked(3, "c", None, 7)], 4, 50)
    [4, 4, 53]
    """
    ranks: list[int] = []
    for index, entry in enumerate(entries):
        if index == 0:
            ranks.append(first_rank)
        elif entry.value == entries[index - 1].value:
            ranks.append(ranks[-1])
        else:
            ranks.append(offset + index + 1)
    return ranks


def pool_rating(pool: PoolRating) -> dict[str, Any]:
    """A profile's rating in one pool, with its last values for a chart."""
    rating = pool.rating
    return {
        "pool": rating.pool,
        "rating": round(rating.shown),
        "provisional": provisional(rating.sigma),
        "games": rating.games,
        "history": [
            {"at": point.at, "rating": shown_rating(point.mu, point.sigma)} for point in pool.history
        ],
    }


def rating_change(player: GamePlayerRow) -> int | None:
    before = shown_rating(player.mu_before, player.sigma_before)
    after = shown_rating(player.mu_after, player.sigma_after)
    return None if before is None or after is None else after - before


def seats(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The seats as anyone may see them: names and kinds, no account numbers."""
    return [
        {
            "seat": seat["seat"],
            "name": seat["name"],
            "kind": seat["kind"],
            **(
                {"bot_level": seat.get("bot_level"), "face": seat.get("face")}
                if seat["kind"] == "bot"
                else {}
            ),
        }
        for seat in summary["seats"]
    ]


def game_item(played: PlayedGame) -> dict[str, Any]:
    """One game of a player's history, from that player's side."""
    player = played.player
    return {
        "game_id": player.game_id,
        "finished_at": player.finished_at,
        "preset": player.preset,
        "format": player.format,
        "players": played.players,
        "competitive": played.competitive,
        "rated": played.rated,
        "private": player.private,
        "won": player.won,
        "abandoned": player.abandoned,
        "xp": player.xp,
        "rating_change": rating_change(player),
        "seats": seats(played.summary),
        "scores": played.summary["scores"],
        "winners": played.summary["winners"],
    }


def game_page(game: GameRow, players: list[GamePlayerRow]) -> dict[str, Any]:
    """A finished game: its table, rules, result, and each account's part in it."""
    summary = game.summary
    names = {seat["seat"]: seat["name"] for seat in summary["seats"]}
    return {
        "game_id": game.game_id,
        "table_id": game.table_id,
        "number": game.number,
        "finished_at": game.finished_at,
        "preset": game.preset,
        "format": game.format,
        "players": game.players,
        "competitive": game.competitive,
        "rated": game.rated,
        "unrated_reason": game.unrated_reason,
        "private": game.private,
        "seats": seats(summary),
        "scores": summary["scores"],
        "goals": summary["goals"],
        "winners": summary["winners"],
        "rounds": summary["rounds"],
        # «Pista»: how many hints each seat used (games kept before hints existed: none)
        "hints": summary.get("hints") or [0] * game.players,
        "participants": [
            {
                "name": names.get(player.seat),
                "seat": player.seat,
                "won": player.won,
                "abandoned": player.abandoned,
                "xp": player.xp,
                "rating_before": shown_rating(player.mu_before, player.sigma_before),
                "rating_after": shown_rating(player.mu_after, player.sigma_after),
            }
            for player in players
        ],
    }
