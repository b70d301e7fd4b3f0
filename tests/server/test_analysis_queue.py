"""The analysis queue in-process (analysis_queue.py), the twin of test_analysis_api.py's real
server: jobs run first in, first out; the queue holds `size` jobs not over and refuses
more; on start it takes again what the store has pending or running, and leaves what is
done or failed; with no workers it runs nothing."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from tests.bots.test_analysis import small_game
from tests.server.analysis_helpers import DEALS
from tranque.engine.record import to_record
from tranque.server.analysis_queue import AnalysisQueue, QueueFull
from tranque.server.clock import FakeClock
from tranque.server.store import AnalysisRow, GameRow, MemoryStore

pytestmark = pytest.mark.anyio


class Watched(MemoryStore):
    """A store that remembers the order in which analyses started."""

    def __init__(self) -> None:
        super().__init__()
        self.started: list[str] = []

    async def save_analysis(self, row: AnalysisRow) -> None:
        if row.status == "running" and row.done == 0:
            self.started.append(row.game_id)
        await super().save_analysis(row)


async def kept(store: MemoryStore, *game_ids: str) -> int:
    user = await store.create_user("ana", "hash", 1.0)
    record = to_record(small_game(seed=3))
    for game_id in game_ids:
        table_id, number = game_id.split(".")
        row = GameRow(
            game_id, table_id, int(number), 1.0, "clasico", "duel", 2, "public", False, False, False,
            "casual", {"seats": []}, record,
        )  # fmt: skip
        await store.save_game(row, [], [], [])
    return user.user_id


async def settled(store: MemoryStore, *game_ids: str) -> list[AnalysisRow]:
    while True:
        rows = [await store.analysis(game_id) for game_id in game_ids]
        if all(row is not None and row.status in ("done", "failed") for row in rows):
            return [row for row in rows if row is not None]
        await asyncio.sleep(0.01)


def queue_of(store: MemoryStore, **changes: object) -> AnalysisQueue:
    options: dict[str, object] = {"workers": 1, "size": 3, "deals": DEALS, "in_processes": False, **changes}
    return AnalysisQueue(store, FakeClock(), **options)  # type: ignore[arg-type]


async def test_jobs_run_first_in_first_out_and_the_queue_holds_its_size() -> None:
    store = Watched()
    user = await kept(store, "a.1", "b.1", "c.1", "d.1")
    queue = queue_of(store)
    for game_id in ("b.1", "a.1", "c.1"):
        queue.reserve(game_id)
        await store.save_analysis(AnalysisRow(game_id, user, "pending", 5.0))
        await queue.push(game_id)
    with pytest.raises(QueueFull):
        queue.reserve("d.1")
    queue.reserve("a.1")  # held already: no second place taken
    await queue.start()
    try:
        rows = await settled(store, "b.1", "a.1", "c.1")
    finally:
        await queue.close()
    assert store.started == ["b.1", "a.1", "c.1"]
    assert all(row.status == "done" and row.done == row.total > 0 and row.result for row in rows)
    assert not queue.holds("a.1")
    queue.reserve("d.1")  # places are free again
    queue.release("d.1")
    assert not queue.holds("d.1")


async def test_on_start_the_unfinished_jobs_are_taken_again_oldest_first() -> None:
    store = Watched()
    user = await kept(store, "a.1", "b.1", "c.1", "d.1", "e.1")
    cut_short = AnalysisRow("b.1", user, "running", 2.0, done=4, total=10)
    await store.save_analysis(dataclasses.replace(cut_short, game_id="c.1", status="pending", created_at=3.0))
    await store.save_analysis(cut_short)
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 4.0))
    await store.save_analysis(AnalysisRow("d.1", user, "done", 1.0, 1, 1, {"kept": True}, 1.5))
    await store.save_analysis(AnalysisRow("e.1", user, "failed", 1.0, 0, 3, None, 1.5))
    queue = queue_of(store, size=1)  # what the store had is taken whatever the size
    await queue.start()
    try:
        await settled(store, "a.1", "b.1", "c.1")
    finally:
        await queue.close()
    assert store.started == ["b.1", "c.1", "a.1"]
    assert await store.analysis("d.1") == AnalysisRow("d.1", user, "done", 1.0, 1, 1, {"kept": True}, 1.5)
    assert (await store.analysis("e.1")) == AnalysisRow("e.1", user, "failed", 1.0, 0, 3, None, 1.5)


async def test_with_no_workers_nothing_runs() -> None:
    store = Watched()
    user = await kept(store, "a.1")
    queue = queue_of(store, workers=0)
    await queue.start()
    queue.reserve("a.1")
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
    await queue.push("a.1")
    await asyncio.sleep(0.05)
    await queue.close()
    assert store.started == []
    assert (await store.analysis("a.1")) == AnalysisRow("a.1", user, "pending", 5.0)
