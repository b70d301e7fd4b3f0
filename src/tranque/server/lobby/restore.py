"""Rebuild a table from its event log after a restart (docs/design.md, restarting).

The log is the truth, and restoring a table is replaying it: every stored event is folded
into the table's state by the same `apply` that live play used, and nothing is sent or
stored meanwhile. Then `resume` marks every person away (nobody is connected yet), gives
whoever was to act a full turn again (the server's downtime is not theirs) and re-arms the
clocks and bots from the state, as after any command.
"""

from __future__ import annotations

from tranque.server.store import StoredEvent
from tranque.server.table.actor import Table
from tranque.server.table.commands import Resume
from tranque.server.table.log import replay


def replay_log(table: Table, events: list[StoredEvent]) -> None:
    """Bring `table`, fresh, to the state its log describes."""
    replay(table.state, events)


async def resume(table: Table) -> None:
    """After `replay_log`, on a started table: play goes on from where the log left it."""
    await table.call(Resume())
