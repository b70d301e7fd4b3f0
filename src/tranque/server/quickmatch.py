""" "Jugar ahora": pair waiting players into individual tables of 2 or 4 to 100 (docs/rules.md).

Four waiting players make a table of 4 at once; otherwise two make a table of 2 once the
first of them has waited `wait_seconds`. Nobody is seated with bots unless they asked to be:
such a player, still alone after the wait, gets a table of 2 against a bot.
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
        self._timer: Timer | None = None

    async def join(
        self, user_id: int, name: str, notify: Notify, with_bots: bool, address: str | None = None
    ) -> None:
        self.cancel(user_id)
        if account_games(self.registry, self, user_id) >= self.limits.live_games_per_account:
            games = Counted(self.limits.live_games_per_account, "games")
            raise TableError("too_many_games.quick", games=games)
        self.waiting.append(Waiting(user_id, name, notify, with_bots, self.clock.now(), address))
        await self.match()

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
        while len(self.waiting) >= 4:
            groups.append((self.waiting[:4], 0))
            self.waiting = self.waiting[4:]
        if len(self.waiting) >= 2 and now - self.waiting[0].since >= self.wait_seconds:
            groups.append((self.waiting[:2], 0))
            self.waiting = self.waiting[2:]
        if (
            len(self.waiting) == 1
            and self.waiting[0].with_bots
            and now - self.waiting[0].since >= self.wait_seconds
        ):
            groups.append((self.waiting[:1], 1))
            self.waiting = []
        self._arm(now)
        for group, bots in groups:
            await self._seat(group, bots)

    def _arm(self, now: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        # Only what a later time can change: a lone player without bots waits for a join.
        if self.waiting and (len(self.waiting) >= 2 or self.waiting[0].with_bots):
            when = self.waiting[0].since + self.wait_seconds
            if when > now:
                self._timer = self.clock.call_at(when, self._due)

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
