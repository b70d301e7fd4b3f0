"""The ledger's vocabulary (pure): who holds fichas, and the one double-entry `Movement`.

Every ficha sits with one holder, named by a string:

- ``account:<user_id>``: a player's balance (never negative);
- ``pot:<table_id>.<game_number>``: the stakes of one game at a table;
- ``pot:tournament:<id>``: a tournament's pool of entries;
- ``bank``: the bank's cut, remainders of uneven splits and forfeited stakes (the only sink);
- ``grants``: the source of every ficha: its balance is minus everything ever granted.

A `Movement` takes `amount` (> 0) from `source` to `destination`. It is appended, never edited,
and its `key` is unique: writing a movement whose key is taken changes nothing (it was done
already), so a retried step never moves fichas twice. The books balance when the accounts,
pots and bank together hold exactly what the grants gave out.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from zoneinfo import ZoneInfo

from tranque.server.store.fichas import (
    ACCOUNT_PREFIX,
    BANK,
    GRANTS,
    POT_PREFIX,
    TOURNAMENT_POT_PREFIX,
    Books,
    Kind,
    Movement,
    account,
    account_of,
    is_pot,
    may_go_negative,
)

__all__ = [
    "ACCOUNT_PREFIX",
    "BANK",
    "GRANTS",
    "POT_PREFIX",
    "TOURNAMENT_POT_PREFIX",
    "Books",
    "Kind",
    "Movement",
    "account",
    "account_of",
    "bogota_day",
    "entry_key",
    "entry_refund_key",
    "game_ref",
    "grant_key",
    "is_pot",
    "may_go_negative",
    "pot",
    "prize_key",
    "refill_key",
    "stake_key",
    "stakes_in",
    "tournament_pot",
    "tournament_ref",
    "unstake_key",
]


def game_ref(table_id: str, game_number: int) -> str:
    """The reference of one game at a table, in pots' names and movements' keys.

    >>> game_ref("t1", 2)
    't1.2'
    """
    return f"{table_id}.{game_number}"


def pot(table_id: str, game_number: int) -> str:
    """The holder's name.

    >>> pot("t1", 2)
    'pot:t1.2'
    """
    return f"{POT_PREFIX}{game_ref(table_id, game_number)}"


def tournament_pot(tournament_id: str) -> str:
    """The holder's name.

    >>> tournament_pot("abc")
    'pot:tournament:abc'
    """
    return f"{TOURNAMENT_POT_PREFIX}{tournament_id}"


ZONE = ZoneInfo("America/Bogota")  # the refill's day is Bogotá's (as the reparto del día's)


def bogota_day(instant: float) -> str:
    """The day in Bogotá at `instant`, `YYYY-MM-DD` (a refill's key).

    >>> bogota_day(0.0)
    '1969-12-31'
    """
    return datetime.fromtimestamp(instant, ZONE).date().isoformat()


# Movement keys: what makes each movement happen at most once.
def grant_key(user_id: int) -> str:
    return f"grant:{user_id}"


def refill_key(user_id: int, day: str) -> str:
    return f"refill:{user_id}:{day}"


def stake_key(table_id: str, game_number: int, seat: int, user_id: int) -> str:
    return f"stake:{game_ref(table_id, game_number)}:{seat}:{user_id}"


def unstake_key(table_id: str, game_number: int, seat: int, user_id: int) -> str:
    return f"unstake:{game_ref(table_id, game_number)}:{seat}:{user_id}"


def entry_key(tournament_id: str, user_id: int) -> str:
    return f"entry:{tournament_id}:{user_id}"


def entry_refund_key(tournament_id: str, user_id: int) -> str:
    return f"refund:tournament:{tournament_id}:{user_id}"


def tournament_ref(tournament_id: str) -> str:
    """The `ref` of a tournament's movements."""
    return f"tournament:{tournament_id}"


def prize_key(tournament_id: str, place: int, user_id: int) -> str:
    return f"prize:{tournament_id}:{place}:{user_id}"


def stakes_in(movements: Iterable[Movement]) -> dict[int, int]:
    """What each account has in a pot, from the pot's movements (one game's or tournament's):
    its stakes and entries, less what came back to it (unstakes and refunds).

    >>> stakes_in([Movement("s", "account:1", "pot:t.1", 50, Kind.STAKE, 1, "t.1", 0.0)])
    {1: 50}
    """
    net: dict[int, int] = {}
    for movement in movements:
        user_id = movement.user_id
        if user_id is None:
            continue
        if movement.kind in (Kind.STAKE, Kind.ENTRY):
            net[user_id] = net.get(user_id, 0) + movement.amount
        elif movement.kind in (Kind.UNSTAKE, Kind.REFUND) and movement.destination == account(user_id):
            net[user_id] = net.get(user_id, 0) - movement.amount
    return {user_id: amount for user_id, amount in net.items() if amount > 0}
