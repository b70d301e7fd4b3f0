"""A cluster of real server processes on one PostgreSQL database and one Redis, for tests and
benchmarks that kill, pause and restart them (tests/server/cluster/test_cluster_processes.py,
benchmarks/failover.py).

    with ProcessCluster(3, database_url, redis_url) as cluster:
        table, tokens = cluster.seat(preset="clasico", humans=2, node=0)
        client = RoamingClient(cluster, table, tokens[0], node=1)
        ...
        cluster.kill(0)           # SIGKILL
        cluster.restart(0)        # a new process on the same port

Clients of a killed process come back on another one (`RoamingClient`), resuming after the
last event they applied, as a browser behind a load balancer would.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, cast

import httpx
import redis
import websockets

from tests.server.support.harness import PROCESS_STARTUP_SECONDS, Loopback, Message, free_port
from tests.server.support.scripted import TURN_WAIT, PlainPlayer, ScriptedClient

NODE_SCRIPT = Path(__file__).with_name("cluster_node.py")
ROOT = Path(__file__).resolve().parents[3]
PASSWORD = "dominó-de-prueba-9271"


class Node(Loopback):
    """One server process of the cluster, on a port of its own that it keeps across restarts."""

    def __init__(self, index: int, args: list[str], log_dir: Path, script: Path = NODE_SCRIPT) -> None:
        self.index = index
        self.script = script  # the process's main: cluster_node.py, or a variant of its settings
        self.port = free_port()
        self.args = args
        self.log_path = log_dir / f"node-{index}.log"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.node_id: str | None = None  # its name in the cluster (a new one at each start)
        # What a scripted client reads of its server (ScriptedClient only moves a FakeClock).
        self.settings = None

    def start(self) -> None:
        self.starts += 1
        log = self.log_path.open("ab")
        # This tree's sources first: not those of whichever checkout the venv installed.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
        self.process = subprocess.Popen(
            [sys.executable, str(self.script), *self.args[:2], str(self.port), *self.args[2:]],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            cwd=ROOT,
        )
        log.close()

    def wait_ready(self, seconds: float = PROCESS_STARTUP_SECONDS) -> None:
        """Wait for the node's first answer (`seconds`: a deadline against a hang)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"node {self.index} exited: {self.log_path.read_text()[-3000:]}")
            try:
                answer = httpx.get(self.http + "/api/cluster", timeout=1)
                if answer.status_code == 200:
                    self.node_id = answer.json()["node"]
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"node {self.index} did not start: {self.log_path.read_text()[-3000:]}")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, number: int) -> None:
        assert self.process is not None
        self.process.send_signal(number)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM): it gives its leases back."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def status(self) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(self.http + "/api/cluster", timeout=5).json()
        return answer


class ProcessCluster:
    def __init__(
        self,
        count: int,
        database_url: str,
        redis_url: str,
        log_dir: Path,
        lease_seconds: float = 2.5,
        rebalance: bool = True,
        script: Path = NODE_SCRIPT,
    ) -> None:
        self.prefix = f"tranque-test-{secrets.token_hex(4)}"
        self.database_url = database_url
        self.redis_url = redis_url
        args = [
            database_url,
            redis_url,
            self.prefix,
            str(lease_seconds),
            "rebalance" if rebalance else "stay",
        ]
        self.nodes = [Node(index, args, log_dir, script) for index in range(count)]
        self.cookies: dict[str, httpx.Cookies] = {}

    def __enter__(self) -> ProcessCluster:
        try:
            # The first process makes the schema; the others then find it there.
            self.nodes[0].start()
            self.nodes[0].wait_ready()
            for node in self.nodes[1:]:
                node.start()
            for node in self.nodes[1:]:
                node.wait_ready()
        except BaseException:
            # `with` calls no __exit__ when __enter__ raises: stop the nodes that did start, or
            # they run on and their Popen objects warn later, in whichever test collects them.
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        for node in self.nodes:
            node.stop()

    def live(self) -> list[Node]:
        return [node for node in self.nodes if node.alive]

    def restart(self, index: int) -> None:
        node = self.nodes[index]
        node.kill()
        node.start()
        node.wait_ready()

    # Setting tables up, as people would: accounts, a table, seats, bots ---------------------

    async def account(self, node: Node) -> httpx.Cookies:
        """A new account, registered on `node`: its session's cookies."""
        jar, _ = await self.named_account(node)
        return jar

    async def named_account(self, node: Node) -> tuple[httpx.Cookies, str]:
        name = f"j{secrets.token_hex(5)}"
        async with httpx.AsyncClient(base_url=node.http, timeout=30) as http:
            response = await http.post("/api/register", json={"name": name, "password": PASSWORD})
            response.raise_for_status()
            return response.cookies, name

    def owner_of(self, table_id: str) -> Node | None:
        """The live process that holds the table's lease in Redis, if any."""
        client = redis.Redis.from_url(self.redis_url, decode_responses=True)
        try:
            # A str or None: the client decodes (decode_responses=True).
            value = cast("str | None", client.get(f"{self.prefix}:table:{table_id}"))
        finally:
            client.close()
        if value is None:
            return None
        owner = value.rpartition("/")[0]
        for node in self.live():
            if node.node_id == owner:
                return node
        return None

    async def seat(
        self, rules: dict[str, Any], humans: int, host: int = 0, sit_on: list[int] | None = None
    ) -> tuple[str, list[tuple[int, str]]]:
        """A public table made on node `host` by the first of `humans` new accounts, each of
        them seated through the nodes `sit_on` in turn, bots in the other seats (the host
        calls them): the game has started. The table's id and each human's (seat, token)."""
        host_node = self.nodes[host]
        jars = [await self.account(host_node) for _ in range(humans)]
        async with httpx.AsyncClient(base_url=host_node.http, cookies=jars[0], timeout=30) as http:
            created = await http.post("/api/tables", json={**rules, "private": False})
            created.raise_for_status()
        table_id: str = created.json()["table"]
        seated: list[tuple[int, str]] = []
        sit_on = sit_on or [host]
        for number, jar in enumerate(jars):
            node = self.nodes[sit_on[number % len(sit_on)]]
            (answer,) = await _over_socket(node, jar, {"type": "sit", "table": table_id})
            seated.append((answer["seat"], answer["token"]))
        if humans < int(rules["players"]):
            hello = {"type": "hello", "table": table_id, "token": seated[0][1]}
            await _over_socket(
                self.nodes[sit_on[0]], jars[0], hello, {"type": "fill_bots", "level": "greedy"}
            )
        return table_id, seated


async def _over_socket(node: Node, jar: httpx.Cookies, *messages: Message) -> list[Message]:
    """Send messages over a socket of the account whose cookies are `jar`; their `ack`s."""
    header = "; ".join(f"{name}={value}" for name, value in jar.items())
    answers = []
    async with websockets.connect(node.ws, additional_headers={"cookie": header}) as socket:
        for message in messages:
            for _ in range(100):
                answer = await _request(socket, message)
                if answer.get("code") != "table_moved":
                    break
                await asyncio.sleep(0.1)  # handed to another process meanwhile: nothing was done
            assert answer["type"] == "ack", answer
            answers.append(answer)
    return answers


async def _request(socket: Any, message: Message) -> Message:
    message = {**message, "id": 1}
    await socket.send(json.dumps(message))
    async with asyncio.timeout(30):
        while True:
            answer: Message = json.loads(await socket.recv())
            if answer.get("id") == 1 and answer.get("type") in ("ack", "error"):
                return answer


class _RoamingPlayer(PlainPlayer):
    """A player whose closed socket shows up as a `closed` frame, so its client can move on."""

    def closed(self) -> None:
        self._unread.put_nowait({"type": "closed"})

    async def send(self, message: Message) -> Any:
        """Send, or nothing if the socket has closed: its reader reports `closed` then."""
        try:
            return await super().send(message)
        except websockets.ConnectionClosed:
            return None


class RoamingClient(ScriptedClient):
    """A scripted seat that, when its process dies, comes back on another live one and
    resumes after its last applied event; it keeps every move the server acknowledged."""

    def __init__(
        self,
        cluster: ProcessCluster,
        table: str,
        token: str,
        node: int,
        seed: int,
        think: tuple[float, float] | None = None,
    ) -> None:
        super().__init__(cluster.nodes[node], table, token, rng=random.Random(seed), compression=False)
        self.cluster = cluster
        self.think = think  # seconds a person thinks before a move (none: at once)
        self.moves = 0  # sockets it moved to another process
        # Each acknowledged move: the last event number the client had when it asked, the
        # number its ack gave, and the action: the log must have it between the two.
        self.acked: list[tuple[int, int, dict[str, Any]]] = []
        self._asked_acts: dict[int, tuple[int, dict[str, Any]]] = {}
        self.refused: list[Message] = []  # answers refused because the table was moving
        self.hello_due = False

    def _new_player(self) -> _RoamingPlayer:
        return _RoamingPlayer(self.server)

    async def _ask(self, message: Message, what: str) -> None:
        message_id = await self.player.send(message)
        if message_id is None:
            return  # the socket closed: the client moves on and asks again there
        self.pending[message_id] = what
        if message["type"] == "act":
            self._asked_acts[message_id] = (self.seq, message["action"])

    async def play(self) -> dict[str, Any]:
        if not self.joined:
            await self.join()
        while self.ended is None or self.pending:
            frame = await self.player.expect(lambda m: True, timeout=TURN_WAIT)
            if frame["type"] == "closed":
                await self._move()
                continue
            self.apply(frame)
            if self.hello_due:
                self.hello_due = False
                await asyncio.sleep(0.2)
                hello = {"type": "hello", "table": self.table, "token": self.token, "last_seq": self.seq}
                await self._ask(hello, "hello")
            await self._maybe_act()
        return self.ended

    async def _maybe_act(self) -> None:
        turn = self.turn
        to_act = self.phase == "playing" and turn is not None and turn["seat"] == self.seat
        if self.think is not None and to_act and turn is not None and self.acted_turn != turn["turn_id"]:
            await asyncio.sleep(self.rng.uniform(*self.think))
        await super()._maybe_act()

    async def _synced_legal_actions(self, turn_id: int) -> list[dict[str, Any]] | None:
        """As a browser would: a peek that fails (its process died, the table is moving)
        leaves the turn to be acted on again at the next frame."""
        try:
            return await super()._synced_legal_actions(turn_id)
        except (OSError, TimeoutError, websockets.ConnectionClosed, websockets.InvalidHandshake):
            self.acted_turn = None
            return None

    async def _move(self) -> None:
        """The process went away: another one, after the last event applied."""
        self.moves += 1
        self.pending.clear()  # never answered: the move may or may not have been made
        self._asked_acts.clear()
        self.acted_turn = None  # if the turn is still ours, act on it again
        self.ready_due = self.phase == "between_rounds"  # a «listo» that may never have arrived
        for attempt in range(600):
            others = [node for node in self.cluster.live() if node is not self.server]
            self.server = self.rng.choice(others or self.cluster.live())
            try:
                await self.reconnect()
                return
            except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed):
                await asyncio.sleep(0.05 if attempt < 20 else 0.2)  # it is starting: another one
        raise AssertionError(f"no process took the socket back for table {self.table}")

    def _answered(self, frame: Message) -> None:
        asked = self._asked_acts.pop(frame["id"], None)
        if frame["type"] == "ack" and asked is not None:
            self.acked.append((asked[0], frame["seq"], asked[1]))
        code = frame.get("code") if frame["type"] == "error" else None
        if code == "table_moved":  # nothing was done: the owner changed under it; ask again
            what = self.pending.pop(frame["id"], None)
            self.refused.append(frame)
            if what == "hello":
                self.hello_due = True
            elif what == "ready":
                self.ready_due = True
            else:
                self.acted_turn = None
            return
        if code == "not_between_rounds" and self.pending.get(frame["id"]) == "ready":
            # A «listo» sent again after moving (it may never have arrived), once the round
            # it was for had started after all.
            self.pending.pop(frame["id"])
            return
        if code in ("stale", "not_your_turn", "not_playing") and asked is not None:
            # The turn it was for is over (started again by a takeover, or the round ended
            # while the person thought): the next `turn` asks again.
            self.pending.pop(frame["id"], None)
            self.refused.append(frame)
            return
        super()._answered(frame)
