"""GET /healthz and /readyz (http/health.py) on a real uvicorn: what they check, that a dead or
silent database makes /readyz answer 503 instead of hanging, and that they tell no secrets."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.server.support.http_helpers import live
from tranque.server.http.health import code_head
from tranque.server.store.sql import create_engine

HEAD = code_head()


def test_the_code_knows_its_head_revision() -> None:
    migrations = Path(__file__).resolve().parents[3] / "src/tranque/server/migrations/versions"
    newest = max(path.name.split("_", 1)[0] for path in migrations.glob("[0-9]*.py"))
    assert newest == HEAD


def test_healthz_answers_without_a_cookie() -> None:
    with live() as server, httpx.Client(base_url=server.http, timeout=20) as http:
        answer = http.get("/healthz")
        assert answer.status_code == 200
        assert answer.json() == {"ok": True, "node": None}
        assert "set-cookie" not in answer.headers
        assert answer.headers["x-request-id"]


def test_readyz_of_a_fresh_server_is_ready_at_head() -> None:
    with live() as server, httpx.Client(base_url=server.http, timeout=20) as http:
        answer = http.get("/readyz")
        assert answer.status_code == 200, answer.text
        # (the in-memory store, or the database TRANQUE_TEST_DB gives the test's server)
        detail = "memory" if os.environ.get("TRANQUE_TEST_DB", "memory") == "memory" else "ok"
        assert answer.json() == {
            "ready": True,
            "checks": {
                "database": {"ok": True, "detail": detail},
                "schema": {"ok": True, "revision": HEAD, "head": HEAD},
                "draining": {"ok": True},
            },
        }
        assert "set-cookie" not in answer.headers


def test_a_draining_server_is_not_ready_but_healthy() -> None:
    with live() as server, httpx.Client(base_url=server.http, timeout=20) as http:
        server.state.draining = True
        answer = http.get("/readyz")
        assert answer.status_code == 503
        assert answer.json()["ready"] is False
        assert answer.json()["checks"]["draining"] == {"ok": False}
        assert http.get("/healthz").status_code == 200
        server.state.draining = False
        assert http.get("/readyz").status_code == 200  # nothing cached


def test_readyz_compares_the_databases_revision_with_the_codes(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'site.db'}"
    with live(url) as server, httpx.Client(base_url=server.http, timeout=20) as http:
        ready = http.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["checks"]["database"] == {"ok": True, "detail": "ok"}
        assert ready.json()["checks"]["schema"] == {"ok": True, "revision": HEAD, "head": HEAD}

        async def older() -> None:
            async with server.state.store.engine.begin() as connection:
                await connection.execute(sa.text("UPDATE alembic_version SET version_num = '0001'"))

        server.on_server(older)
        behind = http.get("/readyz")
        assert behind.status_code == 503
        assert behind.json()["checks"]["schema"] == {"ok": False, "revision": "0001", "head": HEAD}
        assert behind.json()["checks"]["database"]["ok"] is True


@contextlib.contextmanager
def silent_listener() -> Iterator[int]:
    """A port that accepts connections and never says a word: a database that hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield listener.getsockname()[1]
    finally:
        stop.set()
        thread.join(5)
        for connection in accepted:
            connection.close()
        listener.close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("database", ["silent", "refusing"])
def test_an_unreachable_database_is_not_ready_at_once_and_its_url_is_not_told(
    database: str, tmp_path: Path
) -> None:
    """The server's engine is pointed at a PostgreSQL that hangs (a listener that never
    answers) or refuses: /readyz says 503 with the kind of trouble, never the URL."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'site.db'}"
    with contextlib.ExitStack() as stack, live(url) as server:
        port = stack.enter_context(silent_listener()) if database == "silent" else closed_port()
        dead = create_engine(f"postgresql+asyncpg://tranque:Hidden-Pass-77@127.0.0.1:{port}/tranque")
        store = server.state.store
        working, store._engine = store._engine, dead
        try:
            with httpx.Client(base_url=server.http, timeout=30) as http:
                answer = http.get("/readyz")
                health = http.get("/healthz")
        finally:
            store._engine = working

            async def dispose() -> None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(dead.dispose(), 5)

            server.on_server(dispose)
        assert answer.status_code == 503
        checks = answer.json()["checks"]
        assert checks["database"]["ok"] is False
        if database == "silent":
            assert checks["database"]["detail"] == "timeout"
        else:
            assert checks["database"]["detail"] not in ("", "ok", "timeout")
        assert checks["schema"] == {"ok": False, "revision": None, "head": HEAD}
        for secret in ("Hidden-Pass-77", "tranque:", str(port), "127.0.0.1"):
            assert secret not in answer.text
        assert health.status_code == 200


def test_a_redis_that_stops_answering_makes_the_process_not_ready(tmp_path: Path) -> None:
    """With several processes (`redis_url`), Redis is checked too: a private redis-server,
    killed mid-test, turns /readyz to 503 while /healthz still answers."""
    import subprocess

    from tests import services
    from tests.server.support.harness import free_port

    port = free_port()
    command = [
        "redis-server",
        "--port",
        str(port),
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(tmp_path),
    ]
    try:
        redis = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        services.unavailable("redis-server is not installed (apt-get install redis-server)")
    try:
        for _ in range(200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
            threading.Event().wait(0.05)
        url = services.fresh_postgres_url()
        with live(url, redis_url=f"redis://127.0.0.1:{port}/0") as server:
            with httpx.Client(base_url=server.http, timeout=30) as http:
                ready = http.get("/readyz")
                assert ready.status_code == 200, ready.text
                assert ready.json()["checks"]["redis"] == {"ok": True, "detail": "ok"}
                redis.kill()
                redis.wait(10)
                down = http.get("/readyz")
                assert http.get("/healthz").status_code == 200
            assert down.status_code == 503
            assert down.json()["checks"]["redis"]["ok"] is False
            assert down.json()["checks"]["database"] == {"ok": True, "detail": "ok"}
            assert str(port) not in down.text
    finally:
        redis.kill()
        redis.wait(10)
