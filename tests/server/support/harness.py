"""A real server for tests: uvicorn on a free loopback port in a background thread, and
scripted WebSocket players that record every frame they receive.

    with LiveServer(fast_settings()) as server:
        seated = server.post("/api/practice", {"preset": "clasico"})
        async with Player(server, seated) as player: ...
        server.advance(30)   # move the server's FakeClock, on the server's own loop
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
import websockets

from tests import services
from tranque.server import runtime
from tranque.server.app import create_app
from tranque.server.settings import Settings
from tranque.server.table.clock import FakeClock

T = TypeVar("T")
Message = dict[str, Any]


# Ports for test servers come from below the kernel's ephemeral range (32768-60999 on Linux),
# which every outgoing connection's local port is taken from, and each pytest-xdist worker has
# its own slice of them: a port handed out here is bound later (by uvicorn, a subprocess, a
# private redis-server), and in between neither another worker nor a client's connection may
# take it.
PORTS_FROM, PORTS_PER_WORKER = 20000, 1500
_next_port = itertools.count()


def free_port() -> int:
    """A loopback port nobody listens on, of this test process's own slice."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    first = PORTS_FROM + index * PORTS_PER_WORKER
    for _ in range(PORTS_PER_WORKER):
        port = first + next(_next_port) % PORTS_PER_WORKER
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # still held (a server of an earlier test in TIME_WAIT, say)
            return port
    raise RuntimeError(f"no free port in {first}-{first + PORTS_PER_WORKER - 1}")


def test_database(url: str | None) -> tuple[str | None, Path | None]:
    """Where a test server keeps its data. Servers that ask for the in-memory store get a
    fresh SQLite file or PostgreSQL database instead when TRANQUE_TEST_DB says so, so the
    same server tests run on every backend (CI runs them on both)."""
    kind = os.environ.get("TRANQUE_TEST_DB", "memory")
    if url != "memory://" or kind == "memory":
        return url, None
    if kind == "sqlite":
        folder = Path(tempfile.mkdtemp(prefix="tranque-test-"))
        return f"sqlite+aiosqlite:///{folder / 'tranque.db'}", folder
    if kind == "postgresql":
        return services.fresh_postgres_url(), None
    raise ValueError(f"TRANQUE_TEST_DB must be memory, sqlite or postgresql, not {kind!r}")


def fast_settings(database_url: str | None = "memory://", **changes: Any) -> Settings:
    """Settings for a test server: the in-memory store, a `FakeClock` the test moves, bots in
    the server's own process that answer at once, and no cap on sockets per place (every test
    client is 127.0.0.1; tests/server/ws/test_sockets_per_place.py sets one); `changes` override
    any of them."""
    values: dict[str, Any] = {
        "clock": FakeClock(),
        "bot_processes": 0,
        "bot_min_seconds": 0,
        "sockets_per_place": 10**6,
        "fairplay_sampler": False,  # a test that wants the fair-play sampler turns it on
        "tournament_in_processes": False,  # the director's pairing in a thread
    }
    return Settings(database_url=database_url, **{**values, **changes})


# Seconds a server started in a process of its own (tests/server/cluster/) may take to answer:
# a deadline against a hang, not a measure of speed. A start takes about 3 s on a quiet 2-core
# machine, and many times that while the suite's other workers drive browsers.
PROCESS_STARTUP_SECONDS = 120.0


class Loopback:
    """The HTTP and WebSocket addresses of a server on this machine's `port`."""

    port: int

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"


class LiveServer(Loopback):
    def __init__(self, settings: Settings, port: int | None = None) -> None:
        url, self._scratch = test_database(settings.database_url)
        settings.database_url = url
        # Tests send at machine speed while their FakeClock stands still: no rate limit here
        # (tests/server/ws/test_rate_limit.py and test_bot_accounts.py set their own).
        settings.socket_limits = dataclasses.replace(settings.socket_limits, burst=10**9, bot_burst=10**9)
        self.settings = settings
        self.port = port or free_port()
        self.app = create_app(settings)
        config = uvicorn.Config(  # bounded as `tranque serve` bounds it
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            **runtime.uvicorn_options(settings.limits),
        )
        self.server = uvicorn.Server(config)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self.server.serve())
        finally:
            self.loop.run_until_complete(self.loop.shutdown_asyncgens())
            self.loop.close()

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)

    @property
    def state(self) -> Any:
        return self.app.state.tranque

    def post(self, path: str, body: dict[str, Any], **kwargs: Any) -> Any:
        response = httpx.post(self.http + path, json=body, timeout=20, **kwargs)
        response.raise_for_status()
        return response.json()

    def on_server(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        """Run a coroutine on the server's loop (its tables are not thread-safe) and wait."""
        return asyncio.run_coroutine_threadsafe(make(), self.loop).result(timeout=30)

    def recorded(self) -> None:
        """Wait until the server's recorder has recorded every game that ended: their history,
        ratings and XP, which it keeps after the game's end (players/recorder.py)."""

        async def pending() -> bool:
            return bool(await self.state.store.game_ends(1))

        async def ends_stored() -> None:
            # A table's state moves first and its events are stored after: a game read over
            # may have its end still on its way to the store, and so to the recorder.
            for table in list(self.state.registry.tables.values()):
                if table.state.phase.is_over:
                    await table.until_idle()

        self.on_server(ends_stored)
        deadline = time.monotonic() + 20
        while self.on_server(pending):
            if time.monotonic() > deadline:
                raise AssertionError("the server did not record the games that ended")
            time.sleep(0.02)

    def advance(self, seconds: float) -> None:
        """Move the server's FakeClock forward, firing its timers on the server's loop."""
        clock = self.settings.clock
        assert isinstance(clock, FakeClock), "advance() needs Settings(clock=FakeClock())"

        async def move() -> None:
            clock.advance(seconds)

        self.on_server(move)


class Player:
    """One WebSocket client. `frames` keeps everything received, in order."""

    def __init__(self, server: Loopback, headers: dict[str, str] | None = None) -> None:
        self.server = server
        self.headers = headers or {}
        self.frames: list[Message] = []
        self._unread: asyncio.Queue[Message] = asyncio.Queue()
        self._socket: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._next_id = 0
        self.last_seq = 0

    async def __aenter__(self) -> Player:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> None:
        self._socket = await websockets.connect(
            self.server.ws, additional_headers=self.headers, max_size=1 << 22
        )
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            async for text in self._socket:
                message = json.loads(text)
                if message.get("type") in ("event", "sync"):
                    self.last_seq = message["seq"]
                self.frames.append(message)
                self._unread.put_nowait(message)
        except websockets.ConnectionClosed:
            pass
        self.closed()

    def closed(self) -> None:
        """The socket has closed (and every frame before it is in `frames`)."""

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await self._reader

    async def send(self, message: Message) -> Any:
        """Send a message with a fresh id; returns the id."""
        self._next_id += 1
        await self._socket.send(json.dumps({**message, "id": self._next_id}))
        return self._next_id

    async def send_raw(self, text: str | bytes) -> None:
        await self._socket.send(text)

    async def expect(self, wanted: Callable[[Message], bool], timeout: float = 10) -> Message:
        """The next received message for which `wanted` is true (skipping others)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self._unread.get()
                if wanted(message):
                    return message

    async def request(self, message: Message, timeout: float = 10) -> Message:
        """Send and wait for its answer (`ack` or `error` with the same id)."""
        message_id = await self.send(message)
        return await self.expect(
            lambda m: m.get("type") in ("ack", "error") and m.get("id") == message_id, timeout
        )
