"""Accounts and deployment hardening over a real uvicorn: password and name rules, the
registration quota, logout closing sockets, the client address behind a trusted proxy,
security headers, /docs without internet, owner-only SQLite files and `tranque serve`'s flags.

Every refusal is checked for its status, `code` and message, and for having stored nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import uvicorn
import websockets
from alembic import command

from tests import services
from tests.server.support.harness import LiveServer, free_port
from tranque.cli import main
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE, SESSION_COOKIE
from tranque.server.app import WEB_DIR
from tranque.server.http.accounts import DEVICE_COOKIE
from tranque.server.http.security_headers import inline_script_source, script_hashes
from tranque.server.settings import Settings
from tranque.server.store import NameTaken
from tranque.server.store.schema import users
from tranque.server.store.sql import SqlStore, alembic_config, run_in_transaction
from tranque.server.table.clock import FakeClock
from tranque.terminal import serve

PASSWORD = "una clave muy larga"


def settings(**changes: Any) -> Settings:
    values: dict[str, Any] = {"clock": FakeClock(), "bot_processes": 0, "bot_min_seconds": 0}
    return Settings(database_url="memory://", **{**values, **changes})


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with LiveServer(settings(registrations_per_address_per_hour=2)) as running:
        yield running


def client(server: LiveServer, **kwargs: Any) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=20, **kwargs)


def register(http: httpx.Client, name: str, password: str = PASSWORD, **kwargs: Any) -> httpx.Response:
    return http.post("/api/register", json={"name": name, "password": password}, **kwargs)


def stored_user(server: LiveServer, name: str) -> Any:
    return server.on_server(lambda: server.state.store.find_user(name))


def assert_refused(answer: httpx.Response, status: int, body: dict[str, str], http: httpx.Client) -> None:
    """The refusal exactly, and no session: no cookie set, nobody logged in."""
    assert (answer.status_code, answer.json()) == (status, body)
    assert "set-cookie" not in answer.headers
    assert http.get("/api/me").status_code == 401


# Passwords -----------------------------------------------------------------------------------

WEAK = {
    "code": "weak_password",
    "parameter": "password",
    "message": "Esa contraseña es de las más usadas o muy fácil de adivinar. "
    "Usa una frase de varias palabras que solo tú conozcas.",
    "message_en": "That password is one of the most used or very easy to guess. "
    "Use a phrase of several words only you know.",
}
IS_NAME = {
    "code": "password_is_name",
    "parameter": "password",
    "message": "La contraseña no puede ser tu nombre. Usa una frase de varias palabras que solo tú conozcas.",
    "message_en": "The password cannot be your name. Use a phrase of several words only you know.",
}


class TestPasswords:
    @pytest.mark.parametrize("password", ["12345678", "password", "aaaaaaaa", "qwertyuiop", "barranquilla"])
    def test_a_common_password_is_refused_and_nothing_is_stored(
        self, server: LiveServer, password: str
    ) -> None:
        with client(server) as http:
            assert_refused(register(http, "ana_23", password), 422, WEAK, http)
        assert stored_user(server, "ana_23") is None

    @pytest.mark.parametrize("password", ["pedro_sec", "PEDRO_SEC", "ｐｅｄｒｏ_ｓｅｃ"])
    def test_the_name_as_password_is_refused_in_any_case_or_width(
        self, server: LiveServer, password: str
    ) -> None:
        with client(server) as http:
            assert_refused(register(http, "Pedro_sec", password), 422, IS_NAME, http)
        assert stored_user(server, "Pedro_sec") is None

    def test_a_passphrase_is_accepted(self, server: LiveServer) -> None:
        with client(server) as http:
            assert register(http, "ana_23", "mango biche con sal").status_code == 201


# Names ---------------------------------------------------------------------------------------


class TestNames:
    def test_a_full_width_name_is_stored_in_its_normal_form(self, server: LiveServer) -> None:
        with client(server) as http:
            created = register(http, "ｐｅｄｒｏ_ｓｅｃ")
            assert (created.status_code, created.json()["name"]) == (201, "pedro_sec")
        with client(server) as other:  # and logs in typed either way
            answer = other.post("/api/login", json={"name": "ＰＥＤＲＯ_ＳＥＣ", "password": PASSWORD})
            assert (answer.status_code, answer.json()["name"]) == (200, "pedro_sec")

    @pytest.mark.parametrize("look_alike", ["ｐｅｄｒｏ_ｓｅｃ", "PEDRO_SEC"])
    def test_the_same_name_in_another_width_or_case_is_taken(
        self, server: LiveServer, look_alike: str
    ) -> None:
        with client(server) as http:
            assert register(http, "pedro_sec").status_code == 201
        with client(server) as other:
            taken = {
                "code": "name_taken",
                "parameter": "name",
                "message": "Ese nombre ya está en uso; elige otro.",
                "message_en": "That name is taken; choose another.",
            }
            assert_refused(register(other, look_alike, "otra clave distinta"), 409, taken, other)

    @pytest.mark.parametrize(
        "look_alike",
        [
            "pеdro_sec",  # a Cyrillic е (U+0435)
            "рedro_sec",  # a Cyrillic р (U+0440)
            "PЕDRO_SEC",  # a capital Cyrillic Е
            "pedr0_sec",  # a zero for the o
        ],
    )
    def test_a_name_that_looks_like_an_existing_one_is_refused(
        self, server: LiveServer, look_alike: str
    ) -> None:
        with client(server) as http:
            assert register(http, "pedro_sec").status_code == 201
        with client(server) as other:
            confusable = {
                "code": "name_confusable",
                "parameter": "name",
                "message": "Ese nombre se confunde con «pedro_sec»; elige otro.",
                "message_en": "That name is easily mistaken for «pedro_sec»; choose another.",
            }
            assert_refused(register(other, look_alike, "otra clave distinta"), 409, confusable, other)
        assert stored_user(server, look_alike) is None

    def test_different_names_with_spanish_letters_are_not_look_alikes(self, server: LiveServer) -> None:
        with client(server) as http:
            assert register(http, "Peña").status_code == 201
        with client(server) as other:
            assert register(other, "Pena", "otra clave distinta").status_code == 201


# Registrations per address -------------------------------------------------------------------


class TestRegistrationQuota:
    def test_registrations_per_address_per_hour(self, server: LiveServer) -> None:
        # uvicorn trusts X-Forwarded-For from loopback, the test's peer: each header is a client.
        first = {"X-Forwarded-For": "10.0.0.1"}
        for name in ("uno_1", "dos_2"):
            with client(server) as http:
                assert register(http, name, headers=first).status_code == 201
        with client(server) as http:
            refused = register(http, "tres_3", headers=first)
            quota = {
                "code": "too_many_registrations",
                "message": "Desde tu conexión se han creado demasiadas cuentas; "
                "vuelve a intentarlo dentro de una hora.",
                "message_en": "Too many accounts have been created from your connection; "
                "try again in an hour.",
            }
            assert_refused(refused, 429, quota, http)
        assert stored_user(server, "tres_3") is None
        with client(server) as http:  # another address is not limited
            assert register(http, "cuatro_4", headers={"X-Forwarded-For": "10.0.0.2"}).status_code == 201
        server.advance(3600)
        with client(server) as http:
            assert register(http, "tres_3", headers=first).status_code == 201

    def test_refusals_before_the_estimate_do_not_use_the_quota(self, server: LiveServer) -> None:
        # (A password the estimate refuses has used one: tests/server/accounts/test_hostile_signup.py.)
        with client(server) as http:
            for _ in range(3):
                assert register(http, "ana_2345", "ANA_2345").status_code == 422  # the name
                assert register(http, "ana_2345", "corta").status_code == 422
                assert register(http, "x").status_code == 422
            assert register(http, "ana_2345").status_code == 201


# Logging out closes the session's sockets ----------------------------------------------------


class TestLogoutClosesSockets:
    def test_a_socket_opened_before_logout_is_closed_and_sits_nobody(self, server: LiveServer) -> None:
        with client(server) as http:
            assert register(http, "Pedro").status_code == 201
            token = http.cookies[SESSION_COOKIE]
            table = http.post("/api/tables", json={"preset": "clasico"}).json()["table"]
            with client(server) as laptop:  # another session of the same account
                assert (
                    laptop.post("/api/login", json={"name": "Pedro", "password": PASSWORD}).status_code == 200
                )
                other_token = laptop.cookies[SESSION_COOKIE]

                async def scenario() -> tuple[int, dict[str, Any]]:
                    cookie = {"Cookie": f"{SESSION_COOKIE}={token}"}
                    other = {"Cookie": f"{SESSION_COOKIE}={other_token}"}
                    async with (
                        websockets.connect(server.ws, additional_headers=cookie) as socket,
                        websockets.connect(server.ws, additional_headers=other) as still_in,
                    ):
                        await socket.send(json.dumps({"type": "ping", "id": 1}))
                        assert json.loads(await socket.recv())["type"] == "ack"  # open and logged in
                        assert (await asyncio.to_thread(http.post, "/api/logout", json={})).status_code == 204
                        with pytest.raises(websockets.ConnectionClosed) as closed:
                            await socket.send(json.dumps({"type": "sit", "table": table, "seat": 0, "id": 2}))
                            while True:  # anything still queued before the close, then the close
                                assert json.loads(await socket.recv()).get("id") != 2
                        # The other session's socket is still Pedro's.
                        await still_in.send(json.dumps({"type": "ping", "id": 3}))
                        return closed.value.rcvd.code if closed.value.rcvd else 0, json.loads(
                            await still_in.recv()
                        )

                code, answer = asyncio.run(scenario())
        assert code == LOGGED_OUT_CLOSE
        assert answer["type"] == "ack"
        seats = httpx.get(f"{server.http}/api/tables/{table}", timeout=20).json()["seats"]
        assert [seat["name"] for seat in seats] == [None, None, None, None]


# The client's address behind a trusted proxy -------------------------------------------------


class ProxiedServer(LiveServer):
    """A test server run with `tranque serve`'s proxy options, trusting `trusted` as proxies."""

    def __init__(self, settings: Settings, trusted: str) -> None:
        super().__init__(settings)
        options = serve.proxy_options(argparse.Namespace(forwarded_allow_ips=trusted))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning", **options)
        self.server = uvicorn.Server(config)


def wrong_logins(http: httpx.Client, addresses: list[str]) -> None:
    for address in addresses:
        answer = http.post(
            "/api/login",
            json={"name": "Pedro", "password": "mala clave"},
            headers={"X-Forwarded-For": address},
        )
        assert answer.status_code == 401


def login_from(http: httpx.Client, address: str, **headers: str) -> httpx.Response:
    return http.post(
        "/api/login",
        json={"name": "Pedro", "password": PASSWORD},
        headers={"X-Forwarded-For": address, **headers},
    )


class TestBehindAProxy:
    def test_the_limit_counts_the_forwarded_address_of_a_trusted_proxy(self) -> None:
        with ProxiedServer(settings(login_failures_per_minute=3), trusted="127.0.0.1") as server:
            with client(server) as http:
                assert register(http, "Pedro").status_code == 201
            with client(server) as http:
                wrong_logins(http, ["203.0.113.7"] * 3)
                assert login_from(http, "203.0.113.7").status_code == 429
                assert login_from(http, "203.0.113.8").status_code == 200

    def test_the_header_of_an_untrusted_peer_is_ignored(self) -> None:
        # The proxy is 192.0.2.1 (a documentation address): the test's loopback peer is not it,
        # so every request counts as 127.0.0.1 whatever it says.
        with ProxiedServer(settings(login_failures_per_minute=3), trusted="192.0.2.1") as server:
            with client(server) as http:
                assert register(http, "Pedro").status_code == 201
            with client(server) as http:
                wrong_logins(http, ["203.0.113.1", "203.0.113.2", "203.0.113.3"])
                limited = login_from(http, "203.0.113.4")
                assert limited.status_code == 429 and limited.json()["code"] == "too_many_attempts"

    def test_https_said_by_a_trusted_proxy_makes_the_cookie_secure(self) -> None:
        with ProxiedServer(settings(), trusted="127.0.0.1") as server:
            with client(server) as http:
                created = register(http, "Pedro", headers={"X-Forwarded-Proto": "https"})
                assert "secure" in cookie_flags(created)
                assert "secure" in cookie_flags(created, DEVICE_COOKIE)
                assert "server" not in created.headers  # no banner naming the software
            with client(server) as http:
                assert "secure" not in cookie_flags(login_from(http, "203.0.113.9"))

    def test_https_said_by_an_untrusted_peer_changes_nothing(self) -> None:
        with ProxiedServer(settings(), trusted="192.0.2.1") as server, client(server) as http:
            created = register(http, "Pedro", headers={"X-Forwarded-Proto": "https"})
            assert created.status_code == 201 and "secure" not in cookie_flags(created)


def cookie_flags(response: httpx.Response, name: str = SESSION_COOKIE) -> set[str]:
    (header,) = [
        value
        for key, value in response.headers.multi_items()
        if key == "set-cookie" and value.startswith(f"{name}=")
    ]
    return {part.strip().lower() for part in header.split(";")}


# Security headers ------------------------------------------------------------------------------

SITE_PATHS = [
    "/",
    "/mesa?invite=x",
    "/static/style.css",
    "/static/js/main.js",
    "/api/bots",
    "/api/me",
    "/nada",
]


def import_map_hashes(page: bytes) -> list[str]:
    found = re.findall(rb'<script type="importmap">(.*?)</script>', page, re.S)
    assert len(found) == 1, "the page has one import map"
    return [inline_script_source(found[0])]


def csp(response: httpx.Response) -> dict[str, list[str]]:
    policy = response.headers["content-security-policy"]
    return {part.split()[0]: part.split()[1:] for part in (p.strip() for p in policy.split(";")) if part}


class TestSecurityHeaders:
    @pytest.mark.parametrize("path", SITE_PATHS)
    def test_every_response_carries_them(self, server: LiveServer, path: str) -> None:
        answer = httpx.get(server.http + path, timeout=20)
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"
        policy = csp(answer)
        # The client's page adds exactly its import map, by hash (server/http/web_page.py).
        page = path == "/" or path.startswith("/mesa")
        allowed = ["'self'", *import_map_hashes(answer.content)] if page else ["'self'"]
        assert policy["script-src"] == allowed and policy["style-src"] == ["'self'"]
        assert policy["frame-ancestors"] == ["'none'"] and policy["object-src"] == ["'none'"]
        assert "unsafe-inline" not in answer.headers["content-security-policy"]

    def test_personal_answers_are_not_stored_by_caches(self, server: LiveServer) -> None:
        with client(server) as http:
            assert register(http, "Pedro").headers["cache-control"] == "no-store"
            assert http.get("/api/me").headers["cache-control"] == "no-store"
            login = http.post("/api/login", json={"name": "Pedro", "password": PASSWORD})
            assert login.headers["cache-control"] == "no-store"
            assert http.post("/api/logout", json={}).headers["cache-control"] == "no-store"
            assert http.get("/").headers["cache-control"] == "no-cache"  # the page keeps its own

    def test_the_browser_client_has_no_inline_script_style_or_handler(self) -> None:
        # What the site's policy would block: the client must not need any of it.
        for page in WEB_DIR.glob("*.html"):
            inline = InlineParts()
            inline.feed(page.read_text(encoding="utf-8"))
            assert inline.found == [], f"{page.name}: {inline.found}"
        for script in (WEB_DIR / "js").glob("*.js"):
            text = script.read_text(encoding="utf-8")
            found = re.findall(
                r"""\son[a-z]+\s*=\s*["'`]|style\s*=\s*["'`]|<script|javascript:|\beval\(""", text
            )
            assert found == [], f"{script.name}: {found}"


class InlineParts(HTMLParser):
    """Inline scripts, style elements and attributes, and event-handler attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name for name, _ in attrs}
        if tag == "script" and "src" not in names:
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        self.found += [f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")]


# /docs without internet ----------------------------------------------------------------------


class AssetLinks(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.links += [value for name, value in attrs if name in ("src", "href") and value]


class TestDocsOffline:
    @pytest.mark.parametrize("page", ["/docs", "/redoc"])
    def test_the_docs_use_only_assets_this_server_serves(self, server: LiveServer, page: str) -> None:
        answer = httpx.get(server.http + page, timeout=20)
        assert answer.status_code == 200
        assert "https://" not in answer.text and "http://" not in answer.text
        links = AssetLinks()
        links.feed(answer.text)
        assert any(link.endswith(".js") for link in links.links)
        for link in links.links:
            assert link.startswith("/") and not link.startswith("//"), link
            asset = httpx.get(server.http + link, timeout=20)
            assert asset.status_code == 200 and asset.content, link
        openapi = httpx.get(server.http + "/openapi.json", timeout=20)
        assert openapi.status_code == 200 and "/api/register" in openapi.json()["paths"]

    def test_the_docs_policy_allows_exactly_their_own_inline_script(self, server: LiveServer) -> None:
        answer = httpx.get(server.http + "/docs", timeout=20)
        hashes = script_hashes(answer.content)
        assert len(hashes) == 1 and "SwaggerUIBundle(" in answer.text
        policy = csp(answer)
        assert policy["script-src"] == ["'self'", *hashes]
        assert policy["frame-ancestors"] == ["'none'"]
        assert answer.headers["x-frame-options"] == "DENY"


# Revision 0002 on a database that already has accounts -----------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0002_gives_existing_accounts_their_skeleton(backend: str, tmp_path: Path) -> None:
    url = (
        f"sqlite+aiosqlite:///{tmp_path / 'viejo.db'}"
        if backend == "sqlite"
        else services.fresh_postgres_url()
    )
    command.upgrade(alembic_config(url), "0001")

    def old_accounts(connection: sa.Connection) -> None:
        rows = [("pedro", "pedro"), ("pеdro", "pеdro"), ("Ana", "ana")]  # the second: Cyrillic е
        for name, key in rows:
            values = {"name": name, "name_key": key, "password_hash": "h", "created_at": 1.0}
            connection.execute(users.insert().values(values))

    asyncio.run(run_in_transaction(url, old_accounts))

    async def upgraded() -> list[tuple[str, str | None]]:
        store = SqlStore(url)
        await store.start()  # migrates to head
        try:
            async with store.engine.connect() as connection:
                query = sa.select(users.c.name, users.c.name_skeleton).order_by(users.c.id)
                rows = [(row.name, row.name_skeleton) for row in (await connection.execute(query)).all()]
            assert (await store.find_user("pеdro")) is not None  # the newer look-alike still logs in
            with pytest.raises(NameTaken):
                await store.create_user("ANA", "h", 2.0)
            with pytest.raises(NameTaken):
                await store.create_user("pedr0", "h", 2.0)
            return rows
        finally:
            await store.close()

    assert asyncio.run(upgraded()) == [("pedro", "pedro"), ("pеdro", None), ("Ana", "ana")]


# SQLite files are the owner's alone ----------------------------------------------------------


@pytest.mark.anyio
async def test_sqlite_database_files_are_created_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "datos" / "tranque.db"
    store = SqlStore(f"sqlite+aiosqlite:///{path}")
    await store.start()
    try:
        await store.create_user("Pedro", "hash", 1.0)
        files = sorted(tmp_path.joinpath("datos").iterdir())
        assert [file.name for file in files] == ["tranque.db", "tranque.db-shm", "tranque.db-wal"]
        assert {file.name: stat.S_IMODE(file.stat().st_mode) for file in files} == {
            "tranque.db": 0o600,
            "tranque.db-shm": 0o600,
            "tranque.db-wal": 0o600,
        }
    finally:
        await store.close()


# `tranque serve` with its flags ----------------------------------------------------------------

SERVE = "import sys; from tranque.cli import main; sys.exit(main())"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """`tranque serve --secure-cookies --forwarded-allow-ips 192.0.2.1` on a fresh SQLite file."""
    folder = tmp_path_factory.mktemp("serve")
    port = free_port()
    command = [
        sys.executable,
        "-c",
        SERVE,
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{folder / 'sitio.db'}",
    ]
    command += ["--secure-cookies", "--forwarded-allow-ips", "192.0.2.1"]
    env = {key: value for key, value in os.environ.items() if not key.startswith("TRANQUE_")}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=folder)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:  # wait for the site to come up (a bound, not a timed assertion)
            assert process.poll() is None, "tranque serve exited"
            try:
                httpx.get(base + "/", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "tranque serve did not come up"
                time.sleep(0.1)
        yield base, folder
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        assert process.stdout is not None
        process.stdout.close()


class TestServe:
    def test_the_flags_are_in_the_help(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["--lang", "en", "serve", "--help"]) == 0
        out = capsys.readouterr().out
        assert "--secure-cookies" in out and "--forwarded-allow-ips IPS" in out

    def test_secure_cookies_no_banner_and_the_proxy_is_the_configured_one(
        self, served: tuple[str, Path]
    ) -> None:
        base, _ = served
        with httpx.Client(base_url=base, timeout=20) as http:
            created = register(http, "Pedro", headers={"X-Forwarded-For": "203.0.113.5"})
            assert created.status_code == 201
            assert "secure" in cookie_flags(created)
            assert "server" not in created.headers
            assert created.headers["x-frame-options"] == "DENY"
        # 127.0.0.1 is not the configured proxy: its X-Forwarded-For is not believed, so the
        # registration above counted against 127.0.0.1, whatever the header said.
        for number in range(4):
            with httpx.Client(base_url=base, timeout=20) as http:
                answer = register(
                    http, f"otro_{number}", headers={"X-Forwarded-For": f"203.0.113.{10 + number}"}
                )
                assert answer.status_code == 201
        with httpx.Client(base_url=base, timeout=20) as http:
            refused = register(http, "sexto_6", headers={"X-Forwarded-For": "203.0.113.99"})
            assert (refused.status_code, refused.json()["code"]) == (429, "too_many_registrations")

    def test_the_database_files_are_owner_only(self, served: tuple[str, Path]) -> None:
        _, folder = served
        modes = {file.name: stat.S_IMODE(file.stat().st_mode) for file in folder.glob("sitio.db*")}
        assert "sitio.db" in modes and set(modes.values()) == {0o600}
