"""The analysis queue in-process (analysis_queue.py), the twin of test_analysis_api.py's real
server. The store is the queue: jobs are claimed oldest first; the bound counts the site's
unfinished rows, so a second process refuses alike; on start what is pending, or running
with a stale heartbeat, is claimed, and a job another live process runs is left to it; a
queue that stops mid-job gives it back, pending; two
queues on one store (two processes) run each job exactly once; a job whose process died is
taken over once its heartbeat is stale (a fake clock); an idle worker finds another
process's job when it polls; with no workers nothing runs."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path
from typing import Any

import pytest

import tranque.server.analysis.queue as analysis_queue
from tests.bots.test_analysis import small_game
from tests.server.conftest import empty_tables, make_test_store
from tests.server.support.analysis_helpers import DEALS
from tranque.bots.analysis import Evaluation, evaluate_job
from tranque.engine.record import to_record
from tranque.server.analysis.queue import AnalysisQueue, QueueFull
from tranque.server.store import AnalysisRow, GameRow, MemoryStore, Store
from tranque.server.store.sql import SqlStore
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

POLL = 2.0
STALE = 60.0


class Watched(MemoryStore):
    """A store that remembers which jobs were claimed, in order, and how often it was asked."""

    def __init__(self) -> None:
        super().__init__()
        self.claimed: list[str] = []
        self.asked = 0

    async def claim_analysis(self, worker: str, now: float, stale_before: float) -> AnalysisRow | None:
        self.asked += 1
        row = await super().claim_analysis(worker, now, stale_before)
        if row is not None:
            self.claimed.append(row.game_id)
        return row


async def kept(store: Store, *game_ids: str) -> int:
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


async def settled(store: Store, *game_ids: str) -> list[AnalysisRow]:
    while True:
        rows = [await store.analysis(game_id) for game_id in game_ids]
        if all(row is not None and row.status in ("done", "failed") for row in rows):
            return [row for row in rows if row is not None]
        await asyncio.sleep(0.01)


def queue_of(store: Store, clock: FakeClock | None = None, **changes: Any) -> AnalysisQueue:
    options: dict[str, Any] = {
        "workers": 1, "size": 3, "deals": DEALS, "in_processes": False, "poll": POLL, "stale_after": STALE,
        **changes,
    }  # fmt: skip
    return AnalysisQueue(store, clock or FakeClock(), **options)


async def test_jobs_run_oldest_first_and_the_queue_holds_its_size() -> None:
    store = Watched()
    user = await kept(store, "a.1", "b.1", "c.1", "d.1")
    queue = queue_of(store)
    for game_id, created in (("b.1", 5.0), ("a.1", 6.0), ("c.1", 7.0)):
        await queue.reserve(game_id)
        assert queue.holds(game_id)
        await store.save_analysis(AnalysisRow(game_id, user, "pending", created))
        await queue.push(game_id)
        assert not queue.holds(game_id)  # its place is its row now
    with pytest.raises(QueueFull):
        await queue.reserve("d.1")  # 3 rows not over
    assert not queue.holds("d.1")
    await queue.start()
    try:
        rows = await settled(store, "b.1", "a.1", "c.1")
    finally:
        await queue.close()
    assert store.claimed == ["b.1", "a.1", "c.1"]
    assert all(row.status == "done" and row.done == row.total > 0 and row.result for row in rows)
    assert all(row.claimed_by is not None and row.claimed_by.startswith(queue.name) for row in rows)
    await queue.reserve("d.1")  # places are free again
    queue.release("d.1")
    assert not queue.holds("d.1")


async def test_the_bound_is_the_sites_so_every_process_refuses_alike() -> None:
    store = MemoryStore()
    user = await kept(store, "a.1", "b.1", "c.1")
    one, other = queue_of(store, size=2, workers=0), queue_of(store, size=2, workers=0)
    await one.reserve("a.1")
    await other.reserve("b.1")  # a place being stored on another process counts there only...
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
    await one.push("a.1")
    with pytest.raises(QueueFull):
        await other.reserve("c.1")  # ...and a.1's row, stored by the first, counts everywhere
    await one.reserve("c.1")
    with pytest.raises(QueueFull):
        await one.reserve("d.1")
    one.release("c.1")
    other.release("b.1")
    await other.reserve("c.1")


async def test_on_start_what_is_pending_or_stale_is_claimed_and_a_live_ones_job_is_left() -> None:
    store = Watched()
    clock = FakeClock()
    now = clock.now()
    user = await kept(store, "a.1", "b.1", "c.1", "d.1", "e.1", "f.1")
    cut_short = AnalysisRow(
        "b.1", user, "running", 2.0, done=4, total=10, claimed_by="gone", heartbeat_at=now - 61
    )
    await store.save_analysis(dataclasses.replace(cut_short, game_id="c.1", status="pending", created_at=3.0))
    await store.save_analysis(cut_short)
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 4.0))
    await store.save_analysis(AnalysisRow("d.1", user, "done", 1.0, 1, 1, {"kept": True}, 1.5))
    await store.save_analysis(AnalysisRow("e.1", user, "failed", 1.0, 0, 3, None, 1.5))
    elsewhere = AnalysisRow("f.1", user, "running", 1.0, 2, 9, claimed_by="alive", heartbeat_at=now - 30)
    await store.save_analysis(elsewhere)
    queue = queue_of(store, clock, size=1)  # what the store has is claimed whatever the size
    await queue.start()
    try:
        await settled(store, "a.1", "b.1", "c.1")
    finally:
        await queue.close()
    assert store.claimed == ["b.1", "c.1", "a.1"]
    assert await store.analysis("d.1") == AnalysisRow("d.1", user, "done", 1.0, 1, 1, {"kept": True}, 1.5)
    assert (await store.analysis("e.1")) == AnalysisRow("e.1", user, "failed", 1.0, 0, 3, None, 1.5)
    assert await store.analysis("f.1") == elsewhere


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgresql"])
async def test_two_processes_on_one_store_run_each_job_exactly_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evaluated: list[Any] = []

    def counted(job: Any) -> Evaluation:
        evaluated.append(job)
        return evaluate_job(job)

    monkeypatch.setattr(analysis_queue, "evaluate_job", counted)
    store = make_test_store(backend, request, tmp_path)
    await store.start()
    other: Store = store
    if isinstance(store, SqlStore):
        await empty_tables(store)
        other = SqlStore(store.url.render_as_string(hide_password=False))  # the other process's
        await other.start()
    game_ids = [f"m{number}.1" for number in range(1, 6)]
    try:
        user = await kept(store, *game_ids)
        for number, game_id in enumerate(game_ids):
            await store.save_analysis(AnalysisRow(game_id, user, "pending", 10.0 + number))
        clock = FakeClock()
        queues = [
            queue_of(store, clock, workers=2, name="one"),
            queue_of(other, clock, workers=2, name="two"),
        ]
        for queue in queues:
            await queue.start()
        try:
            rows = await settled(store, *game_ids)
        finally:
            for queue in queues:
                await queue.close()
    finally:
        if other is not store:
            await other.close()
        await store.close()
    assert all(row.status == "done" and row.done == row.total > 0 for row in rows)
    # every decision of every job evaluated once: a job run twice, by either process, adds its all again
    assert len(evaluated) == sum(row.total for row in rows)
    claimers = {row.claimed_by for row in rows}
    assert all(claimer is not None and claimer.split("/")[0] in ("one", "two") for claimer in claimers)


async def test_a_job_whose_process_died_is_taken_over_once_its_heartbeat_is_stale() -> None:
    store = Watched()
    clock = FakeClock()
    user = await kept(store, "a.1")
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
    dead = await store.claim_analysis("dead/0", clock.now(), clock.now() - STALE)  # then never heard of
    assert dead is not None
    queue = queue_of(store, clock, name="alive")
    await queue.start()
    try:
        while store.asked < 2:  # the dead one's claim, then the live worker's first look
            await asyncio.sleep(0.01)
        assert await store.analysis("a.1") == dead  # fresh still: not taken
        clock.advance(STALE)  # polled: exactly STALE old is not stale yet
        while store.asked < 3:
            await asyncio.sleep(0.01)
        assert await store.analysis("a.1") == dead
        clock.advance(POLL)  # the next poll: stale now
        [row] = await settled(store, "a.1")
    finally:
        await queue.close()
    assert row.status == "done" and row.done == row.total > 0 and row.claimed_by == "alive/0"
    assert store.claimed == ["a.1", "a.1"]
    # The dead process, were it only slow, may no longer write its progress or a result.
    assert not await store.save_claimed_analysis(dataclasses.replace(dead, done=1, heartbeat_at=clock.now()))
    assert await store.analysis("a.1") == row


async def test_a_queue_that_stops_mid_job_gives_it_back_for_another_to_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()

    def held(job: Any) -> Evaluation:
        gate.wait(timeout=60)  # a guard only: the test opens the gate
        return evaluate_job(job)

    monkeypatch.setattr(analysis_queue, "evaluate_job", held)
    store = Watched()
    clock = FakeClock()
    user = await kept(store, "a.1")
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
    first = queue_of(store, clock, name="first")
    await first.start()
    try:
        while (row := await store.analysis("a.1")) is None or row.total == 0:  # planned, evaluating
            await asyncio.sleep(0.01)
        closing = asyncio.create_task(first.close())  # cancels the worker at its evaluation
    finally:
        gate.set()
    await closing
    row = await store.analysis("a.1")
    assert row is not None and row.status == "pending" and row.total > 0
    assert row.heartbeat_at is None and row.claimed_by == "first/0"
    monkeypatch.setattr(analysis_queue, "evaluate_job", evaluate_job)
    second = queue_of(store, clock, name="second")  # a restart: no stale interval to wait
    await second.start()
    try:
        [done] = await settled(store, "a.1")
    finally:
        await second.close()
    assert done.status == "done" and done.claimed_by == "second/0" and store.claimed == ["a.1", "a.1"]


async def test_an_idle_worker_finds_another_processs_job_when_it_polls() -> None:
    store = Watched()
    clock = FakeClock()
    user = await kept(store, "a.1")
    web = queue_of(store, clock, workers=0)  # a process that only takes requests
    worker = queue_of(store, clock)
    await web.start()
    await worker.start()
    try:
        while store.asked < 1:  # the worker looked, found nothing, and waits
            await asyncio.sleep(0.01)
        await web.reserve("a.1")
        await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
        await web.push("a.1")  # wakes nobody on the other process
        assert store.asked == 1 and (await store.analysis("a.1")) == AnalysisRow("a.1", user, "pending", 5.0)
        clock.advance(POLL)
        [row] = await settled(store, "a.1")
    finally:
        await web.close()
        await worker.close()
    assert row.status == "done" and row.claimed_by == f"{worker.name}/0"


async def test_with_no_workers_nothing_runs() -> None:
    store = Watched()
    user = await kept(store, "a.1")
    queue = queue_of(store, workers=0)
    await queue.start()
    await queue.reserve("a.1")
    await store.save_analysis(AnalysisRow("a.1", user, "pending", 5.0))
    await queue.push("a.1")
    await asyncio.sleep(0.05)
    await queue.close()
    assert store.claimed == [] and store.asked == 0
    assert (await store.analysis("a.1")) == AnalysisRow("a.1", user, "pending", 5.0)
