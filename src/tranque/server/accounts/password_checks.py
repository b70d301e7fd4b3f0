"""A new password's strength is estimated off the event loop: in a worker process, on a budget.

zxcvbn (passwords.py) is pure Python: on the event loop, or in a thread (it holds the
interpreter's lock), one estimate would hold up every table, clock and socket for as long as
it takes. So it runs in a worker process, started on first use with `spawn` (nothing of the
server is copied into it, and it is sent one estimate to warm up before the first is timed),
or, with `in_processes=False`, in a thread (tests). The caller waits at most `seconds`: past
that, the password is refused as `weak_password` (its `unchecked` text: choose another), which
is safer than waiting and costs the owner of a real password one retry. passwords.py bounds
what the estimator is shown, so a worker is never busy for long. At most `at_once` estimates
are under way or waiting; beyond that a sign-up is refused with `503 password_check_busy`
rather than queued. Where a process cannot be started (or dies), estimates go on in threads.

Only `register` asks (http/accounts.py), after the cheap checks, the name's and after the
address's registration quota is taken: a refused sign-up costs no estimate. `estimates`
counts them (what tests look at).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tranque.server.accounts.passwords import estimated_weakness
from tranque.server.worker_pools import THREADS, WorkerPool

log = logging.getLogger(__name__)

UNCHECKED = "weak_password.unchecked"  # the estimate took longer than its budget
BUSY = "password_check_busy"  # `at_once` estimates under way already


class PasswordChecks:
    def __init__(self, seconds: float, at_once: int = 4, in_processes: bool = True, workers: int = 1) -> None:
        self.seconds = seconds
        self.at_once = at_once
        self.under_way = 0
        self.estimates = 0  # how many were asked for, since the start
        # A process that cannot start (or dies): the estimate again, in threads from then on.
        self.pool = WorkerPool(in_processes, workers, "passwords", after_break=THREADS)
        # What runs in the worker: a module-level function (a process is sent it by name).
        self.estimate: Callable[[str, str], str | None] = estimated_weakness
        self._warm: asyncio.Task[str | None] | None = None  # the new worker's first estimate

    async def weakness(self, password: str, name: str) -> str | None:
        """The catalogue key of the estimate's refusal (`weak_password`, `UNCHECKED`, `BUSY`),
        or None for a strong password."""
        if self.under_way >= self.at_once:
            return BUSY
        self.under_way += 1
        self.estimates += 1
        try:
            await self._warmed()
            return await asyncio.wait_for(self.pool.run(self.estimate, password, name), self.seconds)
        except TimeoutError:
            log.warning("a password's estimate took over %.1f s; refused as unchecked", self.seconds)
            return UNCHECKED
        finally:
            self.under_way -= 1

    async def _warmed(self) -> None:
        """Wait, the first time, for the worker to start and read zxcvbn's word lists."""
        if self._warm is None:
            self._warm = asyncio.ensure_future(self.pool.run(estimated_weakness, "calentando motores", ""))
        try:
            await asyncio.shield(self._warm)
        except Exception:
            self._warm = None  # the next sign-up tries again
            raise

    async def close(self) -> None:
        self._warm = None
        await self.pool.close()
