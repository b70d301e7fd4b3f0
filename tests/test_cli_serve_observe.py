"""`tranque serve` as an operator watches it: no password or token in its output, whatever is
asked of it; and with `--workers 2` one scrape of /metrics adds up both processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest
from prometheus_client.parser import text_string_to_metric_families

import tranque
from tests import services
from tests.cli_helpers import flat, forbid, one_line_error
from tests.server.support.harness import free_port
from tranque.cli import main

SERVE = "import sys; from tranque.cli import main; sys.exit(main())"
SOURCE = Path(tranque.__file__).resolve().parent.parent
WAIT = 90  # seconds: a bound on waiting for the site, never an assertion on speed


@contextlib.contextmanager
def private_redis(tmp_path: Path, password: str) -> Iterator[str]:
    """A redis-server of this test's own that asks for `password`."""
    port = free_port()
    command = ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"]
    try:
        process = subprocess.Popen(
            [*command, "--dir", str(tmp_path), "--requirepass", password],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        services.unavailable("redis-server is not installed (apt-get install redis-server)")
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                import socket

                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the private redis-server did not start"
                time.sleep(0.05)
        yield f"redis://:{password}@127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait(10)


@contextlib.contextmanager
def serving(
    args: list[str], tmp_path: Path, env: dict[str, str] | None = None
) -> Iterator[tuple[int, list[str], int]]:
    """`tranque serve ARGS --port P` until the block ends (then Ctrl+C); yields the port, a
    list that holds the process's whole output (stdout and stderr) once the block is over,
    and the process's pid."""
    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TRANQUE_")}
    environment["PYTHONPATH"] = str(SOURCE)  # this tree's code, from the test's own directory too
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--port", str(port), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**environment, **(env or {})},
        cwd=tmp_path,
        start_new_session=True,
    )
    output: list[str] = []
    try:
        deadline = time.monotonic() + WAIT
        while True:
            if process.poll() is not None:
                assert process.stdout is not None
                raise AssertionError(f"tranque serve exited: {process.stdout.read()}")
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "tranque serve did not come up"
            time.sleep(0.1)
        yield port, output, process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
        assert process.stdout is not None
        output.append(process.stdout.read())
        process.stdout.close()


def test_no_password_or_token_reaches_the_output(tmp_path: Path) -> None:
    pg_password, redis_password = "Pg-Pass-31415", "Redis-Pass-27182"
    metrics_token, query_token = "Metrics-Token-16180", "Query-Token-14142"
    # The machine's PostgreSQL trusts local connections: the password is in the URL, never needed.
    database = services.fresh_postgres_url().replace("postgres@", f"postgres:{pg_password}@", 1)
    assert pg_password in database
    sessions: list[str] = []
    with private_redis(tmp_path, redis_password) as redis:
        args = ["--db", database, "--redis", redis, "--log-format", "json", "--access-log"]
        with (
            serving(args, tmp_path, {"TRANQUE_METRICS_TOKEN": metrics_token}) as (port, output, _),
            httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http,
        ):
            ready = http.get("/readyz")
            assert ready.status_code == 200, ready.text
            assert set(ready.json()["checks"]) == {"database", "redis", "schema", "draining"}
            body = {"name": "vigia", "password": "una clave muy larga de vigia"}
            assert http.post("/api/register", json=body).status_code == 201
            http.cookies.clear()
            logged_in = http.post("/api/login", json=body)
            assert logged_in.status_code == 200, logged_in.text
            sessions.append(logged_in.cookies["tranque_session"])
            assert http.get("/api/me").status_code == 200
            assert (
                http.post("/api/login", json={**body, "password": "otra clave equivocada"}).status_code == 401
            )
            assert http.get(f"/api/no-such-thing?token={query_token}").status_code == 404
            assert http.get("/metrics").status_code == 401
            scraped = http.get("/metrics", headers={"Authorization": f"Bearer {metrics_token}"})
            assert scraped.status_code == 200 and "tranque_refusals_total" in scraped.text
    out = output[0]
    for secret in (pg_password, redis_password, metrics_token, query_token, *sessions):
        assert secret not in out, f"{secret} is in the output"
    assert f"Base de datos: {database.replace(pg_password, '***')}" in flat(out)
    assert "coordinados por Redis en redis://:***@127.0.0.1:" in flat(out)
    logged = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    access = [line for line in logged if line["logger"] == "uvicorn.access"]
    assert any("/api/no-such-thing?token=***" in line["message"] for line in access), access
    assert all({"time", "level", "logger", "process", "message", "request"} <= set(line) for line in access)
    assert any(line.get("account") is not None for line in access)  # /api/me's line names its account


def worker_sockets(supervisor: int, port: int) -> dict[int, int]:
    """Each uvicorn worker's established connections on `port` (by pid)."""
    counts: dict[int, int] = {}
    for child in psutil.Process(supervisor).children(recursive=True):
        with contextlib.suppress(psutil.Error):
            connections = child.net_connections(kind="tcp")
            counts[child.pid] = sum(
                1
                for c in connections
                if c.status == psutil.CONN_ESTABLISHED and c.laddr and c.laddr.port == port
            )
    return {pid: count for pid, count in counts.items() if count}


def sockets_metric(port: int) -> float:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "tranque_open_sockets":
                return sample.value
    raise AssertionError("no tranque_open_sockets on the page")


def test_one_scrape_adds_up_both_worker_processes(tmp_path: Path) -> None:
    database = services.fresh_postgres_url().replace("postgresql+asyncpg://", "postgresql://")
    redis = services.redis_url()
    args = ["--workers", "2", "--db", database, "--redis", redis]
    with serving(args, tmp_path) as (port, output, supervisor):

        async def watch() -> dict[str, Any]:
            import websockets

            async with contextlib.AsyncExitStack() as stack:
                opened = 0
                deadline = time.monotonic() + WAIT
                while True:  # sockets until each process holds some (the kernel shares them out)
                    await stack.enter_async_context(websockets.connect(f"ws://127.0.0.1:{port}/ws"))
                    opened += 1
                    await asyncio.sleep(0.05)
                    held = await asyncio.to_thread(worker_sockets, supervisor, port)
                    if len(held) == 2 and sum(held.values()) == opened:
                        break
                    assert opened < 40 and time.monotonic() < deadline, held
                scrapes = [await asyncio.to_thread(sockets_metric, port) for _ in range(6)]
                # One worker dies (SIGKILL, no goodbye): uvicorn starts another, and the dead
                # one's sockets stop counting (its files marked dead, metrics.py).
                killed, survivor = sorted(held)
                os.kill(killed, signal.SIGKILL)
                after_kill = await asyncio.to_thread(sockets_metric, port)
                while after_kill != held[survivor]:
                    assert time.monotonic() < deadline + WAIT, (after_kill, held)
                    await asyncio.sleep(0.2)
                    with contextlib.suppress(httpx.TransportError):
                        after_kill = await asyncio.to_thread(sockets_metric, port)
                return {
                    "opened": opened,
                    "held": held,
                    "scrapes": scrapes,
                    "after_kill": after_kill,
                    "left": held[survivor],
                }

        seen = asyncio.run(watch())
        after = sockets_metric(port)
    held = seen["held"]
    assert len(held) == 2 and min(held.values()) >= 1  # both processes hold sockets...
    assert (
        seen["scrapes"] == [seen["opened"]] * 6
    )  # ...and every scrape, whichever process answers, counts all
    assert seen["after_kill"] == seen["left"] < seen["opened"]  # the dead worker's sockets: not counted
    assert after == 0  # closed: the gauges of both went down
    assert "Procesos: 2, coordinados por Redis" in flat(output[0])


def test_an_unknown_log_format_is_one_line_before_anything_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    forbid(monkeypatch, "the site", "uvicorn.run")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRANQUE_REDIS_URL", raising=False)
    monkeypatch.setenv("TRANQUE_LOG_FORMAT", "xml")
    monkeypatch.setenv("TRANQUE_DATABASE_URL", "memory://")
    assert main(["serve"]) == 2
    assert 'TRANQUE_LOG_FORMAT: "xml" no es uno de: text, json, logfmt' in one_line_error(capsys.readouterr())
