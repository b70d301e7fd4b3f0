"""The tournament director: the one loop that plays the site's tournaments out.

The machine (machine.py) is pure: it says what should happen. The director does it, and is
the only writer of a running tournament besides the service's registrations (both save with
compare-and-set on the doc's version, so neither overwrites the other). Per tournament with
news (below), each pass:

1. loads the doc; for every game being played, reads its outcome from the table's stored
   log (`table.outcome.game_outcome`: None while it is not over);
2. in a worker process (advancing.py: parsing the doc, pairing a round, writing it back is
   CPU, up to a second for a big Swiss round, and nothing slow runs on the event loop),
   `record`s the outcomes and `step`s the machine (starts it, pairs the next round, finishes
   it, by the clock);
3. carries out what is safe to repeat before the save (the places, the attendance marks),
   then saves the doc with compare-and-set (stale: the pass is run again at once);
4. carries out the rest: each planned game's table is created under the id the saved doc
   names (`Registry.create(table_id=...)`: `TableExists` means it was, by us or a director
   before us), its seats taken (accounts with `take_seat`, so GET /api/me/seats hands them
   their token; bots with `give_to_bot`) and its game started, all in one step of the
   table's actor (`SetUpTable`: nothing, not even a hand-over to another process, comes
   between); the games going are saved `playing` (`mark_playing`); notices go to every
   socket of the entrants' accounts on every process (`presence.send`); a revealed round is
   told to the deal hooks.

Everything it knows is in the store, so a new director (after a crash, a takeover) resumes
exactly: step 4 is re-derived from the doc on every pass (`Tournament.pending_tables`), so a
table the last director named but never created, or created but never started, is set up
now. A table that exists but cannot be set up from here (another process owns it and it has
not started for `setup_seconds`: a director died half-way and its table went to a process
that does not direct, or it was handed over before its setup) is annulled (`EndByOperator`)
and its game given a new table id, saved with the doc, which the same pass creates: a game is
never left waiting for a table nobody will start. Events advance side by side (`AT_ONCE`),
and one event's tables are set up together, so their writes share the store's group commits.

A pass looks only at the tournaments with news: one of whose tables ended on this process
(`registry.game_over` names the table; the director keeps an index of the tables of the docs
it loaded and saved), that the service `changed` (a registration, a creation), or whose
`wake_at` is due. Every `scan_seconds`, and at its first pass (a start, a takeover of the
lease), it looks at every live tournament: what other processes did (a registration there, a
game ended on another process) is found then. Woken by a timer on the server's clock (the
earliest `wake_at` of the live tournaments, and at least every `tick_seconds`), by a game
over and by the service. A failure of the store (an outage)
is logged and the tournament is tried again at the next pass: the loop never dies of it.

An event with an entry in fichas settles its pool once its end is saved (tournaments/fichas.py:
the podium paid, or every entry refunded). A director that died between that save and the
payment, or whose payment failed, leaves a full pool: at its first pass (a start, a takeover)
and at the pass after a failed payment, the director settles the `SETTLE_BACK` events that
ended last again; settling is idempotent by the movements' keys, so a paid event moves nothing.

One director at a time per site: in a single process it is always this one; with several
(`share`), the holder of the lease `<prefix>:tournaments`, renewed like the quick match's
matchmaker's (lobby/quickmatch.py). Two directors for a moment (a lease that lapsed under a
stalled holder) are harmless: the compare-and-set save lets only one pass's result stand,
table creation is idempotent by id, and a second `start_game` is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tranque.server.cluster.leases import LeasesUnavailable, Renewal
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.fichas.service import Fichas
from tranque.server.lobby.presence import Presence
from tranque.server.lobby.registry import Registry, TableExists
from tranque.server.stopping import stop_tasks
from tranque.server.store import Store
from tranque.server.store.outage import log_failure
from tranque.server.store.tournaments import TournamentRow
from tranque.server.table.actor import Table, TableError
from tranque.server.table.clock import Clock, Timer
from tranque.server.table.commands import EndByOperator, StartGame
from tranque.server.table.outcome import GameOutcome, game_outcome
from tranque.server.table.seats import SeatKind
from tranque.server.table.state import Phase
from tranque.server.tournaments import advancing
from tranque.server.tournaments import deals as tournament_deals
from tranque.server.tournaments import fichas as tournament_fichas
from tranque.server.tournaments import schedule as tournament_schedule
from tranque.server.tournaments.advancing import Advanced
from tranque.server.tournaments.config import TournamentConfig
from tranque.server.tournaments.machine import (
    CreateTable,
    MarkAbsent,
    Notify,
    Placings,
    PlannedGame,
    PlannedSeat,
    RevealDeals,
    Status,
    Tournament,
)
from tranque.server.tournaments.service import new_row
from tranque.server.worker_pools import THREADS, WorkerPool

if TYPE_CHECKING:
    from tranque.server.cluster.leases import Leases

log = logging.getLogger(__name__)

AT_ONCE = 16  # tournaments advanced side by side in a pass (each one's tables set up together)
ATTEMPTS = 5  # saves tried per pass before leaving a (very) busy tournament to the next
SETUP_SECONDS = 15.0  # a table not set up from here for this long is annulled and planned anew
DAY = 86400.0
SITE = 0  # the creator of the schedule's events: the site, no account
SETTLE_BACK = 100  # ended events whose fichas a new director settles again (the module's doc)
SCAN_SECONDS = 10.0  # every live tournament is looked at this often (what other processes did)
NOT_SET_UP = "tournament_table_not_set_up"  # why such a table was annulled (shown to nobody seated)


@dataclass
class DirectorStats:
    """What the director did, for tests and benchmarks."""

    passes: int = 0
    saves: int = 0
    stale: int = 0
    tables: int = 0
    replanned: int = 0
    failures: int = 0
    scans: int = 0  # full scans (every live tournament)
    advanced: int = 0  # tournaments advanced, all passes together
    pass_seconds: list[float] = field(default_factory=list)  # each pass's wall time (loop clock)


class Director:
    def __init__(
        self,
        store: Store,
        registry: Registry,
        presence: Presence,
        clock: Clock,
        *,
        tick_seconds: float = 1.0,
        scan_seconds: float = SCAN_SECONDS,
        absent_grace_seconds: float = 45.0,
        bar_days: float = 7.0,
        schedule: Sequence[dict[str, Any]] = (),
        schedule_ahead_seconds: float = tournament_schedule.AHEAD_SECONDS,
        setup_seconds: float = SETUP_SECONDS,
        hooks: tournament_deals.DealHooks | None = None,
        in_processes: bool = True,
        workers: int = 1,
    ) -> None:
        self.store = store
        self.registry = registry
        self.presence = presence
        self.clock = clock
        self.tick_seconds = tick_seconds
        self.scan_seconds = scan_seconds
        self.absent_grace_seconds = absent_grace_seconds
        self.bar_days = bar_days
        self.schedule = list(schedule)
        self.schedule_ahead_seconds = schedule_ahead_seconds
        self.setup_seconds = setup_seconds
        self.hooks = hooks
        self.stats = DirectorStats()
        self.new_table_id: Callable[[], str] = lambda: secrets.token_urlsafe(9)
        # Tables seen not set up, and since when (the server's clock): annulled past `setup_seconds`.
        self._unready_since: dict[str, float] = {}
        self._scheduled: set[str] = set()  # schedule keys created (or found) by this process
        # What a pass looks at: the tournaments with news, not every live one.
        self._due: dict[str, float | None] = {}  # live tournament id → its next `wake_at`
        self._table_of: dict[str, str] = {}  # table id of a game not done → its tournament id
        self._tables_of: dict[str, list[str]] = {}  # tournament id → those table ids
        self._dirty: set[str] = set()  # tournaments to advance at the next pass
        self._scan_due = True  # the next pass looks at every live tournament (at start, on taking over)
        self._scanned_at = 0.0  # the server's clock at the last full scan
        self._settle_due = True  # the next pass settles the last ended events' fichas again
        # A broken process pool: the work again, in threads from then on (a process may not start).
        self.pool = WorkerPool(in_processes, workers, "tournaments", after_break=THREADS)
        self._wake = asyncio.Event()
        self._timer: Timer | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._running = False
        # With other processes (`share`): the lease of the one director.
        self.leases: Leases | None = None
        self.node: str | None = None
        self.cluster = ClusterSettings()
        self.leading = True  # a single process always directs
        self._keeper: asyncio.Task[None] | None = None
        self.fichas: Fichas | None = None  # entries and prizes in fichas (app.py sets it)

    # Life ---------------------------------------------------------------------------------

    def share(self, leases: Leases, node: str, settings: ClusterSettings | None = None) -> None:
        """One of several processes: direct only while holding `<prefix>:tournaments`."""
        self.leases, self.node = leases, node
        self.cluster = settings or ClusterSettings()
        self.leading = False

    @property
    def lease(self) -> str:
        return f"{self.cluster.prefix}:tournaments"

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        if self.leases is not None:
            await self._elect()
            self._keeper = loop.create_task(self._keep(), name="tournament-lease")
        self._task = loop.create_task(self._run(), name="tournament-director")

    async def close(self) -> None:
        """Stop; a director gives its lease up, so that another takes over at once."""
        if self._closed:
            return
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        await stop_tasks(task for task in (self._task, self._keeper) if task is not None)
        await self.pool.close(wait=False)  # not waiting for the work under way
        if self.leading and self.leases is not None and self.node is not None:
            with contextlib.suppress(LeasesUnavailable):
                await self.leases.release(self.lease, self.node)

    def wake(self, *_: object) -> None:
        """A pass now (the timer; a pass left work for the next)."""
        self._wake.set()

    def changed(self, tournament_id: str) -> None:
        """The service saved a change to `tournament_id` (a registration, a creation)."""
        if not self.leading:  # another process directs; taking over begins with a full scan
            return
        self._dirty.add(tournament_id)
        self._wake.set()

    def table_over(self, table_id: str) -> None:
        """A table of this process ended (`registry.game_over`): its tournament, if it has one."""
        tournament_id = self._table_of.get(table_id)
        if tournament_id is None:
            table = self.registry.tables.get(table_id)
            if table is None or table.options.kind != "tournament" or table.options.tournament is None:
                return
            tournament_id = table.options.tournament
        self.changed(tournament_id)

    async def _run(self) -> None:
        while not self._closed:
            self._wake.clear()
            next_at: float | None = None
            if self.leading:
                self._running = True
                try:
                    next_at = await self.run_pass()
                except Exception as error:  # never dies: the next tick tries again
                    self.stats.failures += 1
                    log_failure(log, error, "tournament director: a pass failed")
                finally:
                    self._running = False
            self._arm(next_at)
            await self._wake.wait()

    async def until_idle(self) -> None:
        """Return once no pass is running or due now (tests: after moving a FakeClock)."""
        while self._task is not None and not self._task.done():
            if not self._running and not (self._wake.is_set() and self.leading):
                return
            await asyncio.sleep(0)

    def _arm(self, next_at: float | None) -> None:
        """The next pass: at the earliest tournament's `wake_at`, and at least every tick."""
        if self._timer is not None:
            self._timer.cancel()
        now = self.clock.now()
        when = now + self.tick_seconds
        if next_at is not None:
            when = max(now, min(when, next_at))
        self._timer = self.clock.call_at(when, self.wake)

    # One pass -----------------------------------------------------------------------------

    async def run_pass(self) -> float | None:
        """The tournaments with news (a game of theirs ended, the service changed them, their
        `wake_at` is due), or every live one at a full scan; and the schedule. The earliest
        `wake_at` among the live tournaments."""
        started = asyncio.get_running_loop().time()
        self.stats.passes += 1
        await self._create_scheduled()
        if self._settle_due:
            await self._settle_ended()
        gate = asyncio.Semaphore(AT_ONCE)

        async def one(tournament_id: str) -> None:
            async with gate:
                try:
                    await self.advance(tournament_id)
                except Exception as error:
                    self.stats.failures += 1
                    self._dirty.add(tournament_id)  # looked at again next pass
                    log_failure(log, error, "tournament director: %s failed; again next pass", tournament_id)

        # Side by side: each waits on the store, whose writes then go together (group commits).
        await asyncio.gather(*(one(tournament_id) for tournament_id in await self._to_advance()))
        self.stats.pass_seconds.append(asyncio.get_running_loop().time() - started)
        return min((due for due in self._due.values() if due is not None), default=None)

    async def _to_advance(self) -> set[str]:
        """This pass's tournaments: the dirty and the due; every live one at a full scan (the
        first pass, on taking over, and every `scan_seconds`: what other processes did)."""
        now = self.clock.now()
        todo = self._dirty
        self._dirty = set()  # marked during the pass: the next one
        if self._scan_due or now - self._scanned_at >= self.scan_seconds:
            try:
                live = set(await self.store.live_tournaments())
            except BaseException:
                self._dirty |= todo
                raise
            self._scan_due, self._scanned_at = False, now
            self.stats.scans += 1
            for gone in set(self._due) - live:  # finished or cancelled meanwhile
                self._forget(gone)
            return todo | live
        return todo | {tid for tid, due in self._due.items() if due is not None and due <= now}

    def _forget(self, tournament_id: str) -> None:
        self._due.pop(tournament_id, None)
        for table_id in self._tables_of.pop(tournament_id, []):
            self._table_of.pop(table_id, None)

    def _index(self, tournament_id: str, result: Advanced, wake_at: float | None) -> None:
        """What the director knows of a tournament it loaded or saved."""
        for table_id in self._tables_of.pop(tournament_id, []):
            self._table_of.pop(table_id, None)
        if result.status not in ("open", "running"):
            self._due.pop(tournament_id, None)
            return
        self._due[tournament_id] = wake_at
        self._tables_of[tournament_id] = result.tables
        for table_id in result.tables:
            self._table_of[table_id] = tournament_id

    async def advance(self, tournament_id: str) -> float | None:
        """Record, step, save and carry out one tournament; its next `wake_at`. The reading,
        recording, stepping and writing of its doc run in a worker (advancing.py)."""
        self.stats.advanced += 1
        for _ in range(ATTEMPTS):  # a stale save (the service registered someone meanwhile): again
            row = await self.store.tournament(tournament_id)
            if row is None:
                self._forget(tournament_id)
                return None
            now = self.clock.now()
            outcomes = await self._outcomes(row.doc)
            replan = self._replan_unready(tournament_id, row.doc, now)
            result = await self._in_worker(
                advancing.advance, row.doc, outcomes, now, f"{tournament_id}:{row.version}", replan
            )
            if result.doc is not None:
                await self._before_save(tournament_id, result.effects)
                if not await self._save(tournament_id, result, row):
                    continue
            self._annul(replan)
            break
        else:
            self._dirty.add(tournament_id)  # stale every time: a busy tournament; the next pass goes on
            self.wake()
            return None
        self._after_save(tournament_id, result.effects)
        if result.doc is not None and result.status in (Status.FINISHED, Status.CANCELLED):
            await self._settle_fichas(result.doc)
        effects = result.effects
        going, unready = await self._set_up_tables(tournament_id, result)
        if going:
            result = await self._mark_playing(tournament_id, going) or result
        for effect in effects:  # after the tables: a `round` notice names a table that is there
            if isinstance(effect, Notify):
                self._notify(tournament_id, result.name, effect)
        wake_at = result.wake_at
        if unready:  # tried again at every tick until set up, or planned anew
            retry = self.clock.now() + self.tick_seconds
            wake_at = retry if wake_at is None else min(wake_at, retry)
        self._index(tournament_id, result, wake_at)
        return wake_at

    async def _outcomes(self, doc: dict[str, Any]) -> dict[str, GameOutcome]:
        """The outcomes of the doc's games being played whose tables are over (read from the
        tables' stored logs: I/O, on the loop)."""
        outcomes: dict[str, GameOutcome] = {}
        for plan in doc["rounds"]:
            for game in plan["games"]:
                if game["state"] != "playing" or self._still_playing(game["table_id"]):
                    continue
                outcome = await game_outcome(self.store, game["table_id"])
                if outcome is not None:
                    outcomes[game["key"]] = outcome
        return outcomes

    async def _in_worker(self, work: Callable[..., Advanced], *args: Any) -> Advanced:
        """`work(*args)` in the director's worker (a process; threads in tests); a broken
        process pool falls back to threads, as the password and record-check pools do."""
        return await self.pool.run(work, *args)

    def _still_playing(self, table_id: str) -> bool:
        """Whether this process has the table (owned or a replica: with several processes,
        every one has every open table) and its game is not over: no need to read its log."""
        table = self.registry.tables.get(table_id)
        return table is not None and not table.state.phase.is_over

    async def _save(self, tournament_id: str, result: Advanced, row: TournamentRow) -> bool:
        """Compare-and-set the doc on the version it was loaded at; False: stale."""
        assert result.doc is not None
        saved = await self.store.save_tournament(
            tournament_id,
            row.version,
            result.doc,
            result.status,
            starts_at=result.starts_at or row.starts_at,
            finished_at=result.finished_at,
        )
        if saved:
            self.stats.saves += 1
        else:
            self.stats.stale += 1
        return saved

    async def _mark_playing(self, tournament_id: str, keys: list[str]) -> Advanced | None:
        """The games whose tables are going are `playing` in the doc (so their outcomes are
        read); a stale save loads again. Lost (a crash, five stale saves): the next pass finds
        their tables started (`TableExists`) and marks them then. The doc as saved (None: not)."""
        for _ in range(ATTEMPTS):
            row = await self.store.tournament(tournament_id)
            if row is None:
                return None
            result = await self._in_worker(advancing.mark_playing, row.doc, keys, self.clock.now())
            if result.doc is None or await self._save(tournament_id, result, row):
                return result
        self._dirty.add(tournament_id)
        return None

    # Effects ------------------------------------------------------------------------------

    async def _before_save(self, tournament_id: str, effects: Iterable[Any]) -> None:
        """What may be done twice without harm: before the save, so a crash between the two
        cannot lose it (the save then records the pass that did it)."""
        now = self.clock.now()
        for effect in effects:
            if isinstance(effect, MarkAbsent):
                await self.store.bar(effect.account, now + self.bar_days * DAY)
            elif isinstance(effect, Placings):
                await self.store.set_places(tournament_id, dict(effect.placings))

    async def _settle_fichas(self, doc: dict[str, Any]) -> None:
        """An event with an entry in fichas that just finished pays its podium; one cancelled
        refunds its entries (tournaments/fichas.py; idempotent: the movements' keys). A failure
        is tried again at the next pass (`_settle_ended`)."""
        try:
            await tournament_fichas.settle(self.fichas, Tournament.from_json(doc))
        except Exception as error:
            self._settle_due = True
            log_failure(log, error, "settling tournament %s's fichas failed; again next pass", doc.get("id"))

    async def _settle_ended(self) -> None:
        """Settle the pools of the `SETTLE_BACK` events that ended last, with an entry in fichas:
        what a director that died (or failed) after saving an event's end left unpaid."""
        self._settle_due = False
        if self.fichas is None or not self.fichas.enabled:
            return
        try:
            ended = await self.store.tournaments(
                ("finished", "cancelled"), public_only=False, limit=SETTLE_BACK, order="latest"
            )
        except Exception as error:
            self._settle_due = True
            log_failure(log, error, "tournament director: reading the ended events failed; again next pass")
            return
        for row in ended:
            if row.doc.get("config", {}).get("entry_fichas", 0) > 0:
                await self._settle_fichas(row.doc)

    def _after_save(self, tournament_id: str, effects: Iterable[Any]) -> None:
        for effect in effects:
            if isinstance(effect, RevealDeals) and self.hooks is not None:
                self.hooks.revealed(f"{tournament_id}:{effect.round}")

    def _notify(self, tournament_id: str, name: str, effect: Notify) -> None:
        message = {"type": "tournament", "tournament": tournament_id, "name": name}
        message.update(effect.message)
        for account in effect.accounts:
            self.presence.send(account, message)

    # Tables -------------------------------------------------------------------------------

    async def _set_up_tables(self, tournament_id: str, result: Advanced) -> tuple[list[str], bool]:
        """Every planned game's table exists and is started: those this pass planned, and any
        a director before (or this one, failing) planned but never set up. The keys of the
        games whose tables are going now, and whether any is not (yet)."""

        async def one(create: CreateTable) -> str | None:
            game = create.game
            with _Logged(f"setting up table {game.table_id} of {tournament_id}"):
                if await self._set_up(tournament_id, result, game, create):
                    return game.key
            return None

        going = await asyncio.gather(*(one(create) for create in result.pending))
        return [key for key in going if key is not None], None in going

    async def _set_up(
        self, tournament_id: str, result: Advanced, game: PlannedGame, create: CreateTable
    ) -> bool:
        """Create, seat and start the game's table, or finish what was begun; whether it is
        going (started, or over already)."""
        table = await self._table(game.table_id)
        if table is None:
            options = self.registry.options(
                kind="tournament",
                tournament=tournament_id,
                tournament_round=game.round,
                competitive=create.competitive,
                bot_level=result.bot_level,
                game_cap_seconds=result.game_cap_seconds,
                absent_grace_seconds=self.absent_grace_seconds,
                deals=create.deals,
            )
            try:
                table = await self.registry.create(create.rules, options, table_id=game.table_id)
                self.stats.tables += 1
            except TableExists:  # created meanwhile (by another director, or a retry of ours)
                table = await self._table(game.table_id)
                if table is None:  # there, but not to be had here: planned anew in a while
                    self._unready_since.setdefault(game.table_id, self.clock.now())
                    return False
        if table.state.phase is not Phase.WAITING:
            self._unready_since.pop(game.table_id, None)
            return True
        if table.owned:
            with contextlib.suppress(TableError):  # handed over meanwhile (table_moved): as below
                await table.call_here(SetUpTable(game.seats, result.bot_level))
        if table.state.phase is Phase.WAITING:  # another process's: its director finishes it, or we replan
            self._unready_since.setdefault(game.table_id, self.clock.now())
            return False
        self._unready_since.pop(game.table_id, None)
        return True

    async def _table(self, table_id: str) -> Table | None:
        """The table if it exists (this process's, or a replica of another's), else None."""
        table = self.registry.tables.get(table_id)
        if table is not None:
            return table
        if await self.store.table(table_id) is None:
            return None
        try:
            return await self.registry.find(table_id)
        except TableError:
            return None

    def _replan_unready(self, tournament_id: str, doc: dict[str, Any], now: float) -> dict[str, str]:
        """A game whose table has not been set up for `setup_seconds` gets a new table id
        (saved with the doc; the next `_set_up_tables` creates it): old id → new."""
        replan: dict[str, str] = {}
        for plan in doc["rounds"]:
            for game in plan["games"]:
                since = self._unready_since.get(game["table_id"])
                if game["state"] != "planned" or since is None or now - since < self.setup_seconds:
                    continue
                replan[game["table_id"]] = self.new_table_id()
                log.warning(
                    "tournament %s: table %s never set up; game %s moves to %s",
                    tournament_id,
                    game["table_id"],
                    game["key"],
                    replan[game["table_id"]],
                )
        return replan

    def _annul(self, replan: dict[str, str]) -> None:
        """The tables of the games moved (the doc saved): annulled if this process has them."""
        for old in replan:
            self._unready_since.pop(old, None)
            self.stats.replanned += 1
            table = self.registry.tables.get(old)
            if table is not None:
                task = asyncio.get_running_loop().create_task(_annul(table))
                task.add_done_callback(_log_task)

    # The schedule -------------------------------------------------------------------------

    async def _create_scheduled(self) -> None:
        """The schedule's events due to open within `schedule_ahead_seconds`, created once."""
        if not self.schedule:
            return
        now = self.clock.now()
        for event in tournament_schedule.due(self.schedule, now, self.schedule_ahead_seconds):
            if event.key in self._scheduled:
                continue
            with _Logged(f"creating the scheduled tournament {event.key}"):
                await self._create_event(event, now)
                self._scheduled.add(event.key)

    async def _create_event(self, event: tournament_schedule.ScheduledEvent, now: float) -> bool:
        """Create one occurrence; False if it exists already (its `schedule_key` is taken)."""
        config = TournamentConfig.from_json(event.config).checked()
        tournament = Tournament.new(secrets.token_urlsafe(9), config, SITE, now)
        row = new_row(tournament, event.starts_at, schedule_key=event.key)
        created = await self.store.create_tournament(row)
        if created:
            log.info("tournament director: created %s (%s)", tournament.id, event.key)
        return created

    # The lease (several processes) ----------------------------------------------------------

    async def _keep(self) -> None:
        while not self._closed:  # (a lease call may lose a cancellation: stopping.py)
            await asyncio.sleep(self.cluster.renew_seconds)
            try:
                await self._elect()
            except Exception:
                log.exception("tournament director: keeping the lease failed")

    async def _elect(self) -> None:
        """Renew the lease if ours, else take it if free."""
        assert self.leases is not None and self.node is not None
        ttl = self.cluster.lease_seconds
        try:
            if self.leading:
                kept = await self.leases.renew({self.lease: self.node}, ttl)
                if kept.get(self.lease, Renewal.LOST) is not Renewal.LOST:
                    return
                self._lead(False)
            if await self.leases.acquire(self.lease, self.node, ttl):
                self._lead(True)
        except LeasesUnavailable as error:
            log.warning("tournament director: leases unavailable (%s)", error)
            self._lead(False)  # another may hold it by the time Redis is back

    def _lead(self, leading: bool) -> None:
        if leading == self.leading:
            return
        self.leading = leading
        log.info("tournament director: %s %s", self.node, "directs" if leading else "no longer directs")
        if leading:  # what the last director left is all in the store: look at all of it now
            self._unready_since.clear()
            self._scan_due = True
            self._settle_due = True
            self.wake()


@dataclass
class SetUpTable:
    """Seat a game's players (accounts with `take_seat`, so GET /api/me/seats hands them their
    token; bots) and start it, in one step of the table's actor: nothing comes between, not
    even a hand-over to another process (cluster/balance.py hands a waiting table over
    first). What a director before began is finished: a seat taken stays as it is."""

    seats: list[PlannedSeat]
    bot_level: str

    async def run(self, table: Table) -> None:
        if table.state.phase is not Phase.WAITING:
            return
        for planned in self.seats:
            seat = table.seats[planned.seat]
            if seat.kind is not SeatKind.EMPTY:
                continue
            if planned.account is not None:
                await table.take_seat(seat, planned.name, planned.account)
            else:
                await table.give_to_bot(seat, planned.bot_level or self.bot_level, planned.name)
        await StartGame().run(table)


async def _annul(table: Table) -> None:
    with contextlib.suppress(TableError):
        await table.call(EndByOperator(NOT_SET_UP))


def _log_task(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("tournament director: a task failed", exc_info=task.exception())


class _Logged(contextlib.AbstractContextManager[None]):
    """Log a failure of one step (an outage: one line) and go on with the next."""

    def __init__(self, what: str) -> None:
        self.what = what

    def __exit__(self, kind: object, error: BaseException | None, traceback: object) -> bool:
        if isinstance(error, Exception):
            log_failure(log, error, "tournament director: %s failed", self.what)
            return True
        return False
