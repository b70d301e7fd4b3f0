"""Every live table of this process: create, find, list for the lobby, recover after a restart."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, cast

from tranque.engine import Rules
from tranque.engine.rules import NextStart, TieStart
from tranque.server.fichas.rules import BANK_CUT
from tranque.server.json_text import dumps
from tranque.server.lobby.ownership import Ownership
from tranque.server.lobby.restore import replay_log, resume
from tranque.server.store import DuplicateTable, Store, StoredEvent, TableRow
from tranque.server.table.actor import Phase, Table, TableError, TableOptions
from tranque.server.table.bots import Bots
from tranque.server.table.clock import Clock, Timer
from tranque.server.table.commands import RatingsRecorded
from tranque.server.table.fairness import DealSecret
from tranque.server.table.log import replay
from tranque.server.table.seats import SeatKind
from tranque.server.table.stakes import FichasService

log = logging.getLogger(__name__)

OPEN_STATUSES = ("waiting", "playing")
RETIRE_AFTER_SECONDS = 600.0

# Duplicado (`TableOptions.deals`): a ref's deals, round by round, and whether they are revealed.
DealSource = Callable[[int], DealSecret]
DealSources = Callable[[str], Awaitable[DealSource]]


class TableExists(Exception):
    """A table with the chosen id is stored already (`Registry.create(table_id=...)`): a
    creation retried after it was done, which the caller finishes or leaves as it is."""

    def __init__(self, table_id: str) -> None:
        super().__init__(table_id)
        self.table_id = table_id


class NoDealSource(RuntimeError):
    """A table of shared deals (`TableOptions.deals`) and no `Registry.deal_sources` to ask."""


async def _always_revealed(ref: str) -> bool:
    return True


def shared_deal_rules(rules: Rules) -> Rules:
    """The rules of a table of shared deals: every later round's starter rotates to the right
    whatever happened (after a tie too), so every table of the ref has the same starters as
    well as the same hands. The first starter is the deal's (R6) or, where it is drawn by lot,
    drawn from the first deal's seed (`commands.game_started`)."""
    return rules.replace(next_round_start=NextStart.ROTATE_RIGHT, tie_next_start=TieStart.ROTATE_RIGHT)


class Registry:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        bots: Bots,
        defaults: dict[str, Any] | None = None,
        lobby_seconds: float = 1.0,
        cluster: Ownership | None = None,
    ) -> None:
        self.store = store
        # With several processes (cluster/node.py, through `Ownership`): every open table is
        # here, owned or a replica.
        self.cluster = cluster
        self.clock = clock
        self.bots = bots
        self.defaults = defaults or {}
        self.bank_cut = BANK_CUT  # its tables' share of a pot for the bank (app.py: the setting)
        self.tables: dict[str, Table] = {}
        # The lobby's followers get the whole list once, then `lobby_update` diffs, at most one
        # every `lobby_seconds`, from one timer shared by all (docs/protocol.md, «lobby»).
        self.lobby_seconds = lobby_seconds
        self._lobby_followers: dict[object, Callable[[str], None]] = {}
        self._lobby_sent: dict[str, dict[str, Any]] = {}  # the list as every follower has it
        self._lobby_dirty = False  # a public table changed since `_lobby_sent`
        self._lobby_timer: Timer | None = None
        self._lobby_sent_at = float("-inf")
        # table id → the quota keys it counts against (limits.py), from the start of its creation
        self.claims: dict[str, frozenset[str]] = {}
        self._retiring: dict[str, int] = {}  # table id → the number of the game that ended
        self._stopping: set[asyncio.Task[None]] = set()
        # Told, with its id, whenever a table's game is over (the app wakes the recorder:
        # players/recorder.py, and the tournament director).
        self.game_over: Callable[[str], None] | None = None
        # Duplicado (set by the tournaments' code at startup): a ref's deal secrets, asked on
        # creating and on restoring or taking over one of its tables; and whether a ref's deals
        # are revealed (until then no client gets their seeds and salts).
        self.deal_sources: DealSources | None = None
        self.deals_revealed: Callable[[str], Awaitable[bool]] = _always_revealed
        # The fichas (app_state.py sets it: `ServerState.fichas`): what a staked table stakes with.
        self.fichas: FichasService | None = None

    def options(self, **changes: Any) -> TableOptions:
        return TableOptions(**{**self.defaults, **changes})

    async def create(
        self,
        rules: Rules,
        options: TableOptions,
        claims: Iterable[str] = (),
        table_id: str | None = None,
    ) -> Table:
        """A new table; `claims` are the quota keys it counts against, at once: a quota checked
        by a request that arrives while this one is stored already counts it. `table_id`: a
        chosen id (a tournament's, kept in its plan before the table is made); `TableExists`
        if a table has it already, so a retried creation is told it was done."""
        chosen = table_id is not None
        if table_id is None:
            table_id = secrets.token_urlsafe(9)
        else:
            known = table_id in self.tables or table_id in self.claims
            if known or await self.store.table(table_id) is not None:
                raise TableExists(table_id)
        if options.deals is not None:
            rules = shared_deal_rules(rules)
        source = await self._deal_source(options)  # before anything is stored: it may fail
        self.claims[table_id] = frozenset(claims)
        if options.kind == "private" and options.invite_code is None:
            options.invite_code = secrets.token_urlsafe(16)
        config = {
            "rules": rules.to_json(),
            "options": options.to_json(),
            "claims": sorted(self.claims[table_id]),
        }
        claimed = False
        try:
            if self.cluster is not None:  # its lease first: nobody may take it over meanwhile
                try:
                    await self.cluster.claim_new(table_id)
                except TableError:
                    if chosen:  # another process is creating it, or owns it
                        raise TableExists(table_id) from None
                    raise
                claimed = True
            await self.store.create_table(table_id, config, self.clock.now())
        except BaseException as error:
            del self.claims[table_id]
            if claimed and self.cluster is not None:  # the lease of a table that is not ours
                self.cluster.forget(cast(Table, _Unmade(table_id)))
            if isinstance(error, DuplicateTable):
                raise TableExists(table_id) from None
            raise
        table = self._open(table_id, rules, options, source)
        if self.cluster is not None:
            self.cluster.owns(table)
        await table.record_creation()
        return table

    def _open(self, table_id: str, rules: Rules, options: TableOptions, source: DealSource | None) -> Table:
        table = Table(table_id, rules, options, self.store, self.clock, self.bots, on_change=self._changed)
        table.bank_cut = self.bank_cut
        self._deal_from(table, source)
        table.stakes.service = self.fichas
        self.tables[table_id] = table
        table.start()
        return table

    async def _deal_source(self, options: TableOptions) -> DealSource | None:
        """The deal secrets of a table of shared deals, from `deal_sources`; None for any other."""
        if options.deals is None:
            return None
        if self.deal_sources is None:
            raise NoDealSource(f"a table of the shared deals {options.deals!r} and no deal source")
        return await self.deal_sources(options.deals)

    def _deal_from(self, table: Table, source: DealSource | None) -> None:
        """A table of shared deals deals from its ref's secrets (`source`, where it deals), and
        its frames keep their seeds and salts back until `deals_revealed` says otherwise
        (`Table.seeds_revealed`)."""
        ref = table.options.deals
        if ref is None:
            return
        if source is not None:
            table.deal_secret = source
        revealed = self.deals_revealed
        table.seeds_revealed = lambda: revealed(ref)

    async def _deals_of_row(self, table: Table) -> None:
        """A table of the store (restored, a replica that may take it over): its deal source."""
        self._deal_from(table, await self._deal_source(table.options))

    async def hides_seeds(self, table_id: str) -> bool:
        """Whether the seeds and salts of the table's records are kept from clients: a table of
        shared deals not revealed yet (GET /api/tables/{id}/record, the kept game's record
        and replay)."""
        row = await self.store.table(table_id)
        ref = None if row is None else row.config.get("options", {}).get("deals")
        return ref is not None and not await self.deals_revealed(ref)

    async def find(self, table_id: str) -> Table:
        """The table, even one another process of a cluster created a moment ago, or one whose
        game ended a moment ago that this process does not have (its players come back to see
        the end after a restart, or from a process of a cluster that died as it ended)."""
        table = self.tables.get(table_id)
        if table is None:
            table = await (
                self.cluster.load(table_id) if self.cluster is not None else self._load_ended(table_id)
            )
        if table is None:
            raise TableError("no_such_table")
        return table

    def _shown_until(self, row: TableRow, events: list[StoredEvent]) -> float | None:
        """Until when a table of the store is kept: None while its game is open; else
        `RETIRE_AFTER_SECONDS` after its last event, as if it had stayed here since its end."""
        if row.status in OPEN_STATUSES:
            return None
        return (events[-1].at if events else row.created_at) + RETIRE_AFTER_SECONDS

    async def _load_ended(self, table_id: str) -> Table | None:
        """A table whose game ended a moment ago, from its log (a single process: the open ones
        were all recovered at its start); None if there is none or it is retired by now."""
        row = await self.store.table(table_id)
        if row is None:
            return None
        events = await self.store.load_events(table_id)
        if table_id in self.tables:  # loaded meanwhile
            return self.tables[table_id]
        until = self._shown_until(row, events)
        if until is None or until <= self.clock.now():
            return None
        table = self._open_from_log(row, events)
        self._retire_at(table, until)
        self._changed(table)
        return table

    def _table_of(self, row: TableRow) -> Table:
        """A new table with the rules and options of `row`, not yet started."""
        rules = Rules.from_json(row.config["rules"])
        options = TableOptions(**row.config["options"])
        changed = self._changed
        table = Table(row.table_id, rules, options, self.store, self.clock, self.bots, on_change=changed)
        table.bank_cut = self.bank_cut
        self._deal_from(table, None)  # its deal source is asked where it may deal
        table.stakes.service = self.fichas
        return table

    def _open_from_log(self, row: TableRow, events: list[StoredEvent]) -> Table:
        """A table of this process's own, rebuilt from its log and started."""
        table = self._table_of(row)
        replay_log(table, events)
        self.tables[row.table_id] = table
        self.claims[row.table_id] = frozenset(row.config.get("claims", ()))
        table.start()
        return table

    async def open_replica(self, row: TableRow) -> Table | None:
        """A table of the store that another process owns (cluster/node.py): its state as its log
        has it, kept up to date by its owner's events. One whose game is over only until it
        would have been retired (None after that)."""
        assert self.cluster is not None
        events = await self.store.load_events(row.table_id)
        if row.table_id in self.tables:  # loaded meanwhile
            return self.tables[row.table_id]
        until = self._shown_until(row, events)
        if until is not None and until <= self.clock.now():
            return None
        table = self._table_of(row)
        await self._deals_of_row(table)
        replay(table.state, events)
        self.cluster.keeps(table)
        self.tables[row.table_id] = table
        self.claims[row.table_id] = frozenset(row.config.get("claims", ()))
        table.start()
        if until is not None:
            self._retire_at(table, until)
        self._changed(table)
        return table

    async def practice(
        self,
        rules: Rules,
        name: str,
        bot_level: str,
        claims: Iterable[str] = (),
        user_id: int | None = None,
        address: str | None = None,
    ) -> tuple[Table, str]:
        """A table against the machine: seat 0 is the guest (an account's, when logged in: it
        is then among its live seats), bots everywhere else."""
        table = await self.create(rules, self.options(kind="practice", bot_level=bot_level), claims)
        token = await table.take_seat(table.seats[0], name, user_id, address)
        for seat in table.seats[1:]:
            await table.give_to_bot(seat, bot_level)
        await table.start_game()
        return table, token

    def claimed(self, key: str) -> list[Table | None]:
        """The tables that count against a quota key; None for one still being created."""
        return [self.tables.get(table_id) for table_id, keys in self.claims.items() if key in keys]

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise TableError("no_such_table")
        return table

    def by_invite(self, code: str) -> Table:
        for table in self.tables.values():
            # Bytes: compare_digest refuses str with non-ASCII characters (TypeError).
            if table.options.invite_code is not None and secrets.compare_digest(
                table.options.invite_code.encode(), code.encode()
            ):
                return table
        raise TableError("bad_invite")

    def lobby(self) -> list[dict[str, Any]]:
        """Public tables waiting for players, then those whose game is being played (to watch)."""
        listed = [table for table in self.tables.values() if table.options.kind == "public"]
        waiting = [table for table in listed if table.state.phase is Phase.WAITING]
        playing = [table for table in listed if table.state.phase.in_game]
        return [lobby_entry(table) for table in (*waiting, *playing)]

    def follow_lobby(self, key: object, send_text: Callable[[str], None]) -> None:
        """Send `key`'s follower the whole list now and the diffs after it until `unfollow_lobby`.
        The list is the one the other followers have, so the next diff fits it too; it may be
        up to one interval old, and that diff brings it up to date."""
        if not self._lobby_followers:  # nobody kept the followers' list while none followed
            self._lobby_sent = {entry["table"]: entry for entry in self.lobby()}
            self._lobby_dirty = False
        self._lobby_followers[key] = send_text
        send_text(dumps({"type": "lobby", "tables": list(self._lobby_sent.values())}))

    def unfollow_lobby(self, key: object) -> None:
        self._lobby_followers.pop(key, None)

    def _lobby_changed(self) -> None:
        self._lobby_dirty = True
        if self._lobby_timer is None and self._lobby_followers:
            when = max(self.clock.now(), self._lobby_sent_at + self.lobby_seconds)
            self._lobby_timer = self.clock.call_at(when, self._send_lobby_update)

    def _send_lobby_update(self) -> None:
        """The one shared timer: what changed since the last update, to every follower at once."""
        self._lobby_timer = None
        if not self._lobby_dirty or not self._lobby_followers:
            return
        self._lobby_dirty = False
        now = {entry["table"]: entry for entry in self.lobby()}
        changed = [entry for table_id, entry in now.items() if self._lobby_sent.get(table_id) != entry]
        removed = [table_id for table_id in self._lobby_sent if table_id not in now]
        self._lobby_sent = now
        if not changed and not removed:
            return
        self._lobby_sent_at = self.clock.now()
        text = dumps({"type": "lobby_update", "tables": changed, "removed": removed})
        for send_text in list(self._lobby_followers.values()):
            send_text(text)

    def _changed(self, table: Table) -> None:
        if table.options.kind == "public":
            self._lobby_changed()
        if table.state.phase.is_over:
            if self.game_over is not None:
                self.game_over(table.table_id)
            # Players may still read the result, ask for a rematch, resume and download the
            # record for a while.
            self._retire_at(table, self.clock.now() + RETIRE_AFTER_SECONDS)

    def ratings_recorded(self, table_id: str) -> None:
        """The recorder has recorded a game of `table_id`: if this process owns the table, it
        shows the new ratings before its next game."""
        table = self.tables.get(table_id)
        if table is not None and table.owned:
            table.post(RatingsRecorded())

    def _retire_at(self, table: Table, when: float) -> None:
        """Retire `table` at `when` unless its game is already to be retired (or a rematch
        is played meanwhile)."""
        number = table.state.game_number
        if self._retiring.get(table.table_id) != number:
            self._retiring[table.table_id] = number
            self.clock.call_at(when, lambda: self._retire(table.table_id, number))

    def _retire(self, table_id: str, number: int) -> None:
        live = self.tables.get(table_id)
        if self._retiring.get(table_id) != number or live is None or live.state.game_number != number:
            return  # a rematch was played meanwhile: its own end retires the table
        del self._retiring[table_id]
        table = self.tables.pop(table_id, None)
        self.claims.pop(table_id, None)
        if table is not None:
            if self.cluster is not None:
                self.cluster.forget(table)
            task = asyncio.get_running_loop().create_task(table.stop())
            self._stopping.add(task)
            task.add_done_callback(self._stopping.discard)
            table.retire()  # else its actor task would wait on its queue forever

    async def recover(self) -> int:
        """Rebuild every unfinished table from its log; returns how many. In a cluster they
        are replicas: their owners, or the first process to find their lease lapsed, go on."""
        count = 0
        for row in await self.store.tables(OPEN_STATUSES):
            if self.cluster is not None:
                if row.table_id not in self.tables:
                    await self.open_replica(row)
                    count += 1
                continue
            table = self._open_from_log(row, await self.store.load_events(row.table_id))
            await self._deals_of_row(table)
            await resume(table)
            count += 1
        log.info("recovered %d tables", count)
        return count

    async def close(self) -> None:
        self._lobby_followers.clear()
        if self._lobby_timer is not None:
            self._lobby_timer.cancel()
            self._lobby_timer = None
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.claims.clear()
        for task in list(self._stopping):
            await task


class _Unmade:
    """A table this process leased and could not create: only its id, to give the lease back."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id


def lobby_entry(table: Table) -> dict[str, Any]:
    """A public table as the lobby lists it (docs/protocol.md, `lobby`)."""
    rules, state = table.rules, table.state
    game = state.game
    names = [seat.name if seat.kind is not SeatKind.EMPTY else None for seat in table.seats]
    return {
        "table": table.table_id,
        "preset": rules.preset_name,
        "players": rules.players,
        "mode": rules.mode.value,
        "target": rules.target,
        "turn_seconds": rules.turn_seconds,
        "seats": names,
        "phase": "waiting" if state.phase is Phase.WAITING else "playing",
        "competitive": table.options.competitive,
        "bots": table.options.bots,  # bot accounts may sit (docs/bots.md)
        "names": names,
        "levels": [seat.bot_level if seat.kind is SeatKind.BOT else None for seat in table.seats],
        "scores": list(game.scores) if game is not None else [0] * rules.team_count,
        **table.stakes.json(table),  # a staked table's stake and pot (table/stakes.py)
    }
