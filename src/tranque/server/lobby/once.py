"""Requests that must not be done twice: a double click on «Empezar» or «Crear mesa».

A client may send a `once` key (any text it makes up, one per click of the button) with a
request that creates a table. The first request with a key does the work; a repeat of the
same key by the same client (its quota key: the account, or the address of a guest) gets the
first one's answer, even while the first is still being made, instead of a second table.
Keys are kept in memory for `keep_seconds` (a restart forgets them: what they guarded was a
click, seconds long).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from tranque.server.table.clock import Clock

T = TypeVar("T")
MAX_KEY = 64


class Once:
    def __init__(self, clock: Clock, keep_seconds: float = 600.0) -> None:
        self.clock = clock
        self.keep_seconds = keep_seconds
        self._answers: dict[tuple[str, str], tuple[float, asyncio.Future[Any]]] = {}

    async def run(self, who: str, key: str | None, make: Callable[[], Awaitable[T]]) -> T:
        """`make()`'s answer; with a `key` already seen from `who`, the first one's answer."""
        if key is None:
            return await make()
        self._forget_old()
        held = self._answers.get((who, key))
        if held is not None:
            answer: T = await asyncio.shield(held[1])
            return answer
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._answers[(who, key)] = (self.clock.now(), future)
        try:
            result = await make()
        except Exception as error:
            del self._answers[(who, key)]  # a refused request may be tried again with its key
            future.set_exception(error)  # a repeat waiting for it is refused alike
            future.exception()  # retrieved, so a future nobody waited for logs nothing
            raise
        except BaseException:
            del self._answers[(who, key)]
            future.cancel()
            raise
        future.set_result(result)
        return result

    def _forget_old(self) -> None:
        oldest = self.clock.now() - self.keep_seconds
        for pair, (at, future) in list(self._answers.items()):
            if at < oldest and future.done():
                del self._answers[pair]
