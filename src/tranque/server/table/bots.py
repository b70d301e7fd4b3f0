"""Bots think off the event loop (docs/design.md): cheap levels in a thread, search in a process.

`Bots` is the seam a table thinks through: `BotRunner` is the real one, `InlineBots` its
in-memory twin for tests, which answers at once on the loop with bots of a fixed seed.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Protocol

from tranque.bots import make_bot
from tranque.engine import Action, PlayerView

SEARCHING_LEVELS = frozenset({"expert"})


class Bots(Protocol):
    async def choose(self, level: str, view: PlayerView) -> Action:
        """One of `view.legal_actions`, chosen by a bot of `level` that sees only `view`."""
        ...


def choose_in_worker(level: str, view: PlayerView) -> Action:
    """Run in a worker: a fresh bot of `level` looks at `view` and nothing else."""
    return make_bot(level).choose(view)


class BotRunner:
    def __init__(self, processes: int = 1) -> None:
        self._threads: Executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
        self._processes: Executor | None = None
        self._process_count = processes

    def _executor_for(self, level: str) -> Executor:
        if level not in SEARCHING_LEVELS or self._process_count == 0:
            return self._threads
        if self._processes is None:
            self._processes = ProcessPoolExecutor(max_workers=self._process_count)
        return self._processes

    async def choose(self, level: str, view: PlayerView) -> Action:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor_for(level), choose_in_worker, level, view)

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        if self._processes is not None:
            self._processes.shutdown(wait=False, cancel_futures=True)


class InlineBots:
    """Bots that think on the loop itself, seeded: the same view always gets the same move."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.asked = 0

    async def choose(self, level: str, view: PlayerView) -> Action:
        self.asked += 1
        return make_bot(level, seed=self.seed).choose(view)
