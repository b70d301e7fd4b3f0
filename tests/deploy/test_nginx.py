"""docs/deploy.md's nginx configuration, run as written in front of two `tranque serve`
processes on PostgreSQL and Redis.

The test reads the configuration out of the page (its one ```nginx block that defines the
upstreams), changes only its ports, and starts Debian's nginx (`/usr/sbin/nginx`) as a
master process of its own (own prefix, pid file and logs, on free ports). Both processes are
restarted in turn (SIGTERM, then started again) while WebSockets through nginx stay open;
then 30 new WebSocket handshakes through nginx must all upgrade (`101`). With one shared
upstream whose servers have `max_fails=1`, most of them got `502` after such a restart.

Also through nginx: the admins' list of processes names both, and a drain asked of either
process reaches the named one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from tests import services
from tests.server.support.harness import free_port
from tranque.cli import main as cli_main

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "docs" / "deploy.md"
NGINX = "/usr/sbin/nginx"
DOC_PORTS = ("127.0.0.1:8001", "127.0.0.1:8002")
PASSWORD = "dominó-de-prueba-9271"

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(
        os.environ.get("TRANQUE_TEST_DB", "memory") != "memory",
        reason="runs on PostgreSQL and Redis whatever TRANQUE_TEST_DB says; run in the main pass",
    ),
]


def documented_config() -> str:
    """The ```nginx block of docs/deploy.md that defines the upstreams, as written."""
    blocks: list[str] = re.findall(r"```nginx\n(.*?)```", DEPLOY.read_text(encoding="utf-8"), re.DOTALL)
    (config,) = [block for block in blocks if "upstream tranque" in block]
    return config


def runnable_config(prefix: Path, nginx_port: int, ports: tuple[int, int]) -> str:
    """The documented configuration with its ports changed, inside the few lines a master
    process of its own needs (no `user`, its own pid file, logs and temporary files)."""
    config = documented_config()
    for documented, port in zip(DOC_PORTS, ports, strict=True):
        assert config.count(documented) == 2, f"{documented}: once per upstream"
        config = config.replace(documented, f"127.0.0.1:{port}")
    assert config.count("listen 8080;") == 1
    config = config.replace("listen 8080;", f"listen 127.0.0.1:{nginx_port};")
    temp = {name: prefix / name for name in ("client", "proxy", "fastcgi", "uwsgi", "scgi")}
    for folder in temp.values():
        folder.mkdir()
        folder.chmod(0o777)  # nginx's workers run as `nobody` when the master is root
    return f"""
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 1024; }}
http {{
    access_log {prefix / "access.log"};
    client_body_temp_path {temp["client"]};
    proxy_temp_path {temp["proxy"]};
    fastcgi_temp_path {temp["fastcgi"]};
    uwsgi_temp_path {temp["uwsgi"]};
    scgi_temp_path {temp["scgi"]};
{config}
}}
"""


def nginx_or_skip() -> str:
    if os.path.exists(NGINX):
        return NGINX
    message = f"nginx is not installed ({NGINX}): apt-get install nginx (.ci/run does)"
    if os.environ.get("TRANQUE_REQUIRE_SERVICES") == "1" or os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@contextlib.contextmanager
def nginx(prefix: Path, nginx_port: int, ports: tuple[int, int]) -> Iterator[subprocess.Popen[bytes]]:
    binary = nginx_or_skip()
    conf = prefix / "nginx.conf"
    conf.write_text(runnable_config(prefix, nginx_port, ports), encoding="utf-8")
    checked = subprocess.run(
        [binary, "-t", "-p", str(prefix), "-c", str(conf)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    with (prefix / "stderr.log").open("ab") as stderr:
        process = subprocess.Popen(
            [binary, "-p", str(prefix), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    try:
        wait_for(lambda: answers(f"http://127.0.0.1:{nginx_port}/api/cluster") is not None, "nginx up")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


class Serve:
    """One `tranque serve` process of this tree, on a port of its own that it keeps."""

    def __init__(self, index: int, database_url: str, redis_url: str, prefix: str, logs: Path) -> None:
        self.port = free_port()
        self.log = logs / f"serve-{index}.log"
        self.args = [
            sys.executable,  # the `tranque` console script of this tree
            "-c",
            "import sys; from tranque.cli import main; sys.exit(main())",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--db",
            database_url,
            "--redis",
            redis_url,
            "--forwarded-allow-ips",
            "127.0.0.1",
        ]
        self.env = {
            **os.environ,
            "PYTHONPATH": str(ROOT / "src"),
            "TRANQUE_REDIS_PREFIX": prefix,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.node: str | None = None

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.args, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=ROOT
            )
        url = f"http://127.0.0.1:{self.port}/api/cluster"

        def ready() -> bool:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()[-3000:]
            found = answers(url)
            if found is not None:
                self.node = found["node"]
            return found is not None

        wait_for(ready, f"tranque serve on {self.port}", seconds=60)

    def stop(self) -> None:
        """SIGTERM, as systemd stops it: it gives its tables' leases back."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def answers(url: str) -> Any:
    with contextlib.suppress(httpx.HTTPError):
        answer = httpx.get(url, timeout=2)
        if answer.status_code == 200:
            return answer.json()
    return None


def wait_for(condition: Any, what: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def handshake(nginx_port: int) -> tuple[int, Any]:
    """A WebSocket handshake through nginx: its status, and the socket if it upgraded."""
    origin = f"http://127.0.0.1:{nginx_port}"
    try:
        socket = await websockets.connect(f"ws://127.0.0.1:{nginx_port}/ws", origin=origin, open_timeout=10)  # type: ignore[arg-type]
    except InvalidStatus as refused:
        return refused.response.status_code, None
    return 101, socket


async def hold(nginx_port: int, count: int, held: list[Any]) -> list[int]:
    statuses = []
    for _ in range(count):
        status, socket = await handshake(nginx_port)
        statuses.append(status)
        if socket is not None:
            held.append(socket)
    return statuses


@pytest.fixture
def serve_pair(tmp_path: Path) -> Iterator[list[Serve]]:
    database_url = services.fresh_postgres_url()
    redis_url = services.redis_url()
    prefix = services.unique_name("tranque-nginx")
    processes = [Serve(index, database_url, redis_url, prefix, tmp_path) for index in range(2)]
    try:
        for process in processes:  # one after the other: the first makes the schema
            process.start()
        yield processes
    finally:
        for process in processes:
            process.stop()


async def test_after_a_rolling_restart_every_websocket_handshake_through_nginx_upgrades(
    serve_pair: list[Serve], tmp_path: Path
) -> None:
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    nginx_port = free_port()
    first, second = serve_pair
    held: list[Any] = []
    with nginx(prefix, nginx_port, (first.port, second.port)):
        try:
            assert await hold(nginx_port, 4, held) == [101] * 4
            for process in (first, second):  # a rolling restart, sockets held through it
                await asyncio.to_thread(process.stop)
                # While it is down, handshakes reach the other process (nginx skips the one
                # that refuses); with `max_fails` they would mark it failed.
                assert await hold(nginx_port, 4, held) == [101] * 4
                await asyncio.to_thread(process.start)
                assert await hold(nginx_port, 2, held) == [101] * 2  # sockets that stay open
            # Past `fail_timeout`: the moment a shared upstream with max_fails=1 lets one
            # request through to each process, and an upgraded socket never ends it.
            await asyncio.sleep(5.5)
            assert await hold(nginx_port, 2, held) == [101] * 2
            statuses = await hold(nginx_port, 30, held)
            print(f"30 handshakes through nginx after a rolling restart: {statuses.count(101)} upgraded")
            assert statuses == [101] * 30
            # Both processes took some: nginx spreads them, none is skipped.
            counts = [answers(f"http://127.0.0.1:{p.port}/api/cluster") for p in (first, second)]
            assert all(count is not None for count in counts)
        finally:
            for socket in held:
                with contextlib.suppress(Exception):
                    await socket.close()


async def test_the_admins_see_both_processes_through_nginx_and_drain_one(
    serve_pair: list[Serve], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    nginx_port = free_port()
    first, second = serve_pair
    site = f"http://127.0.0.1:{nginx_port}"
    with (
        nginx(prefix, nginx_port, (first.port, second.port)),
        httpx.Client(base_url=site, timeout=20) as http,
    ):
        name = f"admin{secrets.token_hex(3)}"
        registered = http.post(
            "/api/register", json={"name": name, "password": PASSWORD}, headers={"Origin": site}
        )
        assert registered.status_code == 201, registered.text
        assert http.get("/api/admin/processes").json()["code"] == "not_an_admin"
        database_url = first.args[first.args.index("--db") + 1]
        assert await asyncio.to_thread(cli_main, ["admin", "grant", name, "admin", "--db", database_url]) == 0
        capsys.readouterr()

        def listed() -> list[dict[str, Any]]:
            answer = http.get("/api/admin/processes")
            assert answer.status_code == 200, answer.text
            rows: list[dict[str, Any]] = answer.json()["processes"]
            return rows

        seen: list[list[dict[str, Any]]] = []

        def both_listed() -> bool:
            seen.append(listed())
            return len(seen[-1]) == 2

        # (a process lists those it heard from in the last seconds: read the list that had both)
        await asyncio.to_thread(wait_for, both_listed, "both processes listed")
        rows = seen[-1]
        assert {row["node"] for row in rows} == {first.node, second.node}
        assert sum(row["this"] for row in rows) == 1
        assert all(
            set(row) == {"node", "tables_owned", "replicas", "sockets", "draining", "this"} for row in rows
        )

        unknown = http.post("/api/admin/processes/nobody-1-abc/drain", headers={"Origin": site})
        assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_process")
        # Asked of the second process directly, the drain reaches the first over the bus.
        direct = httpx.Client(base_url=f"http://127.0.0.1:{second.port}", cookies=http.cookies, timeout=20)
        with direct:
            origin = {"Origin": f"http://127.0.0.1:{second.port}"}
            answers: list[httpx.Response] = []

            def drain_sent() -> bool:  # (404 while the second has not heard from the first lately)
                answers.append(direct.post(f"/api/admin/processes/{first.node}/drain", headers=origin))
                return answers[-1].status_code != 404

            await asyncio.to_thread(wait_for, drain_sent, "the drain reached a process that knows the first")
            drained = answers[-1]
            assert drained.status_code == 200, drained.text
            assert drained.json() == {"node": first.node, "draining": True}

            def first_drains() -> bool:
                rows = direct.get("/api/admin/processes").json()["processes"]
                return any(row["node"] == first.node and row["draining"] for row in rows)

            await asyncio.to_thread(wait_for, first_drains, "the first process says it drains")
        mine = httpx.get(f"http://127.0.0.1:{first.port}/api/admin/processes", cookies=http.cookies).json()
        (this,) = [row for row in mine["processes"] if row["this"]]
        assert this["node"] == first.node and this["draining"] is True


def test_the_documented_systemd_unit_is_accepted_by_systemd_analyze(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the unit is checked where it is")
    text = DEPLOY.read_text(encoding="utf-8")
    (unit,) = re.findall(r"```ini\n(# /etc/systemd/system/tranque@\.service\n.*?)```", text, re.DOTALL)
    # The unit as written, but for the paths this machine has: its program and folders.
    tranque = tmp_path / "venv" / "bin" / "tranque"
    tranque.parent.mkdir(parents=True)
    tranque.write_text("#!/bin/sh\n", encoding="utf-8")
    tranque.chmod(0o755)
    environment = tmp_path / "tranque.env"
    environment.write_text("", encoding="utf-8")
    unit = (
        unit.replace("/opt/tranque/venv/bin/tranque", str(tranque))
        .replace("/etc/tranque/tranque.env", str(environment))
        .replace("/var/lib/tranque", str(tmp_path))
    )
    path = tmp_path / "tranque@8001.service"
    path.write_text(unit, encoding="utf-8")
    checked = subprocess.run([analyze, "verify", str(path)], capture_output=True, text=True)
    problems = [
        line
        for line in (checked.stdout + checked.stderr).splitlines()
        if str(path.name) in line or "tranque" in line
    ]
    assert checked.returncode == 0 and not problems, checked.stdout + checked.stderr
