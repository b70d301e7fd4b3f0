"""What clients ask of a table: each command is one step of the table's actor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine import IllegalAction, action_from_json
from tranque.server.seats import Seat, SeatKind, SeatState
from tranque.server.table import PHRASE_INTERVAL, PHRASES, Phase, Subscriber, Table, TableError
from tranque.server.table_log import Viewer, visible


def _seated(table: Table, seat_index: int | None) -> Seat:
    if seat_index is None:
        raise TableError("spectator", "Los espectadores no pueden jugar.")
    return table.seats[seat_index]


@dataclass
class Subscribe:
    subscriber: Subscriber
    token: str | None = None
    last_seq: int | None = None

    async def run(self, table: Table) -> Viewer:
        viewer: Viewer = None
        if self.token is not None:
            seat = table.seat_of_token(self.token)
            if seat is None:
                raise TableError("bad_token", "Ese puesto ya no es tuyo o el enlace no es válido.")
            viewer = seat.index
        elif table.options.kind != "public":
            raise TableError("private", "Esta mesa no admite espectadores.")
        if self.subscriber in table.subscribers:  # a second hello on the same socket
            await Unsubscribe(self.subscriber).run(table)
        table.subscribers[self.subscriber] = viewer
        if self.last_seq is None or not 0 <= self.last_seq <= table.seq:
            self.subscriber.send(table.snapshot(viewer))
        else:
            for event in await table.store.load_events(table.table_id, self.last_seq):
                self.subscriber.send(visible(event, viewer))
            options = table.options_for(viewer) if viewer is not None else None
            if options is not None:
                self.subscriber.send(options)
        if viewer is not None:
            seat = table.seats[viewer]
            seat.connections += 1
            if seat.state is SeatState.AWAY:
                await table.set_seat_state(seat, SeatState.PRESENT)
        return viewer


@dataclass
class Unsubscribe:
    subscriber: Subscriber

    async def run(self, table: Table) -> None:
        viewer = table.subscribers.pop(self.subscriber, None)
        if viewer is None:
            return
        seat = table.seats[viewer]
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0 and seat.state is SeatState.PRESENT and seat.kind is SeatKind.HUMAN:
            await table.set_seat_state(seat, SeatState.AWAY)


@dataclass
class Act:
    seat: int | None
    action: Any
    turn_id: int | None = None

    async def run(self, table: Table) -> dict[str, Any]:
        seat = _seated(table, self.seat)
        if table.state.phase is not Phase.PLAYING:
            raise TableError("not_playing", "Ahora no se juega: espera la próxima mano.")
        turn = table.state.turn
        if turn is None or turn.seat != seat.index:
            raise TableError("not_your_turn", "No es tu turno.")
        if self.turn_id is not None and self.turn_id != turn.turn_id:
            raise TableError("stale", "Esa jugada es de un turno que ya pasó.")
        try:
            applied = table.game.apply(action_from_json(self.action))
        except IllegalAction as error:
            raise TableError("illegal", str(error)) from None
        seat.timeouts = 0
        await table.set_seat_state(seat, SeatState.PRESENT)
        await table.announce(seat, applied, "human")
        return {"seq": table.seq}


@dataclass
class Ready:
    seat: int | None

    async def run(self, table: Table) -> None:
        seat = _seated(table, self.seat)
        state = table.state
        if state.phase is not Phase.BETWEEN_ROUNDS:
            raise TableError("not_between_rounds", "Solo puedes decir «listo» entre manos.")
        if seat.index in state.ready:
            return
        state.ready.add(seat.index)
        await table.emit("ready", {"seat": seat.index})
        waiting = [s for s in table.humans if s.state is not SeatState.COVERED and s.index not in state.ready]
        if not waiting:
            await table.next_round()


@dataclass
class Phrase:
    seat: int | None
    phrase: str

    async def run(self, table: Table) -> None:
        seat = _seated(table, self.seat)
        if self.phrase not in PHRASES:
            raise TableError("unknown_phrase", "Esa frase no está en la lista.")
        now = table.clock.now()
        if now - table.state.last_phrase.get(seat.index, -PHRASE_INTERVAL) < PHRASE_INTERVAL:
            raise TableError("too_fast", "Espera un momento antes de otra frase.")
        table.state.last_phrase[seat.index] = now
        await table.emit("phrase", {"seat": seat.index, "phrase": self.phrase})


@dataclass
class Vote:
    seat: int | None
    agree: bool

    async def run(self, table: Table) -> None:
        seat = _seated(table, self.seat)
        state = table.state
        if seat.kind is not SeatKind.HUMAN:
            raise TableError("bots_do_not_vote", "Los bots no votan.")
        if state.phase not in (Phase.PLAYING, Phase.BETWEEN_ROUNDS):
            raise TableError("not_playing", "Solo se puede anular una partida en curso.")
        if not self.agree:
            state.votes.clear()
            await table.emit("vote", {"seat": seat.index, "agree": False})
            return
        state.votes.add(seat.index)
        await table.emit("vote", {"seat": seat.index, "agree": True})
        if all(s.index in state.votes for s in table.humans):
            await table.emit("annulled", {"votes": sorted(state.votes)})
            await table.finish(Phase.ANNULLED, "annulled")


@dataclass
class ReturnToSeat:
    seat: int | None

    async def run(self, table: Table) -> None:
        seat = _seated(table, self.seat)
        seat.timeouts = 0
        await table.set_seat_state(seat, SeatState.PRESENT)


@dataclass
class Sit:
    """An account takes a seat at a table that is waiting for players."""

    user_id: int
    name: str
    seat: int | None = None  # None: the first empty seat

    async def run(self, table: Table) -> dict[str, Any]:
        if table.state.phase is not Phase.WAITING:
            raise TableError("started", "La partida ya empezó: no quedan puestos.")
        if table.seat_of_user(self.user_id) is not None:
            raise TableError("already_seated", "Ya tienes un puesto en esta mesa.")
        empty = [s for s in table.seats if s.kind is SeatKind.EMPTY]
        if self.seat is None:
            if not empty:
                raise TableError("full", "La mesa está llena.")
            chosen = empty[0]
        elif not 0 <= self.seat < len(table.seats):
            raise TableError("no_such_seat", f"La mesa tiene puestos del 0 al {len(table.seats) - 1}.")
        else:
            chosen = table.seats[self.seat]
            if chosen.kind is not SeatKind.EMPTY:
                raise TableError("seat_taken", "Ese puesto ya está ocupado.")
        token = await table.take_seat(chosen, self.name, self.user_id)
        await _start_when_full(table)
        return {"seat": chosen.index, "token": token}


@dataclass
class Stand:
    user_id: int

    async def run(self, table: Table) -> None:
        if table.state.phase is not Phase.WAITING:
            raise TableError("started", "La partida ya empezó: no puedes levantarte.")
        seat = table.seat_of_user(self.user_id)
        if seat is None:
            raise TableError("not_seated", "No estás sentado en esta mesa.")
        seat.kind, seat.name, seat.user_id, seat.token_hash = SeatKind.EMPTY, "", None, None
        seat.state = SeatState.AWAY
        await table.emit("seat", seat.event_data())


@dataclass
class FillWithBots:
    """The host fills every empty seat with bots of a level; the game starts when full."""

    user_id: int
    level: str

    async def run(self, table: Table) -> None:
        from tranque.bots import bot_names

        if table.options.host_user_id != self.user_id:
            raise TableError("not_host", "Solo quien creó la mesa puede llamar bots.")
        if self.level not in bot_names():
            raise TableError("unknown_bot", f"No hay un bot «{self.level}».")
        if table.state.phase is not Phase.WAITING:
            raise TableError("started", "La partida ya empezó.")
        for seat in table.seats:
            if seat.kind is SeatKind.EMPTY:
                await table.give_to_bot(seat, self.level)
        await _start_when_full(table)


async def _start_when_full(table: Table) -> None:
    if all(seat.kind is not SeatKind.EMPTY for seat in table.seats):
        await table.start_game()
