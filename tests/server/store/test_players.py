"""The players' area of the store (`PlayerStore`): a profile's rating history and a
leaderboard's ranks, exact, on every backend; and a server from before revision 0003 (or 0005)
upgrades in place and keeps its accounts and tables (real databases).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.players.rating_scale import shown
from tranque.server.store import GamePlayerRow, GameRow, RatingRow, Store
from tranque.server.store.sql import SqlStore, alembic_config

pytestmark = pytest.mark.anyio


def kept_game(
    game_id: str, at: float, user_id: int, *, pool: str = "duel", mu: float = 25.0
) -> tuple[Any, ...]:
    """A game of one account (and bots) that left it a rating `mu` in `pool`, and 10 XP."""
    table_id, number = game_id.split(".")
    summary = {"seats": [], "scores": [], "goals": [], "winners": [], "rounds": 1}
    game = GameRow(
        game_id, table_id, int(number), at, "clasico", pool, 2, "public", False, True, True, None, summary, {}
    )
    player = GamePlayerRow(
        game_id, user_id, 0, at, "clasico", pool, False, True, False, 10, 24.0, 8.0, mu, 7.0
    )
    rating = RatingRow(user_id, pool, mu, 7.0, shown(mu, 7.0), 1, at)
    return game, [player], [rating], [("all", user_id, 10)]


async def test_a_profiles_history_is_the_pools_last_games_oldest_first(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    for number, mu in enumerate([20.0, 21.0, 22.0, 23.0], start=1):
        await store.save_game(*kept_game(f"t{number}.1", 100.0 + number, ana, mu=mu))
    await store.save_game(*kept_game("t9.1", 200.0, ana, pool="pairs", mu=30.0))
    page = await store.player_page(ana, None, ["all", "w2026-49"], 2, 3)
    assert page.xp == {"all": 50}
    assert [(pool.rating.pool, pool.rating.mu) for pool in page.ratings] == [("duel", 23.0), ("pairs", 30.0)]
    assert [(point.at, point.mu) for point in page.ratings[0].history] == [(103.0, 22.0), (104.0, 23.0)]
    assert [point.mu for point in page.ratings[1].history] == [30.0]
    assert [played.player.game_id for played in page.recent] == ["t9.1", "t4.1", "t3.1"]
    assert page.relation is None


async def test_kept_games_are_those_of_the_ids_asked_that_were_saved(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    for game_id in ("t1.1", "t1.2", "t2.1"):
        await store.save_game(*kept_game(game_id, 100.0, ana))
    asked = ["t1.2", "t1.1", "t1.3", "nope.1", "t1.1"]  # one unplayed, one unknown, one twice
    assert await store.kept_games(asked) == {"t1.1", "t1.2"}
    assert await store.kept_games([]) == set()


async def test_a_leaderboard_page_knows_its_first_rank_and_the_viewers(store: Store) -> None:
    ids = [(await store.create_user(name, "hash", 1.0)).user_id for name in ("ana", "beto", "caro", "dora")]
    for number, (user_id, mu) in enumerate(zip(ids, [30.0, 28.0, 28.0, 20.0], strict=True), start=1):
        await store.save_game(*kept_game(f"t{number}.1", 100.0 + number, user_id, mu=mu))
    second = await store.rating_leaderboard("duel", 2, 2, me=ids[0])
    assert [row.name for row in second.rows] == ["caro", "dora"]
    assert (second.total, second.first_rank) == (4, 2)  # caro ties beto, on the page before
    assert second.me is not None and (second.me.rank, second.me.row.name) == (1, "ana")
    past = await store.rating_leaderboard("duel", 8, 2, me=ids[3])
    assert past.rows == [] and past.total == 4
    assert past.me is not None and past.me.rank == 4
    nobody = await store.rating_leaderboard("pairs", 0, 2, me=ids[0])
    assert (nobody.rows, nobody.total, nobody.me) == ([], 0, None)


async def test_ties_are_ordered_by_the_names_code_points_on_every_backend(store: Store) -> None:
    """As Python sorts the keys (the database's own collation would put «álvaro» by «abel»)."""
    names = ["Álvaro", "zoe", "abel", "Ñandú", "Beto", "ßara", "ana"]
    for number, name in enumerate(names, start=1):
        user_id = (await store.create_user(name, "hash", 1.0)).user_id
        await store.save_game(*kept_game(f"t{number}.1", 100.0 + number, user_id, mu=25.0))
    expected = sorted(names, key=str.casefold)
    for read, board in ((store.rating_leaderboard, "duel"), (store.xp_leaderboard, "all")):
        assert [row.name for row in (await read(board, 0, 10)).rows] == expected
        assert [row.name for row in (await read(board, 3, 3)).rows] == expected[3:6]


async def test_every_page_and_standing_of_a_board_with_ties_is_exact(store: Store) -> None:
    """Pages found from the top and from the bottom of the board, ties across page breaks,
    and a viewer above, on and below the page all rank as a count of who has more would."""
    names = [f"p{index:02d}" for index in range(23)]
    ids = [(await store.create_user(name, "hash", 1.0)).user_id for name in names]
    mus = {user_id: 20.0 + index % 4 + (0.5 if index % 7 == 0 else 0.0) for index, user_id in enumerate(ids)}
    for number, user_id in enumerate(ids, start=1):
        for game in range(1 + number % 3):  # 10, 20 or 30 XP: large ties
            game_id = f"t{number}-{game}.1"
            await store.save_game(*kept_game(game_id, 100.0 + number, user_id, mu=mus[user_id]))
    xps = {user_id: 10 * (1 + number % 3) for number, user_id in enumerate(ids, start=1)}
    by_name = dict(zip(ids, names, strict=True))
    for values, read in (
        ({user_id: shown(mu, 7.0) for user_id, mu in mus.items()}, store.rating_leaderboard),
        ({user_id: float(gained) for user_id, gained in xps.items()}, store.xp_leaderboard),
    ):
        order = sorted(ids, key=lambda user_id: (-values[user_id], by_name[user_id]))
        for offset in range(len(ids) + 2):
            me = ids[(offset * 5) % len(ids)]
            board = await read("duel" if read == store.rating_leaderboard else "all", offset, 4, me)
            assert [row.user_id for row in board.rows] == order[offset : offset + 4]
            assert board.total == len(ids)
            if offset < len(ids):
                assert board.first_rank == 1 + sum(value > values[order[offset]] for value in values.values())
            assert board.me is not None
            assert board.me.rank == 1 + sum(value > values[me] for value in values.values())


# Revisions 0003 and 0005 ----------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0002_upgrades_to_head_and_keeps_its_rows(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0002")
    # rows as a server at revision 0002 wrote them (no avatar column yet)
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO users (name, name_key, password_hash, created_at, name_skeleton) "
                "VALUES ('Pedro', 'pedro', 'hash', 1.5, 'pedro')"
            ),
            sa.text(
                "INSERT INTO tables (table_id, config, status, created_at) "
                "VALUES ('mesa1', '{\"preset\": \"clasico\"}', 'waiting', 2.5)"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            found = await store.find_user("pedro")
            assert found is not None and (found.name, found.password_hash, found.created_at) == (
                "Pedro",
                "hash",
                1.5,
            )
            assert found.avatar is None
            [table] = await store.tables(("waiting",))
            assert (table.table_id, table.config, table.created_at) == ("mesa1", {"preset": "clasico"}, 2.5)
            await store.set_avatar(found.user_id, "gallo")
            changed = await store.find_user("Pedro")
            assert changed is not None and changed.avatar == "gallo"
            assert (await store.xp_leaderboard("all", 0, 50)).total == 0
        finally:
            await store.close()

    asyncio.run(read_back())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0004_upgrades_and_its_leaderboards_rows_get_their_names(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0004")
    users = [(1, "Zoe", "zoe"), (2, "Ñandú", "ñandú"), (3, "abel", "abel")]
    asyncio.run(
        execute(
            url,
            *[
                sa.text(
                    "INSERT INTO users (id, name, name_key, password_hash, created_at, name_skeleton) "
                    f"VALUES ({user_id}, '{name}', '{key}', 'hash', 1.0, '{key}')"
                )
                for user_id, name, key in users
            ],
            *[
                sa.text(
                    "INSERT INTO ratings (user_id, pool, mu, sigma, shown, games, updated_at) "
                    f"VALUES ({user_id}, 'duel', 25.0, 7.0, 1500.0, 1, 2.0)"
                )
                for user_id, _, _ in users
            ],
            *[sa.text(f"INSERT INTO xp (period, user_id, xp) VALUES ('all', {u}, 10)") for u, _, _ in users],
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            for board in (
                await store.rating_leaderboard("duel", 0, 10),
                await store.xp_leaderboard("all", 0, 10),
            ):
                assert [row.name for row in board.rows] == ["abel", "Zoe", "Ñandú"]  # tied: by name key
            assert [row.name for row in (await store.rating_leaderboard("duel", 1, 1)).rows] == ["Zoe"]
        finally:
            await store.close()

    asyncio.run(read_back())
