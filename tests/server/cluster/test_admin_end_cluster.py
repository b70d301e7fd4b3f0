"""An admin ends a stuck table from a process that does not own it (http/admin.py): the
command goes to the owner like every forwarded table command (`Table.call`), the game is
annulled there, and the players on the other processes get the end and its reason."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.cluster.test_cluster_inprocess import cluster_of, new_table, on, until
from tests.server.support.inprocess import Socket
from tranque.server.table import commands
from tranque.server.table.actor import TableError

pytestmark = pytest.mark.anyio

REASON = "La mesa se trabó"


def endings(socket: Socket) -> list[dict[str, Any]]:
    return [frame["data"] for frame in socket.events if frame["kind"] == "game_ended"]


async def test_a_replica_ends_the_owners_table_and_every_process_hears_why() -> None:
    async with cluster_of(3) as (nodes, _clock, store):
        a, b, c = nodes
        table, tokens = await new_table(a, humans=[0, 1])
        await table.start_game()
        replica_b, replica_c = await on(b, table.table_id), await on(c, table.table_id)
        socket0, socket1 = Socket("seat 0 on B"), Socket("seat 1 on A")
        assert await replica_b.call(commands.Subscribe(socket0, tokens[0])) == 0
        assert await table.call(commands.Subscribe(socket1, tokens[1])) == 1

        assert await replica_c.call(commands.EndByOperator(REASON)) is True  # C owns nothing
        assert table.state.phase.value == "annulled"
        for socket in (socket0, socket1):
            await until(lambda: bool(endings(socket)), f"{socket} ended")  # noqa: B023
            (ended,) = endings(socket)
            assert (ended["reason"], ended["operator_reason"]) == ("annulled", REASON)
        await until(lambda: replica_b.seq == replica_c.seq == table.seq, "replicas caught up")
        assert replica_b.state.phase.value == replica_c.state.phase.value == "annulled"
        assert (await store.table(table.table_id)).status == "annulled"  # type: ignore[union-attr]

        # Over now: a second end changes nothing, and no move is taken.
        seq = table.seq
        assert await replica_b.call(commands.EndByOperator("otra vez")) is False
        with pytest.raises(TableError) as refused:
            await replica_b.call(commands.FromSocket(socket0, commands.Act(0, {"type": "pass"})))
        assert refused.value.code == "not_playing"
        assert table.seq == seq
