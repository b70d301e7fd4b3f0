"""One process of a test cluster that plays tournaments (tests/server/cluster/
test_tournament_director_failover.py): cluster_node.py's settings, with bots that take a
moment per move and a short pause between hands (no person says «listo» at a bots' table),
a director that looks every 0.2 s, and a short absence grace.

    python tests/server/support/tournament_node.py DATABASE_URL REDIS_URL PORT PREFIX [LEASE_SECONDS]
"""

from __future__ import annotations

import dataclasses
import logging
import sys

import uvicorn

from tests.server.support.cluster_node import node_settings
from tranque.server import runtime
from tranque.server.app import create_app


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("tranque.server.store").setLevel(logging.WARNING)
    database_url, redis_url, port, prefix = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    lease_seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 2.5
    rebalance = sys.argv[6] != "stay" if len(sys.argv) > 6 else True
    settings = dataclasses.replace(
        node_settings(database_url, redis_url, prefix, lease_seconds, rebalance),
        bot_min_seconds=0.05,
        between_rounds_seconds=0.3,
        tournament_tick_seconds=0.2,
        tournament_absent_grace_seconds=1.0,
    )
    uvicorn.run(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **runtime.uvicorn_options(settings.limits),
    )


if __name__ == "__main__":
    main()
