"""«La suerte del reparto»: each side's expected points from a finished round's deal alone,
worked out off the event loop and kept in this process's memory.

A round's figures (tranque.bots.luck: the deal played out `PLAYOUTS` times by the expert at
every seat) take a second or two of CPU: they run in a worker process of this process's own
pool (`worker_pools.WorkerPool`, `spawn`ed; threads where `in_processes` is false, as in
tests), one round at a time. Only the round's deal crosses to the worker, and only once the
round is over and its deal revealed (http/luck.py checks both).

`round` answers at once: the figures if they were worked out already, else None after
starting them (the caller answers «pending» and the client asks again). Results are kept per
(game id, round number) in memory, the `kept` most recently asked for: each process of a
cluster works out what its own visitors ask for (the same seeded figures everywhere), and a
restart forgets them at the cost of working them out again. At most `most_pending` rounds
wait for the worker; past that a new one is refused (`luck_busy`, 503). A round whose working
out failed is refused (`luck_failed`, 500) rather than worked out again at every request.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any

from tranque.bots.luck import PLAYOUTS, RoundDeal, round_luck
from tranque.engine.scoring import RoundResult
from tranque.server.worker_pools import WorkerPool

log = logging.getLogger(__name__)

Key = tuple[str, int]  # (game id "<table>.<game number>", round number from 0)
Sides = list[dict[str, Any]]


class LuckBusy(Exception):
    """As many rounds as the service holds are waiting for the worker: `luck_busy` (503)."""


class LuckFailed(Exception):
    """Working the round out failed (a bug): `luck_failed` (500), not asked again and again."""


class Luck:
    def __init__(
        self,
        in_processes: bool = True,
        workers: int = 1,
        most_pending: int = 200,
        kept: int = 4096,
        playouts: int = PLAYOUTS,
    ) -> None:
        self.playouts = playouts  # fewer in tests
        self.most_pending = most_pending
        self.kept = kept
        self.done: OrderedDict[Key, Sides] = OrderedDict()
        self.failed: OrderedDict[Key, None] = OrderedDict()  # kept as `done` is
        self.running: dict[Key, asyncio.Task[None]] = {}
        self.pool = WorkerPool(in_processes, workers, "luck")  # broken: a new one works it out again
        self.computed = 0  # rounds worked out since the start (what tests look at)

    def round(self, key: Key, deal: RoundDeal, result: RoundResult) -> Sides | None:
        """The round's sides if worked out, else None once they are under way (`LuckBusy`
        when too many are, `LuckFailed` when working them out failed)."""
        if key in self.failed:
            raise LuckFailed
        found = self.done.get(key)
        if found is not None:
            self.done.move_to_end(key)
            return found
        if key not in self.running:
            if len(self.running) >= self.most_pending:
                raise LuckBusy
            self.running[key] = asyncio.get_running_loop().create_task(self._work(key, deal, result))
        return None

    async def _work(self, key: Key, deal: RoundDeal, result: RoundResult) -> None:
        try:
            sides = await self.pool.run(round_luck, deal, result, self.playouts)
            self.computed += 1
            self.done[key] = sides
            while len(self.done) > self.kept:
                self.done.popitem(last=False)
        except Exception:
            log.exception("the luck of round %s of %s failed", key[1], key[0])
            self.failed[key] = None
            while len(self.failed) > self.kept:
                self.failed.popitem(last=False)
        finally:
            self.running.pop(key, None)

    async def close(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        await self.pool.close()
