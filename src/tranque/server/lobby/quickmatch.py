""" "Jugar ahora": pair waiting players into individual tables of 2 or 4 to 100 (docs/rules.md).

Four waiting players make a table of 4 at once; otherwise two make a table of 2 once the
first of them has waited `wait_seconds`. Nobody is seated with bots unless they asked to be:
such a player, still alone after the wait, gets a table of 2 against a bot.

Two players are never seated together when either blocks the other: a group is made of the
earliest waiting players who may sit together, and a player who may sit with nobody waiting
counts as alone.

With several processes (`share`), one of them is the **matchmaker**: whoever holds the lease
`<prefix>:quickmatch` (leases.py), renewed every `renew_seconds`. It alone keeps the queue
and runs the matching above, and seats each group at a table of its own (`registry.create`).
`join` on any process checks the account's live games there (every process has every table),
keeps the player's `notify` there and sends the player on to the matchmaker over the bus; the
matchmaker sends each `matched` back to the process the player joined on. A `cancel` goes to
every process. When the matchmaker changes (it stopped, died, or lost Redis, and its lease
lapsed), every process sends its waiting players to the new one, each with the time it began
to wait, so nobody waits forever nor starts waiting again.

Bot accounts (http/bot_accounts.py) have a quick match of their own, a second `QuickMatch` made
with `bots=True`: its tables accept bots (rated in the bots' pools), nobody is given a
built-in bot there, and with several processes it has its own channel and lease.

A little over 500 lines on purpose: the matching and its sharing across processes are one
state machine over one queue, and splitting them would put each half's invariants in the other.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tranque.engine import Rules
from tranque.server.cluster import wire
from tranque.server.cluster.leases import LeasesUnavailable, Renewal
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.limits import Limits, account_games, account_key
from tranque.server.lobby.registry import Registry
from tranque.server.refusals import Counted
from tranque.server.stopping import stop_tasks
from tranque.server.table.actor import TableError
from tranque.server.table.clock import Clock, Timer

if TYPE_CHECKING:
    from tranque.server.cluster.bus import Bus
    from tranque.server.cluster.leases import Leases

log = logging.getLogger(__name__)

Notify = Callable[[dict[str, Any]], None]
SEATED_SECONDS = 60.0  # a matchmaker answers a join sent again for a player it seated meanwhile
RESEND_SECONDS = 1.0  # a player sent this long ago and not in the matchmaker's queue is sent again
_QUICK = (
    wire.QuickJoin,
    wire.QuickMatched,
    wire.QuickCancel,
    wire.QuickApart,
    wire.QuickQueue,
    wire.QuickBoss,
    wire.QuickBye,
)


@dataclass
class Waiting:
    user_id: int
    name: str
    notify: Notify
    with_bots: bool
    since: float
    address: str | None = None  # the client's, kept at the table only as a key (seats.py)
    node: str | None = None  # the process it joined on (`share`)


class QuickMatch:
    def __init__(
        self,
        registry: Registry,
        clock: Clock,
        wait_seconds: float,
        bot_level: str,
        limits: Limits | None = None,
        bots: bool = False,
    ) -> None:
        self.registry = registry
        self.bots = bots  # the bot accounts' quick match: tables that accept bots
        self.clock = clock
        self.wait_seconds = wait_seconds
        self.bot_level = bot_level
        self.limits = limits or Limits()
        self.waiting: list[Waiting] = []
        self.apart: set[frozenset[int]] = set()  # pairs of accounts where one blocks the other
        self._timer: Timer | None = None
        # With other processes (`share`).
        self.bus: Bus | None = None
        self.node: str | None = None
        self.leases: Leases | None = None
        self.cluster = ClusterSettings()
        self.matchmaker: str | None = None  # the process holding the queue, as last heard
        self.mine: dict[int, Waiting] = {}  # the players waiting from this process
        self.queued: set[int] = set()  # the accounts in the matchmaker's queue, as it last said
        self._sent: dict[int, float] = {}  # when each of `mine` was last sent (the loop's time)
        # The matchmaker's players taken from the queue lately, by (account, since): when,
        # and their `matched` (None while their table is being set up).
        self._seated: dict[tuple[int, float], tuple[float, dict[str, Any] | None]] = {}
        self._held_until = 0.0  # the matchmaker's lease, as last renewed (the loop's time)
        self._loop: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    async def join(
        self, user_id: int, name: str, notify: Notify, with_bots: bool, address: str | None = None
    ) -> None:
        self.cancel(user_id)
        if account_games(self.registry, user_id, self.is_waiting) >= self.limits.live_games_per_account:
            games = Counted(self.limits.live_games_per_account, "games")
            raise TableError("too_many_games.quick", games=games)
        with_bots = with_bots and not self.bots  # bot accounts play bot accounts
        waiting = Waiting(user_id, name, notify, with_bots, self.clock.now(), address, self.node)
        if self.bus is None:
            await self._enqueue(waiting)
            return
        self.mine[user_id] = waiting
        if self.matchmaker == self.node:
            self._sent[user_id] = asyncio.get_running_loop().time()
            await self._take_join(self._join(waiting))
        else:
            self._forward(waiting)

    async def _enqueue(self, waiting: Waiting) -> None:
        others = [other.user_id for other in self.waiting]
        blocked = await self.registry.store.blocks_among([waiting.user_id, *others])
        if self.bus is not None and self.matchmaker != self.node:
            return  # no longer the matchmaker: the player's process sends it to the new one
        if self.bus is not None and (waiting.user_id, waiting.since) in self._seated:
            return  # the same join twice, and a table found meanwhile
        self.apart = {frozenset(pair) for pair in blocked}
        self._drop(waiting.user_id)  # joined twice meanwhile
        if self.bus is None:
            waiting.since = self.clock.now()
            self.waiting.append(waiting)
        else:  # players sent again to a new matchmaker come in any order
            bisect.insort(self.waiting, waiting, key=lambda other: other.since)
        await self.match()

    def keep_apart(self, one: int, other: int) -> None:
        """One of the two has just blocked the other."""
        self.apart.add(frozenset((one, other)))
        self._publish(wire.QuickApart(sender=self._sender, user_ids=(one, other)))

    def _may_sit(self, one: Waiting, group: list[Waiting]) -> bool:
        return all(frozenset((one.user_id, other.user_id)) not in self.apart for other in group)

    def _group(self, size: int, first: Waiting | None = None) -> list[Waiting] | None:
        """The earliest `size` waiting players who may all sit together (with `first` among them)."""
        group = [first] if first is not None else []
        for waiting in self.waiting:
            if len(group) == size:
                break
            if waiting is not first and self._may_sit(waiting, group):
                group.append(waiting)
        return group if len(group) == size else None

    def _take(self, group: list[Waiting]) -> list[Waiting]:
        self.waiting = [waiting for waiting in self.waiting if waiting not in group]
        if self.bus is not None:
            self._note_seated(group)
        return group

    def is_waiting(self, user_id: int) -> bool:
        """In the queue (with other processes: waiting from this one, or in the queue as the
        matchmaker last said)."""
        if any(waiting.user_id == user_id for waiting in self.waiting):
            return True
        return user_id in self.mine or user_id in self.queued

    def cancel(self, user_id: int) -> bool:
        """Take the account out of the queue (on every process); whether it was waiting."""
        if self.bus is None:
            return self._drop(user_id)
        now = self.clock.now()
        was_waiting = self.is_waiting(user_id)
        self.mine.pop(user_id, None)
        self.queued.discard(user_id)
        if was_waiting:  # (every socket that closes cancels: most were not waiting)
            self._publish(wire.QuickCancel(sender=self._sender, user_id=user_id, at=now))
        if self.matchmaker == self.node and self._drop(user_id, now):
            self._announce_queue()
        return was_waiting

    def _drop(self, user_id: int, since_until: float | None = None) -> bool:
        """Take the account's places out of the queue (those since `since_until` at the latest)."""
        before = len(self.waiting)
        self.waiting = [
            w
            for w in self.waiting
            if w.user_id != user_id or (since_until is not None and w.since > since_until)
        ]
        return len(self.waiting) < before

    async def match(self) -> None:
        """Seat every group that is due now, then arm the timer for the next one that may be."""
        if self._lease_lapsed():
            # Our lease was not renewed in time (Redis cut off, or this process stalled):
            # another may hold the queue by now, and two matchmakers would seat a player twice.
            self._follow(None)
            return
        now = self.clock.now()
        groups: list[tuple[list[Waiting], int]] = []
        # Groups leave the queue before any await: a concurrent match() never seats them twice.
        while (four := self._group(4)) is not None:
            groups.append((self._take(four), 0))
        for waiting in list(self.waiting):
            if waiting not in self.waiting or now - waiting.since < self.wait_seconds:
                continue
            pair = self._group(2, waiting)
            if pair is not None:
                groups.append((self._take(pair), 0))
            elif waiting.with_bots:
                groups.append((self._take([waiting]), 1))
        self._arm(now)
        self._announce_queue()
        for group, bots in groups:
            await self._seat(group, bots)

    def _arm(self, now: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        # Only what a later time can change: a lone player without bots waits for a join.
        if len(self.waiting) >= 2 or any(waiting.with_bots for waiting in self.waiting):
            # The next wait to end (the first one's, unless blocks kept it from a partner).
            due = [w.since + self.wait_seconds for w in self.waiting if w.since + self.wait_seconds > now]
            if due:
                self._timer = self.clock.call_at(min(due), self._due)

    def _due(self) -> None:
        asyncio.get_running_loop().create_task(self.match())

    async def _seat(self, group: list[Waiting], bots: int) -> None:
        rules = Rules.preset("clasico", players=len(group) + bots, mode="individual", target=100)
        options = self.registry.options(
            kind="quick", bot_level=self.bot_level, competitive=True, bots=self.bots
        )
        table = await self.registry.create(rules, options, [account_key(w.user_id) for w in group])
        tokens = [
            await table.take_seat(seat, w.name, w.user_id, w.address)
            for w, seat in zip(group, table.seats, strict=False)
        ]
        for seat in table.seats[len(group) :]:
            await table.give_to_bot(seat, self.bot_level)
        await table.start_game()
        # Only now does anybody know the table: until here it was set up by us alone, and
        # from here on everything reaches it through its actor.
        for waiting, seat, token in zip(group, table.seats, tokens, strict=False):
            waiting.notify({"type": "matched", "table": table.table_id, "seat": seat.index, "token": token})

    # With other processes -----------------------------------------------------------------

    def share(self, bus: Bus, node: str, leases: Leases, settings: ClusterSettings | None = None) -> None:
        """Match the players of every process of a cluster (before `start`): over `bus`, as
        `node`, the matchmaker being who holds the lease `<prefix>:quickmatch` of `leases`."""
        self.bus, self.node, self.leases = bus, node, leases
        self.cluster = settings or ClusterSettings()

    @property
    def channel(self) -> str:
        return f"{self.cluster.prefix}:quick" + (":bots" if self.bots else "")

    @property
    def lease(self) -> str:
        return f"{self.cluster.prefix}:quickmatch" + (":bots" if self.bots else "")

    async def start(self) -> None:
        """Hear the other processes, learn (or become) the matchmaker, and keep its lease."""
        if self.bus is None:
            return
        await self.bus.subscribe(self.channel, self._on_message)
        self.bus.on_reset(self._on_reset)
        await self._elect()
        self._loop = asyncio.get_running_loop().create_task(self._keep())

    async def close(self) -> None:
        """Stop; a matchmaker gives its lease up, so that another takes the queue over at once."""
        if self.bus is None or self._closed:
            return
        self._closed = True  # from here on nothing heard, nothing spawned
        await stop_tasks([*([self._loop] if self._loop is not None else []), *self._tasks])
        if self._timer is not None:
            self._timer.cancel()
        if self.matchmaker == self.node and self.leases is not None and self.node is not None:
            with contextlib.suppress(LeasesUnavailable):
                await self.leases.release(self.lease, self.node)
        self.bus.publish(self.channel, wire.encode(wire.QuickBye(sender=self._sender)))
        await self.bus.unsubscribe(self.channel)

    def nodes(self) -> set[str]:
        """The other processes this one depends on: the matchmaker, and (for the matchmaker)
        those its waiting players joined on."""
        known = {waiting.node for waiting in self.waiting} | {self.matchmaker}
        return {node for node in known if node is not None and node != self.node}

    def drop_node(self, node: str) -> None:
        """Process `node` is gone: its players leave the queue; if it was the matchmaker,
        another is chosen now (when its lease has lapsed)."""
        if self.bus is None or node == self.node:
            return
        if self.matchmaker == self.node:
            before = len(self.waiting)
            self.waiting = [waiting for waiting in self.waiting if waiting.node != node]
            if len(self.waiting) < before:
                self._announce_queue()
        if node == self.matchmaker:
            self._spawn(self._elect())

    # The players, between their process and the matchmaker

    def _join(self, waiting: Waiting) -> wire.QuickJoin:
        return wire.QuickJoin(
            sender=self._sender,
            to=self.matchmaker,
            user_id=waiting.user_id,
            name=waiting.name,
            with_bots=waiting.with_bots,
            since=waiting.since,
            address=waiting.address,
            origin=waiting.node or self._sender,
        )

    def _forward(self, waiting: Waiting) -> None:
        """Send a player of this process to the matchmaker (when there is one: else once
        there is)."""
        self._sent[waiting.user_id] = asyncio.get_running_loop().time()
        if self.matchmaker == self.node:
            self._spawn(self._take_join(self._join(waiting)))
        elif self.matchmaker is not None:
            self._publish(self._join(waiting))

    async def _take_join(self, join: wire.QuickJoin) -> None:
        """The matchmaker's side of a join."""
        if self.matchmaker != self.node:
            return
        user_id, since, origin = join.user_id, join.since, join.origin
        seated = self._seated.get((user_id, since))
        if seated is not None:  # seated meanwhile: its `matched` is coming, or went astray
            _, frame = seated
            if frame is not None:
                self._notify(origin, user_id, since, frame)
            return
        notify = self._notifier(origin, user_id, since)
        waiting = Waiting(user_id, join.name, notify, join.with_bots, since, join.address, origin)
        await self._enqueue(waiting)

    def _notifier(self, origin: str, user_id: int, since: float) -> Notify:
        def notify(frame: dict[str, Any]) -> None:
            self._seated[(user_id, since)] = (self.clock.now(), frame)
            self._notify(origin, user_id, since, frame)
            self._announce_queue()  # no longer being seated

        return notify

    def _note_seated(self, group: list[Waiting]) -> None:
        now = self.clock.now()
        for key in [key for key, (at, _) in self._seated.items() if at < now - SEATED_SECONDS]:
            del self._seated[key]
        for waiting in group:
            self._seated[(waiting.user_id, waiting.since)] = (now, None)

    def _notify(self, origin: str, user_id: int, since: float, frame: dict[str, Any]) -> None:
        if origin == self.node:
            self._matched(user_id, since, frame)
        else:
            matched = wire.QuickMatched(
                sender=self._sender, to=origin, user_id=user_id, since=since, frame=frame
            )
            self._publish(matched)

    def _matched(self, user_id: int, since: float, frame: dict[str, Any]) -> None:
        """A player of this process was seated: its `notify` tells its socket."""
        waiting = self.mine.get(user_id)
        if waiting is not None and waiting.since == since:
            del self.mine[user_id]
            waiting.notify(frame)

    def _cancelled(self, user_id: int, at: float) -> None:
        """Another process cancelled the account's wait: whatever began by `at` ends."""
        waiting = self.mine.get(user_id)
        if waiting is not None and waiting.since <= at:
            del self.mine[user_id]
        self.queued.discard(user_id)
        if self.matchmaker == self.node and self._drop(user_id, at):
            self._announce_queue()

    def _announce_queue(self) -> None:
        """The matchmaker tells every process who is in the queue (`is_waiting`), or being
        seated."""
        if self.bus is not None and self.matchmaker == self.node:
            seating = [user_id for (user_id, _), (_, frame) in self._seated.items() if frame is None]
            queue = (*(waiting.user_id for waiting in self.waiting), *seating)
            self._publish(wire.QuickQueue(sender=self._sender, user_ids=queue))

    def _in_queue(self, user_id: int) -> bool:
        """In the matchmaker's queue or being seated (as it last said, if another process)."""
        if self.matchmaker != self.node:
            return user_id in self.queued
        seating = any(u == user_id and frame is None for (u, _), (_, frame) in self._seated.items())
        return seating or any(waiting.user_id == user_id for waiting in self.waiting)

    def _send_missing(self) -> None:
        """Send again each player of this process missing from the matchmaker's queue for a
        while (its process was taken for gone, or the bus lost its join)."""
        now = asyncio.get_running_loop().time()
        self._sent = {user_id: sent for user_id, sent in self._sent.items() if user_id in self.mine}
        for waiting in list(self.mine.values()):
            sent = self._sent.get(waiting.user_id, now)
            if now - sent >= RESEND_SECONDS and not self._in_queue(waiting.user_id):
                self._forward(waiting)

    # The bus and the lease

    @property
    def _sender(self) -> str:
        return self.node or ""  # (set by `share`: nothing is published before)

    def _publish(self, message: wire.Message) -> None:
        if self.bus is not None and not self._closed:
            self.bus.publish(self.channel, wire.encode(message))

    def _on_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if not isinstance(message, _QUICK) or self._closed or message.sender == self.node:
            return
        sender = message.sender
        match message:
            case wire.QuickJoin() if message.to == self.node:
                self._spawn(self._take_join(message))
            case wire.QuickMatched() if message.to == self.node:
                self._matched(message.user_id, message.since, message.frame)
            case wire.QuickCancel():
                self._cancelled(message.user_id, message.at)
            case wire.QuickApart():
                self.apart.add(frozenset(message.user_ids))
            case wire.QuickQueue() if sender == self.matchmaker:
                self.queued = set(message.user_ids)
            case wire.QuickBoss():
                self._follow(sender)
            case wire.QuickBye():
                self.drop_node(sender)

    def _on_reset(self) -> None:
        """The bus may have lost messages: the matchmaker says so again, and every process
        sends its players again (a player seated meanwhile gets the same `matched`)."""
        if self._closed:
            return
        if self.matchmaker == self.node:
            self._publish(wire.QuickBoss(sender=self._sender))
            self._announce_queue()
        for waiting in list(self.mine.values()):
            self._forward(waiting)
        self._spawn(self._elect())

    async def _keep(self) -> None:
        while not self._closed:  # (a lease call may lose a cancellation: stopping.py)
            await asyncio.sleep(self.cluster.renew_seconds)
            try:
                await self._elect()
                self._send_missing()
            except Exception:
                log.exception("quick match: keeping the matchmaker's lease failed")

    async def _elect(self) -> None:
        """Renew the matchmaker's lease if ours, else take it if free, else read whose it is."""
        assert self.leases is not None and self.node is not None
        ttl = self.cluster.lease_seconds
        now = asyncio.get_running_loop().time()  # leases lapse in real time
        try:
            if self.matchmaker == self.node:
                kept = await self.leases.renew({self.lease: self.node}, ttl)
                if kept.get(self.lease, Renewal.LOST) is not Renewal.LOST:
                    self._held_until = now + ttl
                    return
            if await self.leases.acquire(self.lease, self.node, ttl):
                self._held_until = now + ttl
                self._follow(self.node)
                return
            (holder,) = await self.leases.read([self.lease])
            self._follow(holder)
        except LeasesUnavailable as error:
            log.warning("quick match: leases unavailable (%s)", error)
            if self._lease_lapsed():
                self._follow(None)  # another may hold it by now

    def _lease_lapsed(self) -> bool:
        """Whether this process, sharing the queue, believes itself the matchmaker on a lease
        it has not renewed within its time (`_held_until`)."""
        return (
            self.bus is not None
            and self.matchmaker == self.node
            and asyncio.get_running_loop().time() >= self._held_until
        )

    def _follow(self, matchmaker: str | None) -> None:
        """`matchmaker` keeps the queue now: this process's players go to it."""
        if matchmaker == self.matchmaker or self._closed:
            return
        was, self.matchmaker = self.matchmaker, matchmaker
        log.info("quick match: %s follows matchmaker %s (was %s)", self.node, matchmaker, was)
        if was == self.node:  # each player's process sends it to the new one
            self.waiting = []
            self._seated.clear()
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
        self.queued = set()
        if matchmaker == self.node:
            self._publish(wire.QuickBoss(sender=self._sender))
        for waiting in list(self.mine.values()):
            self._forward(waiting)

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        if self._closed:
            coroutine.close()
            return
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("quick match: a task failed", exc_info=task.exception())
