"""A staked table's side of the fichas (server/fichas/): who has put the stake in the pot.

At a table with `TableOptions.stake` (competitive only), a person's stake moves from their
account to the pot of the game to come when they sit (`take`: before the seat is taken, so a
refusal changes nothing; given back if taking the seat then fails), and back when they leave
before it starts (`give_back`). A rematch is a new game with a new pot: the vote that completes
it stakes every person at the table for it (`take_all`: all of them or none), and each vote is
refused beforehand to a person whose balance does not cover it (`check`). Bots never stake.

The pot's figure is the actor's memory, as read from the store after each stake and on every
`hello` (a restart reads it again: the pot itself is in the store); each change is sent to the
table's followers as a `pot` frame (docs/protocol.md). The game's end empties the pot in the
transaction that records it (players/recorder.py) and shows it in `game_ended.ficha_changes`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any, Protocol

from tranque.server.refusals import Refusal
from tranque.server.store.fichas import FichasShort
from tranque.server.table.state import TableError, TableOptions, TableState


class FichasService(Protocol):
    """What a table uses of the fichas (fichas/service.py `Fichas`)."""

    @property
    def enabled(self) -> bool: ...

    async def stake(self, user_id: int, table_id: str, game_number: int, seat: int, amount: int) -> None: ...

    async def unstake(self, user_id: int, table_id: str, game_number: int, seat: int) -> int: ...

    async def pot(self, table_id: str, game_number: int) -> int: ...

    async def balance(self, user_id: int) -> int: ...


class Follower(Protocol):
    def send(self, message: dict[str, Any]) -> None: ...


class StakedTable(Protocol):
    """What the stakes read of a table (the actor's `TableContext` is one)."""

    @property
    def table_id(self) -> str: ...

    @property
    def options(self) -> TableOptions: ...

    @property
    def state(self) -> TableState: ...

    @property
    def subscribers(self) -> Iterable[Follower]: ...


def next_game(state: TableState) -> int:
    """The number of the game a stake made now is for: the one being played, or the next."""
    return state.game_number if state.phase.in_game else state.game_number + 1


def _refused(error: Refusal) -> TableError:
    """A fichas refusal as the table's (its code, texts and figures kept)."""
    return TableError(error.key, **error.params)


class Stakes:
    """A table's stakes: the fichas service it uses (None: fichas not wired, as in most unit
    tests) and the pot as last read."""

    def __init__(self, service: FichasService | None = None) -> None:
        self.service = service
        self.pot = 0

    def on(self, table: StakedTable) -> bool:
        """Whether sitting at `table` takes a stake."""
        service = self.service
        return bool(table.options.stake) and service is not None and service.enabled

    def _service(self) -> FichasService:
        assert self.service is not None
        return self.service

    async def take(self, table: StakedTable, user_id: int, seat: int) -> None:
        """`user_id`'s stake into the pot of the game to come, as it sits at `seat`; a
        `TableError` (`fichas_not_enough`, with both figures) and nothing moved if not covered."""
        if not self.on(table):
            return
        number = next_game(table.state)
        try:
            await self._service().stake(user_id, table.table_id, number, seat, table.options.stake)
        except Refusal as error:
            raise _refused(error) from None

    async def give_back(self, table: StakedTable, user_id: int, seat: int, number: int | None = None) -> None:
        """`user_id`'s stake back from the pot (they left `seat` before the game started, or
        taking it failed). Nothing if there is none; never fails the command it ends."""
        if not self.on(table):
            return
        game = next_game(table.state) if number is None else number
        # (Short: the pot was emptied already, an annulled table's end gave the stake back.)
        with contextlib.suppress(Refusal, FichasShort):
            await self._service().unstake(user_id, table.table_id, game, seat)

    async def check(self, table: StakedTable, user_id: int) -> None:
        """`fichas_not_enough` if `user_id`'s balance does not cover the stake (a rematch vote)."""
        if not self.on(table):
            return
        have = await self._service().balance(user_id)
        if have < table.options.stake:
            raise TableError("fichas_not_enough", need=table.options.stake, have=have)

    async def take_all(self, table: StakedTable) -> None:
        """Every person's stake into the next game's pot (a rematch), or, if one is short, none
        (those taken are given back) and that person's `fichas_not_enough`."""
        if not self.on(table):
            return
        state, number = table.state, table.state.game_number + 1
        taken: list[tuple[int, int]] = []
        for seat in state.humans:
            if seat.user_id is None:
                continue
            try:
                await self._service().stake(
                    seat.user_id, table.table_id, number, seat.index, table.options.stake
                )
            except Refusal as error:
                for user_id, index in taken:
                    await self.give_back(table, user_id, index, number)
                raise _refused(error) from None
            taken.append((seat.user_id, seat.index))

    async def refresh(self, table: StakedTable) -> int:
        """Read the pot of the game to come or being played again (0 at an unstaked table)."""
        if self.on(table):
            self.pot = await self._service().pot(table.table_id, next_game(table.state))
        return self.pot

    def tell(self, table: StakedTable) -> None:
        """Send the pot as last read to the table's followers (`pot`; after the seat events of
        the command that changed it)."""
        if not self.on(table):
            return
        frame = {"type": "pot", "table": table.table_id, **self.json(table)}
        for subscriber in list(table.subscribers):
            subscriber.send(frame)

    def json(self, table: StakedTable) -> dict[str, Any]:
        """`{"stake", "pot"}` at a staked table (its `sync`, its lobby row); {} elsewhere."""
        if not self.on(table):
            return {}
        return {"stake": table.options.stake, "pot": self.pot}
