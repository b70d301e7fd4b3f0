"""Friends and blocks (docs/protocol.md, «Friends and blocks»; the store's part is in
tests/server/store/test_social.py): the HTTP endpoints through the real app, the notices on
real sockets, phrases hidden from whoever blocks their speaker, quick match keeping blocked
players apart, and presence never revealing a private table."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import client, database_url, live, register, server
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.lobby.presence import GRACE_SECONDS

__all__ = ["database_url", "server"]  # the fixtures, from http_helpers

QUICK_WAIT = 10.0


@pytest.fixture
def memory_server() -> Iterator[LiveServer]:
    with live(quick_match_wait_seconds=QUICK_WAIT) as running:
        yield running


@pytest.fixture
def people(memory_server: LiveServer) -> Iterator[list[httpx.Client]]:
    """ana, beto and carla, logged in on the memory server."""
    with accounts(memory_server, "ana", "beto", "carla") as https:
        yield https


@contextlib.contextmanager
def accounts(server: LiveServer, *names: str) -> Iterator[list[httpx.Client]]:
    """A logged-in HTTP client for each of `names`, newly registered."""
    with contextlib.ExitStack() as stack:
        https = [stack.enter_context(client(server)) for _ in names]
        for http, name in zip(https, names, strict=True):
            assert register(http, name).status_code == 201
        yield https


def cookie(http: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}


def lists(http: httpx.Client) -> dict[str, Any]:
    answer = http.get("/api/friends")
    assert answer.status_code == 200
    body: dict[str, Any] = answer.json()
    return body


def names(rows: list[dict[str, Any]]) -> list[str]:
    return [row["name"] for row in rows]


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text
    assert answer.json()["message"] and answer.json()["message_en"]


def befriend(one: httpx.Client, other: httpx.Client, other_name: str, one_name: str) -> None:
    assert one.post("/api/friends", json={"name": other_name}).status_code == 200
    assert other.post(f"/api/friends/{one_name}/accept", json={}).status_code == 200


def notices(player: Player, kind: str) -> list[dict[str, Any]]:
    return [f for f in player.frames if f.get("type") == "notice" and f["kind"] == kind]


async def expect_notice(player: Player, kind: str) -> dict[str, Any]:
    return await player.expect(lambda m: m.get("type") == "notice" and m.get("kind") == kind)


# HTTP, on every backend ------------------------------------------------------------------


def test_request_accept_decline_cancel_remove(server: LiveServer) -> None:
    with accounts(server, "ana", "beto", "carla") as (ana, beto, carla):
        assert lists(ana) == {"friends": [], "incoming": [], "outgoing": [], "blocked": []}
        asked = ana.post("/api/friends", json={"name": "Beto"})  # names in any case
        assert names(asked.json()["outgoing"]) == ["beto"]
        assert names(lists(beto)["incoming"]) == ["ana"]
        refused(ana.post("/api/friends", json={"name": "beto"}), 409, "already_friends")
        refused(ana.post("/api/friends/beto/accept", json={}), 404, "no_friend_request")
        accepted = beto.post("/api/friends/ana/accept", json={})
        friend = accepted.json()["friends"][0]
        assert (friend["name"], friend["online"], friend["table"]) == ("ana", False, None)
        assert accepted.json()["incoming"] == []
        assert names(lists(ana)["friends"]) == ["beto"]
        refused(ana.post("/api/friends", json={"name": "beto"}), 409, "already_friends")
        # A request to someone who already asked you accepts theirs.
        carla.post("/api/friends", json={"name": "ana"})
        both = ana.post("/api/friends", json={"name": "carla"}).json()
        assert (names(both["friends"]), both["incoming"]) == (["beto", "carla"], [])
        assert names(lists(carla)["friends"]) == ["ana"]
        # Remove, decline and cancel are one DELETE.
        assert names(ana.request("DELETE", "/api/friends/carla", json={}).json()["friends"]) == ["beto"]
        assert lists(carla)["friends"] == []
        carla.post("/api/friends", json={"name": "beto"})
        assert beto.request("DELETE", "/api/friends/carla", json={}).json()["incoming"] == []  # declined
        assert lists(carla)["outgoing"] == []
        carla.post("/api/friends", json={"name": "beto"})
        assert carla.request("DELETE", "/api/friends/beto", json={}).json()["outgoing"] == []  # cancelled
        assert lists(beto)["incoming"] == []
        refused(carla.request("DELETE", "/api/friends/beto", json={}), 404, "not_friends")


def test_bad_requests_are_refused_with_a_code_and_change_nothing(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as (ana, beto):
        refused(ana.post("/api/friends", json={"name": "ana"}), 422, "friend_self")
        refused(ana.post("/api/friends", json={"name": "nadie"}), 404, "no_such_player")
        refused(ana.post("/api/friends", json={}), 422, "bad_request")
        refused(ana.post("/api/friends", json={"name": 7}), 422, "bad_request")
        refused(ana.post("/api/blocks", json={"name": "ana"}), 422, "block_self")
        refused(ana.request("DELETE", "/api/blocks/beto", json={}), 404, "not_blocked")
        refused(ana.post("/api/friends", content="name=beto"), 415, "json_required")
        other_site = {"Origin": "https://otro.example"}
        refused(ana.post("/api/friends", json={"name": "beto"}, headers=other_site), 403, "cross_origin")
        refused(ana.request("DELETE", "/api/friends/beto", json={}, headers=other_site), 403, "cross_origin")
        with client(server) as guest:
            refused(guest.get("/api/friends"), 401, "login_required")
            refused(guest.post("/api/friends", json={"name": "ana"}), 401, "login_required")
        assert lists(ana) == {"friends": [], "incoming": [], "outgoing": [], "blocked": []}
        assert lists(beto) == lists(ana)


def test_block_ends_the_friendship_and_stops_requests_both_ways(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as (ana, beto):
        befriend(ana, beto, "beto", "ana")
        blocked = beto.post("/api/blocks", json={"name": "ana"}).json()
        assert (blocked["friends"], blocked["blocked"]) == ([], [{"name": "ana"}])
        assert lists(ana)["friends"] == []
        refused(ana.post("/api/friends", json={"name": "beto"}), 409, "friend_blocked")
        refused(beto.post("/api/friends", json={"name": "ana"}), 409, "friend_blocked")
        assert lists(ana)["outgoing"] == [] and lists(beto)["incoming"] == []
        assert beto.request("DELETE", "/api/blocks/ana", json={}).json()["blocked"] == []
        assert names(ana.post("/api/friends", json={"name": "beto"}).json()["outgoing"]) == ["beto"]
        # A block also ends a pending request.
        beto.post("/api/blocks", json={"name": "ana"})
        assert lists(ana)["outgoing"] == [] and lists(beto)["incoming"] == []


# Notices on real sockets ---------------------------------------------------------------------


def test_requests_acceptances_and_invites_reach_every_socket_of_the_account(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, carla = people
    public = ana.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]
    private = ana.post("/api/tables", json={"preset": "clasico", "players": 2, "private": True}).json()

    async def scenario() -> None:
        async with (
            Player(memory_server, headers=cookie(ana)) as ana_socket,
            Player(memory_server, headers=cookie(beto)) as beto_phone,
            Player(memory_server, headers=cookie(beto)) as beto_laptop,
            Player(memory_server, headers=cookie(carla)) as carla_socket,
        ):
            for socket in (ana_socket, beto_phone, beto_laptop, carla_socket):
                await socket.request({"type": "ping"})  # answered once the socket is online
            await asyncio.to_thread(ana.post, "/api/friends", json={"name": "beto"})
            for socket in (beto_phone, beto_laptop):
                assert await expect_notice(socket, "friend_request") == {
                    "type": "notice",
                    "kind": "friend_request",
                    "from": "ana",
                }
            await asyncio.to_thread(beto.post, "/api/friends/ana/accept", json={})
            assert (await expect_notice(ana_socket, "friend_accepted"))["from"] == "beto"

            # Only to a table you sit at.
            answer = await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json={"table_id": public})
            refused(answer, 409, "invite_not_seated")
            assert (await ana_socket.request({"type": "sit", "table": public}))["type"] == "ack"
            assert (await ana_socket.request({"type": "sit", "invite": private["invite"]}))["type"] == "ack"
            answer = await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json={"table_id": public})
            assert answer.json() == {"sent": 2}
            for socket in (beto_phone, beto_laptop):
                invite = await expect_notice(socket, "invite")
                assert invite == {
                    "type": "notice",
                    "kind": "invite",
                    "from": "ana",
                    "table_id": public,
                    "path": f"/#/mesa/{public}",
                }
            await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json={"table_id": private["table"]})
            invite = await expect_notice(beto_phone, "invite")
            assert invite["path"] == private["invite_url"]
            # Only a friend.
            answer = await asyncio.to_thread(ana.post, "/api/friends/carla/invite", json={"table_id": public})
            refused(answer, 404, "not_friends")
            answer = await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json={"table_id": "nada"})
            refused(answer, 409, "invite_not_seated")
            await carla_socket.request({"type": "ping"})
            assert [f for f in carla_socket.frames if f.get("type") == "notice"] == []

    asyncio.run(scenario())


def test_invites_only_to_tables_a_friend_may_join(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, carla = people
    befriend(ana, beto, "beto", "ana")
    practice = ana.post("/api/practice", json={"preset": "clasico", "bot_level": "random"}).json()["table"]

    async def scenario() -> None:
        async with (
            Player(memory_server, headers=cookie(ana)) as ana_socket,
            Player(memory_server, headers=cookie(carla)) as carla_socket,
        ):
            answer = await asyncio.to_thread(
                ana.post, "/api/friends/beto/invite", json={"table_id": practice}
            )
            refused(answer, 409, "invite_closed")
            await ana_socket.request({"type": "quick_match"})
            await carla_socket.request({"type": "quick_match"})
            await asyncio.to_thread(memory_server.advance, QUICK_WAIT + 1)
            quick = await ana_socket.expect(lambda m: m["type"] == "matched")
            answer = await asyncio.to_thread(
                ana.post, "/api/friends/beto/invite", json={"table_id": quick["table"]}
            )
            refused(answer, 409, "invite_closed")
            # A quick-match table is shown to friends (a practice one never).
            seen = (await asyncio.to_thread(lists, beto))["friends"][0]
            assert seen["table"] == {"table_id": quick["table"], "phase": "playing", "kind": "quick"}

    asyncio.run(scenario())


def test_friend_online_and_offline_and_a_reload_does_not_flap(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, _ = people
    befriend(ana, beto, "beto", "ana")

    async def scenario() -> None:
        async with Player(memory_server, headers=cookie(beto)) as beto_socket:
            # Answered only once beto's socket is online: ana's arrival cannot come before.
            await beto_socket.request({"type": "ping"})
            async with Player(memory_server, headers=cookie(ana)) as first:
                assert (await expect_notice(beto_socket, "friend_online"))["from"] == "ana"
                await first.request({"type": "ping"})
            # A reload: the socket closes and another opens within the grace.
            async with Player(memory_server, headers=cookie(ana)) as second:
                await second.request({"type": "ping"})
                await asyncio.to_thread(memory_server.advance, GRACE_SECONDS + 1)
                assert lists(beto)["friends"][0]["online"] is True
            await asyncio.to_thread(memory_server.advance, GRACE_SECONDS + 1)
            assert (await expect_notice(beto_socket, "friend_offline"))["from"] == "ana"
            assert [len(notices(beto_socket, kind)) for kind in ("friend_online", "friend_offline")] == [1, 1]
            assert lists(beto)["friends"][0]["online"] is False

    asyncio.run(scenario())


# Blocks at the table and in quick match -------------------------------------------------------


def test_a_blocked_players_phrases_never_reach_the_blocker(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, carla = people
    beto.post("/api/blocks", json={"name": "ana"})
    table = ana.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]

    async def scenario() -> None:
        sockets = [Player(memory_server, headers=cookie(http)) for http in (ana, beto, carla)]
        for socket in sockets:
            await socket.connect()
        ana_socket, beto_socket, carla_socket = sockets
        for socket in sockets:
            seated = await socket.request({"type": "sit", "table": table})
            await socket.request({"type": "hello", "table": table, "token": seated["token"]})
        await ana_socket.request({"type": "phrase", "phrase": "buena"})
        await carla_socket.request({"type": "phrase", "phrase": "gracias"})
        heard = {}
        for name, socket in zip(("ana", "beto", "carla"), sockets, strict=True):
            await socket.request({"type": "ping"})  # after both phrases, on every socket
            said = [f for f in socket.frames if f.get("kind") == "phrase"]
            heard[name] = [(f["data"]["seat"], f["data"]["phrase"]) for f in said]
        assert heard["ana"] == heard["carla"] == [(0, "buena"), (2, "gracias")]
        assert heard["beto"] == [(0, None), (2, "gracias")]  # the event, numbered, without the phrase
        assert "buena" not in str(beto_socket.frames)
        # Catching up from the start hides it too.
        late = Player(memory_server, headers=cookie(beto))
        await late.connect()
        await late.request({"type": "hello", "table": table, "last_seq": 0})
        replayed = [f for f in late.frames if f.get("kind") == "phrase"]
        assert [f["data"]["phrase"] for f in replayed] == [None, "gracias"]
        # A block or an unblock reaches the sockets already open.
        await asyncio.to_thread(carla.post, "/api/blocks", json={"name": "ana"})
        await asyncio.to_thread(beto.request, "DELETE", "/api/blocks/ana", json={})
        await asyncio.to_thread(memory_server.advance, 3)  # one phrase every 2 s per seat
        await ana_socket.request({"type": "phrase", "phrase": "suerte"})
        for socket in (*sockets, late):
            await socket.request({"type": "ping"})
        last = [[f["data"]["phrase"] for f in s.frames if f.get("kind") == "phrase"][-1] for s in sockets]
        assert last == ["suerte", "suerte", None]
        assert [f["data"]["phrase"] for f in late.frames if f.get("kind") == "phrase"][-1] == "suerte"
        for socket in (*sockets, late):
            await socket.close()

    asyncio.run(scenario())


def test_quick_match_never_seats_blocked_players_together(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, carla = people
    ana.post("/api/blocks", json={"name": "beto"})

    async def scenario() -> None:
        async with (
            Player(memory_server, headers=cookie(ana)) as ana_socket,
            Player(memory_server, headers=cookie(beto)) as beto_socket,
            Player(memory_server, headers=cookie(carla)) as carla_socket,
        ):
            await ana_socket.request({"type": "quick_match"})
            await beto_socket.request({"type": "quick_match"})
            await asyncio.to_thread(memory_server.advance, QUICK_WAIT + 1)
            await ana_socket.request({"type": "ping"})
            await beto_socket.request({"type": "ping"})
            assert [f for f in (*ana_socket.frames, *beto_socket.frames) if f["type"] == "matched"] == []
            # A third player who blocks nobody is seated with the first who waited.
            await carla_socket.request({"type": "quick_match"})
            await carla_socket.request({"type": "ping"})
            await ana_socket.request({"type": "ping"})
            carla_matched = next(f for f in carla_socket.frames if f["type"] == "matched")
            ana_matched = next(f for f in ana_socket.frames if f["type"] == "matched")
            assert carla_matched["table"] == ana_matched["table"]
            still = await beto_socket.request({"type": "cancel_quick_match"})
            assert still["cancelled"] is True  # beto was still waiting, matched with nobody

    asyncio.run(scenario())


def test_blocked_players_who_take_bots_get_a_table_each(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, _ = people
    beto.post("/api/blocks", json={"name": "ana"})

    async def scenario() -> None:
        async with (
            Player(memory_server, headers=cookie(ana)) as ana_socket,
            Player(memory_server, headers=cookie(beto)) as beto_socket,
        ):
            await ana_socket.request({"type": "quick_match", "with_bots": True})
            await beto_socket.request({"type": "quick_match", "with_bots": True})
            await asyncio.to_thread(memory_server.advance, QUICK_WAIT + 1)
            first = await ana_socket.expect(lambda m: m["type"] == "matched")
            second = await beto_socket.expect(lambda m: m["type"] == "matched")
            assert first["table"] != second["table"]
            for matched in (first, second):
                seats = memory_server.state.registry.tables[matched["table"]].seats
                assert [seat.kind.value for seat in seats] == ["human", "bot"]

    asyncio.run(scenario())


# Presence and tables ------------------------------------------------------------------------------


def test_presence_shows_public_tables_and_hides_private_ones(
    memory_server: LiveServer, people: list[httpx.Client]
) -> None:
    ana, beto, _ = people
    befriend(ana, beto, "beto", "ana")
    private = ana.post("/api/tables", json={"preset": "clasico", "players": 4, "private": True}).json()
    public = ana.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]

    async def scenario() -> None:
        async with (
            Player(memory_server, headers=cookie(ana)) as ana_socket,
            Player(memory_server, headers=cookie(beto)) as beto_socket,
        ):
            await ana_socket.request({"type": "sit", "invite": private["invite"]})
            seen = (await asyncio.to_thread(lists, beto))["friends"][0]
            assert (seen["name"], seen["online"], seen["table"]) == ("ana", True, None)
            await asyncio.to_thread(
                ana.post, "/api/practice", json={"preset": "clasico", "bot_level": "random"}
            )
            seen = (await asyncio.to_thread(lists, beto))["friends"][0]
            assert seen["table"] is None  # a practice game is not shown either
            await ana_socket.request({"type": "sit", "table": public})
            seen = (await asyncio.to_thread(lists, beto))["friends"][0]
            assert seen["table"] == {"table_id": public, "phase": "waiting", "kind": "public"}
            await beto_socket.request({"type": "sit", "invite": private["invite"]})  # beto sits there too
            seen = (await asyncio.to_thread(lists, beto))["friends"][0]
            assert seen["table"] == {"table_id": private["table"], "phase": "waiting", "kind": "private"}

    asyncio.run(scenario())
