"""A moderator's sanction carried out, and undone.

- **mute**: nothing to do at once; the socket refuses the account's phrases while it holds
  (ws/endpoint.py), so no one else hears them.
- **suspend** (until a time) and **ban**: every session of the account ends (its login is
  then refused: http/accounts.py), its sockets close on every process
  (accounts/account_sockets.py), and at every table not over its seat goes to the table
  (`commands.SetAside`: emptied while the table waits, covered by the table's bot in a game).
  A ban also takes the account's ratings and XP off the rankings, and the recorder changes
  them no more while it holds (players/recorder.py): its rating is frozen.

Undoing lifts the sanction (its row stays, with who lifted it); lifting a ban puts the
ratings and XP back. Each step is written in the audit log with the sanction, in one
transaction (store/moderation.py).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tranque.server.accounts.account_sockets import AccountSockets
from tranque.server.lobby.registry import Registry
from tranque.server.store import Store
from tranque.server.store.moderation import LogEntry, SanctionRow
from tranque.server.table import commands
from tranque.server.table.actor import TableError

log = logging.getLogger(__name__)

CLOSE_REASONS = {"suspend": "account_suspended", "ban": "account_banned"}
UNDO = {"mute": "unmute", "suspend": "unsuspend", "ban": "unban"}


@dataclass
class Enforcer:
    """What a sanction reaches: the store, this process's tables and the account's sockets."""

    store: Store
    registry: Registry
    sockets: AccountSockets

    async def impose(
        self,
        user_id: int,
        kind: str,
        until: float | None,
        entry: LogEntry,
    ) -> SanctionRow:
        row = await self.store.add_sanction(user_id, kind, until, entry)
        if kind in CLOSE_REASONS:
            await self.store.end_sessions(user_id)
            await self.sockets.close(user_id, CLOSE_REASONS[kind])
            await self.set_aside(user_id)
        if kind == "ban":
            await self.store.withhold_standings(user_id)
        return row

    async def lift(self, row: SanctionRow, entry: LogEntry) -> SanctionRow | None:
        lifted = await self.store.lift_sanction(row.sanction_id, entry)
        if lifted is not None and lifted.kind == "ban":
            still = [other for other in await self.store.sanctions_of([row.user_id]) if other.kind == "ban"]
            if not any(other.lifted_at is None for other in still):
                await self.store.restore_standings(row.user_id)
        return lifted

    async def set_aside(self, user_id: int) -> int:
        return await set_aside(self.registry, user_id)


async def set_aside(registry: Registry, user_id: int) -> int:
    """Give the account's seats at this process's tables to those tables (`commands.SetAside`);
    how many changed. With several processes each does it at the tables it has, on hearing
    of the sanction (accounts/account_sockets.py)."""
    changed = 0
    for table in list(registry.tables.values()):
        if table.state.seat_of_user(user_id) is None or table.state.phase.is_over:
            continue
        try:
            changed += bool(await table.call(commands.SetAside(user_id)))
        except TableError as error:  # retired or moved meanwhile
            log.info("table %s: seat not set aside (%s)", table.table_id, error)
    return changed
