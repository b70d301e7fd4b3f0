"""Garbage collection while serving: pauses of milliseconds instead of stalls of a second.

CPython's collector starts a young collection when allocations minus deallocations pass a
threshold. A server with thousands of sockets holds ~800,000 long-lived objects, and while
tables play, as many objects die as are born: the count barely moves, the young generation
fills with objects that live a few seconds (turn timers, queued events, a move's futures),
and the collection that finally comes walks 100,000–200,000 of them, each pointing into
the old heap. Measured with `benchmarks/server_load.py` at 1,000 tables: young collections
of 140–400 ms every ~5 s, each one stalling every table, clock and socket, and a collection
of the middle generation (every 50 young ones: ~900,000 objects) of about a second.

`Collector` keeps every collection small: every `freeze_seconds` it freezes what is alive
(`gc.freeze`, which only moves a list), so Python's collector, left running with its usual
thresholds, only ever walks objects born since the last tick: a few thousand, a few
milliseconds. Frozen objects are still freed as soon as nothing refers to them, and garbage
cycles made young are collected young as ever; only cycles among objects that were alive at
a tick (a closed socket's, a retired table's) wait for the full collection every
`full_seconds`, a pause of its own (about a second with 4,000 sockets: the benchmark prints it).

`tranque serve` turns it on (`runtime.tune_garbage_collector`); the app's lifespan runs it
while the server is up. Elsewhere (tests, a library user's app) Python's own collector runs.
"""

from __future__ import annotations

import asyncio
import gc
import time

FREEZE_SECONDS = 0.1
FULL_SECONDS = 900.0
DEFAULT_THRESHOLDS = (700, 10, 10)  # CPython's own

_managed = False  # whether `manage()` was called: the lifespan then runs a `Collector`


def manage() -> None:
    """Collect and freeze what exists (the app as built: modules, routes, settings), with
    Python's default thresholds, and have the app's lifespan run a `Collector`. Call once,
    before serving."""
    global _managed
    gc.set_threshold(*DEFAULT_THRESHOLDS)
    gc.collect()
    gc.freeze()
    _managed = True


def managed() -> bool:
    return _managed


class Collector:
    """What lives is frozen every `freeze_seconds` on the running loop; a full collection every
    `full_seconds`."""

    def __init__(self, freeze_seconds: float = FREEZE_SECONDS, full_seconds: float = FULL_SECONDS) -> None:
        self.freeze_seconds = freeze_seconds
        self.full_seconds = full_seconds
        self.full_collections = 0
        self.last_full_ms: float | None = None  # how long the last full collection stalled the loop
        self.last_full_found = 0  # the garbage it found: cycles among objects once frozen
        self._timer: asyncio.TimerHandle | None = None
        self._full_due = 0.0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._full_due = loop.time() + self.full_seconds
        self._timer = loop.call_later(self.freeze_seconds, self._tick)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        if loop.time() >= self._full_due:
            self.collect_all()
            self._full_due = loop.time() + self.full_seconds
        else:
            gc.freeze()
        self._timer = loop.call_later(self.freeze_seconds, self._tick)

    def collect_all(self) -> int:
        """A full collection, frozen objects included, then freeze again; the garbage found."""
        started = time.perf_counter()
        gc.unfreeze()
        found = gc.collect()
        gc.freeze()
        self.last_full_ms = (time.perf_counter() - started) * 1000
        self.last_full_found = found
        self.full_collections += 1
        return found
