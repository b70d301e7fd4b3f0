"""Load test of the real-time server: N tables of 4 simulated people over real WebSockets.

    python benchmarks/server_load.py --tables N [--think 0.5-2 | --think 0] [--duration S]
                                     [--db memory|sqlite] [--workers K] [--stagger S]

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

Other options: --server-deflate on|off (uvicorn's ws_per_message_deflate; off by default, as
`tranque serve` runs it), --server-gc default|tuned (tuned by default, as `tranque serve` runs
it: tranque.server.runtime), --compression deflate|none (what the
clients offer; browsers offer deflate), --py-spy OUT (profile the server over the window;
`.venv/bin/pip install py-spy` first), --dump OUT (every latency with its send time). The
machine may be shared, so the table also shows the CPU other processes used meanwhile.
Experiments, by environment variable:
BENCH_AIOSQLITE_APPENDS=1 (a SQLite file's appends group-committed through SQLAlchemy and
aiosqlite, as PostgreSQL's are, not on their own thread), BENCH_COALESCE=1 (queued
messages leave in one JSON-array frame: what fewer frames per action would save),
BENCH_GC_LOG=FILE (log every garbage collection of 20 ms or more, and what the heap holds).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
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


def _coalesce_frames() -> None:
    """Experiment (needs clients that accept arrays): what fewer frames per action would save."""
    from tranque.server.connection import Connection

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
    from tranque.server import commands, runtime
    from tranque.server.app import create_app
    from tranque.server.settings import Settings
    from tranque.server.table import TableOptions
    from tranque.terminal.serve import proxy_options

    raise_open_files_limit()
    if os.environ.get("BENCH_GC_LOG"):  # diagnosis: every garbage collection pass that took >= 20 ms
        _log_collections(os.environ["BENCH_GC_LOG"])
    if os.environ.get("BENCH_COALESCE"):  # experiment: queued messages leave as one JSON-array frame
        _coalesce_frames()
    if os.environ.get("BENCH_AIOSQLITE_APPENDS"):  # A/B: a SQLite file's appends through aiosqlite
        from tranque.server.store import sql

        sql.sqlite_file = lambda url: None
    settings = Settings(database_url=args.database_url)
    app = create_app(settings)
    tables: list[Any] = []
    young_before = [0]

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
        return {"started": len(tables)}

    async def full_collection() -> dict[str, Any]:
        """The young collections so far, and what the collector's full pass (every
        `collector.FULL_SECONDS`) finds and stalls the loop for now."""
        collector = app.state.tranque.collector
        young = gc.get_stats()[0]["collections"] - young_before[0]
        if collector is None:
            return {"ms": None, "young": young}
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


def run(args: argparse.Namespace) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="tranque-load-"))
    seats_file = workdir / "seats.json"
    port = free_port()
    url = "memory://" if args.db == "memory" else f"sqlite+aiosqlite:///{workdir / 'tranque.db'}"
    server_cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--serve",
        "--port",
        str(port),
        "--database-url",
        url,
        "--load-tables",
        str(args.tables),
        "--seats-out",
        str(seats_file),
        "--ws",
        args.ws,
        "--server-deflate",
        args.server_deflate,
        "--server-gc",
        args.server_gc,
    ]
    launched = time.monotonic()
    # Own sessions: with the kernel's autogroup scheduling the server and each client worker get
    # their own CPU share, as a service would, rather than one share with whatever started them.
    server = subprocess.Popen(server_cmd, start_new_session=True)
    workers: list[subprocess.Popen[str]] = []
    try:
        wait_for_file(seats_file, server, LAUNCH_TIMEOUT)
        setup_seconds = time.monotonic() - launched
        proc = psutil.Process(server.pid)
        rss_empty = int(Path(str(seats_file) + ".rss").read_text())  # before any table existed
        rss_idle = proc.memory_info().rss
        for part in range(args.workers):
            worker_cmd = [
                sys.executable,
                str(HERE / "load_client.py"),
                "--url",
                f"ws://127.0.0.1:{port}/ws",
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
        rss_connected = proc.memory_info().rss
        start = f"http://127.0.0.1:{port}/_bench/start?stagger={args.stagger}"
        request = urllib.request.Request(start, method="POST")
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
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
        if args.py_spy:
            spy = subprocess.Popen(
                [
                    str(Path(sys.executable).parent / "py-spy"),
                    "record",
                    "--pid",
                    str(server.pid),
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
        cpu1, machine1 = proc.cpu_times(), psutil.cpu_times()
        rss_peak = proc.memory_info().rss
        while time.time() < t2:
            time.sleep(min(1.0, max(0.0, t2 - time.time())))
            rss_peak = max(rss_peak, proc.memory_info().rss)
        cpu2, machine2 = proc.cpu_times(), psutil.cpu_times()
        rss_end = proc.memory_info().rss
        results = [read_json_line(worker, 120) for worker in workers]
        if spy is not None:
            spy.wait(timeout=60)
        request = urllib.request.Request(f"http://127.0.0.1:{port}/_bench/full_gc", method="POST")
        with urllib.request.urlopen(request, timeout=60) as response:
            collected = json.loads(response.read())
    finally:
        for worker in workers:
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        for leftover in workdir.iterdir():
            leftover.unlink()
        workdir.rmdir()

    window = t2 - t1
    latencies = [x for r in results for x in r["latencies_ms"]]
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
    server_cpu = (cpu2.user + cpu2.system - cpu1.user - cpu1.system) / window
    client_cpu = sum(r["cpu_seconds"] for r in results) / window
    machine_busy = (_busy(machine2) - _busy(machine1)) / window
    others = max(0.0, machine_busy - server_cpu - client_cpu)
    mib = 1 << 20
    per_second = max((actions + autos) / window, 1e-9)
    accepted = max(actions / window, 1e-9)

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
        ("setup (server + tables)", f"{setup_seconds:.1f} s; sockets connected in {connect_seconds:.1f} s"),
        ("measured window", f"{window:.1f} s after {warmup:.1f} s warm-up ({args.workers} client worker(s))"),
        (
            "actions/s accepted",
            f"{actions / window:,.1f}  (+ {autos / window:,.1f}/s forced moves by server)",
        ),
        ("rounds finished/s", f"{rounds / window:,.2f}"),
        ("frames received/s", f"{frames / window:,.0f} (all clients)"),
        (
            "act -> action event",
            f"p50 {percentile(latencies, 0.5):.1f} ms  p90 {percentile(latencies, 0.9):.1f} ms  "
            f"p99 {percentile(latencies, 0.99):.1f} ms  max {max(latencies, default=float('nan')):.1f} ms  "
            f"(n={len(latencies)})",
        ),
        (
            "act -> ack",
            f"p50 {percentile(acks, 0.5):.1f} ms  p99 {percentile(acks, 0.99):.1f} ms  "
            f"max {max(acks, default=float('nan')):.1f} ms",
        ),
        ("errors", ", ".join(f"{code}: {n}" for code, n in sorted(errors.items())) or "0"),
        ("disconnects", str(disconnects)),
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
            f"{collected['young'] / (time.time() - t0):.1f} young collections/s; "
            + (
                "Python's own collector (server gc default)"
                if collected["ms"] is None
                else f"full: {collected['ms']:.0f} ms stall, {collected['found']:,} objects found, "
                f"once every {FULL_SECONDS / 60:.0f} min (collector.py; frozen every "
                f"{FREEZE_SECONDS * 1000:.0f} ms)"
            ),
        ),
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
    parser.add_argument("--db", choices=["memory", "sqlite"], default="memory")
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
    args = parser.parse_args()
    if args.serve:
        run_async(serve(args))
        return
    run(args)


if __name__ == "__main__":
    main()
