"""Whether a table's game is rated, and what its players see of their ratings before and
during it (`sync.rating` and the `rating` event, docs/protocol.md).

A game is rated when its table is competitive («competitiva», chosen when it is made), every
person at it has an account, no bot sat down from the start (a bot covering an absent person,
R16, is not one) and no two people play from one address: not when they sit down
(`same_address`), nor at any time after (`same_address_in_play`: a seat followed, or its
token handed out, from a place another seat was used from; the game stops counting from
then, and the table says so at once), nor a seat used from more places than a table follows
(`many_places`, seats.MAX_PLACES). At a table that accepts bots
(rated in the bots' pools) every account must be a bot account and no two of them may have one
owner (who could let one lose to the other), instead of the address check (one owner runs bots
from one machine, and many owners may share a host). Otherwise the reason says why not,
the first that applies in that order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from tranque.engine import Rules
from tranque.server.players import ratings
from tranque.server.store import RatingRow
from tranque.server.table.seats import MAX_PLACES, Seat, SeatKind


class Unrated(StrEnum):
    CASUAL = "casual"  # «amistosa»: the table was not made competitive
    GUEST = "guest"  # somebody plays without an account
    BOT = "bot"  # a bot sat down from the start
    PERSON_AT_BOTS_TABLE = "person_at_bots_table"  # a person sits at a table that accepts bots
    SAME_ADDRESS = "same_address"  # two people play from one address
    SAME_ADDRESS_IN_PLAY = "same_address_in_play"  # two seats were used from one place since
    MANY_PLACES = "many_places"  # a seat was used from more places than a table follows
    SAME_OWNER = "same_owner"  # two bot accounts of one owner play at one table


def unrated_reason(
    competitive: bool, seats: Sequence[Seat], bot_accounts: Mapping[int, int] | None = None
) -> Unrated | None:
    """Why a game with these seats is not rated, or None if it is (empty seats aside).
    `bot_accounts`: at a table that accepts bots, its bot accounts, each with its owner's
    account (None: a table for people)."""
    if not competitive:
        return Unrated.CASUAL
    humans = [seat for seat in seats if seat.is_human]
    if any(seat.user_id is None for seat in humans):
        return Unrated.GUEST
    if any(seat.kind is SeatKind.BOT for seat in seats):
        return Unrated.BOT
    if bot_accounts is not None:
        if any(seat.user_id not in bot_accounts for seat in humans):
            return Unrated.PERSON_AT_BOTS_TABLE
        owners = [bot_accounts[seat.user_id] for seat in humans if seat.user_id is not None]
        if len(set(owners)) < len(owners):
            return Unrated.SAME_OWNER
        return None
    keys = [seat.address_key for seat in humans if seat.address_key is not None]
    if len(set(keys)) < len(keys):
        return Unrated.SAME_ADDRESS
    places = [seat.address_keys for seat in humans]
    if any(mine & theirs for index, mine in enumerate(places) for theirs in places[index + 1 :]):
        return Unrated.SAME_ADDRESS_IN_PLAY
    if any(len(seat.places) >= MAX_PLACES for seat in humans):
        return Unrated.MANY_PLACES
    return None


def seat_rating(row: RatingRow | None) -> dict[str, Any]:
    """An account's rating as shown: `{"rating", "provisional", "games"}` (a newcomer's if no row)."""
    skill = ratings.of_row(row)
    return {
        "rating": round(ratings.shown(skill)),
        "provisional": ratings.provisional(skill.sigma),
        "games": 0 if row is None else row.games,
    }


def rating_json(
    rules: Rules,
    competitive: bool,
    seats: Sequence[Seat],
    known: Mapping[int, RatingRow | None],
    bot_accounts: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """The `rating` of a table: whether its game is (or would be, as seated now) rated and why
    not, each account's rating in the table's pool (`known`: by user id, None for an account
    with none yet; only at a competitive table), and each team's chances once every seat is
    taken for a rated game."""
    reason = unrated_reason(competitive, seats, bot_accounts)
    shown: list[dict[str, Any] | None] = []
    for seat in seats:
        if not competitive or not seat.is_human or seat.user_id is None:
            shown.append(None)
            continue
        entry = seat_rating(known.get(seat.user_id))
        shown.append({"seat": seat.index, "rating": entry["rating"], "provisional": entry["provisional"]})
    chances = None
    if reason is None and all(seat.is_human for seat in seats):
        teams = [
            [_skill(seats[index], known) for index in rules.seats_of(team)]
            for team in range(rules.team_count)
        ]
        chances = [round(chance, 4) for chance in ratings.win_chances(teams)]
    return {
        "competitive": competitive,
        "rated": reason is None,
        "reason": None if reason is None else reason.value,
        "chances": chances,
        "seats": shown,
    }


def _skill(seat: Seat, known: Mapping[int, RatingRow | None]) -> ratings.Rating:
    return ratings.of_row(None if seat.user_id is None else known.get(seat.user_id))
