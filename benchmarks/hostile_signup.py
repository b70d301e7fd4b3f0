"""Does a hostile sign-up hold up the server? One socket's ping round trips while another client
signs up over and over with the costliest password for the strength estimate.

    python benchmarks/hostile_signup.py [--seconds 20] [--signers 1]

It starts `tranque serve` in a subprocess (a SQLite file in a scratch directory, a free
loopback port, the default settings: the estimate in a worker process), then for `--seconds`:

* one WebSocket sends `ping` every 50 ms, waiting for each `ack` ("pong") before the next, and
  keeps each round trip;
* `--signers` clients each `POST /api/register` back to back, a new name every time, each from
  an address of its own (`X-Forwarded-For`, which the server trusts from the loopback, so the
  per-place quota never stops them: the worst case, many places at once), with the costliest
  password found (below).

The password: among candidates made of zxcvbn's look-alike characters, the one whose estimate
(`estimated_weakness`, on the part the server shows zxcvbn) takes longest here; the 72
characters of every look-alike, which took ~10 s on the loop before, are among them. It prints
the sign-ups' answers by status and code, their duration, the pings' p50 / p99 / max, and
what a ping took before any sign-up (the baseline). Goal: ping p99 <= 50 ms.

The server runs the `tranque` this file imports; `--server-src DIR` runs it from another
checkout's `src` instead (say, a commit from before the estimate left the loop), for a comparison;
`--password TEXT` signs up with TEXT instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import websockets

import tranque
from tranque.server.accounts.passwords import estimated_part, estimated_weakness

CANDIDATES = [
    ("4@8({[<369!|1705$+%2" * 4)[:72],  # every look-alike: ~10 s when shown whole
    ("1|7!(<{[4@" * 8)[:72],  # the look-alikes of several letters first
    ("|71!@4<[{(" * 8)[:72],
    ("$5+7%2|1!0" * 8)[:72],
]
PING_EVERY = 0.05


def costliest() -> tuple[str, float]:
    """The candidate whose estimate takes longest here, and how long (s, best of 3)."""
    timed = []
    for password in CANDIDATES:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            estimated_weakness(password, "hostil")
            best = min(best, time.perf_counter() - start)
        timed.append((best, password))
    seconds, password = max(timed)
    return password, seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(port: int, scratch: Path, source: str | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "from tranque.cli import main; main()", "serve", "--port", str(port)]
    command += ["--db", f"sqlite+aiosqlite:///{scratch / 'tranque.db'}"]
    env = os.environ.copy()  # the server runs the code this file imported, unless told otherwise
    env["PYTHONPATH"] = str(Path(source).resolve()) if source else str(Path(tranque.__file__).parents[1])
    return subprocess.Popen(command, cwd=scratch, env=env)


def wait_until_up(base: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("the server stopped")
        try:
            if httpx.get(f"{base}/api/bots", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit("the server did not start")


async def pinger(ws_url: str, until: float, rtts: list[float]) -> None:
    async with websockets.connect(ws_url) as sock:
        number = 0
        while time.monotonic() < until:
            number += 1
            start = time.perf_counter()
            await sock.send(json.dumps({"type": "ping", "id": number}))
            while True:
                answer = json.loads(await sock.recv())
                if answer.get("id") == number:
                    break
            rtts.append(time.perf_counter() - start)
            await asyncio.sleep(PING_EVERY)


Answers = list[tuple[str, float]]  # each sign-up's status and code, and its duration


async def signer(base: str, index: int, password: str, until: float, answers: Answers) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:
        count = 0
        while time.monotonic() < until:
            count += 1
            address = f"10.{index}.{count // 250}.{count % 250 + 1}"
            start = time.perf_counter()
            answer = await http.post(
                "/api/register",
                json={"name": f"hostil_{index}_{count}", "password": password},
                headers={"X-Forwarded-For": address},
            )
            code = str(answer.json().get("code", "created")) if answer.content else ""
            answers.append((f"{answer.status_code} {code}", time.perf_counter() - start))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def ms(values: list[float]) -> str:
    if not values:
        return "none"
    p50, p99 = statistics.median(values), percentile(values, 0.99)
    most = max(values)
    return f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {most * 1000:.1f} ms (n={len(values)})"


async def measure(base: str, ws_url: str, password: str, seconds: float, signers: int) -> None:
    baseline: list[float] = []
    await pinger(ws_url, time.monotonic() + 3, baseline)
    until = time.monotonic() + seconds
    rtts: list[float] = []
    answers: Answers = []
    await asyncio.gather(
        pinger(ws_url, until, rtts), *(signer(base, i + 1, password, until, answers) for i in range(signers))
    )
    print(f"pings before any sign-up: {ms(baseline)}")
    print(f"pings during the sign-ups: {ms(rtts)}")
    print(f"sign-ups: {len(answers)}; answers: {dict(Counter(status for status, _ in answers))}")
    print(f"sign-up durations: {ms([seconds for _, seconds in answers])}")
    verdict = "met" if rtts and percentile(rtts, 0.99) <= 0.050 else "NOT met"
    print(f"goal ping p99 <= 50 ms: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the sign-ups go on")
    parser.add_argument("--signers", type=int, default=1, help="clients signing up at once")
    parser.add_argument("--server-src", help="run the server from this src directory instead")
    parser.add_argument("--password", help="this password instead of the costliest candidate")
    args = parser.parse_args()
    password, estimate = costliest()
    if args.password:
        password = args.password
        start = time.perf_counter()
        estimated_weakness(password, "hostil")
        estimate = time.perf_counter() - start
    print(f"password: {password!r} ({len(password)} characters)")
    print(f"  zxcvbn is shown {estimated_part(password)!r}: {estimate * 1000:.0f} ms here")
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        server = start_server(port, Path(scratch), args.server_src)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, server)
            asyncio.run(measure(base, f"ws://127.0.0.1:{port}/ws", password, args.seconds, args.signers))
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
