"""Mirones at a private table (docs/protocol.md, «Mirones»; talk/watching.py): the host's
policy decides who may follow the table as a spectator, each refusal says why, and the
watching link lets its holder in."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.server.support.harness import LiveServer, Message, Player
from tests.server.support.http_helpers import client, live
from tests.server.talk.test_table_talk import accounts, befriend, cookie, private_table, refused


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live() as running:
        yield running


async def watch(
    server: LiveServer, table: str, http: httpx.Client | None, token: str | None = None
) -> Message:
    """A spectator's `hello` (an account's, or a guest's with `http` None) and its answer."""
    socket = Player(server, headers={} if http is None else cookie(http))
    await socket.connect()
    hello: dict[str, object] = {"type": "hello", "table": table}
    if token is not None:
        hello["watch"] = token
    answer = await socket.request(hello)
    if answer["type"] == "ack":
        sync = next(f for f in socket.frames if f.get("type") == "sync")
        assert sync["you"] is None and sync["chat"] == []
    await socket.close()
    return answer


def test_a_private_table_takes_no_spectator_by_default(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as (ana, beto):
        befriend(ana, beto, "beto", "ana")

        async def scenario() -> None:
            table = (await private_table(ana))["table"]
            refused(await watch(server, table, beto), "no_spectators")
            refused(await watch(server, table, None), "no_spectators")

        asyncio.run(scenario())


def test_friends_of_the_host_may_watch_and_nobody_else(server: LiveServer) -> None:
    with accounts(server, "ana", "beto", "carla") as (ana, beto, carla):
        befriend(ana, beto, "beto", "ana")

        async def scenario() -> None:
            table = (await private_table(ana, spectators="friends"))["table"]
            assert (await watch(server, table, beto))["type"] == "ack"
            stranger = await watch(server, table, carla)
            refused(stranger, "no_spectators")
            assert "amigos del anfitrión" in stranger["message"] and "friends" in stranger["message_en"]
            refused(await watch(server, table, None), "no_spectators")

        asyncio.run(scenario())


def test_the_watching_link_lets_its_holder_in(server: LiveServer) -> None:
    with accounts(server, "ana") as (ana,):

        async def scenario() -> None:
            created = await private_table(ana, spectators="link")
            token = created["watch_url"].rpartition("?ver=")[2]
            assert created["watch_url"] == f"/#/mesa/{created['table']}?ver={token}"
            assert (await watch(server, created["table"], None, token))["type"] == "ack"  # a guest too
            refused(await watch(server, created["table"], None, token + "x"), "no_spectators")
            refused(await watch(server, created["table"], None), "no_spectators")
            # The host's panel shows the link.
            host = Player(server, headers=cookie(ana))
            await host.connect()
            sat = await host.request({"type": "sit", "invite": created["invite"]})
            await host.request({"type": "hello", "table": created["table"], "token": sat["token"]})
            sync = next(f for f in host.frames if f.get("type") == "sync")
            assert sync["host"]["spectators"] == "link" and sync["host"]["watch_url"] == created["watch_url"]
            await host.close()

        asyncio.run(scenario())


def test_the_pena_policy_admits_the_penas_members_and_nobody_else(server: LiveServer) -> None:
    with accounts(server, "ana", "beto", "caro") as (ana, beto, caro):
        body = {"name": "Los del Martes", "crest": "gallo", "description": "", "access": "invite"}
        slug = ana.post("/api/penas", json=body).json()["slug"]
        token = ana.post(f"/api/penas/{slug}/invitations", json={}).json()["token"]
        assert beto.post(f"/api/penas/{slug}/join", json={"invitation": token}).status_code == 200
        pena_id = ana.get(f"/api/penas/{slug}").json()["id"]

        async def scenario() -> None:
            loose = (await private_table(ana, spectators="pena"))["table"]
            refused(await watch(server, loose, beto), "no_spectators")  # a table of no peña
            table = (await private_table(ana, spectators="pena", pena_id=pena_id))["table"]
            assert (await watch(server, table, beto))["type"] == "ack"  # a member
            refused(await watch(server, table, caro), "no_spectators")  # not a member
            refused(await watch(server, table, None), "no_spectators")  # a guest is nobody's member

        asyncio.run(scenario())


def test_a_bad_policy_is_refused_and_makes_no_table(server: LiveServer) -> None:
    with accounts(server, "ana") as (ana,):
        answer = ana.post("/api/tables", json={"preset": "clasico", "private": True, "spectators": "todos"})
        assert (answer.status_code, answer.json()["code"]) == (422, "bad_spectators")
        assert answer.json()["message"] and answer.json()["message_en"]
        assert ana.get("/api/me/seats").json() == []


def test_public_tables_keep_taking_any_spectator(server: LiveServer) -> None:
    with accounts(server, "ana") as (ana,):
        table = ana.post("/api/tables", json={"preset": "clasico"}).json()["table"]
        with client(server):

            async def scenario() -> None:
                assert (await watch(server, table, None))["type"] == "ack"

            asyncio.run(scenario())
