"""Faults injected into a cluster of `tranque serve` processes while people play: what each costs.

    python benchmarks/chaos.py [--faults kill,stop,redis,rolling,postgres] [--processes 3]
                               [--tables 12] [--warmup 8] [--settle 25] [--stuck 15]
                               [--stop-seconds 8] [--outage 10] [--silence 3]
                               [--json FILE] [--logs DIR]

Everything runs on 127.0.0.1 and is the run's own: a PostgreSQL cluster (initdb into a scratch
directory, pg_ctl on a free port, as the `postgres` user through `runuser` when run as root;
the newest /usr/lib/postgresql/*/bin, or $TRANQUE_BENCH_PG_BIN; fsync off, as nothing here
crashes the machine), a Redis (redis-server on a free port, nothing kept on disk), and
`--processes` server processes, each `tranque serve --host 127.0.0.1 --port P
--forwarded-allow-ips 127.0.0.1` with $TRANQUE_DATABASE_URL and $TRANQUE_REDIS_URL pointing
at those two (docs/deploy.md, «Several processes»), the default settings otherwise (a lease of
2.5 s), each writing to a log file of its own in --logs. All of it is stopped and deleted at
the end, on an error or Ctrl+C too (the logs are kept).

`--tables` practice games (POST /api/practice: clasico, 4 seats in pairs, target 200, one
person and three bots) are made on every process in turn, each from an address of its own
(`X-Forwarded-For`: the per-address quota of live games never stops them). Each has one
scripted person on a WebSocket to another process: on `options` it sends a legal move at
once (forced ones too), says «listo» between rounds and, when its socket drops or its
WebSocket pings (every second) go unanswered for `--silence` seconds (a paused process), opens
one to another process picked at random and resumes with `hello` and `last_seq`, with backoff
(0.25 s doubling to 2 s). It keeps every ack of an `act` (the seq it had when it sent it, the
ack's seq, the move) and the seq and arrival time of every event; a game that ends is
replaced by a new one.

Then, for each fault of `--faults` in turn, after `--warmup` seconds of play:

* `kill`: SIGKILL of the process owning the most live tables (owners from their leases in
  Redis, `tranque:table:ID` = "node/epoch", and each process's name from GET /api/cluster),
  started again at once on its port (as a supervisor would);
* `stop`: SIGSTOP of the process owning the most live tables for `--stop-seconds` (past
  the lease, so the others take its tables over), then SIGCONT;
* `redis`: the Redis SIGKILLed, started again empty on the same port after `--outage` s;
* `postgres`: `pg_ctl stop -m fast`, started again after `--outage` s;
* `rolling`: each process in turn SIGTERMed, started again, the next once it answers (one
  still running 30 s after the SIGTERM is SIGKILLed, and named in the fault's line).

A process that exits by itself meanwhile is started again (counted as an exit). After the
service or process is back, `--settle` seconds of play; then one row per fault:

* tables affected (those the process owned; every live table for the outages and the
  rolling restart) and, for each, the seconds from the fault to the first new event its
  person received: p50 and max (and how many got none), and for the outages and the paused
  process the same from the moment it came back;
* acknowledged moves lost: every acked `act` must be in the table's log in PostgreSQL
  (`table_events`), by that seat, between the seq its person had and its ack's seq (checked
  at the end, counted in the fault whose window the ack came in);
* gaps and duplicates in each person's stream of events;
* tables stuck: not over, and no event in the last `--stuck` seconds of the settle window
  (their person then leaves them for a new game, so the next fault starts clean).

The table is printed, and written with every sample to `--json FILE`. The exit status is 1
when an acknowledged move was lost, a table was stuck or a stream had a gap or a duplicate.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis.asyncio as aioredis
import websockets
from rich.console import Console
from rich.table import Table as RichTable
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import free_port, percentile

ROOT = Path(__file__).resolve().parents[1]
FAULTS = ("kill", "stop", "redis", "rolling", "postgres")
START_SECONDS = 60.0  # for a process to answer GET /api/cluster
SERVICE_SECONDS = 60.0  # for PostgreSQL or Redis to start
TERM_SECONDS = 30.0  # for a process to exit after SIGTERM (`rolling`), before a SIGKILL
# `tranque serve`, as the console script runs it (the package has no __main__).
SERVE = "import sys; from tranque.cli import main; sys.exit(main(sys.argv[1:]))"
GAME = {"preset": "clasico", "players": 4, "mode": "pairs", "target": 200}
BACKOFF_FIRST, BACKOFF_MAX = 0.25, 2.0


# Services of the run's own ---------------------------------------------------------------------


def _as_postgres(command: list[str]) -> list[str]:
    """Run as the `postgres` OS user when we are root (initdb and postgres refuse root)."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


def postgres_bin() -> Path:
    if os.environ.get("TRANQUE_BENCH_PG_BIN"):
        return Path(os.environ["TRANQUE_BENCH_PG_BIN"])
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda path: int(path.parts[-3]))
    if found:
        return found[-1].parent
    on_path = shutil.which("pg_ctl")
    if on_path is None:
        raise SystemExit("no PostgreSQL binaries: set TRANQUE_BENCH_PG_BIN to the folder of pg_ctl")
    return Path(on_path).parent


class Postgres:
    """A PostgreSQL cluster of the run's own, on a free loopback port."""

    def __init__(self) -> None:
        self.bin = postgres_bin()
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="tranque-chaos-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "postgres.log"
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
        self.made = False

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        done = subprocess.run(_as_postgres([str(self.bin / command[0]), *command[1:]]), capture_output=True)
        if done.returncode != 0:
            output = (done.stdout + done.stderr).decode(errors="replace")[-2000:]
            raise SystemExit(f"{command[0]} failed ({done.returncode}): {output}")

    def create(self) -> None:
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.made = True
        self.start()

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories={self.root} "
            "-c fsync=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "start", "-w", "-t", str(int(SERVICE_SECONDS)), "-D", str(self.data),
                  "-l", str(self.log), "-o", options)  # fmt: skip

    def stop(self) -> None:
        self._run("pg_ctl", "stop", "-w", "-m", "fast", "-D", str(self.data))

    def destroy(self) -> None:
        if self.made and (self.data / "postmaster.pid").exists():
            with contextlib.suppress(SystemExit):
                self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data))
        shutil.rmtree(self.root, ignore_errors=True)


class Redis:
    """A redis-server of the run's own, on a free loopback port, keeping nothing on disk."""

    def __init__(self, logs: Path) -> None:
        self.port = free_port()
        self.log_path = logs / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(self.log_path.parent)]  # fmt: skip
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    async def ready(self) -> None:
        deadline = time.monotonic() + SERVICE_SECONDS
        client = aioredis.Redis.from_url(self.url)
        try:
            while time.monotonic() < deadline:
                with contextlib.suppress(Exception):
                    if await client.ping():
                        return
                await asyncio.sleep(0.05)
        finally:
            await client.aclose()
        raise SystemExit(f"redis-server did not start: {self.log_path.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


# Server processes ------------------------------------------------------------------------------


@dataclass
class Process:
    """One `tranque serve` of the run, on a port it keeps across restarts."""

    index: int
    port: int
    env: dict[str, str]
    workdir: Path
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    name: str | None = None  # its name in the cluster (GET /api/cluster), per start
    starts: int = 0
    exits: list[tuple[float, int]] = field(default_factory=list)  # unexpected: (monotonic, code)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        self.starts += 1
        self.name = None
        command = [sys.executable, "-c", SERVE, "serve", "--host", "127.0.0.1", "--port", str(self.port),
                   "--forwarded-allow-ips", "127.0.0.1"]  # fmt: skip
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts} at {time.time():.3f}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.workdir,
                start_new_session=True,
            )  # fmt: skip

    async def ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        started = time.monotonic()
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.process is not None and self.process.poll() is not None:
                    raise SystemExit(f"process {self.index} exited: {self.log_path.read_text()[-3000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.get(self.http + "/api/cluster")
                    if answer.status_code == 200:
                        self.name = answer.json()["node"]
                        self.mark(f"answering as {self.name}, {time.monotonic() - started:.2f} s after")
                        return
                await asyncio.sleep(0.05)
        raise SystemExit(f"process {self.index} did not start: {self.log_path.read_text()[-3000:]}")

    def mark(self, text: str) -> None:
        """A line of the run's own in this process's log."""
        with self.log_path.open("ab") as log:
            log.write(f"--- {text} at {time.time():.3f}\n".encode())

    def send(self, number: signal.Signals) -> None:
        if self.process is not None and self.process.poll() is None:
            self.mark(number.name)
            self.process.send_signal(number)

    def wait(self, seconds: float) -> bool:
        """Wait for it to exit, SIGKILLing it after `seconds`: whether it exited by itself."""
        if self.process is None:
            return True
        try:
            self.process.wait(seconds)
            exited = True
        except subprocess.TimeoutExpired:
            self.mark(f"still running after {seconds:g} s: SIGKILL")
            self.process.kill()
            self.process.wait(10)
            exited = False
        self.mark(f"exited with {self.process.returncode}")
        return exited

    def stop(self) -> None:
        self.send(signal.SIGCONT)  # a paused one cannot stop
        self.send(signal.SIGTERM)
        self.wait(20)


# People ----------------------------------------------------------------------------------------


@dataclass
class Game:
    """One practice game: its table, and what its person received and had acknowledged."""

    slot: int
    table: str
    token: str
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (seq, monotonic) of each event
    gaps: list[tuple[float, int, int]] = field(default_factory=list)  # (monotonic, expected, received)
    duplicates: list[float] = field(default_factory=list)
    # Each acknowledged move: (monotonic, the seq when it was sent, its ack's seq, the move).
    acked: list[tuple[float, int, int, dict[str, Any]]] = field(default_factory=list)
    last_seq: int = 0
    ended: bool = False
    left: bool = False  # its person gave it up (stuck)
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0

    @property
    def live(self) -> bool:
        return not self.ended and not self.left

    def next_event(self, since: float) -> float | None:
        """Seconds from `since` to the first event received at or after it (None: none yet)."""
        return next((at - since for _, at in self.arrivals if at >= since), None)

    def last_arrival(self) -> float:
        return self.arrivals[-1][1] if self.arrivals else 0.0


class Person:
    """One slot's scripted person: plays its game, then a new one, until told to stop."""

    def __init__(self, slot: int, bench: Bench) -> None:
        self.slot = slot
        self.bench = bench
        self.rng = random.Random(slot)
        self.generation = 0
        self.game: Game | None = None
        self.socket: ClientConnection | None = None
        self.process: Process | None = None
        self.asked: dict[int, tuple[str, int, dict[str, Any] | None]] = {}
        self.next_id = 0
        self.options: dict[str, Any] | None = None
        self.between_rounds = False
        self.leave = asyncio.Event()

    async def run(self) -> None:
        while True:
            game = await self._new_game()
            self.game = game
            self.bench.games.append(game)
            await self._play(game)

    async def _new_game(self) -> Game:
        delay = BACKOFF_FIRST
        procs = self.bench.processes
        while True:
            host = procs[(self.slot + self.generation) % len(procs)]
            self.generation += 1
            address = f"10.{77 + self.slot // 250}.{self.slot % 250}.{self.generation % 250 + 1}"
            try:
                async with httpx.AsyncClient(timeout=10) as http:
                    answer = await http.post(
                        host.http + "/api/practice",
                        json={**GAME, "name": f"Caos {self.slot}"},
                        headers={"X-Forwarded-For": address},
                    )
                if answer.status_code == 200:
                    seated = answer.json()
                    return Game(self.slot, seated["table"], seated["token"])
            except httpx.HTTPError:
                pass
            await asyncio.sleep(delay)
            delay = min(BACKOFF_MAX, delay * 2)

    async def _play(self, game: Game) -> None:
        """Until the game ends or its person leaves it: one socket after another."""
        self.leave.clear()
        procs = self.bench.processes
        self.process = procs[(self.slot + self.generation) % len(procs)]
        delay = BACKOFF_FIRST
        first = True
        while game.live:
            if not first:
                game.reconnects += 1
                await asyncio.sleep(delay)
                delay = min(BACKOFF_MAX, delay * 2)
                others = [proc for proc in procs if proc is not self.process] or procs
                self.process = self.rng.choice(others)
            first = False
            if await self._connected(game):
                delay = BACKOFF_FIRST
            if self.leave.is_set():
                game.left = True

    async def _connected(self, game: Game) -> bool:
        """One socket, until it drops or goes silent: whether its `hello` was acknowledged."""
        assert self.process is not None
        self.asked.clear()
        self.options = None
        silence = self.bench.args.silence
        greeted = False
        try:
            async with connect(
                self.process.ws, compression=None, max_size=1 << 22, open_timeout=5,
                ping_interval=1.0, ping_timeout=silence, close_timeout=1,
            ) as socket:  # fmt: skip
                self.socket = socket
                await self._send({"type": "hello", "table": game.table, "token": game.token,
                                  "last_seq": game.last_seq})  # fmt: skip
                leaving = asyncio.ensure_future(self.leave.wait())
                receiving: asyncio.Future[str | bytes] | None = None
                try:
                    while game.live:
                        # A paused process or a dead link: its pings go unanswered for `silence`
                        # seconds, and the socket closes (ConnectionClosed).
                        receiving = asyncio.ensure_future(socket.recv())
                        done, _ = await asyncio.wait(
                            {receiving, leaving}, return_when=asyncio.FIRST_COMPLETED
                        )
                        if leaving in done:
                            game.left = True
                            return greeted
                        frame = json.loads(receiving.result())
                        answer = await self._on_frame(game, frame)
                        if answer == "greeted":
                            greeted = True
                        elif answer == "refused":
                            return greeted
                finally:
                    leaving.cancel()
                    if receiving is not None:
                        receiving.cancel()
                        receiving.add_done_callback(_settled)
        except (OSError, TimeoutError, websockets.WebSocketException):
            return greeted
        finally:
            self.socket = None
        return greeted

    async def _send(self, message: dict[str, Any], action: dict[str, Any] | None = None) -> None:
        assert self.game is not None and self.socket is not None
        self.next_id += 1
        self.asked[self.next_id] = (message["type"], self.game.last_seq, action)
        await self.socket.send(json.dumps({**message, "id": self.next_id}))

    async def _on_frame(self, game: Game, frame: dict[str, Any]) -> str | None:
        kind = frame["type"]
        now = time.monotonic()
        if kind == "event":
            seq = frame["seq"]
            if seq <= game.last_seq:
                game.duplicates.append(now)
                return None
            if seq != game.last_seq + 1:
                game.gaps.append((now, game.last_seq + 1, seq))
            game.last_seq = seq
            game.arrivals.append((seq, now))
            data = frame["data"]
            if frame["kind"] == "turn" and self.options is not None:
                if self.options["turn_id"] != data["turn_id"]:
                    self.options = None
            elif frame["kind"] == "round_ended":
                self.between_rounds = True
                await self._send({"type": "ready"})
            elif frame["kind"] == "round_started":
                self.between_rounds = False
            elif frame["kind"] == "game_ended":
                game.ended = True
        elif kind == "sync":  # not asked for (every hello has last_seq): counted as a gap if it skips
            if frame["seq"] > game.last_seq:
                game.gaps.append((now, game.last_seq + 1, frame["seq"]))
                game.last_seq = frame["seq"]
        elif kind == "options":
            self.options = frame
            action = self.rng.choice(frame["legal_actions"])
            await self._send({"type": "act", "action": action, "turn_id": frame["turn_id"]}, action)
        elif kind in ("ack", "error"):
            what, seq_then, action = self.asked.pop(frame.get("id", -1), ("?", 0, None))
            if kind == "ack":
                if what == "act" and action is not None:
                    game.acked.append((now, seq_then, frame["seq"], action))
                elif what == "hello":
                    if self.between_rounds:  # a «listo» sent to a process that died may be lost
                        await self._send({"type": "ready"})
                    return "greeted"
                return None
            code = frame.get("code", "?")
            game.errors[code] = game.errors.get(code, 0) + 1
            if what == "hello":
                return "refused"  # another process, after the backoff
            if code == "table_moved":  # nothing was done: the table is changing hands; ask again
                await asyncio.sleep(0.2)
                if what == "act" and self.options is not None:
                    action = self.rng.choice(self.options["legal_actions"])
                    message = {"type": "act", "action": action, "turn_id": self.options["turn_id"]}
                    await self._send(message, action)
                elif what == "ready" and self.between_rounds:
                    await self._send({"type": "ready"})
        return None


def _settled(future: asyncio.Future[Any]) -> None:
    """Read a finished future's error, so that asyncio does not report it as never retrieved."""
    if not future.cancelled():
        future.exception()


# Faults ----------------------------------------------------------------------------------------


@dataclass
class Row:
    """What one fault cost."""

    fault: str
    detail: str = ""
    started: float = 0.0  # the window's start (the warm-up), monotonic
    at: float = 0.0  # the fault
    back: float | None = None  # the service or process back (outages, pause)
    ended: float = 0.0  # the settle window's end
    affected: dict[str, float] = field(default_factory=dict)  # table -> when its fault hit it
    from_fault: dict[str, float | None] = field(default_factory=dict)
    from_back: dict[str, float | None] = field(default_factory=dict)
    stuck: list[str] = field(default_factory=list)
    acks: int = 0
    lost: list[str] = field(default_factory=list)
    gaps: int = 0
    duplicates: int = 0
    exits: int = 0
    reconnects: int = 0


class Bench:
    def __init__(self, args: argparse.Namespace, logs: Path, postgres: Postgres, redis: Redis) -> None:
        self.args = args
        self.logs = logs
        self.postgres = postgres
        self.redis = redis
        self.workdir = Path(tempfile.mkdtemp(prefix="tranque-chaos-"))
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")]),
            "TRANQUE_DATABASE_URL": postgres.url,
            "TRANQUE_REDIS_URL": redis.url,
            "TRANQUE_ANALYSIS_WORKERS": "0",
        }
        self.processes = [
            Process(index, free_port(), env, self.workdir, logs / f"process-{index}.log")
            for index in range(args.processes)
        ]
        self.games: list[Game] = []
        self.people: list[Person] = []
        self.tasks: list[asyncio.Task[None]] = []
        self.expected_down: set[int] = set()  # processes a fault is stopping or restarting

    async def start(self) -> None:
        self.processes[0].start()  # the first makes the schema; the others find it there
        await self.processes[0].ready()
        for proc in self.processes[1:]:
            proc.start()
        await asyncio.gather(*(proc.ready() for proc in self.processes[1:]))
        for slot in range(self.args.tables):
            person = Person(slot, self)
            self.people.append(person)
            self.tasks.append(asyncio.get_running_loop().create_task(person.run()))
        self.tasks.append(asyncio.get_running_loop().create_task(self._supervise()))

    async def _supervise(self) -> None:
        """A process that exits by itself is started again, as systemd's Restart= would."""
        while True:
            await asyncio.sleep(0.5)
            for proc in self.processes:
                if proc.index in self.expected_down or proc.process is None or proc.alive:
                    continue
                proc.exits.append((time.monotonic(), proc.process.returncode))
                proc.start()
                with contextlib.suppress(SystemExit):
                    await proc.ready()

    def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for proc in self.processes:
            proc.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def live(self) -> list[Game]:
        return [person.game for person in self.people if person.game is not None and person.game.live]

    async def owners(self) -> dict[str, Process | None]:
        """Each live table's owner, as its lease in Redis names it."""
        games = self.live()
        if not games:
            return {}
        client = aioredis.Redis.from_url(self.redis.url, decode_responses=True)
        try:
            values = await client.mget([f"tranque:table:{game.table}" for game in games])
        finally:
            await client.aclose()
        names = {proc.name: proc for proc in self.processes if proc.name is not None}
        return {
            game.table: None if value is None else names.get(str(value).partition("/")[0])
            for game, value in zip(games, values, strict=True)
        }

    async def busiest(self) -> tuple[Process, list[str]]:
        """The process owning the most live tables, and those tables."""
        owners = await self.owners()
        owned = {
            proc.index: [table for table, owner in owners.items() if owner is proc] for proc in self.processes
        }
        index = max(owned, key=lambda number: len(owned[number]))
        return self.processes[index], owned[index]

    async def inject(self, fault: str, row: Row) -> None:
        args = self.args
        if fault == "kill":
            proc, tables = await self.busiest()
            row.detail = f"process {proc.index} ({len(tables)} tables) SIGKILLed, started again at once"
            self.expected_down.add(proc.index)
            row.at = time.monotonic()
            row.affected = dict.fromkeys(tables, row.at)
            proc.send(signal.SIGKILL)
            await asyncio.to_thread(proc.wait, 10)
            proc.start()
            await proc.ready()
            self.expected_down.discard(proc.index)
            row.detail += f" (answering after {time.monotonic() - row.at:.1f} s)"
        elif fault == "stop":
            proc, tables = await self.busiest()
            row.detail = f"process {proc.index} ({len(tables)} tables) SIGSTOPped {args.stop_seconds:g} s"
            row.at = time.monotonic()
            row.affected = dict.fromkeys(tables, row.at)
            proc.send(signal.SIGSTOP)
            await asyncio.sleep(args.stop_seconds)
            proc.send(signal.SIGCONT)
            row.back = time.monotonic()
        elif fault == "redis":
            row.detail = f"redis-server SIGKILLed, started again empty after {args.outage:g} s"
            row.at = time.monotonic()
            row.affected = {game.table: row.at for game in self.live()}
            self.redis.kill()
            await asyncio.sleep(args.outage)
            self.redis.start()
            await self.redis.ready()
            row.back = time.monotonic()
        elif fault == "postgres":
            row.detail = f"pg_ctl stop -m fast, started again after {args.outage:g} s"
            row.at = time.monotonic()
            row.affected = {game.table: row.at for game in self.live()}
            await asyncio.to_thread(self.postgres.stop)
            await asyncio.sleep(max(0.0, args.outage - (time.monotonic() - row.at)))
            await asyncio.to_thread(self.postgres.start)
            row.back = time.monotonic()
        elif fault == "rolling":
            row.detail = (
                f"SIGTERM to each of {len(self.processes)} processes in turn, the next once it answers"
            )
            row.at = time.monotonic()
            hung: list[int] = []
            for proc in self.processes:
                owners = await self.owners()
                hit = time.monotonic()
                for table, owner in owners.items():
                    if owner is proc and table not in row.affected:
                        row.affected[table] = hit
                self.expected_down.add(proc.index)
                proc.send(signal.SIGTERM)
                if not await asyncio.to_thread(proc.wait, TERM_SECONDS):
                    hung.append(proc.index)
                proc.start()
                await proc.ready()
                self.expected_down.discard(proc.index)
            row.detail += f" ({time.monotonic() - row.at:.1f} s in all)"
            if hung:
                row.detail += (
                    f"; process(es) {', '.join(map(str, hung))} still running {TERM_SECONDS:g} s "
                    "after SIGTERM: SIGKILLed"
                )
        else:
            raise SystemExit(f"unknown fault {fault!r}")

    async def run_fault(self, fault: str) -> Row:
        args = self.args
        row = Row(fault, started=time.monotonic())
        exits_before = sum(len(proc.exits) for proc in self.processes)
        reconnects_before = sum(game.reconnects for game in self.games)
        await asyncio.sleep(args.warmup)
        await self.inject(fault, row)
        await asyncio.sleep(args.settle)
        row.ended = time.monotonic()
        by_table = {game.table: game for game in self.games}
        for table, hit in row.affected.items():
            row.from_fault[table] = by_table[table].next_event(hit)
            if row.back is not None:
                row.from_back[table] = by_table[table].next_event(row.back)
        quiet_since = row.ended - args.stuck
        for person in self.people:
            game = person.game
            if game is not None and game.live and game.last_arrival() < quiet_since:
                row.stuck.append(game.table)
                person.leave.set()  # a new game for the next fault
        row.exits = sum(len(proc.exits) for proc in self.processes) - exits_before
        row.reconnects = sum(game.reconnects for game in self.games) - reconnects_before
        return row


# Checks ----------------------------------------------------------------------------------------


async def check(database_url: str, games: list[Game], rows: list[Row]) -> list[str]:
    """Every acknowledged move in its table's stored log; gaps, duplicates and acks counted
    into the row whose window they fell in. What went wrong, as text."""
    from tranque.server.store.sql import SqlStore

    store = SqlStore(database_url)
    await store.start()
    try:
        logs = {game.table: await store.load_events(game.table) for game in games}
    finally:
        await store.close()

    def row_at(moment: float) -> Row | None:
        return next((row for row in rows if row.started <= moment < row.ended), None)

    problems = []
    for game in games:
        log = logs[game.table]
        if [event.seq for event in log] != list(range(1, len(log) + 1)):
            problems.append(f"table {game.table}: its stored log has gaps")
        for moment, expected, received in game.gaps:
            problems.append(f"table {game.table}: event {expected} missed (next came {received})")
            if (row := row_at(moment)) is not None:
                row.gaps += 1
        for moment in game.duplicates:
            if (row := row_at(moment)) is not None:
                row.duplicates += 1
        if game.duplicates:
            problems.append(f"table {game.table}: {len(game.duplicates)} duplicate event(s)")
        for moment, before, after, action in game.acked:
            row = row_at(moment)
            if row is not None:
                row.acks += 1
            moves = [event for event in log[before:after] if event.kind == "action"]
            if not any(event.data.get("seat") == 0 and event.data.get("action") == action for event in moves):
                lost = f"table {game.table}: {action} acked at seq {after} (sent at {before}) not in the log"
                problems.append(lost)
                if row is not None:
                    row.lost.append(lost)
    for row in rows:
        problems += [f"{row.fault}: table {table} stuck" for table in row.stuck]
    return problems


# The report ------------------------------------------------------------------------------------


def _seconds(values: dict[str, float | None]) -> str:
    got = [value for value in values.values() if value is not None]
    missing = len(values) - len(got)
    if not got:
        return f"none of {missing}" if missing else "-"
    text = f"{statistics.median(got):.2f} / {max(got):.2f}"
    return text + (f" ({missing} none)" if missing else "")


def report(console: Console, args: argparse.Namespace, rows: list[Row], seconds: float, logs: Path) -> None:
    table = RichTable(
        title=f"Chaos — {args.processes} processes, {args.tables} practice tables, "
        f"warm-up {args.warmup:g} s, settle {args.settle:g} s, stuck = no event in its last {args.stuck:g} s"
    )
    columns = ("fault", "tables", "fault→next event p50 / max s", "back→next event p50 / max s",
               "acks", "lost", "gaps", "dups", "stuck", "exits", "reconnects")  # fmt: skip
    for name in columns:
        table.add_column(name, justify="left" if name == "fault" else "right")
    for row in rows:
        table.add_row(
            row.fault,
            str(len(row.affected)),
            _seconds(row.from_fault),
            _seconds(row.from_back) if row.back is not None else "-",
            str(row.acks),
            str(len(row.lost)),
            str(row.gaps),
            str(row.duplicates),
            str(len(row.stuck)),
            str(row.exits),
            str(row.reconnects),
        )
    console.print(table)
    for row in rows:
        console.print(f"  {row.fault}: {row.detail}")
    console.print(f"  run {seconds:.0f} s; the processes' logs are in {logs}")


def as_json(args: argparse.Namespace, rows: list[Row], problems: list[str], seconds: float) -> dict[str, Any]:
    def sample(values: dict[str, float | None]) -> dict[str, Any]:
        got = [value for value in values.values() if value is not None]
        return {
            "p50": statistics.median(got) if got else None,
            "p99": percentile(got, 0.99) if got else None,
            "max": max(got) if got else None,
            "none": len(values) - len(got),
            "tables": {table: None if value is None else round(value, 3) for table, value in values.items()},
        }

    return {
        "settings": {key: value for key, value in vars(args).items() if key not in ("json",)},
        "seconds": round(seconds, 1),
        "faults": [
            {
                "fault": row.fault,
                "detail": row.detail,
                "tables": len(row.affected),
                "fault_to_next_event": sample(row.from_fault),
                "back_to_next_event": sample(row.from_back) if row.back is not None else None,
                "back_after": None if row.back is None else round(row.back - row.at, 2),
                "acks": row.acks,
                "lost": row.lost,
                "gaps": row.gaps,
                "duplicates": row.duplicates,
                "stuck": row.stuck,
                "exits": row.exits,
                "reconnects": row.reconnects,
            }
            for row in rows
        ],
        "problems": problems,
    }


# The run ---------------------------------------------------------------------------------------


async def run_async(args: argparse.Namespace, logs: Path, postgres: Postgres, redis: Redis) -> int:
    console = Console(width=max(150, Console().width))
    started = time.monotonic()
    redis.start()
    await redis.ready()
    bench = Bench(args, logs, postgres, redis)
    rows: list[Row] = []
    try:
        await bench.start()
        console.print(
            f"{args.processes} processes up; PostgreSQL on {postgres.port}, Redis on {redis.port}; "
            f"{args.tables} tables; logs in {logs}"
        )
        for fault in args.faults:
            row = await bench.run_fault(fault)
            rows.append(row)
            console.print(f"{fault}: done ({row.detail}); {len(row.stuck)} stuck")
        for task in bench.tasks:
            task.cancel()
        problems = await check(postgres.url, bench.games, rows)
    finally:
        bench.stop()
    seconds = time.monotonic() - started
    report(console, args, rows, seconds, logs)
    for problem in problems[:30]:
        console.print(f"  [red]{problem}[/red]")
    if args.json:
        Path(args.json).write_text(json.dumps(as_json(args, rows, problems, seconds), indent=2) + "\n")
    return 1 if problems else 0


def parse_faults(text: str) -> list[str]:
    faults = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in faults if name not in FAULTS]
    if unknown or not faults:
        raise argparse.ArgumentTypeError(
            f"faults are {', '.join(FAULTS)}; not {', '.join(unknown) or 'none'}"
        )
    return faults


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--faults", type=parse_faults, default=list(FAULTS), help="comma-separated, in order")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=12, help="practice games played at once")
    parser.add_argument("--warmup", type=float, default=8.0, help="seconds of play before each fault")
    parser.add_argument("--settle", type=float, default=25.0, help="seconds of play after each fault")
    parser.add_argument("--stuck", type=float, default=15.0, help="stuck: no event in this many last seconds")
    parser.add_argument("--stop-seconds", type=float, default=8.0, help="how long `stop` pauses a process")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds Redis or PostgreSQL stays down")
    parser.add_argument(
        "--silence", type=float, default=3.0, help="seconds before a person drops a mute socket"
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures and every sample here")
    parser.add_argument("--logs", metavar="DIR", help="where the logs go (default: a temp dir, kept)")
    args = parser.parse_args()
    if args.processes < 2:
        raise SystemExit("--processes must be at least 2 (one to lose, one to take its tables over)")
    if args.stuck >= args.settle:
        raise SystemExit("--stuck must be shorter than --settle")
    logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="tranque-chaos-logs-"))
    logs.mkdir(parents=True, exist_ok=True)
    postgres = Postgres()
    redis = Redis(logs)
    try:
        postgres.create()
        code = asyncio.run(run_async(args, logs, postgres, redis))
    finally:
        redis.kill()
        postgres.destroy()
    raise SystemExit(code)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        main()
    except KeyboardInterrupt:
        raise SystemExit(130) from None
