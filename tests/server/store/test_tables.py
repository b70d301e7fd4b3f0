"""The tables' area of the store (`TableLog`), run against every backend: memory, SQLite and
PostgreSQL. Event logs come back in order and refuse a seq taken; tables are listed by status;
records and JSON round-trip exactly. Appends that arrive together are committed together (the
SQL stores group-commit: the server's throughput under load depends on it), with the same
outcomes one by one: every event stored exactly once, every refused one refused as it would
be alone.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tranque.server.store import DuplicateEvent, DuplicateTable, Store, StoredEvent, TableRow

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


def crowd_event(seq: int, table: int) -> StoredEvent:
    return StoredEvent(seq, "action", {"seat": seq % 4, "mesa": table, "tile": f"{seq % 7}-0"}, 1000.0 + seq)


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


async def test_start_twice_is_harmless(store: Store) -> None:
    await store.create_table("t-start", {}, 1.0)
    await store.start()
    assert [row.table_id for row in await store.tables(("waiting",))] == ["t-start"]


# Group commits --------------------------------------------------------------------------

CROWD = 40


async def test_many_tables_appending_at_once_store_every_event_once_in_order(store: Store) -> None:
    names = [f"t-lote-{n}" for n in range(CROWD)]
    for name in names:
        await store.create_table(name, {}, 1.0)

    async def play(table: int) -> None:
        for seq in range(1, 11):
            await store.append_event(names[table], crowd_event(seq, table))

    await asyncio.gather(*(play(table) for table in range(CROWD)))

    for table, name in enumerate(names):
        assert await store.load_events(name) == [crowd_event(seq, table) for seq in range(1, 11)]


async def test_a_refused_append_in_a_crowd_is_refused_alone_and_the_others_are_stored(store: Store) -> None:
    names = [f"t-mezcla-{n}" for n in range(CROWD)]
    for name in names:
        await store.create_table(name, {}, 1.0)
    for table, name in enumerate(names):
        await store.append_event(name, crowd_event(1, table))
        await store.append_event(name, crowd_event(2, table))

    # Together: table 7 repeats seq 2, table 9 sends an older seq, one table does not exist.
    attempts = [(name, crowd_event(3, table)) for table, name in enumerate(names)]
    attempts[7] = (names[7], StoredEvent(2, "pass", {"seat": 9}, 5.0))
    attempts[9] = (names[9], StoredEvent(1, "pass", {"seat": 9}, 5.0))
    attempts.append(("t-mezcla-nunca-creada", crowd_event(1, 99)))
    outcomes = await asyncio.gather(
        *(store.append_event(name, stored) for name, stored in attempts), return_exceptions=True
    )

    assert [type(outcome).__name__ for outcome in outcomes] == (
        ["NoneType"] * 7 + ["DuplicateEvent", "NoneType", "DuplicateEvent"] + ["NoneType"] * 30 + ["KeyError"]
    )
    for table, name in enumerate(names):
        last = 2 if table in (7, 9) else 3
        assert await store.load_events(name) == [crowd_event(seq, table) for seq in range(1, last + 1)]
    assert await store.load_events("t-mezcla-nunca-creada") == []
    with pytest.raises(DuplicateEvent):
        await store.append_event(names[0], crowd_event(3, 0))


# Tables -----------------------------------------------------------------------------------


async def test_a_table_id_is_created_once(store: Store) -> None:
    await store.create_table("t-elegida", {"options": {"kind": "tournament"}}, 1.0)
    await store.append_event("t-elegida", event(1))
    with pytest.raises(DuplicateTable):
        await store.create_table("t-elegida", {"otra": True}, 2.0)
    row = await store.table("t-elegida")
    assert row is not None and row.config == {"options": {"kind": "tournament"}} and row.created_at == 1.0
    assert [stored.seq for stored in await store.load_events("t-elegida")] == [1]
