"""The `Store` contract, run against every backend: memory, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from tranque.server.store import DuplicateEvent, MemoryStore, NameTaken, Store, StoredEvent, TableRow
from tranque.server.store.factory import make_store
from tranque.server.store.schema import metadata
from tranque.server.store.sql import (
    SqlStore,
    alembic_config,
    async_url,
    create_engine,
    upgrade_connection,
    upgrade_to_head,
)

pytestmark = pytest.mark.anyio

NESTED: dict[str, Any] = {
    "zeta": "first key, kept first",
    "alpha": [1, 2.5, -0.125, 1e-300, 2**53 + 1, True, False, None, "", [], {}],
    "mano": {"jugador": "Ñandú", "fichas": ["6-6", "5-4"], "punta": None, "nested": [[{"a": [{}]}]]},
    "texto": 'comillas " y \\ barra\nnueva línea\t🁣',
    "uno": 1,
    "uno_real": 1.0,
}


def event(seq: int, kind: str = "play", at: float = 1000.0) -> StoredEvent:
    return StoredEvent(seq, kind, {"seat": seq % 4, "tile": f"{seq % 7}-0"}, at + seq)


def exactly(value: Any) -> str:
    """A spelling that tells 1 from 1.0 and keeps key order, unlike ==."""
    return json.dumps(value, ensure_ascii=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def sql_store(sql_url: str) -> AsyncIterator[SqlStore]:
    store = SqlStore(sql_url)
    await store.start()
    try:
        yield store
    finally:
        await store.close()


# Event logs -----------------------------------------------------------------------------


async def test_events_come_back_in_order_after_a_given_seq(store: Store) -> None:
    await store.create_table("t-orden", {"preset": "clasico"}, 1.0)
    for seq in range(1, 6):
        await store.append_event("t-orden", event(seq))

    assert await store.load_events("t-orden") == [event(seq) for seq in range(1, 6)]
    assert await store.load_events("t-orden", after_seq=3) == [event(4), event(5)]
    assert await store.load_events("t-orden", after_seq=5) == []
    assert await store.load_events("t-desconocida") == []


async def test_a_repeated_or_older_seq_is_a_DuplicateEvent_and_the_log_is_unchanged(store: Store) -> None:
    await store.create_table("t-dup", {}, 1.0)
    await store.append_event("t-dup", event(1))
    await store.append_event("t-dup", event(2))

    with pytest.raises(DuplicateEvent):
        await store.append_event("t-dup", StoredEvent(2, "pass", {"seat": 9}, 5.0))
    with pytest.raises(DuplicateEvent):
        await store.append_event("t-dup", StoredEvent(1, "pass", {"seat": 9}, 5.0))

    assert await store.load_events("t-dup") == [event(1), event(2)]
    await store.append_event("t-dup", event(3))
    assert [e.seq for e in await store.load_events("t-dup")] == [1, 2, 3]


async def test_a_commands_events_are_stored_together_in_order(store: Store) -> None:
    await store.create_table("t-lote", {}, 1.0)
    await store.append_event("t-lote", event(1))
    await store.append_events("t-lote", [event(2, "play"), event(3, "turn"), event(4, "play")])
    await store.append_events("t-lote", [])
    expected = [event(1), event(2, "play"), event(3, "turn"), event(4, "play")]
    assert await store.load_events("t-lote") == expected


async def test_no_event_of_a_batch_after_a_refused_one_is_stored(store: Store) -> None:
    await store.create_table("t-lote-rechazado", {}, 1.0)
    await store.append_events("t-lote-rechazado", [event(1), event(2)])
    with pytest.raises(DuplicateEvent):  # seq 2 is taken: 3 was decided on a state never stored
        await store.append_events("t-lote-rechazado", [event(2, "pass"), event(3, "turn")])
    assert await store.load_events("t-lote-rechazado") == [event(1), event(2)]
    await store.append_events("t-lote-rechazado", [event(3, "turn")])
    assert [e.seq for e in await store.load_events("t-lote-rechazado")] == [1, 2, 3]


async def test_each_table_has_its_own_numbering(store: Store) -> None:
    await store.create_table("t-a", {}, 1.0)
    await store.create_table("t-b", {}, 2.0)
    await store.append_event("t-a", event(1, "deal"))
    await store.append_event("t-b", event(1, "play"))

    assert await store.load_events("t-a") == [event(1, "deal")]
    assert await store.load_events("t-b") == [event(1, "play")]


async def test_events_for_an_unknown_table_are_refused(store: Store) -> None:
    with pytest.raises(KeyError):
        await store.append_event("t-nunca-creada", event(1))
    assert await store.load_events("t-nunca-creada") == []


# Tables ---------------------------------------------------------------------------------


async def test_tables_are_listed_by_status_in_creation_order(store: Store) -> None:
    await store.create_table("t-1", {"n": 1}, 10.0)
    await store.create_table("t-2", {"n": 2}, 20.0)
    await store.create_table("t-3", {"n": 3}, 30.0)
    await store.set_table_status("t-1", "playing")
    await store.set_table_status("t-3", "playing")
    await store.set_table_status("t-3", "finished")

    assert await store.tables(("waiting",)) == [TableRow("t-2", {"n": 2}, "waiting", 20.0)]
    assert await store.tables(("playing", "finished")) == [
        TableRow("t-1", {"n": 1}, "playing", 10.0),
        TableRow("t-3", {"n": 3}, "finished", 30.0),
    ]
    assert await store.tables(("annulled",)) == []
    assert await store.tables(()) == []


async def test_the_status_of_an_unknown_table_cannot_be_set(store: Store) -> None:
    with pytest.raises(KeyError):
        await store.set_table_status("t-nunca-creada", "playing")


async def test_records_are_saved_replaced_and_loaded(store: Store) -> None:
    assert await store.load_record("t-rec") is None
    await store.save_record("t-rec", {"rounds": [1]})
    await store.save_record("t-otra", {"rounds": [9]})
    await store.save_record("t-rec", {"rounds": [1, 2]})

    assert await store.load_record("t-rec") == {"rounds": [1, 2]}
    assert await store.load_record("t-otra") == {"rounds": [9]}


async def test_json_round_trips_nested_data_exactly(store: Store) -> None:
    await store.create_table("t-json", NESTED, 1.0)
    await store.append_event("t-json", StoredEvent(1, "deal", NESTED, 2.0))
    await store.save_record("t-json", NESTED)

    (row,) = await store.tables(("waiting",))
    (stored,) = await store.load_events("t-json")
    record = await store.load_record("t-json")
    for value in (row.config, stored.data, record):
        assert value == NESTED
        assert exactly(value) == exactly(NESTED)


# Accounts -------------------------------------------------------------------------------


async def test_user_names_are_unique_whatever_their_case(store: Store) -> None:
    pedro = await store.create_user("Pedro", "hash-1", 1.0)
    with pytest.raises(NameTaken):
        await store.create_user("pEDRO", "hash-2", 2.0)
    strasse = await store.create_user("Straße", "hash-3", 3.0)
    with pytest.raises(NameTaken):
        await store.create_user("STRASSE", "hash-4", 4.0)  # casefold, not lower()

    assert pedro.name == "Pedro" and pedro.password_hash == "hash-1"
    assert strasse.user_id != pedro.user_id
    assert await store.find_user("PEDRO") == pedro
    assert await store.find_user("strasse") == strasse
    assert await store.find_user("Juana") is None
    assert await store.user_by_id(pedro.user_id) == pedro
    assert await store.user_by_id(strasse.user_id + 1000) is None


async def test_a_session_finds_its_user_until_it_expires(store: Store) -> None:
    maria = await store.create_user("María", "hash", 1.0)
    await store.create_session("token-a", maria.user_id, 100.0)

    assert await store.session_user("token-a", 99.5) == maria
    assert await store.session_user("token-a", 100.0) is None
    assert await store.session_user("token-b", 50.0) is None


async def test_a_deleted_session_no_longer_finds_its_user(store: Store) -> None:
    maria = await store.create_user("María", "hash", 1.0)
    await store.create_session("token-a", maria.user_id, 100.0)
    await store.create_session("token-b", maria.user_id, 100.0)
    await store.delete_session("token-a")
    await store.delete_session("token-nunca-creado")

    assert await store.session_user("token-a", 1.0) is None
    assert await store.session_user("token-b", 1.0) == maria


async def test_start_twice_is_harmless(store: Store) -> None:
    await store.create_table("t-start", {}, 1.0)
    await store.start()
    assert [row.table_id for row in await store.tables(("waiting",))] == ["t-start"]


# SQL backends only ----------------------------------------------------------------------


async def test_a_second_store_on_the_same_database_sees_the_first_ones_data(sql_url: str) -> None:
    first = SqlStore(sql_url)
    await first.start()
    try:
        await first.create_table("t-reinicio", {"preset": "clasico"}, 1.0)
        await first.append_event("t-reinicio", event(1))
        user = await first.create_user("Reinicio", "hash", 1.0)
    finally:
        await first.close()

    second = SqlStore(sql_url)
    await second.start()
    try:
        assert await second.load_events("t-reinicio") == [event(1)]
        assert await second.find_user("reinicio") == user
        assert "t-reinicio" in [row.table_id for row in await second.tables(("waiting",))]
    finally:
        await second.close()


async def test_two_owners_writing_one_seq_leave_exactly_one_event(sql_url: str) -> None:
    owners = [SqlStore(sql_url), SqlStore(sql_url)]
    for owner in owners:
        await owner.start()
    try:
        await owners[0].create_table("t-dos-duenos", {}, 1.0)
        outcomes = await asyncio.gather(
            owners[0].append_event("t-dos-duenos", event(1, "play")),
            owners[1].append_event("t-dos-duenos", event(1, "pass")),
            return_exceptions=True,
        )
        assert sorted(type(outcome).__name__ for outcome in outcomes) == ["DuplicateEvent", "NoneType"]
        (stored,) = await owners[1].load_events("t-dos-duenos")
        assert stored == event(1, "play" if outcomes[0] is None else "pass")
    finally:
        for owner in owners:
            await owner.close()


async def test_a_former_owners_batch_is_refused_whole_when_another_owner_took_its_first_seq(
    sql_url: str,
) -> None:
    owners = [SqlStore(sql_url), SqlStore(sql_url)]
    for owner in owners:
        await owner.start()
    try:
        await owners[0].create_table("t-relevo", {}, 1.0)
        await owners[0].append_event("t-relevo", event(1))  # the first owner remembers seq 1
        await owners[1].append_event("t-relevo", event(2, "pass"))  # the next owner goes on
        with pytest.raises(DuplicateEvent):
            await owners[0].append_events("t-relevo", [event(2, "play"), event(3, "turn")])
        assert await owners[1].load_events("t-relevo") == [event(1), event(2, "pass")]
    finally:
        for owner in owners:
            await owner.close()


async def test_migrations_create_exactly_the_schema_the_code_uses(sql_store: SqlStore) -> None:
    def differences(connection: sa.Connection) -> list[Any]:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return list(compare_metadata(context, metadata))

    async with sql_store.engine.connect() as connection:
        assert await connection.run_sync(differences) == []
        versions = (await connection.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None and head.isdigit()
    assert [tuple(row) for row in versions] == [(head,)]


async def test_postgres_sessions_end_runaway_statements_and_idle_transactions_but_not_migrations(
    postgres_url: str,
) -> None:
    def show(connection: sa.Connection) -> tuple[str, str]:
        statement = connection.exec_driver_sql("SHOW statement_timeout").scalar_one()
        idle = connection.exec_driver_sql("SHOW idle_in_transaction_session_timeout").scalar_one()
        return statement, idle

    def migrate_then_show(connection: sa.Connection) -> tuple[str, str]:
        upgrade_connection(connection)
        return show(connection)

    engine = create_engine(postgres_url)
    try:
        async with engine.connect() as connection:
            assert await connection.run_sync(show) == ("30s", "1min")
        async with engine.begin() as connection:
            assert await connection.run_sync(migrate_then_show) == ("0", "1min")
        # Lifted for the migration's transaction only.
        async with engine.connect() as connection:
            assert await connection.run_sync(show) == ("30s", "1min")
    finally:
        await engine.dispose()


async def test_upgrade_to_head_creates_the_sqlite_directory_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "no" / "existe" / "tranque.db"
    await upgrade_to_head(f"sqlite:///{path}")
    await upgrade_to_head(f"sqlite:///{path}")

    store = SqlStore(f"sqlite:///{path}")
    await store.start()
    try:
        await store.create_table("t-ruta", {}, 1.0)
        async with store.engine.connect() as connection:
            journal = await connection.scalar(sa.text("PRAGMA journal_mode"))
            busy = await connection.scalar(sa.text("PRAGMA busy_timeout"))
    finally:
        await store.close()
    assert path.exists()
    assert (journal, busy) == ("wal", 10_000)


def test_urls_are_rewritten_to_the_async_drivers() -> None:
    assert str(async_url("postgresql://u@db:5432/tranque")) == "postgresql+asyncpg://u@db:5432/tranque"
    assert str(async_url("postgres://u@db/tranque")) == "postgresql+asyncpg://u@db/tranque"
    assert str(async_url("sqlite:///./tranque.db")) == "sqlite+aiosqlite:///./tranque.db"
    assert str(async_url("sqlite+aiosqlite:////var/x.db")) == "sqlite+aiosqlite:////var/x.db"
    assert str(async_url("postgresql+asyncpg://u@db/t")) == "postgresql+asyncpg://u@db/t"


def test_make_store_chooses_the_backend_by_url() -> None:
    assert isinstance(make_store(None), MemoryStore)
    assert isinstance(make_store("memory://"), MemoryStore)
    sql = make_store("postgresql://postgres@127.0.0.1/tranque")
    assert isinstance(sql, SqlStore)
    assert sql.url.drivername == "postgresql+asyncpg"
