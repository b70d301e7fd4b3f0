"""Creating tables with an account (docs/rules.md table options, R14 targets, R15 turn times) and
finding them: the lobby for public ones, the invite for private ones."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import client, database_url, live, register, server
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.lobby.limits import Limits

__all__ = ["database_url", "server"]  # the fixtures, from http_helpers


@pytest.fixture
def memory_server() -> Iterator[LiveServer]:
    # One host creates more tables here than an account may have waiting (test_limits.py).
    with live(limits=Limits(waiting_tables_per_account=10)) as running:
        yield running


@pytest.fixture
def host(memory_server: LiveServer) -> Iterator[httpx.Client]:
    with client(memory_server) as http:
        register(http, "Anfitrion")
        yield http


def cookie_header(http: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}


def create(http: httpx.Client, **options: Any) -> httpx.Response:
    return http.post("/api/tables", json=options)


class TestCreate:
    def test_public_table_is_in_the_lobby_and_waits_for_players(self, server: LiveServer) -> None:
        with client(server) as http:
            me = register(http, "Anfitrion").json()
            created = create(http, preset="clasico", turn_seconds=45, private=False)
            assert created.status_code == 201
            table = created.json()["table"]
            assert created.json() == {
                "table": table,
                "kind": "public",
                "invite": None,
                "invite_url": None,
                "watch_url": None,
            }
            summary = http.get(f"/api/tables/{table}").json()
        assert summary == {
            "table": table,
            "kind": "public",
            "phase": "waiting",
            "competitive": False,
            "bots": False,
            "preset": "clasico",
            "players": 4,
            "mode": "pairs",
            "target": 100,
            "turn_seconds": 45,
            "capicua_bonus": 0,
            "seats": [{"seat": seat, "name": None, "kind": "empty"} for seat in range(4)],
        }
        lobby = httpx.get(f"{server.http}/api/lobby").json()
        assert [entry["table"] for entry in lobby] == [table]
        assert server.state.registry.tables[table].options.host_user_id == me["id"]

    def test_R14_five_or_six_players_propose_200_and_may_choose_100_or_150(self, host: httpx.Client) -> None:
        def target(**options: Any) -> int:
            table = create(host, **options).json()["table"]
            return int(host.get(f"/api/tables/{table}").json()["target"])

        assert target(preset="clasico", players=6) == 200
        assert target(preset="clasico", players=5) == 200
        assert target(preset="clasico", players=4) == 100
        assert target(preset="clasico", players=6, target=100) == 100
        assert target(preset="clasico", players=2, target=150) == 150
        assert target(preset="internacional") == 200  # the preset's own default

    def test_options_reach_the_table(self, host: httpx.Client, memory_server: LiveServer) -> None:
        created = create(
            host, preset="salon", players=3, target=150, turn_seconds=20, capicua_bonus=25, bot_level="expert"
        ).json()
        summary = host.get(f"/api/tables/{created['table']}").json()
        assert (summary["preset"], summary["players"], summary["mode"]) == ("salon", 3, "individual")
        assert (summary["target"], summary["turn_seconds"], summary["capicua_bonus"]) == (150, 20, 25)
        assert memory_server.state.registry.tables[created["table"]].options.bot_level == "expert"

    @pytest.mark.parametrize(
        ("options", "parameter"),
        [
            ({"target": 120}, "target"),
            ({"target": 300}, "target"),
            ({"turn_seconds": 25}, "turn_seconds"),
            ({"players": 7}, "players"),
            # The preset's own seatings speak first: with 3 players clasico is individual.
            ({"players": 3, "mode": "pairs"}, "mode"),
            ({"mode": "trios"}, "mode"),
            ({"preset": "ponce", "capicua_bonus": 10}, "capicua_bonus"),
            ({"preset": "domino-chino"}, "preset"),
            ({"bot_level": "tramposo"}, "bot_level"),
            ({"players": "cuatro"}, "players"),
            ({"private": "quizas"}, "private"),
        ],
    )
    def test_bad_options_are_422_naming_the_parameter(
        self, host: httpx.Client, memory_server: LiveServer, options: dict[str, Any], parameter: str
    ) -> None:
        answer = create(host, **options)
        assert answer.status_code == 422
        body = answer.json()
        assert set(body) == {"code", "parameter", "message", "message_en"} and body["parameter"] == parameter
        assert body["message"] and body["message_en"] != body["message"]  # Spanish, then English
        assert memory_server.state.registry.tables == {}

    def test_creating_needs_an_account(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            answer = create(http, preset="clasico")
            assert (answer.status_code, answer.json()["code"]) == (401, "login_required")
        assert memory_server.state.registry.tables == {}

    def test_cross_origin_create_is_refused(self, host: httpx.Client, memory_server: LiveServer) -> None:
        answer = host.post("/api/tables", json={}, headers={"Origin": "http://evil.example"})
        assert (answer.status_code, answer.json()["code"]) == (403, "cross_origin")
        form = host.post("/api/tables", content=b"{}", headers={"Content-Type": "text/plain"})
        assert (form.status_code, form.json()["code"]) == (415, "json_required")
        assert memory_server.state.registry.tables == {}


class TestPrivate:
    def test_private_table_is_hidden_and_reached_with_its_invite(
        self, host: httpx.Client, memory_server: LiveServer
    ) -> None:
        created = create(host, preset="clasico", players=2, private=True).json()
        table, code = created["table"], created["invite"]
        assert created["kind"] == "private"
        assert len(code) >= 22  # 16 random bytes
        assert created["invite_url"] == f"/mesa?invite={code}"
        assert httpx.get(f"{memory_server.http}/api/lobby").json() == []
        hidden = httpx.get(f"{memory_server.http}/api/tables/{table}")
        missing = httpx.get(f"{memory_server.http}/api/tables/no-such-table")
        assert hidden.status_code == missing.status_code == 404
        assert hidden.json() == missing.json()  # a private table is indistinguishable from none
        wrong = httpx.get(f"{memory_server.http}/api/tables/{table}", params={"invite": code[:-1] + "ñ"})
        assert wrong.json() == missing.json()
        found = httpx.get(f"{memory_server.http}/api/tables/{table}", params={"invite": code})
        assert found.status_code == 200 and found.json()["kind"] == "private"
        by_code = httpx.get(f"{memory_server.http}/api/invites/{code}")
        assert by_code.json() == found.json()
        for bad_code in (code[:-1] + "x", "ñandú"):
            bad = httpx.get(f"{memory_server.http}/api/invites/{bad_code}")
            assert (bad.status_code, bad.json()["code"]) == (404, "bad_invite")

    def test_invited_players_sit_and_the_game_starts_when_full(
        self, host: httpx.Client, memory_server: LiveServer
    ) -> None:
        created = create(host, preset="clasico", players=2, private=True).json()
        table, code = created["table"], created["invite"]
        with client(memory_server) as guest_http:
            register(guest_http, "Invitada")
            guest_cookie = cookie_header(guest_http)

        async def scenario() -> None:
            async with (
                Player(memory_server, headers=cookie_header(host)) as anfitrion,
                Player(memory_server, headers=guest_cookie) as invitada,
            ):
                refused = await invitada.request({"type": "sit", "table": table})
                assert (refused["type"], refused["code"]) == ("error", "bad_invite")
                # Non-ASCII once made compare_digest raise TypeError and dropped the socket.
                wrong = await invitada.request({"type": "sit", "invite": "ñandú"})
                assert (wrong["type"], wrong["code"]) == ("error", "bad_invite")
                first = await anfitrion.request({"type": "sit", "invite": code})
                assert (first["type"], first["table"], first["seat"]) == ("ack", table, 0)
                second = await invitada.request({"type": "sit", "invite": code})
                assert (second["type"], second["table"], second["seat"]) == ("ack", table, 1)

        asyncio.run(scenario())
        summary = host.get(f"/api/tables/{table}", params={"invite": code}).json()
        assert summary["phase"] == "playing"
        assert [seat["name"] for seat in summary["seats"]] == ["Anfitrion", "Invitada"]
        assert [seat["kind"] for seat in summary["seats"]] == ["human", "human"]


class TestLookup:
    def test_practice_tables_are_not_listed_nor_summarised(self, memory_server: LiveServer) -> None:
        seated = memory_server.post("/api/practice", {"preset": "clasico", "bot_level": "random"})
        answer = httpx.get(f"{memory_server.http}/api/tables/{seated['table']}")
        assert (answer.status_code, answer.json()["code"]) == (404, "no_such_table")
        assert httpx.get(f"{memory_server.http}/api/lobby").json() == []
