"""The game ends to record (store/outbox.py) in memory, over the `MemoryData` event logs."""

from __future__ import annotations

from collections.abc import Sequence

from tranque.server.store.fichas import Movement
from tranque.server.store.memory.fichas import move_now
from tranque.server.store.memory.players import MemoryPlayers
from tranque.server.store.outbox import GameEnd, Keep, MemoryGameEnds


class MemoryOutbox(MemoryPlayers):
    """`GameEnds`: recording a game end keeps its game as `save_game` does, all at once."""

    def __init__(self) -> None:
        super().__init__()
        self._game_ends = MemoryGameEnds()

    async def game_ends(self, limit: int) -> list[GameEnd]:
        return self._game_ends.pending(self._events, limit)

    async def record_game_end(
        self, end: GameEnd, pool: str, accounts: Sequence[int], keep: Keep, fichas: Sequence[Movement] = ()
    ) -> bool:
        # Nothing is awaited from the mark to the last write: the recording is atomic.
        if not self._game_ends.claim(end):
            return False
        found = (self._ratings.get((user_id, pool)) for user_id in accounts)
        try:
            kept = keep({rating.user_id: rating for rating in found if rating is not None})
            move_now(self, fichas)  # all or nothing, before anything else is kept
        except BaseException:
            self._game_ends.release(end)
            raise
        if kept is not None:
            await self.save_game(kept.game, kept.players, kept.ratings, kept.xp)
        return True
