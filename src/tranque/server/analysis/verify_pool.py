"""Records are checked off the event loop: in a worker process, a few at a time.

Checking a record replays the whole game in pure Python, about a millisecond a round. On the
event loop a long record would hold up every table, clock and socket for that long; in a
worker thread it would still take the interpreter's lock from them. So each runs in a worker
process (started on first use, with `spawn`: nothing of the server is copied into them), or,
with `in_processes=False`, in a thread. At most `checks_at_once` records are being checked,
each in a worker of its own, and `checks_per_address` from one address; beyond that a check
is refused with `503 verify_busy` rather than queued, so a flood of checks costs memory for
none of them and one long check never delays another. Where a process cannot be started (or
dies), the checks go on in threads.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from tranque.server.analysis.verify import check_record_text
from tranque.server.refusals import Refusal
from tranque.server.worker_pools import THREADS, WorkerPool


class CheckLimits(Protocol):
    """The numbers of the site's limits that bound checking records (lobby/limits.py's
    `Limits`, chosen by `Settings.limits`)."""

    @property
    def record_rounds(self) -> int: ...

    @property
    def checks_at_once(self) -> int: ...

    @property
    def checks_per_address(self) -> int: ...


class VerifierBusy(Exception):
    """Too many checks already; `body` is the refusal (503)."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.body = body


class Verifier:
    def __init__(self, limits: CheckLimits, in_processes: bool = True) -> None:
        self.limits = limits
        self.running: Counter[str] = Counter()  # checks under way (and waiting) by address
        # Each check in a worker of its own, every worker started with the pool (no check waits
        # for one to start); a process that cannot start (or dies): threads from then on.
        self.pool = WorkerPool(
            in_processes, limits.checks_at_once, "verify", after_break=THREADS, start_all=True
        )

    @property
    def checking(self) -> int:
        return self.running.total()

    async def check(self, text: bytes, address: str, lang: str = "es") -> dict[str, Any]:
        """The verdict on a record; `VerifierBusy` or `verify.RecordRefused` when there is none."""
        self._admit(address)
        self.running[address] += 1
        try:
            return await self.pool.run(check_record_text, text, self.limits.record_rounds, lang)
        finally:
            self.running[address] -= 1
            if self.running[address] <= 0:
                del self.running[address]

    def _admit(self, address: str) -> None:
        if self.running[address] >= self.limits.checks_per_address:
            raise VerifierBusy(Refusal("verify_busy").body())
        if self.checking >= self.limits.checks_at_once:
            raise VerifierBusy(Refusal("verify_busy.all").body())

    async def close(self) -> None:
        await self.pool.close()
