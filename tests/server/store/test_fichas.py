"""The fichas' ledger in the store (`FichasStore`, schema.ficha_movements and ficha_balances,
revision 0020) on every backend: a movement written once by its key, a conditional debit that
never takes a balance below zero and changes nothing when short, two stakes racing with one
balance, the day's refill, the history's pages, the books; and a game end's movements written
in the transaction of its recording, or not at all."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import pytest

from tests.server.store.test_store_outbox import Fault, table_with_ends
from tranque.server.fichas.ledger import BANK, GRANTS, Books, Kind, Movement, account, pot
from tranque.server.store import FichasShort, RatingRow, Store
from tranque.server.store.outbox import KeptGame

pytestmark = pytest.mark.anyio


def grant(user_id: int, amount: int = 100) -> Movement:
    return Movement(f"grant:{user_id}", GRANTS, account(user_id), amount, Kind.GRANT, user_id, "", 1.0)


def stake(user_id: int, amount: int, game: str = "t.1", number: int = 1) -> Movement:
    key = f"stake:{game}:{user_id}:{number}"
    return Movement(key, account(user_id), f"pot:{game}", amount, Kind.STAKE, user_id, game, 2.0)


async def test_a_movement_is_written_once_with_both_its_balance_changes(store: Store) -> None:
    written = await store.move_fichas([grant(1)])
    assert [movement.key for movement in written] == ["grant:1"] and written[0].serial > 0
    assert await store.move_fichas([grant(1)]) == []  # its key is taken: done already
    assert await store.ficha_balance(account(1)) == 100
    assert await store.ficha_balance(GRANTS) == -100
    assert await store.ficha_books() == Books(100, 100, 0, 0)
    found = await store.ficha_movement("grant:1")
    assert found == grant(1) and found is not None and found.kind is Kind.GRANT


async def test_a_short_source_moves_nothing_of_the_whole_batch(store: Store) -> None:
    await store.move_fichas([grant(1), grant(2)])
    with pytest.raises(FichasShort) as short:
        await store.move_fichas([stake(1, 50), stake(2, 150)])
    assert (short.value.holder, short.value.need, short.value.have) == (account(2), 150, 100)
    assert await store.ficha_balance(account(1)) == 100  # the first of the batch undone too
    assert await store.ficha_balance("pot:t.1") == 0
    assert await store.ficha_movement(stake(1, 50).key) is None
    assert (await store.ficha_books()).balanced


async def test_a_balance_never_goes_below_zero_and_exactly_covering_is_allowed(store: Store) -> None:
    await store.move_fichas([grant(1)])
    await store.move_fichas([stake(1, 100)])
    assert await store.ficha_balance(account(1)) == 0
    with pytest.raises(FichasShort):
        await store.move_fichas([stake(1, 1, "u.1")])
    assert await store.ficha_balance(account(1)) == 0
    assert await store.ficha_books() == Books(100, 0, 100, 0)


async def test_two_stakes_racing_with_one_balance_only_one_is_taken(store: Store) -> None:
    await store.move_fichas([grant(1)])
    results = await asyncio.gather(
        store.move_fichas([stake(1, 80, "t.1")]),
        store.move_fichas([stake(1, 80, "u.1")]),
        return_exceptions=True,
    )
    assert sorted(type(result).__name__ for result in results) == ["FichasShort", "list"]
    assert await store.ficha_balance(account(1)) == 20
    assert await store.ficha_balance("pot:t.1") + await store.ficha_balance("pot:u.1") == 80
    assert (await store.ficha_books()).balanced


async def test_the_refill_tops_up_to_the_floor_once_by_its_key(store: Store) -> None:
    await store.move_fichas([grant(1)])
    await store.move_fichas([stake(1, 90)])
    refill = await store.refill_fichas(1, 200, "refill:1:2026-12-07", 3.0)
    assert refill is not None and (refill.kind, refill.amount, refill.source) == (Kind.REFILL, 190, GRANTS)
    assert await store.ficha_balance(account(1)) == 200
    await store.move_fichas([stake(1, 50, "u.1")])
    assert await store.refill_fichas(1, 200, "refill:1:2026-12-07", 4.0) is None  # once that day
    assert await store.ficha_balance(account(1)) == 150
    assert await store.refill_fichas(1, 100, "refill:1:2026-12-08", 5.0) is None  # not below it
    assert await store.ficha_books() == Books(290, 150, 140, 0)


async def test_a_history_is_the_accounts_movements_newest_first_by_pages(store: Store) -> None:
    await store.move_fichas([grant(1), grant(2)])
    for number in range(1, 6):
        await store.move_fichas([stake(1, 10, f"t.{number}")])
    first = await store.ficha_history(1, 3, None)
    assert [movement.ref for movement in first] == ["t.5", "t.4", "t.3"]
    rest = await store.ficha_history(1, 3, first[-1].serial)
    assert [movement.ref for movement in rest] == ["t.2", "t.1", ""]
    assert [movement.key for movement in await store.ficha_history(2, 10, None)] == ["grant:2"]
    assert [movement.key for movement in await store.ficha_movements_of("t.3")] == ["stake:t.3:1:1"]


async def test_a_game_ends_movements_are_written_with_its_recording_once(store: Store) -> None:
    await store.move_fichas([grant(1), grant(2), stake(1, 50), stake(2, 50)])
    (end,) = await table_with_ends(store, "t", [10.0])
    paid = [
        Movement("payout:t.1:1", pot("t", 1), account(1), 60, Kind.PAYOUT, 1, "t.1", 10.0),
        Movement("cut:t.1", pot("t", 1), BANK, 40, Kind.CUT, None, "t.1", 10.0),
    ]

    def nothing(_known: Mapping[int, RatingRow]) -> KeptGame | None:
        return None

    assert await store.record_game_end(end, "duel", [1, 2], nothing, paid)
    assert not await store.record_game_end(end, "duel", [1, 2], nothing, paid)  # a retried end
    assert await store.ficha_balance(account(1)) == 110
    assert await store.ficha_balance(account(2)) == 50
    assert await store.ficha_books() == Books(200, 160, 0, 40)
    assert [movement.key for movement in await store.ficha_movements_of("t.1")][-2:] == [
        "payout:t.1:1",
        "cut:t.1",
    ]


async def test_a_failing_recording_writes_none_of_its_movements(store: Store) -> None:
    await store.move_fichas([grant(1), grant(2), stake(1, 50), stake(2, 50)])
    (end,) = await table_with_ends(store, "t", [10.0])
    paid = [Movement("payout:t.1:1", pot("t", 1), account(1), 100, Kind.PAYOUT, 1, "t.1", 10.0)]

    def failing(_known: Mapping[int, RatingRow]) -> KeptGame | None:
        raise Fault

    with pytest.raises(Fault):
        await store.record_game_end(end, "duel", [1, 2], failing, paid)
    too_much = [*paid, Movement("cut:t.1", pot("t", 1), BANK, 1, Kind.CUT, None, "t.1", 10.0)]
    with pytest.raises(FichasShort):  # the pot holds 100, not 101: the whole recording undone
        await store.record_game_end(end, "duel", [1, 2], lambda _known: None, too_much)
    assert await store.ficha_balance(pot("t", 1)) == 100
    assert await store.ficha_movement("payout:t.1:1") is None
    assert await store.game_ends(10) == [end]  # still to record
    assert await store.record_game_end(end, "duel", [1, 2], lambda _known: None, paid)
    assert await store.ficha_books() == Books(200, 200, 0, 0)
