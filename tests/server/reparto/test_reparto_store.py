"""The reparto area of the store (`RepartoStore`, revision 0018) on every backend: one seed
per day whoever opens it first, one par per day and mode, one attempt per account per day and
mode, its first result kept."""

from __future__ import annotations

import pytest

from tranque.server.store import Store

pytestmark = pytest.mark.anyio


async def test_the_first_to_open_a_day_gives_it_its_seed(store: Store) -> None:
    assert await store.reparto_day("2026-12-07") is None
    first = await store.open_reparto_day("2026-12-07", b"a" * 32, "c1", 10.0)
    second = await store.open_reparto_day("2026-12-07", b"b" * 32, "c2", 11.0)
    assert first == second
    assert (first.seed, first.commitment) == (b"a" * 32, "c1")
    assert await store.reparto_day("2026-12-07") == first
    other = await store.open_reparto_day("2026-12-08", b"b" * 32, "c2", 12.0)
    assert other.seed == b"b" * 32


async def test_a_par_is_kept_once(store: Store) -> None:
    assert await store.reparto_par("2026-12-07", "pairs") is None
    kept = await store.keep_reparto_par("2026-12-07", "pairs", {"diff": 5, "points": [[5, 0]]})
    again = await store.keep_reparto_par("2026-12-07", "pairs", {"diff": 9, "points": [[9, 0]]})
    assert kept == again == {"diff": 5, "points": [[5, 0]]}
    assert await store.reparto_par("2026-12-07", "individual") is None


async def test_one_attempt_per_account_day_and_mode_and_its_first_result(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    day = "2026-12-07"
    assert await store.start_reparto_attempt(day, "pairs", ana, "t1", 10.0)
    assert not await store.start_reparto_attempt(day, "pairs", ana, "t2", 11.0)
    assert await store.start_reparto_attempt(day, "individual", ana, "t3", 12.0)
    assert await store.start_reparto_attempt(day, "pairs", bea, "t4", 13.0)
    assert not await store.finish_reparto_attempt(day, "pairs", ana, "t2", 7, [[7, 0]], 20.0)  # not its table
    assert await store.finish_reparto_attempt(day, "pairs", ana, "t1", -3, [[0, 3]], 21.0)
    assert not await store.finish_reparto_attempt(
        day, "pairs", ana, "t1", 50, [[50, 0]], 22.0
    )  # the first stays
    mine = await store.reparto_attempt(day, "pairs", ana)
    assert mine is not None
    assert (mine.name, mine.table_id, mine.diff, mine.points, mine.finished_at) == (
        "ana",
        "t1",
        -3,
        [[0, 3]],
        21.0,
    )
    entries = await store.reparto_entries(day, "pairs")
    assert [(entry.name, entry.diff) for entry in entries] == [("ana", -3), ("bea", None)]
    assert await store.reparto_entries("2026-12-08", "pairs") == []


async def test_two_processes_opening_the_day_at_once_agree_on_one_seed(store: Store) -> None:
    """Two services (two processes of one site) over one database, opening the same day at the
    same moment: both publish the same commitment, the first insert's."""
    import asyncio

    from tranque.server.reparto.deals import commitment
    from tranque.server.reparto.service import Reparto
    from tranque.server.table.clock import FakeClock

    clock = FakeClock(1_796_700_000.0)
    services = [Reparto(store, clock, hands=4, bot_level="heuristic", in_processes=False) for _ in range(2)]
    first, second = await asyncio.gather(*(service.open_today() for service in services))
    assert first == second
    assert first.commitment == commitment(first.seed, first.day, 4)
    assert len(first.seed) == 32
