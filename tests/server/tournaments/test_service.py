"""The tournaments' service (tournaments/service.py) over the in-memory store: a change that
loses the compare-and-set to another writer is made again on the newer document, never over
it; one that keeps losing is refused (`tournament_busy`) with nothing written; entrants are
seeded by their rating in the event's pool; a cancellation's notices go to `effects`.
(The same service over HTTP and every backend: tests/server/http/test_tournaments_api.py.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tranque.server.store import MemoryStore, RatingRow, UserRow
from tranque.server.table.clock import FakeClock
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError
from tranque.server.tournaments.machine import Effect, Notify
from tranque.server.tournaments.service import NEW_RATING, TRIES, Tournaments

pytestmark = pytest.mark.anyio

SUIZO = TournamentConfig(name="Suizo", format=Format.SUIZO, entry=Entry.DUEL, size=8, rounds=3, rated=False)


class RacingStore(MemoryStore):
    """A store where, just before the service saves, another writer saves first (`rival`,
    once), or every save finds the version moved on (`always_stale`)."""

    def __init__(self) -> None:
        super().__init__()
        self.rival: Callable[[], Awaitable[Any]] | None = None
        self.always_stale = False
        self.saves = 0

    async def save_tournament(self, *args: Any, **kwargs: Any) -> bool:
        self.saves += 1
        if self.always_stale:
            return False
        rival, self.rival = self.rival, None
        if rival is not None:
            await rival()
        return await super().save_tournament(*args, **kwargs)


async def accounts(store: MemoryStore, *names: str) -> list[UserRow]:
    return [await store.create_user(name, "x", 1.0) for name in names]


async def test_a_change_that_lost_the_race_is_made_again_on_the_newer_document() -> None:
    store = RacingStore()
    host, ana, beto = await accounts(store, "host", "ana", "beto")
    service = Tournaments(store, FakeClock())
    tid = (await service.create(host, SUIZO)).tournament.id
    store.rival = lambda: service.register(beto, tid)  # saves version 0 → 1 under ana's feet
    found = await service.register(ana, tid)
    assert [entrant.names for entrant in found.tournament.entrants] == [("beto",), ("ana",)]
    assert found.row.version == 2  # beto's save, then ana's, made again on beto's document
    assert store.saves == 3  # ana's stale try, beto's, ana's again
    assert [row.id for row, _ in await store.player_tournaments(ana.user_id, 5)] == [tid]
    assert [row.id for row, _ in await store.player_tournaments(beto.user_id, 5)] == [tid]


async def test_a_change_that_keeps_losing_is_refused_and_writes_nothing() -> None:
    store = RacingStore()
    host, ana = await accounts(store, "host", "ana")
    service = Tournaments(store, FakeClock())
    tid = (await service.create(host, SUIZO)).tournament.id
    before = await store.tournament(tid)
    store.always_stale = True
    with pytest.raises(TournamentError) as refused:
        await service.register(ana, tid)
    assert refused.value.code == "tournament_busy"
    assert store.saves == TRIES
    assert await store.tournament(tid) == before
    assert await store.player_tournaments(ana.user_id, 5) == []


async def test_an_entrant_is_seeded_by_their_rating_in_the_events_pool() -> None:
    store = MemoryStore()
    host, ana, beto = await accounts(store, "host", "ana", "beto")
    store._ratings[ana.user_id, "duel"] = RatingRow(ana.user_id, "duel", 30.0, 3.0, 1728.4, 40, 1.0)
    store._ratings[beto.user_id, "pairs"] = RatingRow(beto.user_id, "pairs", 30.0, 3.0, 1900.0, 40, 1.0)
    service = Tournaments(store, FakeClock())
    tid = (await service.create(host, SUIZO)).tournament.id
    await service.register(ana, tid)
    found = await service.register(beto, tid)  # rated in pairs only: new in duels
    assert [entrant.rating for entrant in found.tournament.entrants] == [1728, round(NEW_RATING)]


async def test_a_cancellation_hands_its_notices_to_effects_and_wakes_the_director() -> None:
    store = MemoryStore()
    host, ana = await accounts(store, "host", "ana")
    service = Tournaments(store, FakeClock())
    carried: list[tuple[str, list[Effect]]] = []
    woken: list[str] = []

    async def carry_out(tournament_id: str, effects: list[Effect]) -> None:
        carried.append((tournament_id, effects))

    service.effects, service.changed = carry_out, woken.append
    tid = (await service.create(host, SUIZO)).tournament.id
    await service.register(ana, tid)
    found = await service.cancel(host, tid)
    assert found.row.status == "cancelled" and found.row.finished_at == FakeClock().now()
    [(cancelled, effects)] = carried
    assert cancelled == tid
    assert [(type(effect), effect.accounts) for effect in effects if isinstance(effect, Notify)] == [
        (Notify, (ana.user_id,))
    ]
    assert woken == [tid, tid, tid]  # created, ana entered, cancelled
