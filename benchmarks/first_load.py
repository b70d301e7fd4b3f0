"""The browser client's first load on a slow phone network: requests, bytes, time to the home
page's buttons, with an empty cache and then with a warm one.

    python benchmarks/first_load.py                       # 400 ms, 400 kbit/s (the goal's network)
    python benchmarks/first_load.py --latency 150 --kbits 1600

It starts `tranque serve` itself (a SQLite file in a scratch directory, a free loopback port),
then opens the home page in Debian's Chromium (/usr/bin/chromium, through Playwright) at
390×844 with the network emulated over CDP (`Network.emulateNetworkConditions`: the latency
added to each request, and the download and upload throughput).

- Empty cache: a new browser context, a first visit. Printed: the requests, the bytes
  received (`encodedDataLength`: headers and bodies, as they came over the wire, the
  WebSocket's frames not counted), and the time from asking for the page to the home page's
  buttons ("Jugar ahora", "Practicar contra la máquina") being visible. The bytes are counted
  once the network has been quiet for a second after that.
- Warm cache: a second visit in the same context (a new navigation, not a reload). Requests
  the browser's cache answered without asking the server are counted apart.

Goal: the buttons within 3 s and at most 120 KB on the first visit, at 400 ms and 400 kbit/s.
"""

from __future__ import annotations

import argparse
import contextlib
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
BUTTONS = "#play-now, #practice"  # the home page's main buttons (screens.js, homeScreen)
QUIET_SECONDS = 1.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def served() -> Iterator[str]:
    """A `tranque serve` on a free loopback port, with a scratch SQLite database."""
    port = free_port()
    with tempfile.TemporaryDirectory() as scratch:
        database = f"sqlite:///{Path(scratch) / 'tranque.db'}"
        command = [
            str(Path(sys.executable).with_name("tranque")),
            "serve",
            "--port",
            str(port),
            "--db",
            database,
        ]
        server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                    break
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("tranque serve did not start")
                time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            server.terminate()
            server.wait(timeout=30)


@dataclass
class Traffic:
    """What one page's network received, from CDP's Network events."""

    requests: dict[str, str] = field(default_factory=dict)  # request id -> URL
    received: dict[str, int] = field(default_factory=dict)  # request id -> bytes on the wire
    cached: set[str] = field(default_factory=set)  # request ids the browser's cache answered
    last: float = field(default_factory=time.monotonic)

    def watch(self, cdp: Any) -> None:
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.loadingFinished", self._finished)
        cdp.on("Network.loadingFailed", self._failed)
        cdp.on("Network.requestServedFromCache", lambda event: self.cached.add(event["requestId"]))
        cdp.on("Network.responseReceived", self._response)

    def _response(self, event: dict[str, Any]) -> None:
        if event["response"].get("fromDiskCache") or event["response"].get("fromPrefetchCache"):
            self.cached.add(event["requestId"])

    def _sent(self, event: dict[str, Any]) -> None:
        self.requests[event["requestId"]] = event["request"]["url"]
        self.last = time.monotonic()

    def _finished(self, event: dict[str, Any]) -> None:
        self.received[event["requestId"]] = int(event["encodedDataLength"])
        self.last = time.monotonic()

    def _failed(self, event: dict[str, Any]) -> None:
        self.received[event["requestId"]] = 0
        self.last = time.monotonic()

    def settle(self, page: Any) -> None:
        """Wait until every request is over and nothing happened for QUIET_SECONDS."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            page.wait_for_timeout(100)
            pending = set(self.requests) - set(self.received)
            if not pending and time.monotonic() - self.last >= QUIET_SECONDS:
                return
        raise RuntimeError("the page's network never went quiet")


def visit(context: Any, url: str, latency: float, kbits: float) -> tuple[Traffic, float]:
    """One visit to `url` in `context`: its traffic, and the seconds until the buttons showed."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    traffic = Traffic()
    traffic.watch(cdp)
    cdp.send("Network.enable")
    throughput = kbits * 1000 / 8  # bytes per second
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": latency,
            "downloadThroughput": throughput,
            "uploadThroughput": throughput,
        },
    )
    started = time.monotonic()
    page.goto(url, wait_until="commit", timeout=120_000)
    page.locator(BUTTONS).first.wait_for(state="visible", timeout=120_000)
    page.locator(BUTTONS).last.wait_for(state="visible", timeout=120_000)
    seconds = time.monotonic() - started
    traffic.settle(page)
    page.close()
    return traffic, seconds


def report(name: str, traffic: Traffic, seconds: float) -> None:
    total = sum(traffic.received.values())
    print(
        f"{name:<12} {len(traffic.requests):>3} requests ({len(traffic.cached):>2} from the cache)"
        f"  {total:>9,} bytes ({total / 1000:.1f} KB)"
        f"  buttons after {seconds:.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--latency", type=float, default=400.0, help="ms added to each request")
    parser.add_argument("--kbits", type=float, default=400.0, help="download and upload, kbit/s")
    parser.add_argument("--verbose", action="store_true", help="list each request and its bytes")
    args = parser.parse_args()
    print(f"Network: {args.latency:.0f} ms, {args.kbits:.0f} kbit/s; Chromium at 390x844")
    with served() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        for name in ("empty cache", "warm cache"):
            traffic, seconds = visit(context, url + "/", args.latency, args.kbits)
            report(name, traffic, seconds)
            if args.verbose:
                for request, address in traffic.requests.items():
                    print(f"    {traffic.received.get(request, 0):>7,}  {address.removeprefix(url)}")
        browser.close()


if __name__ == "__main__":
    main()
