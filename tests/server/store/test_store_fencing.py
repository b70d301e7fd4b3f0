"""Fencing of a table's writes by its owner's epoch, on every backend (memory, SQLite file and
in memory, PostgreSQL).

With several processes on one database a process taking a table over claims it
(`Store.claim_table`: the table's epoch goes up by one) and its writes carry the epoch it got.
A write carrying another epoch (a former owner, paused or cut off) stores nothing and raises
`StaleEpoch`, whatever else the same group commit holds; a write with `epoch=None` is not
checked, as before. A database from before revision 0006 upgrades with every table at epoch 0.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from sqlalchemy.ext.asyncio import AsyncEngine

from tests.server.conftest import empty_tables, make_test_store
from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.store import (
    DuplicateEvent,
    StaleEpoch,
    Store,
    StoredEvent,
    TableRow,
    postgres_appends,
    sqlite_appends,
)
from tranque.server.store.sql import SqlStore, alembic_config, create_engine

pytestmark = pytest.mark.anyio


def event(seq: int, kind: str = "action", table: int = 0) -> StoredEvent:
    return StoredEvent(seq, kind, {"seat": seq % 4, "mesa": table, "tile": f"{seq % 7}-0"}, 3000.0 + seq)


async def started_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A started, empty store of `kind`; "sqlite-memory" is a `SqlStore` on an in-memory SQLite
    database (its appends through SQLAlchemy, not `sqlite_appends`)."""
    started = (
        SqlStore("sqlite+aiosqlite://")
        if kind == "sqlite-memory"
        else make_test_store(kind, request, tmp_path)
    )
    await started.start()
    try:
        if isinstance(started, SqlStore):
            await empty_tables(started)
        yield started
    finally:
        await started.close()


@pytest.fixture(params=["memory", "sqlite", "sqlite-memory", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A started, empty store of each backend."""
    async for started in started_store(request.param, request, tmp_path):
        yield started


@pytest.fixture(params=["sqlite", "sqlite-memory", "postgresql"])
async def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A started, empty `SqlStore` of each database: its appends are group-committed."""
    async for started in started_store(request.param, request, tmp_path):
        assert isinstance(started, SqlStore)
        yield started


@pytest.fixture(params=["sqlite", "postgresql"])
def sql_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def owners(sql_url: str) -> AsyncIterator[tuple[SqlStore, SqlStore]]:
    """Two stores on one emptied database, as two server processes would have."""
    first, second = SqlStore(sql_url), SqlStore(sql_url)
    await first.start()
    await second.start()
    try:
        await empty_tables(first)
        yield first, second
    finally:
        await first.close()
        await second.close()


# Claims -------------------------------------------------------------------------------------


async def test_a_new_table_is_at_epoch_0_and_each_claim_adds_one(store: Store) -> None:
    await store.create_table("t-epocas", {"preset": "clasico", "n": [1, 2]}, 5.0)
    await store.create_table("t-otra", {}, 6.0)
    assert await store.table_epoch("t-epocas") == 0
    assert await store.table("t-epocas") == TableRow(
        "t-epocas", {"preset": "clasico", "n": [1, 2]}, "waiting", 5.0
    )

    assert await store.claim_table("t-epocas") == 1
    assert await store.claim_table("t-epocas") == 2
    assert await store.table_epoch("t-epocas") == 2
    assert await store.table_epoch("t-otra") == 0  # each table its own epoch

    row = await store.table("t-epocas")
    assert row is not None and (row.epoch, row.status, row.config) == (
        2,
        "waiting",
        {"preset": "clasico", "n": [1, 2]},
    )
    assert [(row.table_id, row.epoch) for row in await store.tables(("waiting",))] == [
        ("t-epocas", 2),
        ("t-otra", 0),
    ]


async def test_an_unknown_table_cannot_be_claimed_read_or_written_at_an_epoch(store: Store) -> None:
    assert await store.table("t-nunca-creada") is None
    with pytest.raises(KeyError):
        await store.claim_table("t-nunca-creada")
    with pytest.raises(KeyError):
        await store.table_epoch("t-nunca-creada")
    with pytest.raises(KeyError):
        await store.append_event("t-nunca-creada", event(1), epoch=0)
    with pytest.raises(KeyError):
        await store.append_events("t-nunca-creada", [event(1), event(2)], epoch=1)
    with pytest.raises(KeyError):
        await store.set_table_status("t-nunca-creada", "playing", epoch=0)
    assert await store.load_events("t-nunca-creada") == []


# Writes at an epoch ---------------------------------------------------------------------------


async def test_appends_at_the_tables_epoch_land(store: Store) -> None:
    await store.create_table("t-vigente", {}, 1.0)
    await store.append_event("t-vigente", event(1), epoch=0)  # never claimed: epoch 0
    epoch = await store.claim_table("t-vigente")
    await store.append_event("t-vigente", event(2), epoch=epoch)
    await store.append_events("t-vigente", [event(3), event(4, "turn")], epoch=epoch)
    await store.set_table_status("t-vigente", "playing", epoch=epoch)

    assert await store.load_events("t-vigente") == [event(1), event(2), event(3), event(4, "turn")]
    row = await store.table("t-vigente")
    assert row is not None and (row.status, row.epoch) == ("playing", 1)


async def test_an_append_at_another_epoch_raises_StaleEpoch_and_stores_nothing(store: Store) -> None:
    await store.create_table("t-viejo", {}, 1.0)
    old = await store.claim_table("t-viejo")
    await store.append_event("t-viejo", event(1), epoch=old)
    new = await store.claim_table("t-viejo")

    with pytest.raises(StaleEpoch):
        await store.append_event("t-viejo", event(2), epoch=old)
    with pytest.raises(StaleEpoch):  # a command's events: none of them
        await store.append_events("t-viejo", [event(2), event(3, "turn"), event(4)], epoch=old)
    with pytest.raises(StaleEpoch):  # not the table's epoch: a later one is refused too
        await store.append_event("t-viejo", event(2), epoch=new + 1)
    with pytest.raises(StaleEpoch):  # the epoch is checked before the seq
        await store.append_event("t-viejo", event(1, "pass"), epoch=old)
    assert await store.load_events("t-viejo") == [event(1)]

    await store.append_events("t-viejo", [event(2, "pass"), event(3, "turn")], epoch=new)
    assert await store.load_events("t-viejo") == [event(1), event(2, "pass"), event(3, "turn")]


async def test_a_status_change_at_another_epoch_raises_StaleEpoch_and_changes_nothing(store: Store) -> None:
    await store.create_table("t-estado", {}, 1.0)
    old = await store.claim_table("t-estado")
    new = await store.claim_table("t-estado")

    with pytest.raises(StaleEpoch):
        await store.set_table_status("t-estado", "annulled", epoch=old)
    row = await store.table("t-estado")
    assert row is not None and row.status == "waiting"
    assert await store.tables(("annulled",)) == []

    await store.set_table_status("t-estado", "playing", epoch=new)
    row = await store.table("t-estado")
    assert row is not None and (row.status, row.epoch) == ("playing", new)


async def test_a_duplicate_seq_at_the_right_epoch_is_still_a_DuplicateEvent(store: Store) -> None:
    await store.create_table("t-duplicado", {}, 1.0)
    epoch = await store.claim_table("t-duplicado")
    await store.append_events("t-duplicado", [event(1), event(2)], epoch=epoch)
    with pytest.raises(DuplicateEvent):  # seq 2 is taken: 3 is not stored after it
        await store.append_events("t-duplicado", [event(2, "pass"), event(3)], epoch=epoch)
    assert await store.load_events("t-duplicado") == [event(1), event(2)]


async def test_writes_without_an_epoch_are_not_checked(store: Store) -> None:
    await store.create_table("t-sin-epoca", {}, 1.0)
    await store.claim_table("t-sin-epoca")
    await store.claim_table("t-sin-epoca")

    await store.append_event("t-sin-epoca", event(1))
    await store.append_events("t-sin-epoca", [event(2), event(3)])
    await store.append_events("t-sin-epoca", [], epoch=1)  # nothing to write: nothing checked
    await store.set_table_status("t-sin-epoca", "playing")
    with pytest.raises(DuplicateEvent):
        await store.append_event("t-sin-epoca", event(3, "pass"))

    assert await store.load_events("t-sin-epoca") == [event(1), event(2), event(3)]
    row = await store.table("t-sin-epoca")
    assert row is not None and (row.status, row.epoch) == ("playing", 2)


# Two owners -------------------------------------------------------------------------------------


async def test_a_former_owners_pending_append_is_refused_and_the_new_owners_lands(store: Store) -> None:
    """Owner A holds epoch 1 and is paused with a command's events in hand; owner B takes the
    table over (epoch 2) and goes on; A's events come in late."""
    await store.create_table("t-relevo", {}, 1.0)
    a = await store.claim_table("t-relevo")
    await store.append_event("t-relevo", event(1), epoch=a)
    b = await store.claim_table("t-relevo")
    assert (a, b) == (1, 2)

    await store.append_event("t-relevo", event(2, "pass"), epoch=b)
    with pytest.raises(StaleEpoch):  # A's seq 2 is taken, but it is refused for its epoch
        await store.append_events("t-relevo", [event(2), event(3, "turn")], epoch=a)
    with pytest.raises(StaleEpoch):  # and so is a seq nobody has used yet
        await store.append_event("t-relevo", event(3), epoch=a)
    with pytest.raises(StaleEpoch):
        await store.set_table_status("t-relevo", "finished", epoch=a)
    await store.append_event("t-relevo", event(3, "turn"), epoch=b)

    assert await store.load_events("t-relevo") == [event(1), event(2, "pass"), event(3, "turn")]
    row = await store.table("t-relevo")
    assert row is not None and row.status == "waiting"


async def test_a_former_owner_in_another_process_is_refused(owners: tuple[SqlStore, SqlStore]) -> None:
    first, second = owners
    await first.create_table("t-dos-procesos", {}, 1.0)
    a = await first.claim_table("t-dos-procesos")
    await first.append_events("t-dos-procesos", [event(1), event(2)], epoch=a)  # A remembers seq 2
    b = await second.claim_table("t-dos-procesos")

    with pytest.raises(StaleEpoch):  # A's next seq is free, but A no longer owns the table
        await first.append_events("t-dos-procesos", [event(3), event(4)], epoch=a)
    with pytest.raises(StaleEpoch):
        await first.set_table_status("t-dos-procesos", "annulled", epoch=a)
    await second.append_event("t-dos-procesos", event(3, "pass"), epoch=b)
    await second.set_table_status("t-dos-procesos", "playing", epoch=b)

    assert await first.load_events("t-dos-procesos") == [event(1), event(2), event(3, "pass")]
    row = await first.table("t-dos-procesos")
    assert row is not None and (row.status, row.epoch) == ("playing", b)


@pytest.mark.parametrize("write", ["append", "status"])
async def test_a_write_waits_for_a_claim_under_way_and_is_then_refused(
    owners: tuple[SqlStore, SqlStore], sql_url: str, write: str
) -> None:
    """Another process's claim is in a transaction not yet committed: the former owner's write
    waits for it (it cannot read the epoch from before the claim and be stored after it),
    then is refused."""
    store = owners[0]
    await store.create_table("t-en-vilo", {}, 1.0)
    epoch = await store.claim_table("t-en-vilo")
    engine = create_engine(sql_url)
    try:
        async with engine.connect() as outside:
            claim = await outside.begin()
            await outside.execute(sa.text("UPDATE tables SET epoch = epoch + 1 WHERE table_id = 't-en-vilo'"))
            if write == "append":
                writing = asyncio.ensure_future(
                    store.append_events("t-en-vilo", [event(1), event(2)], epoch=epoch)
                )
            else:
                writing = asyncio.ensure_future(store.set_table_status("t-en-vilo", "annulled", epoch=epoch))
            await until_waiting_for_the_claim(store, engine)
            assert not writing.done()
            await claim.commit()
            with pytest.raises(StaleEpoch):
                await asyncio.wait_for(writing, timeout=10)
    finally:
        await engine.dispose()
    assert await store.load_events("t-en-vilo") == []
    row = await store.table("t-en-vilo")
    assert row is not None and (row.status, row.epoch) == ("waiting", epoch + 1)


async def until_waiting_for_the_claim(store: SqlStore, engine: AsyncEngine) -> None:
    """Until the store's write is known to wait for the claim's transaction: on PostgreSQL a
    session of the database waits for a lock; on a SQLite file the store's appends found the
    file locked by that transaction and will try again (`SqliteAppends`, its retry scheduled)."""
    deadline = asyncio.get_running_loop().time() + 10
    while not await waiting_for_a_lock(store, engine):
        assert asyncio.get_running_loop().time() < deadline, "the write never reached the claim's lock"
        await asyncio.sleep(0.005)


async def waiting_for_a_lock(store: SqlStore, engine: AsyncEngine) -> bool:
    if engine.dialect.name == "postgresql":
        async with engine.connect() as watching:  # a transaction of its own: a fresh view
            waiting = await watching.scalar(
                sa.text(
                    "SELECT count(*) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND wait_event_type = 'Lock'"
                )
            )
        return bool(waiting)
    appends = store._appends
    assert appends is not None, "a SQLite file's appends and statuses go through SqliteAppends"
    queued = appends._pending or appends._statuses
    return bool(queued) and isinstance(appends._flushing, asyncio.TimerHandle)


async def test_appends_racing_a_takeover_land_whole_before_it_or_not_at_all(
    owners: tuple[SqlStore, SqlStore],
) -> None:
    """A appends a command's events to many tables while B takes each of them over; B reads
    each log right after its claim. Each command of A is stored whole or not at all, and
    nothing of A is stored after B's claim (B's read is the final log)."""
    first, second = owners
    names = [f"t-carrera-{n}" for n in range(30)]
    for name in names:
        await first.create_table(name, {}, 1.0)
        await first.claim_table(name)
    commands = [[event(1, table=n), event(2, "turn", table=n)] for n in range(len(names))]

    async def take_over(name: str) -> tuple[int, list[StoredEvent]]:
        epoch = await second.claim_table(name)
        return epoch, await second.load_events(name)

    racing: list[Awaitable[Any]] = []
    for name, events in zip(names, commands, strict=True):
        racing += [first.append_events(name, events, epoch=1), take_over(name)]
    outcomes = await asyncio.gather(*racing, return_exceptions=True)

    for n, name in enumerate(names):
        appended, taken = outcomes[2 * n], outcomes[2 * n + 1]
        assert not isinstance(taken, BaseException), taken
        epoch, seen = taken
        assert epoch == 2
        assert appended is None or isinstance(appended, StaleEpoch), appended
        final = await second.load_events(name)
        assert final == (commands[n] if appended is None else [])
        assert seen == final  # nothing of A's came after B's claim
        with pytest.raises(StaleEpoch):
            await first.append_event(name, event(3, table=n), epoch=1)
        await second.append_event(name, event(len(final) + 1, "pass", table=n), epoch=2)


# Group commits ----------------------------------------------------------------------------------

TABLES = 12


async def test_a_stale_append_in_a_group_commit_is_refused_and_the_others_land(store: Store) -> None:
    names = [f"t-grupo-{n}" for n in range(TABLES)]
    for name in names:
        await store.create_table(name, {}, 1.0)
        await store.claim_table(name)
    for n in (3, 7):  # taken over: their epoch-1 writers are stale
        await store.claim_table(names[n])

    writes: list[tuple[str, list[StoredEvent], int | None]] = [
        (name, [event(1, table=n), event(2, "turn", table=n)], 1) for n, name in enumerate(names)
    ]
    writes[5] = (names[5], [event(1, table=5)], None)  # unchecked, as before fencing
    writes.append((names[7], [event(1, "pass", table=7)], 2))  # the new owner of table 7, same batch
    writes.append(("t-grupo-nunca-creada", [event(1)], 1))
    outcomes = await asyncio.gather(
        *(store.append_events(name, events, epoch=epoch) for name, events, epoch in writes),
        return_exceptions=True,
    )

    expected = ["NoneType"] * TABLES + ["NoneType", "KeyError"]
    expected[3] = expected[7] = "StaleEpoch"
    assert [type(outcome).__name__ for outcome in outcomes] == expected
    for n, name in enumerate(names):
        stored = {3: [], 5: [event(1, table=5)], 7: [event(1, "pass", table=7)]}
        assert await store.load_events(name) == stored.get(n, [event(1, table=n), event(2, "turn", table=n)])


async def test_a_group_commit_refuses_stale_appends_in_its_own_transaction(
    sql_store: SqlStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stale appends of a batch are refused by the batch's transaction (one per batch),
    not one by one on the path an append the batch cannot take goes."""
    store = sql_store
    names = [f"t-un-lote-{n}" for n in range(TABLES)]
    for name in names:
        await store.create_table(name, {}, 1.0)
        await store.claim_table(name)
    for name in names[::2]:
        await store.claim_table(name)

    alone: list[Any] = []
    if store._appends is not None:  # a SQLite file: its appends' own batches
        batches = counting(monkeypatch, sqlite_appends, "_write_together", [])
        counting(monkeypatch, sqlite_appends, "_write_alone", alone)
    else:
        batches = counting(monkeypatch, store, "_append_batch", [])
        counting(monkeypatch, store, "_append_alone", alone)

    outcomes = await asyncio.gather(
        *(store.append_events(name, [event(1), event(2)], epoch=1) for name in names),
        return_exceptions=True,
    )
    assert [type(outcome).__name__ for outcome in outcomes] == ["StaleEpoch", "NoneType"] * (TABLES // 2)
    assert (len(batches), alone) == (1, [])
    for n, name in enumerate(names):
        assert await store.load_events(name) == ([] if n % 2 == 0 else [event(1), event(2)])


async def test_a_postgresql_group_commit_opens_its_connection_again_after_it_broke(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The batches run on a connection of their own (postgres_appends): once the database
    ends it, the next batch either falls back to the one-row path or finds it closed first
    (nothing lost either way), and the batches after it run whole on a new connection."""
    async for store in started_store("postgresql", request, tmp_path):
        assert isinstance(store, SqlStore) and store._batches is not None
        names = [f"t-reabre-{n}" for n in range(4)]
        for name in names:
            await store.create_table(name, {}, 1.0)
            await store.claim_table(name)
        await asyncio.gather(*(store.append_events(name, [event(1)], epoch=1) for name in names))

        async with store.engine.begin() as connection:
            ended = await connection.scalar(
                sa.text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = :name AND datname = current_database()"
                ),
                {"name": postgres_appends.APPLICATION_NAME},
            )
        assert ended == 1
        await asyncio.gather(*(store.append_events(name, [event(2)], epoch=1) for name in names))

        alone = counting(monkeypatch, store, "_append_alone", [])
        await asyncio.gather(*(store.append_events(name, [event(3)], epoch=1) for name in names))
        assert alone == []  # a new connection took the whole batch
        for name in names:
            assert await store.load_events(name) == [event(1), event(2), event(3)]


class _Stalling:
    """An asyncpg connection whose reads of the last seqs wait for `go` first: a process stopped
    (SIGSTOP, a long pause) in the middle of a batch, its tables' rows locked."""

    def __init__(self, connection: Any, stalled: asyncio.Event, go: asyncio.Event) -> None:
        self._connection, self._stalled, self._go = connection, stalled, go

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    async def fetch(self, query: str, *args: Any) -> Any:
        if query == postgres_appends.LAST_SEQS:
            self._stalled.set()
            await self._go.wait()
        return await self._connection.fetch(query, *args)


@pytest.mark.parametrize("sql_url", ["postgresql"], indirect=True)
async def test_a_writer_stalled_in_a_postgresql_batch_does_not_hold_off_a_claim(
    owners: tuple[SqlStore, SqlStore], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A former owner stopped between two statements of its batch holds its tables' rows
    locked. The database ends its session once it has been idle in the transaction for
    `IDLE_IN_TRANSACTION_MS`, so the new owner's claim goes through instead of waiting for it;
    once resumed, the former owner's append is refused (its epoch is stale) and nothing of it
    is stored."""
    former, new = owners
    assert former._batches is not None
    await former.create_table("t-parada", {}, 1.0)
    assert await former.claim_table("t-parada") == 1
    await former.append_events("t-parada", [event(1)], epoch=1)

    batches = former._batches
    connection = await batches._connect()
    stalled, go = asyncio.Event(), asyncio.Event()
    monkeypatch.setattr(batches, "_connect", lambda: _async_value(_Stalling(connection, stalled, go)))
    append = asyncio.create_task(former.append_events("t-parada", [event(2)], epoch=1))
    await asyncio.wait_for(stalled.wait(), 10)

    try:  # without the database's timeout the claim would wait for the stopped process for ever
        assert await asyncio.wait_for(new.claim_table("t-parada"), 30) == 2
        await new.append_events("t-parada", [event(2, "turn")], epoch=2)
    finally:
        go.set()
    with pytest.raises(StaleEpoch):
        await append
    assert await new.load_events("t-parada") == [event(1), event(2, "turn")]


async def _async_value(value: Any) -> Any:
    return value


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str, calls: list[Any]) -> list[Any]:
    """Replace `owner.name` with a wrapper that records each call's arguments in `calls`."""
    original: Callable[..., Any] = getattr(owner, name)

    def wrapper(*args: Any) -> Any:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(owner, name, wrapper)
    return calls


# Revision 0006 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0005_upgrades_with_its_tables_at_epoch_0(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0005")
    # rows as a server at revision 0005 wrote them (no epoch column yet)
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO tables (table_id, config, status, created_at) "
                "VALUES ('mesa1', '{\"preset\": \"clasico\"}', 'playing', 2.5), "
                "('mesa2', '{}', 'waiting', 3.5)"
            ),
            sa.text(
                "INSERT INTO table_events (table_id, seq, kind, data, at) "
                "VALUES ('mesa1', 1, 'deal', '{\"seat\": 0}', 2.75)"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            assert await store.tables(("playing", "waiting")) == [
                TableRow("mesa1", {"preset": "clasico"}, "playing", 2.5, 0),
                TableRow("mesa2", {}, "waiting", 3.5, 0),
            ]
            assert await store.table_epoch("mesa1") == 0
            assert await store.claim_table("mesa1") == 1
            with pytest.raises(StaleEpoch):
                await store.append_event("mesa1", StoredEvent(2, "play", {"seat": 1}, 3.0), epoch=0)
            await store.append_event("mesa1", StoredEvent(2, "play", {"seat": 1}, 3.0), epoch=1)
            assert [stored.seq for stored in await store.load_events("mesa1")] == [1, 2]
            await store.create_table("mesa3", {}, 4.0)  # a new table after the upgrade: epoch 0
            assert await store.table_epoch("mesa3") == 0
        finally:
            await store.close()

    asyncio.run(read_back())

    # And back: revision 0006 downgrades (the column goes) and upgrades again.
    command.downgrade(alembic_config(url), "0005")
    command.upgrade(alembic_config(url), "head")

    async def epochs() -> list[tuple[str, int]]:
        store = SqlStore(url)
        await store.start()
        try:
            return [(row.table_id, row.epoch) for row in await store.tables(("playing", "waiting"))]
        finally:
            await store.close()

    assert asyncio.run(epochs()) == [("mesa1", 0), ("mesa2", 0), ("mesa3", 0)]
