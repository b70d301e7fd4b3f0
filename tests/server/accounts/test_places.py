"""Per-place limits on accounts (addresses.py `place`: an IPv6 /64 is one place) and the
per-account login delays (accounts/account_delays.py), against a real uvicorn. Clients'
addresses are the test's `X-Forwarded-For`, which uvicorn trusts from the loopback peer, as
from a proxy in front of the site."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.support.http_helpers import PASSWORD, client, live
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.http.accounts import DEVICE_COOKIE

HOST = "2001:db8:1:2::"  # one home's /64: its privacy addresses come and go within it


def post(http: httpx.Client, path: str, address: str, body: dict[str, Any], **headers: str) -> httpx.Response:
    return http.post(path, json=body, headers={"X-Forwarded-For": address, **headers})


def codes(answers: list[httpx.Response]) -> list[tuple[int, str | None]]:
    return [(a.status_code, a.json().get("code")) for a in answers]


def test_N3_registrations_from_one_ipv6_64_share_one_quota() -> None:
    settings: dict[str, Any] = {"registrations_per_address_per_hour": 3, "password_check_in_processes": False}
    with live(**settings) as server, client(server) as http:
        answers = [
            post(http, "/api/register", f"{HOST}{i:x}", {"name": f"Vecino_{i}", "password": PASSWORD})
            for i in range(1, 6)
        ]
        assert [a.status_code for a in answers] == [201, 201, 201, 429, 429]
        assert answers[-1].json()["code"] == "too_many_registrations"
        other = post(http, "/api/register", "2001:db8:1:3::1", {"name": "Lejano", "password": PASSWORD})
        assert other.status_code == 201  # the next /64 is another place
        mapped = [
            post(http, "/api/register", address, {"name": f"Cuatro_{i}", "password": PASSWORD})
            for i, address in enumerate(["10.0.0.1", "::ffff:10.0.0.1", "10.0.0.1", "::ffff:10.0.0.1"])
        ]
        assert [a.status_code for a in mapped] == [201, 201, 201, 429]  # one IPv4 address


def test_N2d_failed_logins_from_one_ipv6_64_share_the_per_address_limit() -> None:
    with live(login_failures_per_address_per_minute=5) as server, client(server) as http:
        answers = [
            post(http, "/api/login", f"{HOST}{i:x}", {"name": f"nadie_{i}", "password": PASSWORD})
            for i in range(1, 9)
        ]
        assert codes(answers) == [(401, "wrong_login")] * 5 + [(429, "too_many_attempts")] * 3
        elsewhere = post(http, "/api/login", "2001:db8:9::1", {"name": "nadie", "password": PASSWORD})
        assert elsewhere.status_code == 401  # another /64 counts alone


def test_N2c_one_name_guessed_from_60_addresses_is_slowed_but_its_owner_logs_in() -> None:
    with live(account_failures_free=10, password_check_in_processes=False) as server:
        with client(server) as owner:
            created = post(owner, "/api/register", "198.51.100.1", {"name": "Ana", "password": PASSWORD})
            assert created.status_code == 201
            device = owner.cookies[DEVICE_COOKIE]
            flags = {
                part.strip().lower()
                for value in created.headers.get_list("set-cookie")
                if value.startswith(f"{DEVICE_COOKIE}=")
                for part in value.split(";")
            }
            assert {"httponly", "samesite=lax", "path=/"} <= flags
            owner.post("/api/logout", json={})
        with client(server) as attacker:
            guesses = [
                post(attacker, "/api/login", f"203.0.113.{i}", {"name": "ana", "password": f"intento {i}"})
                for i in range(1, 61)
            ]
        assert codes(guesses[:10]) == [(401, "wrong_login")] * 10
        assert codes(guesses[10:]) == [(429, "too_many_attempts")] * 50
        refused = guesses[-1].json()
        assert refused["retry_after"] >= 1
        assert guesses[-1].headers["Retry-After"] == str(refused["retry_after"])
        assert str(refused["retry_after"]) in refused["message"] and "device" in refused["message_en"]
        # Even the right password waits, from a device the account never logged in from...
        with client(server) as stranger:
            right = post(stranger, "/api/login", "198.51.100.77", {"name": "Ana", "password": PASSWORD})
            assert codes([right]) == [(429, "too_many_attempts")]
        # ...but not from the owner's device.
        with client(server, cookies={DEVICE_COOKIE: device}) as owner:
            back = post(owner, "/api/login", "198.51.100.1", {"name": "Ana", "password": PASSWORD})
            assert back.status_code == 200 and back.json()["name"] == "Ana"
            assert SESSION_COOKIE in owner.cookies
        # Its success cleared the name's failures: the stranger's right password goes in now.
        with client(server) as stranger:
            right = post(stranger, "/api/login", "198.51.100.77", {"name": "Ana", "password": PASSWORD})
            assert right.status_code == 200


def test_N2c_a_live_session_of_the_account_is_not_slowed() -> None:
    with live(account_failures_free=2, password_check_in_processes=False) as server:
        with client(server) as owner:
            created = post(owner, "/api/register", "198.51.100.1", {"name": "Ana", "password": PASSWORD})
            assert created.status_code == 201
            session = owner.cookies[SESSION_COOKIE]
        with client(server) as attacker:
            guesses = [
                post(attacker, "/api/login", f"203.0.113.{i}", {"name": "Ana", "password": "no"})
                for i in range(1, 5)
            ]
            assert codes(guesses) == [(401, "wrong_login")] * 2 + [(429, "too_many_attempts")] * 2
            right = post(attacker, "/api/login", "203.0.113.9", {"name": "Ana", "password": PASSWORD})
            assert codes([right]) == [(429, "too_many_attempts")]
        with client(server, cookies={SESSION_COOKIE: session}) as owner:  # a new device, its session
            again = post(owner, "/api/login", "198.51.100.2", {"name": "Ana", "password": PASSWORD})
            assert again.status_code == 200
