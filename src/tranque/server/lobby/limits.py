"""What one client may send and create over HTTP (docs/protocol.md, «HTTP limits»).

At the edge, before any endpoint runs: the size of a request's headers and how long they may
take to arrive (`http/header_timeout.py`), the size of its body and how long that may take
(`http/body_limit.py`). Then what a request may ask the server to compute: a record to check has
at most `record_rounds` rounds, and only `checks_at_once` checks run at a time
(`analysis/verify_pool.py`). And what a client may create: live games against the machine or from the
quick match per address and per account, and tables waiting for players per account.

A game counts as live from the moment it is being created until it ends or is retired: a
game its players left keeps counting while its bots play it, until the registry retires it.
Counting is by claims: each table carries the quota keys it counts against (`address_key`,
`account_key`, `host_key`), kept in its stored config so that a restart counts it again.

The limits of an open socket are `ws/limits.py`'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tranque.server.table.actor import Phase, Table

if TYPE_CHECKING:
    from tranque.server.lobby.registry import Registry

ENDED = (Phase.FINISHED, Phase.ANNULLED)


@dataclass(frozen=True)
class Limits:
    """The numbers, each documented in docs/protocol.md; `Settings.limits` chooses them."""

    header_bytes: int = 16 * 1024  # request line and headers together (uvicorn's h11 buffer)
    header_seconds: float = 10.0  # from the connection (or the last answer) to a request's last header
    keep_alive_seconds: int = 5  # an idle connection between requests is closed then
    body_bytes: int = 64 * 1024  # any request body but a record to check
    verify_body_bytes: int = 4 * 1024 * 1024  # a record to check (4 KiB a round at most)
    body_seconds: float = 30.0  # a request body's time, from the headers to its last byte
    record_rounds: int = 500  # rounds of a record to check (a real game has tens)
    checks_at_once: int = 2  # records being checked, each in a worker process of its own
    checks_per_address: int = 1  # records being checked for one address
    live_games_per_address: int = 10  # practice and quick-match games of one address (a school, a carrier)
    live_games_per_account: int = 3  # practice and quick-match games of one account
    waiting_tables_per_account: int = 3  # tables an account hosts that wait for players
    bots_per_owner: int = 5  # bot accounts one person may own (http/bot_accounts.py)


def address_key(address: str) -> str:
    """The quota key of a client's place (`addresses.client_place`: an IPv6 /64 is one). Stored
    with the table, so hashed: not a secret (addresses are few), only not written down as it is."""
    return "address:" + hashlib.sha256(address.encode()).hexdigest()[:24]


def account_key(user_id: int) -> str:
    """The quota key of an account's live games (practice while logged in, quick match)."""
    return f"account:{user_id}"


def host_key(user_id: int) -> str:
    """The quota key of the tables an account hosts."""
    return f"host:{user_id}"


def live_games(registry: Registry, key: str) -> int:
    """Games against the machine or from the quick match that count against `key` now."""
    return sum(1 for table in registry.claimed(key) if not _ended(table))


def waiting_tables(registry: Registry, user_id: int) -> int:
    """Tables hosted by the account that are being created or still wait for players."""
    return sum(
        1
        for table in registry.claimed(host_key(user_id))
        if table is None or table.state.phase is Phase.WAITING
    )


def _ended(table: Table | None) -> bool:
    return table is not None and table.state.phase in ENDED


def account_games(registry: Registry, user_id: int, queued: Callable[[int], bool]) -> int:
    """The account's live games, and its place in the quick match's queue (a game to come):
    `queued(user_id)` says whether it waits there (`QuickMatch.is_waiting`)."""
    return live_games(registry, account_key(user_id)) + int(queued(user_id))
