"""Process settings for serving thousands of sockets (measured with benchmarks/server_load.py).

Every open socket keeps ~200 tracked objects alive (ASGI coroutines, closures, queues), so
with 4,000 sockets a full garbage collection walks ~800,000 objects and stalls every table
for 0.5–1 s. CPython's own trigger cannot keep the young collections small on such a server:
it counts allocations minus deallocations, and while old objects die as fast as new ones are
made the count barely moves, so the young generation grows for seconds and its collection
then takes 0.1–0.3 s (measured with benchmarks/server_load.py, BENCH_GC_LOG). So the
automatic collector is off and a thread of its own collects by the clock instead: the young
generation every `YOUNG_SECONDS`, the middle one every `MIDDLE_EVERY` of those, everything
every `FULL_SECONDS`. What exists at start is frozen (never walked).
WebSocket compression costs ~29% of the server's CPU per action and ~44 KiB per socket for
messages that are already small, so it is off.

`uvicorn_options` is how `tranque serve` and the tests' server both run uvicorn: its HTTP
protocol with the header limits of `limits.Limits`, and the WebSocket settings above.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tranque.server.limits import Limits

YOUNG_SECONDS = 0.1  # a young collection walks what was made in this long and still lives
MIDDLE_EVERY = 10  # young collections per collection of the middle generation too
FULL_SECONDS = 600.0  # a full collection (~0.2–0.5 s with 4,000 sockets) this rarely
WS_PER_MESSAGE_DEFLATE = False
WS_MAX_SIZE = 1 << 20  # 1 MiB: a client message is at most 16 KiB (protocol.MAX_MESSAGE_CHARS)


def tune_garbage_collector() -> None:
    """Call once the app is built, before serving: freeze what exists, then collect by the
    clock on a daemon thread (`collect_by_the_clock`) instead of CPython's own trigger."""
    gc.collect()
    gc.freeze()
    gc.disable()
    threading.Thread(target=collect_by_the_clock, name="tranque-gc", daemon=True).start()


def collect_by_the_clock(rounds: int | None = None) -> None:
    """Young collections every `YOUNG_SECONDS`, the middle generation with every
    `MIDDLE_EVERY`-th, a full one every `FULL_SECONDS`; forever, or `rounds` times (tests)."""
    done = 0
    last_full = time.monotonic()
    while rounds is None or done < rounds:
        time.sleep(YOUNG_SECONDS)
        done += 1
        if time.monotonic() - last_full >= FULL_SECONDS:
            gc.collect(2)
            last_full = time.monotonic()
        else:
            gc.collect(1 if done % MIDDLE_EVERY == 0 else 0)


def uvicorn_options(limits: Limits) -> dict[str, Any]:
    """The keyword arguments of `uvicorn.run` / `uvicorn.Config` that bound what a client sends."""
    from tranque.server.http_protocol import header_timeout_protocol

    return {
        "http": header_timeout_protocol(limits.header_seconds),
        "h11_max_incomplete_event_size": limits.header_bytes,
        "timeout_keep_alive": limits.keep_alive_seconds,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": WS_PER_MESSAGE_DEFLATE,
    }
