"""Rebuild a table from its event log after a restart (docs/design.md).

The log is the truth: seats, the game (explicit deals from each `round_started`, then every
action), votes and readiness are replayed without emitting anything. Then the clocks are
re-armed: whoever was to act gets a full turn again (the server's downtime is not theirs).
"""

from __future__ import annotations

from tranque.engine import Game, action_from_json
from tranque.server.fairness import DealSecret
from tranque.server.seats import SeatKind, SeatState
from tranque.server.store import StoredEvent
from tranque.server.table import NextRound, Phase, Table


def replay_log(table: Table, events: list[StoredEvent]) -> None:
    """Bring `table` to the state its log describes."""
    state = table.state
    deals = []
    first_starter: int | None = None
    started = False
    for event in events:
        if event.kind == "game_started":
            started, first_starter = True, event.data["first_starter"]
        elif event.kind == "round_started":
            data = event.data
            deals.append((data["hands"], data["boneyard"]))
            state.secrets[data["round"]] = DealSecret(
                bytes.fromhex(data["seed"]), bytes.fromhex(data["salt"])
            )
    if started:
        state.game = Game(
            table.rules, deals=deals, first_starter=first_starter, seed_for_round=table.seed_for_round
        )
    for event in events:
        _replay_event(table, event)
    table.seq = events[-1].seq if events else 0


def _replay_event(table: Table, event: StoredEvent) -> None:
    state, data = table.state, event.data
    if event.kind == "seat":
        table.seats[data["seat"]].restore(data)
    elif event.kind == "game_started":
        state.phase = Phase.PLAYING
    elif event.kind == "round_started":
        if data["round"] > 0:
            table.game.start_next_round()
        state.phase = Phase.PLAYING
        state.ready.clear()
    elif event.kind == "action":
        table.game.apply(action_from_json(data["action"]))
        seat = table.seats[data["seat"]]
        if data["by"] == "timeout":
            seat.timeouts += 1
        elif data["by"] == "human":
            seat.timeouts = 0
    elif event.kind == "turn":
        state.turn_counter = data["turn_id"]
    elif event.kind == "round_ended":
        state.phase = Phase.BETWEEN_ROUNDS
    elif event.kind == "ready":
        state.ready.add(data["seat"])
    elif event.kind == "vote":
        if data["agree"]:
            state.votes.add(data["seat"])
        else:
            state.votes.clear()
    elif event.kind == "game_ended":
        state.phase = Phase.ANNULLED if data["reason"] == "annulled" else Phase.FINISHED


async def resume(table: Table) -> None:
    """After `replay_log`: nobody is connected yet, and the clocks start again."""
    for seat in table.seats:
        if seat.kind is SeatKind.HUMAN and seat.state is SeatState.PRESENT:
            await table.set_seat_state(seat, SeatState.AWAY)
    state = table.state
    if state.phase is Phase.PLAYING:
        await table.next_turn()
    elif state.phase is Phase.BETWEEN_ROUNDS:
        number = table.game.round_number
        when = table.clock.now() + table.options.between_rounds_seconds
        state.between_timer = table.clock.call_at(when, lambda: table.post(NextRound(number)))
