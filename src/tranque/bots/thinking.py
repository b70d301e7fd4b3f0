"""Let a bot think without blocking the caller: the server's event loop must never wait on
a search (DESIGN.md, "Bots are ordinary seats").

`think` hands `bot.choose(view)` to an executor and returns a `concurrent.futures.Future`;
`choose_async` awaits it from asyncio. By default the work goes to one shared worker
process, so a long search holds neither the event loop nor the GIL; any executor can be
given instead (a thread pool for tests, or the server's own pool). In a process the bot
works on a pickled copy, so its random generator there does not advance the caller's: a bot
that thinks in a process repeats its random choices unless it is given a fresh seed.

How long the expert thinks is bounded by its `Budget` (deals and positions: the same
choice on every machine) and optionally by `Budget.time_limit` in seconds (a wall-clock
cap that keeps the best answer found so far; then choices may differ between runs).

>>> from concurrent.futures import ThreadPoolExecutor
>>> from tranque import Game, Rules
>>> from tranque.bots import make_bot
>>> game = Game(Rules.preset("clasico"), seed=7)
>>> with ThreadPoolExecutor(1) as pool:
...     future = think(make_bot("greedy", seed=1), game.view(game.round.turn), executor=pool)
...     action = future.result()
>>> action in game.view(game.round.turn).legal_actions
True
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import threading
from concurrent.futures import Executor, Future, ProcessPoolExecutor

from tranque.bots.base import Bot
from tranque.engine import Action, PlayerView

_shared: Executor | None = None
_lock = threading.Lock()


def shared_executor() -> Executor:
    """One worker process for every table's bots, started on first use. It is started by a
    fork server (or spawned), never forked from a process that runs threads."""
    global _shared
    with _lock:
        if _shared is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            _shared = ProcessPoolExecutor(max_workers=1, mp_context=context)
            atexit.register(_shared.shutdown, wait=False, cancel_futures=True)
        return _shared


def _choose(bot: Bot, view: PlayerView) -> Action:
    return bot.choose(view)


def think(bot: Bot, view: PlayerView, executor: Executor | None = None) -> Future[Action]:
    """Start `bot.choose(view)` on `executor` (the shared worker process by default)."""
    if view.seat is None or view.seat != view.turn or not view.legal_actions:
        raise ValueError("el bot solo piensa en su turno")
    return (executor or shared_executor()).submit(_choose, bot, view)


async def choose_async(bot: Bot, view: PlayerView, executor: Executor | None = None) -> Action:
    """`bot.choose(view)` from asyncio, without blocking the event loop."""
    return await asyncio.wrap_future(think(bot, view, executor))
