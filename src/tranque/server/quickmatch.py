""" "Jugar ahora": pair waiting players into individual tables of 2 or 4 to 100 (docs/rules.md).

Four waiting players make a table of 4 at once; otherwise two make a table of 2 once the
first of them has waited `wait_seconds`. Nobody is seated with bots unless they asked to be:
such a player, still alone after the wait, gets a table of 2 against a bot.

Two players are never seated together when either blocks the other: a group is made of the
earliest waiting players who may sit together, and a player who may sit with nobody waiting
counts as alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tranque.engine import Rules
from tranque.server.clock import Clock, Timer
from tranque.server.limits import Limits, account_games, account_key
from tranque.server.refusals import Counted
from tranque.server.registry import Registry
from tranque.server.table import TableError

Notify = Callable[[dict[str, Any]], None]


@dataclass
class Waiting:
    user_id: int
    name: str
    notify: Notify
    with_bots: bool
    since: float
    address: str | None = None  # the client's, kept at the table only as a key (seats.py)


class QuickMatch:
    def __init__(
        self,
        registry: Registry,
        clock: Clock,
        wait_seconds: float,
        bot_level: str,
        limits: Limits | None = None,
    ) -> None:
        self.registry = registry
        self.clock = clock
        self.wait_seconds = wait_seconds
        self.bot_level = bot_level
        self.limits = limits or Limits()
        self.waiting: list[Waiting] = []
        self.apart: set[frozenset[int]] = set()  # pairs of accounts where one blocks the other
        self._timer: Timer | None = None

    async def join(
        self, user_id: int, name: str, notify: Notify, with_bots: bool, address: str | None = None
    ) -> None:
        self.cancel(user_id)
        if account_games(self.registry, self, user_id) >= self.limits.live_games_per_account:
            games = Counted(self.limits.live_games_per_account, "games")
            raise TableError("too_many_games.quick", games=games)
        others = [waiting.user_id for waiting in self.waiting]
        blocked = await self.registry.store.blocks_among([user_id, *others])
        self.apart = {frozenset(pair) for pair in blocked}
        self.cancel(user_id)  # joined twice meanwhile
        self.waiting.append(Waiting(user_id, name, notify, with_bots, self.clock.now(), address))
        await self.match()

    def keep_apart(self, one: int, other: int) -> None:
        """One of the two has just blocked the other."""
        self.apart.add(frozenset((one, other)))

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
        return group

    def is_waiting(self, user_id: int) -> bool:
        return any(waiting.user_id == user_id for waiting in self.waiting)

    def cancel(self, user_id: int) -> bool:
        before = len(self.waiting)
        self.waiting = [w for w in self.waiting if w.user_id != user_id]
        return len(self.waiting) < before

    async def match(self) -> None:
        """Seat every group that is due now, then arm the timer for the next one that may be."""
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
        import asyncio

        asyncio.get_running_loop().create_task(self.match())

    async def _seat(self, group: list[Waiting], bots: int) -> None:
        rules = Rules.preset("clasico", players=len(group) + bots, mode="individual", target=100)
        options = self.registry.options(kind="quick", bot_level=self.bot_level, competitive=True)
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
