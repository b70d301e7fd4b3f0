"""The fair-play sampler: a sample of the rated games analysed in the background, their
figures kept per account, and the signals (signals.py) handed to `on_signal` for review.

It walks the rated games in the order they finished (`Store.rated_games_after`, from where
the last sampled game left off after a restart). A game is in the sample when a hash of its
id falls under `rate` (the same choice in every process and after every restart: a game left
out is never looked at again, and two processes pick the same ones). A sampled game's
decisions, of its people's seats only (bot accounts are announced and left out), are judged
by the post-game analysis (tranque.bots.analysis) at a small budget (`deals` per decision,
against the 2,000 of an analysis a player asks for): the plan is made in a thread, each
decision evaluated in a worker process of its own started with `spawn` and run at a lower
CPU priority (`nice` 10), never on the event loop. The players' own analyses come first:
while any is waiting or running (`Store.unfinished_analysis_count`) the sampler waits
before its next decision. Each account's figures for the game (decisions, accurate moves,
inaccuracies, errors, total loss) and its rating as it sat down are kept
(`Store.save_fairplay_samples`).

At start, and after a pass that sampled anything once `check_every` seconds have gone by
since the last time, the signals are computed, in the worker process, over the last
`window` seconds of samples and rated results (read whole: on a site of hundreds of
thousands of rated games a month this read is what to make incremental first); each one not
handed over yet by this process goes to `on_signal` (by default: logged). A signal is for a person to
review, never a sanction: nothing here changes an account.

With several processes on one database each runs a sampler: they choose the same games, and
one that finds a game's figures kept already skips it, but two may analyse one game at the
same time (the second's rows replace the first's, equal); `tranque serve --workers N` could
run it in one process only.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
from collections.abc import Awaitable, Callable

from tranque.bots.analysis import Evaluation, Job, evaluate_job, plan
from tranque.engine.record import replay
from tranque.server.moderation.signals import THRESHOLDS, Signal, Thresholds, all_signals, ficha_flow_signals
from tranque.server.stopping import stop_tasks
from tranque.server.store import FairPlaySample, GamePlayerRow, RatedGame, Store
from tranque.server.store.outage import log_failure
from tranque.server.table.clock import Clock
from tranque.server.worker_pools import RAISE, WorkerPool

log = logging.getLogger(__name__)

SEED = 0  # as the site's analyses: the same game always gets the same figures
BATCH = 50  # rated games read from the store at a time
NICE = 10  # the worker process's CPU priority, below the server's and the players' analyses

OnSignal = Callable[[Signal], Awaitable[None]]


async def log_signal(signal: Signal) -> None:
    """The default `on_signal`: a line in the log, for whoever reads it."""
    log.warning("fair-play signal %s for %s: %s", signal.kind, signal.accounts, signal.evidence)


def chosen(game_id: str, rate: float) -> bool:
    """Whether the game is in the sample: a hash of its id under `rate` (0 to 1).

    >>> chosen("mesa.1", 1.0), chosen("mesa.1", 0.0)
    (True, False)
    """
    digest = hashlib.sha256(b"tranque-fairplay:" + game_id.encode()).digest()
    return int.from_bytes(digest[:8], "big") < rate * 2**64


def _lower_priority() -> None:
    """A worker process's initializer: below the server's processes for the CPU."""
    with contextlib.suppress(AttributeError, OSError):  # no `nice` on this system
        os.nice(NICE)


class FairPlaySampler:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        *,
        rate: float = 0.25,
        deals: int = 50,
        window: float = 30 * 86400.0,
        thresholds: Thresholds = THRESHOLDS,
        on_signal: OnSignal | None = None,
        poll: float = 30.0,
        check_every: float = 3600.0,
        in_processes: bool = True,
        evaluate: Callable[[Job], Evaluation] = evaluate_job,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rate = rate
        self.deals = deals
        self.window = window  # seconds of samples and results the signals look at
        self.thresholds = thresholds
        self.on_signal = on_signal or log_signal
        self.poll = poll  # seconds between looks for new rated games (and while players' analyses run)
        self.check_every = check_every  # seconds between two computations of the signals, at least
        self.evaluate = evaluate  # top level, for a worker process; tests wrap it (threads)
        self._cursor: tuple[float, str] | None = None
        self._signalled: set[tuple[str, tuple[int, ...], str]] = set()
        self._checked_at: float | None = None  # when the signals were last computed
        self._task: asyncio.Task[None] | None = None
        # A broken pool fails the game's sample (left out, not tried again: it may well kill
        # the worker again) or the check (done again at the next one), in a new worker.
        self.pool = WorkerPool(in_processes, 1, "fairplay", _lower_priority, after_break=RAISE)

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="fairplay-sampler")

    async def close(self) -> None:
        task, self._task = self._task, None
        errors = await stop_tasks([task]) if task is not None else []
        await self.pool.close()
        if errors:
            raise errors[0]

    async def _run(self) -> None:
        while True:
            try:
                sampled = await self.run_once()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log_failure(log, error, "the fair-play sampler failed; trying again in %s s", self.poll)
                sampled = 0
            if not sampled:
                await self._sleep(self.poll)

    async def _sleep(self, seconds: float) -> None:
        """`seconds` on the clock (a test's fake clock moves only when told)."""
        done = asyncio.get_running_loop().create_future()

        def due() -> None:
            if not done.done():
                done.set_result(None)

        timer = self.clock.call_at(self.clock.now() + seconds, due)
        try:
            await done
        finally:
            timer.cancel()

    # One pass ----------------------------------------------------------------------------

    async def run_once(self) -> int:
        """Sample the rated games finished since the last pass (at most `BATCH`), then, if any
        was sampled (or on the first pass), hand over the new signals; how many were sampled."""
        if self._cursor is None:
            self._cursor = await self.store.last_fairplay_sample() or (self.clock.now() - self.window, "")
        games = await self.store.rated_games_after(self._cursor, BATCH)
        sampled = 0
        for game in games:
            if chosen(game.game_id, self.rate) and not await self.store.fairplay_sampled(game.game_id):
                try:
                    samples = await self.sample(game)
                except asyncio.CancelledError:
                    raise
                except Exception:  # a game that cannot be analysed is left out, not retried forever
                    log.exception("the fair-play sample of %s failed; it is left out", game.game_id)
                    samples = []
                if samples:
                    await self.store.save_fairplay_samples(samples)
                    sampled += 1
            self._cursor = (game.finished_at, game.game_id)
        now = self.clock.now()
        if self._checked_at is None or (sampled and now - self._checked_at >= self.check_every):
            self._checked_at = now
            await self.check()
        return sampled

    async def sample(self, game: RatedGame) -> list[FairPlaySample]:
        """The figures of the game's people, analysed at `deals` deals per decision."""
        people = [row for row in await self.store.game_players(game.game_id) if await self._person(row)]
        kept = await self.store.load_game(game.game_id)
        if not people or kept is None:
            return []
        seats = [row.seat for row in people]
        planned = await asyncio.to_thread(
            lambda: plan(replay(kept.record), deals=self.deals, seed=SEED, seats=seats)
        )
        evaluations: list[Evaluation] = []
        for job in planned.jobs:
            await self._after_players()
            evaluations.append(await self.pool.run(self.evaluate, job))
        report = await asyncio.to_thread(planned.finish, evaluations)
        now = self.clock.now()
        samples = []
        for row in people:
            figures = report.accuracy_of(row.seat)
            assert row.mu_before is not None and row.sigma_before is not None
            samples.append(
                FairPlaySample(
                    game_id=game.game_id,
                    user_id=row.user_id,
                    seat=row.seat,
                    finished_at=game.finished_at,
                    format=game.format,
                    mu_before=row.mu_before,
                    sigma_before=row.sigma_before,
                    decisions=figures.decisions,
                    accurate=figures.accurate,
                    inaccuracies=figures.inaccuracies,
                    errors=figures.errors,
                    total_loss=figures.total_loss,
                    deals=self.deals,
                    sampled_at=now,
                )
            )
        return samples

    async def _person(self, row: GamePlayerRow) -> bool:
        """A person's rated part in the game (not a bot account's)."""
        if row.mu_before is None or row.sigma_before is None:
            return False
        user = await self.store.user_by_id(row.user_id)
        return user is not None and not user.is_bot

    async def _after_players(self) -> None:
        """Wait while players' own analyses are waiting or running: they come first."""
        while await self.store.unfinished_analysis_count() > 0:
            await self._sleep(self.poll)

    async def check(self) -> list[Signal]:
        """Compute the signals over the window and hand each new one to `on_signal`; the new ones."""
        since = self.clock.now() - self.window
        samples = await self.store.fairplay_samples(since)
        results = await self.store.rated_results(since)
        movements = await self.store.ficha_game_movements_since(since)  # none while fichas are off
        if not samples and not results and not movements:
            return []  # nothing to look at: no worker process started for it
        # In the worker process: a big window holds no GIL here.
        found = await self.pool.run(all_signals, samples, results, self.thresholds)
        if movements:
            found += await self.pool.run(ficha_flow_signals, movements, self.thresholds)
        new = [signal for signal in found if signal.key not in self._signalled]
        for signal in new:
            self._signalled.add(signal.key)
            try:
                await self.on_signal(signal)
            except Exception:
                log.exception("handing over the fair-play signal %s failed", signal.kind)
                self._signalled.discard(signal.key)  # handed over again at the next check
        return new

    def worker_pids(self) -> list[int]:
        """The worker process's id (none before the first evaluation, or in a thread)."""
        return self.pool.pids()
