"""The tournament director's process dies mid-round, and the tournament finishes on the others
(tournaments/director.py): three real server processes on PostgreSQL and Redis, a
minitorneo of 8 filled with bots (and two registered accounts that never come: their seats
are covered after the grace, their places stored), the process holding the lease
`<prefix>:tournaments` killed with SIGKILL while the first round's games are played.

Another process takes the lease over and resumes from the store alone: the games the dead
process was playing are taken over by the cluster as any table is, their outcomes recorded,
the next rounds paired and played, the podium and the places stored, and every game of the
bracket recorded exactly once, at exactly one table.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from pathlib import Path
from typing import Any, cast

import pytest
import redis

from tests import services
from tests.server.support.cluster_harness import Node, ProcessCluster
from tranque.server.store.sql import SqlStore
from tranque.server.store.tournaments import TournamentRow
from tranque.server.tournaments.config import TournamentConfig
from tranque.server.tournaments.machine import Tournament

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.processes,  # its nodes are processes: such tests take turns (tests/conftest.py)
    pytest.mark.skipif(
        os.environ.get("TRANQUE_TEST_DB", "memory") != "memory",
        reason="a cluster runs on PostgreSQL and Redis whatever TRANQUE_TEST_DB says; run in the main pass",
    ),
]

NODE = Path(__file__).resolve().parents[1] / "support" / "tournament_node.py"
WAIT = 180.0  # seconds for the whole event (it takes about 20 s)


@pytest.fixture
def database_url() -> str:
    return services.fresh_postgres_url()


def director_of(cluster: ProcessCluster) -> Node | None:
    """The live process holding the director's lease."""
    client = redis.Redis.from_url(cluster.redis_url, decode_responses=True)
    try:
        holder = cast("str | None", client.get(f"{cluster.prefix}:tournaments"))
    finally:
        client.close()
    return next((node for node in cluster.live() if holder is not None and node.node_id == holder), None)


async def until(what: str, check: Any, seconds: float = WAIT) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"never: {what}")


async def test_a_minitorneo_finishes_when_the_directors_process_is_killed_mid_round(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    with ProcessCluster(3, database_url, redis_url, tmp_path, lease_seconds=1.0, script=NODE) as cluster:
        names = [(await cluster.named_account(cluster.nodes[0]))[1] for _ in range(2)]
        store = SqlStore(database_url)
        await store.start()
        try:
            accounts = []
            for name in names:
                user = await store.find_user(name)
                assert user is not None
                accounts.append(user.user_id)
            now = time.time()
            config = TournamentConfig.from_json(
                {
                    "name": "Minitorneo de la caída",
                    "format": "minitorneo",
                    "entry": "duel",
                    "size": 8,
                    "target": 50,
                    "bot_fill": True,
                    "fill_wait_seconds": 0.0,
                    "rated": False,
                    "bot_level": "greedy",
                }
            ).checked()
            tournament = Tournament.new(secrets.token_urlsafe(9), config, accounts[0], now)
            for account, name in zip(accounts, names, strict=True):
                tournament.register(account, name, 1500, now)
            created = await store.create_tournament(
                TournamentRow(
                    id=tournament.id,
                    status=str(tournament.status),
                    format="minitorneo",
                    name=config.name,
                    private=False,
                    creator_id=accounts[0],
                    created_at=now,
                    starts_at=None,
                    finished_at=None,
                    schedule_key=None,
                    version=0,
                    doc=tournament.to_json(),
                )
            )
            assert created
            tid = tournament.id

            async def doc() -> dict[str, Any]:
                row = await store.tournament(tid)
                assert row is not None
                return row.doc

            async def round_one_under_way() -> bool:
                rounds = (await doc()).get("rounds") or []
                if not rounds:
                    return False
                tables = [game["table_id"] for game in rounds[0]["games"]]
                moves = [len(await store.load_events(table)) for table in tables]
                return all(count > 12 for count in moves) and rounds[0]["games"][0]["state"] != "done"

            await until("the first round under way", round_one_under_way)
            director = await asyncio.to_thread(director_of, cluster)
            assert director is not None
            await asyncio.to_thread(director.kill)
            killed_at = time.monotonic()

            async def another_director() -> Node | None:
                return await asyncio.to_thread(director_of, cluster)

            successor = await until("another process directing", another_director)
            assert successor is not director

            async def finished() -> bool:
                row = await store.tournament(tid)
                return row is not None and row.status == "finished"

            await until("the tournament finished", finished)
            print(f"\ndirector killed mid-round: finished {time.monotonic() - killed_at:.1f} s later")

            final = Tournament.from_json(await doc())
            games = [game for plan in final.rounds for game in plan.games]
            assert [len(plan.games) for plan in final.rounds] == [4, 2, 2]  # the final and third place last
            assert all(game.state == "done" and game.result is not None for game in games)
            assert len({game.table_id for game in games}) == len(games)
            # Every game recorded once: each table's log has one game, ended at its target (or
            # the cap), and no other table of the tournament holds a game played to its end.
            for game in games:
                log = await store.load_events(game.table_id)
                ends = [event for event in log if event.kind == "game_ended"]
                assert len(ends) == 1 and ends[0].data["reason"] in ("target", "time"), game.key
            rows = await store.tables(("waiting", "playing", "finished", "annulled"))
            ours = [row for row in rows if row.config["options"].get("tournament") == tid]
            played = {row.table_id for row in ours if row.status == "finished"}
            assert played == {game.table_id for game in games}
            podium = final.podium()
            assert len(set(podium)) == 3
            for account in accounts:  # places stored for the profiles
                ((row, place),) = await store.player_tournaments(account, 10)
                assert row.id == tid and place is not None
        finally:
            await store.close()
