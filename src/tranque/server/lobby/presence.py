"""Who is online: the open sockets of each account, and the notices sent to all of them.

An account is online while it has a socket open. One that closes its last socket stays
online for `grace_seconds` (a reload, a dropped link that comes back): only if no socket
opens meanwhile does it go offline. `on_change(user_id, online)` is called on each real
change, so a page reload never makes a friend flicker off and on.

Each socket also carries the accounts whose phrases it does not receive (`muted`, the ones
its account blocks): `set_muted` updates every socket of the account at once.

With several processes (a `bus` and this process's `node`), an account is online while it
is online on any of them. Each process keeps its own sockets as above and tells the others
over the bus how many sockets each account has on it (0: closed, still in its grace) and when
its grace ends; a process that starts, or whose bus lost messages, asks every other for its
whole list. So `online` answers for the whole cluster, `on_change` is called on every process
when the cluster's answer changes (an account moving its socket to another process is online
throughout), `send` and `set_muted` reach the account's sockets on every process, and a
process that is gone (`drop_node`, or its own goodbye) takes its accounts with it, after the
same grace, unless they are online elsewhere.
"""

from __future__ import annotations

import functools
import itertools
import logging
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from tranque.server.cluster import wire
from tranque.server.json_text import dumps
from tranque.server.table.clock import Clock, Timer

if TYPE_CHECKING:
    from tranque.server.cluster.bus import Bus

log = logging.getLogger(__name__)


class Socket(Protocol):
    """An account's open socket as presence sees it (ws/connection.py's `Connection`): it
    queues a frame's text, and carries the accounts whose phrases it does not receive."""

    muted: frozenset[int]

    def send_text(self, text: str) -> None: ...


GRACE_SECONDS = 8.0
CHANNEL = "tranque:presence"
_PRESENCE = (
    wire.PresenceOn,
    wire.PresenceOff,
    wire.PresenceSend,
    wire.PresenceMute,
    wire.PresenceAsk,
    wire.PresenceAll,
    wire.PresenceBye,
)


class Presence:
    def __init__(
        self,
        clock: Clock,
        on_change: Callable[[int, bool], None] | None = None,
        grace_seconds: float = GRACE_SECONDS,
        bus: Bus | None = None,
        node: str | None = None,
        channel: str = CHANNEL,
    ) -> None:
        self.clock = clock
        self.on_change = on_change
        self.grace_seconds = grace_seconds
        self._sockets: dict[int, set[Socket]] = {}
        self._leaving: dict[int, Timer] = {}  # accounts whose last socket closed, not yet offline
        # With other processes: what they said of their accounts, and who is still to go.
        self.bus = bus
        self.node = node or secrets.token_hex(6)
        self.channel = channel
        self._remote: dict[str, dict[int, int]] = {}  # node → account → its sockets there
        self._orphans: dict[int, Timer] = {}  # accounts of a process gone, in their grace
        self._asks = itertools.count()
        self._first_ask: int | None = None  # answers to it are news to us, not to the accounts
        self._closed = False

    # Life (with other processes) ------------------------------------------------------------

    async def start(self) -> None:
        """Hear the other processes, and ask each for the accounts online on it."""
        if self.bus is None:
            return
        await self.bus.subscribe(self.channel, self._on_message)
        self.bus.on_reset(self.tell_again)
        self._first_ask = self._ask()

    def close(self) -> None:
        for timer in [*self._leaving.values(), *self._orphans.values()]:
            timer.cancel()
        self._leaving.clear()
        self._orphans.clear()
        if self.bus is not None and not self._closed:
            # Our accounts go, after their grace, unless they are online elsewhere.
            self._publish(wire.PresenceBye(sender=self.node))
        self._closed = True

    def nodes(self) -> set[str]:
        """The other processes this one has heard of (and not seen go)."""
        return set(self._remote)

    def drop_node(self, node: str) -> None:
        """Process `node` is gone: its accounts go offline after `grace_seconds`, unless they
        are online elsewhere by then (their sockets have probably opened elsewhere already)."""
        accounts = self._remote.pop(node, None)
        for user_id in accounts or ():
            if self.online(user_id):
                continue
            when = self.clock.now() + self.grace_seconds
            self._orphans[user_id] = self.clock.call_at(when, functools.partial(self._orphan_gone, user_id))

    def _orphan_gone(self, user_id: int) -> None:
        if self._orphans.pop(user_id, None) is not None and not self.online(user_id):
            self._changed(user_id, False)

    # This process's sockets ----------------------------------------------------------------

    def add(self, user_id: int, connection: Socket) -> None:
        arriving = not self.online(user_id)
        leaving = self._leaving.pop(user_id, None)
        if leaving is not None:
            leaving.cancel()
        self._sockets.setdefault(user_id, set()).add(connection)
        self._tell(user_id)
        if arriving:
            self._changed(user_id, True)

    def remove(self, user_id: int, connection: Socket) -> None:
        sockets = self._sockets.get(user_id)
        if sockets is None:
            return
        sockets.discard(connection)
        self._tell(user_id)
        if sockets:
            return
        del self._sockets[user_id]
        when = self.clock.now() + self.grace_seconds
        self._leaving[user_id] = self.clock.call_at(when, lambda: self._gone(user_id))

    def _gone(self, user_id: int) -> None:
        if self._leaving.pop(user_id, None) is None or user_id in self._sockets:
            return
        self._publish(wire.PresenceOff(sender=self.node, user_id=user_id))
        if not self.online(user_id):
            self._changed(user_id, False)

    def _changed(self, user_id: int, online: bool) -> None:
        if self.on_change is not None:
            self.on_change(user_id, online)

    def online(self, user_id: int) -> bool:
        """Whether the account is online here or, as far as we have heard, anywhere else."""
        return (
            user_id in self._sockets
            or user_id in self._leaving
            or user_id in self._orphans
            or any(user_id in accounts for accounts in self._remote.values())
        )

    def send(self, user_id: int, message: dict[str, Any]) -> int:
        """Queue `message` on every open socket of the account, on every process; how many:
        this process's sockets, plus those the others last said they have (so 0 means that
        nobody got it, as far as this process knows)."""
        if self.bus is None:
            return self.send_local(user_id, message)
        text = dumps(message)
        self._publish(wire.PresenceSend(sender=self.node, user_id=user_id, text=text))
        elsewhere = sum(accounts.get(user_id, 0) for accounts in self._remote.values())
        return self._deliver(user_id, text) + elsewhere

    def send_local(self, user_id: int, message: dict[str, Any]) -> int:
        """Queue `message` on the account's sockets of this process only; how many. For what
        every process sends its own sockets itself (what it hears from `on_change`)."""
        sockets = self._sockets.get(user_id)
        return self._deliver(user_id, dumps(message)) if sockets else 0

    def _deliver(self, user_id: int, text: str) -> int:
        sockets = list(self._sockets.get(user_id, ()))
        for connection in sockets:
            connection.send_text(text)
        return len(sockets)

    def set_muted(self, user_id: int, muted: frozenset[int]) -> None:
        """Mute `muted` on every socket of the account, on every process."""
        self._publish(wire.PresenceMute(sender=self.node, user_id=user_id, muted=tuple(sorted(muted))))
        self._mute(user_id, muted)

    def _mute(self, user_id: int, muted: frozenset[int]) -> None:
        for connection in self._sockets.get(user_id, ()):
            connection.muted = muted

    # The bus -------------------------------------------------------------------------------

    def _publish(self, message: wire.Message) -> None:
        if self.bus is not None and not self._closed:
            self.bus.publish(self.channel, wire.encode(message))

    def _tell(self, user_id: int) -> None:
        """Tell the others how many sockets the account has here now."""
        if self.bus is not None:
            sockets = len(self._sockets.get(user_id, ()))
            self._publish(wire.PresenceOn(sender=self.node, user_id=user_id, sockets=sockets))

    def _ask(self, node: str | None = None) -> int:
        """Ask `node` (every other process, if None) for its whole list; the question's number."""
        number = next(self._asks)
        self._publish(wire.PresenceAsk(sender=self.node, ask_id=number, to=node))
        return number

    def _everything(self, answering: str | None = None, number: int | None = None) -> None:
        """Our whole list: every account with a socket here, or still in its grace here."""
        accounts = {user_id: len(sockets) for user_id, sockets in self._sockets.items()}
        accounts.update((user_id, 0) for user_id in self._leaving)
        listed = tuple(accounts.items())
        self._publish(wire.PresenceAll(sender=self.node, accounts=listed, to=answering, answers=number))

    def tell_again(self) -> None:
        """Others may have missed what this process said, or dropped its accounts (the bus
        lost messages both ways, or this process's lease lapsed for a while): say
        everything, and ask everybody."""
        if not self._closed:
            self._everything()
            self._ask()

    def _on_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if not isinstance(message, _PRESENCE) or self._closed or message.sender == self.node:
            return
        node = message.sender
        match message:
            case wire.PresenceSend():
                self._deliver(message.user_id, message.text)
            case wire.PresenceMute():
                self._mute(message.user_id, frozenset(message.muted))
            case wire.PresenceOn():
                if node not in self._remote:
                    self._ask(node)  # we missed what it said before: its whole list, please
                self._set(node, {**self._remote.get(node, {}), message.user_id: message.sockets})
            case wire.PresenceOff():
                accounts = dict(self._remote.get(node, {}))
                accounts.pop(message.user_id, None)
                self._set(node, accounts)
            case wire.PresenceAll():
                quiet = message.to == self.node and message.answers == self._first_ask
                self._set(node, dict(message.accounts), quiet)
            case wire.PresenceAsk():
                self._remote.setdefault(node, {})  # a process starting, or one back from a reset
                if message.to in (None, self.node):
                    self._everything(node, message.ask_id)
            case wire.PresenceBye():
                self.drop_node(node)

    def _set(self, node: str, accounts: dict[int, int], quiet: bool = False) -> None:
        """What `node` has now; `on_change` for each account whose answer changed (none when
        `quiet`: a process starting learns what has been true all along)."""
        old = self._remote.get(node, {})
        touched = [user_id for user_id in {*old, *accounts} if (user_id in old) != (user_id in accounts)]
        before = {user_id: self.online(user_id) for user_id in touched}
        self._remote[node] = accounts
        for user_id in touched:
            now_online = self.online(user_id)
            if now_online != before[user_id] and not quiet:
                self._changed(user_id, now_online)
