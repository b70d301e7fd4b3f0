"""Load test of the real-time server: N tables of 4 simulated people over real WebSockets.

    python benchmarks/server_load.py --tables N [--think 0.5-2 | --think 0] [--duration S]
                                     [--db memory|sqlite|postgresql] [--workers K] [--stagger S]
                                     [--processes P --redis [URL] --db postgresql]

It starts the server itself, in a subprocess (this file run with `--serve`), as `tranque serve`
runs it: `create_app(Settings(database_url=...))` with the default settings (the socket limits
among them: 20 messages at once, then 5 a second, which no player here comes near), the
garbage collected on the clock (`runtime.tune_garbage_collector()`, collector.py), and uvicorn with
`runtime.uvicorn_options` and the socket limits' pings, on a free loopback port. `--db sqlite`
is a SQLite file in a scratch directory, the store `tranque serve` opens by default (WAL,
synchronous=NORMAL, the appends group-committed on the loop once per turn). The server creates N
practice-like tables (clasico, 4 players in pairs, target high enough that no game ends during
the run) with all four seats taken by humans, and writes the (table, seat, token) list to a
JSON file. Then K client processes (`load_client.py`) open 4N sockets, say hello with each
seat's token and play: on its turn each player waits a think time drawn uniformly from the
range (or none) and sends a legal `act`; it says `ready` between rounds. Once every socket is
in, the games start: all at once (the default: every table's first round then ends within the
same few seconds, a tournament's start), or spread evenly over `--stagger S` seconds (a site's
steady state, where games are at every stage); the first part of the run is warm-up (at least
the stagger), the rest is measured:

* actions/s accepted (the players' own moves) and server-made moves (forced passes);
* latency from sending an `act` to receiving the `action` event for it: p50 / p99 / max;
* errors (error frames by code), disconnects, connect failures;
* server CPU per accepted action (ms of one core per `act` accepted in the window), server
  RSS at the end and memory per table (RSS growth since before any table existed / tables),
  client CPU and loop lag;
* young garbage collections per second, and how long the collector's full pass (every 15
  minutes) stalls the loop, run once at the end.

Everything runs on 127.0.0.1; the run stops after --duration seconds of play and kills the
server. Goal: 1,000 tables (4,000 sockets) at p99 <= 150 ms with think 0.5-2 s.

`--db postgresql` is a new database on the local PostgreSQL (TRANQUE_BENCH_POSTGRES_URL, default
postgresql://postgres@127.0.0.1:5432/postgres, must allow CREATE DATABASE), dropped at the end.
Several processes (docs/deploy.md): `--processes P --redis [URL] --db postgresql` starts P
server processes, each on its own port with `Settings(redis_url=..., cluster=ClusterSettings(
prefix=...))` (a prefix of the run's own, its Redis keys deleted at the end; URL defaults to
redis://127.0.0.1:6379/0). The first starts alone (it makes the schema); once all are up, each
makes its share of the N tables (so it owns them), and every process has loaded the others'
as replicas before the clients connect. Each socket goes to a process in turn (`--connect
round-robin`, the default) or at random (`--connect random`), as behind a load balancer: with
P = 2, half of each table's sockets are on a process that does not own it. The table then
shows the latency for sockets on the owner and on another process apart; the CPU, RSS, full
garbage collection and GET /api/cluster counters of each process (CPU per accepted action:
that process's CPU over every action the run accepted, so the processes' figures add up to
the total); and the CPU PostgreSQL's and Redis's processes used (also with --db postgresql
alone). --py-spy profiles the first process.

Other options: --server-deflate on|off (uvicorn's ws_per_message_deflate; off by default, as
`tranque serve` runs it), --server-gc default|tuned (tuned by default, as `tranque serve` runs
it: tranque.server.runtime), --compression deflate|none (what the
clients offer; browsers offer deflate), --py-spy OUT (profile the server over the window;
`.venv/bin/pip install py-spy` first), --dump OUT (every latency with its send time). The
machine may be shared, so the table also shows the CPU other processes used meanwhile.
Experiments, by environment variable:
BENCH_AIOSQLITE_APPENDS=1 (a SQLite file's appends group-committed through SQLAlchemy and
aiosqlite, not on their own thread), BENCH_SQLALCHEMY_APPENDS=1 (PostgreSQL's appends through
SQLAlchemy's engine, as every other statement, not on asyncpg directly), BENCH_COALESCE=1 (queued
messages leave in one JSON-array frame: what fewer frames per action would save),
BENCH_GC_LOG=FILE (log every garbage collection of 20 ms or more, and what the heap holds),
BENCH_GC_CYCLES=FILE (what the full collection at the end finds, by type: FILE.<pid>).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_client import raise_open_files_limit, run_async
from tranque.server.collector import FREEZE_SECONDS, FULL_SECONDS

HERE = Path(__file__).resolve().parent
TARGET = 1_000_000  # no game reaches it within a run
LAUNCH_TIMEOUT = 120.0
CONNECT_TIMEOUT = 300.0
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"  # $TRANQUE_BENCH_POSTGRES_URL
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


# The server launcher (python server_load.py --serve ...) ------------------------------------


def _log_collections(path: str) -> None:
    started: list[float] = [0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        took = time.perf_counter() - started[0]
        if took >= 0.02:
            with open(path, "a") as log:
                log.write(
                    f"{time.time():.3f} gen{info['generation']} {took * 1000:.0f} ms "
                    f"collected {info['collected']} tracked {len(gc.get_objects())}\n"
                )

    gc.callbacks.append(callback)


def _log_cycles(path: str) -> None:
    """The garbage a full collection finds now (cycles among objects once frozen), by type,
    with a sample of each kind's shortest text: written to PATH.<pid>."""
    from collections import Counter

    gc.unfreeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    gc.collect()
    gc.set_debug(0)
    found = list(gc.garbage)
    gc.garbage.clear()
    kinds = Counter(type(thing).__qualname__ for thing in found)
    samples: dict[str, str] = {}
    for thing in found:
        name = type(thing).__qualname__
        if name not in samples and name in dict(kinds.most_common(25)):
            with contextlib.suppress(Exception):
                samples[name] = repr(thing)[:300]
    with open(f"{path}.{os.getpid()}", "w") as log:
        log.write(f"{len(found)} objects in garbage cycles\n")
        for name, count in kinds.most_common(25):
            log.write(f"{count:8d}  {name}  {samples.get(name, '')}\n")
    del found
    gc.collect()
    gc.freeze()


def _coalesce_frames() -> None:
    """Experiment (needs clients that accept arrays): what fewer frames per action would save."""
    from tranque.server.ws.connection import Connection

    async def write(self: Any) -> None:
        queue, loop = self._queue, asyncio.get_running_loop()
        while True:
            if not queue:
                self._wakeup = loop.create_future()
                await self._wakeup
                continue
            texts = list(queue)
            queue.clear()
            self._owed = 0
            self._room.set()
            end = None in texts
            texts = [text for text in texts if text is not None]
            try:
                if len(texts) == 1:
                    await self.websocket.send_text(texts[0])
                elif texts:
                    await self.websocket.send_text("[" + ",".join(texts) + "]")
            except Exception:
                self.closed = True
                return
            if end:
                return

    Connection._write = write  # type: ignore[method-assign]


async def serve(args: argparse.Namespace) -> None:
    """The server as `tranque serve` runs it (settings, uvicorn options, pings, garbage
    collector), plus one route that starts every game at once."""
    import uvicorn

    from tranque.engine import Rules
    from tranque.server import runtime
    from tranque.server.app import create_app
    from tranque.server.settings import Settings
    from tranque.server.table import commands
    from tranque.server.table.actor import TableOptions
    from tranque.terminal.serve import proxy_options

    raise_open_files_limit()
    if os.environ.get("BENCH_GC_LOG"):  # diagnosis: every garbage collection pass that took >= 20 ms
        _log_collections(os.environ["BENCH_GC_LOG"])
    if os.environ.get("BENCH_COALESCE"):  # experiment: queued messages leave as one JSON-array frame
        _coalesce_frames()
    if os.environ.get("BENCH_AIOSQLITE_APPENDS"):  # A/B: a SQLite file's appends through aiosqlite
        from tranque.server.store.sql import tables as sql_tables

        setattr(sql_tables, "sqlite_file", lambda url: None)  # noqa: B010 (a function replaced for the run)
    if os.environ.get("BENCH_SQLALCHEMY_APPENDS"):  # A/B: PostgreSQL's appends through SQLAlchemy
        from tranque.server.store.sql import SqlStore

        started = SqlStore.start

        async def start_without_batches(store: SqlStore) -> None:
            await started(store)
            store._batches = None

        setattr(SqlStore, "start", start_without_batches)  # noqa: B010 (a method replaced for the run)
    if args.redis_url:  # one process of a cluster (--processes P): its share of the tables is its own
        from tranque.server.cluster.settings import ClusterSettings

        cluster = ClusterSettings(prefix=args.cluster_prefix)
        settings = Settings(database_url=args.database_url, redis_url=args.redis_url, cluster=cluster)
    else:
        settings = Settings(database_url=args.database_url)
    app = create_app(settings)
    tables: list[Any] = []
    young_before = [0]
    # Another benchmark's load on the same server, started with the games (tournament_load.py):
    # BENCH_SERVE_HOOK=module:function, called with the app, returns what starts it.
    extra_load = None
    if os.environ.get("BENCH_SERVE_HOOK"):
        import importlib

        module, _, function = os.environ["BENCH_SERVE_HOOK"].partition(":")
        extra_load = getattr(importlib.import_module(module), function)(app)

    async def start_games(stagger: float = 0.0) -> dict[str, int]:
        if os.environ.get("BENCH_GC_LOG"):
            from collections import Counter

            kinds = Counter(type(thing).__qualname__ for thing in gc.get_objects())
            with open(os.environ["BENCH_GC_LOG"], "a") as log:
                log.write(f"--- games start, tracked {sum(kinds.values())}: {kinds.most_common(15)}\n")
        young_before[0] = gc.get_stats()[0]["collections"]
        loop = asyncio.get_running_loop()
        for number, table in enumerate(tables):  # on each table's actor, together or spread out
            loop.call_later(stagger * number / len(tables), table.post, commands.StartGame())
        if extra_load is not None:
            await extra_load()
        return {"started": len(tables)}

    async def full_collection() -> dict[str, Any]:
        """The young collections so far, and what the collector's full pass (every
        `collector.FULL_SECONDS`) finds and stalls the loop for now."""
        collector = app.state.tranque.collector
        young = gc.get_stats()[0]["collections"] - young_before[0]
        if collector is None:
            return {"ms": None, "young": young}
        if os.environ.get("BENCH_GC_CYCLES"):  # diagnosis: what the full collection finds, by type
            _log_cycles(os.environ["BENCH_GC_CYCLES"])
        collector.collect_all()
        return {"ms": collector.last_full_ms, "found": collector.last_full_found, "young": young}

    app.add_api_route("/_bench/start", start_games, methods=["POST"], include_in_schema=False)
    app.add_api_route("/_bench/full_gc", full_collection, methods=["POST"], include_in_schema=False)
    if args.server_gc == "tuned":
        runtime.tune_garbage_collector()
    served_as = {
        **runtime.uvicorn_options(settings.limits),
        "ws_ping_interval": settings.socket_limits.ping_seconds,
        "ws_ping_timeout": settings.socket_limits.pong_seconds,
        **proxy_options(argparse.Namespace(forwarded_allow_ips=None)),
    }
    if args.server_deflate == "on":
        served_as["ws_per_message_deflate"] = True
    if args.ws != "served":
        served_as["ws"] = args.ws
    config = uvicorn.Config(
        app, host="127.0.0.1", port=args.port, log_level="warning", lifespan="on", **served_as
    )
    server = uvicorn.Server(config)
    serving = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        if serving.done():
            serving.result()
            return
        await asyncio.sleep(0.05)
    import psutil as server_psutil

    Path(args.seats_out + ".rss").write_text(str(server_psutil.Process().memory_info().rss))
    if args.go_file:  # a cluster: every process is up (and the schema made) before any table
        while not Path(args.go_file).exists():
            await asyncio.sleep(0.05)
    registry = app.state.tranque.registry
    rules = Rules.preset("clasico", players=4, mode="pairs", target=TARGET)
    seats = []
    for number in range(args.load_tables):
        options = TableOptions(**{**registry.defaults, "kind": "practice"})
        table = await registry.create(rules, options)
        for seat in table.seats:
            token = await table.take_seat(seat, f"Jugador {number}.{seat.index}", None)
            seats.append({"table": table.table_id, "seat": seat.index, "token": token})
        tables.append(table)
    partial = Path(args.seats_out + ".part")
    partial.write_text(json.dumps(seats))
    partial.rename(args.seats_out)
    await serving


# The benchmark ----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def wait_for_file(path: Path, server: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        if server.poll() is not None:
            raise SystemExit(f"the server exited with {server.returncode} before it was ready")
        if time.monotonic() > deadline:
            raise SystemExit("the server did not create its tables in time")
        time.sleep(0.1)


def _busy(times: Any) -> float:
    fields = ("user", "nice", "system", "irq", "softirq", "steal")
    return float(sum(getattr(times, name, 0.0) for name in fields))


def read_json_line(worker: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    assert worker.stdout is not None
    deadline = time.monotonic() + timeout
    while True:
        line = worker.stdout.readline()
        if line.strip().startswith("{"):
            data: dict[str, Any] = json.loads(line)
            return data
        if not line and worker.poll() is not None:
            raise SystemExit(f"a client worker exited with {worker.returncode}")
        if time.monotonic() > deadline:
            raise SystemExit("a client worker did not answer in time")


# Databases and Redis for a run (--db postgresql, --redis) ---------------------------------------


def _postgres_admin() -> Any:
    import sqlalchemy as sa

    return sa.make_url(os.environ.get("TRANQUE_BENCH_POSTGRES_URL", DEFAULT_POSTGRES))


def _on_postgres(statement: str) -> None:
    """Run `statement` on the PostgreSQL server itself (CREATE/DROP DATABASE: no transaction)."""
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine
    from sqlalchemy.pool import NullPool

    async def execute() -> None:
        engine = create_async_engine(
            _postgres_admin().set(drivername="postgresql+asyncpg"),
            isolation_level="AUTOCOMMIT",
            poolclass=NullPool,
            connect_args={"timeout": 5},
        )
        try:
            async with engine.connect() as connection:
                await connection.execute(sa.text(statement))
        finally:
            await engine.dispose()

    asyncio.run(execute())


@contextlib.contextmanager
def fresh_postgres() -> Iterator[str]:
    """A new database on the local PostgreSQL for this run (dropped at the end): its URL."""
    name = f"tranque_bench_{os.getpid()}_{secrets.token_hex(4)}"
    admin = _postgres_admin()
    try:
        _on_postgres(f'CREATE DATABASE "{name}"')
    except Exception as error:
        where = f"{admin.host or '127.0.0.1'}:{admin.port or 5432}"
        raise SystemExit(
            f"--db postgresql: cannot create a database on {where} ({type(error).__name__}: {error}); "
            "set TRANQUE_BENCH_POSTGRES_URL to a server where this user may CREATE DATABASE"
        ) from None
    try:
        yield admin.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False)
    finally:
        _on_postgres(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextlib.contextmanager
def redis_prefix(url: str, kind: str = "load") -> Iterator[str]:
    """A prefix of this run's own for the cluster's channels and leases (its keys deleted at
    the end): runs never meet, nor meet a server using the same Redis."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.ping()
    except redis.RedisError as error:
        client.close()
        raise SystemExit(f"--redis {url}: Redis does not answer ({error})") from None
    prefix = f"tranque-{kind}-{secrets.token_hex(4)}"
    try:
        yield prefix
    finally:
        with contextlib.suppress(redis.RedisError):
            for key in client.scan_iter(match=f"{prefix}:*", count=1000):
                client.delete(key)
        client.close()


def service_cpu() -> dict[str, float]:
    """CPU seconds used so far by PostgreSQL's and Redis's processes, by pid."""
    found: dict[str, float] = {}
    for process in psutil.process_iter(["name", "cpu_times"]):
        name, times = process.info["name"] or "", process.info["cpu_times"]
        if times is not None and name.startswith(("postgres", "redis-server")):
            found[f"{'redis' if name.startswith('redis') else 'postgres'}:{process.pid}"] = (
                times.user + times.system
            )
    return found


def service_cpu_between(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds PostgreSQL and Redis used between two readings (a backend started since
    counts whole)."""
    used = {"postgres": 0.0, "redis": 0.0}
    for key, seconds in after.items():
        used[key.partition(":")[0]] += seconds - before.get(key, 0.0)
    return used


# Server processes, clients, figures -------------------------------------------------------


@dataclass
class Server:
    """One server process of the run (`--serve`), on its own port."""

    index: int
    port: int
    seats: Path  # where it writes the seats of the tables it made
    process: subprocess.Popen[bytes]
    tables: int  # how many tables it makes (and owns)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def post(self, path: str) -> Any:
        request = urllib.request.Request(self.http + path, method="POST")
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.http + path, timeout=30) as response:
            return json.loads(response.read())


def check_options(args: argparse.Namespace) -> None:
    """Several processes need Redis to coordinate and PostgreSQL to share (as `tranque serve
    --workers N` does)."""
    if args.processes < 1:
        raise SystemExit("--processes must be at least 1")
    if args.processes > 1 and (args.redis is None or args.db != "postgresql"):
        raise SystemExit(
            f"--processes {args.processes} needs --redis [URL] and --db postgresql: the processes "
            "share their tables through Redis and one PostgreSQL database"
        )
    if args.redis is not None and args.db != "postgresql":
        raise SystemExit("--redis needs --db postgresql (a cluster's processes share one database)")


def run(args: argparse.Namespace) -> None:
    check_options(args)
    with contextlib.ExitStack() as stack:
        database = stack.enter_context(fresh_postgres()) if args.db == "postgresql" else None
        prefix = stack.enter_context(redis_prefix(args.redis)) if args.redis is not None else None
        measure(args, database, prefix)


def start_servers(
    args: argparse.Namespace, workdir: Path, seats_file: Path, url: str, prefix: str | None
) -> list[Server]:
    """Start the server processes; with several, the first alone until it is up (it makes the
    schema), then the others, and no table is made before every one is up (the go file)."""
    count = args.processes
    go_file = workdir / "go"
    servers: list[Server] = []
    for index in range(count):
        port = free_port()
        seats = seats_file if count == 1 else workdir / f"seats-{index}.json"
        share = args.tables * (index + 1) // count - args.tables * index // count
        server_cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--serve",
            "--port",
            str(port),
            "--database-url",
            url,
            "--load-tables",
            str(share),
            "--seats-out",
            str(seats),
            "--ws",
            args.ws,
            "--server-deflate",
            args.server_deflate,
            "--server-gc",
            args.server_gc,
        ]
        if prefix is not None:
            server_cmd += ["--redis-url", args.redis, "--cluster-prefix", prefix]
        if count > 1:
            server_cmd += ["--go-file", str(go_file)]
        # Own sessions: with the kernel's autogroup scheduling the server and each client worker get
        # their own CPU share, as a service would, rather than one share with whatever started them.
        process = subprocess.Popen(server_cmd, start_new_session=True)
        servers.append(Server(index, port, seats, process, share))
        if count > 1 and index == 0:
            wait_for_file(Path(str(seats) + ".rss"), process, LAUNCH_TIMEOUT)
    if count > 1:
        for server in servers:
            wait_for_file(Path(str(server.seats) + ".rss"), server.process, LAUNCH_TIMEOUT)
        go_file.touch()
    return servers


def merge_seats(args: argparse.Namespace, servers: list[Server], seats_file: Path) -> float:
    """Every process's seats in one file, each socket sent to a process in turn (or at random),
    as a load balancer would: most land on a process that does not own their table. Returns
    that share."""
    entries = []
    for server in servers:
        for entry in json.loads(server.seats.read_text()):
            entries.append({**entry, "node": server.index})
    rng = random.Random(1)
    for number, entry in enumerate(entries):
        target = servers[number % len(servers)] if args.connect == "round-robin" else rng.choice(servers)
        entry["url"] = f"ws://127.0.0.1:{target.port}/ws"
        entry["remote"] = target.index != entry["node"]
    partial = seats_file.with_suffix(".part")
    partial.write_text(json.dumps(entries))
    partial.rename(seats_file)
    return sum(1 for entry in entries if entry["remote"]) / max(1, len(entries))


def until_replicas(servers: list[Server], tables: int, timeout: float) -> None:
    """Wait until every process keeps every table (owned or a replica), so that no socket's
    hello loads one."""
    deadline = time.monotonic() + timeout
    for server in servers:
        while time.monotonic() < deadline:
            status = server.get("/api/cluster")
            if status["owned"] + status["replicas"] >= tables:
                break
            time.sleep(0.2)


def measure(args: argparse.Namespace, database: str | None, prefix: str | None) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="tranque-load-"))
    seats_file = workdir / "seats.json"
    if database is not None:
        url = database
    else:
        url = "memory://" if args.db == "memory" else f"sqlite+aiosqlite:///{workdir / 'tranque.db'}"
    cluster = args.processes > 1
    launched = time.monotonic()
    servers: list[Server] = []
    workers: list[subprocess.Popen[str]] = []
    remote_share = 0.0
    try:
        servers = start_servers(args, workdir, seats_file, url, prefix)
        for server in servers:
            wait_for_file(server.seats, server.process, LAUNCH_TIMEOUT)
        if cluster:
            until_replicas(servers, args.tables, LAUNCH_TIMEOUT)
            remote_share = merge_seats(args, servers, seats_file)
        setup_seconds = time.monotonic() - launched
        procs = [psutil.Process(server.process.pid) for server in servers]
        # before any table existed
        rss_empties = [int(Path(str(server.seats) + ".rss").read_text()) for server in servers]
        rss_idles = [proc.memory_info().rss for proc in procs]
        for part in range(args.workers):
            worker_cmd = [
                sys.executable,
                str(HERE / "load_client.py"),
                "--url",
                f"ws://127.0.0.1:{servers[0].port}/ws",
                "--seats",
                str(seats_file),
                "--part",
                f"{part}/{args.workers}",
                "--think",
                args.think,
                "--compression",
                args.compression,
            ]
            workers.append(
                subprocess.Popen(
                    worker_cmd,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    start_new_session=True,
                )
            )
        hellos = [read_json_line(worker, CONNECT_TIMEOUT) for worker in workers]
        connected = sum(h["connected"] for h in hellos)
        connect_seconds = max(h["seconds"] for h in hellos)
        rss_connecteds = [proc.memory_info().rss for proc in procs]
        for server in servers:
            server.post(f"/_bench/start?stagger={args.stagger}")
        t0 = time.time()
        warmup = args.warmup if args.warmup is not None else min(10.0, max(3.0, args.duration * 0.15))
        warmup = max(warmup, args.stagger)  # every game has started before the window opens
        t1, t2 = t0 + warmup, t0 + args.duration
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write(json.dumps({"t1": t1, "t2": t2}) + "\n")
            worker.stdin.flush()
        time.sleep(max(0.0, t1 - time.time()))
        spy = None
        if args.py_spy:  # with several processes: the first one's profile
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "py-spy"),
                    "record",
                    "--pid",
                    str(servers[0].process.pid),
                    "--duration",
                    str(int(t2 - t1)),
                    "--format",
                    "raw",
                    "--rate",
                    "200",
                    "--nonblocking",
                    "-o",
                    args.py_spy,
                ],
                stdout=subprocess.DEVNULL,
            )
        opening = [server.get("/api/cluster") for server in servers] if cluster else []
        cpu1s, machine1 = [proc.cpu_times() for proc in procs], psutil.cpu_times()
        services1 = service_cpu() if args.db == "postgresql" else {}
        rss_peaks = [proc.memory_info().rss for proc in procs]
        while time.time() < t2:
            time.sleep(min(1.0, max(0.0, t2 - time.time())))
            rss_peaks = [
                max(peak, proc.memory_info().rss) for peak, proc in zip(rss_peaks, procs, strict=True)
            ]
        cpu2s, machine2 = [proc.cpu_times() for proc in procs], psutil.cpu_times()
        services2 = service_cpu() if args.db == "postgresql" else {}
        rss_ends = [proc.memory_info().rss for proc in procs]
        results = [read_json_line(worker, 120) for worker in workers]
        if spy is not None:
            spy.wait(timeout=60)
        statuses = [server.get("/api/cluster") for server in servers] if cluster else []
        collecteds = [server.post("/_bench/full_gc") for server in servers]
    finally:
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        for server in servers:
            server.process.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.process.kill()
                server.process.wait()
        for leftover in workdir.iterdir():
            leftover.unlink()
        workdir.rmdir()

    window = t2 - t1
    latencies = [x for r in results for x in r["latencies_ms"]]
    remote_flags = [x for r in results for x in r["latency_remote"]]
    if args.dump:
        pairs = sorted(
            (t - t1, ms) for r in results for t, ms in zip(r["sent_at"], r["latencies_ms"], strict=True)
        )
        Path(args.dump).write_text(json.dumps(pairs))
    acks = [x for r in results for x in r["ack_ms"]]
    lags = [x for r in results for x in r["loop_lag_ms"]]
    actions = sum(r["actions"] for r in results)
    autos = sum(r["auto_actions"] for r in results)
    rounds = sum(r["rounds"] for r in results)
    frames = sum(r["frames"] for r in results)
    errors: dict[str, int] = {}
    for r in [*hellos, *results]:
        for code, count in r["errors"].items():
            errors[code] = errors.get(code, 0) + count
    disconnects = sum(r["disconnects"] for r in results)
    failed = sum(h["failed"] for h in hellos)
    server_cpus = [
        (cpu2.user + cpu2.system - cpu1.user - cpu1.system) / window
        for cpu1, cpu2 in zip(cpu1s, cpu2s, strict=True)
    ]
    server_cpu = sum(server_cpus)
    client_cpu = sum(r["cpu_seconds"] for r in results) / window
    machine_busy = (_busy(machine2) - _busy(machine1)) / window
    services = {name: used / window for name, used in service_cpu_between(services1, services2).items()}
    others = max(0.0, machine_busy - server_cpu - client_cpu - sum(services.values()))
    mib = 1 << 20
    per_second = max((actions + autos) / window, 1e-9)
    accepted = max(actions / window, 1e-9)
    rss_end, rss_peak, rss_empty = rss_ends[0], rss_peaks[0], rss_empties[0]
    rss_idle, rss_connected, collected = rss_idles[0], rss_connecteds[0], collecteds[0]

    def spread(values: list[float]) -> str:
        return (
            f"p50 {percentile(values, 0.5):.1f} ms  p90 {percentile(values, 0.9):.1f} ms  "
            f"p99 {percentile(values, 0.99):.1f} ms  max {max(values, default=float('nan')):.1f} ms  "
            f"(n={len(values)})"
        )

    def full_gc(collected: dict[str, Any]) -> str:
        if collected["ms"] is None:
            return "Python's own collector (server gc default)"
        return (
            f"full: {collected['ms']:.0f} ms stall, {collected['found']:,} objects found, "
            f"once every {FULL_SECONDS / 60:.0f} min (collector.py; frozen every "
            f"{FREEZE_SECONDS * 1000:.0f} ms)"
        )

    rows = [
        ("tables / sockets", f"{args.tables} / {4 * args.tables} ({connected} connected, {failed} failed)"),
        ("think time", "none (zero-think)" if args.think in ("0", "0-0") else f"{args.think} s uniform"),
        (
            "games started",
            "all at once" if args.stagger == 0 else f"spread evenly over {args.stagger:g} s",
        ),
        (
            "store / ws / deflate / gc",
            f"{args.db} / {args.ws} / clients offer {args.compression}, server {args.server_deflate}; "
            f"server gc {args.server_gc}",
        ),
    ]
    if prefix is not None:
        rows.append(
            (
                "processes",
                f"{args.processes}, each made and owns {args.tables // args.processes}"
                f"{'+' if args.tables % args.processes else ''} tables; sockets "
                f"sent {args.connect}: {remote_share:.0%} on a process that does not own their table; "
                f"Redis {args.redis} (prefix {prefix})",
            )
        )
    rows += [
        ("setup (server + tables)", f"{setup_seconds:.1f} s; sockets connected in {connect_seconds:.1f} s"),
        ("measured window", f"{window:.1f} s after {warmup:.1f} s warm-up ({args.workers} client worker(s))"),
        (
            "actions/s accepted",
            f"{actions / window:,.1f}  (+ {autos / window:,.1f}/s forced moves by server)",
        ),
        ("rounds finished/s", f"{rounds / window:,.2f}"),
        ("frames received/s", f"{frames / window:,.0f} (all clients)"),
        ("act -> action event", spread(latencies)),
    ]
    if cluster:
        on_owner = [ms for ms, remote in zip(latencies, remote_flags, strict=True) if not remote]
        elsewhere = [ms for ms, remote in zip(latencies, remote_flags, strict=True) if remote]
        rows += [
            ("  socket on the owner", spread(on_owner)),
            ("  socket on another process", spread(elsewhere)),
        ]
    rows += [
        (
            "act -> ack",
            f"p50 {percentile(acks, 0.5):.1f} ms  p99 {percentile(acks, 0.99):.1f} ms  "
            f"max {max(acks, default=float('nan')):.1f} ms",
        ),
        ("errors", ", ".join(f"{code}: {n}" for code, n in sorted(errors.items())) or "0"),
        ("disconnects", str(disconnects)),
    ]
    if not cluster:
        rows += [
            (
                "server RSS",
                f"end {rss_end / mib:.0f} MiB (peak {rss_peak / mib:.0f}; no tables {rss_empty / mib:.0f}; "
                f"tables made {rss_idle / mib:.0f}; sockets in {rss_connected / mib:.0f})",
            ),
            (
                "memory per table",
                f"{(rss_end - rss_empty) / args.tables / 1024:.0f} KiB (server RSS growth / tables, "
                f"its 4 sockets included)",
            ),
            (
                "server CPU",
                f"{server_cpu * 100:.0f}% of one core = {1000 * server_cpu / accepted:.2f} ms per accepted "
                f"action ({1000 * server_cpu / per_second:.2f} ms per move, the server's own included)",
            ),
            (
                "garbage collection",
                f"{collected['young'] / (time.time() - t0):.1f} young collections/s; " + full_gc(collected),
            ),
        ]
    else:
        rows.append(
            (
                "server CPU, all processes",
                f"{server_cpu * 100:.0f}% of one core = {1000 * server_cpu / accepted:.2f} ms per accepted "
                f"action ({1000 * server_cpu / per_second:.2f} ms per move, the server's own included)",
            )
        )
        for number, server in enumerate(servers):
            cpu = server_cpus[number]
            status = statuses[number]
            counters = ", ".join(
                f"{key} {value}"
                + (
                    f" (+{value - opening[number][key]} in the window)"
                    if key != "owned" and value != opening[number][key]
                    else ""
                )
                for key, value in status.items()
                if key != "node"
            )
            done = collecteds[number]
            rows += [
                (
                    f"process {number} CPU",
                    f"{cpu * 100:.0f}% of one core = {1000 * cpu / accepted:.2f} ms per accepted action "
                    f"(of all {accepted:,.0f}/s; it made {server.tables} tables)",
                ),
                (
                    f"process {number} RSS",
                    f"end {rss_ends[number] / mib:.0f} MiB (peak {rss_peaks[number] / mib:.0f}; no tables "
                    f"{rss_empties[number] / mib:.0f}; tables made {rss_idles[number] / mib:.0f}; sockets in "
                    f"{rss_connecteds[number] / mib:.0f}): "
                    f"{(rss_ends[number] - rss_empties[number]) / args.tables / 1024:.0f} KiB per table",
                ),
                (f"process {number} /api/cluster", counters),
                (
                    f"process {number} gc",
                    f"{done['young'] / (time.time() - t0):.1f} young collections/s; " + full_gc(done),
                ),
            ]
    if args.db == "postgresql":
        rows.append(
            (
                "PostgreSQL / Redis CPU",
                f"{services['postgres'] * 100:.0f}% / {services['redis'] * 100:.0f}% of one core "
                f"({1000 * services['postgres'] / accepted:.2f} / {1000 * services['redis'] / accepted:.2f} "
                f"ms per accepted action)",
            )
        )
    rows += [
        (
            "client CPU / loop lag",
            f"{client_cpu * 100:.0f}% of one core ({1000 * client_cpu / per_second:.2f} ms per action); "
            f"lag p99 {percentile(lags, 0.99):.1f} ms max {max(lags, default=float('nan')):.1f} ms",
        ),
        (
            "other load on machine",
            f"{others * 100:.0f}% of one core by other processes (machine busy {machine_busy * 100:.0f}% "
            f"of {os.cpu_count()} cores)",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    print()
    print(f"Tranque server load — {os.cpu_count()} CPUs")
    print("-" * (width + 60))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    p99 = percentile(latencies, 0.99)
    if args.think not in ("0", "0-0"):
        verdict = "MET" if p99 <= 150 and not errors and not disconnects and not failed else "NOT MET"
        print(f"{'goal p99 <= 150 ms':<{width}}  {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--think", default="0.5-2", help="seconds, uniform range 'a-b', or 0")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of play (after connecting)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds not measured (default 15%%)")
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="start the games spread evenly over this many seconds (0: all at once)",
    )
    parser.add_argument(
        "--db",
        choices=["memory", "sqlite", "postgresql"],
        default="memory",
        help="postgresql: a new database on the local server for the run, dropped at the end",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=1,
        metavar="P",
        help="server processes sharing the tables (P > 1 needs --redis and --db postgresql)",
    )
    parser.add_argument(
        "--redis",
        nargs="?",
        const=DEFAULT_REDIS,
        default=None,
        metavar="URL",
        help=f"a cluster's Redis (default {DEFAULT_REDIS}); its keys get a prefix of the run's own",
    )
    parser.add_argument(
        "--connect",
        choices=["round-robin", "random"],
        default="round-robin",
        help="with several processes: how each socket picks its process (as a load balancer would)",
    )
    parser.add_argument("--workers", type=int, default=1, help="client processes")
    parser.add_argument(
        "--ws", default="served", help="uvicorn WebSocket implementation (served: as `tranque serve` runs it)"
    )
    parser.add_argument(
        "--compression", choices=["deflate", "none"], default="deflate", help="what clients offer"
    )
    parser.add_argument(
        "--server-deflate",
        choices=["on", "off"],
        default="off",
        help="uvicorn ws_per_message_deflate (off, as `tranque serve` runs it)",
    )
    parser.add_argument(
        "--server-gc",
        choices=["default", "tuned"],
        default="tuned",
        help="tuned (as `tranque serve` runs it): tranque.server.runtime.tune_garbage_collector()",
    )
    parser.add_argument("--dump", metavar="OUT", help="write [seconds into window, latency ms] pairs as JSON")
    parser.add_argument(
        "--py-spy", metavar="OUT", help="profile the server over the window (collapsed stacks)"
    )
    # The server launcher (internal).
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--load-tables", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seats-out", help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", help=argparse.SUPPRESS)
    parser.add_argument("--cluster-prefix", help=argparse.SUPPRESS)
    parser.add_argument("--go-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        run_async(serve(args))
        return
    run(args)


if __name__ == "__main__":
    main()
