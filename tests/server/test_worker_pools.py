"""The worker pools (worker_pools.py): made on first use; a process pool whose worker is killed
is dropped and, as its owner chose, the work runs again in a new pool of processes, again in
threads from then on, or fails to the caller with a new pool for the next piece of work;
threads mode runs in this process; an initializer runs in each worker process; `start_all`
starts every worker with the pool; closing cancels what has not started and waits for what has."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from tranque.server.worker_pools import RAISE, THREADS, WorkerPool

pytestmark = pytest.mark.anyio

_initialized = False  # set by `_mark` in a worker process


def _killed_once(marker: str) -> int:
    """The first call (no `marker` file yet) kills its own worker process; later ones answer
    with the worker's process id."""
    path = Path(marker)
    if not path.exists():
        path.touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def _mark() -> None:
    global _initialized
    _initialized = True


def _was_initialized() -> bool:
    return _initialized


async def test_a_killed_worker_process_is_replaced_and_the_work_runs_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pool = WorkerPool(True, 1, "probe")
    try:
        assert pool.executor is None  # nothing made before the first piece of work
        assert await pool.run(os.getpid) != os.getpid()  # a worker process, not this one
        first = pool.executor
        assert isinstance(first, ProcessPoolExecutor)
        with caplog.at_level(logging.WARNING, logger="tranque.server.worker_pools"):
            pid = await pool.run(_killed_once, str(tmp_path / "killed"))
        assert pid != os.getpid()
        assert isinstance(pool.executor, ProcessPoolExecutor) and pool.executor is not first
        assert pool.in_processes
        assert pool.pids() == [pid]
        assert [record.levelno for record in caplog.records] == [logging.WARNING]
        assert "probe" in caplog.records[0].getMessage()  # the warning names the pool
    finally:
        await pool.close()


async def test_after_a_break_a_pool_that_falls_back_runs_the_work_and_the_next_in_threads(
    tmp_path: Path,
) -> None:
    pool = WorkerPool(True, 1, "probe", after_break=THREADS)
    try:
        assert await pool.run(_killed_once, str(tmp_path / "killed")) == os.getpid()  # a thread
        assert not pool.in_processes
        assert isinstance(pool.executor, ThreadPoolExecutor)
        assert await pool.run(os.getpid) == os.getpid()
        assert pool.pids() == []
    finally:
        await pool.close()


async def test_a_pool_that_raises_hands_the_break_over_and_makes_a_new_pool_next_time(
    tmp_path: Path,
) -> None:
    pool = WorkerPool(True, 1, "probe", after_break=RAISE)
    try:
        with pytest.raises(BrokenProcessPool):
            await pool.run(_killed_once, str(tmp_path / "killed"))
        assert pool.executor is None  # dropped, not run again
        pid = await pool.run(_killed_once, str(tmp_path / "killed"))
        assert pid != os.getpid()
        assert pool.pids() == [pid]
    finally:
        await pool.close()


async def test_the_initializer_runs_in_every_worker_process_and_start_all_starts_them_all() -> None:
    pool = WorkerPool(True, 2, "probe", _mark, start_all=True)
    try:
        assert not _initialized
        assert await pool.run(_was_initialized)
        assert len(pool.pids()) == 2  # both started with the pool, though one piece of work ran
    finally:
        await pool.close()
    assert pool.executor is None and pool.pids() == []


async def test_threads_mode_runs_in_threads_of_this_process_named_after_the_pool() -> None:
    pool = WorkerPool(False, 2, "probe")
    try:
        assert await pool.run(os.getpid) == os.getpid()
        name = await pool.run(lambda: threading.current_thread().name)
        assert name.startswith("probe")
        assert isinstance(pool.executor, ThreadPoolExecutor)
        assert pool.pids() == []
    finally:
        await pool.close()


async def test_closing_cancels_the_work_not_started_and_waits_for_the_work_under_way() -> None:
    pool = WorkerPool(False, 1, "probe")
    started, release = threading.Event(), threading.Event()

    def blocking() -> str:
        started.set()
        release.wait()
        return "done"

    running = asyncio.ensure_future(pool.run(blocking))
    waiting = asyncio.ensure_future(pool.run(str, "never"))
    await asyncio.to_thread(started.wait)
    executor = pool.executor
    closing = asyncio.ensure_future(pool.close())
    with pytest.raises(asyncio.CancelledError):
        await waiting  # queued behind the running one: cancelled by the close
    assert not closing.done() and pool.executor is None
    release.set()
    await closing  # returns only once the work under way is over
    assert running.done() and running.result() == "done"
    assert executor is not None
    with pytest.raises(RuntimeError):  # shut down: it takes no more work
        executor.submit(int)
    await pool.close()  # closing again, or a pool never used, does nothing


async def test_closing_without_waiting_returns_while_work_is_under_way() -> None:
    pool = WorkerPool(False, 1, "probe")
    started, release = threading.Event(), threading.Event()

    def blocking() -> str:
        started.set()
        release.wait()
        return "done"

    running = asyncio.ensure_future(pool.run(blocking))
    await asyncio.to_thread(started.wait)
    await pool.close(wait=False)
    assert not running.done()  # the close did not wait for it
    release.set()
    assert await running == "done"
