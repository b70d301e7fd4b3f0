"""The accounts' area of the store (`AccountStore`), on every backend (memory, SQLite,
PostgreSQL): names unique whatever their case, sessions that find their user until they expire
or are deleted; bot accounts made with an owner (no more than allowed), listed, given a token by
its hash, found by it, revoked. And revision 0007 upgrading a database from 0006 with its
accounts as people's.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.store import BotRow, NameTaken, Store, TooManyBots, UserRow
from tranque.server.store.sql import SqlStore, alembic_config

pytestmark = pytest.mark.anyio


# Accounts and sessions ------------------------------------------------------------------


async def test_user_names_are_unique_whatever_their_case(store: Store) -> None:
    pedro = await store.create_user("Pedro", "hash-1", 1.0)
    with pytest.raises(NameTaken):
        await store.create_user("pEDRO", "hash-2", 2.0)
    strasse = await store.create_user("Straße", "hash-3", 3.0)
    with pytest.raises(NameTaken):
        await store.create_user("STRASSE", "hash-4", 4.0)  # casefold, not lower()

    assert pedro.name == "Pedro" and pedro.password_hash == "hash-1"
    assert strasse.user_id != pedro.user_id
    assert await store.find_user("PEDRO") == pedro
    assert await store.find_user("strasse") == strasse
    assert await store.find_user("Juana") is None
    assert await store.user_by_id(pedro.user_id) == pedro
    assert await store.user_by_id(strasse.user_id + 1000) is None


async def test_a_session_finds_its_user_until_it_expires(store: Store) -> None:
    maria = await store.create_user("María", "hash", 1.0)
    await store.create_session("token-a", maria.user_id, 100.0)

    assert await store.session_user("token-a", 99.5) == maria
    assert await store.session_user("token-a", 100.0) is None
    assert await store.session_user("token-b", 50.0) is None


async def test_a_deleted_session_no_longer_finds_its_user(store: Store) -> None:
    maria = await store.create_user("María", "hash", 1.0)
    await store.create_session("token-a", maria.user_id, 100.0)
    await store.create_session("token-b", maria.user_id, 100.0)
    await store.delete_session("token-a")
    await store.delete_session("token-nunca-creado")

    assert await store.session_user("token-a", 1.0) is None
    assert await store.session_user("token-b", 1.0) == maria


# Bot accounts ---------------------------------------------------------------------------


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
