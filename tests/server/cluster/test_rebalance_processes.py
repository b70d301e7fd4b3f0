"""Rebalancing in a real cluster (cluster/balance.py): two server processes on PostgreSQL and
Redis, every table made on the first one, people playing through both over real WebSockets.
The first process hands tables over to the second while the games go on, until each owns
half; every client still gets every event once and in order, and every acknowledged move is
in the log (test_cluster_processes.py's checks)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from tests.server.cluster.test_cluster_processes import (
    GAMES,
    check_streams,
    cluster_of,
    database_url,
    logs_of,
    playing,
    pytestmark,
)
from tests.server.support.cluster_harness import ProcessCluster, RoamingClient

__all__ = ["database_url", "pytestmark"]  # the fixture and the marks, from test_cluster_processes


def owned(cluster: ProcessCluster) -> list[int]:
    return [node.status()["owned"] for node in cluster.nodes]


async def test_tables_made_on_one_process_spread_over_both_while_they_are_played(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    with cluster_of(2, database_url, redis_url, tmp_path) as cluster:
        clients: list[RoamingClient] = []
        for index, (rules, humans) in enumerate(GAMES[:4]):
            table, seated = await cluster.seat(rules, humans, host=0, sit_on=[0, 1])
            for number, (_seat, token) in enumerate(seated):
                node = (index + number) % 2
                clients.append(
                    RoamingClient(
                        cluster, table, token, node=node, seed=10 * index + number, think=(0.2, 0.6)
                    )
                )
        # Every table was made on the first process; it may have handed some over while the
        # others were seated (on a loaded machine, even two): each one the second owns came so.
        before = await asyncio.to_thread(owned, cluster)
        assert sum(before) == 4, before
        async with playing(clients):
            play = asyncio.gather(*(client.play() for client in clients))
            started = time.monotonic()
            spread: list[int] = before
            while not play.done() and spread != [2, 2]:
                await asyncio.sleep(0.2)
                spread = await asyncio.to_thread(owned, cluster)
            took = time.monotonic() - started
            ended: list[dict[str, Any]] = await play
        print(f"\nownership {before} -> {spread} ({took:.1f} s after play began)")
        assert spread == [2, 2]
        handed = [node.status()["handed_over"] for node in cluster.nodes]
        assert handed[0] >= 2, handed  # (more may move as games end at different times)
        assert all(result["reason"] == "target" for result in ended)
        check_streams(clients, await logs_of(database_url, sorted({client.table for client in clients})))
