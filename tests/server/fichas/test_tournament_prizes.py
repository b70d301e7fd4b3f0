"""A finished tournament with an entry in fichas pays its podium from the pool less the bank's
cut, 5:3:2 between first, second and third, partners splitting their place's share and bots
taking nothing (tournaments/fichas.py `settle`); paying again pays nothing; a cancelled event
refunds every entry; with fichas off nothing moves. On every backend."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pytest

from tests.server.support.harness import fast_settings
from tranque.server.fichas import ledger
from tranque.server.fichas.service import Fichas
from tranque.server.store import Store
from tranque.server.tournaments.fichas import settle
from tranque.server.tournaments.machine import Status, Tournament

pytestmark = pytest.mark.anyio


@dataclass
class Config:
    entry_fichas: int


@dataclass
class Entrant:
    no: int
    accounts: tuple[int, ...]


@dataclass
class Finished:
    """What `settle` reads of a tournament: its id, entry, status, entrants and podium."""

    id: str
    config: Config
    status: Status
    entrants: list[Entrant] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)

    def podium(self) -> list[int]:
        return self.placed


async def entered(fichas: Fichas, tournament_id: str, accounts: list[int], entry: int) -> None:
    for user_id in accounts:
        await fichas.grant_if_new(user_id)
        await fichas.tournament_entry(user_id, tournament_id, entry)


async def test_the_podium_is_paid_from_the_pool_less_the_cut_once(store: Store) -> None:
    fichas = Fichas(store, fast_settings(fichas_enabled=True))
    await entered(fichas, "t", [1, 2, 3, 4, 5], 200)  # a pool of 1000
    assert await fichas.store.ficha_balance(ledger.tournament_pot("t")) == 1000
    event = Finished("t", Config(200), Status.FINISHED, [Entrant(n, (n,)) for n in range(1, 6)], [3, 1, 5])
    await settle(fichas, cast(Tournament, event))
    # The cut: 400 to the bank; the rest, 600, shared 5:3:2: 300, 180, 120.
    assert [await fichas.balance(u) for u in (1, 2, 3, 4, 5)] == [800 + 180, 800, 800 + 300, 800, 800 + 120]
    assert await store.ficha_balance(ledger.tournament_pot("t")) == 0
    assert await store.ficha_balance(ledger.BANK) == 400
    await settle(fichas, cast(Tournament, event))  # a retried end pays nothing twice
    assert await fichas.balance(3) == 1100
    assert (await fichas.books()).balanced
    assert (await fichas.history(3, 1))[0].kind == ledger.Kind.PRIZE


async def test_partners_split_their_place_and_bots_take_nothing(store: Store) -> None:
    fichas = Fichas(store, fast_settings(fichas_enabled=True))
    await entered(fichas, "p", [1, 2, 3, 4], 250)  # 1000: two pairs paid, the third place is bots
    entrants = [Entrant(1, (1, 2)), Entrant(2, (3, 4)), Entrant(3, (90, 91))]
    await settle(fichas, cast(Tournament, Finished("p", Config(250), Status.FINISHED, entrants, [2, 1, 3])))
    # 600 after the cut, shared 5:3 between the two places with payers: 375 and 225.
    assert [await fichas.balance(u) for u in (1, 2, 3, 4)] == [750 + 112, 750 + 112, 750 + 187, 750 + 187]
    assert await store.ficha_balance(ledger.account(90)) == 0
    assert await store.ficha_balance(ledger.tournament_pot("p")) == 0
    assert (await fichas.books()).balanced


async def test_a_cancelled_event_refunds_every_entry(store: Store) -> None:
    fichas = Fichas(store, fast_settings(fichas_enabled=True))
    await entered(fichas, "c", [1, 2], 300)
    await settle(fichas, cast(Tournament, Finished("c", Config(300), Status.CANCELLED)))
    assert [await fichas.balance(u) for u in (1, 2)] == [1000, 1000]
    assert await store.ficha_balance(ledger.tournament_pot("c")) == 0


async def test_with_fichas_off_settling_moves_nothing(store: Store) -> None:
    on = Fichas(store, fast_settings(fichas_enabled=True))
    await entered(on, "o", [1, 2], 300)
    off = Fichas(store, fast_settings(fichas_enabled=False))
    await settle(off, cast(Tournament, Finished("o", Config(300), Status.CANCELLED)))
    assert await store.ficha_balance(ledger.tournament_pot("o")) == 600
