"""The players' store on real databases: a server from before revision 0003 upgrades in place
and keeps its accounts and tables; friendship and blocks read back from their rows."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from tests import services
from tranque.server.store.schema import blocks, friends
from tranque.server.store.sql import SqlStore, alembic_config, create_engine


def database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of its own (one at revision 0002 cannot share the session's)."""
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    request.getfixturevalue("postgres_url")  # its teardown drops the databases made here too
    return services.fresh_postgres_url()


async def execute(url: str, *statements: sa.Executable) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for statement in statements:
                await connection.execute(statement)
    finally:
        await engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0002_upgrades_to_head_and_keeps_its_rows(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0002")
    # rows as a server at revision 0002 wrote them (no avatar column yet)
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO users (name, name_key, password_hash, created_at, name_skeleton) "
                "VALUES ('Pedro', 'pedro', 'hash', 1.5, 'pedro')"
            ),
            sa.text(
                "INSERT INTO tables (table_id, config, status, created_at) "
                "VALUES ('mesa1', '{\"preset\": \"clasico\"}', 'waiting', 2.5)"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            found = await store.find_user("pedro")
            assert found is not None and (found.name, found.password_hash, found.created_at) == (
                "Pedro",
                "hash",
                1.5,
            )
            assert found.avatar is None
            [table] = await store.tables(("waiting",))
            assert (table.table_id, table.config, table.created_at) == ("mesa1", {"preset": "clasico"}, 2.5)
            await store.set_avatar(found.user_id, "gallo")
            changed = await store.find_user("Pedro")
            assert changed is not None and changed.avatar == "gallo"
            assert (await store.xp_leaderboard("all", 0, 50)).total == 0
        finally:
            await store.close()

    asyncio.run(read_back())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_friendship_and_blocks_are_read_from_their_rows(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = database_url(backend, request, tmp_path)

    async def scenario() -> list[tuple[str, bool]]:
        store = SqlStore(url)
        await store.start()
        try:
            ids = [
                (await store.create_user(name, "hash", 1.0)).user_id
                for name in ("ana", "beto", "caro", "dora")
            ]
            ana, beto, caro, dora = ids
            async with store.engine.begin() as connection:
                await connection.execute(
                    friends.insert(),
                    [
                        {"user_id": ana, "friend_id": beto, "status": "accepted", "created_at": 1.0},
                        {"user_id": beto, "friend_id": ana, "status": "accepted", "created_at": 1.0},
                        {"user_id": ana, "friend_id": caro, "status": "pending", "created_at": 1.0},
                    ],
                )
                await connection.execute(blocks.insert().values(user_id=dora, blocked_id=ana, created_at=1.0))
            pairs = [(ana, beto), (beto, ana), (ana, caro), (caro, ana), (ana, dora), (dora, ana)]
            return [await store.relation(one, other) for one, other in pairs]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == [
        ("friends", False),
        ("friends", False),
        ("outgoing", False),
        ("incoming", False),
        ("none", False),
        ("none", True),
    ]
