"""Failover of a cluster: the owner of live tables SIGKILLed, again and again, while people play.

    python benchmarks/failover.py [--kills 20] [--lease S] [--processes 3] [--think 0.3-1.5]
                                  [--redis URL] [--pause S] [--logs DIR]
    python benchmarks/failover.py --bulk 1000     # takeover at scale (below)

It starts `--processes` server processes (this file run with `--node`: `create_app` with
`Settings(redis_url=..., cluster=ClusterSettings(prefix=...))`, uvicorn as `tranque serve`
runs it) on a fresh database of the local PostgreSQL (dropped at the end) and one Redis, with
the default lease settings (`ClusterSettings()`: a lease of 2.5 s renewed every 0.5 s, read
every 0.5 s by the other processes) unless `--lease S` is given (renewed and read every S/5).
The settings are the defaults otherwise (bots pause 0.6 s, a forced move is made after 1 s,
8 s between rounds unless every person says «listo»), except the per-address quotas: every
client here comes from 127.0.0.1.

It seats games as people would (accounts registered, a public table made on one process, its
people seated through every process in turn, bots in the other seats), and each person plays
over a WebSocket to a process chosen in turn: on each `options` it waits a think time and
sends a legal move (forced moves are left to the server); it says «listo» between rounds.
A person whose process dies opens a socket on another live process and resumes with `hello`
and `last_seq`, as a browser behind a load balancer would. New games are seated as others
end, so there are always live tables.

Then `--kills` times: it picks a live table, reads its lease in Redis (`{prefix}:table:{id}`,
"node/epoch"), finds that process through GET /api/cluster, SIGKILLs it and at once starts a
new process on the same port, and measures, for every live table the killed process owned,
the seconds from the kill to the first new event a client of that table receives. At the end
every game is played out and checked: each person received every event of its table once, in
order (over every socket it had), up to `game_ended`; the log in PostgreSQL has no gap and ends
with the game won; every move a person had acknowledged is in the log. Goal: kill -> next
event <= 5 s.

`--bulk N` measures instead how long a takeover of many tables takes: two processes
(server_load.py's launcher) each make and own half of N tables (games started, no sockets);
process 1 is SIGKILLed, and process 0's GET /api/cluster is read every 50 ms until its
`takeovers` reach the number of tables process 1 owned.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import random
import secrets
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
import websockets
from rich.console import Console
from rich.table import Table as RichTable
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import DEFAULT_REDIS, free_port, fresh_postgres, percentile, redis_prefix

PASSWORD = "dominó-de-prueba-9271"
START_SECONDS = 60.0  # for a process to answer GET /api/cluster
FRAME_SECONDS = 120.0  # a person that hears nothing for this long reports a hung game
RESUME_SECONDS = 60.0  # for a killed owner's tables to move again
END_SECONDS = 900.0  # for every game to be played out after the last kill

# (table options, how many of its seats are people): bots in the others. Short games.
GAMES: list[tuple[dict[str, Any], int]] = [
    ({"preset": "clasico", "players": 4, "mode": "pairs", "target": 100}, 2),
    ({"preset": "sin-pozo", "players": 2, "mode": "individual", "target": 50}, 2),
    ({"preset": "ponce", "players": 4, "mode": "pairs"}, 3),
    ({"preset": "en-contra", "players": 3, "mode": "individual"}, 1),
    ({"preset": "latino", "players": 4, "mode": "pairs"}, 4),
    ({"preset": "futbol", "players": 2, "mode": "individual"}, 1),
]


# One server process (failover.py --node ...) ---------------------------------------------------


def node_main(args: argparse.Namespace) -> None:
    import uvicorn

    from tranque.server import runtime
    from tranque.server.app import create_app
    from tranque.server.cluster.settings import ClusterSettings
    from tranque.server.lobby.limits import Limits
    from tranque.server.settings import Settings
    from tranque.terminal.serve import proxy_options

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("tranque.server.store").setLevel(logging.WARNING)
    if args.lease is None:
        cluster = ClusterSettings(prefix=args.prefix)
    else:
        lease = args.lease
        cluster = ClusterSettings(
            prefix=args.prefix, lease_seconds=lease, renew_seconds=lease / 5, scan_seconds=lease / 5
        )
    settings = Settings(
        database_url=args.database_url,
        redis_url=args.redis_url,
        cluster=cluster,
        registrations_per_address_per_hour=100_000,  # every person here comes from 127.0.0.1
        limits=Limits(live_games_per_address=100_000),
    )
    app = create_app(settings)
    runtime.tune_garbage_collector()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        **runtime.uvicorn_options(settings.limits),
        ws_ping_interval=settings.socket_limits.ping_seconds,
        ws_ping_timeout=settings.socket_limits.pong_seconds,
        **proxy_options(argparse.Namespace(forwarded_allow_ips=None)),
    )


@dataclass
class Node:
    """A server process of the run, on a port it keeps across restarts."""

    index: int
    port: int
    command: list[str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    name: str | None = None  # its node name in the cluster (GET /api/cluster), per start
    starts: int = 0
    ready_at: float = 0.0  # when it last answered after a start (monotonic)

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
        with self.log_path.open("ab") as log:
            log.write(f"--- start {self.starts} at {time.time():.3f}\n".encode())
            log.flush()
            self.process = subprocess.Popen(
                [*self.command, "--port", str(self.port)],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    async def ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.process is not None and self.process.poll() is not None:
                    raise SystemExit(f"process {self.index} exited: {self.log_path.read_text()[-3000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.get(self.http + "/api/cluster")
                    if answer.status_code == 200:
                        self.name, self.ready_at = answer.json()["node"], time.monotonic()
                        return
                await asyncio.sleep(0.05)
        raise SystemExit(f"process {self.index} did not start: {self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    async def status(self) -> dict[str, Any]:
        async with httpx.AsyncClient(timeout=10) as http:
            answer: dict[str, Any] = (await http.get(self.http + "/api/cluster")).json()
            return answer


# People ----------------------------------------------------------------------------------------


@dataclass
class Person:
    """One seat's person over a WebSocket: plays what `options` offers after a think time,
    says «listo» between rounds, and moves to another live process when its own dies."""

    table: str
    token: str
    node: Node
    cluster: Cluster
    think: tuple[float, float]
    rng: random.Random
    seat: int | None = None
    last_seq: int = 0  # the last event applied
    arrivals: list[tuple[int, float]] = field(default_factory=list)  # (seq, monotonic) of each event
    gaps: list[tuple[int, int]] = field(default_factory=list)  # (expected, received)
    duplicates: int = 0
    syncs: int = 0
    ended: dict[str, Any] | None = None
    between_rounds: bool = False
    moves: int = 0  # sockets it moved to another process
    errors: dict[str, int] = field(default_factory=dict)
    # Each acknowledged move: the last event number when it was asked, its ack's number, the action.
    acked: list[tuple[int, int, dict[str, Any]]] = field(default_factory=list)
    options: dict[str, Any] | None = None  # the last options received, while its turn lasts
    socket: ClientConnection | None = None
    next_id: int = 0
    asked: dict[int, tuple[str, int, dict[str, Any] | None]] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def play(self) -> None:
        await self._connect()
        while self.ended is None:
            assert self.socket is not None
            try:
                async with asyncio.timeout(FRAME_SECONDS):
                    text = await self.socket.recv()
            except websockets.ConnectionClosed:
                await self._move()
                continue
            except TimeoutError:
                raise SystemExit(
                    f"table {self.table} seat {self.seat}: nothing for {FRAME_SECONDS:.0f} s at seq "
                    f"{self.last_seq} on process {self.node.index}"
                ) from None
            await self._on_frame(json.loads(text))
        for task in list(self.tasks):
            task.cancel()
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()

    async def _connect(self) -> None:
        self.socket = await connect(self.node.ws, compression=None, max_size=1 << 22, open_timeout=10)
        # The whole log the first time (every event from 1), then what came after the last one.
        await self._send(
            {"type": "hello", "table": self.table, "token": self.token, "last_seq": self.last_seq}
        )

    async def _move(self) -> None:
        """Its process went away: another live one (as a load balancer would pick)."""
        self.moves += 1
        self.asked.clear()
        self.options = None
        for attempt in range(600):
            live = [node for node in self.cluster.nodes if node.alive and node is not self.node]
            self.node = self.rng.choice(live or [node for node in self.cluster.nodes if node.alive])
            try:
                await self._connect()
                return
            except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                await asyncio.sleep(0.05 if attempt < 20 else 0.2)
        raise SystemExit(f"no process took table {self.table}'s socket back")

    async def _send(self, message: dict[str, Any], action: dict[str, Any] | None = None) -> None:
        self.next_id += 1
        self.asked[self.next_id] = (message["type"], self.last_seq, action)
        with contextlib.suppress(websockets.ConnectionClosed):
            assert self.socket is not None
            await self.socket.send(json.dumps({**message, "id": self.next_id}))

    def _later(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _on_frame(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "event":
            self._on_event(frame)
        elif kind == "sync":
            self.syncs += 1
            self.last_seq = frame["seq"]
            self.seat = frame["you"]
        elif kind == "options":
            self.options = frame
            legal = frame["legal_actions"]
            forced = len(legal) == 1 and legal[0]["type"] in ("pass", "draw")
            if not forced:  # a forced move is the server's to make, as for a person
                self._later(self._act(frame))
        elif kind in ("ack", "error"):
            await self._answered(frame)

    def _on_event(self, frame: dict[str, Any]) -> None:
        seq = frame["seq"]
        if seq <= self.last_seq:
            self.duplicates += 1
            return
        if seq != self.last_seq + 1:
            self.gaps.append((self.last_seq + 1, seq))
        self.last_seq = seq
        self.arrivals.append((seq, time.monotonic()))
        kind, data = frame["kind"], frame["data"]
        if kind == "turn":
            if self.options is not None and self.options["turn_id"] != data["turn_id"]:
                self.options = None
        elif kind == "round_ended":
            self.between_rounds = True
            self._later(self._ready())
        elif kind == "round_started":
            self.between_rounds = False
        elif kind == "game_ended":
            self.ended = data

    async def _act(self, options: dict[str, Any]) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.options is not options or self.ended is not None:
            return  # the turn is over (or the socket moved: a new `options` comes)
        action = self.rng.choice(options["legal_actions"])
        await self._send({"type": "act", "action": action, "turn_id": options["turn_id"]}, action)

    async def _ready(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.between_rounds and self.ended is None:
            await self._send({"type": "ready"})

    async def _answered(self, frame: dict[str, Any]) -> None:
        what, seq_then, action = self.asked.pop(frame["id"], ("?", 0, None))
        if frame["type"] == "ack":
            if what == "hello":
                self.seat = frame.get("seat", self.seat)
                if self.between_rounds:  # a «listo» sent to a process that died may be lost
                    self._later(self._ready())
            elif what == "act" and action is not None:
                self.acked.append((seq_then, frame["seq"], action))
            return
        code = frame["code"]
        self.errors[code] = self.errors.get(code, 0) + 1
        if code == "table_moved":  # nothing was done: the table is changing hands; ask again
            await asyncio.sleep(0.2)
            if what == "hello":
                hello = {"type": "hello", "table": self.table, "token": self.token, "last_seq": self.last_seq}
                await self._send(hello)
            elif what == "ready" and self.between_rounds:
                await self._send({"type": "ready"})
            elif what == "act" and self.options is not None:
                self._later(self._act(self.options))


# The cluster and its games ----------------------------------------------------------------------


class Cluster:
    def __init__(self, args: argparse.Namespace, database: str, prefix: str, logs: Path) -> None:
        command = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--node",
            "--database-url",
            database,
            "--redis-url",
            args.redis,
            "--prefix",
            prefix,
        ]
        if args.lease is not None:
            command += ["--lease", str(args.lease)]
        self.nodes = [
            Node(index, free_port(), command, logs / f"process-{index}.log")
            for index in range(args.processes)
        ]
        self.prefix = prefix
        self.redis_url = args.redis
        self.think = args.think
        self.people: list[Person] = []
        self.plays: list[asyncio.Task[None]] = []
        self.batches = 0

    async def start(self) -> None:
        # The first process makes the schema; the others find it there.
        self.nodes[0].start()
        await self.nodes[0].ready()
        for node in self.nodes[1:]:
            node.start()
        for node in self.nodes[1:]:
            await node.ready()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def live_tables(self) -> list[str]:
        tables = {person.table for person in self.people}
        over = {person.table for person in self.people if person.ended is not None}
        return sorted(tables - over)

    def last_seq(self, table: str) -> int:
        return max(person.last_seq for person in self.people if person.table == table)

    def over(self, table: str) -> bool:
        return any(person.table == table and person.ended is not None for person in self.people)

    async def seat_games(self) -> None:
        """A batch of games: each made on a process in turn, its people seated through every
        process in turn and playing on sockets to every process in turn."""
        count = len(self.nodes)
        batch, self.batches = self.batches, self.batches + 1
        for index, (rules, humans) in enumerate(GAMES):
            host = self.nodes[(batch + index) % count]
            table, seated = await seat(self.nodes, host, rules, humans)
            for number, token in enumerate(seated):
                node = self.nodes[(batch + index + number + 1) % count]
                rng = random.Random(f"{batch}-{index}-{number}")
                person = Person(table, token, node, self, self.think, rng)
                self.people.append(person)
                self.plays.append(asyncio.get_running_loop().create_task(person.play()))

    async def owners(self, tables: list[str]) -> dict[str, str | None]:
        """Each table's owner as its lease in Redis names it."""
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(self.redis_url, decode_responses=True)
        try:
            values = await client.mget([f"{self.prefix}:table:{table}" for table in tables])
        finally:
            await client.aclose()
        return {table: _node_of(value) for table, value in zip(tables, values, strict=True)}

    def node_named(self, name: str | None) -> Node | None:
        return next((node for node in self.nodes if node.alive and node.name == name), None)


def _node_of(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode()
    node, _, epoch = value.rpartition("/")
    return node if node and epoch.isdigit() else None


async def seat(nodes: list[Node], host: Node, rules: dict[str, Any], humans: int) -> tuple[str, list[str]]:
    """A public table made on `host` by the first of `humans` new accounts, each seated
    through the processes in turn, bots in the other seats: the game has started."""
    jars = []
    async with httpx.AsyncClient(base_url=host.http, timeout=30) as http:
        for _ in range(humans):
            name = f"f{secrets.token_hex(5)}"
            answer = await http.post("/api/register", json={"name": name, "password": PASSWORD})
            answer.raise_for_status()
            jars.append(dict(answer.cookies))
            http.cookies.clear()
        answer = await http.post("/api/tables", json={**rules, "private": False}, cookies=jars[0])
        answer.raise_for_status()
    table: str = answer.json()["table"]
    tokens = []
    for number, jar in enumerate(jars):
        node = nodes[(nodes.index(host) + number) % len(nodes)]
        (sat,) = await over_socket(node, jar, {"type": "sit", "table": table})
        tokens.append(sat["token"])
    if humans < int(rules["players"]):
        hello = {"type": "hello", "table": table, "token": tokens[0]}
        await over_socket(host, jars[0], hello, {"type": "fill_bots", "level": "greedy"})
    return table, tokens


async def over_socket(node: Node, jar: dict[str, str], *messages: dict[str, Any]) -> list[dict[str, Any]]:
    """Send `messages` over one socket of the account whose cookies are `jar`: their acks."""
    cookie = "; ".join(f"{name}={value}" for name, value in jar.items())
    answers = []
    async with connect(node.ws, additional_headers={"cookie": cookie}, open_timeout=10) as socket:
        for number, message in enumerate(messages, 1):
            await socket.send(json.dumps({**message, "id": number}))
            async with asyncio.timeout(30):
                while True:
                    answer = json.loads(await socket.recv())
                    if answer.get("id") == number and answer["type"] in ("ack", "error"):
                        break
            if answer["type"] != "ack":
                raise SystemExit(f"{message['type']} refused on process {node.index}: {answer}")
            answers.append(answer)
    return answers


# Kills ------------------------------------------------------------------------------------------


@dataclass
class Kill:
    number: int
    node: int
    tables: dict[str, float]  # each live table the killed process owned -> seconds to its next event
    restart_seconds: float  # from the kill until the new process answered


async def kill_once(cluster: Cluster, number: int, rng: random.Random) -> Kill | None:
    live = cluster.live_tables()
    if not live:
        return None
    owners = await cluster.owners(live)
    target = cluster.node_named(owners[rng.choice(live)])
    if target is None:
        return None  # its table is changing hands right now: another time
    owned = [table for table in live if owners[table] == target.name and not cluster.over(table)]
    marks = {table: cluster.last_seq(table) for table in owned}
    killed_at = time.monotonic()
    target.kill()
    target.start()
    restart = asyncio.get_running_loop().create_task(target.ready())
    deadline = killed_at + RESUME_SECONDS
    while time.monotonic() < deadline:
        if all(cluster.last_seq(table) > seq or cluster.over(table) for table, seq in marks.items()):
            break
        await asyncio.sleep(0.02)
    else:
        raise SystemExit(f"kill {number}: tables {marks} did not move within {RESUME_SECONDS:.0f} s")
    await restart
    restart_seconds = target.ready_at - killed_at
    seconds = {}
    for table, seq in marks.items():
        firsts = [
            at for person in cluster.people if person.table == table for s, at in person.arrivals if s > seq
        ]
        if firsts:  # a table whose game was over by the kill has none
            seconds[table] = min(firsts) - killed_at
    return Kill(number, target.index, seconds, restart_seconds)


# Checks -----------------------------------------------------------------------------------------


async def check(database: str, people: list[Person]) -> list[str]:
    """What was lost or wrong: nothing, when every check passes."""
    from tranque.server.store.sql import SqlStore

    problems = []
    store = SqlStore(database)
    await store.start()
    try:
        logs = {table: await store.load_events(table) for table in sorted({p.table for p in people})}
    finally:
        await store.close()
    for table, log in logs.items():
        if [event.seq for event in log] != list(range(1, len(log) + 1)):
            problems.append(f"table {table}: its log has gaps")
        if not log or log[-1].kind != "game_ended" or log[-1].data.get("reason") != "target":
            last = (log[-1].kind, log[-1].data) if log else None
            problems.append(f"table {table}: the game was not won (last event {last})")
    for person in people:
        log = logs[person.table]
        seqs = [seq for seq, _ in person.arrivals]
        if person.gaps or seqs != list(range(1, len(seqs) + 1)):
            problems.append(f"table {person.table} seat {person.seat}: events missed {person.gaps}")
        if log and seqs and seqs[-1] != log[-1].seq:
            problems.append(f"table {person.table} seat {person.seat}: ended at {seqs[-1]} of {log[-1].seq}")
        for before, after, action in person.acked:
            moves = [e for e in log[before:after] if e.kind == "action" and e.data["seat"] == person.seat]
            if not any(event.data["action"] == action for event in moves):
                problems.append(
                    f"table {person.table} seat {person.seat}: acknowledged {action} not in the log"
                )
    return problems


# The run ----------------------------------------------------------------------------------------


async def run_async(args: argparse.Namespace, database: str, prefix: str, logs: Path) -> int:
    console = Console(width=max(130, Console().width))
    cluster = Cluster(args, database, prefix, logs)
    rng = random.Random(args.seed)
    started = time.monotonic()
    kills: list[Kill] = []
    try:
        await cluster.start()
        await cluster.seat_games()
        while len(kills) < args.kills:
            if len(cluster.live_tables()) < args.live:
                await cluster.seat_games()
                continue
            await asyncio.sleep(args.pause)
            kill = await kill_once(cluster, len(kills) + 1, rng)
            if kill is None or not kill.tables:
                continue
            kills.append(kill)
            times = sorted(kill.tables.values())
            console.print(
                f"kill {kill.number:2d}: process {kill.node}, {len(times)} live table(s) it owned, "
                f"kill -> next event {times[0]:.2f}-{times[-1]:.2f} s; "
                f"restarted in {kill.restart_seconds:.2f} s"
            )
        ending = time.monotonic()
        done, pending = await asyncio.wait(cluster.plays, timeout=END_SECONDS)
        for task in done:
            task.result()  # a person that gave up raises here
        if pending:
            stuck = sorted({p.table for p in cluster.people if p.ended is None})
            raise SystemExit(
                f"{len(stuck)} game(s) not over {END_SECONDS:.0f} s after the last kill: {stuck}"
            )
        played_out = time.monotonic() - ending
        statuses = [await node.status() for node in cluster.nodes]
        problems = await check(database, cluster.people)
    finally:
        for task in cluster.plays:
            task.cancel()
        cluster.stop()

    report(console, args, cluster, kills, statuses, problems, time.monotonic() - started, played_out, logs)
    return 1 if problems else 0


def report(
    console: Console,
    args: argparse.Namespace,
    cluster: Cluster,
    kills: list[Kill],
    statuses: list[dict[str, Any]],
    problems: list[str],
    seconds: float,
    played_out: float,
    logs: Path,
) -> None:
    lease = "default (ClusterSettings(): lease 2.5 s, renewed and read every 0.5 s)"
    if args.lease is not None:
        lease = f"lease {args.lease:g} s, renewed and read every {args.lease / 5:g} s"
    per_kill = RichTable(title="Kills (SIGKILL of a live table's owner, a new process on its port at once)")
    for name in ("kill", "process", "tables", "min s", "median s", "max s", "restarted s"):
        per_kill.add_column(name, justify="right")
    for kill in kills:
        times = sorted(kill.tables.values())
        per_kill.add_row(
            str(kill.number),
            str(kill.node),
            str(len(times)),
            f"{times[0]:.2f}",
            f"{statistics.median(times):.2f}",
            f"{times[-1]:.2f}",
            f"{kill.restart_seconds:.2f}",
        )
    console.print()
    console.print(per_kill)

    every = [value for kill in kills for value in kill.tables.values()]
    worst = [max(kill.tables.values()) for kill in kills]
    people = cluster.people
    summary = RichTable(title=f"Failover — {args.processes} processes, {lease}", show_header=False)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row(
        "kill -> next event, every table",
        f"p50 {percentile(every, 0.5):.2f} s  p99 {percentile(every, 0.99):.2f} s  "
        f"max {max(every, default=float('nan')):.2f} s  (n={len(every)} tables over {len(kills)} kills)",
    )
    summary.add_row(
        "kill -> every table moving again",
        f"p50 {percentile(worst, 0.5):.2f} s  p99 {percentile(worst, 0.99):.2f} s  "
        f"max {max(worst, default=float('nan')):.2f} s  (per kill: its slowest table)",
    )
    tables = sorted({person.table for person in people})
    summary.add_row(
        "games",
        f"{len(tables)} played out ({cluster.batches} batches of {len(GAMES)}), {len(people)} people, "
        f"think {args.think[0]:g}-{args.think[1]:g} s; the last ended {played_out:.0f} s after the last kill",
    )
    errors: dict[str, int] = {}
    for person in people:
        for code, count in person.errors.items():
            errors[code] = errors.get(code, 0) + count
    summary.add_row(
        "sockets moved / refusals",
        f"{sum(p.moves for p in people)} moved to another process; refusals "
        + (", ".join(f"{code} {count}" for code, count in sorted(errors.items())) or "none")
        + f"; {sum(p.duplicates for p in people)} duplicate events ignored",
    )
    summary.add_row(
        "GET /api/cluster at the end",
        "; ".join(
            f"{index}: " + ", ".join(f"{key} {value}" for key, value in status.items() if key != "node")
            for index, status in enumerate(statuses)
        ),
    )
    summary.add_row(
        "nothing lost",
        "yes: every person got every event once and in order up to game_ended, every log is whole "
        "and won, every acknowledged move is in it"
        if not problems
        else f"NO: {len(problems)} problem(s)",
    )
    goal = max(every, default=float("inf")) <= 5.0 and not problems
    summary.add_row("goal kill -> next event <= 5 s", "MET" if goal else "NOT MET")
    summary.add_row("run", f"{seconds:.0f} s; process logs in {logs}")
    console.print(summary)
    for problem in problems[:30]:
        console.print(f"  [red]{problem}[/red]")


def bulk(args: argparse.Namespace) -> None:
    """Takeover at scale: two processes (server_load.py's launcher, default lease settings),
    each making and owning half of `--bulk N` tables (four seats taken, games started, no
    sockets); process 1 is SIGKILLed and process 0's GET /api/cluster is read every 50 ms
    until it has taken every table over."""
    import server_load

    load = argparse.Namespace(
        processes=2,
        tables=args.bulk,
        ws="served",
        server_deflate="off",
        server_gc="tuned",
        redis=args.redis,
    )
    with fresh_postgres() as database, redis_prefix(args.redis, "failover") as prefix:
        workdir = Path(tempfile.mkdtemp(prefix="tranque-failover-"))
        servers = server_load.start_servers(load, workdir, workdir / "seats.json", database, prefix)
        try:
            for server in servers:
                server_load.wait_for_file(server.seats, server.process, server_load.LAUNCH_TIMEOUT)
            server_load.until_replicas(servers, args.bulk, server_load.LAUNCH_TIMEOUT)
            for server in servers:
                server.post("/_bench/start?stagger=0")
            time.sleep(5)
            owned = servers[1].get("/api/cluster")["owned"]
            killed = time.monotonic()
            servers[1].process.kill()
            servers[1].process.wait()
            marks: dict[int, float] = {}
            wanted = sorted({1, owned // 4, owned // 2, 3 * owned // 4, owned} - {0})
            status: dict[str, Any] = {}
            while time.monotonic() - killed < RESUME_SECONDS and len(marks) < len(wanted):
                status = servers[0].get("/api/cluster")
                for count in wanted:
                    if status["takeovers"] >= count and count not in marks:
                        marks[count] = time.monotonic() - killed
                time.sleep(0.05)
        finally:
            for server in servers:
                if server.process.poll() is None:
                    server.process.terminate()
                    server.process.wait(30)
            for leftover in workdir.iterdir():
                leftover.unlink()
            workdir.rmdir()
    table = RichTable(title=f"Takeover at scale: {args.bulk} tables on 2 processes, process 1 SIGKILLed")
    table.add_column("tables taken over by process 0", justify="right")
    table.add_column("seconds after the kill", justify="right")
    for count in wanted:
        table.add_row(f"{count} of {owned}", f"{marks[count]:.2f}" if count in marks else "not within 60 s")
    console = Console(width=max(100, Console().width))
    console.print(table)
    console.print(f"process 0 at the end: {status}")


def parse_think(text: str) -> tuple[float, float]:
    low, _, high = text.partition("-")
    return float(low), float(high or low)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--lease", type=float, default=None, help="seconds (default: ClusterSettings())")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--think", type=parse_think, default=(0.3, 1.5), help="seconds, a-b (people)")
    parser.add_argument("--live", type=int, default=4, help="seat a new batch below this many live games")
    parser.add_argument(
        "--pause", type=float, default=1.0, help="seconds between a restart and the next kill"
    )
    parser.add_argument("--redis", default=DEFAULT_REDIS, metavar="URL")
    parser.add_argument("--logs", metavar="DIR", help="where the processes' logs go (default: a temp dir)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bulk",
        type=int,
        metavar="N",
        help="instead: N tables on 2 processes, one killed: how long the other takes to take its half over",
    )
    # One server process (internal).
    parser.add_argument("--node", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.node:
        node_main(args)
        return
    if args.bulk:
        bulk(args)
        return
    if args.processes < 2:
        raise SystemExit("--processes must be at least 2 (one to kill, one to take its tables over)")
    logs = Path(args.logs) if args.logs else Path(tempfile.mkdtemp(prefix="tranque-failover-"))
    logs.mkdir(parents=True, exist_ok=True)
    with fresh_postgres() as database, redis_prefix(args.redis, "failover") as prefix:
        code = asyncio.run(run_async(args, database, prefix, logs))
    raise SystemExit(code)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        main()
