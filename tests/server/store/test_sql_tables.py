"""The tables' area on real databases (SQLite, PostgreSQL): what only a shared database can
show. Two stores on one database stand for two server processes: two owners writing one seq
leave one event, a former owner's batch is refused (by its seq, or by its epoch once the table
was claimed), a write waits for a claim under way and is then refused, and appends racing a
takeover land whole before it or not at all. The group commits refuse stale appends in their
own transaction, a PostgreSQL batch connection broken is opened again, and a writer stalled in
a batch does not hold off a claim. A database from before revision 0006 upgrades with every
table at epoch 0.
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
from tranque.server.store import DuplicateEvent, StaleEpoch, StoredEvent, TableRow
from tranque.server.store.sql import SqlStore, alembic_config, create_engine, postgres_appends, sqlite_appends

pytestmark = pytest.mark.anyio


def event(seq: int, kind: str = "action", table: int = 0) -> StoredEvent:
    return StoredEvent(seq, kind, {"seat": seq % 4, "mesa": table, "tile": f"{seq % 7}-0"}, 3000.0 + seq)


async def started_store(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A started, empty `SqlStore` of `kind` (sqlite, sqlite-memory or postgresql)."""
    started = make_test_store(kind, request, tmp_path)
    assert isinstance(started, SqlStore)
    await started.start()
    try:
        await empty_tables(started)
        yield started
    finally:
        await started.close()


@pytest.fixture(params=["sqlite", "sqlite-memory", "postgresql"])
async def sql_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SqlStore]:
    """A started, empty `SqlStore` of each database: its appends are group-committed."""
    async for started in started_store(request.param, request, tmp_path):
        yield started


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


# Two owners -------------------------------------------------------------------------------------


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
