"""What holds against an account now, from its sanctions (store/moderation.py).

>>> from tranque.server.store.moderation import SanctionRow
>>> rows = [SanctionRow(1, 7, "suspend", 200.0, 0.0, 1, ""), SanctionRow(2, 7, "mute", None, 0.0, 1, "")]
>>> barring(rows, 100.0).sanction_id, barring(rows, 300.0)
(1, None)
>>> in_force(rows, "mute", 300.0).sanction_id
2
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from tranque.server.store.moderation import ModerationStore, SanctionRow

ROLES_THAT_MODERATE = frozenset({"moderator", "admin"})


def in_force(rows: Iterable[SanctionRow], kind: str, now: float) -> SanctionRow | None:
    """The sanction of `kind` holding at `now` that lasts longest (None: none holds)."""
    holding = [row for row in rows if row.kind == kind and row.holds(now)]
    return max(holding, key=lambda row: float("inf") if row.until is None else row.until, default=None)


def barring(rows: Iterable[SanctionRow], now: float) -> SanctionRow | None:
    """The ban, else the longest suspension, that keeps the account out at `now`."""
    listed = list(rows)
    return in_force(listed, "ban", now) or in_force(listed, "suspend", now)


async def barred(store: ModerationStore, user_id: int, now: float) -> SanctionRow | None:
    return barring(await store.sanctions_of([user_id]), now)


async def muted(store: ModerationStore, user_id: int, now: float) -> SanctionRow | None:
    return in_force(await store.sanctions_of([user_id]), "mute", now)


async def may_moderate(store: ModerationStore, user_id: int) -> bool:
    return await store.role_of(user_id) in ROLES_THAT_MODERATE


def utc_text(at: float) -> str:
    """A time as the refusals show it.

    >>> utc_text(0.0)
    '1970-01-01 00:00 UTC'
    """
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")
