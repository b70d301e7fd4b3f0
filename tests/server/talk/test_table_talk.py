"""Table talk over real sockets (docs/protocol.md, «Table talk»; server/talk/): a line reaches
every seat and no spectator, there is no private line between partners, a competitive table
is quiet during a hand, the limits and the word filter, mutes, the chat setting, and the report
of a line landing in the moderators' queue."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Message, Player
from tests.server.support.http_helpers import client, live, register
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.talk.lines import CHAT_MAX, MASK


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live() as running:
        yield running


@contextlib.contextmanager
def accounts(server: LiveServer, *names: str) -> Iterator[list[httpx.Client]]:
    with contextlib.ExitStack() as stack:
        https = [stack.enter_context(client(server)) for _ in names]
        for http, name in zip(https, names, strict=True):
            assert register(http, name).status_code == 201
        yield https


def cookie(http: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}


def befriend(one: httpx.Client, other: httpx.Client, other_name: str, one_name: str) -> None:
    assert one.post("/api/friends", json={"name": other_name}).status_code == 200
    assert other.post(f"/api/friends/{one_name}/accept", json={}).status_code == 200


async def seated(server: LiveServer, https: list[httpx.Client], table: str) -> list[Player]:
    """A socket for each account, seated at `table` and following it as its seat."""
    sockets = []
    for http in https:
        socket = Player(server, headers=cookie(http))
        await socket.connect()
        sat = await socket.request({"type": "sit", "table": table})
        assert sat["type"] == "ack", sat
        hello = await socket.request({"type": "hello", "table": table, "token": sat["token"]})
        assert hello["type"] == "ack", hello
        sockets.append(socket)
    return sockets


async def private_table(host: httpx.Client, **options: Any) -> dict[str, Any]:
    body = {"preset": "clasico", "players": 4, "private": True, **options}
    answer = await asyncio.to_thread(host.post, "/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def seated_by_invite(server: LiveServer, https: list[httpx.Client], invite: str) -> list[Player]:
    sockets = []
    for http in https:
        socket = Player(server, headers=cookie(http))
        await socket.connect()
        sat = await socket.request({"type": "sit", "invite": invite})
        assert sat["type"] == "ack", sat
        hello = await socket.request({"type": "hello", "table": sat["table"], "token": sat["token"]})
        assert hello["type"] == "ack", hello
        sockets.append(socket)
    return sockets


def chat_frames(socket: Player) -> list[Message]:
    return [f for f in socket.frames if f.get("type") == "event" and f.get("kind") == "chat"]


def refused(answer: Message, code: str) -> None:
    assert answer["type"] == "error" and answer["code"] == code, answer
    assert answer["message"] and answer["message_en"]


async def close(*sockets: Player) -> None:
    for socket in sockets:
        await socket.close()


def test_a_line_reaches_all_four_seats_and_no_spectator(server: LiveServer) -> None:
    with accounts(server, "ana", "beto", "carla", "dani", "eva") as https:
        ana, *_, eva = https

        async def scenario() -> None:
            created = await private_table(ana, spectators="link")
            sockets = await seated_by_invite(server, https[:4], created["invite"])
            watch = created["watch_url"].rpartition("?ver=")[2]
            mirón = Player(server, headers=cookie(eva))
            await mirón.connect()
            hello = await mirón.request({"type": "hello", "table": created["table"], "watch": watch})
            assert hello["type"] == "ack" and hello["seat"] is None, hello
            sync = next(f for f in mirón.frames if f.get("type") == "sync")
            assert sync["you"] is None and sync["chat"] == [] and sync["host"] is None
            assert sync["phase"] == "playing" and sync["view"]["hand"] == []  # R17: no hand tile
            said = await sockets[0].request({"type": "chat", "text": "  ¡Buenas, compañeros!  "})
            assert said["type"] == "ack", said
            for socket in [*sockets, mirón]:
                await socket.request({"type": "ping"})
            heard = [[(f["data"]["seat"], f["data"]["text"]) for f in chat_frames(s)] for s in sockets]
            assert heard == [[(0, "¡Buenas, compañeros!")]] * 4
            # The spectator is sent the event's number and nothing of it: no seat, no words.
            assert [f["data"] for f in chat_frames(mirón)] == [{}]
            assert "Buenas" not in str(mirón.frames)
            # ...and writes nothing in the players' chat.
            refused(await mirón.request({"type": "chat", "text": "hola"}), "spectator")
            # No private line between partners: a line has no addressee to name.
            refused(await sockets[0].request({"type": "chat", "text": "x", "to": 2}), "bad_message")
            # Back after a reload, a player is sent the recent lines again (a spectator none).
            again = Player(server, headers=cookie(https[2]))
            await again.connect()
            token = (await asyncio.to_thread(https[2].get, "/api/me/seats")).json()[0]["token"]
            await again.request({"type": "hello", "table": created["table"], "token": token})
            resync = next(f for f in again.frames if f.get("type") == "sync")
            assert [(line["seat"], line["text"]) for line in resync["chat"]] == [(0, "¡Buenas, compañeros!")]
            await close(*sockets, mirón, again)

        asyncio.run(scenario())


def test_limits_refuse_and_change_nothing_and_the_filter_masks(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as https:

        async def scenario() -> None:
            created = await private_table(https[0], players=2)
            ana, beto = await seated_by_invite(server, https, created["invite"])
            before = ana.last_seq
            refused(await ana.request({"type": "chat", "text": "x" * (CHAT_MAX + 1)}), "chat_too_long")
            refused(await ana.request({"type": "chat", "text": "una\nlínea"}), "chat_control")
            refused(await ana.request({"type": "chat", "text": "   "}), "chat_empty")
            refused(await ana.request({"type": "chat", "text": 7}), "bad_message")
            await ana.request({"type": "ping"})
            assert ana.last_seq == before and chat_frames(ana) == []
            # During the hand of a casual private table the chat is open; its words are filtered.
            said = await ana.request({"type": "chat", "text": "Qué mierda de mano, you fucking lucky"})
            assert said["type"] == "ack", said
            await beto.request({"type": "ping"})
            assert chat_frames(beto)[-1]["data"]["text"] == f"Qué {MASK} de mano, you {MASK} lucky"
            # Five lines in ten seconds per player (one sent already), then the sixth waits.
            for number in range(4):
                assert (await ana.request({"type": "chat", "text": f"línea {number}"}))["type"] == "ack"
            refused(await ana.request({"type": "chat", "text": "una más"}), "chat_too_fast")
            assert (await beto.request({"type": "chat", "text": "yo sí puedo"}))["type"] == "ack"
            await asyncio.to_thread(server.advance, 10)
            assert (await ana.request({"type": "chat", "text": "ahora sí"}))["type"] == "ack"
            await close(ana, beto)

        asyncio.run(scenario())


async def play_until(sockets: list[Player], kind: str) -> None:
    """Each seat plays its first legal action on its turns until an event of `kind` arrives."""
    acted: set[int] = set()
    async with asyncio.timeout(60):
        while not any(f.get("kind") == kind for f in sockets[0].frames):
            for socket in sockets:
                options = [f for f in socket.frames if f.get("type") == "options"]
                if options and options[-1]["turn_id"] not in acted:
                    turn = options[-1]
                    acted.add(turn["turn_id"])
                    action = turn["legal_actions"][0]
                    await socket.send({"type": "act", "action": action, "turn_id": turn["turn_id"]})
            await asyncio.sleep(0.01)


def test_a_competitive_table_is_quiet_during_a_hand_and_talks_between_rounds(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as https:

        async def scenario() -> None:
            created = await private_table(https[0], players=2, target=200, competitive=True)
            ana, beto = await seated_by_invite(server, https, created["invite"])
            refused(await ana.request({"type": "chat", "text": "¿Tienes el doble seis?"}), "chat_closed")
            await play_until([ana, beto], "round_ended")
            await beto.request({"type": "ping"})
            assert (await beto.request({"type": "chat", "text": "Buena mano"}))["type"] == "ack"
            await ana.request({"type": "ping"})
            assert [f["data"]["text"] for f in chat_frames(ana)] == ["Buena mano"]
            await close(ana, beto)

        asyncio.run(scenario())


def test_strangers_have_no_chat_and_friends_wait_for_the_hand_to_end(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as https:
        body = {"preset": "clasico", "players": 2}
        table = https[0].post("/api/tables", json=body).json()["table"]  # public, casual

        async def scenario() -> None:
            ana, beto = await seated(server, https, table)
            refused(await ana.request({"type": "chat", "text": "hola"}), "chat_closed")
            assert "frases" in (await ana.request({"type": "chat", "text": "hola"}))["message"]
            await asyncio.to_thread(befriend, https[0], https[1], "beto", "ana")
            during = await ana.request({"type": "chat", "text": "hola"})
            refused(during, "chat_closed")
            assert "durante la mano" in during["message"]
            await play_until([ana, beto], "round_ended")
            assert (await ana.request({"type": "chat", "text": "¡Se trancó!"}))["type"] == "ack"
            await close(ana, beto)

        asyncio.run(scenario())


def test_a_muted_player_is_hidden_from_whoever_muted_them_only(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as https:
        ana_http = https[0]

        async def scenario() -> None:
            created = await private_table(ana_http, players=2)
            ana, beto = await seated_by_invite(server, https, created["invite"])
            muted = await asyncio.to_thread(ana_http.post, "/api/me/chat/mutes", json={"name": "Beto"})
            assert muted.status_code == 200 and muted.json()["muted"] == [{"name": "beto"}]
            assert (await beto.request({"type": "chat", "text": "secreto de beto"}))["type"] == "ack"
            assert (await beto.request({"type": "phrase", "phrase": "capicua"}))["type"] == "ack"
            for socket in (ana, beto):
                await socket.request({"type": "ping"})
            assert [f["data"]["text"] for f in chat_frames(ana)] == [None]
            assert [f["data"]["phrase"] for f in ana.frames if f.get("kind") == "phrase"] == [None]
            assert "secreto" not in str(ana.frames)
            assert [f["data"]["text"] for f in chat_frames(beto)] == ["secreto de beto"]  # beto is not told
            # A reload's recent lines leave the muted player's out.
            again = Player(server, headers=cookie(ana_http))
            await again.connect()
            token = (await asyncio.to_thread(ana_http.get, "/api/me/seats")).json()[0]["token"]
            await again.request({"type": "hello", "table": created["table"], "token": token})
            assert next(f for f in again.frames if f.get("type") == "sync")["chat"] == []
            # Undone: the next line shows.
            gone = await asyncio.to_thread(ana_http.request, "DELETE", "/api/me/chat/mutes/beto", json={})
            assert gone.json()["muted"] == []
            assert (await beto.request({"type": "chat", "text": "ya me oyes"}))["type"] == "ack"
            await ana.request({"type": "ping"})
            assert chat_frames(ana)[-1]["data"]["text"] == "ya me oyes"
            await close(ana, beto, again)

        asyncio.run(scenario())
        refused_mute = ana_http.post("/api/me/chat/mutes", json={"name": "ana"})
        assert (refused_mute.status_code, refused_mute.json()["code"]) == (422, "mute_self")
        nobody = ana_http.post("/api/me/chat/mutes", json={"name": "nadie"})
        assert (nobody.status_code, nobody.json()["code"]) == (404, "no_such_player")
        again = ana_http.request("DELETE", "/api/me/chat/mutes/beto", json={})
        assert (again.status_code, again.json()["code"]) == (404, "not_muted")


def test_the_chat_setting_is_kept_for_the_account(server: LiveServer) -> None:
    with accounts(server, "ana") as (ana,):
        assert ana.get("/api/me/chat").json() == {"chat_off": False, "muted": []}
        assert ana.put("/api/me/chat", json={"chat_off": True}).json()["chat_off"] is True
        assert ana.get("/api/me/chat").json()["chat_off"] is True
        with client(server) as guest:
            answer = guest.get("/api/me/chat")
            assert (answer.status_code, answer.json()["code"]) == (401, "login_required")


def test_a_reported_line_lands_in_the_moderators_queue_with_its_words(server: LiveServer) -> None:
    with accounts(server, "ana", "beto") as https:
        ana_http, beto_http = https

        async def scenario() -> int:
            created = await private_table(ana_http, players=2)
            ana, beto = await seated_by_invite(server, https, created["invite"])
            await ana.request({"type": "chat", "text": "eres un tramposo"})
            await beto.request({"type": "ping"})
            seq: int = chat_frames(beto)[-1]["seq"]
            report = {"table": created["table"], "seq": seq}
            own = await asyncio.to_thread(ana_http.post, "/api/reports/chat", json=report)
            assert (own.status_code, own.json()["code"]) == (422, "chat_report_own")
            wrong = await asyncio.to_thread(beto_http.post, "/api/reports/chat", json={**report, "seq": 1})
            assert (wrong.status_code, wrong.json()["code"]) == (404, "no_chat_line")
            made = await asyncio.to_thread(beto_http.post, "/api/reports/chat", json=report)
            assert made.status_code == 201, made.text
            await close(ana, beto)
            return int(made.json()["id"])

        item_id = asyncio.run(scenario())
        item = server.on_server(lambda: server.state.store.review_item(item_id))
        ana_id = server.on_server(lambda: server.state.store.find_user("ana")).user_id
        assert (item.kind, item.reason, item.subjects) == ("report", "abuse", [ana_id])
        assert item.note == "Chat: «eres un tramposo»"
