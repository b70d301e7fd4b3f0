"""A link that dies in silence, no close and no reset: the page notices and resumes the game.

The browser reaches the server through a TCP relay that can go silent: every connection it
carries stays open, but no byte crosses it any more, as when a phone leaves a network or a
NAT forgets the connection. Connections made afterwards pass (the network is back). The
server sends a `heartbeat` to a quiet socket every 0.2 s here, so the page, which hears
nothing at all for 2.5 intervals, gives its socket up, reconnects and resumes.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import act_once
from tests.web.test_resilience import table_picture, wait_for_my_turn
from tranque.server.ws.limits import SocketLimits

HEARTBEAT_SECONDS = 0.2


class Relay:
    """127.0.0.1:`port` → the server; `go_silent` kills every connection made so far."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.generation = 0  # connections of an older generation carry nothing
        self.connections = 0
        self._sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def go_silent(self) -> None:
        self.generation += 1

    def close(self) -> None:
        self.listener.close()
        for each in self._sockets:
            with contextlib.suppress(OSError):
                each.close()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                client, _ = self.listener.accept()
                server = socket.create_connection(("127.0.0.1", self.target_port))
                self._sockets += [client, server]
                self.connections += 1
                born = self.generation
                for source, sink in ((client, server), (server, client)):
                    threading.Thread(target=self._carry, args=(source, sink, born), daemon=True).start()

    def _carry(self, source: socket.socket, sink: socket.socket, born: int) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(1 << 16):
                if born == self.generation:  # else the bytes are lost on the way
                    sink.sendall(data)
            if born == self.generation:  # and so is the end of the connection
                sink.shutdown(socket.SHUT_WR)


@contextlib.contextmanager
def relay_to(live: LiveServer) -> Iterator[Relay]:
    relay = Relay(live.port)
    try:
        yield relay
    finally:
        relay.close()


def test_a_silently_dead_link_is_noticed_and_the_game_resumes(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    live.settings.socket_limits = SocketLimits(heartbeat_seconds=HEARTBEAT_SECONDS, burst=10**9)
    with relay_to(live) as relay:
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        page = console_errors.watch(context.new_page())
        page.goto(f"http://127.0.0.1:{relay.port}/")
        page.click("#practice")
        page.wait_for_selector("#start")
        page.select_option("select[name=preset]", "clasico")
        page.select_option("select[name=players]", "4")
        page.click("#start")
        wait_for_my_turn(page)
        before = table_picture(page)
        page.wait_for_function(f"() => window.tranque.socket.heartbeatSeconds === {HEARTBEAT_SECONDS}")
        page.evaluate(
            """() => {
                const banner = document.getElementById("offline");
                window.offlineShown = false;
                new MutationObserver(() => { window.offlineShown ||= !banner.hidden; })
                    .observe(banner, { attributes: true });
            }"""
        )
        sockets: list[Any] = []
        page.on("websocket", lambda opened: sockets.append(opened))

        relay.go_silent()
        page.wait_for_function("() => window.offlineShown", timeout=20_000)
        page.wait_for_selector("#offline", state="hidden", timeout=20_000)
        wait_for_my_turn(page)
        assert len(sockets) == 1  # the page opened a new socket, through the relay
        assert table_picture(page) == before
        page.screenshot(path=screenshots / "dead-link-resumed-1280.png")
        assert act_once(page, Counter())
        context.close()
