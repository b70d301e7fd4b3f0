"""Simulated dominó players over real WebSockets: the client side of `server_load.py`.

    python benchmarks/load_client.py --url ws://127.0.0.1:PORT/ws --seats SEATS.json \
        --part 0/1 [--think 0.5-2 | --think 0] [--compression deflate|none]

`server_load.py` starts one or more of these (`--workers`). Each process drives its share of
the seats on one asyncio loop, many sockets at once. The exchange with the parent is one
JSON line each way: the worker prints {"connected": n, ...} once every socket has said
hello; the parent answers on stdin {"t1": ..., "t2": ...} (the measured window, wall clock);
the worker plays until t2, then prints its figures as one JSON line and exits.

Each player keeps its own view of the round from the frames it receives (its hand from
`round_started`, the ends from every `action`), and on its turn waits a think time and sends
an `act` with a legal move; it sends `ready` between rounds. A forced pass is left to the
server's auto-move (as a person would), except with zero think time, where it is sent at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

Tile = tuple[int, int]  # (high, low)

CONNECT_CONCURRENCY = 100


def parse_tile(text: str) -> Tile:
    high, low = text.split("-")
    return int(high), int(low)


def tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


def raise_open_files_limit() -> int:
    """Lift the soft limit on open files to the hard limit; returns the new soft limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


@dataclass
class SeatModel:
    """What one seat knows of the round in play, enough to choose a legal move (R6–R9)."""

    seat: int
    hand: set[Tile] = field(default_factory=set)
    ends: tuple[int, int] | None = None
    round: int = 0
    boneyard_count: int = 0

    def round_started(self, data: dict[str, Any]) -> None:
        self.hand = {parse_tile(t) for t in data["hand"] or []}
        self.ends = None
        self.round = data["round"]
        self.boneyard_count = data["boneyard_count"]

    def from_view(self, view: dict[str, Any], round_number: int) -> None:
        self.hand = {parse_tile(t) for t in view["hand"]}
        ends = view["ends"]
        self.ends = (ends[0], ends[1]) if ends is not None else None
        self.round = round_number
        self.boneyard_count = view["boneyard_count"]

    def action(self, data: dict[str, Any]) -> None:
        action = data["action"]
        if action["type"] == "draw":
            self.boneyard_count -= 1
            if data["seat"] == self.seat and data.get("drawn"):
                self.hand.add(parse_tile(data["drawn"]))
            return
        if action["type"] != "play":
            return
        tile = parse_tile(action["tile"])
        if data["seat"] == self.seat:
            self.hand.discard(tile)
        if self.ends is None:
            self.ends = tile
        elif action["side"] == "right":
            self.ends = (self.ends[0], _other_half(tile, self.ends[1]))
        else:
            self.ends = (_other_half(tile, self.ends[0]), self.ends[1])

    def choose(self, rng: random.Random) -> dict[str, Any]:
        """A legal action as JSON: any fitting tile at random, else draw, else pass."""
        if self.ends is None:
            if self.round == 0:  # R6: the highest double leads (with 4 players everything is dealt)
                doubles = [t for t in self.hand if t[0] == t[1]]
                lead = max(doubles) if doubles else max(self.hand, key=lambda t: (t[0] + t[1], t[0]))
            else:
                lead = rng.choice(sorted(self.hand))
            return {"type": "play", "tile": tile_text(lead), "side": None}
        left, right = self.ends
        options = [
            (tile, "left" if left in tile else "right") for tile in self.hand if left in tile or right in tile
        ]
        if options:
            tile, side = rng.choice(sorted(options))
            return {"type": "play", "tile": tile_text(tile), "side": side}
        return {"type": "draw"} if self.boneyard_count > 0 else {"type": "pass"}


def _other_half(tile: Tile, matched: int) -> int:
    return tile[1] if tile[0] == matched else tile[0]


@dataclass
class Window:
    t1: float = float("inf")  # measuring starts (wall clock)
    t2: float = float("inf")  # the run ends

    def inside(self, at: float) -> bool:
        return self.t1 <= at < self.t2


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)  # act sent -> its action event
    latency_remote: list[bool] = field(default_factory=list)  # each: its socket is not on the owner
    sent_at: list[float] = field(default_factory=list)  # when each of those acts was sent
    ack_ms: list[float] = field(default_factory=list)  # act sent -> its ack
    actions: int = 0  # actions by our players, accepted in the window
    auto_actions: int = 0  # server-made moves (forced passes, timeouts) for our seats, in the window
    rounds: int = 0  # round_ended seen (once per table: counted by seat 0 only)
    frames: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    disconnects: int = 0
    connect_failures: int = 0
    loop_lag_ms: list[float] = field(default_factory=list)


class Player:
    def __init__(
        self, url: str, entry: dict[str, Any], think: tuple[float, float], stats: Stats, window: Window
    ) -> None:
        # With several server processes the seats file names each socket's process (and
        # whether that process owns the table): server_load.py --processes P.
        self.url = entry.get("url", url)
        self.remote = bool(entry.get("remote", False))
        self.table: str = entry["table"]
        self.token: str = entry["token"]
        self.model = SeatModel(entry["seat"])
        self.think = think
        self.stats = stats
        self.window = window
        self.rng = random.Random()
        self.ws: ClientConnection | None = None
        self.next_id = 0
        self.pending: dict[int, float] = {}  # act id -> send time
        self.waiting_action: float | None = None  # send time of the act whose event is awaited
        self.ready = asyncio.Event()
        self.playing = True
        self.turn_id: int | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def open(self, compression: str | None) -> None:
        self.ws = await connect(
            self.url, compression=compression, ping_interval=None, open_timeout=60, max_size=1 << 22
        )
        self.next_id += 1
        await self.ws.send(
            json.dumps({"type": "hello", "id": self.next_id, "table": self.table, "token": self.token})
        )

    async def run(self) -> None:
        assert self.ws is not None
        try:
            async for raw in self.ws:
                data = json.loads(raw)
                if isinstance(data, list):  # several messages in one frame (BENCH_COALESCE)
                    for message in data:
                        self.on_frame(message)
                else:
                    self.on_frame(data)
        except ConnectionClosed:
            pass
        if self.playing:
            self.stats.disconnects += 1

    def on_frame(self, message: dict[str, Any]) -> None:
        stats, now = self.stats, time.time()
        if self.window.inside(now):
            stats.frames += 1
        kind = message["type"]
        if kind == "event":
            self.on_event(message["kind"], message["data"], now)
        elif kind == "ack":
            sent = self.pending.pop(message["id"], None)
            if sent is not None and self.window.inside(sent):
                stats.ack_ms.append((now - sent) * 1000)
            if not self.ready.is_set():
                self.ready.set()
        elif kind == "error":
            self.pending.pop(message.get("id") or 0, None)
            self.waiting_action = None
            if self.window.inside(now) or not self.ready.is_set():
                stats.errors[message["code"]] = stats.errors.get(message["code"], 0) + 1
            if not self.ready.is_set():
                self.ready.set()
        elif kind == "sync":
            self.on_sync(message)

    def on_sync(self, sync: dict[str, Any]) -> None:
        if sync["view"] is not None:
            self.model.from_view(sync["view"], sync["round"])
        turn = sync["turn"]
        if sync["phase"] == "playing" and turn is not None and turn["seat"] == self.model.seat:
            legal = sync["view"]["legal_actions"]
            forced = len(legal) == 1 and legal[0]["type"] in ("pass", "draw")
            self.my_turn(turn["turn_id"], forced)

    def on_event(self, kind: str, data: dict[str, Any], now: float) -> None:
        model, stats = self.model, self.stats
        if kind == "action":
            model.action(data)
            if data["seat"] == model.seat:
                if self.window.inside(now):
                    if data["by"] == "human":
                        stats.actions += 1
                    else:
                        stats.auto_actions += 1
                if self.waiting_action is not None and data["by"] == "human":
                    if self.window.inside(self.waiting_action):
                        stats.latencies_ms.append((now - self.waiting_action) * 1000)
                        stats.latency_remote.append(self.remote)
                        stats.sent_at.append(self.waiting_action)
                    self.waiting_action = None
        elif kind == "turn":
            self.turn_id = data["turn_id"]
            if data["seat"] == model.seat:
                self.my_turn(data["turn_id"], data["auto"])
        elif kind == "round_started":
            model.round_started(data)
        elif kind == "round_ended":
            if model.seat == 0 and self.window.inside(now):
                stats.rounds += 1
            self.later(self.send_ready())

    def my_turn(self, turn_id: int, forced: bool) -> None:
        zero = self.think[1] == 0
        if forced and not zero:
            return  # the server plays a forced pass or draw by itself after a short pause
        self.later(self.act(turn_id))

    def later(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def pause(self) -> None:
        low, high = self.think
        if high > 0:
            await asyncio.sleep(self.rng.uniform(low, high))

    async def act(self, turn_id: int) -> None:
        await self.pause()
        if not self.playing or self.turn_id != turn_id or self.ws is None:
            return
        action = self.model.choose(self.rng)
        self.next_id += 1
        sent = time.time()
        self.pending[self.next_id] = sent
        self.waiting_action = sent
        message = {"type": "act", "id": self.next_id, "action": action, "turn_id": turn_id}
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps(message))

    async def send_ready(self) -> None:
        await self.pause()
        if not self.playing or self.ws is None:
            return
        self.next_id += 1
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(json.dumps({"type": "ready", "id": self.next_id}))

    async def close(self) -> None:
        self.playing = False
        for task in list(self.tasks):
            task.cancel()
        if self.ws is not None:
            with contextlib.suppress(TimeoutError, ConnectionClosed, OSError):
                await asyncio.wait_for(self.ws.close(), timeout=5)


async def measure_loop_lag(stats: Stats, window: Window, every: float = 0.1) -> None:
    """How late this process's event loop wakes up: a saturated client would inflate latencies."""
    loop = asyncio.get_running_loop()
    while True:
        planned = loop.time() + every
        await asyncio.sleep(every)
        if window.inside(time.time()):
            stats.loop_lag_ms.append((loop.time() - planned) * 1000)


async def read_line() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


def emit(data: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(data) + "\n")
    sys.stdout.flush()


async def main_async(args: argparse.Namespace) -> None:
    files = raise_open_files_limit()
    with open(args.seats) as handle:
        entries: list[dict[str, Any]] = json.load(handle)
    part, parts = (int(x) for x in args.part.split("/"))
    # Whole tables per worker: entries are grouped by table, 4 seats each.
    tables = sorted({e["table"] for e in entries}, key=[e["table"] for e in entries].index)
    mine = set(tables[part::parts])
    entries = [e for e in entries if e["table"] in mine]
    think = parse_think(args.think)
    stats, window = Stats(), Window()
    players = [Player(args.url, entry, think, stats, window) for entry in entries]
    compression = None if args.compression == "none" else "deflate"

    started = time.time()
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    runners: list[asyncio.Task[None]] = []

    async def open_one(player: Player) -> None:
        async with gate:
            try:
                await player.open(compression)
            except Exception:  # refused, timed out, closed during the handshake
                stats.connect_failures += 1
                player.ready.set()
                return
            runners.append(asyncio.get_running_loop().create_task(player.run()))
            await player.ready.wait()

    await asyncio.gather(*(open_one(p) for p in players))
    emit(
        {
            "connected": len(players) - stats.connect_failures,
            "failed": stats.connect_failures,
            "errors": stats.errors,
            "seconds": time.time() - started,
            "open_files_limit": files,
        }
    )
    stats.errors.clear()
    lag = asyncio.get_running_loop().create_task(measure_loop_lag(stats, window))
    line = await read_line()
    timing = json.loads(line)
    window.t1, window.t2 = timing["t1"], timing["t2"]
    cpu_at_t1: float | None = None
    while time.time() < window.t2:
        if cpu_at_t1 is None and time.time() >= window.t1:
            times = resource.getrusage(resource.RUSAGE_SELF)
            cpu_at_t1 = times.ru_utime + times.ru_stime
        await asyncio.sleep(min(0.2, max(0.0, window.t2 - time.time())))
    for player in players:
        player.playing = False
    times = resource.getrusage(resource.RUSAGE_SELF)
    cpu = times.ru_utime + times.ru_stime - (cpu_at_t1 or 0.0)
    lag.cancel()
    emit(
        {
            "latencies_ms": stats.latencies_ms,
            "latency_remote": stats.latency_remote,
            "sent_at": stats.sent_at,
            "ack_ms": stats.ack_ms,
            "actions": stats.actions,
            "auto_actions": stats.auto_actions,
            "rounds": stats.rounds,
            "frames": stats.frames,
            "errors": stats.errors,
            "disconnects": stats.disconnects,
            "loop_lag_ms": stats.loop_lag_ms,
            "cpu_seconds": cpu,
            "window": window.t2 - window.t1,
        }
    )
    await asyncio.gather(*(p.close() for p in players))
    for runner in runners:
        runner.cancel()


def parse_think(text: str) -> tuple[float, float]:
    """`0.5-2` -> (0.5, 2.0); `0` -> (0, 0)."""
    low, _, high = text.partition("-")
    pair = (float(low), float(high or low))
    if pair[0] < 0 or pair[1] < pair[0]:
        raise argparse.ArgumentTypeError(f"bad think range {text!r}")
    return pair


def run_async(coroutine: Any) -> None:
    """Run on uvloop when it is installed (as uvicorn does), else on asyncio."""
    try:
        import uvloop
    except ImportError:
        asyncio.run(coroutine)
    else:
        uvloop.run(coroutine)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", required=True)
    parser.add_argument(
        "--seats", required=True, help="the JSON list of {table, seat, token[, url, node, remote]}"
    )
    parser.add_argument("--part", default="0/1", help="this worker's share: index/count")
    parser.add_argument("--think", default="0.5-2")
    parser.add_argument("--compression", choices=["deflate", "none"], default="deflate")
    args = parser.parse_args()
    run_async(main_async(args))


if __name__ == "__main__":
    main()
