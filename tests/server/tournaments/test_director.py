"""The director plays tournaments out on its own (tournaments/director.py), in one process: the
real registry, tables and presence on the memory store, bots thinking inline, and a
`FakeClock` the test moves a second at a time (nothing here is timed).

- A minitorneo of 4 duels with bots allowed and nobody registered fills with bots, plays its
  semi-finals, final and third place, and stores its standings and podium.
- Absence: a registered account that never comes to its table is covered by a bot after the
  grace and loses that game; its second miss withdraws it and bars it from events requiring
  attendance; its notices reach its open socket, and its place is stored.
- A duplicado round: every table of the round is dealt the same committed deals, and the
  seeds are withheld until the round is over, then revealed, matching the commitments.
- A pass advances only the tournaments with news (a table of theirs ended, the service
  changed them, their `wake_at` is due); every live one, one created by another process too,
  at the full scan every `scan_seconds`. The doc's work runs in a worker process.
- The director survives a store outage, and a new director (another process after a crash)
  resumes from the store alone, setting up a table the last one named but never created; a
  table under a game's id that cannot be set up here is left, and the game planned anew.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from tranque.server.lobby.presence import Presence
from tranque.server.lobby.registry import Registry
from tranque.server.store import MemoryStore
from tranque.server.store.outage import StoreUnavailable
from tranque.server.store.tournaments import TournamentRow
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.tournaments import deals
from tranque.server.tournaments.config import TournamentConfig
from tranque.server.tournaments.director import Director
from tranque.server.tournaments.machine import Tournament

pytestmark = pytest.mark.anyio

DEFAULTS = {"bot_min_seconds": 0.0, "auto_move_seconds": 0.0, "between_rounds_seconds": 2.0}
GRACE = 20.0
SCAN = 10.0  # the director's full scan, every this many seconds
BAR_DAYS = 7.0
DAY = 86400.0
NUMBERS = itertools.count(1)
MINI = {
    "format": "minitorneo",
    "entry": "duel",
    "size": 4,
    "target": 30,
    "bot_fill": True,
    "fill_wait_seconds": 0.0,
    "rated": False,
    "bot_level": "greedy",
}


@dataclass(eq=False)
class FakeSocket:
    """An account's open socket as presence holds one: what it was sent."""

    muted: frozenset[int] = frozenset()
    texts: list[str] = field(default_factory=list)

    def send_text(self, text: str) -> None:
        self.texts.append(text)

    def notices(self) -> list[dict[str, Any]]:
        import json

        return [json.loads(text) for text in self.texts if '"tournament"' in text]


class Site:
    """One process's registry, presence and director on a memory store and a FakeClock."""

    def __init__(
        self, store: MemoryStore | None = None, clock: FakeClock | None = None, in_processes: bool = False
    ) -> None:
        self.store = store or MemoryStore()
        self.clock = clock or FakeClock()
        self.registry = Registry(self.store, self.clock, InlineBots(), dict(DEFAULTS))
        self.presence = Presence(self.clock)
        self.hooks = deals.install(self.registry, self.store)
        self.director = Director(
            self.store,
            self.registry,
            self.presence,
            self.clock,
            tick_seconds=1.0,
            absent_grace_seconds=GRACE,
            bar_days=BAR_DAYS,
            scan_seconds=SCAN,
            hooks=self.hooks,
            in_processes=in_processes,
        )
        self.registry.game_over = self.director.table_over

    async def settle(self) -> None:
        """Let every table and the director run out what the clock made due."""
        for _ in range(50):
            await asyncio.sleep(0)
            for table in list(self.registry.tables.values()):
                await table.until_idle()
            await self.director.until_idle()

    async def run_until(self, done: Callable[[], Any], seconds: int = 20_000) -> None:
        for _ in range(seconds):
            await self.settle()
            if await done():
                return
            self.clock.advance(1.0)
        raise AssertionError("the tournament did not get there")

    async def create(self, config: dict[str, Any], accounts: tuple[int, ...] = ()) -> str:
        now = self.clock.now()
        checked = TournamentConfig.from_json({"name": "Prueba", **config}).checked()
        tournament = Tournament.new(f"torneo{next(NUMBERS)}", checked, 999, now)
        for account in accounts:
            tournament.register(account, f"jugador{account}", 1500, now)
        row = TournamentRow(
            id=tournament.id,
            status=str(tournament.status),
            format=str(checked.format),
            name=checked.name,
            private=False,
            creator_id=999,
            created_at=now,
            starts_at=checked.starts_at,
            finished_at=None,
            schedule_key=None,
            version=0,
            doc=tournament.to_json(),
        )
        assert await self.store.create_tournament(row)
        self.director.changed(tournament.id)  # as the service does after a creation
        return tournament.id

    async def doc(self, tournament_id: str) -> Tournament:
        row = await self.store.tournament(tournament_id)
        assert row is not None
        tournament = Tournament.from_json(row.doc)
        tournament.version = row.version
        return tournament

    async def status(self, tournament_id: str) -> str:
        row = await self.store.tournament(tournament_id)
        assert row is not None
        return row.status


@asynccontextmanager
async def site(
    store: MemoryStore | None = None, clock: FakeClock | None = None, in_processes: bool = False
) -> AsyncIterator[Site]:
    here = Site(store, clock, in_processes)
    if store is None:
        await here.store.start()
    await here.director.start()
    try:
        yield here
    finally:
        await here.director.close()
        await here.registry.close()


async def test_a_bots_only_minitorneo_of_four_duels_plays_itself_to_the_podium() -> None:
    async with site() as here:
        tid = await here.create({**MINI, "fill_wait_seconds": 5.0})

        async def finished() -> bool:
            return await here.status(tid) == "finished"

        await here.run_until(finished)
        tournament = await here.doc(tid)
        games = [game for plan in tournament.rounds for game in plan.games]
        assert len(tournament.rounds) == 2 and len(games) == 4  # two semis; the final and third place
        assert all(game.state == "done" and game.result is not None for game in games)
        podium = tournament.podium()
        assert len(podium) == 3 and len(set(podium)) == 3
        standings = tournament.standings()
        assert sorted(standing.entrant for standing in standings) == sorted(e.no for e in tournament.entrants)
        # Every game was played at its own tournament table, to its end, unrated.
        for game in games:
            table = await here.registry.find(game.table_id)
            assert table.options.kind == "tournament" and table.options.tournament == tid
            assert not table.options.competitive
            assert table.state.phase.is_over
        assert here.director.stats.tables == 4


async def test_an_absent_account_is_covered_loses_and_is_withdrawn_and_barred_at_its_second_miss() -> None:
    absent = 7
    async with site() as here:
        socket = FakeSocket()
        here.presence.add(absent, socket)  # online, but never at its table
        tid = await here.create(
            {**MINI, "fill_wait_seconds": 5.0},
            accounts=(absent,),
        )

        async def finished() -> bool:
            return await here.status(tid) == "finished"

        await here.run_until(finished)
        tournament = await here.doc(tid)
        (entrant,) = [e for e in tournament.entrants if absent in e.accounts]
        played = [
            game
            for plan in tournament.rounds
            for game in plan.games
            if any(seat.account == absent for seat in game.seats)
        ]
        assert played, "the absent account was seated"
        first = played[0]
        assert first.result is not None and entrant.no in first.result.absent
        side = next(i for i, side in enumerate(first.result.sides) if entrant.no in side)
        assert first.result.won[side] is False
        # Its seat was covered (no_show) after the grace, from the table's own log.
        from tranque.server.table.outcome import game_outcome

        outcome = await game_outcome(here.store, first.table_id)
        assert outcome is not None
        assert any(seat.user_id == absent and seat.no_show for seat in outcome.seats)
        # Two misses: withdrawn, and barred for the days set.
        assert entrant.status in ("absent", "withdrawn")
        assert len(played) == 2 and entrant.missed == 2
        barred = await here.store.barred_until(absent)
        assert barred is not None and barred >= here.clock.now() + BAR_DAYS * DAY - 3600
        # Its place is stored for its profile.
        ((row, place),) = await here.store.player_tournaments(absent, 10)
        assert row.id == tid and place is not None and place >= 3
        # Its open socket heard of its games and its withdrawal.
        notices = socket.notices()
        events = [notice["event"] for notice in notices]
        assert "round" in events and "withdrawn" in events
        first_round = next(notice for notice in notices if notice["event"] == "round")
        assert first_round["tournament"] == tid and first_round["table"] == first.table_id


async def test_a_duplicado_rounds_tables_deal_the_committed_deals_revealed_after_the_round() -> None:
    accounts = (11, 12, 13, 14)
    async with site() as here:
        tid = await here.create(
            {
                "format": "duplicado",
                "entry": "duel",
                "size": 4,
                "rounds": 2,
                "hands": 2,
                "target": 2,
                "rated": False,
                "bot_level": "greedy",
                "starts_at": here.clock.now() + 60,
            },
            accounts=accounts,
        )
        seen_withheld = False

        async def round_one_over() -> bool:
            nonlocal seen_withheld
            tournament = await here.doc(tid)
            if not tournament.rounds:
                return False
            plan = tournament.rounds[0]
            if not plan.revealed:
                if any(game.state == "playing" for game in plan.games):
                    seen_withheld = seen_withheld or not await here.hooks.deals_revealed(
                        f"{tid}:{plan.number}"
                    )
                return False
            return True

        await here.run_until(round_one_over)
        assert seen_withheld
        tournament = await here.doc(tid)
        plan = tournament.rounds[0]
        assert plan.commitments is not None and len(plan.commitments) == 2
        assert await here.hooks.deals_revealed(f"{tid}:{plan.number}")
        seeds_per_table = []
        for game in plan.games:
            events = await here.store.load_events(game.table_id)
            dealt = [event.data for event in events if event.kind == "round_started"]
            assert len(dealt) == 2
            seeds_per_table.append([(data["seed"], data["salt"], data["commitment"]) for data in dealt])
        assert len(plan.games) == 2
        assert seeds_per_table[0] == seeds_per_table[1]  # the same deals at every table
        for seed, salt, commitment in seeds_per_table[0]:
            assert hashlib.sha256(bytes.fromhex(seed) + bytes.fromhex(salt)).hexdigest() == commitment
        assert [commitment for _, _, commitment in seeds_per_table[0]] == plan.commitments


async def test_a_new_director_resumes_from_the_store_and_sets_up_a_table_never_created() -> None:
    store, clock = MemoryStore(), FakeClock()
    await store.start()
    async with site(store, clock) as first:
        # The first director saves the paired round, then dies before creating its tables.
        async def no_tables(*args: Any, **kwargs: Any) -> Any:
            raise asyncio.CancelledError  # as a process killed mid-pass

        first.registry.create = no_tables  # type: ignore[method-assign]
        tid = await first.create(MINI)
        await first.settle()
        await first.director.close()
    row = await store.tournament(tid)
    assert row is not None and row.doc["rounds"], "the round was saved before its tables"
    async with site(store, clock) as second:

        async def finished() -> bool:
            return await second.status(tid) == "finished"

        await second.run_until(finished)
        tournament = await second.doc(tid)
        assert all(game.state == "done" for plan in tournament.rounds for game in plan.games)


async def test_a_store_outage_is_logged_and_the_director_goes_on_after_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async with site() as here:
        tid = await here.create({**MINI, "fill_wait_seconds": 5.0})
        real = here.store.live_tournaments

        async def down() -> list[str]:
            raise StoreUnavailable("the database is restarting")

        here.store.live_tournaments = down  # type: ignore[method-assign]
        for _ in range(3):
            here.clock.advance(1.0)
            await here.settle()
        assert "out of reach" in caplog.text
        here.store.live_tournaments = real  # type: ignore[method-assign]

        async def finished() -> bool:
            return await here.status(tid) == "finished"

        await here.run_until(finished)
        assert here.director.stats.failures >= 3


async def test_a_table_that_cannot_be_set_up_here_is_planned_anew_after_a_while() -> None:
    store, clock = MemoryStore(), FakeClock()
    await store.start()
    async with site(store, clock) as first:

        async def no_tables(*args: Any, **kwargs: Any) -> Any:
            raise asyncio.CancelledError  # the director's process dies before its tables

        first.registry.create = no_tables  # type: ignore[method-assign]
        tid = await first.create(MINI)
        await first.settle()
        await first.director.close()
    before = Tournament.from_json((await store.tournament(tid)).doc)  # type: ignore[union-attr]
    stuck = before.rounds[0].games[0].table_id
    # Its id is taken meanwhile by a table this process does not have (another's, waiting).
    await store.create_table(stuck, {"rules": {}, "options": {}, "claims": []}, clock.now())
    async with site(store, clock) as second:

        async def finished() -> bool:
            return await second.status(tid) == "finished"

        await second.run_until(finished)
        after = await second.doc(tid)
        moved = after.rounds[0].games[0]
        assert moved.table_id != stuck and moved.state == "done"
        assert second.director.stats.replanned == 1


async def test_a_pass_advances_only_the_tournaments_with_news_and_a_full_scan_all() -> None:
    later = {**MINI, "fill_wait_seconds": 3600.0, "bot_fill": True}
    async with site() as here:
        await here.settle()
        waiting = await here.create(later)  # open: nothing to do for an hour
        await here.settle()
        here.clock.advance(SCAN)  # a full scan: now nothing is dirty
        await here.settle()
        advanced = here.director.stats.advanced
        for _ in range(int(SCAN) - 2):
            here.clock.advance(1.0)
            await here.settle()
        assert here.director.stats.advanced == advanced  # ticks without news touch nothing
        here.director.changed(waiting)  # the service saved a change
        await here.settle()
        assert here.director.stats.advanced == advanced + 1
        # Created by another process (straight into the store, nobody told): the full scan finds it.
        other = Tournament.new(
            "torneo-de-otro", TournamentConfig.from_json({"name": "Otro", **MINI}), 999, here.clock.now()
        )
        row = TournamentRow(
            id=other.id,
            status=str(other.status),
            format="minitorneo",
            name="Otro",
            private=False,
            creator_id=999,
            created_at=here.clock.now(),
            starts_at=None,
            finished_at=None,
            schedule_key=None,
            version=0,
            doc=other.to_json(),
        )
        assert await here.store.create_tournament(row)
        scans = here.director.stats.scans
        here.clock.advance(1.0)
        await here.settle()
        assert await here.status(other.id) == "open"
        for _ in range(int(SCAN)):
            here.clock.advance(1.0)
            await here.settle()
        assert here.director.stats.scans == scans + 1
        assert await here.status(other.id) in ("running", "finished")
        assert await here.status(waiting) == "open"


async def test_the_doc_work_runs_in_a_worker_process_and_the_minitorneo_finishes() -> None:
    async with site(in_processes=True) as here:
        tid = await here.create(MINI)

        async def finished() -> bool:
            return await here.status(tid) == "finished"

        await here.run_until(finished)
        executor = here.director.pool.executor
        assert isinstance(executor, ProcessPoolExecutor)  # not a thread of this process
        assert len((await here.doc(tid)).podium()) == 3
