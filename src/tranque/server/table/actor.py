"""The table actor: the one owner of a table's state, connections, clocks and bots (docs/design.md).

Every command goes through one queue and runs to the end before the next, so there is never
a read-modify-write race. A command decides events (`commands`); `record` numbers each one
and folds it into the state with its own `apply` (the very fold a restart replays), settles
what the game makes happen by itself (`commands.follow_up`), then stores the command's events
in one append and only then sends each viewer its projection, serialised once per audience
(a store that refuses leaves the state rebuilt from the log, and nothing sent). Then it
re-arms its clocks and bots from the state.

A database out of reach is weather, not death: the table waits (`waiting`), its clocks and
bots stop, its followers are told (`paused`), every command is refused `unavailable`, and the
actor tries the log again with backoff; once it reads back, the table goes on from the log,
whoever was to act gets a full new turn, and its followers are told (`resumed`).

The commands and what a viewer is shown on joining (`views`) see the table only as a
`TableContext` (context.py), which `Table` implements: they never import this module.

Why some 650 lines: it is the one place a table's state changes, and its sections (the
queue, recording, ownership with several processes, the ratings it shows, seats and
connections, clocks and bots) share the actor's private state; what could leave without
that state has left (commands, views, context, the recorder of finished games).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from tranque.engine import Game, PlayerView, Rules
from tranque.server import logs, metrics
from tranque.server.addresses import seat_address_key
from tranque.server.fichas import ledger
from tranque.server.fichas.rules import BANK_CUT
from tranque.server.players.archive import finished_game, game_format
from tranque.server.players.ratings import bots_pool
from tranque.server.players.table_fichas import ficha_changes, game_movements, pot_number
from tranque.server.players.table_rating import rating_json
from tranque.server.stopping import stop_tasks
from tranque.server.store import RatingRow, StaleEpoch, StoredEvent, TableStore
from tranque.server.store.outage import is_outage
from tranque.server.table import commands, views
from tranque.server.table.bots import Bots, cover_level
from tranque.server.table.clock import Clock, Timer
from tranque.server.table.context import Subscriber
from tranque.server.table.events import (
    EndReason,
    GameEnded,
    GameStarted,
    PlaceSeen,
    RatingShown,
    SeatChanged,
    TableCreated,
    TableEvent,
    TurnStarted,
)
from tranque.server.table.fairness import DealSecret
from tranque.server.table.log import Broadcast, frame, from_stored, replay, to_stored
from tranque.server.table.muting import hides, hushed, hushed_sync, speaker
from tranque.server.table.seats import Seat, SeatKind, new_token, token_hash
from tranque.server.table.stakes import Stakes
from tranque.server.table.state import Phase, TableError, TableKind, TableOptions, TableState, Viewer

log = logging.getLogger(__name__)

# While the store is out of reach: the first retry after this long, each next one after twice
# as long, up to the most (docs/deploy.md: play goes on within seconds of the database's return).
RETRY_FIRST_SECONDS = 0.25
RETRY_MOST_SECONDS = 2.0
CHAT_LINES = 5  # chat lines a seat may send...
CHAT_SECONDS = 10.0  # ...in any this many seconds

__all__ = ["Command", "Peers", "Phase", "RemoteSocket", "Subscriber", "Table", "TableError", "TableOptions"]


class RemoteSocket:
    """A socket of another process following a table this process owns: counted among the
    table's followers (who is here, which seat it may act for) and sent nothing, since its
    own process sends it the table's events from its replica (cluster/node.py)."""

    muted: frozenset[int] = frozenset()

    def __init__(self, node: str, ref: str) -> None:
        self.node, self.ref = node, ref

    def send(self, message: dict[str, Any]) -> None:
        pass

    def send_text(self, text: str) -> None:
        pass

    def __repr__(self) -> str:
        return f"RemoteSocket({self.node!r}, {self.ref!r})"


class Command(Protocol):
    async def run(self, table: Table) -> Any: ...


class Peers(Protocol):
    """The other processes of a cluster (cluster/node.py), as a table sees them: an owner fans its
    events out to them, a replica forwards its commands to the owner, and an owner whose
    write the store refused (another process has taken the table over) tells them."""

    def published(self, table: Table, sent: list[Broadcast]) -> None: ...

    async def forward(self, table: Table, command: Command) -> Any: ...

    def lost(self, table: Table, refused: bool) -> None: ...


def _fresh_secret(number: int) -> DealSecret:
    return DealSecret.fresh()


class Table:
    def __init__(
        self,
        table_id: str,
        rules: Rules,
        options: TableOptions,
        store: TableStore,
        clock: Clock,
        bots: Bots,
        on_change: Callable[[Table], None] | None = None,
    ) -> None:
        self.table_id = table_id
        self.rules = rules
        self.options = options
        self.store = store
        self.clock = clock
        self.bots = bots
        self.on_change = on_change
        self.state = TableState(rules)
        self.deal_secret: Callable[[int], DealSecret] = _fresh_secret  # tests fix the deals here
        # Shared deals (`TableOptions.deals`): whether their seeds may be shown yet (the
        # registry's `deals_revealed`); until it says so, no frame carries a seed or a salt.
        self.seeds_revealed: Callable[[], Awaitable[bool]] | None = None
        self.hide_seeds = options.deals is not None
        self.bank_cut = BANK_CUT  # the bank's share of a pot of fichas (the registry's setting)
        self.subscribers: dict[Subscriber, Viewer] = {}
        self.retired = False
        # The store failed and its log could not be read back yet: commands are refused
        # `unavailable` and `_retry` tries again (see "Outages" below).
        self.waiting = False
        self._retry_seconds = RETRY_FIRST_SECONDS
        self._followed_seq = 0  # when waiting: the last event the followers were sent
        # With several processes (cluster/node.py) only one owns a table: it decides, stores and
        # fans out; the others keep a replica fed by its events, whose commands go to it.
        self.owned = True
        self.epoch: int | None = None  # the owner's epoch its writes carry (None: not fenced)
        self.peers: Peers | None = None
        self._queue: asyncio.Queue[tuple[Command, asyncio.Future[Any] | None, bool]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._running = False
        self._recording = False
        # A command's events, applied and numbered but not stored yet: they are stored in one
        # append when the command is done (or before any other write), and sent once the
        # command's writes are all done.
        self._unstored: list[Broadcast] = []
        self._unsent: list[Broadcast] = []  # stored, to be sent when the command is done
        self._thinking: set[asyncio.Task[None]] = set()
        self._last_phrase: dict[int, float] = {}
        self._chat_times: dict[int, deque[float]] = {}  # seat → when its last chat lines came
        self._clocks = _Clocks()
        # seat → the token of an account's seat, as issued (only its hash is in the log): so
        # GET /api/me/seats can give it back. The actor's memory, not state: after a restart
        # the account is given a new one (commands.AccountSeat).
        self.account_tokens: dict[int, str] = {}
        # The stakes of fichas at a staked table (stakes.py): its service (the registry's) and
        # the pot as last read.
        self.stakes = Stakes()
        # user id → the account's rating in this table's pool as last read from the store
        # (None: it has none yet), for what a competitive table shows (players/table_rating.py).
        self.pool = bots_pool(game_format(rules)) if options.bots else game_format(rules)
        # At a table that accepts bots: its bot accounts, each with its owner's account, as
        # read from the store (an account never changes kind or owner); None at a table for people.
        self.bot_accounts: dict[int, int] | None = {} if options.bots else None
        self._people: set[int] = set()  # ...and which are people's
        self.known_ratings: dict[int, RatingRow | None] = {}
        self._rating_stale = True  # seats or ratings changed since the last `rating` shown

    @property
    def seats(self) -> list[Seat]:
        return self.state.seats

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def sent_seq(self) -> int:
        """The last event the table's followers have been sent: what an ack's `seq` says. A
        command's events are applied as they are decided (the next one is decided on the state
        they make) and sent once stored, and a socket's handler may read the table in between."""
        return self.seq - len(self._unstored) - len(self._unsent)

    @property
    def game(self) -> Game:
        return self.state.playing_game()

    @property
    def humans(self) -> list[Seat]:
        return self.state.humans

    # The actor's loop ------------------------------------------------------------------

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        metrics.table_phase(self.table_id, None)
        self._clocks.cancel_all()
        # (A command may lose its cancellation: `stop_tasks` cancels again until they end.)
        errors = await stop_tasks(task for task in [self._task, *self._thinking] if task is not None)
        if errors:
            raise errors[0]

    async def call(self, command: Command) -> Any:
        """Run `command` on the table and return its answer, or raise its `TableError`; a
        replica has the owner run it."""
        if self.peers is not None:
            return await self.peers.forward(self, command)
        return await self.call_here(command)

    async def call_here(self, command: Command, *, local: bool = False) -> Any:
        """Run `command` in this process's actor: `local` ones (a replica's own steps: the
        owner's events, its sockets) whether it owns the table or not."""
        if self.retired or self._task is None or self._task.done():
            raise TableError("no_such_table")
        if self.waiting and not local:
            raise TableError("unavailable")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, future, local))
        return await future

    def post(self, command: Command, *, local: bool = False) -> None:
        """Queue `command` without waiting for it (timers, bots, a replica's own steps)."""
        if not self.retired:
            self._queue.put_nowait((command, None, local))

    def retire(self) -> None:
        """The game is over and nobody watches: the actor ends after what is already queued."""
        self.retired = True

    async def until_idle(self) -> None:
        """Return once nothing is queued or running and no bot is thinking (tests, shutdown)."""
        while self._running or not self._queue.empty() or self._thinking:
            await asyncio.sleep(0)

    async def _run(self) -> None:
        logs.bind_table(self.table_id)  # this task's log lines are about this table
        while not (self.retired and self._queue.empty()):
            command, future, local = await self._queue.get()
            self._running = True
            try:
                if self.waiting and not local:
                    raise TableError("unavailable")  # queued before the store failed
                if local or self.owned:
                    answer = await command.run(self)
                elif future is None or self.peers is None:
                    continue  # a timer or a bot of the time this process owned the table
                else:  # queued before the table was taken over: its new owner decides it
                    answer = await self.peers.forward(self, command)
            except TableError as error:
                if future is not None and not future.done():
                    future.set_exception(error)
            except Exception:
                log.exception("table %s: %r failed", self.table_id, command)
                if future is not None and not future.done():
                    future.set_exception(TableError("internal"))
            else:
                if future is not None and not future.done():
                    future.set_result(answer)
            finally:
                self._running = False

    # Events ----------------------------------------------------------------------------

    async def record(self, *events: TableEvent) -> None:
        """Apply `events` and what they make happen by themselves, then store them all and
        send them: one wait for the store per command, one write per socket."""
        try:
            for event in events:
                await self._commit_after_rating(event)
            while (consequence := commands.follow_up(self)) is not None:
                await self._commit_after_rating(consequence)
            await self._show_rating()
            await self._store()
        except BaseException as error:
            followed = self.seq - len(self._unstored)  # all but these are stored (and sent below)
            if is_outage(error):
                self._unstored = []
                self._wait_for_store(followed, error)
                raise TableError("unavailable") from error
            if self._unstored:  # not stored: they never happened (and nobody was told of them)
                # After a stale epoch the log goes on with the new owner's events, which this
                # process's sockets must be sent too (give_up's catch-up): only ours are folded.
                stored_up_to = followed if isinstance(error, StaleEpoch) else None
                self._unstored = []
                await self._rebuild(stored_up_to, followed)
            if isinstance(error, StaleEpoch):
                self._send()
                self.give_up(refused=True)
                raise TableError("table_moved") from error
            raise
        finally:
            self._send()  # what was stored, even if a later write failed
        self._arm()
        metrics.table_phase(self.table_id, self.state.phase.value if self.owned else None)
        if self.on_change is not None:
            self.on_change(self)

    async def record_creation(self) -> None:
        """The first events of a new table: its creation and every (empty) seat."""
        options = self.options
        created = TableCreated(self.rules.to_json(), options.kind, options.bot_level)
        await self.record(created, *[SeatChanged(seat) for seat in self.seats])

    async def _commit_after_rating(self, event: TableEvent) -> None:
        """Commit `event`; a game's start on a competitive table comes after what the table
        shows of its ratings, so the players read the chances (or why the game will not
        count) before the first tile, even when the last seat taken starts the game."""
        if isinstance(event, GameStarted):
            await self._show_rating()
        await self._commit(event)

    async def _commit(self, event: TableEvent) -> None:
        # Only the table's actor (or whoever sets up a table nobody knows yet) may change it;
        # two changes at once would number two events alike.
        assert not self._recording, f"table {self.table_id} changed outside its actor"
        self._recording = True
        try:
            seq, at, status = self.seq + 1, self.clock.now(), self.state.phase.status
            ended = isinstance(event, GameEnded) and self.state.game is not None
            record = views.game_record(self) if ended else {}
            if isinstance(event, GameEnded) and ended and event.reason is EndReason.TARGET:
                # An annulled game counts for nothing; a game won shows what it changes.
                event = replace(event, rating_changes=await self._rating_changes(record, at))
            if isinstance(event, GameEnded):
                event = replace(event, ficha_changes=await self._ficha_changes(event, at))
            self.state.apply(event, seq)
            self._unstored.append(Broadcast(seq, at, event))
            if self.state.phase.status is not status or ended:  # the log first, then what it says
                await self._store()
            if self.state.phase.status is not status:
                await self.store.set_table_status(self.table_id, self.state.phase.status, epoch=self.epoch)
            if ended:
                await self.store.save_record(self.table_id, record)
        finally:
            self._recording = False
        if isinstance(event, SeatChanged | PlaceSeen | GameStarted | GameEnded):
            self._rating_stale = True
        if isinstance(event, GameEnded):
            self.known_ratings.clear()  # the recorder changes them (players/recorder.py)
        if isinstance(event, SeatChanged) and event.seat.kind is SeatKind.EMPTY:
            self.account_tokens.pop(event.seat.index, None)

    async def _store(self) -> None:
        """Store the events applied since the last call, in one append, to be sent when the
        command is done. If the store refuses, `record` rebuilds the state from the log."""
        unstored = self._unstored
        if not unstored:
            return
        stored = [to_stored(broadcast.event, broadcast.seq, broadcast.at) for broadcast in unstored]
        for broadcast, row in zip(unstored, stored, strict=True):
            broadcast.stored = row  # what the cluster fans out (cluster.published)
        with metrics.timed(metrics.APPEND_SECONDS):
            await self.store.append_events(self.table_id, stored, epoch=self.epoch)
        self._unstored = []
        self._unsent.extend(unstored)

    def _send(self) -> None:
        """Send each viewer what was stored and not sent yet, in order."""
        unsent, self._unsent = self._unsent, []
        for broadcast in unsent:
            event = broadcast.event
            if isinstance(event, SeatChanged) and event.seat.kind is SeatKind.EMPTY:
                self._demote(event.seat.index)
            self._publish(broadcast)
        if unsent and self.owned and self.peers is not None:
            self.peers.published(self, unsent)

    async def _rebuild(self, upto: int | None, followed: int) -> None:
        """The state as the log has it (up to `upto`, if given), after a store refused events
        already applied; if the log cannot be read now, the table waits for it."""
        try:
            logged = await self.store.load_events(self.table_id)
        except Exception as error:
            self._wait_for_store(followed, error)
            return
        self.state = TableState(self.rules)
        replay(self.state, logged if upto is None else [event for event in logged if event.seq <= upto])

    # Outages: the store out of reach -------------------------------------------------------

    def _wait_for_store(self, followed: int, error: BaseException) -> None:
        """The store failed: stop the clocks and bots, tell the followers, refuse commands and
        try the log again soon. `followed`: the last event the followers have or are sent."""
        if self.waiting:
            return
        log.warning("table %s: the store is out of reach (%s); the table waits for it", self.table_id, error)
        self.waiting, self._followed_seq = True, followed
        self._retry_seconds = RETRY_FIRST_SECONDS
        self._clocks.cancel_all()
        for task in self._thinking:
            task.cancel()
        self._tell_followers({"type": "paused", "table": self.table_id, **TableError("unavailable").body()})
        self._retry_later()

    def _retry_later(self) -> None:
        when = self.clock.now() + self._retry_seconds
        self._retry_seconds = min(2 * self._retry_seconds, RETRY_MOST_SECONDS)
        self._clocks.retry = self.clock.call_at(when, lambda: self.post(_Retry(), local=True))

    async def retry_store(self) -> None:
        """Read the log back: the state as it says, the events it holds that the followers
        were never sent sent now, and (as the owner) whoever is to act given a full new turn
        (`commands.Resume`). Still out of reach: try again later."""
        if not self.waiting:
            return
        try:
            logged = await self.store.load_events(self.table_id)
        except Exception as error:
            log.debug("table %s: the store is still out of reach (%s)", self.table_id, error)
            self._retry_later()
            return
        self._reload(logged)
        log.warning("table %s: the store is back; the table goes on", self.table_id)
        self._tell_followers({"type": "resumed", "table": self.table_id})
        if not self.owned:
            return
        try:
            await commands.Resume(keep_present=True).run(self)  # stores the table's status too
            if self.state.phase.is_over and self.state.game is not None:
                await self.store.save_record(self.table_id, views.game_record(self))
        except TableError:
            pass  # out of reach again: waiting once more
        except Exception as error:
            if not is_outage(error):
                raise
            self._wait_for_store(self.seq, error)

    def _reload(self, logged: list[StoredEvent]) -> None:
        """Leave waiting: the state as the log has it, up to what the followers were sent,
        then the rest of the log folded in and sent to them."""
        followed = self._followed_seq
        self.state = TableState(self.rules)
        replay(self.state, [event for event in logged if event.seq <= followed])
        self.waiting = False
        self.follow_owner([event for event in logged if event.seq > followed])

    def _tell_followers(self, message: dict[str, Any]) -> None:
        for subscriber in self.subscribers:
            subscriber.send(message)

    # Ownership, with several processes (cluster/node.py) -------------------------------------

    def follow_owner(self, stored: list[StoredEvent]) -> None:
        """A replica's step: fold in the owner's events that come next (older ones were
        folded in already), and send them to this process's sockets."""
        for event in stored:
            if event.seq == self.seq + 1:
                decoded = from_stored(event)
                self.state.apply(decoded, event.seq)
                self._unsent.append(Broadcast(event.seq, event.at, decoded))
        self._send()
        if self.on_change is not None:
            self.on_change(self)

    async def take_over(self, epoch: int) -> None:
        """This process owns the table from now on, at `epoch` (its writes carry it): the
        replica brought up to the log, only this process's sockets counted as here, and whoever was
        to act given a full new turn (commands.Resume); then its clocks and bots run here."""
        # What the former owner stored and never sent: this process's sockets get it too.
        if self.waiting:  # and what this process applied while the store was out of reach, not
            self._reload(await self.store.load_events(self.table_id))
        else:
            self.follow_owner(await self.store.load_events(self.table_id, self.seq))
        for subscriber in [sub for sub in self.subscribers if isinstance(sub, RemoteSocket)]:
            del self.subscribers[subscriber]
        self.owned, self.epoch = True, epoch
        await commands.Resume(keep_present=True).run(self)

    def give_up(self, refused: bool = False) -> None:
        """Another process owns the table now: this one stops its clocks and bots, forgets
        the other processes' sockets and keeps a replica of the table for its own."""
        if not self.owned:
            return
        self._stop_owning()
        if self.peers is not None:
            self.peers.lost(self, refused)

    def hand_over(self) -> None:
        """This process lets another own the table (cluster/balance.py): as `give_up`, in a
        step of the actor's own, between two commands; the cluster gives the lease back."""
        if self.owned:
            self._stop_owning()

    def _stop_owning(self) -> None:
        self.owned, self.epoch = False, None
        metrics.table_phase(self.table_id, None)
        self._clocks.cancel_all()
        if self.waiting:  # the replica is read back from the log all the same
            self._retry_later()
        for task in self._thinking:
            task.cancel()
        for subscriber in [sub for sub in self.subscribers if isinstance(sub, RemoteSocket)]:
            del self.subscribers[subscriber]

    @property
    def queued(self) -> int:
        """Commands waiting in the actor's queue (not counting the one running)."""
        return self._queue.qsize()

    # Ratings ---------------------------------------------------------------------------

    def _accounts(self) -> list[int]:
        return sorted({seat.user_id for seat in self.seats if seat.is_human and seat.user_id is not None})

    async def _learn_accounts(self) -> None:
        """At a table that accepts bots: read which of its accounts are bots' (once each)."""
        if self.bot_accounts is None:
            return
        for user_id in self._accounts():
            if user_id not in self.bot_accounts and user_id not in self._people:
                user = await self.store.user_by_id(user_id)
                if user is not None and user.bot_owner is not None:
                    self.bot_accounts[user_id] = user.bot_owner
                else:
                    self._people.add(user_id)

    async def _current_ratings(self) -> dict[int, RatingRow]:
        """The accounts' ratings in the table's pool, read now (another table may have
        changed them since they sat down)."""
        await self._learn_accounts()
        accounts = self._accounts()
        found = await self.store.ratings_of(accounts, self.pool)
        self.known_ratings.update({user_id: found.get(user_id) for user_id in accounts})
        return found

    async def _rating_changes(self, record: dict[str, Any], at: float) -> tuple[dict[str, int], ...]:
        """What the `game_ended` of a game won shows of the ratings it changes: worked out as
        the recorder will (players/recorder.py), from the players' ratings stored now (another
        table may have changed them since they sat down). The table keeps none of it: the
        recorder does, after the game's end is stored. If working it out fails, the game
        still ends, showing no changes."""
        try:
            known = await self._current_ratings()
            shown = finished_game(
                self.table_id, self.state, self.options, record, at, known, self.bot_accounts
            )
        except Exception:
            log.exception(
                "table %s: the rating changes of its game's end cannot be worked out", self.table_id
            )
            return ()
        return tuple(shown.rating_changes)

    async def _ficha_changes(self, event: GameEnded, at: float) -> tuple[dict[str, Any], ...]:
        """What the `game_ended` shows of the game's pot of fichas, worked out as the recorder
        will write it (players/recorder.py) from the stakes in the pot now; none for a game with
        no pot. If working it out fails, the game still ends, showing none."""
        try:
            ref = ledger.game_ref(self.table_id, pot_number(self.state))
            stakes = ledger.stakes_in(await self.store.ficha_movements_of(ref))
            if not stakes:
                return ()
            movements = game_movements(
                self.table_id,
                self.state,
                self.options,
                stakes,
                self.bank_cut,
                annulled=event.reason is not EndReason.TARGET,
                at=at,
                bot_accounts=self.bot_accounts,
            )
        except Exception:
            log.exception("table %s: the fichas of its game's end cannot be worked out", self.table_id)
            return ()
        return tuple(ficha_changes(movements, stakes, self.seats))

    async def ratings_recorded(self) -> None:
        """The recorder has recorded a game of this table: the ratings it shows are read again
        (shown before the next game starts, never after `game_ended`)."""
        self.known_ratings.clear()
        self._rating_stale = True
        await self.record()

    def rating_json(self) -> dict[str, Any]:
        """The table's `rating` as last shown (a competitive table), or as it is (any other)."""
        shown = self.state.rating
        if shown is not None:
            return shown
        return rating_json(
            self.rules, self.options.competitive, self.seats, self.known_ratings, self.bot_accounts
        )

    async def _show_rating(self) -> None:
        """A `rating` event when what a competitive table shows of its ratings has changed
        (never after `game_ended`: a rematch shows the new ratings)."""
        if not (self._rating_stale and self.options.competitive) or self.state.phase.is_over:
            return
        self._rating_stale = False
        await self._learn_accounts()
        unknown = [user_id for user_id in self._accounts() if user_id not in self.known_ratings]
        if unknown:
            found = await self.store.ratings_of(unknown, self.pool)
            self.known_ratings.update({user_id: found.get(user_id) for user_id in unknown})
        shown = rating_json(self.rules, True, self.seats, self.known_ratings, self.bot_accounts)
        if shown != self.state.rating:
            await self._commit(RatingShown.from_data(shown))

    def _publish(self, broadcast: Broadcast) -> None:
        said_by = speaker(broadcast.event, self.seats)
        hide_seeds = self.hide_seeds
        for subscriber, viewer in list(self.subscribers.items()):
            if hides(subscriber, said_by):
                shown = frame(broadcast.seq, broadcast.at, broadcast.event, viewer, hide_seeds)
                subscriber.send(hushed(shown))
            else:
                subscriber.send_text(broadcast.text_for(viewer, hide_seeds))
        event, turn = broadcast.event, self.state.turn
        if isinstance(event, TurnStarted) and turn is not None and turn.turn_id == event.turn_id:
            views.send_options(self, event.seat)  # not for a turn already over

    def _demote(self, seat: int) -> None:
        """Sockets that followed a seat now empty keep only a spectator's view of the table."""
        for subscriber, viewer in self.subscribers.items():
            if viewer == seat:
                self.subscribers[subscriber] = None

    # Seats, for whoever sets up a table nobody knows yet ----------------------------------

    async def take_seat(self, seat: Seat, name: str, user_id: int | None, address: str | None = None) -> str:
        token = new_token()
        key = seat_address_key(self.table_id, address)
        seated = self.seats[seat.index].seat_human(name, user_id, token_hash(token), key)
        await self.record(SeatChanged(seated))
        if user_id is not None:
            self.account_tokens[seat.index] = token
        return token

    async def give_to_bot(self, seat: Seat, level: str, name: str | None = None) -> None:
        """A bot of `level` takes `seat`, named `name` (a tournament's bot) or by the table."""
        await self.record(
            SeatChanged(commands.bot_seated(self.table_id, list(self.seats), seat.index, level, name))
        )

    async def start_game(self) -> None:
        """Deal the first round, through the table's actor: sockets may already follow it."""
        await self.call(commands.StartGame())

    # Connections -------------------------------------------------------------------------

    def follows(self, subscriber: Subscriber) -> bool:
        return subscriber in self.subscribers

    def connections(self, seat: int) -> int:
        return sum(1 for viewer in self.subscribers.values() if viewer == seat)

    async def follow(self, subscriber: Subscriber, viewer: Viewer, last_seq: int | None) -> None:
        """`subscriber` follows the table as `viewer`, after catching up: the events after
        `last_seq` if the table has reached it, else a full `sync`; either way then the
        seat's `options` if it is to act."""
        self.subscribers[subscriber] = viewer
        if self.seeds_revealed is not None and self.hide_seeds:
            self.hide_seeds = not await self.seeds_revealed()
        if isinstance(subscriber, RemoteSocket):
            pass  # its own process catches it up
        elif last_seq is None or not 0 <= last_seq <= self.seq:
            subscriber.send(hushed_sync(self.snapshot(viewer), subscriber, self.seats))
        else:
            upto = self.seq  # a replica's log may be ahead of it: the rest comes from the owner
            for stored in await self.store.load_events(self.table_id, last_seq):
                if stored.seq > upto:
                    break
                event = from_stored(stored)
                sent = frame(stored.seq, stored.at, event, viewer, self.hide_seeds)
                subscriber.send(hushed(sent) if hides(subscriber, speaker(event, self.seats)) else sent)
        options = views.options_for(self, viewer)
        if options is not None:
            subscriber.send(options)
        self._arm()

    def unfollow(self, subscriber: Subscriber) -> Viewer:
        viewer = self.subscribers.pop(subscriber)
        self._arm()
        return viewer

    def may_speak(self, seat: int, interval: float) -> bool:
        """At most one phrase every `interval` seconds per seat (a throttle, not table state)."""
        now = self.clock.now()
        if now - self._last_phrase.get(seat, now - interval) < interval:
            return False
        self._last_phrase[seat] = now
        return True

    def may_chat(self, seat: int) -> bool:
        """At most `CHAT_LINES` chat lines in any `CHAT_SECONDS` per seat, as `may_speak` a
        throttle and not table state (the socket's own rate, ws/limits.py, counts besides)."""
        now = self.clock.now()
        times = self._chat_times.setdefault(seat, deque(maxlen=CHAT_LINES))
        if len(times) == CHAT_LINES and now - times[0] < CHAT_SECONDS:
            return False
        times.append(now)
        return True

    def snapshot(self, viewer: Viewer) -> dict[str, Any]:
        """The `sync` a viewer is sent on (re)joining (views.py), with the ratings shown."""
        return views.snapshot(self, viewer, self.rating_json())

    # Clocks and bots, re-armed from the state after every command ----------------------------

    def _arm(self) -> None:
        if not self.owned:
            return  # the owner's clocks and bots run in the owner's process
        state, clocks = self.state, self._clocks
        turn = state.turn if state.phase is Phase.PLAYING else None
        if clocks.rearm_turn(None if turn is None else turn.turn_id) and turn is not None:
            turn_id = turn.turn_id
            timeout = self.clock.call_at(turn.deadline, lambda: self.post(commands.Timeout(turn_id)))
            clocks.turn.append(timeout)
            seat = state.seats[turn.seat]
            if seat.played_by_bot:
                self._think(seat, turn_id)
            elif turn.auto:
                when = self.clock.now() + self.options.auto_move_seconds
                clocks.turn.append(self.clock.call_at(when, lambda: self.post(commands.AutoMove(turn_id))))
        game = state.game
        pause = state.phase is Phase.BETWEEN_ROUNDS and game is not None and not game.is_over
        number = game.round_number if pause and game is not None else None
        if clocks.rearm_round(number) and number is not None:
            when = self.clock.now() + self.options.between_rounds_seconds
            clocks.between = self.clock.call_at(when, lambda: self.post(commands.NextRound(number)))
        self._arm_game_clocks()
        wait = self._desertion_wait()
        if clocks.rearm_desertion(wait) and wait is not None:
            generation = clocks.generation
            clocks.desertion = self.clock.call_at(
                self.clock.now() + wait, lambda: self.post(commands.Deserted(generation))
            )
        if state.phase.is_over:
            for task in self._thinking:
                task.cancel()

    def _arm_game_clocks(self) -> None:
        """The time cap and the grace for the absent, counted from the game's start (both
        `TableOptions`); each armed once per game (a restart arms them again: a past instant
        fires at once, and both commands do nothing twice)."""
        state, options, clocks = self.state, self.options, self._clocks
        game, started, number = state.game, state.started_at, state.game_number
        cap, grace = options.game_cap_seconds, options.absent_grace_seconds
        cap_at = grace_at = None
        if state.phase.in_game and started is not None and game is not None and not game.is_over:
            if cap is not None and game.time_called is None:
                cap_at = (number, started + cap)
            if grace is not None:
                grace_at = (number, started + grace)
        if clocks.rearm("cap", cap_at) and cap_at is not None:
            clocks.game["cap"] = self.clock.call_at(cap_at[1], lambda: self.post(commands.CallTime(number)))
        if clocks.rearm("grace", grace_at) and grace_at is not None:
            clocks.game["grace"] = self.clock.call_at(
                grace_at[1], lambda: self.post(commands.CoverAbsent(number))
            )

    def _desertion_wait(self) -> float | None:
        """How long the table may stay as it is before it ends by itself, if it would (a
        tournament's table never does: the tournament waits for its game)."""
        phase, options = self.state.phase, self.options
        if options.kind is TableKind.TOURNAMENT:
            return None
        if phase is Phase.WAITING and not self.subscribers:
            return options.idle_waiting_seconds
        followed = {viewer for viewer in self.subscribers.values() if viewer is not None}
        if phase.in_game and options.kind.ends_when_deserted and not followed:
            return options.deserted_game_seconds
        return None

    def deserted(self, generation: int) -> bool:
        """Whether the desertion timer of `generation` is the current one, and still applies."""
        return generation == self._clocks.generation and self._desertion_wait() is not None

    def _think(self, seat: Seat, turn_id: int) -> None:
        view = self.game.view(seat.index)
        level = seat.bot_level or cover_level(self.options.bot_level, self.options.competitive)
        task = asyncio.get_running_loop().create_task(self._bot_move(level, view, turn_id))
        self._thinking.add(task)
        task.add_done_callback(self._thinking.discard)

    async def _bot_move(self, level: str, view: PlayerView, turn_id: int) -> None:
        started = self.clock.now()
        action = await self.bots.choose(level, view)
        due = started + self.options.bot_min_seconds
        if due <= self.clock.now():
            self.post(commands.BotMove(turn_id, action))
        else:  # a bot that answers at once still seems to think a moment
            move = commands.BotMove(turn_id, action)
            self._clocks.turn.append(self.clock.call_at(due, lambda: self.post(move)))


class _Clocks:
    """The timers a table has armed, each for the turn, round or wait it was armed for."""

    def __init__(self) -> None:
        self.turn: list[Timer] = []
        self.turn_id: int | None = None
        self.between: Timer | None = None
        self.round: int | None = None
        self.desertion: Timer | None = None
        self.wait: float | None = None
        self.retry: Timer | None = None  # the next look at a store out of reach
        self.generation = 0
        # A game's own clocks ("cap", "grace"), each with the (game, instant) it was armed for.
        self.game: dict[str, Timer] = {}
        self.game_keys: dict[str, tuple[int, float] | None] = {}

    def rearm(self, name: str, key: tuple[int, float] | None) -> bool:
        """Cancel the game clock `name` if `key` is another (game, instant); whether to arm anew."""
        if self.game_keys.get(name) == key:
            return False
        timer = self.game.pop(name, None)
        if timer is not None:
            timer.cancel()
        self.game_keys[name] = key
        return True

    def rearm_turn(self, turn_id: int | None) -> bool:
        """Cancel the turn's timers if `turn_id` is another turn; whether to arm anew."""
        if turn_id == self.turn_id:
            return False
        for timer in self.turn:
            timer.cancel()
        self.turn, self.turn_id = [], turn_id
        return True

    def rearm_round(self, number: int | None) -> bool:
        if number == self.round:
            return False
        if self.between is not None:
            self.between.cancel()
        self.between, self.round = None, number
        return True

    def rearm_desertion(self, wait: float | None) -> bool:
        if wait == self.wait:
            return False
        if self.desertion is not None:
            self.desertion.cancel()
        self.desertion, self.wait = None, wait
        self.generation += 1
        return True

    def cancel_all(self) -> None:
        self.rearm_turn(None)
        self.rearm_round(None)
        self.rearm_desertion(None)
        for name in list(self.game_keys):
            self.rearm(name, None)
        if self.retry is not None:
            self.retry.cancel()
            self.retry = None


class _Retry:
    """The actor's next look at a store out of reach (`Table.retry_store`)."""

    async def run(self, table: Table) -> None:
        await table.retry_store()
