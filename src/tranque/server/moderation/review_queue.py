"""The fair-play signals' way into the moderators' queue: each new finding becomes one open item.

The sampler (sampler.py) hands over each signal once per process and start; a finding already
open in the queue (the same kind, accounts and format, from an earlier start or another
process) is not added again, so the queue holds one item per finding until a moderator closes
it. Closed findings that speak again come back as new items, with their new evidence.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from tranque.server.moderation.signals import Signal
from tranque.server.store import Store

OPEN_ITEMS_READ = (
    1000  # open items compared with a new signal (a queue longer than this is the moderators' problem)
)


def queue_signals(store: Store) -> Callable[[Signal], Awaitable[None]]:
    """The sampler's `on_signal` for a server with a moderators' queue in `store`."""

    async def put(signal: Signal) -> None:
        for item in await store.review_items("open", OPEN_ITEMS_READ):
            if item.kind == signal.kind and _same_finding(item.subjects, item.evidence, signal):
                return
        await store.add_review(signal.kind, list(signal.accounts), signal.evidence, signal.game_id)

    return put


def _same_finding(subjects: list[int], evidence: dict[str, object], signal: Signal) -> bool:
    return tuple(subjects) == signal.accounts and evidence.get("format", "") == signal.evidence.get(
        "format", ""
    )
