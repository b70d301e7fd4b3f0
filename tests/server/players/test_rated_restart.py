"""A rated game across a SIGKILL (tests/server/cluster/test_restart.py's server process): two accounts
play a competitive duel, the server is killed between rounds and started again, the game
goes on to its end, and the store holds exactly one game's ratings and XP, also after another
restart once it is over. And a SIGKILL between a game's end and its recording (the first
process runs no recorder, players/recorder.py): the restarted server records it, once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import httpx
import pytest

from tests.server.cluster.test_restart import Human, ServerProcess
from tests.server.conftest import empty_database_url
from tests.server.support.harness import Message, Player, free_port
from tests.server.support.scenario_helpers import Client
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.players.rating_scale import shown
from tranque.server.store.schema import games
from tranque.server.store.sql import SqlStore


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


async def counted(url: str) -> tuple[list[tuple[float, float, int]], list[dict[str, int]], int]:
    """Ana's and Beto's ratings (μ, σ, games) and XP, and how many games are kept."""
    store = SqlStore(url)
    await store.start()
    try:
        users = [
            user.user_id for name in ("ana", "beto") if (user := await store.find_user(name)) is not None
        ]
        found = await store.ratings_of(users, "duel")
        xp = [await store.xp_of(user) for user in users]
        async with store.engine.connect() as connection:
            kept = len((await connection.execute(games.select())).all())
    finally:
        await store.close()
    return [(found[u].mu, found[u].sigma, found[u].games) for u in users if u in found], xp, kept


RECORDED_WITHIN = 60.0  # seconds the running server may take to record a game end


async def recorded(url: str) -> tuple[list[tuple[float, float, int]], list[dict[str, int]], int]:
    """`counted` once the running server's recorder has kept a game (within a deadline)."""
    deadline = time.monotonic() + RECORDED_WITHIN
    while (await counted(url))[2] == 0:
        assert time.monotonic() < deadline, "the game end was not recorded"
        await asyncio.sleep(0.05)
    return await counted(url)  # read again: the first reads may have run before its commit


async def scenario(server: ServerProcess, play: Callable[..., Awaitable[None]] | None = None) -> None:
    server.start()
    people = [account(server, "ana", "192.0.2.1"), account(server, "beto", "192.0.2.2")]
    players: list[Account] = []
    try:
        await (play or rated_game)(server, people, players)
    finally:  # a failed assertion leaves no socket open for a later test's garbage collection
        for player in players:
            await player.close()
        for http in people:
            http.close()


async def rated_game(server: ServerProcess, people: list[httpx.Client], players: list[Account]) -> None:
    # A game to 200 outlasts its first round whatever the deal: a double-six set holds 168 points,
    # so the kill always falls between rounds (a game to 100 ended in its first round with 106).
    body = {"preset": "clasico", "players": 2, "target": 200, "turn_seconds": 20, "competitive": True}
    table = people[0].post("/api/tables", json=body).json()["table"]
    seats = [await sit(server, http, f"192.0.2.{n + 1}", table) for n, http in enumerate(people)]
    players.extend(Account(server, table, token, seat) for seat, token in seats)
    for player in players:
        await player.connect()

    def round_ended(frame: Message) -> bool:
        return frame.get("kind") == "round_ended"

    ends = await asyncio.gather(*(player.play(round_ended) for player in players))
    assert max(ends[0]["data"]["scores"]) < 200  # the game goes on after this round
    last_seen = [player.client.last_seq for player in players]
    server.kill()
    for player in players:
        await player.client.close()

    server.start()
    for player, seen, end in zip(players, last_seen, ends, strict=True):
        await player.connect(last_seq=seen, handled_up_to=seen)
        await player.respond(end)  # «listo», which the kill cut off

    def game_ended(frame: Message) -> bool:
        return frame.get("kind") == "game_ended"

    ended = await asyncio.gather(*(player.play(game_ended) for player in players))
    assert ended[0]["data"] == ended[1]["data"]
    changes = ended[0]["data"]["rating_changes"]
    for player in players:
        await player.client.close()
    ratings, xp, kept = await recorded(server.database_url)
    server.stop()

    assert await counted(server.database_url) == (ratings, xp, kept)
    assert kept == 1
    assert [played for _, _, played in ratings] == [1, 1]
    assert sorted(totals["all"] for totals in xp) == [5, 20]
    assert [change["xp"] for change in changes] == [totals["all"] for totals in xp]

    server.start()  # once more, with the game over: nothing is counted again
    server.stop()
    assert await counted(server.database_url) == (ratings, xp, kept)


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_rated_game_across_a_sigkill_is_counted_once(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    try:
        asyncio.run(scenario(server))
    finally:
        server.stop()


async def killed_before_its_recording(
    server: ServerProcess, people: list[httpx.Client], players: list[Account]
) -> None:
    server.stop()
    server.start("--no-recorder")  # the game's end is stored and sent, and never recorded here
    body = {"preset": "clasico", "players": 2, "target": 100, "turn_seconds": 20, "competitive": True}
    table = people[0].post("/api/tables", json=body).json()["table"]
    seats = [await sit(server, http, f"192.0.2.{n + 1}", table) for n, http in enumerate(people)]
    players.extend(Account(server, table, token, seat) for seat, token in seats)
    for player in players:
        await player.connect()

    def game_ended(frame: Message) -> bool:
        return frame.get("kind") == "game_ended"

    ended = await asyncio.gather(*(player.play(game_ended) for player in players))
    assert ended[0]["data"] == ended[1]["data"] and ended[0]["data"]["reason"] == "target"
    changes = ended[0]["data"]["rating_changes"]
    assert await counted(server.database_url) == ([], [{}, {}], 0)  # the end only, nothing recorded
    server.kill()
    for player in players:
        await player.client.close()

    server.start()  # its recorder catches up at once
    ratings, xp, kept = await recorded(server.database_url)
    assert kept == 1
    assert [played for _, _, played in ratings] == [1, 1]
    assert sorted(totals["all"] for totals in xp) == [5, 20]
    assert [change["xp"] for change in changes] == [totals["all"] for totals in xp]
    rating_after = [round(shown(mu, sigma)) for mu, sigma, _ in ratings]
    assert [change["after"] for change in changes] == rating_after  # as the game's end showed them

    server.stop()
    server.start()  # once more: nothing is recorded again
    server.stop()
    assert await counted(server.database_url) == (ratings, xp, kept)


@pytest.mark.processes  # a server process to kill and start again (tests/conftest.py)
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_sigkill_between_a_games_end_and_its_recording_loses_nothing(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    try:
        asyncio.run(scenario(server, killed_before_its_recording))
    finally:
        server.stop()
