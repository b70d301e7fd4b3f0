"""Bots think off the event loop (docs/design.md): cheap levels in a thread, search in a process.

`Bots` is the seam a table thinks through: `BotRunner` is the real one, `InlineBots` its
in-memory twin for tests, which answers at once on the loop with bots of a fixed seed.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Protocol

from tranque.bots import bot_names, make_bot
from tranque.engine import Action, PlayerView
from tranque.server import metrics

SEARCHING_LEVELS = frozenset({"expert"})
# The strongest bot that may cover an absent person's seat (R16) at a competitive table,
# whatever the host chose: «Bota gorda» plays the heaviest tile that fits, weaker than a
# beginner who counts, so covering gives the seat no help it could not get by itself, while
# a partner in pairs is not left with a bot that plays at random.
COMPETITIVE_COVER = "greedy"


def cover_level(table_level: str, competitive: bool) -> str:
    """The level of the bot that covers an absent person at a table (R16): the table's, but
    at a competitive table never stronger than `COMPETITIVE_COVER`.

    >>> [cover_level("expert", False), cover_level("expert", True), cover_level("random", True)]
    ['expert', 'greedy', 'random']
    """
    if not competitive:
        return table_level
    levels = bot_names()
    if table_level not in levels:  # a level of another name: the cap, to be safe
        return COMPETITIVE_COVER
    return min(table_level, COMPETITIVE_COVER, key=levels.index)


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
        with metrics.timed(metrics.BOT_SECONDS):
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
