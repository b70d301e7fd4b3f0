"""Post-game analyses asked for on the site, computed off the event loop.

An analysis (tranque.bots.analysis) judges every unforced decision of a finished game with
the expert's search: seconds of CPU per game at the default budget, far too long for the
event loop. A request keeps an `analyses` row (pending) and puts its game on this queue: a
bounded FIFO (`size` jobs not over yet in this process; beyond that a request is refused
with `analysis_busy`, 503) that `workers` tasks take from, one job each at a time. A job is
planned in a thread (the record replayed, the decisions listed), then each decision is
evaluated in a worker process (a `ProcessPoolExecutor` of `workers` processes started with
`spawn`: nothing of the server is copied into them), the row's progress stored after each,
and the result (`GameAnalysis.to_json()`, as `tranque analyze --json` prints it) stored at
the end. Only a decision's `PlayerView` crosses to the worker: the seat's own information.

`in_processes=False` evaluates in threads instead (fast tests). `workers=0` runs nothing:
requests are kept pending until a process with workers starts. On start, the jobs the store
has pending or running (a restart cut them short) are queued again, oldest first. A worker
process that dies (killed, out of memory) fails the jobs it was evaluating: their rows say
`failed`, never stuck in `running`, and a new pool is started for the next job.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import multiprocessing
from collections import deque
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tranque.bots.analysis import Evaluation, Plan, evaluate_job, plan
from tranque.engine.record import replay
from tranque.server.clock import Clock
from tranque.server.store import AnalysisRow, Store

log = logging.getLogger(__name__)

SEED = 0  # every site analysis uses seed 0: the same game always gets the same analysis


class QueueFull(Exception):
    """As many jobs as the queue holds are not over yet: `analysis_busy` (503)."""


def plan_record(record: dict[str, Any], deals: int) -> Plan:
    """The plan of a kept game's analysis, every seat, at `deals` deals per decision."""
    return plan(replay(record), deals=deals, seed=SEED)


class AnalysisQueue:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        workers: int = 1,
        size: int = 20,
        deals: int = 2000,
        in_processes: bool = True,
    ) -> None:
        self.store = store
        self.clock = clock
        self.workers = workers
        self.size = size
        self.deals = deals
        self.in_processes = in_processes
        self._waiting: deque[str] = deque()  # game ids, oldest first
        self._held: set[str] = set()  # game ids not over yet in this process: waiting, running, reserved
        self._wakeup: asyncio.Condition | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._executor: Executor | None = None

    # The HTTP side -----------------------------------------------------------------------

    def holds(self, game_id: str) -> bool:
        """Whether the game's analysis is queued, running or being queued here."""
        return game_id in self._held

    def reserve(self, game_id: str) -> None:
        """Hold a place for the game's job before its row is stored (`push` then queues it,
        `release` gives the place back); `QueueFull` when there is none."""
        if game_id in self._held:
            return
        if len(self._held) >= self.size:
            raise QueueFull(game_id)
        self._held.add(game_id)

    def release(self, game_id: str) -> None:
        self._held.discard(game_id)

    async def push(self, game_id: str) -> None:
        """Queue the job of a game whose row (pending) is stored; its place was reserved."""
        self._held.add(game_id)
        if game_id in self._waiting:
            return
        self._waiting.append(game_id)
        if self._wakeup is not None:
            async with self._wakeup:
                self._wakeup.notify()

    # Running --------------------------------------------------------------------------

    async def start(self) -> None:
        """Queue again what the store has pending or running, and start the workers."""
        self._wakeup = asyncio.Condition()
        for row in await self.store.unfinished_analyses():
            self._held.add(row.game_id)
            self._waiting.append(row.game_id)
        self._tasks = [asyncio.create_task(self._work()) for _ in range(self.workers)]

    async def close(self) -> None:
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (none before the first job, or in threads)."""
        executor = self._executor
        if not isinstance(executor, ProcessPoolExecutor):
            return []
        processes = getattr(executor, "_processes", None) or {}
        return sorted(processes)

    async def _work(self) -> None:
        assert self._wakeup is not None
        while True:
            async with self._wakeup:
                await self._wakeup.wait_for(lambda: bool(self._waiting))
                game_id = self._waiting.popleft()
            try:
                await self._analyse(game_id)
            finally:
                self._held.discard(game_id)

    async def _analyse(self, game_id: str) -> None:
        row = await self.store.analysis(game_id)
        game = await self.store.load_game(game_id)
        if row is None or game is None or row.status in ("done", "failed"):
            return
        try:
            planned = await asyncio.to_thread(plan_record, game.record, self.deals)
            row = dataclasses.replace(row, status="running", done=0, total=len(planned.jobs))
            await self.store.save_analysis(row)
            evaluations: list[Evaluation] = []
            loop = asyncio.get_running_loop()
            for job in planned.jobs:
                executor = self._worker()
                evaluations.append(await loop.run_in_executor(executor, evaluate_job, job))
                row = dataclasses.replace(row, done=len(evaluations))
                await self.store.save_analysis(row)
            result = await asyncio.to_thread(lambda: planned.finish(evaluations).to_json())
        except asyncio.CancelledError:
            raise  # the server stops: the row stays as it is, and is queued again on start
        except BrokenProcessPool:
            log.error("an analysis worker died during the analysis of %s; it is marked failed", game_id)
            self._drop_executor(executor)
            await self._fail(row)
            return
        except Exception:
            log.exception("the analysis of %s failed", game_id)
            await self._fail(row)
            return
        done = dataclasses.replace(row, status="done", result=result, finished_at=self.clock.now())
        await self.store.save_analysis(done)

    async def _fail(self, row: AnalysisRow) -> None:
        await self.store.save_analysis(
            dataclasses.replace(row, status="failed", finished_at=self.clock.now())
        )

    def _worker(self) -> Executor:
        if self._executor is None:
            if self.in_processes:
                context = multiprocessing.get_context("spawn")
                self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
            else:
                self._executor = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="analysis")
        return self._executor

    def _drop_executor(self, broken: Executor) -> None:
        """A new pool for the next job (unless another job has started one already)."""
        if self._executor is broken:
            self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)
