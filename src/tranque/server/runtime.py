"""Process settings for serving thousands of sockets (measured with benchmarks/server_load.py).

Every open socket keeps ~200 tracked objects alive (ASGI coroutines, closures, queues), so
with 4,000 sockets a full garbage collection walks ~800,000 objects and stalls every table
for 0.5–1 s. Collecting young objects every 50,000 allocations (not 700), a full pass at most
every 50 × 1,000 young ones, and freezing what exists at start removes those stalls.
WebSocket compression costs ~29% of the server's CPU per action and ~44 KiB per socket for
messages that are already small, so it is off.
"""

from __future__ import annotations

import gc

GC_THRESHOLDS = (50_000, 50, 1_000)
WS_PER_MESSAGE_DEFLATE = False


def tune_garbage_collector() -> None:
    """Call once the app is built, before serving."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
