"""A WebSocket client whose bytes the test carries by hand: websockets' own sans-I/O protocol
over a plain blocking socket.

Because nothing moves unless the test moves it, this client can do what the usual clients
cannot: send hundreds of messages in a single write (as a browser flushing a burst does), or
go deaf, neither reading nor answering the server's pings, like a link that died without a
reset. The pongs its protocol prepares are sent only by `flush`, which a deaf client never
calls again.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from websockets.uri import parse_uri

Message = dict[str, Any]
WAIT = 10.0  # seconds a read may wait before the test fails instead of hanging


class RawClient:
    def __init__(self, url: str) -> None:
        address = parse_uri(url)
        self.protocol = ClientProtocol(address, max_size=1 << 22)
        self.socket = socket.create_connection((address.host, address.port), timeout=WAIT)
        self.frames: list[Frame] = []  # every frame received, pings and the close included
        self.messages: list[Message] = []  # the text frames, read as JSON
        self._unread = 0
        self.protocol.send_request(self.protocol.connect())
        self.flush()
        while self.protocol.state is State.CONNECTING:
            self._receive()
        assert self.protocol.state is State.OPEN, self.protocol.handshake_exc

    def close(self) -> None:
        self.socket.close()

    def __enter__(self) -> RawClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def flush(self) -> None:
        """Write what the protocol has to send: messages, and the pongs it owes."""
        data = b"".join(self.protocol.data_to_send())
        if data:
            self.socket.sendall(data)

    def send(self, *messages: Message) -> None:
        """All `messages` in one write."""
        for message in messages:
            self.protocol.send_text(json.dumps(message).encode())
        self.flush()

    def send_in_background(self, *messages: Message) -> threading.Thread:
        """All `messages` in one write from another thread, so that this one can read the
        answers meanwhile (a client that reads while it sends)."""
        for message in messages:
            self.protocol.send_text(json.dumps(message).encode())
        data = b"".join(self.protocol.data_to_send())
        writer = threading.Thread(target=self.socket.sendall, args=(data,), daemon=True)
        writer.start()
        return writer

    def next(self, wanted: Callable[[Message], bool]) -> Message:
        """The next message not yet looked at for which `wanted` is true."""
        give_up = time.monotonic() + WAIT  # heartbeats would keep a plain read waiting forever
        while time.monotonic() < give_up:
            while self._unread < len(self.messages):
                message = self.messages[self._unread]
                self._unread += 1
                if wanted(message):
                    return message
            if not self._receive():
                raise AssertionError(f"the server closed the socket first: {self.protocol.close_rcvd}")
        raise AssertionError("the awaited message never came")

    def answer(self, message_id: Any) -> Message:
        return self.next(lambda m: m["type"] in ("ack", "error") and m["id"] == message_id)

    def read_until_closed(self) -> None:
        """Read until the server's close frame (or the end of the connection), then answer it."""
        give_up = time.monotonic() + WAIT
        while self.protocol.close_rcvd is None and self._receive():
            if time.monotonic() > give_up:
                raise AssertionError("the server never closed the socket")
        with contextlib.suppress(OSError):  # the server may have gone already
            self.flush()

    def _receive(self) -> bool:
        """Read what has arrived; False once the server has closed the connection."""
        data = self.socket.recv(1 << 16)
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        for event in self.protocol.events_received():
            if isinstance(event, Frame):
                self.frames.append(event)
                if event.opcode is Opcode.TEXT:
                    # websockets: only compressed outgoing frames hold a memoryview
                    assert not isinstance(event.data, memoryview)
                    self.messages.append(json.loads(event.data))
        return bool(data)

    @property
    def close_code(self) -> int | None:
        """The code of the server's close frame, if one came."""
        return None if self.protocol.close_rcvd is None else self.protocol.close_rcvd.code
