"""Property tests of the ledger (docs/fichas.md#the-books): random sequences of grants, refills, stakes,
unstakes, games won (rated or not), annulled games with abandoners, retried ends and crashes
(an exception in the middle of a transaction) on the memory store, SQLite and PostgreSQL.
After every step: the books balance (accounts + pots + bank = everything granted), no balance
is below zero, a crash changed nothing, and no game's pot paid out twice (each game settled
once, its pot emptied exactly, a retried end changes nothing)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.conftest import empty_tables
from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.ledger import Books, Kind, Movement, account, game_ref, pot
from tranque.server.fichas.service import Fichas
from tranque.server.settings import Settings
from tranque.server.store import FichasShort, MemoryStore, RatingRow, StoredEvent
from tranque.server.store.outbox import GameEnd, KeptGame
from tranque.server.store.sql import SqlStore
from tranque.server.table.clock import FakeClock

USERS = 4
TABLES = 2
DAY = 86_400.0


class Crash(Exception):
    """Injected in the middle of a transaction."""


# Steps ----------------------------------------------------------------------------------------

grants = st.tuples(st.just("grant"), st.integers(0, USERS - 1))
refills = st.tuples(st.just("refill"), st.integers(0, USERS - 1), st.integers(0, 3))  # days later
stakes = st.tuples(
    st.just("stake"),
    st.integers(0, USERS - 1),
    st.integers(0, TABLES - 1),
    st.sampled_from([10, 50, 100, 500]),
)
unstakes = st.tuples(st.just("unstake"), st.integers(0, USERS - 1), st.integers(0, TABLES - 1))
ends = st.tuples(
    st.just("end"),
    st.integers(0, TABLES - 1),
    st.sampled_from(["rated", "unrated", "annulled"]),
    st.sets(st.integers(0, USERS - 1), max_size=2),  # the abandoners (an annulled game's)
    st.sampled_from(["once", "retried", "crash_keep", "crash_movements"]),
)
crashes = st.tuples(st.just("crash_stake"), st.integers(0, USERS - 1), st.integers(0, TABLES - 1))
STEPS = st.lists(st.one_of(grants, refills, stakes, unstakes, ends, crashes), min_size=1, max_size=30)


@dataclass
class Table:
    number: int = 1  # the game the pot is for
    seq: int = 0  # its log's last event
    seats: dict[int, int] = field(default_factory=dict)  # user → seat


@dataclass
class Run:
    store: Any
    fichas: Fichas
    clock: FakeClock
    tables: list[Table] = field(default_factory=lambda: [Table() for _ in range(TABLES)])
    settled: dict[str, int] = field(default_factory=dict)  # game ref → what its stakes came to

    async def books(self) -> Books:
        books: Books = await self.store.ficha_books()
        return books

    async def check(self) -> None:
        books = await self.books()
        assert books.negative == 0, books
        assert books.balanced, books
        for user in range(USERS):
            assert await self.store.ficha_balance(account(user)) >= 0
        for ref, staked in self.settled.items():
            movements = await self.store.ficha_movements_of(ref)
            out = [m for m in movements if m.kind in (Kind.PAYOUT, Kind.CUT, Kind.REFUND, Kind.FORFEIT)]
            assert sum(m.amount for m in out) == staked, (ref, movements)  # paid out once, all of it
            assert len({m.key for m in out}) == len(out)
            table, _, number = ref.rpartition(".")
            assert await self.store.ficha_balance(pot(table, int(number))) == 0

    async def unchanged(self, before: Books, balances: list[int]) -> None:
        assert await self.books() == before
        assert [await self.store.ficha_balance(account(user)) for user in range(USERS)] == balances

    async def balances(self) -> list[int]:
        return [await self.store.ficha_balance(account(user)) for user in range(USERS)]

    async def step(self, step: tuple[Any, ...]) -> None:
        kind = step[0]
        if kind == "grant":
            await self.fichas.grant_if_new(step[1])
        elif kind == "refill":
            self.clock.advance(step[2] * DAY)
            await self.fichas.refill(step[1])
        elif kind == "stake":
            await self.sit(step[1], step[2], step[3])
        elif kind == "unstake":
            table = self.tables[step[2]]
            seat = table.seats.pop(step[1], None)
            if seat is not None:
                await self.fichas.unstake(step[1], f"t{step[2]}", table.number, seat)
        elif kind == "crash_stake":
            await self.crash_stake(step[1], step[2])
        else:
            await self.end(*step[1:])

    async def sit(self, user: int, index: int, amount: int) -> None:
        table = self.tables[index]
        seat = table.seats.get(user, len(table.seats) + user * TABLES)
        before = await self.books()
        try:
            await self.fichas.stake(user, f"t{index}", table.number, seat, amount)
        except FichasError as refused:
            assert refused.code == "fichas_not_enough"
            have = refused.params["have"]
            assert isinstance(have, int) and 0 <= have < amount
            assert (await self.books()).pots == before.pots  # nothing moved into a pot
            return
        table.seats[user] = seat

    async def crash_stake(self, user: int, index: int) -> None:
        """A stake whose transaction fails after its first writes: nothing of it stays."""
        table, before, balances = self.tables[index], await self.books(), await self.balances()
        ref = game_ref(f"t{index}", table.number)
        staked = Movement(
            f"crash:{ref}:{user}:{self.clock.now()}",
            account(user),
            pot(f"t{index}", table.number),
            1,
            Kind.STAKE,
            user,
            ref,
            self.clock.now(),
        )
        nowhere = Movement("crash:nowhere", account(USERS + 7), "bank", 1, Kind.STAKE, None, ref, 0.0)
        with pytest.raises(FichasShort):
            await self.store.move_fichas([staked, nowhere])
        await self.unchanged(before, balances)

    async def end(self, index: int, how: str, abandoners: set[int], attempt: str) -> None:
        table = self.tables[index]
        table_id = f"t{index}"
        table.seq += 1
        at = self.clock.now()
        await self.store.append_events(table_id, [StoredEvent(table.seq, "game_ended", {}, at)])
        end = GameEnd(table_id, table.seq, at)
        staked = await self.fichas.game_stakes(table_id, table.number)
        seated = sorted(staked)
        winners = seated[:1] if len(seated) < 4 else [seated[0], seated[2]]
        movements = self.fichas.settle(
            table_id,
            table.number,
            staked,
            winners,
            rated=how == "rated",
            annulled=how == "annulled",
            abandoners=sorted(abandoners),
            at=at,
        )

        def keep(_known: Mapping[int, RatingRow]) -> KeptGame | None:
            return None

        def crashing(_known: Mapping[int, RatingRow]) -> KeptGame | None:
            raise Crash

        if attempt in ("crash_keep", "crash_movements"):
            before, balances = await self.books(), await self.balances()
            if attempt == "crash_keep":
                with pytest.raises(Crash):
                    await self.store.record_game_end(end, "duel", seated, crashing, movements)
            else:  # the movements written, then one that cannot be: the whole recording undone
                bad = Movement(f"crash:{end.seq}", pot("nowhere", 1), "bank", 1, Kind.CUT, None, "x", at)
                with pytest.raises(FichasShort):
                    await self.store.record_game_end(end, "duel", seated, keep, [*movements, bad])
            await self.unchanged(before, balances)
            assert end in await self.store.game_ends(100)  # still to record
        assert await self.store.record_game_end(end, "duel", seated, keep, movements)
        self.settled[game_ref(table_id, table.number)] = sum(staked.values())
        if attempt == "retried":
            before, balances = await self.books(), await self.balances()
            assert not await self.store.record_game_end(end, "duel", seated, keep, movements)
            assert await self.store.move_fichas(movements) == []  # the keys are taken
            await self.unchanged(before, balances)
        table.number += 1
        table.seats.clear()


async def run(store: Any, steps: list[tuple[Any, ...]]) -> None:
    clock = FakeClock()
    service = Fichas(
        store, replace(Settings(database_url=None, clock=clock), fichas_grant=300, fichas_floor=100)
    )
    state = Run(store, service, clock)
    for index in range(TABLES):
        await store.create_table(f"t{index}", {}, 0.0)
    for step in steps:
        await state.step(step)
        await state.check()


async def on_sql(url: str, steps: list[tuple[Any, ...]]) -> None:
    store = SqlStore(url)
    await store.start()
    try:
        await empty_tables(store)
        await run(store, steps)
    finally:
        await store.close()


PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
SQL_PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@PROPERTY
@given(steps=STEPS)
def test_the_books_always_balance_on_the_memory_store(steps: list[tuple[Any, ...]]) -> None:
    asyncio.run(run(MemoryStore(), steps))


@SQL_PROPERTY
@given(steps=STEPS)
def test_the_books_always_balance_on_sqlite(steps: list[tuple[Any, ...]]) -> None:
    asyncio.run(on_sql("sqlite+aiosqlite://", steps))


@pytest.fixture
def postgres(request: pytest.FixtureRequest) -> str:
    url: str = request.getfixturevalue("postgres_url")
    return url


@SQL_PROPERTY
@given(steps=STEPS)
def test_the_books_always_balance_on_postgresql(postgres: str, steps: list[tuple[Any, ...]]) -> None:
    asyncio.run(on_sql(postgres, steps))
