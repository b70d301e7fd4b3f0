"""`TableContext`: what a command, and what a viewer is shown, may use of a table.

The actor (`actor.Table`) implements it and runs the commands (`commands.py`) and the views
(`views.py`) on itself; they import only this protocol, never the actor, so the actor can
import them. Everything here is read-only to them but `record`, which is how a command
changes the table: the events it decides, stored, folded in and sent by the actor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tranque.server.store import TableStore
from tranque.server.table.bots import Bots
from tranque.server.table.clock import Clock
from tranque.server.table.events import TableEvent
from tranque.server.table.fairness import DealSecret
from tranque.server.table.stakes import Stakes
from tranque.server.table.state import TableOptions, TableState, Viewer


class Subscriber(Protocol):
    """A connection following a table; it queues without waiting, and drops itself if it
    cannot keep up."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_text(self, text: str) -> None: ...


class TableContext(Protocol):
    """A table as its commands and views see it (docs/design.md, «The table actor»)."""

    # What the table is, and its state -------------------------------------------------------

    @property
    def table_id(self) -> str: ...

    @property
    def options(self) -> TableOptions: ...

    @property
    def state(self) -> TableState: ...

    @property
    def seq(self) -> int:
        """The last event folded into `state`."""
        ...

    # What a command works with ----------------------------------------------------------------

    @property
    def clock(self) -> Clock: ...

    @property
    def store(self) -> TableStore: ...

    @property
    def bots(self) -> Bots: ...

    @property
    def deal_secret(self) -> Callable[[int], DealSecret]:
        """The secret of a round's deal, by the round's number."""
        ...

    @property
    def owned(self) -> bool:
        """Whether this process owns the table (with several, only the owner decides)."""
        ...

    @property
    def epoch(self) -> int | None:
        """The owner's epoch its writes carry (None: not fenced)."""
        ...

    @property
    def account_tokens(self) -> dict[int, str]:
        """Seat → the token of an account's seat as issued (the actor's memory, not state)."""
        ...

    @property
    def stakes(self) -> Stakes:
        """The table's stakes of fichas (stakes.py; the actor's memory, not state)."""
        ...

    async def record(self, *events: TableEvent) -> None:
        """Fold `events` in with what they make happen by themselves, store and send them."""
        ...

    async def ratings_recorded(self) -> None:
        """The recorder has kept one of the table's games: read the ratings it shows again."""
        ...

    def may_speak(self, seat: int, interval: float) -> bool:
        """At most one phrase every `interval` seconds per seat."""
        ...

    def may_chat(self, seat: int) -> bool:
        """A chat line's share of the seat's rate (a few at once, then one every few seconds)."""
        ...

    def deserted(self, generation: int) -> bool:
        """Whether the desertion timer of `generation` is the current one, and still applies."""
        ...

    # Who follows the table ----------------------------------------------------------------------

    @property
    def subscribers(self) -> Mapping[Subscriber, Viewer]: ...

    def follows(self, subscriber: Subscriber) -> bool: ...

    def connections(self, seat: int) -> int:
        """How many connections follow `seat`."""
        ...

    async def follow(self, subscriber: Subscriber, viewer: Viewer, last_seq: int | None) -> None:
        """`subscriber` follows the table as `viewer`, after catching up."""
        ...

    def unfollow(self, subscriber: Subscriber) -> Viewer: ...
