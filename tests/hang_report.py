"""A pytest plugin: when a test is about to reach its timeout (pytest-timeout, `timeout` in
pyproject.toml), print the stack of every pending asyncio task to stderr. pytest-timeout's own
report shows the threads, and a hung event loop's thread shows only its wait for I/O; the
tasks' stacks show what each coroutine awaits."""

from __future__ import annotations

import asyncio
import gc
import sys
import threading
from collections.abc import Iterator

import pytest

AHEAD = 10.0  # seconds before the timeout


def _report(nodeid: str) -> None:
    out = sys.__stderr__
    if out is None:
        return
    out.write(f"\n=== {nodeid} is about to time out; its pending asyncio tasks:\n")
    for task in [obj for obj in gc.get_objects() if isinstance(obj, asyncio.Task)]:
        if not task.done():
            out.write(f"--- {task!r}\n")
            task.print_stack(file=out)
    out.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    timeout = float(item.config.getini("timeout") or 0)
    marker = item.get_closest_marker("timeout")
    if marker is not None and marker.args:
        timeout = float(marker.args[0])
    timer = None
    if timeout > AHEAD:
        timer = threading.Timer(timeout - AHEAD, _report, (item.nodeid,))
        timer.daemon = True
        timer.start()
    try:
        yield
    finally:
        if timer is not None:
            timer.cancel()
