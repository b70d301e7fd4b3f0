"""One process of a test cluster, for tests that kill, pause and restart processes
(tests/server/cluster/test_cluster_processes.py, benchmarks/failover.py).

    python tests/server/support/cluster_node.py DATABASE_URL REDIS_URL PORT PREFIX [LEASE_SECONDS]

Real clock; bots answer at once (in threads); a forced pass or draw is played after 50 ms;
only «listo» from every person ends the pause between rounds, so the scripted clients set
the pace. The cluster's channels and leases are named under PREFIX, so test runs never meet.
"""

from __future__ import annotations

import logging
import os
import sys

import uvicorn

from tranque.server import runtime
from tranque.server.app import create_app
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.limits import Limits
from tranque.server.settings import Settings
from tranque.server.ws.limits import SocketLimits


def node_settings(
    database_url: str, redis_url: str, prefix: str, lease_seconds: float = 2.5, rebalance: bool = True
) -> Settings:
    return Settings(
        database_url=database_url,
        redis_url=redis_url,
        cluster=ClusterSettings(
            prefix=prefix,
            lease_seconds=lease_seconds,
            renew_seconds=lease_seconds / 5,
            scan_seconds=lease_seconds / 5,
            # "stay": tables stay where they were made or taken over (tests of fencing)
            rebalance_tolerance=1 if rebalance else 10**6,
        ),
        bot_processes=0,
        bot_min_seconds=0,
        auto_move_seconds=0.05,
        between_rounds_seconds=3600,
        registrations_per_address_per_hour=10_000,
        limits=Limits(live_games_per_address=10_000),  # every test client comes from 127.0.0.1
        sockets_per_place=10**6,
        socket_limits=SocketLimits(burst=10**9, bot_burst=10**9),  # the clients play as fast as the bots
        fairplay_sampler=False,  # no background analyses in the tests' servers
    )


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("tranque.server.store").setLevel(logging.WARNING)
    if os.environ.get("TRANQUE_CLUSTER_DEBUG"):
        logging.getLogger("tranque.server.cluster").setLevel(logging.DEBUG)
    database_url, redis_url, port, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    lease_seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 2.5
    rebalance = sys.argv[6] != "stay" if len(sys.argv) > 6 else True
    settings = node_settings(database_url, redis_url, prefix, lease_seconds, rebalance)
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **runtime.uvicorn_options(settings.limits),
    )


if __name__ == "__main__":
    main()
