"""A banned account's rating and XP are frozen (players/recorder.py): a game it played that
ends while the ban holds is kept in the history, but changes only the others' ratings and XP.
On every store (the `store` fixture), with the real table actor and recorder."""

from __future__ import annotations

import pytest

from tests.server.players.test_recorder import rated_duel, until
from tests.server.support.inprocess import play_until
from tranque.server.store import Store
from tranque.server.store.moderation import LogEntry

pytestmark = pytest.mark.anyio


async def test_a_banned_players_game_changes_only_the_others_rating_and_xp(store: Store) -> None:
    async with rated_duel(store) as (rig, _, users, done):
        banned, other = users
        await store.add_sanction(banned, "ban", None, LogEntry(1.0, None, "ban", banned, None, "boosting"))
        await play_until(rig, lambda state: state.phase.is_over, humans=(0, 1))
        await until(lambda: bool(done), "the game end was not recorded")
        assert list(await store.ratings_of(users, "duel")) == [other]
        assert await store.xp_of(banned) == {}
        assert (await store.xp_of(other))["all"] in (5, 20)
        kept = await store.game_players(f"{rig.table_id}.1")
        assert sorted(player.user_id for player in kept) == sorted(users)  # the history keeps both
