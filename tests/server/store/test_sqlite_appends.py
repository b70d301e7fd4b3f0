"""A SQLite file's appends run on the event loop on a connection of their own (store/sql/sqlite_appends.py).

What the server relies on: an append is committed when it returns (the store's other
connections read it at once, another process too), closing the store first writes every
append still queued, and an append the database refuses fails alone, with its own error.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from tranque.server.store import DuplicateEvent, StoredEvent
from tranque.server.store.sql import SqlStore, sqlite_file

pytestmark = pytest.mark.anyio


def event(seq: int) -> StoredEvent:
    return StoredEvent(seq, "action", {"seat": seq % 4, "ficha": f"{seq % 7}-{seq % 5}"}, 2000.0 + seq)


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"


async def test_an_append_is_committed_when_it_returns(database: str) -> None:
    store = SqlStore(database)
    await store.start()
    try:
        await store.create_table("t-visible", {}, 1.0)
        await store.append_event("t-visible", event(1))
        # Read from outside the store, as another process would: the row is in the file.
        path = sqlite_file(database)
        assert path is not None
        with sqlite3.connect(path) as outside:
            rows = outside.execute(
                "SELECT seq, kind FROM table_events WHERE table_id = 't-visible'"
            ).fetchall()
        assert rows == [(1, "action")]
        assert await store.load_events("t-visible") == [event(1)]
    finally:
        await store.close()


async def test_closing_the_store_first_writes_every_queued_append(database: str) -> None:
    store = SqlStore(database)
    await store.start()
    names = [f"t-cierre-{n}" for n in range(50)]
    for name in names:
        await store.create_table(name, {}, 1.0)
    appending = [asyncio.ensure_future(store.append_event(name, event(1))) for name in names]
    await asyncio.sleep(0)  # every append is queued, none has been answered yet
    assert not any(task.done() for task in appending)

    await store.close()

    assert all(task.done() and task.exception() is None for task in appending)
    reopened = SqlStore(database)
    await reopened.start()
    try:
        for name in names:
            assert await reopened.load_events(name) == [event(1)]
    finally:
        await reopened.close()


async def test_an_append_the_database_refuses_fails_alone(database: str) -> None:
    store = SqlStore(database)
    await store.start()
    try:
        for name in ("t-bien", "t-mal"):
            await store.create_table(name, {}, 1.0)
        not_json = StoredEvent(1, "action", {"seat": {1, 2}}, 5.0)  # a set has no JSON form
        outcomes = await asyncio.gather(
            store.append_event("t-bien", event(1)),
            store.append_event("t-mal", not_json),
            store.append_event("t-bien", event(2)),
            return_exceptions=True,
        )
        assert [type(outcome).__name__ for outcome in outcomes] == ["NoneType", "TypeError", "NoneType"]
        assert await store.load_events("t-bien") == [event(1), event(2)]
        assert await store.load_events("t-mal") == []
        await store.append_event("t-mal", event(1))  # the table was left as it was
        assert await store.load_events("t-mal") == [event(1)]
    finally:
        await store.close()


def test_only_a_sqlite_file_gets_appends_of_its_own() -> None:
    assert sqlite_file("sqlite+aiosqlite:////var/lib/tranque/tranque.db") == "/var/lib/tranque/tranque.db"
    assert sqlite_file("sqlite+aiosqlite:///:memory:") is None
    assert sqlite_file("sqlite+aiosqlite:///file:shared?mode=memory&uri=true") is None
    assert sqlite_file("postgresql+asyncpg://postgres@127.0.0.1:5432/tranque") is None


async def test_a_second_owner_of_a_table_is_refused_though_the_first_remembers_an_older_seq(
    database: str,
) -> None:
    first, second = SqlStore(database), SqlStore(database)
    await first.start()
    await second.start()
    try:
        await first.create_table("t-dos-duenos", {}, 1.0)
        await first.append_event("t-dos-duenos", event(1))
        await first.append_event("t-dos-duenos", event(2))  # first remembers 2 as the last seq
        await second.append_event("t-dos-duenos", event(3))  # a second process took the table over

        with pytest.raises(DuplicateEvent):
            await first.append_event("t-dos-duenos", StoredEvent(3, "pass", {"seat": 0}, 9.0))
        with pytest.raises(DuplicateEvent):
            await first.append_event("t-dos-duenos", event(2))
        assert await first.load_events("t-dos-duenos") == [event(1), event(2), event(3)]
    finally:
        await first.close()
        await second.close()


async def test_appends_and_status_changes_wait_out_another_writers_lock_without_blocking_the_loop(
    database: str,
) -> None:
    store = SqlStore(database)
    await store.start()
    path = sqlite_file(database)
    assert path is not None
    try:
        await store.create_table("t-cerrojo", {}, 1.0)
        outside = sqlite3.connect(path, isolation_level=None)
        outside.execute("BEGIN IMMEDIATE")  # another writer holds the file's lock
        appending = asyncio.ensure_future(store.append_event("t-cerrojo", event(1)))
        changing = asyncio.ensure_future(store.set_table_status("t-cerrojo", "playing"))
        for _ in range(5):  # the loop keeps turning while they wait (a blocked loop would not)
            await asyncio.sleep(0.005)
        assert not appending.done() and not changing.done()
        outside.execute("COMMIT")
        outside.close()
        await asyncio.wait_for(asyncio.gather(appending, changing), timeout=10)
        assert await store.load_events("t-cerrojo") == [event(1)]
        with sqlite3.connect(path) as reader:
            assert reader.execute("SELECT status FROM tables WHERE table_id = 't-cerrojo'").fetchone() == (
                "playing",
            )
    finally:
        await store.close()
