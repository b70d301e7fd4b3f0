"""Bot accounts in the store, on every backend (memory, SQLite, PostgreSQL): made with an owner,
listed, given a token by its hash, found by it, revoked; and revision 0007 upgrading a database
from 0006 with its accounts as people's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.store.test_store_fencing import started_store
from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.players.table_rating import Unrated, unrated_reason
from tranque.server.store import BotRow, NameTaken, Store, TooManyBots, UserRow
from tranque.server.store.sql import SqlStore, alembic_config
from tranque.server.table.seats import Seat, SeatKind

pytestmark = pytest.mark.anyio


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    async for started in started_store(request.param, request, tmp_path):
        yield started


async def test_a_bot_account_is_an_account_with_an_owner_and_no_password(store: Store) -> None:
    owner = await store.create_user("Alicia", "hash", 1.0)
    bot = await store.create_bot("Robotina", owner.user_id, 2.0, 5)
    assert bot.is_bot and not owner.is_bot
    assert bot.bot_owner == owner.user_id and bot.password_hash == ""
    assert await store.find_user("robotina") == bot
    assert await store.user_by_id(bot.user_id) == bot
    with pytest.raises(NameTaken):
        await store.create_bot("ALICIA", owner.user_id, 3.0, 5)
    with pytest.raises(NameTaken):
        await store.create_user("robotina", "hash", 3.0)
    assert await store.bots_of(owner.user_id) == [BotRow(bot.user_id, "Robotina", 2.0, False, None)]
    assert await store.bots_of(bot.user_id) == []


async def test_a_bots_token_is_found_by_its_hash_until_replaced_or_revoked(store: Store) -> None:
    owner = await store.create_user("Alicia", "hash", 1.0)
    one = await store.create_bot("Uno", owner.user_id, 2.0, 5)
    two = await store.create_bot("Dos", owner.user_id, 3.0, 5)
    assert await store.bot_by_token("a" * 64, 4.0) is None
    await store.set_bot_token(one.user_id, "a" * 64)
    await store.set_bot_token(two.user_id, "b" * 64)
    found = await store.bot_by_token("a" * 64, 5.0)
    assert found is not None and found.user_id == one.user_id and found.is_bot
    assert [(b.name, b.has_token, b.used_at) for b in await store.bots_of(owner.user_id)] == [
        ("Uno", True, 5.0),
        ("Dos", True, None),
    ]
    await store.set_bot_token(one.user_id, "c" * 64)  # a new token: the old one is gone
    assert await store.bot_by_token("a" * 64, 6.0) is None
    assert (await store.bot_by_token("c" * 64, 6.0)) == found
    await store.set_bot_token(one.user_id, None)  # revoked
    assert await store.bot_by_token("c" * 64, 7.0) is None
    assert [(b.name, b.has_token) for b in await store.bots_of(owner.user_id)] == [
        ("Uno", False),
        ("Dos", True),
    ]


async def test_an_owner_gets_no_more_bots_than_allowed_even_asking_for_many_at_once(store: Store) -> None:
    owner = await store.create_user("Alicia", "hash", 1.0)
    other = await store.create_user("Beto", "hash", 1.0)
    made = await asyncio.gather(
        *(store.create_bot(f"Robot{n}", owner.user_id, 2.0, 2) for n in range(6)), return_exceptions=True
    )
    assert sum(isinstance(result, UserRow) for result in made) == 2
    assert all(isinstance(result, UserRow | TooManyBots) for result in made)
    assert len(await store.bots_of(owner.user_id)) == 2
    with pytest.raises(TooManyBots):
        await store.create_bot("Otro", owner.user_id, 3.0, 2)
    assert (await store.create_bot("Otro", other.user_id, 3.0, 2)).bot_owner == other.user_id


def test_a_person_or_two_bots_of_one_owner_at_a_table_that_accepts_bots_make_its_game_unrated() -> None:
    # bot accounts 7 and 8, owned by the people 1 and 2; one address: the bots' owners' machine
    seats = [Seat(0).seat_human("Robotina", 7, "h0", "a"), Seat(1).seat_human("Robotín", 8, "h1", "a")]
    assert unrated_reason(True, seats, {7: 1, 8: 2}) is None  # two owners, one address: rated
    assert unrated_reason(True, seats, {7: 1, 8: 1}) is Unrated.SAME_OWNER
    assert unrated_reason(True, seats, {7: 1}) is Unrated.PERSON_AT_BOTS_TABLE
    assert unrated_reason(False, seats, {7: 1, 8: 2}) is Unrated.CASUAL
    assert unrated_reason(True, [seats[0], Seat(1).seat_bot("greedy")], {7: 1}) is Unrated.BOT
    assert unrated_reason(True, seats, None) is Unrated.SAME_ADDRESS  # the same seats at a people's table
    assert seats[1].kind is SeatKind.HUMAN


# Revision 0007 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0006_upgrades_with_its_accounts_as_peoples(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0006")
    # accounts as a server at revision 0006 wrote them (no bot columns yet)
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO users (name, name_key, password_hash, created_at, name_skeleton, avatar) "
                "VALUES ('Alicia', 'alicia', 'hash-a', 1.5, 'alicia', 'loro'), "
                "('Beto', 'beto', 'hash-b', 2.5, 'beto', NULL)"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def read_back() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            alicia = await store.find_user("alicia")
            assert alicia == UserRow(alicia.user_id if alicia else 0, "Alicia", "hash-a", 1.5, "loro", None)
            assert alicia is not None and not alicia.is_bot
            bot = await store.create_bot("Robotina", alicia.user_id, 3.0, 5)
            await store.set_bot_token(bot.user_id, "d" * 64)
            assert await store.bot_by_token("d" * 64, 4.0) == bot
            await store.set_bot_token(alicia.user_id, "e" * 64)  # a person never gets a token
            assert await store.bot_by_token("e" * 64, 4.0) is None
            with pytest.raises(NameTaken):
                await store.create_bot("R0botina", alicia.user_id, 5.0, 5)  # a look-alike
        finally:
            await store.close()

    asyncio.run(read_back())

    # And back: revision 0007 downgrades (the columns go) and upgrades again.
    command.downgrade(alembic_config(url), "0006")
    command.upgrade(alembic_config(url), "head")

    async def names() -> list[tuple[str, bool]]:
        store = SqlStore(url)
        await store.start()
        try:
            found = [await store.find_user(name) for name in ("Alicia", "Beto", "Robotina")]
            return [(user.name, user.is_bot) for user in found if user is not None]
        finally:
            await store.close()

    assert asyncio.run(names()) == [("Alicia", False), ("Beto", False), ("Robotina", False)]
