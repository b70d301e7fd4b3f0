"""Head-to-head and the home page's part over HTTP, on a real server: `GET
/api/players/{name}/vs/{other}` (record, last games, refusals, private games only to their
players) and `GET /api/home` (friends' latest games with who won, tournaments starting soonest
that the player may enter or is in; a guest gets none).

Runs on the in-memory store, SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import database_url, live, register
from tests.server.support.players_helpers import Seat, make_user, save_game

__all__ = ["database_url"]  # the fixture, from http_helpers


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    with live(database_url, registrations_per_address_per_hour=1000, tournament_director=False) as running:
        yield running


class Person(httpx.Client):
    """A signed-in client: registered first, then used in a `with` that closes it."""

    def __enter__(self) -> Person:
        return self


def signed_in(server: LiveServer, name: str) -> Person:
    http = Person(base_url=server.http, timeout=20)
    assert register(http, name).status_code == 201
    return http


def user_id(server: LiveServer, name: str) -> int:
    async def find() -> int:
        found = await server.state.store.find_user(name)
        assert found is not None
        return int(found.user_id)

    return server.on_server(find)


def befriend(server: LiveServer, first: int, second: int) -> None:
    async def both() -> None:
        store, now = server.state.store, server.settings.clock.now()
        await store.request_friend(first, second, now)
        assert await store.accept_friend(second, first, now)

    server.on_server(both)


def refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["message"] and body["message_en"]
    assert body["message"] != body["message_en"]
    return body


class TestVersus:
    def test_record_and_last_games_newest_first(self, server: LiveServer) -> None:
        ana, kike, caro = make_user(server, "ana"), make_user(server, "Kike"), make_user(server, "caro")
        now = server.settings.clock.now()
        save_game(server, "t1.1", [Seat(ana, "ana", won=True), Seat(kike, "Kike")], finished_at=now - 30)
        save_game(server, "t2.1", [Seat(kike, "Kike", won=True), Seat(ana, "ana")], finished_at=now - 20)
        save_game(server, "t3.1", [Seat(ana, "ana", won=True), Seat(kike, "Kike")], finished_at=now - 10)
        save_game(server, "t4.1", [Seat(caro, "caro", won=True), Seat(ana, "ana"), Seat(kike, "Kike")])
        save_game(server, "t5.1", [Seat(ana, "ana", won=True), Seat(caro, "caro")])  # Kike not there
        body = httpx.get(f"{server.http}/api/players/ANA/vs/kike", timeout=20).json()
        assert (body["first"]["name"], body["second"]["name"]) == ("ana", "Kike")
        # scores: 100 for a winner, 40 for anybody else (players_helpers.save_game)
        assert body["opponents"] == {
            "played": 4,
            "first_wins": 2,
            "second_wins": 1,
            "draws": 0,
            "others": 1,
            "first_points": 100 + 40 + 100 + 40,
            "second_points": 40 + 100 + 40 + 40,
        }
        assert body["partners"] == {"played": 0, "won": 0, "lost": 0, "points_for": 0, "points_against": 0}
        assert [(g["game_id"], g["together"], g["outcome"]) for g in body["games"]] == [
            ("t4.1", "opponents", "neither"),
            ("t3.1", "opponents", "first"),
            ("t2.1", "opponents", "second"),
            ("t1.1", "opponents", "first"),
        ]
        assert body["games"][0]["seats"][0] == {"seat": 0, "name": "caro", "kind": "human"}
        assert "user_id" not in str(body)
        assert (body["counted"], body["capped"]) == (4, False)

    def test_a_private_game_counts_only_for_those_who_played_it(self, server: LiveServer) -> None:
        with signed_in(server, "ana") as ana_http, signed_in(server, "caro") as caro_http:
            ana, kike = user_id(server, "ana"), make_user(server, "kike")
            now = server.settings.clock.now()
            save_game(
                server,
                "t1.1",
                [Seat(ana, "ana", won=True), Seat(kike, "kike")],
                finished_at=now - 5,
                private=True,
            )
            save_game(server, "t2.1", [Seat(kike, "kike", won=True), Seat(ana, "ana")], finished_at=now)
            mine = ana_http.get("/api/players/ana/vs/kike").json()
            theirs = caro_http.get("/api/players/ana/vs/kike").json()
            guest = httpx.get(f"{server.http}/api/players/ana/vs/kike", timeout=20).json()
        assert (mine["opponents"]["played"], mine["opponents"]["first_wins"]) == (2, 1)
        assert [(g["game_id"], g["private"]) for g in mine["games"]] == [("t2.1", False), ("t1.1", True)]
        for other in (theirs, guest):
            assert (other["opponents"]["played"], other["opponents"]["first_wins"]) == (1, 0)
            assert [g["game_id"] for g in other["games"]] == ["t2.1"]

    def test_refusals_change_nothing(self, server: LiveServer) -> None:
        make_user(server, "ana")
        nobody = httpx.get(f"{server.http}/api/players/ana/vs/fantasma", timeout=20)
        assert "fantasma" in refused(nobody, 404, "no_such_player")["message"]
        refused(httpx.get(f"{server.http}/api/players/fantasma/vs/ana", timeout=20), 404, "no_such_player")
        self_ = refused(
            httpx.get(f"{server.http}/api/players/ana/vs/ANA", timeout=20), 422, "head_to_head_self"
        )
        assert self_["parameter"] == "other" and "ana" in self_["message_en"]
        long = "x" * 500
        refused(httpx.get(f"{server.http}/api/players/ana/vs/{long}", timeout=20), 404, "no_such_player")
        assert httpx.get(f"{server.http}/api/players/ana", timeout=20).status_code == 200  # still alive


class TestHome:
    def test_a_guest_has_no_home_part(self, server: LiveServer) -> None:
        refused(httpx.get(f"{server.http}/api/home", timeout=20), 401, "login_required")

    def test_friends_latest_games_with_who_won(self, server: LiveServer) -> None:
        with signed_in(server, "ana") as http:
            ana = user_id(server, "ana")
            kike, caro, dani = make_user(server, "kike"), make_user(server, "caro"), make_user(server, "dani")
            befriend(server, ana, kike)
            befriend(server, ana, caro)
            now = server.settings.clock.now()
            save_game(
                server, "t1.1", [Seat(kike, "kike", won=True), Seat(dani, "dani")], finished_at=now - 50
            )
            save_game(
                server, "t2.1", [Seat(dani, "dani", won=True), Seat(caro, "caro")], finished_at=now - 40
            )
            save_game(
                server, "t3.1", [Seat(kike, "kike"), Seat(caro, "caro", won=True)], finished_at=now - 30
            )
            save_game(
                server, "t4.1", [Seat(dani, "dani", won=True), Seat(None, "Bot 1")], finished_at=now - 20
            )
            save_game(
                server,
                "t5.1",
                [Seat(kike, "kike", won=True), Seat(dani, "dani")],
                finished_at=now - 10,
                private=True,
            )  # a private game ana did not play: not hers to see
            body = http.get("/api/home").json()
        assert body["friends"] == 2
        games = body["friends_games"]
        assert [(g["game_id"], g["friends"], g["won_by"]) for g in games] == [
            ("t3.1", ["kike", "caro"], ["caro"]),
            ("t2.1", ["caro"], ["dani"]),
            ("t1.1", ["kike"], ["kike"]),
        ]
        assert "user_id" not in str(body)

    def test_tournaments_starting_soonest_that_the_player_may_enter_or_is_in(
        self, server: LiveServer
    ) -> None:
        now = server.settings.clock.now()

        def minitorneo(name: str, **changes: Any) -> dict[str, Any]:
            config = {"name": name, "format": "minitorneo", "entry": "duel", "size": 4, "rated": False}
            return {**config, **changes}

        with signed_in(server, "host") as host, signed_in(server, "ana") as ana:
            made = {}
            for name, changes in (
                ("Tarde", {"starts_at": now + 7200}),
                ("Pronto", {"starts_at": now + 600}),
                ("Cuando se llene", {}),
                ("Privado", {"private": True, "starts_at": now + 60}),
                ("Privado con Ana", {"private": True, "starts_at": now + 3600}),
            ):
                answer = host.post("/api/tournaments", json=minitorneo(name, **changes))
                assert answer.status_code == 201, answer.text
                made[name] = answer.json()
            invite = made["Privado con Ana"]["invite"]
            entered = ana.post(
                f"/api/tournaments/{made['Privado con Ana']['tournament']['id']}/register",
                json={"invite": invite},
            )
            assert entered.status_code == 200, entered.text
            body = ana.get("/api/home").json()
        shown = [(t["name"], t["me"]["registered"], t["me"]["can_register"]) for t in body["tournaments"]]
        assert shown == [
            ("Pronto", False, True),
            ("Privado con Ana", True, False),
            ("Tarde", False, True),
            ("Cuando se llene", False, True),
        ]
        assert body["friends"] == 0 and body["friends_games"] == []
