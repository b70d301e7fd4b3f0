"""The server's Prometheus metrics (`prometheus_client`), defined once, updated by one-line hooks.

GET /metrics (http/health.py) serves them in the text format. With `tranque serve --workers N`
every worker process writes its values to files under $PROMETHEUS_MULTIPROC_DIR (set up by
`tranque serve`), and a scrape of any one process adds them all up (`exposition`); the gauges
say how (`multiprocess_mode`): "livesum" adds the live processes' values. docs/deploy.md
«Watching it» lists them and what to alert on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE = CONTENT_TYPE_LATEST

# Seconds: a move's round trip is milliseconds, a slow database's hundreds, a bot's think seconds.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
THINKING_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

TABLES = Gauge(
    "tranque_tables", "Tables this process owns, by phase.", ["phase"], multiprocess_mode="livesum"
)
SOCKETS = Gauge("tranque_open_sockets", "WebSockets open now.", multiprocess_mode="livesum")
ACTIONS = Counter("tranque_actions", "Moves (`act`) the tables accepted from sockets.")
ACT_SECONDS = Histogram(
    "tranque_act_event_seconds",
    "From a socket's `act` arriving to its event being sent to the table's followers.",
    buckets=FAST_BUCKETS,
)
APPEND_SECONDS = Histogram(
    "tranque_store_append_seconds", "One append of a table's events to the store.", buckets=FAST_BUCKETS
)
DATABASE_ERRORS = Counter("tranque_database_errors", "Errors the database driver raised.")
REDIS_ERRORS = Counter("tranque_redis_errors", "Failed calls to Redis (leases, bus, limiters).")
TAKEOVERS = Counter("tranque_lease_takeovers", "Tables this process took over from a lapsed owner.")
BOT_SECONDS = Histogram(
    "tranque_bot_thinking_seconds", "A bot choosing one move (in its worker).", buckets=THINKING_BUCKETS
)
ANALYSIS_QUEUE = Gauge(
    "tranque_analysis_queue_depth",
    "Post-game analyses not over yet on the whole site, as last counted.",
    multiprocess_mode="livemostrecent",
)
REFUSALS = Counter("tranque_refusals", "Refusals sent (socket errors and HTTP bodies), by code.", ["code"])

_phases: dict[str, str] = {}  # table id → the phase it is counted in (tables this process owns)


def table_phase(table_id: str, phase: str | None) -> None:
    """Count table `table_id` in `phase` (None: not this process's any more, or gone)."""
    before = _phases.pop(table_id, None)
    if before == phase:
        if phase is not None:
            _phases[table_id] = phase
        return
    if before is not None:
        TABLES.labels(before).dec()
    if phase is not None:
        _phases[table_id] = phase
        TABLES.labels(phase).inc()


@contextmanager
def timed(histogram: Histogram) -> Iterator[None]:
    """Observe how long the block took (successful or not) in `histogram`."""
    started = time.perf_counter()
    try:
        yield
    finally:
        histogram.observe(time.perf_counter() - started)


@contextmanager
def accepted_move() -> Iterator[None]:
    """A socket's `act`: counted, and its time to the event observed, if the table accepts it
    (a refused one raises through, uncounted)."""
    started = time.perf_counter()
    yield
    ACT_SECONDS.observe(time.perf_counter() - started)
    ACTIONS.inc()


def refusal(code: str) -> None:
    REFUSALS.labels(code).inc()


def database_error(*_: Any) -> None:
    """SQLAlchemy's `handle_error` event: one more database error."""
    DATABASE_ERRORS.inc()


def exposition() -> bytes:
    """The text format of every metric: of all the worker processes in multiprocess mode."""
    directory = os.environ.get(MULTIPROCESS_VARIABLE)
    if directory:
        forget_dead_workers(directory)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)


def forget_dead_workers(directory: str) -> None:
    """The library's `mark_process_dead` for every worker process that ended (uvicorn restarts a
    crashed one under another pid): its "live" gauges stop counting; its counters stay summed."""
    for path in Path(directory).glob("gauge_live*_*.db"):
        pid = int(path.stem.rsplit("_", 1)[1])
        if not _alive(pid):
            multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process by now: this worker is gone all the same
        return False
    return True
