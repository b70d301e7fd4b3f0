"""Bot accounts (docs/bots.md): made by a person, given a token shown once and kept hashed,
revoked; a bot's socket is the account of its token, at tables that accept bots and in the
bots' own quick match, held to its own message rate, and told exactly what a person's seat is.

Every test runs a real server (uvicorn) and real WebSocket clients; the HTTP ones on every
backend (memory, SQLite, PostgreSQL).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterator
from functools import partial
from typing import Any

import httpx
import pytest
import websockets

from tests.server.support.harness import LiveServer, Message, Player, fast_settings
from tests.server.support.http_helpers import client, database_url, live, login, register, server
from tests.server.support.scripted import ScriptedClient, stored_events
from tests.server.table.test_leaks import never_sent, scan
from tranque.server.accounts.bot_tokens import BAD_TOKEN_CLOSE, TOKEN_REVOKED_CLOSE
from tranque.server.lobby.limits import Limits
from tranque.server.ws.limits import SocketLimits

__all__ = ["database_url", "server"]  # fixtures, used by name

WAIT = 10.0


OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def close_clients() -> Iterator[None]:
    yield
    while OPEN:
        OPEN.pop().close()


def http_client(server: LiveServer) -> httpx.Client:
    http = client(server)
    OPEN.append(http)
    return http


def person(server: LiveServer, name: str = "Alicia") -> httpx.Client:
    http = http_client(server)
    assert register(http, name).status_code == 201
    return http


def make_bot(http: httpx.Client, name: str) -> str:
    answer = http.post("/api/me/bots", json={"name": name})
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token


def revoke(http: httpx.Client, name: str) -> httpx.Response:
    return http.request("DELETE", f"/api/me/bots/{name}/token", json={})


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def close_code(server: LiveServer, headers: dict[str, str]) -> tuple[int | None, str | None]:
    """Open `/ws` with `headers` and read until the server closes it: its code and reason."""
    async with websockets.connect(server.ws, additional_headers=headers) as socket:
        with pytest.raises(websockets.ConnectionClosed):
            async with asyncio.timeout(WAIT):
                async for _ in socket:
                    pass
        return socket.close_code, socket.close_reason


async def pong(server: LiveServer, token: str) -> Message:
    async with Player(server, bearer(token)) as bot:
        return await bot.request({"type": "ping"})


# Tokens ----------------------------------------------------------------------------------


def test_a_bots_token_is_shown_once_kept_hashed_rotated_and_revoked(server: LiveServer) -> None:
    http = person(server)
    token = make_bot(http, "Robotina")
    assert token.startswith("tqb_") and len(token) == 47
    listed = http.get("/api/me/bots").json()
    assert [(bot["name"], bot["has_token"], bot["used_at"]) for bot in listed] == [("Robotina", True, None)]
    assert token not in http.get("/api/me/bots").text  # shown once: never listed again

    async def by(value: str) -> Any:
        return await server.state.store.bot_by_token(value, 5.0)

    assert server.on_server(lambda: by(token)) is None  # the store keeps only its SHA-256
    kept = server.on_server(lambda: by(hashlib.sha256(token.encode()).hexdigest()))
    assert kept is not None and kept.name == "Robotina" and kept.is_bot

    assert asyncio.run(pong(server, token))["type"] == "ack"
    assert http.get("/api/me/bots").json()[0]["used_at"] is not None

    # A new token: the old one no longer opens a socket, and the socket it opened is closed.
    async def rotate() -> tuple[tuple[int | None, str | None], str]:
        async with websockets.connect(server.ws, additional_headers=bearer(token)) as old:
            await old.send('{"type": "ping", "id": 1}')
            await old.recv()
            renewed = await asyncio.to_thread(http.post, "/api/me/bots/robotina/token", json={})
            assert renewed.status_code == 200
            with pytest.raises(websockets.ConnectionClosed):
                async with asyncio.timeout(WAIT):
                    async for _ in old:
                        pass
            return (old.close_code, old.close_reason), renewed.json()["token"]

    closed, new = asyncio.run(rotate())
    assert closed == (TOKEN_REVOKED_CLOSE, "token_revoked")
    assert new != token
    assert asyncio.run(close_code(server, bearer(token))) == (BAD_TOKEN_CLOSE, "bad_token")
    assert asyncio.run(pong(server, new))["type"] == "ack"

    # Revoked: no token works, and the list says so.
    assert revoke(http, "Robotina").status_code == 204
    assert asyncio.run(close_code(server, bearer(new))) == (BAD_TOKEN_CLOSE, "bad_token")
    assert http.get("/api/me/bots").json()[0]["has_token"] is False


def test_a_socket_without_a_bots_token_is_refused_as_one(server: LiveServer) -> None:
    for headers in ({"Authorization": "Bearer nada"}, {"Authorization": "Basic dXNlcjpwYXNz"}):
        assert asyncio.run(close_code(server, headers)) == (BAD_TOKEN_CLOSE, "bad_token")

    async def anonymous() -> Message:
        async with Player(server) as nobody:
            return await nobody.request({"type": "quick_match"})

    assert asyncio.run(anonymous())["code"] == "login_required"


def test_bot_accounts_are_checked_like_names_and_owned(server: LiveServer) -> None:
    http = person(server)
    refused = http.post("/api/me/bots", json={"name": "r"})
    assert (refused.status_code, refused.json()["code"]) == (422, "bad_name")
    assert http.post("/api/me/bots", json={"name": "alicia"}).json()["code"] == "name_taken"
    assert http.post("/api/me/bots", json={"name": "AIicia"}).json()["code"] == "name_confusable"
    make_bot(http, "Robotina")
    other = person(server, "Beto")
    for answer in (other.post("/api/me/bots/Robotina/token", json={}), revoke(other, "Robotina")):
        assert (answer.status_code, answer.json()["code"]) == (404, "no_such_bot")
    assert other.get("/api/me/bots").json() == []
    anonymous = http_client(server)
    assert anonymous.post("/api/me/bots", json={"name": "Otro"}).status_code == 401
    # A bot account has no password: it never logs in.
    refused = login(http_client(server), "Robotina", "")
    assert (refused.status_code, refused.json()["code"]) == (403, "bot_not_allowed")


def test_a_person_may_own_only_so_many_bots() -> None:
    with live(limits=Limits(bots_per_owner=2)) as running:
        http = person(running)
        make_bot(http, "Uno")
        make_bot(http, "Dos")
        refused = http.post("/api/me/bots", json={"name": "Tres"})
        assert refused.status_code == 409
        assert refused.json()["code"] == "too_many_bots"
        assert refused.json()["message_en"] == "You already have 2 bots; you cannot make more."
        assert [bot["name"] for bot in http.get("/api/me/bots").json()] == ["Uno", "Dos"]


# Tables ----------------------------------------------------------------------------------


def test_a_bot_sits_only_at_a_table_that_accepts_bots(server: LiveServer) -> None:
    http = person(server)
    token = make_bot(http, "Robotina")
    for_people = http.post("/api/tables", json={"preset": "clasico", "players": 2}).json()["table"]
    for_bots = http.post("/api/tables", json={"preset": "clasico", "players": 2, "bots": True}).json()
    assert http.get(f"/api/tables/{for_bots['table']}").json()["bots"] is True

    async def sit() -> tuple[Message, Message, Message]:
        async with Player(server, bearer(token)) as bot:
            await bot.request({"type": "lobby"})
            lobby = next(frame for frame in bot.frames if frame["type"] == "lobby")
            refused = await bot.request({"type": "sit", "table": for_people})
            seated = await bot.request({"type": "sit", "table": for_bots["table"]})
            return lobby, refused, seated

    lobby, refused, seated = asyncio.run(sit())
    accepts = {entry["table"]: entry["bots"] for entry in lobby["tables"]}
    assert accepts == {for_people: False, for_bots["table"]: True}  # where a bot may go
    assert refused["type"] == "error" and refused["code"] == "bots_not_accepted"
    assert seated["type"] == "ack" and seated["seat"] == 0
    assert http.get(f"/api/tables/{for_people}").json()["seats"][0]["kind"] == "empty"


# Rate limit -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def limited() -> Iterator[LiveServer]:
    with LiveServer(fast_settings()) as running:
        limits = SocketLimits(burst=3, per_second=1.0, bot_burst=5, bot_per_second=2.0)
        running.settings.socket_limits = limits
        yield running


def test_a_bots_socket_has_a_message_rate_of_its_own(limited: LiveServer) -> None:
    http = person(limited)
    token = make_bot(http, "Robotina")

    def answering(message_id: int, message: Message) -> bool:
        return message.get("id") == message_id and message["type"] in ("ack", "error")

    async def answers(headers: dict[str, str], count: int) -> list[str]:
        async with Player(limited, headers) as socket:
            ids = [await socket.send({"type": "ping"}) for _ in range(count)]
            found = [await socket.expect(partial(answering, i)) for i in ids]
            return [m["type"] if m["type"] == "ack" else m["code"] for m in found]

    assert asyncio.run(answers(bearer(token), 7)) == ["ack"] * 5 + ["rate_limited"] * 2
    assert asyncio.run(answers({}, 5)) == ["ack"] * 3 + ["rate_limited"] * 2
    limited.advance(1.0)  # two more for the bot, one more a second for anybody else

    def numbered(message_id: int, message: Message) -> bool:
        return message.get("id") == message_id

    async def after_a_second() -> list[str]:
        async with Player(limited, bearer(token)) as socket:
            ids = [await socket.send({"type": "ping"}) for _ in range(6)]
            found = [await socket.expect(partial(numbered, i)) for i in ids]
            return [m["type"] for m in found]

    # A new socket has a new bucket: the burst again.
    assert asyncio.run(after_a_second()) == ["ack"] * 5 + ["error"]


# The bots' quick match, ratings and R17 ---------------------------------------------------


def quick_settings(database_url: str = "memory://") -> Any:
    return fast_settings(
        database_url, quick_match_wait_seconds=0, auto_move_seconds=3600, between_rounds_seconds=3600
    )


async def matched(server: LiveServer, token: str) -> tuple[Player, Message]:
    bot = Player(server, bearer(token))
    await bot.connect()
    answer = await bot.request({"type": "quick_match"})
    assert answer["type"] == "ack", answer
    return bot, answer


async def seated(bot: Player) -> Message:
    """The bot's `matched` (it may have come before the ack of its `quick_match`)."""
    earlier = [frame for frame in bot.frames if frame["type"] == "matched"]
    return earlier[0] if earlier else await bot.expect(lambda m: m["type"] == "matched")


def test_two_bots_are_matched_play_a_game_rated_among_bots_and_see_no_hidden_tile() -> None:
    with LiveServer(quick_settings()) as running:
        tokens = [make_bot(person(running), "Robotina"), make_bot(person(running, "Beto"), "Robotín")]
        people = person(running, "Carla")  # a person's quick match is not the bots'

        async def play() -> tuple[list[ScriptedClient], dict[str, Any]]:
            session = {"Cookie": f"tranque_session={people.cookies['tranque_session']}"}
            async with Player(running, session) as p:
                assert (await p.request({"type": "quick_match"}))["type"] == "ack"
                bots = [await matched(running, token) for token in tokens]
                found = [await seated(bot) for bot, _ in bots]
                assert len({m["table"] for m in found}) == 1
                assert not [m for m in p.frames if m["type"] == "matched"]
                clients = []
                for (bot, _), match in zip(bots, found, strict=True):
                    scripted = ScriptedClient(running, match["table"], match["token"])
                    await scripted.player.close()
                    scripted.player = bot  # the bot's own socket, its token's account
                    clients.append(scripted)
                ends = await asyncio.gather(*(scripted.play() for scripted in clients))
                for bot, _ in bots:
                    await bot.close()
                    # `matched` gave the bot its own seat's token: the one frame that may carry it.
                    bot.frames[:] = [frame for frame in bot.frames if frame["type"] != "matched"]
                return clients, ends[0]

        clients, ended = asyncio.run(play())
        running.recorded()  # ratings are kept after the game's end
        table = clients[0].table
        events = stored_events(running, table)
        assert [e.kind for e in events].count("game_ended") == 1
        never = never_sent(events, {c.seat: c.token for c in clients if c.seat is not None and c.token})
        leaks = [leak for scripted in clients for leak in scan(events, scripted, never)]
        assert leaks == []
        assert sum(len(stream) for scripted in clients for stream in scripted.streams) > 50
        assert len(ended["rating_changes"]) == 2

        ranking = http_client(running).get("/api/bots/ranking", params={"pool": "duel"}).json()
        assert sorted(row["name"] for row in ranking["rows"]) == ["Robotina", "Robotín"]
        board = {"by": "rating", "pool": "duel"}
        people_board = http_client(running).get("/api/rankings", params=board).json()
        assert people_board["rows"] == []  # bots are rated among themselves only


def test_a_person_at_a_table_that_accepts_bots_is_told_the_game_will_not_count(server: LiveServer) -> None:
    http = person(server)
    token = make_bot(http, "Robotina")
    options = {"preset": "clasico", "players": 2, "bots": True, "competitive": True}
    table = http.post("/api/tables", json=options).json()["table"]
    session = {"Cookie": f"tranque_session={http.cookies['tranque_session']}"}

    async def seat_both() -> dict[str, Any]:
        async with Player(server, bearer(token)) as bot, Player(server, session) as host:
            assert (await bot.request({"type": "sit", "table": table, "seat": 0}))["type"] == "ack"
            seated = await host.request({"type": "sit", "table": table, "seat": 1})
            assert seated["type"] == "ack"
            await host.request({"type": "hello", "table": table, "token": seated["token"]})
            sync = next(frame for frame in host.frames if frame["type"] == "sync")
            rating: dict[str, Any] = sync["rating"]
            return rating

    rating = asyncio.run(seat_both())
    assert (rating["competitive"], rating["rated"], rating["reason"]) == (True, False, "person_at_bots_table")


def test_two_bots_of_one_owner_at_a_competitive_table_are_told_the_game_will_not_count(
    server: LiveServer,
) -> None:
    http = person(server)
    tokens = [make_bot(http, "Robotina"), make_bot(http, "Robotín")]
    options = {"preset": "clasico", "players": 2, "bots": True, "competitive": True}
    table = http.post("/api/tables", json=options).json()["table"]

    async def seat_both() -> dict[str, Any]:
        async with Player(server, bearer(tokens[0])) as one, Player(server, bearer(tokens[1])) as two:
            assert (await one.request({"type": "sit", "table": table, "seat": 0}))["type"] == "ack"
            seated = await two.request({"type": "sit", "table": table, "seat": 1})
            assert seated["type"] == "ack"
            await two.request({"type": "hello", "table": table, "token": seated["token"]})
            sync = next(frame for frame in two.frames if frame["type"] == "sync")
            rating: dict[str, Any] = sync["rating"]
            return rating

    rating = asyncio.run(seat_both())
    assert (rating["competitive"], rating["rated"], rating["reason"]) == (True, False, "same_owner")
