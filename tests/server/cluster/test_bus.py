"""The message bus: the same tests on `MemoryBus` (buses on one `MemoryHub`) and on `RedisBus`
(buses on one real Redis), each bus standing for a server process; then `RedisBus` and
`RedisLeases` on a private redis-server that is killed and started again mid-test.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import redis.asyncio

from tests import services
from tests.server.support.harness import free_port
from tests.services import unique_name
from tranque.server.cluster import bus as bus_module
from tranque.server.cluster import redis_bus as redis_bus_module
from tranque.server.cluster.bus import Bus, MemoryBus, MemoryHub
from tranque.server.cluster.leases import LeasesUnavailable, RedisLeases, Renewal
from tranque.server.cluster.redis_bus import RedisBus

pytestmark = pytest.mark.anyio

WAIT = 15.0  # seconds to wait for what should happen at once, before failing

MakeBus = Callable[[], Awaitable[Bus]]


async def wait_until(condition: Callable[[], object], what: str = "the condition") -> None:
    """Return once `condition()` is true; fail if it still is not after WAIT seconds."""
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not come true within {WAIT} s")
        await asyncio.sleep(0.005)


@pytest.fixture(params=["memory", "redis"])
async def make_bus(request: pytest.FixtureRequest) -> AsyncIterator[MakeBus]:
    """Makes started buses that see one another (one hub, or one Redis); closes them after."""
    url = services.redis_url() if request.param == "redis" else None
    hub = MemoryHub()
    made: list[Bus] = []

    async def make() -> Bus:
        bus: Bus = MemoryBus(hub) if url is None else RedisBus(url)
        made.append(bus)
        await bus.start()
        return bus

    try:
        yield make
    finally:
        for bus in made:
            await bus.close()


async def test_every_subscriber_gets_every_message_in_order(make_bus: MakeBus) -> None:
    publisher, other, third = await make_bus(), await make_bus(), await make_bus()
    channel = unique_name("bus")
    received: dict[str, list[bytes]] = {"publisher": [], "other": [], "third": []}
    await publisher.subscribe(channel, received["publisher"].append)
    await other.subscribe(channel, received["other"].append)
    await third.subscribe(channel, received["third"].append)

    sent = [f"message {n}".encode() * (1 + n % 7) for n in range(3000)]
    for n, message in enumerate(sent):
        publisher.publish(channel, message)
        if n % 500 == 0:
            await asyncio.sleep(0)  # let some go out while more are published
    await publisher.flush()

    await wait_until(lambda: all(len(messages) == len(sent) for messages in received.values()))
    assert received == {"publisher": sent, "other": sent, "third": sent}


async def test_a_subscriber_gets_only_the_channels_it_subscribed_to(make_bus: MakeBus) -> None:
    publisher, subscriber = await make_bus(), await make_bus()
    first, second, unheard = unique_name("bus"), unique_name("bus"), unique_name("bus")
    on_first: list[bytes] = []
    on_second: list[bytes] = []
    await subscriber.subscribe(first, on_first.append)
    await subscriber.subscribe(second, on_second.append)

    for n in range(50):
        publisher.publish(first, b"1-%d" % n)
        publisher.publish(unheard, b"x-%d" % n)
        publisher.publish(second, b"2-%d" % n)
    publisher.publish(first, b"end")  # one subscriber gets one publisher's messages in order
    await publisher.flush()

    await wait_until(lambda: on_first[-1:] == [b"end"])
    assert on_first == [b"1-%d" % n for n in range(50)] + [b"end"]
    assert on_second == [b"2-%d" % n for n in range(50)]


async def test_unsubscribing_stops_delivery_and_subscribing_again_resumes_it(make_bus: MakeBus) -> None:
    publisher, subscriber = await make_bus(), await make_bus()
    channel, marker = unique_name("bus"), unique_name("bus")
    received: list[bytes] = []
    markers: list[bytes] = []
    await subscriber.subscribe(channel, received.append)
    await subscriber.subscribe(marker, markers.append)

    publisher.publish(channel, b"heard")
    await publisher.flush()
    await wait_until(lambda: received == [b"heard"])

    await subscriber.unsubscribe(channel)
    publisher.publish(channel, b"not heard")
    publisher.publish(marker, b"after the unheard one")
    await publisher.flush()
    await wait_until(lambda: markers == [b"after the unheard one"])
    assert received == [b"heard"]

    await subscriber.subscribe(channel, received.append)
    publisher.publish(channel, b"heard again")
    await publisher.flush()
    await wait_until(lambda: len(received) == 2)
    assert received == [b"heard", b"heard again"]
    await subscriber.unsubscribe("never subscribed")  # nothing to do, no harm


async def test_subscribing_again_replaces_the_handler(make_bus: MakeBus) -> None:
    publisher, subscriber = await make_bus(), await make_bus()
    channel = unique_name("bus")
    old: list[bytes] = []
    new: list[bytes] = []
    await subscriber.subscribe(channel, old.append)
    await subscriber.subscribe(channel, new.append)

    publisher.publish(channel, b"one")
    publisher.publish(channel, b"two")
    await publisher.flush()
    await wait_until(lambda: len(new) == 2)
    assert (old, new) == ([], [b"one", b"two"])


async def test_a_handler_that_raises_does_not_stop_later_deliveries(
    make_bus: MakeBus, caplog: pytest.LogCaptureFixture
) -> None:
    publisher, subscriber = await make_bus(), await make_bus()
    channel = unique_name("bus")
    received: list[bytes] = []

    def handler(message: bytes) -> None:
        received.append(message)
        if message.startswith(b"boom"):
            raise ValueError(message.decode())

    await subscriber.subscribe(channel, handler)
    sent = [b"one", b"boom 1", b"two", b"boom 2", b"three"]
    for message in sent:
        publisher.publish(channel, message)
    await publisher.flush()

    await wait_until(lambda: len(received) == len(sent))
    assert received == sent
    failures = [record for record in caplog.records if record.name == "tranque.server.cluster.bus"]
    assert [str(record.exc_info[1]) for record in failures if record.exc_info] == ["boom 1", "boom 2"]
    assert subscriber.connected


async def test_a_message_published_before_subscribing_is_not_delivered(make_bus: MakeBus) -> None:
    publisher, subscriber = await make_bus(), await make_bus()
    channel = unique_name("bus")
    received: list[bytes] = []

    publisher.publish(channel, b"too early")
    await publisher.flush()
    await subscriber.subscribe(channel, received.append)
    publisher.publish(channel, b"in time")
    await publisher.flush()

    await wait_until(lambda: received)
    assert received == [b"in time"]


async def test_processes_see_one_another_in_each_ones_order(make_bus: MakeBus) -> None:
    processes = [await make_bus() for _ in range(4)]
    channel = unique_name("bus")
    received: list[list[bytes]] = [[] for _ in processes]
    for process, messages in zip(processes, received, strict=True):
        await process.subscribe(channel, messages.append)

    for n in range(200):
        for sender, process in enumerate(processes):
            process.publish(channel, b"%d:%d" % (sender, n))
    await asyncio.gather(*(process.flush() for process in processes))

    await wait_until(lambda: all(len(messages) == 800 for messages in received))
    for messages in received:
        for sender in range(len(processes)):
            mine = [message for message in messages if message.startswith(b"%d:" % sender)]
            assert mine == [b"%d:%d" % (sender, n) for n in range(200)]


async def test_a_closed_bus_drops_what_is_published_and_refuses_to_subscribe(make_bus: MakeBus) -> None:
    bus = await make_bus()
    await wait_until(lambda: bus.connected)
    await bus.close()
    assert not bus.connected
    bus.publish(unique_name("bus"), b"into the void")  # no error
    await bus.flush()
    with pytest.raises(RuntimeError):
        await bus.subscribe(unique_name("bus"), print)
    await bus.close()  # twice is fine


async def test_a_memory_hub_reset_calls_every_bus_reset_callbacks() -> None:
    hub = MemoryHub()
    first, second = MemoryBus(hub), MemoryBus(hub)
    calls: list[str] = []
    first.on_reset(lambda: calls.append("first"))
    second.on_reset(lambda: calls.append("second"))

    def broken() -> None:
        raise RuntimeError("a broken callback does not stop the others")

    second.on_reset(broken)
    second.on_reset(lambda: calls.append("second again"))
    hub.reset()
    assert calls == ["first", "second", "second again"]

    await second.close()
    hub.reset()
    assert calls == ["first", "second", "second again", "first"]
    await first.close()


async def test_redis_bus_drops_the_oldest_messages_beyond_its_queue() -> None:
    url = services.redis_url()
    channel = unique_name("bus")
    listener = RedisBus(url)
    publisher = RedisBus(url, max_queue=3)
    received: list[bytes] = []
    try:
        await listener.start()
        await listener.subscribe(channel, received.append)
        for n in range(5):  # before it starts: nothing is sent yet
            publisher.publish(channel, b"%d" % n)
        assert publisher.dropped == 2
        await publisher.start()
        await publisher.flush()
        publisher.publish(channel, b"end")
        await publisher.flush()
        await wait_until(lambda: received[-1:] == [b"end"])
        assert received == [b"2", b"3", b"4", b"end"]
    finally:
        await publisher.close()
        await listener.close()


async def test_redis_bus_sends_a_long_queue_in_several_round_trips_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(redis_bus_module, "BATCH_MAX", 7)
    url = services.redis_url()
    channel = unique_name("bus")
    listener, publisher = RedisBus(url), RedisBus(url)
    received: list[bytes] = []
    try:
        await listener.start()
        await listener.subscribe(channel, received.append)
        sent = [b"%d" % n for n in range(100)]
        for message in sent:  # before it starts: all wait in the queue
            publisher.publish(channel, message)
        await publisher.start()
        await publisher.flush()
        await wait_until(lambda: len(received) == len(sent))
        assert received == sent
    finally:
        await publisher.close()
        await listener.close()


def bus_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The errors the bus logged (a handler that raised, a reader that failed)."""
    names = (bus_module.__name__, redis_bus_module.__name__)
    return [r.getMessage() for r in caplog.records if r.name in names and r.levelno >= logging.ERROR]


# A private redis-server, killed and started again mid-test


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0) as connection:
            connection.sendall(b"PING\r\n")
            return connection.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class PrivateRedis:
    """A redis-server of the test's own on a free port, without persistence."""

    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            services.unavailable("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        """Start the server; return once it answers PING."""
        assert self.process is None
        log = self.folder / "redis.log"
        options = {"port": str(self.port), "bind": "127.0.0.1", "save": "", "appendonly": "no"}
        options |= {"dir": str(self.folder), "logfile": str(log)}
        self.process = subprocess.Popen(
            [self.binary, *(word for name, value in options.items() for word in (f"--{name}", value))],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + WAIT
        while not answers_ping(self.port):
            if self.process.poll() is not None:
                self.process = None
                raise AssertionError(f"redis-server exited:\n{log.read_text(errors='replace')[-2000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"redis-server did not answer within {WAIT} s")
            await asyncio.sleep(0.02)

    async def wait_for_pings(self, count: int) -> None:
        """Return once the server has answered `count` PINGs; fail if it does not within WAIT s."""
        client = redis.asyncio.Redis.from_url(self.url)
        try:
            deadline = time.monotonic() + WAIT
            while (await client.info("commandstats")).get("cmdstat_ping", {}).get("calls", 0) < count:
                if time.monotonic() > deadline:
                    raise AssertionError(f"the server did not get {count} PINGs within {WAIT} s")
                await asyncio.sleep(0.02)
        finally:
            await client.aclose()

    def pause(self) -> None:
        """Stop the server (SIGSTOP): connections stay open, and nothing answers."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """Kill the server (SIGKILL): its clients' connections break, and it forgets every key."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    try:
        yield server
    finally:
        server.kill()


async def test_after_redis_restarts_buses_reconnect_and_reset_and_leases_work_again(
    private_redis: PrivateRedis, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "tranque.server.cluster.bus")
    caplog.set_level(logging.INFO, "tranque.server.cluster.redis_bus")
    await private_redis.start()
    url = private_redis.url
    publisher, subscriber = RedisBus(url), RedisBus(url)
    leases = RedisLeases(url, prefix=f"{unique_name('lease')}:")
    resets: dict[str, int] = {"publisher": 0, "subscriber": 0}
    received: list[bytes] = []
    flushed: asyncio.Task[None] | None = None
    try:
        await publisher.start()
        await subscriber.start()
        await leases.start()
        publisher.on_reset(lambda: resets.update(publisher=resets["publisher"] + 1))
        subscriber.on_reset(lambda: resets.update(subscriber=resets["subscriber"] + 1))
        await subscriber.subscribe("news", received.append)
        await publisher.subscribe("own news", print)
        publisher.publish("news", b"before")
        await publisher.flush()
        await wait_until(lambda: received == [b"before"])
        assert await leases.acquire("t1", "n1/1", 60)
        assert await leases.acquire("t2", "n1/1", 60)
        await wait_until(lambda: publisher.connected and subscriber.connected)

        private_redis.kill()
        await wait_until(lambda: not publisher.connected and not subscriber.connected, "both seeing it")
        publisher.publish("news", b"while down")  # queued, never raises
        flushed = asyncio.create_task(publisher.flush())
        with pytest.raises(LeasesUnavailable):
            await leases.renew({"t1": "n1/1"}, 60)
        with pytest.raises(LeasesUnavailable):
            await leases.read(["t1"])
        with pytest.raises(LeasesUnavailable):
            await leases.acquire("t3", "n1/1", 60)
        assert not flushed.done()
        assert resets == {"publisher": 0, "subscriber": 0}

        await private_redis.start()
        await wait_until(lambda: resets["publisher"] and resets["subscriber"], "the reset callbacks")
        await asyncio.wait_for(flushed, WAIT)  # what was queued meanwhile is sent now
        publisher.publish("news", b"after")
        await publisher.flush()
        await wait_until(lambda: received[-1:] == [b"after"])
        # What was sent while the subscriber was away may be lost: that is what the reset says.
        assert received[0] == b"before"
        assert set(received) <= {b"before", b"while down", b"after"}
        await wait_until(lambda: publisher.connected and subscriber.connected)
        assert resets == {"publisher": 1, "subscriber": 1}

        # Redis forgot every key: renew takes back what vanished (and says so), and the rest
        # works again.
        assert await leases.read(["t1", "t2"]) == [None, None]
        taken_again = {"t1": Renewal.TAKEN_AGAIN, "t2": Renewal.TAKEN_AGAIN}
        assert await leases.renew({"t1": "n1/1", "t2": "n1/1"}, 60) == taken_again
        assert await leases.read(["t1", "t2", "t3"]) == ["n1/1", "n1/1", None]
        assert not await leases.acquire("t1", "n2/1", 60)
    finally:
        if flushed is not None:
            flushed.cancel()
        await publisher.close()
        await subscriber.close()
        await leases.close()
    assert "bus: lost the connection to Redis" in caplog.text
    assert bus_errors(caplog) == []


async def test_a_redis_that_stops_answering_is_given_up_and_reconnected(
    private_redis: PrivateRedis, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(redis_bus_module, "PING_INTERVAL", 0.05)
    monkeypatch.setattr(redis_bus_module, "SILENCE_LIMIT", 0.5)
    monkeypatch.setattr(redis_bus_module, "CONNECT_TIMEOUT", 0.5)
    await private_redis.start()
    publisher, subscriber = RedisBus(private_redis.url), RedisBus(private_redis.url)
    resets: list[None] = []
    received: list[bytes] = []
    try:
        await publisher.start()
        await subscriber.start()
        subscriber.on_reset(lambda: resets.append(None))
        await subscriber.subscribe("news", received.append)
        publisher.publish("news", b"before")
        await publisher.flush()
        await wait_until(lambda: received == [b"before"])
        await private_redis.wait_for_pings(6)  # the idle connections are pinged, and understand PONG

        private_redis.pause()
        try:
            await wait_until(lambda: not subscriber.connected, "the silence noticed")
        finally:
            private_redis.resume()
        await wait_until(lambda: resets, "the reset callback")
        publisher.publish("news", b"after")
        await publisher.flush()
        await wait_until(lambda: received[-1:] == [b"after"])
        assert received == [b"before", b"after"]
    finally:
        await publisher.close()
        await subscriber.close()
    assert bus_errors(caplog) == []  # nor did the pings (subscribed or not) confuse a reader
