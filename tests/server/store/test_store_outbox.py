"""The store's game ends to record (store/outbox.py), on every backend: which are listed, that
one is recorded once with what its `keep` decides, that a failing `keep` changes nothing, and
that two stores on one database (two processes) record each game end once, one at a time;
and that a database from before the recorder (revision 0008) has its game ends recorded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.store import GamePlayerRow, GameRow, MemoryStore, RatingRow, Store, StoredEvent
from tranque.server.store.outbox import GameEnd, Keep, KeptGame
from tranque.server.store.sql import SqlStore, alembic_config

pytestmark = pytest.mark.anyio


class Fault(Exception):
    pass


async def table_with_ends(store: Store, table_id: str, ends: list[float]) -> list[GameEnd]:
    """A table whose log has a game end at each time of `ends`, between other events."""
    await store.create_table(table_id, {}, 0.0)
    events: list[StoredEvent] = []
    game_ends: list[GameEnd] = []
    for at in ends:
        events.append(StoredEvent(len(events) + 1, "game_started", {}, at - 1))
        events.append(StoredEvent(len(events) + 1, "game_ended", {"reason": "target"}, at))
        game_ends.append(GameEnd(table_id, len(events), at))
    await store.append_events(table_id, events)
    return game_ends


def one_more_game(end: GameEnd, user_id: int) -> KeptGame:
    """What a game won by `user_id` keeps: one more game in the `duel` pool, μ up by one."""
    game_id = f"{end.table_id}.{end.seq}"
    game = GameRow(
        game_id,
        end.table_id,
        end.seq,
        end.at,
        "clasico",
        "duel",
        2,
        "public",
        False,
        True,
        True,
        None,
        {},
        {},
    )
    player = GamePlayerRow(game_id, user_id, 0, end.at, "clasico", "duel", False, True, False, 20)
    return KeptGame(game, [player], [], [("all", user_id, 20)])


def keeping(end: GameEnd, user_id: int, seen: list[Mapping[int, RatingRow]]) -> Keep:
    def keep(known: Mapping[int, RatingRow]) -> KeptGame:
        seen.append(dict(known))
        row = known.get(user_id)
        mu, games = (25.0, 0) if row is None else (row.mu, row.games)
        kept = one_more_game(end, user_id)
        rating = RatingRow(user_id, "duel", mu + 1, 8.0, 0.0, games + 1, end.at)
        return KeptGame(kept.game, kept.players, [rating], kept.xp)

    return keep


async def test_game_ends_are_listed_oldest_first_until_recorded(store: Store) -> None:
    later = await table_with_ends(store, "b", [30.0])
    earlier = await table_with_ends(store, "a", [10.0, 40.0])
    assert await store.game_ends(10) == [earlier[0], later[0], earlier[1]]
    assert await store.game_ends(2) == [earlier[0], later[0]]
    assert await store.record_game_end(later[0], "duel", [], lambda known: None)
    assert await store.game_ends(10) == [earlier[0], earlier[1]]
    assert await store.load_game("b.2") is None  # keep decided nothing: the mark only


async def test_a_game_end_is_recorded_once_with_what_keep_decides(store: Store) -> None:
    user = (await store.create_user("ana", "hash", 0.0)).user_id
    (end,) = await table_with_ends(store, "a", [10.0])
    seen: list[Mapping[int, RatingRow]] = []
    assert await store.record_game_end(end, "duel", [user], keeping(end, user, seen))
    assert not await store.record_game_end(end, "duel", [user], keeping(end, user, seen))
    assert seen == [{}]  # read once, a newcomer's; the second recording never asked
    assert await store.game_ends(10) == []
    rating = (await store.ratings_of([user], "duel"))[user]
    assert (rating.mu, rating.games) == (26.0, 1)
    assert (await store.xp_of(user))["all"] == 20
    assert [player.user_id for player in await store.game_players("a.2")] == [user]


async def test_a_keep_that_fails_changes_nothing_and_the_end_stays_to_record(store: Store) -> None:
    user = (await store.create_user("ana", "hash", 0.0)).user_id
    (end,) = await table_with_ends(store, "a", [10.0])

    def failing(known: Mapping[int, RatingRow]) -> KeptGame:
        raise Fault("the ratings cannot be worked out")

    with pytest.raises(Fault):
        await store.record_game_end(end, "duel", [user], failing)
    assert await store.game_ends(10) == [end]
    assert (await store.load_game("a.2"), await store.ratings_of([user], "duel")) == (None, {})
    assert await store.xp_of(user) == {}
    seen: list[Mapping[int, RatingRow]] = []
    assert await store.record_game_end(end, "duel", [user], keeping(end, user, seen))
    assert (await store.ratings_of([user], "duel"))[user].games == 1


@asynccontextmanager
async def another_process(store: Store) -> AsyncIterator[Store]:
    """A second store on `store`'s database, as another process has (the memory store: itself)."""
    if isinstance(store, MemoryStore):
        yield store
        return
    assert isinstance(store, SqlStore)
    other = SqlStore(store.url.render_as_string(hide_password=False))
    await other.start()
    try:
        yield other
    finally:
        await other.close()


async def test_two_processes_record_each_game_end_once_one_at_a_time(store: Store) -> None:
    user = (await store.create_user("ana", "hash", 0.0)).user_id
    ends = await table_with_ends(store, "a", [float(at) for at in range(10, 60, 10)])
    seen: list[Mapping[int, RatingRow]] = []
    async with another_process(store) as other:

        async def record_all(on: Store, order: list[GameEnd]) -> int:
            done = 0
            for end in order:
                done += await on.record_game_end(end, "duel", [user], keeping(end, user, seen))
            return done

        # From both ends of the list: they meet on different games of one player.
        counts = await asyncio.gather(record_all(store, ends), record_all(other, ends[::-1]))
    assert sum(counts) == len(ends)  # each game end recorded by one of them only
    rating = (await store.ratings_of([user], "duel"))[user]
    # Each recording read the ratings the one before it wrote: no game's change is lost.
    assert (rating.mu, rating.games) == (25.0 + len(ends), len(ends))
    assert (await store.xp_of(user))["all"] == 20 * len(ends)
    assert await store.game_ends(10) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0008_upgrades_with_its_game_ends_recorded_and_new_ones_listed(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0008")
    # A game end as a server at revision 0008 stored it: the table kept what it changed itself.
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO tables (table_id, config, status, created_at) "
                "VALUES ('mesa1', '{}', 'finished', 1.0)"
            ),
            sa.text(
                "INSERT INTO table_events (table_id, seq, kind, data, at) VALUES "
                "('mesa1', 1, 'game_started', '{}', 2.0), ('mesa1', 2, 'game_ended', '{}', 3.0)"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            assert await store.game_ends(10) == []
            assert not await store.record_game_end(GameEnd("mesa1", 2, 3.0), "duel", [], lambda known: None)
            await store.append_events("mesa1", [StoredEvent(3, "game_ended", {}, 4.0)])
            assert await store.game_ends(10) == [GameEnd("mesa1", 3, 4.0)]
        finally:
            await store.close()

    asyncio.run(read_back())
