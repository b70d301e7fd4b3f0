"""Accounts over real HTTP: register, log in, log out, sessions, CSRF locks and the login limit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import PASSWORD, client, database_url, live, login, register, server
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.http.accounts import SESSION_SECONDS

__all__ = ["database_url", "server"]  # the fixtures, from http_helpers

WRONG = {
    "code": "wrong_login",
    "message": "Nombre o contraseña incorrectos.",
    "message_en": "Wrong name or password.",
}


@pytest.fixture
def memory_server() -> Iterator[LiveServer]:
    with live(login_failures_per_minute=3, login_failures_per_address_per_minute=5) as running:
        yield running


def set_cookie(response: httpx.Response, name: str = SESSION_COOKIE) -> str:
    (header,) = [
        v for k, v in response.headers.multi_items() if k == "set-cookie" and v.startswith(f"{name}=")
    ]
    return header


class TestRegisterLoginLogout:
    def test_register_logs_in_and_me_names_the_account(self, server: LiveServer) -> None:
        with client(server) as http:
            assert http.get("/api/me").status_code == 401
            created = register(http, "Pedro_23")
            assert created.status_code == 201
            assert created.json() == {"id": created.json()["id"], "name": "Pedro_23"}
            me = http.get("/api/me")
            assert me.status_code == 200 and me.json() == {**created.json(), "role": "player"}

    def test_login_with_the_name_in_any_case(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Pedro")
        with client(server) as other:
            assert other.get("/api/me").status_code == 401
            answer = login(other, "PEDRO")
            assert answer.status_code == 200 and answer.json()["name"] == "Pedro"
            assert other.get("/api/me").json()["name"] == "Pedro"

    def test_logout_ends_the_session_even_for_a_stolen_copy_of_the_cookie(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Pedro")
            token = http.cookies[SESSION_COOKIE]
            out = http.post("/api/logout", json={})
            assert out.status_code == 204
            assert SESSION_COOKIE in set_cookie(out) and "max-age=0" in set_cookie(out).lower()
            assert http.get("/api/me").status_code == 401
        with client(server, cookies={SESSION_COOKIE: token}) as replayed:
            assert replayed.get("/api/me").json() == {
                "code": "login_required",
                "message": "Entra con tu cuenta para hacer esto.",
                "message_en": "Log in to do this.",
            }

    def test_duplicate_name_is_refused_whatever_its_case(self, server: LiveServer) -> None:
        with client(server) as http:
            assert register(http, "Pedro").status_code == 201
            again = register(http, "pEDRO", "otra clave distinta")
            assert again.status_code == 409
            assert again.json() == {
                "code": "name_taken",
                "parameter": "name",
                "message": "Ese nombre ya está en uso; elige otro.",
                "message_en": "That name is taken; choose another.",
            }
        with client(server) as other:  # the first account's password still opens it
            assert login(other, "pedro").status_code == 200
            assert login(other, "pedro", "otra clave distinta").json() == WRONG

    def test_stored_hash_is_argon2id_and_never_the_password(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Pedro")
        user = server.on_server(lambda: server.state.store.find_user("pedro"))
        assert user.password_hash.startswith("$argon2id$")
        assert PASSWORD not in user.password_hash

    def test_session_lasts_thirty_days(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Pedro")
            server.advance(SESSION_SECONDS - 1)
            assert http.get("/api/me").status_code == 200
            server.advance(1)
            assert http.get("/api/me").status_code == 401


class TestRefusals:
    def test_wrong_password_and_unknown_name_get_the_same_answer(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
        with client(memory_server) as other:
            wrong = login(other, "Pedro", "no es la clave")
            unknown = login(other, "Nadie", PASSWORD)
            assert (wrong.status_code, wrong.json()) == (401, WRONG)
            assert (unknown.status_code, unknown.json()) == (401, WRONG)
            assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers

    @pytest.mark.parametrize(
        ("body", "parameter", "code"),
        [
            ({"name": "ab", "password": PASSWORD}, "name", "bad_name"),
            ({"name": "x" * 25, "password": PASSWORD}, "name", "bad_name"),
            ({"name": "con espacio", "password": PASSWORD}, "name", "bad_name"),
            ({"name": "Pedro", "password": "corta77"}, "password", "bad_password"),
            ({"name": "Pedro"}, "password", "bad_request"),
            ({"name": 12345, "password": PASSWORD}, "name", "bad_request"),
        ],
    )
    def test_bad_registration_names_the_field(
        self, memory_server: LiveServer, body: dict[str, Any], parameter: str, code: str
    ) -> None:
        with client(memory_server) as http:
            answer = http.post("/api/register", json=body)
            assert answer.status_code == 422
            assert set(answer.json()) == {"code", "parameter", "message", "message_en"}
            assert (answer.json()["code"], answer.json()["parameter"]) == (code, parameter)
            assert http.get("/api/me").status_code == 401

    def test_names_may_use_spanish_letters_dots_and_dashes(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            assert register(http, "Peña.Núñez-7").json()["name"] == "Peña.Núñez-7"

    def test_cookie_is_httponly_lax_and_whole_site(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            header = set_cookie(register(http, "Pedro")).lower()
            flags = {part.strip() for part in header.split(";")}
            assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
            assert f"max-age={SESSION_SECONDS}" in flags
            assert "secure" not in flags  # plain http on loopback
            header = set_cookie(login(http, "Pedro")).lower()
            assert {"httponly", "samesite=lax", "path=/"} <= {part.strip() for part in header.split(";")}

    def test_cookie_is_secure_when_configured(self) -> None:
        with live(secure_cookies=True) as running, client(running) as http:
            flags = {part.strip() for part in set_cookie(register(http, "Pedro")).lower().split(";")}
            assert {"secure", "httponly", "samesite=lax"} <= flags

    def test_cross_origin_posts_are_refused(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
            evil = {"Origin": "https://tranque.evil.example"}
            refused = http.post("/api/logout", json={}, headers=evil)
            assert refused.status_code == 403
            assert refused.json() == {
                "code": "cross_origin",
                "message": "Petición rechazada: viene de otro sitio.",
                "message_en": "Request refused: it comes from another site.",
            }
            assert http.get("/api/me").status_code == 200  # still logged in
            assert login(http, "Pedro", headers=evil).status_code == 403
            assert login(http, "Pedro", headers={"Origin": "null"}).status_code == 403
            assert login(http, "Pedro", headers={"Origin": memory_server.http}).status_code == 200

    @pytest.mark.parametrize(
        "content_type", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
    )
    def test_only_json_bodies_change_state(self, memory_server: LiveServer, content_type: str | None) -> None:
        # What a form or a no-cors fetch from another page can send, without a preflight.
        with client(memory_server) as http:
            register(http, "Pedro")
            headers = {"Content-Type": content_type} if content_type else {}
            refused = http.post("/api/logout", content=b'{"x": 1}', headers=headers)
            assert refused.status_code == 415 and refused.json()["code"] == "json_required"
            assert http.get("/api/me").status_code == 200
            other = http.post(
                "/api/register", content=b'{"name": "Otro", "password": "12345678"}', headers=headers
            )
            assert other.status_code == 415


LIMITED = {
    "code": "too_many_attempts",
    "message": "Demasiados intentos; espera un minuto y vuelve a probar.",
    "message_en": "Too many attempts; wait a minute and try again.",
}


def login_from(http: httpx.Client, address: str, name: str, password: str = PASSWORD) -> httpx.Response:
    """A login from `address` (uvicorn trusts X-Forwarded-For from loopback, the test's peer)."""
    return login(http, name, password, headers={"X-Forwarded-For": address})


class TestLoginLimit:
    """Three failures a minute from one address on one name, five on any names (memory_server)."""

    def test_failures_on_one_name_from_one_address_wait_a_minute(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
        with client(memory_server) as http:
            for _ in range(3):
                assert login_from(http, "10.0.0.1", "Pedro", "mala clave").json() == WRONG
            limited = login_from(http, "10.0.0.1", "pedro")  # the right password, too late
            assert (limited.status_code, limited.json()) == (429, LIMITED)
            assert "set-cookie" not in limited.headers and http.get("/api/me").status_code == 401
            memory_server.advance(59)
            assert login_from(http, "10.0.0.1", "Pedro").status_code == 429
            memory_server.advance(1)
            assert login_from(http, "10.0.0.1", "Pedro").status_code == 200

    def test_an_outsider_cannot_lock_the_owner_out(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
        with client(memory_server) as attacker:
            for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
                for _ in range(3):
                    assert login_from(attacker, address, "Pedro", "mala clave").status_code == 401
                assert login_from(attacker, address, "Pedro", "mala clave").status_code == 429
        with client(memory_server) as owner:  # from an address that has not failed
            answer = login_from(owner, "10.0.0.9", "Pedro")
            assert (answer.status_code, answer.json()["name"]) == (200, "Pedro")
            assert owner.get("/api/me").json()["name"] == "Pedro"

    def test_failures_on_many_names_from_one_address_wait_a_minute(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
        with client(memory_server) as http:
            for name in ("Ana", "Luis", "Marta", "Sofia", "Juan"):
                assert login_from(http, "10.0.0.1", name).json() == WRONG
            limited = login_from(http, "10.0.0.1", "Pedro")
            assert (limited.status_code, limited.json()) == (429, LIMITED)
            assert login_from(http, "10.0.0.9", "Pedro").status_code == 200
            memory_server.advance(60)
            assert login_from(http, "10.0.0.1", "Pedro").status_code == 200

    def test_successes_do_not_count_and_clear_the_failures(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
        with client(memory_server) as http:
            for _ in range(6):  # more than either limit
                assert login_from(http, "10.0.0.1", "Pedro").status_code == 200
            for _ in range(2):
                assert login_from(http, "10.0.0.1", "Pedro", "mala clave").status_code == 401
            assert login_from(http, "10.0.0.1", "Pedro").status_code == 200
            for _ in range(2):  # two more: five on this address, but only two on this name since
                assert login_from(http, "10.0.0.1", "Pedro", "mala clave").status_code == 401
            assert login_from(http, "10.0.0.1", "Pedro").status_code == 200


class TestWebSocketSession:
    def test_sit_needs_the_session_cookie(self, memory_server: LiveServer) -> None:
        with client(memory_server) as http:
            register(http, "Pedro")
            token = http.cookies[SESSION_COOKIE]
            table = http.post("/api/tables", json={"preset": "clasico"}).json()["table"]

        async def scenario() -> None:
            async with Player(memory_server) as guest:
                refused = await guest.request({"type": "sit", "table": table})
                assert (refused["type"], refused["code"]) == ("error", "login_required")
            async with Player(memory_server, headers={"Cookie": f"{SESSION_COOKIE}={token}"}) as pedro:
                seated = await pedro.request({"type": "sit", "table": table, "seat": 2})
                assert (seated["type"], seated["table"], seated["seat"]) == ("ack", table, 2)
                assert isinstance(seated["token"], str) and len(seated["token"]) >= 32

        asyncio.run(scenario())
        summary = httpx.get(f"{memory_server.http}/api/tables/{table}").json()
        assert [seat["name"] for seat in summary["seats"]] == [None, None, "Pedro", None]
