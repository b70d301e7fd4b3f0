"""A staked game across a SIGKILL (tests/server/players/test_rated_restart.py's server process),
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
from tests.server.conftest import empty_database_url
from tests.server.players.test_rated_restart import Account, scenario, sit
from tests.server.support.harness import Message, free_port
from tranque.server.fichas.ledger import Books, Kind, account, game_ref
from tranque.server.fichas.service import Fichas
from tranque.server.settings import Settings
from tranque.server.store.sql import SqlStore

STAKE = 50
PAID_WITHIN = 60.0  # seconds the restarted server may take to record the game's end


async def ledger(url: str, table: str) -> tuple[list[tuple[str, int | None, int]], list[int], Books]:
    """The game's movements (kind, account, amount), Ana's and Beto's balances, the books."""
    store = SqlStore(url)
    await store.start()
    try:
        users = [user.user_id for name in ("ana", "beto") if (user := await store.find_user(name))]
        moved = [
            (m.kind.value, m.user_id, m.amount) for m in await store.ficha_movements_of(game_ref(table, 1))
        ]
        balances = [await store.ficha_balance(account(user)) for user in users]
        return moved, balances, await store.ficha_books()
    finally:
        await store.close()


async def stake(url: str, table: str, seats: list[tuple[int, str]]) -> None:
    """Both seats' stakes into the game's pot, as the sit at a staked table moves them."""
    store = SqlStore(url)
    await store.start()
    try:
        fichas = Fichas(store, Settings(database_url=None))
        for name, (seat, _) in zip(("ana", "beto"), seats, strict=True):
            user = await store.find_user(name)
            assert user is not None
            await fichas.stake(user.user_id, table, 1, seat, STAKE)
    finally:
        await store.close()


Play = Callable[[ServerProcess, list[httpx.Client], list[Account]], Awaitable[None]]


def killed_before_its_payout(tables: list[str]) -> Play:
    async def play(server: ServerProcess, people: list[httpx.Client], players: list[Account]) -> None:
        server.stop()
        server.start("--no-recorder")  # the game's end is stored and sent, and never paid out here
        body = {"preset": "clasico", "players": 2, "target": 100, "turn_seconds": 20, "competitive": True}
        table = people[0].post("/api/tables", json=body).json()["table"]
        tables.append(table)
        seats = [await sit(server, http, f"192.0.2.{n + 1}", table) for n, http in enumerate(people)]
        assert [seat for seat, _ in seats] == [0, 1]  # Ana at seat 0, Beto at seat 1
        await stake(server.database_url, table, seats)
        players.extend(Account(server, table, token, seat) for seat, token in seats)
        for player in players:
            await player.connect()

        def game_ended(frame: Message) -> bool:
            return frame.get("kind") == "game_ended"

        ended = await asyncio.gather(*(player.play(game_ended) for player in players))
        data = ended[0]["data"]
        assert data == ended[1]["data"] and data["reason"] == "target"
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
        names = await users_of(server.database_url)
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


async def users_of(url: str) -> list[int]:
    store = SqlStore(url)
    await store.start()
    try:
        return [user.user_id for name in ("ana", "beto") if (user := await store.find_user(name))]
    finally:
        await store.close()


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_sigkill_between_a_staked_games_last_move_and_its_payout_pays_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    tables: list[str] = []
    try:
        asyncio.run(scenario(server, killed_before_its_payout(tables)))
    finally:
        server.stop()
    assert len(tables) == 1
