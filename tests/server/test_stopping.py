"""stopping.py: tasks are stopped for good, even one that loses its cancellation (as a call
through Python 3.11's `asyncio.wait_for` may), and the caller's own cancellation is raised."""

from __future__ import annotations

import asyncio

import pytest

from tranque.server.stopping import stop_tasks

pytestmark = pytest.mark.anyio


async def loses_one_cancellation(lost: list[int]) -> None:
    """A loop whose first cancellation is lost on the way, as if a call had finished."""
    while True:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            if lost:
                raise
            lost.append(1)


async def fails() -> None:
    raise ValueError("broken")


async def test_a_task_that_loses_its_cancellation_is_cancelled_again_until_it_ends() -> None:
    lost: list[int] = []
    stubborn = asyncio.create_task(loses_one_cancellation(lost))
    plain = asyncio.create_task(asyncio.Event().wait())
    await asyncio.sleep(0)
    assert await stop_tasks([stubborn, plain], again_after=0.01) == []
    assert lost == [1] and stubborn.cancelled() and plain.cancelled()


async def test_what_the_tasks_raised_is_returned_and_done_tasks_are_left_alone() -> None:
    broken = asyncio.create_task(fails())
    finished = asyncio.create_task(asyncio.sleep(0))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    errors = await stop_tasks([broken, finished])
    assert [type(error) for error in errors] == [ValueError]
    assert not finished.cancelled()


async def test_the_callers_own_cancellation_is_raised_not_swallowed() -> None:
    lost: list[int] = []
    stubborn = asyncio.create_task(loses_one_cancellation(lost))
    await asyncio.sleep(0)
    stopper = asyncio.create_task(stop_tasks([stubborn], again_after=60))
    for _ in range(5):  # the stopper cancels, the task loses it and waits again
        await asyncio.sleep(0)
    assert lost == [1] and not stubborn.done()  # lost its first cancellation; stop_tasks waits
    stopper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stopper
    stubborn.cancel()
    with pytest.raises(asyncio.CancelledError):
        await stubborn
