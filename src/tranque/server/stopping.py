"""Stopping tasks for good.

A task may go on after `cancel()`: a call through Python 3.11's `asyncio.wait_for` (redis-py
sends each command through one) returns a result that came with the cancellation, and the
cancellation is lost. A loop that relied on it to end would then run for ever, and whoever
waits for it with it. `stop_tasks` cancels again until every task has ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

AGAIN_AFTER = 1.0  # seconds before a task still running is cancelled again


async def stop_tasks(
    tasks: Iterable[asyncio.Task[Any]], again_after: float = AGAIN_AFTER
) -> list[BaseException]:
    """Cancel `tasks`, again every `again_after` seconds while any goes on, until all have
    ended; return what they raised besides their cancellation. A cancellation of the caller
    is raised, not swallowed (each task was cancelled at least once by then)."""
    tasks = list(tasks)
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=again_after)
    return [error for task in tasks if not task.cancelled() and (error := task.exception()) is not None]
