"""El reparto del día's service: the day (opened lazily, one seed for every process), the
tables' deal hooks, starting a game, keeping its result, the par and the boards.

The day is opened by the first request that needs it (`open_today`): a fresh seed from the
OS's CSPRNG and its commitment go to the store under the day's key, and a process that loses
the race reads the winner's. A table of the day is a practice table (kind `practice`, bots
at every other seat, no hints) whose `TableOptions.deals` is `reparto:<day>:<mode>`: the
registry asks this service for its deals (`deal_sources`) and whether their seed and salt may be
shown (`deals_revealed`: once the day is over), through the hooks `install` chains in front
of the duplicado's.

A game's result is kept when its table's game is over (`table_over`, told by the app): only
the first game at the table, only an account's attempt, only if the account played it to the
end itself (not abandoned) and only before the day is over (after the reveal the seed is
public, so a game still in play then does not count).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from tranque.server.lobby.registry import DealSource, NoDealSource, Registry
from tranque.server.reparto import deals
from tranque.server.reparto.days import day_end, day_of
from tranque.server.reparto.par import play_par
from tranque.server.store import RepartoDay, RepartoEntry, Store
from tranque.server.table.actor import Phase, Table
from tranque.server.table.clock import Clock
from tranque.server.worker_pools import WorkerPool

log = logging.getLogger(__name__)


class DayNotOpen(LookupError):
    """A day that is not today and was never opened (or a day still to come)."""


class AlreadyPlayed(Exception):
    """The account has its attempt of the day and mode already."""


@dataclass(frozen=True)
class Started:
    table: Table
    token: str
    day: str
    mode: str
    ranked: bool


class HookedRegistry(Protocol):
    deal_sources: Callable[[str], Awaitable[DealSource]] | None
    deals_revealed: Callable[[str], Awaitable[bool]]


class Reparto:
    def __init__(self, store: Store, clock: Clock, *, hands: int, bot_level: str, in_processes: bool) -> None:
        self.store = store
        self.clock = clock
        self.hands = hands
        self.bot_level = bot_level
        self.pool = WorkerPool(in_processes, 1, "reparto-par")  # broken: a new one plays it again
        self._pars: dict[tuple[str, str], asyncio.Task[dict[str, Any]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # The day -------------------------------------------------------------------------------

    def today(self) -> str:
        return day_of(self.clock.now())

    def revealed(self, day: str) -> bool:
        """Whether the day is over (its seed is public): days are ISO dates, so they sort."""
        return day < self.today()

    async def open_today(self) -> RepartoDay:
        day = self.today()
        row = await self.store.reparto_day(day)
        if row is None:
            seed = deals.fresh_seed()
            row = await self.store.open_reparto_day(
                day, seed, deals.commitment(seed, day, self.hands), self.clock.now()
            )
        return row

    async def day(self, day: str) -> RepartoDay:
        """A day that was opened (today's, opened now if needed); `DayNotOpen` otherwise."""
        today = self.today()
        if day == today:
            return await self.open_today()
        row = None if day > today else await self.store.reparto_day(day)
        if row is None:
            raise DayNotOpen(day)
        return row

    def public(self, row: RepartoDay) -> dict[str, Any]:
        """What anyone may read of a day: its commitment and each mode's deal commitments, and
        once it is over its seed (and every deal, to check)."""
        revealed = self.revealed(row.day)
        modes: dict[str, Any] = {}
        for mode, (players, _, series) in deals.MODES.items():
            rules = deals.mode_rules(mode, self.hands)
            entry: dict[str, Any] = {
                "players": players,
                "set_max": rules.set_max,
                "hand_size": rules.hand_size,
                "series": series,  # deal k's secret is the duplicado's deal_secret(seed, series, k)
                "commitments": deals.deal_commitments(row.seed, mode, self.hands),
            }
            if revealed:
                entry["deals"] = deals.revealed_deals(row.seed, mode, self.hands)
            modes[mode] = entry
        return {
            "day": row.day,
            "preset": deals.PRESET,
            "hands": self.hands,
            "parameters": deals.parameters(row.day, self.hands),
            "commitment": row.commitment,
            "revealed": revealed,
            "reveal_at": day_end(row.day),
            "seed": row.seed.hex() if revealed else None,
            "modes": modes,
        }

    # The registry's hooks ----------------------------------------------------------------

    async def deal_sources(self, ref: str) -> DealSource:
        day, mode = deals.parse_ref(ref)
        row = await self.store.reparto_day(day)
        if row is None:
            raise LookupError(f"no reparto day {day!r}")
        return deals.source(row.seed, mode)

    async def deals_revealed(self, ref: str) -> bool:
        day, _ = deals.parse_ref(ref)
        return self.revealed(day)

    # Playing -------------------------------------------------------------------------------

    async def start(
        self,
        registry: Registry,
        mode: str,
        name: str,
        user_id: int | None,
        address: str | None,
        claims: list[str],
    ) -> Started:
        """A game of today's deals in `mode`: the person at seat 0, the expert everywhere
        else. An account's first is its attempt for the board (`AlreadyPlayed` after that);
        a guest plays as often as it likes, unranked."""
        row = await self.open_today()
        table_id = secrets.token_urlsafe(9)
        if user_id is not None:
            started = await self.store.start_reparto_attempt(
                row.day, mode, user_id, table_id, self.clock.now()
            )
            if not started:
                raise AlreadyPlayed(mode)
        options = registry.options(
            kind="practice", bot_level=self.bot_level, deals=deals.ref(row.day, mode), hints_per_game=0
        )
        table = await registry.create(deals.mode_rules(mode, self.hands), options, claims, table_id=table_id)
        token = await table.take_seat(table.seats[0], name, user_id, address)
        for seat in table.seats[1:]:
            await table.give_to_bot(seat, self.bot_level)
        await table.start_game()
        self.par_soon(row.day, mode)
        return Started(table, token, row.day, mode, user_id is not None)

    def table_over(self, table: Table | None) -> None:
        """A table's game is over (the app says so): keep its result if it is an attempt's."""
        if table is None or not deals.is_reparto(table.options.deals):
            return
        self._spawn(self._keep_result(table))

    async def _keep_result(self, table: Table) -> None:
        ref = table.options.deals
        assert ref is not None
        day, mode = deals.parse_ref(ref)
        state = table.state
        seat = state.seats[0]
        if state.phase is not Phase.FINISHED or state.game_number != 1 or state.game is None:
            return
        if seat.user_id is None or seat.abandoned or self.revealed(day):
            return
        game = state.game
        points = [[int(result.points[0]), int(result.points[1])] for result in game.results]
        diff = int(game.scores[0] - game.scores[1])
        await self.store.finish_reparto_attempt(
            day, mode, seat.user_id, table.table_id, diff, points, self.clock.now()
        )

    # The par -------------------------------------------------------------------------------

    def par_soon(self, day: str, mode: str) -> None:
        """Start working out the par of a day and mode, if nobody here is at it."""
        if (day, mode) not in self._pars:
            task = asyncio.get_running_loop().create_task(
                self._par(day, mode), name=f"reparto-par-{day}-{mode}"
            )
            self._pars[day, mode] = task
            task.add_done_callback(lambda done: self._par_done(day, mode, done))

    def _par_done(self, day: str, mode: str, task: asyncio.Task[dict[str, Any]]) -> None:
        if task.cancelled() or task.exception() is not None:
            self._pars.pop((day, mode), None)  # asked again later
            if not task.cancelled():
                log.error("the reparto's par of %s %s failed", day, mode, exc_info=task.exception())

    async def _par(self, day: str, mode: str) -> dict[str, Any]:
        kept = await self.store.reparto_par(day, mode)
        if kept is not None:
            return kept
        row = await self.day(day)
        par = await self.pool.run(play_par, row.seed, mode, self.hands, self.bot_level)
        return await self.store.keep_reparto_par(day, mode, par)

    async def par(self, day: str, mode: str) -> dict[str, Any] | None:
        """The par if it is worked out (kept by this process or another); else None, and it is
        being worked out."""
        task = self._pars.get((day, mode))
        if task is not None and task.done() and not task.cancelled() and task.exception() is None:
            return task.result()
        kept = await self.store.reparto_par(day, mode)
        if kept is None:
            self.par_soon(day, mode)
        return kept

    async def wait_par(self, day: str, mode: str) -> dict[str, Any]:
        self.par_soon(day, mode)
        return await asyncio.shield(self._pars[day, mode])

    # The boards ----------------------------------------------------------------------------

    async def board(self, day: str, mode: str) -> dict[str, Any]:
        """The day's board of a mode: the finished attempts, best first by their result
        against par (ties share a place, the earlier finish listed first)."""
        par = await self.par(day, mode)
        entries = await self.store.reparto_entries(day, mode)
        finished = sorted(
            (entry for entry in entries if entry.diff is not None),
            key=lambda entry: (-(entry.diff or 0), entry.finished_at or 0.0, entry.name),
        )
        rows = []
        place = 0
        for index, entry in enumerate(finished):
            if index == 0 or entry.diff != finished[index - 1].diff:
                place = index + 1
            rows.append(_row(entry, place, par))
        return {
            "day": day,
            "mode": mode,
            "par": None
            if par is None
            else {"diff": par["diff"], "points": par["points"], "level": par["level"]},
            "rows": rows,
            "playing": sum(1 for entry in entries if entry.diff is None),
            "final": self.revealed(day),
        }

    async def best(self, day: str, mode: str) -> RepartoEntry | None:
        entries = [entry for entry in await self.store.reparto_entries(day, mode) if entry.diff is not None]
        if not entries:
            return None
        return min(entries, key=lambda entry: (-(entry.diff or 0), entry.finished_at or 0.0, entry.name))

    # Lifetime ------------------------------------------------------------------------------

    def _spawn(self, work: Awaitable[Any]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception:
                log.exception("the reparto could not keep a game's result")

        task = asyncio.get_running_loop().create_task(run())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in [*self._pars.values(), *self._tasks]:
            task.cancel()
        for task in [*self._pars.values(), *self._tasks]:
            with contextlib.suppress(BaseException):
                await task
        await self.pool.close(wait=False)  # a par under way is not waited for


def _row(entry: RepartoEntry, place: int, par: dict[str, Any] | None) -> dict[str, Any]:
    diff = entry.diff or 0
    return {
        "place": place,
        "name": entry.name,
        "diff": diff,
        "against_par": None if par is None else diff - int(par["diff"]),
        "points": entry.points,
        "finished_at": entry.finished_at,
    }


def install(registry: HookedRegistry, reparto: Reparto) -> None:
    """Put the reparto's deal hooks in front of the registry's (the duplicado's): a
    `reparto:` ref is the reparto's, any other goes on as before."""
    before_sources, before_revealed = registry.deal_sources, registry.deals_revealed

    async def deal_sources(ref: str) -> DealSource:
        if deals.is_reparto(ref):
            return await reparto.deal_sources(ref)
        if before_sources is None:
            raise NoDealSource(f"a table of the shared deals {ref!r} and no deal source")
        return await before_sources(ref)

    async def deals_revealed(ref: str) -> bool:
        if deals.is_reparto(ref):
            return await reparto.deals_revealed(ref)
        return await before_revealed(ref)

    registry.deal_sources = deal_sources
    registry.deals_revealed = deals_revealed
