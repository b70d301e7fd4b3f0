"""The stored game ends a separate step turns into history, ratings and XP (players/recorder.py).

The table log is the outbox: a `game_ended` event, stored with the game's last move, is a
game to record. `game_ends` lists the ones not recorded yet, oldest first; `record_game_end`
records one in a single transaction: it marks the end recorded (a row keyed by the table and
the event's seq, which a second recording of it, by any process, finds taken: it then
changes nothing), reads the ratings the game starts from, and keeps what the caller's `keep`
decides from them, as `PlayerStore.save_game` would, with the movements of fichas the game's end
makes (its pot paid out or given back, players/table_fichas.py), in that same transaction. If
`keep` raises, or a movement finds its source short, nothing is kept and the end stays to record.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from tranque.server.store.fichas import Movement
from tranque.server.store.players import GamePlayerRow, GameRow, RatingRow

GAME_ENDED = "game_ended"  # the kind of the events this outbox lists


@dataclass(frozen=True)
class GameEnd:
    """A stored `game_ended` event: its table, its seq and when it was decided."""

    table_id: str
    seq: int
    at: float


@dataclass(frozen=True)
class KeptGame:
    """What recording a game end keeps: the arguments of `Store.save_game`."""

    game: GameRow
    players: list[GamePlayerRow]
    ratings: list[RatingRow]
    xp: list[tuple[str, int, int]]  # (period, user_id, XP gained)


# From the accounts' ratings in the game's pool as they are when it is recorded (by user id;
# none yet: a newcomer), what the game keeps (None: nothing, an annulled game).
Keep: TypeAlias = Callable[[Mapping[int, RatingRow]], KeptGame | None]


class GameEnds(Protocol):
    async def game_ends(self, limit: int) -> list[GameEnd]:
        """At most `limit` stored `game_ended` events not recorded yet, oldest first (by
        time, then table and seq)."""
        ...

    async def record_game_end(
        self, end: GameEnd, pool: str, accounts: Sequence[int], keep: Keep, fichas: Sequence[Movement] = ()
    ) -> bool:
        """Record `end` once, in one transaction: mark it recorded, read the ratings of
        `accounts` in `pool`, keep what `keep` makes of them (a game already kept under its
        id is not kept again) and write the movements `fichas` (`FichasStore.move_fichas`: a
        movement whose key is taken is skipped; a source short raises `FichasShort`). False,
        and nothing changed, if it was recorded already, by this process or another; if `keep`
        raises (or a movement does), the error goes up and nothing is changed.
        Recordings never interleave: one reads the ratings the one before it wrote."""
        ...


class MemoryGameEnds:
    """`GameEnds` for `MemoryStore`, over its event logs and game rows."""

    def __init__(self) -> None:
        self.recorded: set[tuple[str, int]] = set()  # (table_id, seq) of the ends recorded

    def pending(self, logs: Mapping[str, list[tuple[int, str, str, float]]], limit: int) -> list[GameEnd]:
        ends = [
            GameEnd(table_id, seq, at)
            for table_id, log in logs.items()
            for seq, kind, _, at in log
            if kind == GAME_ENDED and (table_id, seq) not in self.recorded
        ]
        return sorted(ends, key=lambda end: (end.at, end.table_id, end.seq))[:limit]

    def claim(self, end: GameEnd) -> bool:
        """Mark `end` recorded; False if it was already."""
        key = (end.table_id, end.seq)
        if key in self.recorded:
            return False
        self.recorded.add(key)
        return True

    def release(self, end: GameEnd) -> None:
        """Undo `claim` (what keeping it decided was not kept)."""
        self.recorded.discard((end.table_id, end.seq))
