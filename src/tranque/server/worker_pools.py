"""The pools that keep CPU work off the event loop: worker processes, or threads for tests.

Password estimates, record checks, analyses and the fair-play sampler each keep a pool of
their own, made here alike: `spawn`ed processes (nothing of the server is inherited, and pure
Python work there holds no lock the event loop waits on), or threads of this process when a
setting asks for them (tests, and the fallback after a process pool broke).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor


def worker_pool(
    in_processes: bool, workers: int, name: str, initializer: Callable[[], object] | None = None
) -> Executor:
    """A pool of `workers` processes (or threads named after `name`); `initializer` runs first
    in each worker process."""
    if in_processes:
        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=initializer)
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix=name)
