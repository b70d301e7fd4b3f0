"""The fichas' rules over the store (fichas/service.py `Fichas`) on every backend: the grant
once, the refill to the floor once a Bogotá day, a stake covered or refused with nothing
moved, a second tab's stake at one seat taken once, leaving and sitting again, the off switch
and the stakes that are not levels."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.ledger import Kind
from tranque.server.fichas.service import Fichas
from tranque.server.settings import Settings
from tranque.server.store import Store
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

BOGOTA = ZoneInfo("America/Bogota")
# 23:00 in Bogotá on 7 December 2026 (04:00 UTC on the 8th): a UTC day would already be the next.
LATE = datetime(2026, 12, 7, 23, 0, tzinfo=BOGOTA).timestamp()


def fichas(store: Store, clock: FakeClock, **changes: object) -> Fichas:
    settings = dataclasses.replace(Settings(database_url=None, clock=clock), **changes)  # type: ignore[arg-type]
    return Fichas(store, settings)


async def test_a_new_account_is_granted_once(store: Store) -> None:
    service = fichas(store, FakeClock(LATE))
    first = await service.grant_if_new(1)
    assert first is not None and (first.kind, first.amount) == (Kind.GRANT, 1000)
    assert await service.grant_if_new(1) is None
    assert await service.balance(1) == 1000
    assert [movement.kind for movement in await service.history(1)] == [Kind.GRANT]


async def test_an_account_below_the_floor_is_topped_up_once_a_bogota_day(store: Store) -> None:
    clock = FakeClock(LATE)
    service = fichas(store, clock, fichas_grant=100, fichas_floor=200)
    assert await service.balance(1) == 200  # granted 100 when first read, then refilled to 200
    await service.stake(1, "t", 1, 0, 100)
    assert await service.balance(1) == 100  # the same day in Bogotá: no second refill
    clock.advance(30 * 60)  # 23:30, still the 7th in Bogotá (the 8th in UTC)
    assert await service.refill(1) is None
    clock.advance(60 * 60)  # 00:30 on the 8th in Bogotá
    refill = await service.refill(1)
    assert refill is not None and refill.key == "refill:1:2026-12-08" and refill.amount == 100
    assert await service.balance(1) == 200
    assert [m.kind for m in await service.history(1)] == [Kind.REFILL, Kind.STAKE, Kind.REFILL, Kind.GRANT]
    assert (await service.books()).balanced


async def test_a_stake_not_covered_is_refused_with_both_figures_and_moves_nothing(store: Store) -> None:
    service = fichas(store, FakeClock(LATE), fichas_grant=40, fichas_floor=0)
    with pytest.raises(FichasError) as refused:
        await service.stake(1, "t", 1, 0, 50)
    assert refused.value.code == "fichas_not_enough"
    assert refused.value.message == "No tienes fichas suficientes: la apuesta es de 50 y tienes 40."
    assert refused.value.message_en == "You do not have enough fichas: the stake is 50 and you have 40."
    assert await service.balance(1) == 40
    assert await service.pot("t", 1) == 0


async def test_a_second_stake_at_one_seat_is_taken_once_and_leaving_gives_it_back(store: Store) -> None:
    service = fichas(store, FakeClock(LATE))
    await service.stake(1, "t", 1, 0, 100)
    await service.stake(1, "t", 1, 0, 100)  # a second tab, a reconnection
    assert (await service.balance(1), await service.pot("t", 1)) == (900, 100)
    assert await service.unstake(1, "t", 1, 0) == 100
    assert await service.unstake(1, "t", 1, 0) == 0  # once
    assert (await service.balance(1), await service.pot("t", 1)) == (1000, 0)
    await service.stake(1, "t", 1, 0, 100)  # sitting there again stakes again
    assert (await service.balance(1), await service.game_stakes("t", 1)) == (900, {1: 100})
    assert (await service.books()).balanced


async def test_stakes_must_be_a_level_at_a_competitive_table(store: Store) -> None:
    service = fichas(store, FakeClock(LATE))
    for amount in (-10, 20, 5000):
        with pytest.raises(FichasError) as refused:
            await service.stake(1, "t", 1, 0, amount)
        assert refused.value.code == "fichas_bad_stake"
        assert refused.value.message_en == "The stake must be one of these: 10, 50, 100 or 500 fichas."
    with pytest.raises(FichasError) as refused:
        service.check_table_stake(50, competitive=False)
    assert refused.value.code == "fichas_stake_not_allowed"
    service.check_table_stake(0, competitive=False)
    service.check_table_stake(50, competitive=True)
    assert await service.balance(1) == 1000  # nothing moved


async def test_with_fichas_off_nothing_is_granted_staked_or_shown(store: Store) -> None:
    service = fichas(store, FakeClock(LATE), fichas_enabled=False)
    assert await service.grant_if_new(1) is None
    assert await service.refill(1) is None
    service.check_stake(0)
    for refused_call in (service.balance(1), service.history(1), service.stake(1, "t", 1, 0, 50)):
        with pytest.raises(FichasError) as refused:
            await refused_call
        assert refused.value.code == "fichas_off"
    assert (await service.books()).total_granted == 0


async def test_a_tournament_entry_refund_and_prizes_keep_the_books(store: Store) -> None:
    service = fichas(store, FakeClock(LATE))
    for user_id in (1, 2, 3):
        await service.tournament_entry(user_id, "x", 100)
    await service.tournament_entry(1, "x", 100)  # once
    assert await service.tournament_refund(3, "x") == 100
    paid = await service.tournament_prizes("x", [[1], [2]])
    assert [(m.kind, m.user_id, m.amount) for m in paid] == [
        (Kind.PRIZE, 1, 75),
        (Kind.PRIZE, 2, 45),
        (Kind.CUT, None, 80),
    ]
    assert await service.tournament_prizes("x", [[1], [2]]) == []  # a retried end pays nothing
    assert [await service.balance(user_id) for user_id in (1, 2, 3)] == [975, 945, 1000]
    books = await service.books()
    assert books.balanced and books.bank == 80 and books.pots == 0
