"""Post-game analyses asked for on the site, computed off the event loop.

An analysis (tranque.bots.analysis) judges every unforced decision of a finished game with
the expert's search: seconds of CPU per game at the default budget, far too long for the
event loop. A request keeps an `analyses` row (pending): the store is the queue, shared by
every process of the site (`tranque serve --workers N` on one database). Each of this
process's `workers` tasks loops: claim a job from the store (`Store.claim_analysis`: a
pending row, or a running one whose heartbeat is older than `stale_after` seconds, its
process having died, taken in turns between the places and the accounts that asked,
`store.analyses.turn_order`; two claimers never get the same row), plan it in a thread (the
record replayed, the decisions listed), evaluate each decision in a worker process (a
`ProcessPoolExecutor` of `workers` processes started with `spawn`: nothing of the server is
copied into them), store the progress after each (which refreshes the heartbeat), and store
the result (`GameAnalysis.to_json()`, as `tranque analyze --json` prints it) at the end.
Only a decision's `PlayerView` crosses to the worker: the seat's own information.

Every save of a claimed job goes through `Store.save_claimed_analysis`, which writes only
while the stored row is still claimed by this worker: a worker whose job was taken over
(it was slow past `stale_after`, or thought dead) stops at its next save, so two workers
never write one row's progress or result in turn.

An idle worker wakes at once when a request of this process stores a job (`push`), and
otherwise polls the store every `poll` seconds (on `clock`) for the jobs other processes
stored. The bound `size` counts the site's unfinished rows in the store, so every process
refuses with `analysis_busy` (503) alike. Nothing is requeued on start: a job a stopping
server was at is given back (pending again), and one whose process died (killed, the
machine gone) is running with a heartbeat that goes stale, hence claimable.

`in_processes=False` evaluates in threads instead (fast tests). `workers=0` runs nothing:
requests are kept pending until a process with workers claims them. A worker process that
dies (killed, out of memory) fails the jobs it was evaluating: their rows say `failed`,
never stuck in `running`, and a new pool is started for the next job.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import socket
import uuid
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tranque.bots.analysis import Evaluation, Plan, evaluate_job, plan
from tranque.engine.record import replay
from tranque.server import metrics
from tranque.server.stopping import stop_tasks
from tranque.server.store import AnalysisRow, Store
from tranque.server.store.outage import log_failure
from tranque.server.table.clock import Clock
from tranque.server.worker_pools import RAISE, WorkerPool

log = logging.getLogger(__name__)

SEED = 0  # every site analysis uses seed 0: the same game always gets the same analysis


class QueueFull(Exception):
    """As many jobs as the queue holds are not over yet: `analysis_busy` (503)."""


class ClaimLost(Exception):
    """Another worker took the job over: this one stops without writing."""


def plan_record(record: dict[str, Any], deals: int) -> Plan:
    """The plan of a kept game's analysis, every seat, at `deals` deals per decision."""
    return plan(replay(record), deals=deals, seed=SEED)


def process_id() -> str:
    """A string no other process of the site has: host, pid and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


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
        poll: float = 2.0,
        stale_after: float = 60.0,
        name: str | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.workers = workers
        self.size = size
        self.deals = deals
        self.poll = poll  # seconds between looks at the store when idle
        self.stale_after = stale_after  # a running job's heartbeat older than this: claimable
        self.name = name or process_id()  # worker i is f"{name}/{i}"
        self._reserved: set[str] = set()  # game ids whose row a request of this process is storing
        self._wakeup: asyncio.Event | None = None
        self._tasks: list[asyncio.Task[None]] = []
        # A broken pool fails the job (it may well kill a worker again), and the next job gets a new one.
        self.pool = WorkerPool(in_processes, workers, "analysis", after_break=RAISE)

    # The HTTP side -----------------------------------------------------------------------

    def holds(self, game_id: str) -> bool:
        """Whether a request of this process is queueing the game's analysis this moment."""
        return game_id in self._reserved

    async def reserve(self, game_id: str) -> None:
        """Hold a place for the game's job before its row is stored (`push` then wakes a
        worker, `release` gives the place back); `QueueFull` when the site's unfinished jobs
        (in the store, of every process) and this process's places being stored fill `size`."""
        if game_id in self._reserved:
            return
        self._reserved.add(game_id)  # at once: a request arriving meanwhile counts it
        try:
            unfinished = await self.store.unfinished_analysis_count()
        except BaseException:
            self._reserved.discard(game_id)
            raise
        metrics.ANALYSIS_QUEUE.set(unfinished + len(self._reserved))
        if unfinished + len(self._reserved) > self.size:
            self._reserved.discard(game_id)
            raise QueueFull(game_id)

    def release(self, game_id: str) -> None:
        self._reserved.discard(game_id)

    async def push(self, game_id: str) -> None:
        """The game's row (pending) is stored: its place is the row now; wake a worker."""
        self._reserved.discard(game_id)
        if self._wakeup is not None:
            self._wakeup.set()

    # Running --------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the workers; they claim from the store whatever is claimable."""
        self._wakeup = asyncio.Event()
        self._tasks = [asyncio.create_task(self._work(f"{self.name}/{i}")) for i in range(self.workers)]

    async def close(self) -> None:
        tasks, self._tasks = self._tasks, []
        errors = await stop_tasks(tasks)
        await self.pool.close()
        if errors:
            raise errors[0]

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (none before the first job, or in threads)."""
        return self.pool.pids()

    async def _work(self, worker: str) -> None:
        wakeup = self._wakeup
        assert wakeup is not None
        while True:
            wakeup.clear()  # before the claim: a push from here on is not missed
            now = self.clock.now()
            try:
                row = await self.store.claim_analysis(worker, now, now - self.stale_after)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log_failure(log, error, "claiming an analysis failed; trying again in %s s", self.poll)
                row = None
            if row is None:
                await self._idle(wakeup)
                continue
            wakeup.set()  # another idle worker of this process may find the next job
            try:
                await self._analyse(row)
                metrics.ANALYSIS_QUEUE.set(await self.store.unfinished_analysis_count())
            except Exception:  # the store failed even to mark it failed: claimable once stale
                log.exception("the analysis of %s could not be stored", row.game_id)

    async def _idle(self, wakeup: asyncio.Event) -> None:
        """Until a push, or `poll` seconds on the clock."""
        polled = asyncio.get_running_loop().create_future()

        def due() -> None:
            if not polled.done():
                polled.set_result(None)

        timer = self.clock.call_at(self.clock.now() + self.poll, due)
        pushed = asyncio.ensure_future(wakeup.wait())
        try:
            await asyncio.wait({polled, pushed}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            timer.cancel()
            polled.cancel()
            pushed.cancel()

    async def _save(self, row: AnalysisRow) -> AnalysisRow:
        """Store the claimed job's row with a fresh heartbeat; `ClaimLost` if taken over."""
        row = dataclasses.replace(row, heartbeat_at=self.clock.now())
        if not await self.store.save_claimed_analysis(row):
            raise ClaimLost(row.game_id)
        return row

    async def _analyse(self, row: AnalysisRow) -> None:
        game_id = row.game_id
        try:
            game = await self.store.load_game(game_id)
            if game is None:
                raise LookupError(f"no kept game {game_id}")
            planned = await asyncio.to_thread(plan_record, game.record, self.deals)
            row = await self._save(dataclasses.replace(row, done=0, total=len(planned.jobs)))
            evaluations: list[Evaluation] = []
            for job in planned.jobs:
                evaluations.append(await self.pool.run(evaluate_job, job))
                row = await self._save(dataclasses.replace(row, done=len(evaluations)))
            result = await asyncio.to_thread(lambda: planned.finish(evaluations).to_json())
            done = dataclasses.replace(row, status="done", result=result, finished_at=self.clock.now())
            await self._save(done)
        except asyncio.CancelledError:
            # The server stops: the job goes back to pending, for any process to claim at once.
            # Should that fail, the row stays running, claimable once its heartbeat is stale.
            back = dataclasses.replace(row, status="pending", heartbeat_at=None)
            try:
                await self.store.save_claimed_analysis(back)
            except Exception:
                log.exception("the analysis of %s could not be given back", game_id)
            raise
        except ClaimLost:
            log.warning("the analysis of %s was taken over by another worker; this one stops", game_id)
        except BrokenProcessPool:
            log.error("an analysis worker died during the analysis of %s; it is marked failed", game_id)
            await self._fail(row)
        except Exception:
            log.exception("the analysis of %s failed", game_id)
            await self._fail(row)

    async def _fail(self, row: AnalysisRow) -> None:
        with contextlib.suppress(ClaimLost):
            await self._save(dataclasses.replace(row, status="failed", finished_at=self.clock.now()))
