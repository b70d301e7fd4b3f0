"""A staked game across a SIGKILL (tests/server/support/restart_duel.py's server process),
on SQLite and PostgreSQL: two accounts (each granted its fichas when registering) play a
staked competitive duel on a server that records no game end (`--no-recorder`), so the
server is killed between the game's last move and its payout; the restarted server's recorder
pays the pot out exactly once, and the books balance, also after another restart."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import pytest

from tests.server.cluster.test_restart import ServerProcess
from tests.server.support.restart_duel import Account, Play, duel_unrecorded, opened, run_on, user_ids
from tranque.server.fichas.ledger import Books, Kind, account, game_ref
from tranque.server.fichas.service import Fichas
from tranque.server.settings import Settings

STAKE = 50
PAID_WITHIN = 60.0  # seconds the restarted server may take to record the game's end


async def ledger(url: str, table: str) -> tuple[list[tuple[str, int | None, int]], list[int], Books]:
    """The game's movements (kind, account, amount), Ana's and Beto's balances, the books."""
    async with opened(url) as store:
        users = await user_ids(store)
        moved = [
            (m.kind.value, m.user_id, m.amount) for m in await store.ficha_movements_of(game_ref(table, 1))
        ]
        balances = [await store.ficha_balance(account(user)) for user in users]
        return moved, balances, await store.ficha_books()


def stake(url: str) -> Callable[[str, list[tuple[int, str]]], Awaitable[None]]:
    """Both seats' stakes into the game's pot, as the sit at a staked table moves them."""

    async def put(table: str, seats: list[tuple[int, str]]) -> None:
        async with opened(url) as store:
            fichas = Fichas(store, Settings(database_url=None))
            for user, (seat, _) in zip(await user_ids(store), seats, strict=True):
                await fichas.stake(user, table, 1, seat, STAKE)

    return put


def killed_before_its_payout(tables: list[str]) -> Play:
    async def play(server: ServerProcess, people: list[httpx.Client], players: list[Account]) -> None:
        # (The server stores and sends the game's end, and never pays it out there.)
        table, data = await duel_unrecorded(server, people, players, stake(server.database_url))
        tables.append(table)
        winner = data["winners"][0]
        shown = {(change["seat"], change["amount"], change["kind"]) for change in data["ficha_changes"]}
        assert shown == {(winner, 60, "payout"), (1 - winner, -50, "stake"), (None, 40, "cut")}
        moved, balances, books = await ledger(server.database_url, table)
        assert [kind for kind, _, _ in moved] == ["stake", "stake"]  # the last move, and no payout
        assert balances == [950, 950] and books == Books(2000, 1900, 100, 0)
        server.kill()
        for player in players:
            await player.client.close()

        server.start()  # its recorder catches up at once
        deadline = time.monotonic() + PAID_WITHIN
        while len((await ledger(server.database_url, table))[0]) == 2:
            assert time.monotonic() < deadline, "the pot was not paid out"
            await asyncio.sleep(0.05)
        moved, balances, books = await ledger(server.database_url, table)
        async with opened(server.database_url) as store:
            names = await user_ids(store)
        assert sorted(moved[2:], key=str) == sorted(
            [(Kind.PAYOUT.value, names[winner], 60), (Kind.CUT.value, None, 40)], key=str
        )
        assert balances[winner] == 1010 and balances[1 - winner] == 950
        assert books == Books(2000, 1960, 0, 40) and books.balanced

        server.stop()
        server.start()  # once more: nothing is paid again
        server.stop()
        assert await ledger(server.database_url, table) == (moved, balances, books)

    return play


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_sigkill_between_a_staked_games_last_move_and_its_payout_pays_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    tables: list[str] = []
    run_on(backend, request, tmp_path, killed_before_its_payout(tables))
    assert len(tables) == 1
