"""A table's finished game as a tournament reads it: who sat where, who won, by how much,
hand by hand, and who did not really play (`game_outcome`).

What it says is read from the table's stored configuration and log alone, rebuilt by
replaying the log up to the game's end as the recorder does (players/recorder.py), so any
process may read it, after any restart, and always reads the same. `GameOutcome` itself is a
frozen value with no I/O: the tournaments' pure modules take it as their input.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranque.engine import Rules
from tranque.server.players.archive import bot_played_seats
from tranque.server.players.game_rating import abandoned
from tranque.server.store import StoredEvent, TableStore
from tranque.server.table.events import EndReason, GameEnded, GameStarted
from tranque.server.table.log import from_stored, replay
from tranque.server.table.seats import SeatKind
from tranque.server.table.state import TableState


@dataclass(frozen=True)
class SeatOutcome:
    seat: int
    team: int
    user_id: int | None
    bot_level: str | None  # a bot's seat: its level; a person's: None
    no_show: bool  # covered because absent at the start (`TableOptions.absent_grace_seconds`)
    abandoned: bool  # T1 (docs/fairplay.md): its covering bot made more than a third of its decisions


@dataclass(frozen=True)
class GameOutcome:
    table_id: str
    annulled: bool  # the game was annulled (no result)
    scores: tuple[int, ...]  # per team, raw
    target: int
    winners: tuple[int, ...]  # teams
    reason: str  # "target", "hands" (docs/rules.md G1), "time" (G3) or "annulled"
    seats: tuple[SeatOutcome, ...]
    hands: tuple[tuple[int, ...], ...]  # per hand: the points each team won in it (duplicado)
    ended_at: float


async def game_outcome(store: TableStore, table_id: str) -> GameOutcome | None:
    """The outcome of the table's last game once it is over; None while it is not (or for a
    table that does not exist). Replays the log, so it belongs off the hottest paths: a
    tournament's director reads each game once, when it ends."""
    row = await store.table(table_id)
    if row is None:
        return None
    events = await store.load_events(table_id)
    end = _last_end(events)
    if end is None:
        return None
    stored, ended = end
    rules = Rules.from_json(row.config["rules"])
    state = TableState(rules)
    replay(state, [event for event in events if event.seq < stored.seq])
    return outcome_of(table_id, state, ended, stored.at)


def outcome_of(table_id: str, state: TableState, ended: GameEnded, at: float) -> GameOutcome:
    """The outcome of the game `ended` ends, from the table's state just before its end."""
    rules, game = state.rules, state.game
    annulled = ended.reason is EndReason.ANNULLED
    bot_played = bot_played_seats(state)
    seats = tuple(
        SeatOutcome(
            seat=seat.index,
            team=rules.team_of(seat.index),
            user_id=seat.user_id if seat.is_human else None,
            bot_level=seat.bot_level if seat.kind is SeatKind.BOT else None,
            no_show=seat.index in state.no_show,
            abandoned=abandoned(seat, bot_played),
        )
        for seat in state.seats
    )
    if annulled or game is None:
        reason = EndReason.ANNULLED.value
    else:
        reason = game.ended_by.value if game.ended_by is not None else EndReason.TARGET.value
    scores = tuple(ended.scores) if ended.scores else (0,) * rules.team_count
    return GameOutcome(
        table_id=table_id,
        annulled=annulled,
        scores=scores,
        target=rules.target,
        winners=() if annulled else tuple(ended.winners),
        reason=reason,
        seats=seats,
        hands=() if game is None else tuple(tuple(result.points) for result in game.results),
        ended_at=at,
    )


def _last_end(events: list[StoredEvent]) -> tuple[StoredEvent, GameEnded] | None:
    """The log's last `game_ended`, if its game is the last one started (no rematch after it)."""
    for stored in reversed(events):
        if stored.kind == GameStarted.kind:
            return None
        if stored.kind == GameEnded.kind:
            event = from_stored(stored)
            assert isinstance(event, GameEnded)
            return stored, event
    return None
