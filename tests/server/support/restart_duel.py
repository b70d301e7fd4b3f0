"""A competitive duel between two accounts on a server in a process of its own
(tests/server/cluster/test_restart.py's `ServerProcess`), for the tests that SIGKILL it around
a game's end: each person plays from their own address, as a rated game needs; the store is
read from outside the server, in its own connection.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from tests.server.cluster.test_restart import Human, ServerProcess
from tests.server.conftest import empty_database_url
from tests.server.support.harness import Message, Player, free_port
from tests.server.support.scenario_helpers import Client
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.store.sql import SqlStore

NAMES = ("ana", "beto")  # seat 0 and seat 1, from 192.0.2.1 and 192.0.2.2


class Account(Human):
    """One seat's person (`Human` plays seat 0 only; this any seat), playing from its own
    address (a seat played from another seat's address is not rated)."""

    def __init__(self, server: ServerProcess, table: str, token: str, seat: int) -> None:
        super().__init__(server, table, token)
        self.seat = seat

    async def connect(self, last_seq: int | None = None, handled_up_to: int = 0) -> Message:
        client = Client(cast(Any, self.server), headers={"X-Forwarded-For": f"192.0.2.{self.seat + 1}"})
        await client.connect()
        self.clients.append(client)
        answer = await client.hello(self.table, self.token, last_seq)
        assert answer["type"] == "ack" and answer["seat"] == self.seat, answer
        self.index = 0
        while self.client.frames[self.index].get("seq", handled_up_to + 1) <= handled_up_to:
            self.index += 1
        return answer

    async def respond(self, frame: Message) -> None:
        if frame["type"] == "sync" and frame["turn"] is not None and frame["turn"]["seat"] == self.seat:
            options = {"turn_id": frame["turn"]["turn_id"], "legal_actions": frame["view"]["legal_actions"]}
            frame = {"type": "options", **options}
        if frame["type"] == "sync":
            return
        await super().respond(frame)


def account(server: ServerProcess, name: str, address: str) -> httpx.Client:
    http = httpx.Client(base_url=server.http, timeout=20, headers={"X-Forwarded-For": address})
    response = http.post("/api/register", json={"name": name, "password": "una clave muy larga"})
    assert response.status_code == 201, response.text
    return http


async def sit(server: ServerProcess, http: httpx.Client, address: str, table: str) -> tuple[int, str]:
    headers = {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}", "X-Forwarded-For": address}
    async with Player(cast(Any, server), headers=headers) as player:
        seated = await player.request({"type": "sit", "table": table})
    assert seated["type"] == "ack", seated
    return seated["seat"], seated["token"]


Play = Callable[[ServerProcess, list[httpx.Client], list[Account]], Awaitable[None]]


async def scenario(server: ServerProcess, play: Play) -> None:
    """Start the server, register Ana and Beto, and `play`; every socket closed afterwards."""
    server.start()
    people = [account(server, name, f"192.0.2.{n + 1}") for n, name in enumerate(NAMES)]
    players: list[Account] = []
    try:
        await play(server, people, players)
    finally:  # a failed assertion leaves no socket open for a later test's garbage collection
        for player in players:
            await player.close()
        for http in people:
            http.close()


def run_on(backend: str, request: pytest.FixtureRequest, tmp_path: Path, play: Play) -> None:
    """`scenario` on a server process over an empty database of `backend`, stopped at the end."""
    url = empty_database_url(backend, request, tmp_path)
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    try:
        asyncio.run(scenario(server, play))
    finally:
        server.stop()


def ended(frame: Message) -> bool:
    return frame.get("kind") == "game_ended"


async def duel_unrecorded(
    server: ServerProcess,
    people: list[httpx.Client],
    players: list[Account],
    seated: Callable[[str, list[tuple[int, str]]], Awaitable[None]] | None = None,
) -> tuple[str, dict[str, Any]]:
    """Restart the server with no recorder and play a competitive duel to 100 to its end, which
    is stored and sent but never recorded there: the table and the `game_ended` data (both
    players were sent the same). `seated(table, seats)` runs once both have sat."""
    server.stop()
    server.start("--no-recorder")
    body = {"preset": "clasico", "players": 2, "target": 100, "turn_seconds": 20, "competitive": True}
    table = people[0].post("/api/tables", json=body).json()["table"]
    seats = [await sit(server, http, f"192.0.2.{n + 1}", table) for n, http in enumerate(people)]
    assert [seat for seat, _ in seats] == [0, 1]  # Ana at seat 0, Beto at seat 1
    if seated is not None:
        await seated(table, seats)
    players.extend(Account(server, table, token, seat) for seat, token in seats)
    for player in players:
        await player.connect()
    frames = await asyncio.gather(*(player.play(ended) for player in players))
    data: dict[str, Any] = frames[0]["data"]
    assert data == frames[1]["data"] and data["reason"] == "target"
    return table, data


@asynccontextmanager
async def opened(url: str) -> AsyncIterator[SqlStore]:
    """The server's database, opened beside it and closed afterwards."""
    store = SqlStore(url)
    await store.start()
    try:
        yield store
    finally:
        await store.close()


async def user_ids(store: SqlStore) -> list[int]:
    """Ana's and Beto's account ids, those that exist."""
    return [user.user_id for name in NAMES if (user := await store.find_user(name)) is not None]
