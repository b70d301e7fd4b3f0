"""Appends that arrive together are committed together, with the same outcomes one by one.

`SqlStore.append_event` group-commits (the server's throughput under load depends on it):
these tests start many appends at once, so they share transactions, and check that every
event is stored exactly once and every refused one is refused as it would be alone.
"""

from __future__ import annotations

import asyncio

import pytest

from tranque.server.store import DuplicateEvent, Store, StoredEvent

pytestmark = pytest.mark.anyio

TABLES = 40


def event(seq: int, table: int) -> StoredEvent:
    return StoredEvent(seq, "action", {"seat": seq % 4, "mesa": table, "tile": f"{seq % 7}-0"}, 1000.0 + seq)


async def test_many_tables_appending_at_once_store_every_event_once_in_order(store: Store) -> None:
    names = [f"t-lote-{n}" for n in range(TABLES)]
    for name in names:
        await store.create_table(name, {}, 1.0)

    async def play(table: int) -> None:
        for seq in range(1, 11):
            await store.append_event(names[table], event(seq, table))

    await asyncio.gather(*(play(table) for table in range(TABLES)))

    for table, name in enumerate(names):
        assert await store.load_events(name) == [event(seq, table) for seq in range(1, 11)]


async def test_a_refused_append_in_a_crowd_is_refused_alone_and_the_others_are_stored(store: Store) -> None:
    names = [f"t-mezcla-{n}" for n in range(TABLES)]
    for name in names:
        await store.create_table(name, {}, 1.0)
    for table, name in enumerate(names):
        await store.append_event(name, event(1, table))
        await store.append_event(name, event(2, table))

    # Together: table 7 repeats seq 2, table 9 sends an older seq, one table does not exist.
    attempts = [(name, event(3, table)) for table, name in enumerate(names)]
    attempts[7] = (names[7], StoredEvent(2, "pass", {"seat": 9}, 5.0))
    attempts[9] = (names[9], StoredEvent(1, "pass", {"seat": 9}, 5.0))
    attempts.append(("t-mezcla-nunca-creada", event(1, 99)))
    outcomes = await asyncio.gather(
        *(store.append_event(name, stored) for name, stored in attempts), return_exceptions=True
    )

    assert [type(outcome).__name__ for outcome in outcomes] == (
        ["NoneType"] * 7 + ["DuplicateEvent", "NoneType", "DuplicateEvent"] + ["NoneType"] * 30 + ["KeyError"]
    )
    for table, name in enumerate(names):
        last = 2 if table in (7, 9) else 3
        assert await store.load_events(name) == [event(seq, table) for seq in range(1, last + 1)]
    assert await store.load_events("t-mezcla-nunca-creada") == []
    with pytest.raises(DuplicateEvent):
        await store.append_event(names[0], event(3, 0))
