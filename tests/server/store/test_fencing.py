"""Fencing of a table's writes by its owner's epoch (`TableLog`), on every backend: memory,
SQLite (a file, and in memory: its appends through SQLAlchemy) and PostgreSQL.

With several processes on one database a process taking a table over claims it
(`TableLog.claim_table`: the table's epoch goes up by one) and its writes carry the epoch it
got. A write carrying another epoch (a former owner, paused or cut off) stores nothing and
raises `StaleEpoch`, whatever else the same group commit holds; a write with `epoch=None` is
not checked, as before. The races between owners on one real database are in
test_sql_tables.py.
"""

from __future__ import annotations

import asyncio

import pytest

from tranque.server.store import DuplicateEvent, StaleEpoch, Store, StoredEvent, TableRow

# The `store` fixture's backends, and a SqlStore on an in-memory SQLite database.
pytestmark = [
    pytest.mark.anyio,
    pytest.mark.parametrize("store", ["memory", "sqlite", "sqlite-memory", "postgresql"], indirect=True),
]


def event(seq: int, kind: str = "action", table: int = 0) -> StoredEvent:
    return StoredEvent(seq, kind, {"seat": seq % 4, "mesa": table, "tile": f"{seq % 7}-0"}, 3000.0 + seq)


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
