"""A real cluster: three server processes (uvicorn) on one PostgreSQL database and one Redis,
clients spread over them over real WebSockets, processes killed (SIGKILL), paused (SIGSTOP)
and Redis itself restarted mid-game (cluster.py, docs/deploy.md).

Every client must receive every event of its table exactly once and in order (over every
socket it had, resuming after the last event it applied), and every move the server
acknowledged must be in the table's log.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests import services
from tests.server.support.cluster_harness import Node, ProcessCluster, RoamingClient
from tranque.server.store import StoredEvent
from tranque.server.store.sql import SqlStore

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.processes,  # its nodes are processes: such tests take turns (tests/conftest.py)
    # These clusters always use PostgreSQL and Redis, whatever TRANQUE_TEST_DB gives the other
    # server tests: they run once, in the suite's main pass (.ci/run runs tests/server again
    # on SQLite and on PostgreSQL).
    pytest.mark.skipif(
        os.environ.get("TRANQUE_TEST_DB", "memory") != "memory",
        reason="a cluster runs on PostgreSQL and Redis whatever TRANQUE_TEST_DB says; run in the main pass",
    ),
]

# (table options, how many of its seats are people): bots in the others.
GAMES: list[tuple[dict[str, Any], int]] = [
    ({"preset": "clasico", "players": 4, "mode": "pairs", "target": 100}, 2),
    ({"preset": "sin-pozo", "players": 2, "mode": "individual", "target": 50}, 2),
    ({"preset": "ponce", "players": 4, "mode": "pairs"}, 3),
    ({"preset": "en-contra", "players": 3, "mode": "individual"}, 1),
    ({"preset": "latino", "players": 4, "mode": "pairs"}, 4),
    ({"preset": "futbol", "players": 2, "mode": "individual"}, 1),
]


@pytest.fixture
def database_url() -> str:
    return services.fresh_postgres_url()


@contextlib.contextmanager
def cluster_of(
    count: int, database_url: str, redis_url: str, logs: Path, lease: float = 2.0, rebalance: bool = True
) -> Iterator[ProcessCluster]:
    with ProcessCluster(
        count, database_url, redis_url, logs, lease_seconds=lease, rebalance=rebalance
    ) as cluster:
        yield cluster


async def logs_of(database_url: str, tables: list[str]) -> dict[str, list[StoredEvent]]:
    store = SqlStore(database_url)
    await store.start()
    try:
        return {table: await store.load_events(table) for table in tables}
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def playing(clients: list[RoamingClient]) -> AsyncIterator[None]:
    async with contextlib.AsyncExitStack() as stack:
        for client in clients:
            await stack.enter_async_context(client)
        yield


async def seat_games(
    cluster: ProcessCluster,
    games: list[tuple[dict[str, Any], int]],
    think: tuple[float, float] | None = None,
) -> list[RoamingClient]:
    """Each game's table made on a process in turn, its people seated and playing through
    the three processes in turn."""
    clients: list[RoamingClient] = []
    count = len(cluster.nodes)
    for index, (rules, humans) in enumerate(games):
        table, seated = await cluster.seat(rules, humans, host=index % count, sit_on=list(range(count)))
        for number, (_seat, token) in enumerate(seated):
            node = (index + number + 1) % count
            seed = 100 * index + number
            clients.append(RoamingClient(cluster, table, token, node=node, seed=seed, think=think))
    return clients


def check_streams(clients: list[RoamingClient], logs: dict[str, list[StoredEvent]]) -> None:
    """Every client got every event of its table exactly once, in order, up to the end; and
    every move the server acknowledged is in the log."""
    for client in clients:
        log = logs[client.table]
        assert [event.seq for event in log] == list(range(1, len(log) + 1))
        seqs = client.event_seqs()
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), (client.table, seqs)
        assert seqs[-1] == log[-1].seq and log[-1].kind == "game_ended"
        for before, after, action in client.acked:
            moves = [event for event in log[before:after] if event.kind == "action"]
            assert any(
                event.data["seat"] == client.seat and event.data["action"] == action for event in moves
            ), (client.table, before, after, action)


async def test_clients_spread_over_three_processes_play_whole_games(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    with cluster_of(3, database_url, redis_url, tmp_path) as cluster:
        clients = await seat_games(cluster, GAMES)
        async with playing(clients):
            ended = await asyncio.gather(*(client.play() for client in clients))
        assert all(result["reason"] == "target" for result in ended)
        logs = await logs_of(database_url, sorted({client.table for client in clients}))
        check_streams(clients, logs)
        forwarded = sum(node.status()["forwarded"] for node in cluster.nodes)
        assert forwarded > 0  # the processes did pass commands on to each other
        assert all(client.moves == 0 for client in clients)


async def test_owners_killed_twenty_times_lose_nothing(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    """SIGKILL the owner of live tables, 20 times, a new process taking its place each time;
    new games are seated as others end, so there are always live tables to lose."""
    with cluster_of(3, database_url, redis_url, tmp_path, lease=1.0) as cluster:
        clients: list[RoamingClient] = []
        plays: list[asyncio.Task[dict[str, Any]]] = []
        resumed: list[float] = []
        async with contextlib.AsyncExitStack() as stack:

            async def more_games() -> None:
                for client in await seat_games(cluster, GAMES, think=(0.02, 0.08)):
                    await stack.enter_async_context(client)
                    clients.append(client)
                    plays.append(asyncio.get_running_loop().create_task(client.play()))

            await more_games()
            while len(resumed) < 20:
                live = [table for table in _tables(clients) if not _over(clients, table)]
                if len(live) < 3:
                    await more_games()
                    continue
                await _until_under_way(clients, live, moves=1)  # play goes on between kills
                owner = await asyncio.to_thread(cluster.owner_of, live[0])
                if owner is None:
                    continue
                owned = await asyncio.to_thread(_owned_live_tables, cluster, owner, live)
                marks = {table: _last_seq(clients, table) for table in owned}
                killed_at = time.monotonic()
                await asyncio.to_thread(owner.kill)
                await asyncio.to_thread(owner.start)
                resumed.append(await _until_moving(clients, marks, killed_at))
                await asyncio.to_thread(owner.wait_ready)
            ended = await asyncio.gather(*plays)
        assert all(result["reason"] == "target" for result in ended)
        logs = await logs_of(database_url, _tables(clients))
        check_streams(clients, logs)
        assert sum(client.moves for client in clients) > 0  # sockets of the killed processes came back
        resumed.sort()
        print(f"\n20 kills: kill → next event p50 {resumed[10]:.2f} s, max {resumed[-1]:.2f} s")


async def test_a_paused_owner_cannot_write_after_its_lease_and_gives_the_table_up(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    # (no rebalancing: it would hand the woken process tables back, rightly, by a takeover)
    with cluster_of(3, database_url, redis_url, tmp_path, lease=1.0, rebalance=False) as cluster:
        clients = await seat_games(cluster, GAMES[:3], think=(0.05, 0.15))
        tables = sorted({client.table for client in clients})
        async with playing(clients):
            play = asyncio.gather(*(client.play() for client in clients))
            await _until_under_way(clients, tables)
            owner = await asyncio.to_thread(cluster.owner_of, tables[0])
            assert owner is not None
            owned = await asyncio.to_thread(_owned_live_tables, cluster, owner, tables)
            assert not any(_over(clients, table) for table in owned)  # mid-game
            owner.signal(signal.SIGSTOP)
            # Well past its lease: the others take its tables over.
            await _until_owned_elsewhere(cluster, owner, owned)
            owner.signal(signal.SIGCONT)
            status = await _until_status(owner, lambda status: status["given_up"] >= len(owned))
            ended = await play
        # No split brain: the resumed process owns none of them, and wrote nothing after the
        # takeover (the logs' numbers have no gap nor repeat: check_streams). Whether its first
        # act on waking was a write the store refused or a renewal Redis refused is a race here;
        # test_cluster_inprocess.py shows the refused write itself.
        assert all(cluster.owner_of(table) is not owner for table in owned)
        print(f"\npaused owner: gave up {status['given_up']}, writes refused {status['refused_writes']}")
        assert all(result["reason"] == "target" for result in ended)
        check_streams(clients, await logs_of(database_url, tables))


async def test_redis_restarted_mid_game_loses_nothing(database_url: str, tmp_path: Path) -> None:
    """A Redis of the test's own, restarted while the games are played."""
    with (
        _private_redis(tmp_path) as (redis_url, restart),
        cluster_of(3, database_url, redis_url, tmp_path) as cluster,
    ):
        if True:
            clients = await seat_games(cluster, GAMES[:4], think=(0.05, 0.15))
            tables = sorted({client.table for client in clients})
            async with playing(clients):
                play = asyncio.gather(*(client.play() for client in clients))
                await _until_under_way(clients, tables)
                marks = {table: _last_seq(clients, table) for table in tables}
                assert not any(_over(clients, table) for table in tables)  # mid-game
                await asyncio.to_thread(restart)
                await _until_moving(clients, marks, time.monotonic())
                ended = await play
            assert all(result["reason"] == "target" for result in ended)
            check_streams(clients, await logs_of(database_url, tables))


async def test_bad_input_is_refused_alike_through_any_process(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    """A malformed message, an act out of turn and a wrong token get the same refusal (code
    and texts) from the owner's process and from another, and change nothing."""
    with cluster_of(2, database_url, redis_url, tmp_path) as cluster:
        table, seated = await cluster.seat(GAMES[0][0], 2, host=0)
        answers: list[list[dict[str, Any]]] = []
        for node in cluster.nodes:
            answers.append(await _bad_inputs(node, table, seated))
        assert answers[0] == answers[1]
        codes = [answer.get("code") for answer in answers[0]]
        assert codes == ["bad_json", "bad_token", "no_such_table", "not_your_turn", "not_between_rounds"]


async def _bad_inputs(node: Node, table: str, seated: list[tuple[int, str]]) -> list[dict[str, Any]]:
    """Refusals of bad messages sent through `node`. The act out of turn is sent for a seated
    human whose turn it is not, whoever's turn it is then (bots and forced moves go on)."""
    for attempt in range(2 * len(seated)):
        answers = await _probe(node, table, *seated[attempt % len(seated)])
        if answers is not None:
            return answers
    raise AssertionError(f"no seated human was off turn through {node.ws}")


async def _probe(node: Node, table: str, seat: int, token: str) -> list[dict[str, Any]] | None:
    """The answers to bad messages for `seat`, or None if it was that seat's turn."""
    import json

    import websockets

    answers: list[dict[str, Any]] = []
    sync: dict[str, Any] = {}
    async with websockets.connect(node.ws) as socket:

        async def ask(message: str | dict[str, Any]) -> dict[str, Any]:
            await socket.send(message if isinstance(message, str) else json.dumps(message))
            while True:
                frame: dict[str, Any] = json.loads(await socket.recv())
                if frame["type"] == "sync":
                    sync.update(frame)
                if frame["type"] in ("ack", "error"):
                    return {key: frame.get(key) for key in ("type", "code", "message", "message_en")}

        answers.append(await ask("{not json"))
        answers.append(await ask({"type": "hello", "table": table, "token": "wrong", "id": 1}))
        answers.append(await ask({"type": "hello", "table": "no-such", "id": 2}))
        hello = await ask({"type": "hello", "table": table, "token": token, "id": 3})
        assert hello["type"] == "ack"
        turn = sync["turn"]
        if turn is None or turn["seat"] == seat:
            return None  # between hands, or this seat's turn: the other human is off turn
        act = {"type": "act", "action": {"type": "pass"}, "turn_id": turn["turn_id"], "id": 4}
        answers.append(await ask(act))
        answers.append(await ask({"type": "ready", "id": 5}))
    return answers


# Helpers ---------------------------------------------------------------------------------------


def _tables(clients: list[RoamingClient]) -> list[str]:
    return sorted({client.table for client in clients})


def _over(clients: list[RoamingClient], table: str) -> bool:
    return any(client.table == table and client.ended is not None for client in clients)


def _last_seq(clients: list[RoamingClient], table: str) -> int:
    return max(client.seq for client in clients if client.table == table)


def _owned_live_tables(cluster: ProcessCluster, node: Node, tables: list[str]) -> list[str]:
    return [table for table in tables if cluster.owner_of(table) is node]


def _acked(clients: list[RoamingClient], table: str) -> int:
    return sum(len(client.acked) for client in clients if client.table == table)


async def _until_under_way(clients: list[RoamingClient], tables: list[str], moves: int = 4) -> None:
    """Until each of `tables` has had `moves` more moves of its people acknowledged (or has
    ended): its game is under way."""
    marks = {table: _acked(clients, table) for table in tables}
    deadline = time.monotonic() + 60
    while not all(
        _acked(clients, table) >= marks[table] + moves or _over(clients, table) for table in tables
    ):
        if time.monotonic() > deadline:
            raise AssertionError(f"play did not go on at {tables}: {marks} moves acknowledged")
        await asyncio.sleep(0.02)


async def _until_moving(clients: list[RoamingClient], marks: dict[str, int], since: float) -> float:
    """Seconds from `since` until every table of `marks` has an event past its mark (or has
    ended), seen by its clients."""
    deadline = since + 60
    while time.monotonic() < deadline:
        if all(_last_seq(clients, table) > seq or _over(clients, table) for table, seq in marks.items()):
            return time.monotonic() - since
        await asyncio.sleep(0.02)
    states = {
        table: [
            (client.seat, client.seq, client.phase, client.turn, client.refused[-3:])
            for client in clients
            if client.table == table
        ]
        for table in marks
    }
    raise AssertionError(f"play did not resume at {marks}: {states}")


async def _until_owned_elsewhere(cluster: ProcessCluster, paused: Node, tables: list[str]) -> None:
    for _ in range(600):
        owners = [await asyncio.to_thread(cluster.owner_of, table) for table in tables]
        if all(owner is not None and owner is not paused for owner in owners):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the paused process's tables were never taken over")


async def _until_status(node: Node, wanted: Any) -> dict[str, Any]:
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            status = await asyncio.to_thread(node.status)
            if wanted(status):
                return status
        await asyncio.sleep(0.05)
    raise AssertionError(f"node {node.index} never reached the status wanted")


@contextlib.contextmanager
def _private_redis(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    from tests.server.support.harness import free_port

    binary = "redis-server"
    port = free_port()
    command = [binary, "--port", str(port), "--save", "", "--appendonly", "no", "--dir", str(tmp_path)]
    try:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except FileNotFoundError:
        services.unavailable("redis-server is not installed (apt-get install redis-server)")
    url = f"redis://127.0.0.1:{port}/0"

    def wait() -> None:
        for _ in range(200):
            with contextlib.suppress(OSError):
                import socket

                with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    return
            time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def restart() -> None:
        nonlocal process
        process.kill()
        process.wait(10)
        time.sleep(0.5)
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait()

    wait()
    try:
        yield url, restart
    finally:
        process.kill()
        process.wait(10)


async def test_friends_quick_match_and_limits_are_the_same_through_any_process(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    """An account online on one process is online for its friend on another, a friend request
    made on one reaches the sockets on the other, two people asking for «Jugar ahora» on two
    processes are seated together, and the login limit counts an address's failures on
    every process, as do the friend request limits."""
    import json

    import websockets

    with cluster_of(2, database_url, redis_url, tmp_path) as cluster:
        a, b = cluster.nodes
        names = []
        jars = []
        for node in (a, b):
            jar, name = await cluster.named_account(node)
            jars.append(jar)
            names.append(name)

        def header(jar: httpx.Cookies) -> dict[str, str]:
            return {"cookie": "; ".join(f"{key}={value}" for key, value in jar.items())}

        async with (
            websockets.connect(a.ws, additional_headers=header(jars[0])) as on_a,
            websockets.connect(b.ws, additional_headers=header(jars[1])) as on_b,
        ):
            for socket in (on_a, on_b):  # answered once the socket is online on its process
                await socket.send('{"type": "ping", "id": 1}')
                await _next(socket, lambda frame: frame.get("id") == 1)
            # A friend request made through process A reaches the socket on process B.
            async with httpx.AsyncClient(base_url=a.http, cookies=jars[0], timeout=30) as http:
                asked = await http.post("/api/friends", json={"name": names[1]})
                assert asked.status_code == 200, asked.text
            notice = await _next(on_b, lambda frame: frame["type"] == "notice")
            assert notice["kind"] == "friend_request" and notice["from"] == names[0]
            async with httpx.AsyncClient(base_url=b.http, cookies=jars[1], timeout=30) as http:
                accepted = await http.post(f"/api/friends/{names[0]}/accept", json={})
                assert accepted.status_code == 200, accepted.text
                (friend,) = accepted.json()["friends"]
                assert friend["name"] == names[0] and friend["online"]  # its socket is on A

            # «Jugar ahora» from both processes: one table of two.
            for socket in (on_a, on_b):
                await socket.send(json.dumps({"type": "quick_match", "id": 7, "with_bots": False}))
            matched = [
                await _next(socket, lambda frame: frame["type"] == "matched") for socket in (on_a, on_b)
            ]
            assert matched[0]["table"] == matched[1]["table"]
            assert sorted(frame["seat"] for frame in matched) == [0, 1]

        # The friend request limits count the requests made through every process: a request
        # and one more to one account within a day, the third refused wherever it arrives.
        jar, _ = await cluster.named_account(a)
        answers = []
        for node in (a, b, a):
            async with httpx.AsyncClient(base_url=node.http, cookies=jar, timeout=30) as http:
                answers.append(await http.post("/api/friends", json={"name": names[1]}))
                await http.request("DELETE", f"/api/friends/{names[1]}", json={})
        assert [answer.status_code for answer in answers] == [200, 200, 429], answers[2].text
        assert answers[2].json()["code"] == "friend_request_repeated"

        # The login limit: an address's failures on A and on B count together.
        refused = []
        for attempt in range(12):
            node = (a, b)[attempt % 2]
            async with httpx.AsyncClient(base_url=node.http, timeout=30) as http:
                answer = await http.post("/api/login", json={"name": names[0], "password": "no-es-esta-9981"})
            refused.append(answer.status_code)
        assert refused[:10] == [401] * 10 and refused[10:] == [429, 429]


async def _next(socket: Any, wanted: Any) -> dict[str, Any]:
    import json

    async with asyncio.timeout(30):
        while True:
            frame: dict[str, Any] = json.loads(await socket.recv())
            if wanted(frame):
                return frame
