"""The share cards a running server draws: in a worker, off the event loop, and kept.

Drawing a card (and, for a game, replaying its record) is tens of milliseconds of CPU: it
runs in a pool of its own (`worker_pools.WorkerPool`: a `spawn`ed process, or a thread where
the settings ask for threads, as in tests). The bytes are kept in this process's memory under
a key that changes whenever what the card shows may change (a finished game never does: its
id; a tournament: its whole card), the `kept` most recently asked for. Two requests for the
same card while it is being drawn wait for the one drawing; past `most_running` different
cards being drawn at once, another is refused (`ShareBusy`: `share_busy`, 503, ask again).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from tranque.server.share.game_card import game_card, render_game_card
from tranque.server.share.podium_card import PodiumCard, render_podium_card
from tranque.server.store import GameRow
from tranque.server.worker_pools import WorkerPool


def game_png(game: GameRow, lang: str, show_line: bool) -> bytes:
    """A finished game's card (in the worker: the record's replay and the drawing)."""
    return render_game_card(game_card(game, lang, show_line))


def podium_png(card: PodiumCard) -> bytes:
    return render_podium_card(card)


class ShareBusy(Exception):
    """As many different cards as the worker takes are being drawn: `share_busy` (503)."""


def _retrieved(task: asyncio.Task[bytes]) -> None:
    if not task.cancelled():
        task.exception()


class ShareCards:
    def __init__(
        self, in_processes: bool = True, workers: int = 1, kept: int = 256, most_running: int = 64
    ) -> None:
        self.most_running = most_running
        self.kept = kept
        self.done: OrderedDict[Hashable, bytes] = OrderedDict()
        self.running: dict[Hashable, asyncio.Task[bytes]] = {}
        self.pool = WorkerPool(in_processes, workers, "share")  # broken: a new one draws again
        self.drawn = 0  # cards drawn since the start (what tests look at)

    async def png(self, key: Hashable, draw: Callable[..., bytes], *args: Any) -> bytes:
        """The card kept under `key`, or `draw(*args)` run in the worker and kept. The drawing
        is a task of its own: a request that goes away leaves it to finish for the others."""
        found = self.done.get(key)
        if found is not None:
            self.done.move_to_end(key)
            return found
        running = self.running.get(key)
        if running is None:
            if len(self.running) >= self.most_running:
                raise ShareBusy
            running = asyncio.get_running_loop().create_task(self._draw(key, draw, *args))
            running.add_done_callback(_retrieved)  # a failure nobody waits for any more: no warning
            self.running[key] = running
        return await asyncio.shield(running)

    async def _draw(self, key: Hashable, draw: Callable[..., bytes], *args: Any) -> bytes:
        try:
            body = await self.pool.run(draw, *args)
        finally:
            self.running.pop(key, None)
        self.drawn += 1
        self.done[key] = body
        while len(self.done) > self.kept:
            self.done.popitem(last=False)
        return body

    async def close(self) -> None:
        for task in list(self.running.values()):
            task.cancel()
        await self.pool.close()
