"""The pools that keep CPU work off the event loop: worker processes, or threads for tests.

Password estimates, record checks, analyses, the luck of a deal, share cards, the reparto's
par, the tournaments' doc work and the fair-play sampler each keep a pool of their own, a
`WorkerPool`: `spawn`ed processes (nothing of the server is inherited, and pure Python work
there holds no lock the event loop waits on), or threads of this process when a setting asks
for them (tests, and the fallback after a process pool broke). The pool is made on first use.

A process pool breaks when one of its processes dies (killed, out of memory) or cannot start:
every piece of work in it then fails with `BrokenProcessPool`. The broken pool is dropped (a
new one is made on the next use) and, as its owner chose (`after_break`), the work runs once
more in a new pool of processes (`RETRY`), once more and from then on in threads (`THREADS`:
where a process may not start at all), or not at all (`RAISE`: the owner fails that piece of
work its own way, as for a job that may well kill its worker again).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

AfterBreak = Literal["retry", "threads", "raise"]
RETRY: AfterBreak = "retry"  # the work runs once more, in a new pool of processes
THREADS: AfterBreak = "threads"  # once more, in threads, and every later piece of work too
RAISE: AfterBreak = "raise"  # `BrokenProcessPool` goes to the caller; a new pool next time


def worker_pool(
    in_processes: bool, workers: int, name: str, initializer: Callable[[], object] | None = None
) -> Executor:
    """A pool of `workers` processes (or threads named after `name`); `initializer` runs first
    in each worker process."""
    if in_processes:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer)
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)


class WorkerPool:
    """A lazily made pool of `workers` processes (threads unless `in_processes`) named `name`.

    `start_all`: every worker process starts with the pool, so no work waits for one to start.
    """

    def __init__(
        self,
        in_processes: bool,
        workers: int,
        name: str,
        initializer: Callable[[], object] | None = None,
        *,
        after_break: AfterBreak = RETRY,
        start_all: bool = False,
    ) -> None:
        self.in_processes = in_processes  # False for good after a break under `THREADS`
        self.workers = workers
        self.name = name
        self.initializer = initializer
        self.after_break = after_break
        self.start_all = start_all
        self._executor: Executor | None = None

    @property
    def executor(self) -> Executor | None:
        """The pool in use (None before the first piece of work, after a break and once closed)."""
        return self._executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """`fn(*args)` in a worker (`fn` a module-level function when in processes)."""
        loop = asyncio.get_running_loop()
        executor = self._made()
        try:
            return await loop.run_in_executor(executor, fn, *args)
        except BrokenProcessPool:
            self._drop(executor)
            if self.after_break == RAISE:
                raise
            if self.after_break == THREADS:
                self.in_processes = False
                log.warning("the %s worker pool broke; its work runs in threads from now on", self.name)
            else:
                log.warning("the %s worker pool broke; a new one runs the work again", self.name)
            return await loop.run_in_executor(self._made(), fn, *args)

    def pids(self) -> list[int]:
        """The worker processes' ids (none before the first piece of work, or in threads)."""
        executor = self._executor
        if not isinstance(executor, ProcessPoolExecutor):
            return []
        return sorted(getattr(executor, "_processes", None) or {})

    async def close(self, wait: bool = True) -> None:
        """Shut the pool down, work not started cancelled; with `wait`, until the work under
        way is over (in a thread: the event loop goes on meanwhile)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        if wait:
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
        else:
            executor.shutdown(wait=False, cancel_futures=True)

    def _made(self) -> Executor:
        if self._executor is None:
            self._executor = worker_pool(self.in_processes, self.workers, self.name, self.initializer)
            if self.start_all and self.in_processes:
                for _ in range(self.workers):
                    self._executor.submit(int)
        return self._executor

    def _drop(self, broken: Executor) -> None:
        """A new pool for the next piece of work (unless another has made one already)."""
        if self._executor is broken:
            self._executor = None
        broken.shutdown(wait=False, cancel_futures=True)
