"""What a `sync` and the lobby tell a browser that reloads or comes back (docs/protocol.md,
`sync`, `lobby`, `GET /api/me/seats`): the host's panel, scores from the first hand, bots'
names in both languages, the account's live seats, games in progress to watch, and the page
at /mesa/<anything>. Over a real uvicorn with real WebSocket clients."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, live, register
from tests.server.support.inprocess import TableRig
from tests.server.support.scenario_helpers import Client
from tranque.engine import Rules
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.lobby.limits import Limits
from tranque.server.table.bot_names import identity
from tranque.server.table.commands import AccountSeat, Sit, Subscribe
from tranque.server.table.state import TableError

TWO = {"preset": "clasico", "players": 2, "mode": "individual"}


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live(limits=Limits(waiting_tables_per_account=10)) as running:
        yield running


def account(server: LiveServer, name: str) -> tuple[httpx.Client, dict[str, str]]:
    http = client(server)
    assert register(http, name).status_code == 201
    return http, {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}


def sync_of(client: Client) -> dict[str, Any]:
    return next(frame for frame in reversed(client.frames) if frame["type"] == "sync")


def test_the_hosts_seat_gets_its_panel_back_after_a_reload_and_nobody_else_does(server: LiveServer) -> None:
    host_http, host_cookie = account(server, "Anfitriona")
    guest_http, guest_cookie = account(server, "Invitado")
    created = host_http.post("/api/tables", json={**TWO, "players": 4, "private": True}).json()
    public = host_http.post("/api/tables", json=TWO).json()
    table, code = created["table"], created["invite"]

    async def scenario() -> None:
        async with Client(server, host_cookie) as host, Client(server, guest_cookie) as guest:
            mine = await host.ok({"type": "sit", "invite": code})
            theirs = await guest.ok({"type": "sit", "invite": code})
            await host.hello(table, mine["token"])
            panel = {
                "invite": code,
                "invite_url": created["invite_url"],
                "can_fill_bots": True,
                "spectators": "none",  # a private table's default (talk/watching.py)
                "watch_url": None,
            }
            assert sync_of(host)["host"] == panel
            await guest.hello(table, theirs["token"])
            assert sync_of(guest)["host"] is None
        async with Client(server, host_cookie) as reloaded:  # the host's page reloads
            await reloaded.hello(table, mine["token"])
            assert sync_of(reloaded)["host"] == panel
            await reloaded.ok({"type": "fill_bots", "level": "random"})
        async with Client(server) as later:  # after the game started: nothing left to fill
            await later.hello(table, mine["token"])
            assert sync_of(later)["host"] == {**panel, "can_fill_bots": False}
        async with Client(server, host_cookie) as host, Client(server) as spectator:
            seated = await host.ok({"type": "sit", "table": public["table"]})
            await host.hello(public["table"], seated["token"])
            public_panel = {"invite": None, "invite_url": None, "can_fill_bots": True}
            assert sync_of(host)["host"] == {**public_panel, "spectators": None, "watch_url": None}
            await spectator.hello(public["table"])
            assert sync_of(spectator)["host"] is None

    asyncio.run(scenario())
    host_http.close()
    guest_http.close()


def test_scores_are_lists_from_the_first_hand_and_bots_have_english_names(server: LiveServer) -> None:
    host_http, host_cookie = account(server, "Anfitriona")
    table = host_http.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]

    async def scenario() -> None:
        async with Client(server, host_cookie) as host, Client(server) as spectator:
            seated = await host.ok({"type": "sit", "table": table})
            await host.hello(table, seated["token"])
            await spectator.hello(table)
            for viewer in (host, spectator):  # waiting for players: no view yet, scores already
                sync = sync_of(viewer)
                assert sync["view"] is None and sync["game"] == 0
                assert (sync["scores"], sync["goals"]) == ([0, 0], [0, 0])
            await host.ok({"type": "fill_bots", "level": "random"})
            for viewer in (host, spectator):
                started = await viewer.until("game_started")
                assert started["data"]["game"] == 1
                dealt = await viewer.until("round_started")
                assert (dealt["data"]["scores"], dealt["data"]["goals"]) == ([0, 0], [0, 0])
                bots = [
                    event["data"]
                    for event in viewer.events
                    if event["kind"] == "seat" and event["data"]["kind"] == "bot"
                ]
                assert [(bot["name"], bot["name_en"], bot["face"]) for bot in bots] == [
                    (identity(table, n)[0], identity(table, n)[0], identity(table, n)[1]) for n in (1, 2, 3)
                ]
        async with Client(server) as late:
            await late.hello(table)
            sync = sync_of(late)
            assert sync["scores"] == sync["view"]["scores"] == [0, 0]
            names = [identity(table, n)[0] for n in (1, 2, 3)]
            assert [seat["name_en"] for seat in sync["seats"]] == ["Anfitriona", *names]

    asyncio.run(scenario())
    host_http.close()


async def test_every_round_starts_with_the_scores_the_last_one_ended_with() -> None:
    async with TableRig.practice(Rules.preset("clasico", players=2, mode="individual", target=60)) as rig:
        await rig.hello(0)
        for _ in range(2000):
            if rig.table.state.phase.is_over:
                break
            await rig.advance(31)
        log = await rig.log()
    ended = [event.data["scores"] for event in log if event.kind == "round_ended"]
    started = [event.data["scores"] for event in log if event.kind == "round_started"]
    assert len(started) >= 2
    assert started == [[0, 0], *ended[: len(started) - 1]]


test_every_round_starts_with_the_scores_the_last_one_ended_with = pytest.mark.anyio(
    test_every_round_starts_with_the_scores_the_last_one_ended_with
)


def test_an_account_finds_its_live_seats_with_tokens_that_open_them(server: LiveServer) -> None:
    host_http, host_cookie = account(server, "Anfitriona")
    with client(server) as guest:
        refused = guest.get("/api/me/seats")
        assert (refused.status_code, refused.json()["code"]) == (401, "login_required")
    assert host_http.get("/api/me/seats").json() == []
    table = host_http.post("/api/tables", json=TWO).json()["table"]
    practice = host_http.post("/api/practice", json={**TWO, "bot_level": "random"}).json()

    async def scenario() -> None:
        async with Client(server, host_cookie) as host:
            seated = await host.ok({"type": "sit", "table": table})
            seats = {entry["table"]: entry for entry in host_http.get("/api/me/seats").json()}
            assert seats == {
                table: {
                    "table": table,
                    "seat": 0,
                    "token": seated["token"],
                    "phase": "waiting",
                    "preset": "clasico",
                },
                practice["table"]: {
                    "table": practice["table"],
                    "seat": 0,
                    "token": practice["token"],
                    "phase": "playing",
                    "preset": "clasico",
                },
            }
        async with Client(server) as other_device:
            hello = await other_device.hello(practice["table"], seats[practice["table"]]["token"])
            assert hello["seat"] == 0
            await other_device.ok({"type": "vote", "agree": True})  # the practice game is annulled
        assert [entry["table"] for entry in host_http.get("/api/me/seats").json()] == [table]
        async with Client(server, host_cookie) as host:
            await host.hello(table, seated["token"])
            await host.ok({"type": "stand"})
        assert host_http.get("/api/me/seats").json() == []

    asyncio.run(scenario())
    host_http.close()


async def test_after_a_restart_an_accounts_seat_gets_a_new_token_and_the_old_one_stops() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    async with TableRig.opened(rules) as rig:
        seated = await rig.call(Sit(5, "Ana"))
        assert await rig.call(AccountSeat(5)) == (0, seated["token"])  # as issued: no event
        seq = rig.table.seq
        assert await rig.call(AccountSeat(6)) is None and rig.table.seq == seq
        await rig.restart()
        seat, token = await rig.call(AccountSeat(5))
        assert seat == 0 and token != seated["token"]
        assert [event.kind for event in await rig.log()][-1] == "seat"
        with pytest.raises(TableError) as refused:
            await rig.call(Subscribe(object(), seated["token"]))  # type: ignore[arg-type]
        assert refused.value.code == "bad_token"
        rig.tokens[0] = token
        assert (await rig.hello(0)).seat == 0
        assert await rig.call(AccountSeat(5)) == (0, token)
        assert await rig.replayed() == rig.table.state


test_after_a_restart_an_accounts_seat_gets_a_new_token_and_the_old_one_stops = pytest.mark.anyio(
    test_after_a_restart_an_accounts_seat_gets_a_new_token_and_the_old_one_stops
)


def test_the_lobby_lists_games_in_progress_to_watch_until_they_end(server: LiveServer) -> None:
    host_http, host_cookie = account(server, "Anfitriona")
    waiting = host_http.post("/api/tables", json=TWO).json()["table"]
    playing = host_http.post("/api/tables", json=TWO).json()["table"]

    async def scenario() -> None:
        async with Client(server, host_cookie) as host, Client(server) as watcher:
            seated = await host.ok({"type": "sit", "table": playing})
            await host.hello(playing, seated["token"])
            await host.ok({"type": "fill_bots", "level": "random"})
            lobby = {entry["table"]: entry for entry in httpx.get(f"{server.http}/api/lobby").json()}
            assert (lobby[waiting]["phase"], lobby[waiting]["names"]) == ("waiting", [None, None])
            entry = lobby[playing]
            assert (entry["phase"], entry["names"], entry["scores"]) == (
                "playing",
                ["Anfitriona", identity(playing, 1)[0]],
                [0, 0],
            )
            await watcher.ok({"type": "lobby"})
            listed = next(frame for frame in watcher.frames if frame["type"] == "lobby")
            assert {item["table"]: item for item in listed["tables"]} == lobby
            hello = await watcher.hello(playing)  # watch it: a hello without a token
            assert hello["seat"] is None and sync_of(watcher)["phase"] == "playing"
            await host.ok({"type": "vote", "agree": True})  # the game ends: it leaves the list
            await host.until("game_ended")
        assert [entry["table"] for entry in httpx.get(f"{server.http}/api/lobby").json()] == [waiting]

    asyncio.run(scenario())
    host_http.close()


@pytest.mark.parametrize("path", ["/mesa/NOEXISTE", "/mesa/abc/def", "/mesa?invite=nada"])
def test_a_table_link_always_answers_the_page(server: LiveServer, path: str) -> None:
    answer = httpx.get(server.http + path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "<script" in answer.text


def test_a_double_click_on_start_makes_one_game(server: LiveServer) -> None:
    """The same `once` key twice at once: one practice game, one table, both answers alike;
    and a second «Completar con la máquina» right behind the first is refused, not a second game."""
    host_http, host_cookie = account(server, "Anfitriona")

    async def clicks(path: str, body: dict[str, Any], times: int = 2) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.http, headers=host_cookie, timeout=20) as http:
            return list(await asyncio.gather(*(http.post(path, json=body) for _ in range(times))))

    before = set(server.state.registry.tables)
    practice = asyncio.run(clicks("/api/practice", {**TWO, "bot_level": "random", "once": "clic-1"}))
    assert [answer.status_code for answer in practice] == [200, 200]
    assert practice[0].json() == practice[1].json()
    tables = asyncio.run(clicks("/api/tables", {**TWO, "once": "clic-2"}))
    assert [answer.status_code for answer in tables] == [201, 201]
    assert tables[0].json() == tables[1].json()
    assert set(server.state.registry.tables) - before == {
        practice[0].json()["table"],
        tables[0].json()["table"],
    }
    another = asyncio.run(clicks("/api/practice", {**TWO, "bot_level": "random", "once": "clic-3"}, times=1))
    assert another[0].json()["table"] != practice[0].json()["table"]

    table = tables[0].json()["table"]

    async def scenario() -> None:
        async with Client(server, host_cookie) as host:
            seated = await host.ok({"type": "sit", "table": table})
            await host.hello(table, seated["token"])
            first = await host.send({"type": "fill_bots", "level": "random"})
            second = await host.send({"type": "fill_bots", "level": "random"})

            def both() -> dict[int, dict[str, Any]] | None:
                found = {
                    frame["id"]: frame
                    for frame in host.frames
                    if frame["type"] in ("ack", "error") and frame.get("id") in (first, second)
                }
                return found if len(found) == 2 else None

            answers = await host.wait_for(both)
            assert (answers[first]["type"], answers[second]["type"]) == ("ack", "error")
            assert answers[second]["code"] == "started"
            await host.until("round_started")
            assert [event["kind"] for event in host.events].count("game_started") == 1

    asyncio.run(scenario())
    host_http.close()
