"""The recorder: turns each stored game end into history, ratings and XP, after the table.

A table stores a game's end with its last move and goes on; nothing it does waits for the
recorder, and nothing the recorder does (or fails to do) touches the table's log. The
recorder reads the stored `game_ended` events not recorded yet, oldest first
(`Store.game_ends`, store/outbox.py), and records each in one transaction
(`Store.record_game_end`): the game end marked recorded, the ratings its players have then
read, and what `archive.finished_game` makes of them kept (the `games` row, a `game_players`
row per account, and for a rated game the new ratings and the XP gained) with what the game's
end moves of its pot of fichas (table_fichas.py: the winners paid, or the stakes given back;
an annulled game keeps no game but still empties its pot). So a game end is
recorded at least once (it stays listed until its transaction commits: after a failure, a
crash or a restart it is tried again) and applied exactly once (the mark is written with
what it keeps, and a second recording, by any process, finds it taken and changes nothing).
They are recorded in order, one at a time across processes: a game's ratings start from the
ones the games before it left. A game end that fails is tried again, after `retry_seconds`,
before any later one.

What the recorder needs of the game it reads from the table's stored config and log alone:
the table's state just before the game's end, rebuilt by replaying the log as a restart
does, and, at a table that accepts bots, which accounts are bots' and whose.

Each process of a site runs one (`start`, in the app's lifespan), which catches up at once
(on game ends stored before a crash) and then whenever `wake` says a game ended, or every
`retry_seconds` (a game another process stored). `recorded` is told each game end recorded,
so its table can show the new ratings (`Table.ratings_recorded`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tranque.engine import Rules
from tranque.server.fichas import ledger
from tranque.server.players.archive import finished_game, game_format
from tranque.server.players.ratings import bots_pool
from tranque.server.players.table_fichas import game_movements, pot_number
from tranque.server.stopping import stop_tasks
from tranque.server.store import RatingRow, Store
from tranque.server.store.fichas import Movement
from tranque.server.store.outage import log_failure
from tranque.server.store.outbox import GameEnd, KeptGame
from tranque.server.table.events import EndReason, GameEnded
from tranque.server.table.log import from_stored, replay
from tranque.server.table.state import TableOptions, TableState
from tranque.server.table.views import record_of

log = logging.getLogger(__name__)

BATCH = 50  # game ends read from the store at a time


@dataclass(frozen=True)
class _Ended:
    """A game as its end left it: what recording it needs."""

    pool: str
    accounts: list[int]
    keep: Callable[[Mapping[int, RatingRow]], KeptGame | None]
    fichas: list[Movement]  # what the end moves of the game's pot


class Recorder:
    def __init__(
        self,
        store: Store,
        *,
        retry_seconds: float = 5.0,
        recorded: Callable[[GameEnd], None] | None = None,
        bank_cut: float = 0.40,
    ) -> None:
        self.store = store
        self.bank_cut = bank_cut  # the bank's share of a pot (settings.py `fichas_bank_cut`)
        self.retry_seconds = retry_seconds
        self.recorded = recorded
        # Called with each game end as it is recorded, inside its transaction: what it raises
        # undoes the recording (tests set it to make the recorder fail).
        self.check: Callable[[GameEnd], None] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="recorder")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await stop_tasks([task])  # its `wait_for` may lose a cancellation

    def wake(self) -> None:
        """A game ended (in this process): record it now rather than at the next retry."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            try:
                await self.catch_up()
            except Exception as error:
                log_failure(
                    log, error, "recording the game ends failed; trying again in %ss", self.retry_seconds
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.retry_seconds)

    async def catch_up(self) -> int:
        """Record every stored game end not recorded yet, oldest first; how many this call
        recorded. The first that fails stops it, with its error (later ones wait for it)."""
        count = 0
        while ends := await self.store.game_ends(BATCH):
            for end in ends:
                if await self.record(end):
                    count += 1
            if len(ends) < BATCH:
                break
        return count

    async def record(self, end: GameEnd) -> bool:
        """Record one game end; False if it was recorded already (by another process)."""
        ended = await self._ended(end)

        def keep(known: Mapping[int, RatingRow]) -> KeptGame | None:
            if self.check is not None:
                self.check(end)
            return None if ended is None else ended.keep(known)

        done = await self.store.record_game_end(
            end,
            "" if ended is None else ended.pool,
            [] if ended is None else ended.accounts,
            keep,
            [] if ended is None else ended.fichas,
        )
        if done and self.recorded is not None:
            self.recorded(end)
        return done

    async def _ended(self, end: GameEnd) -> _Ended | None:
        """The game whose end is `end`, as it stood just before it; None for one that leaves
        nothing (annulled, or before any game started, with no fichas in its pot)."""
        row = await self.store.table(end.table_id)
        if row is None:
            return None
        events = await self.store.load_events(end.table_id)
        last = [stored for stored in events if stored.seq == end.seq]
        event = from_stored(last[0]) if last else None
        if not isinstance(event, GameEnded):
            return None
        rules = Rules.from_json(row.config["rules"])
        options = TableOptions(**row.config["options"])
        state = TableState(rules)
        replay(state, [stored for stored in events if stored.seq < end.seq])
        accounts = sorted(
            {seat.user_id for seat in state.seats if seat.is_human and seat.user_id is not None}
        )
        bot_accounts = await self._bot_accounts(accounts) if options.bots else None
        ref = ledger.game_ref(end.table_id, pot_number(state))
        stakes = ledger.stakes_in(await self.store.ficha_movements_of(ref))
        annulled = event.reason is not EndReason.TARGET
        fichas = game_movements(
            end.table_id,
            state,
            options,
            stakes,
            self.bank_cut,
            annulled=annulled,
            at=end.at,
            bot_accounts=bot_accounts,
        )
        if annulled or state.game is None:
            return _Ended("", [], lambda _known: None, fichas) if fichas else None
        record = record_of(end.table_id, state)
        fmt = game_format(rules)

        # A banned account's rating and XP are frozen while the ban holds (moderation/enforce.py).
        frozen = {
            row.user_id
            for row in await self.store.sanctions_of(accounts)
            if row.kind == "ban" and row.lifted_at is None
        }

        def keep(known: Mapping[int, RatingRow]) -> KeptGame:
            kept = finished_game(end.table_id, state, options, record, end.at, known, bot_accounts)
            ratings = [rating for rating in kept.ratings if rating.user_id not in frozen]
            gained = [entry for entry in kept.xp if entry[1] not in frozen]
            return KeptGame(kept.game, kept.players, ratings, gained)

        return _Ended(bots_pool(fmt) if options.bots else fmt, accounts, keep, fichas)

    async def _bot_accounts(self, accounts: list[int]) -> dict[int, int]:
        """Which of `accounts` are bots', each with its owner's account."""
        owners = {}
        for user_id in accounts:
            user = await self.store.user_by_id(user_id)
            if user is not None and user.bot_owner is not None:
                owners[user_id] = user.bot_owner
        return owners
