"""An event's end saved and its fichas never settled (the process died between the two) leaves
its pool full; the next director, at its first pass after a start or a takeover, settles the
events that ended last again (tournaments/director.py `SETTLE_BACK`), and settling once more
moves nothing. On SQLite and on PostgreSQL, whose pools outlive the process."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from tests.server.conftest import empty_database_url
from tests.server.fichas.test_fichas_http import TOURNAMENT, player, user_id
from tests.server.support.harness import LiveServer, fast_settings
from tranque.server.fichas import ledger
from tranque.server.fichas.ledger import Books, Kind
from tranque.server.store.sql import SqlStore
from tranque.server.tournaments.machine import Tournament
from tranque.server.tournaments.service import Loaded, save

ENTRY = 300
SETTLED_WITHIN = 60.0  # seconds the new director's first pass may take: a guard against a hang


async def cancel_without_settling(url: str, tournament_id: str) -> None:
    """Save the event as cancelled by its creator, as the service does, and stop there: the
    refunds that would follow are never made."""
    store = SqlStore(url)
    await store.start()
    try:
        row = await store.tournament(tournament_id)
        assert row is not None
        tournament = Tournament.from_json(row.doc)
        now = time.time()
        tournament.cancel(row.creator_id, now)
        assert await save(store, Loaded(tournament, row), now)
    finally:
        await store.close()


async def books(url: str, tournament_id: str, users: list[int]) -> tuple[int, list[int], list[Kind], Books]:
    """The pool, the entrants' balances, the event's movements' kinds and the books."""
    store = SqlStore(url)
    await store.start()
    try:
        pool = await store.ficha_balance(ledger.tournament_pot(tournament_id))
        balances = [await store.ficha_balance(ledger.account(user)) for user in users]
        moved = [m.kind for m in await store.ficha_movements_of(ledger.tournament_ref(tournament_id))]
        return pool, balances, sorted(moved), await store.ficha_books()
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_an_end_saved_and_never_settled_is_settled_once_by_the_next_director(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)
    with (
        LiveServer(fast_settings(url, fichas_enabled=True)) as server,
        player(server, "Organiza") as host,
        player(server, "Ana") as ana,
        player(server, "Bea") as bea,
    ):
        made = host.post("/api/tournaments", json={**TOURNAMENT, "entry_fichas": ENTRY})
        assert made.status_code == 201, made.text
        tid = made.json()["tournament"]["id"]
        for entrant in (ana, bea):
            assert entrant.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
        users = [user_id(ana), user_id(bea)]

    asyncio.run(cancel_without_settling(url, tid))
    pool, balances, moved, _ = asyncio.run(books(url, tid, users))
    assert (pool, balances, moved) == (2 * ENTRY, [1000 - ENTRY] * 2, [Kind.ENTRY, Kind.ENTRY])

    with LiveServer(fast_settings(url, fichas_enabled=True)):
        deadline = time.monotonic() + SETTLED_WITHIN
        while asyncio.run(books(url, tid, users))[0] and time.monotonic() < deadline:
            time.sleep(0.05)
    pool, balances, moved, ledger_books = asyncio.run(books(url, tid, users))
    assert (pool, balances) == (0, [1000, 1000])
    assert moved == sorted([Kind.ENTRY, Kind.ENTRY, Kind.REFUND, Kind.REFUND])
    assert ledger_books.balanced

    with LiveServer(fast_settings(url, fichas_enabled=True)) as server:  # once more: nothing moves again

        async def idle() -> None:
            director = server.state.director
            assert director is not None
            while director.stats.passes == 0:
                await asyncio.sleep(0.01)
            await director.until_idle()

        server.on_server(idle)
    assert asyncio.run(books(url, tid, users))[1:3] == ([1000, 1000], moved)
