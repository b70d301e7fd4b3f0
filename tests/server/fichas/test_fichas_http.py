"""A player's own fichas over HTTP (`GET /api/me/fichas`), the operator's view of any account's
(`/api/admin/accounts/{name}/fichas`), and tournaments with an entry in fichas, against a live
server: the balance after the grant and the day's refill, each movement in Spanish and English,
the entry taken at registration and refused without the balance (nothing changed), refunded on
a withdrawal before the start and on a cancellation; with fichas off, none of it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.moderation.helpers import account
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, database_url, live, register
from tranque.server.fichas import ledger
from tranque.server.fichas.ledger import Kind, Movement

__all__ = ["database_url"]  # the fixture, from http_helpers


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    # Fichas on, whatever TRANQUE_FICHAS_ENABLED says (the suite may run with them off).
    settings = {
        "registrations_per_address_per_hour": 1000,
        "tournament_director": False,
        "fichas_enabled": True,
    }
    with live(database_url, **settings) as running:
        yield running


class Person(httpx.Client):
    """A signed-in client: registered first, then used in a `with` that closes it."""

    def __enter__(self) -> Person:
        return self


def player(server: LiveServer, name: str) -> Person:
    http = Person(base_url=server.http, timeout=20)
    assert register(http, name).status_code == 201
    return http


def user_id(http: httpx.Client) -> int:
    found: int = http.get("/api/me").json()["id"]
    return found


def mine(http: httpx.Client) -> dict[str, Any]:
    found = http.get("/api/me/fichas")
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def drain(server: LiveServer, user: int, amount: int) -> None:
    """A stake of `amount` at a made-up table's game, as the table writes it: the balance goes
    down by it."""

    async def stake() -> None:
        pot, ref = ledger.pot("drain", 1), ledger.game_ref("drain", 1)
        key = ledger.stake_key("drain", 1, 0, user)
        movement = Movement(key, ledger.account(user), pot, amount, Kind.STAKE, user, ref, 0.0)
        assert await server.state.store.move_fichas([movement])

    server.on_server(stake)


def balance(server: LiveServer, user: int) -> int:
    async def read() -> int:
        found: int = await server.state.fichas.balance(user)
        return found

    return server.on_server(read)


def refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["message"] and body["message_en"] != body["message"]
    return body


TOURNAMENT = {"name": "Torneo con entrada", "format": "suizo", "entry": "duel", "size": 8, "rounds": 3}


class TestMyFichas:
    def test_a_new_account_reads_its_welcome_grant_and_only_its_own(self, server: LiveServer) -> None:
        with player(server, "Ana") as ana, client(server) as guest:
            body = mine(ana)
            assert (body["enabled"], body["balance"], body["floor"]) == (True, 1000, 200)
            [grant] = body["movements"]
            assert (grant["kind"], grant["amount"], grant["text"], grant["text_en"]) == (
                "grant",
                1000,
                "Regalo de bienvenida",
                "Welcome gift",
            )
            refused(guest.get("/api/me/fichas"), 401, "login_required")
            profile = guest.get("/api/players/Ana").json()
            assert not {"fichas", "balance", "movements"} & set(profile)  # never on a profile's body

    def test_a_stake_reads_as_one_and_a_balance_below_the_floor_is_topped_up(
        self, server: LiveServer
    ) -> None:
        with player(server, "Ana") as ana:
            drain(server, user_id(ana), 1000)
            body = mine(ana)  # read: the day's refill up to the floor
            assert body["balance"] == 200
            assert [(m["kind"], m["amount"], m["text"]) for m in body["movements"]] == [
                ("refill", 200, "Recarga diaria"),
                ("stake", -1000, "Apuesta en una mesa"),
                ("grant", 1000, "Regalo de bienvenida"),
            ]
            stake = body["movements"][1]
            assert (stake["game"], stake["table"], stake["replay"]) == ("drain.1", "drain", False)  # not kept
            assert mine(ana)["balance"] == 200  # once a day
            first = ana.get("/api/me/fichas", params={"limit": 2}).json()
            assert len(first["movements"]) == 2 and first["next_before"] is not None
            rest = ana.get("/api/me/fichas", params={"limit": 2, "before": first["next_before"]}).json()
            assert [m["kind"] for m in rest["movements"]] == ["grant"]


def test_with_fichas_off_the_api_says_so_and_shows_nothing() -> None:
    with live(fichas_enabled=False) as server, player(server, "Ana") as ana:
        assert mine(ana) == {"enabled": False}
        admin = account(server, "Jefa", "admin")
        refused(admin.get("/api/admin/accounts/Ana/fichas"), 404, "fichas_off")
        refused(ana.post("/api/tournaments", json={**TOURNAMENT, "entry_fichas": 50}), 404, "fichas_off")


def test_the_admin_reads_any_accounts_balance_and_movements_and_nobody_else_does() -> None:
    with live(fichas_enabled=True) as server:
        admin = account(server, "Jefa", "admin")
        ana = account(server, "Ana")
        drain(server, user_id(ana), 300)
        body = admin.get("/api/admin/accounts/Ana/fichas").json()
        assert (body["name"], body["balance"]) == ("Ana", 700)
        assert [m["text_en"] for m in body["movements"]] == ["Stake at a table", "Welcome gift"]
        refused(ana.get("/api/admin/accounts/Ana/fichas"), 403, "not_an_admin")
        refused(admin.get("/api/admin/accounts/Nadie/fichas"), 404, "no_such_player")


class TestTournamentEntry:
    def test_the_entry_is_taken_refused_without_cover_and_refunded(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana, player(server, "Bea") as bea:
            made = host.post("/api/tournaments", json={**TOURNAMENT, "entry_fichas": 300})
            assert made.status_code == 201, made.text
            tid = made.json()["tournament"]["id"]
            assert made.json()["tournament"]["config"]["entry_fichas"] == 300
            listed = httpx.get(f"{server.http}/api/tournaments", timeout=20).json()["tournaments"]
            assert [t["entry_fichas"] for t in listed if t["id"] == tid] == [300]

            assert ana.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
            assert balance(server, user_id(ana)) == 700
            assert mine(ana)["movements"][0]["text"] == "Entrada al torneo"

            drain(server, user_id(bea), 950)  # 50 left, topped up to the floor (200): short of 300
            body = refused(bea.post(f"/api/tournaments/{tid}/register", json={}), 409, "fichas_not_enough")
            assert (
                body["message"]
                == "No tienes fichas suficientes: la entrada al torneo es de 300 y tienes 200."
            )
            assert balance(server, user_id(bea)) == 200
            assert [m["kind"] for m in mine(bea)["movements"]] == ["refill", "stake", "grant"]  # no entry
            page = httpx.get(f"{server.http}/api/tournaments/{tid}", timeout=20).json()
            assert [e["names"] for e in page["entrants"]] == [["Ana"]]

            assert (
                ana.post(f"/api/tournaments/{tid}/withdraw", json={}).status_code == 200
            )  # before the start
            assert balance(server, user_id(ana)) == 1000
            assert mine(ana)["movements"][0]["text"] == "Devolución de la entrada al torneo"

            assert (
                ana.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
            )  # again: pays again
            assert balance(server, user_id(ana)) == 700
            assert host.post(f"/api/tournaments/{tid}/cancel", json={}).status_code == 200
            assert balance(server, user_id(ana)) == 1000

            async def books() -> bool:
                balanced: bool = (await server.state.fichas.books()).balanced
                return balanced

            assert server.on_server(books)

    def test_a_refused_registration_takes_no_entry(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            tid = host.post("/api/tournaments", json={**TOURNAMENT, "entry_fichas": 100}).json()[
                "tournament"
            ]["id"]
            assert ana.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
            refused(ana.post(f"/api/tournaments/{tid}/register", json={}), 409, "tournament_registered")
            assert balance(server, user_id(ana)) == 900  # charged once
            assert [m["kind"] for m in mine(ana)["movements"]] == ["entry", "grant"]

    def test_an_entry_out_of_range_is_refused(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host:
            for bad in (-1, 1_000_001, 2.5, "cien"):
                body = refused(
                    host.post("/api/tournaments", json={**TOURNAMENT, "entry_fichas": bad}),
                    422,
                    "tournament_config",
                )
                assert body["parameter"] == "entry_fichas"
