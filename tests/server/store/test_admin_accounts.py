"""The store's part of the operator's tools, on every backend (memory, SQLite, PostgreSQL):
accounts found by the start of their name (a `%` or `_` in it is a character, not a
wildcard), an admin token found by its hash until replaced or revoked, and an action written
to the moderation log by itself."""

from __future__ import annotations

import pytest

from tranque.server.store import Store
from tranque.server.store.moderation import LogEntry

pytestmark = pytest.mark.anyio


async def test_accounts_are_found_by_the_start_of_their_name(store: Store) -> None:
    for index, name in enumerate(["Pedro", "pedrito", "Ana", "pe_dro", "Pe%a", "Straße"]):
        await store.create_user(name, "hash", float(index))
    assert [user.name for user in await store.users_by_prefix("PED", 10)] == ["pedrito", "Pedro"]
    assert [user.name for user in await store.users_by_prefix("pe", 2)] == ["Pe%a", "pe_dro"]
    assert [user.name for user in await store.users_by_prefix("pe_", 10)] == ["pe_dro"]
    assert [user.name for user in await store.users_by_prefix("pe%", 10)] == ["Pe%a"]
    assert [user.name for user in await store.users_by_prefix("STRASS", 10)] == ["Straße"]
    assert await store.users_by_prefix("zz", 10) == []


async def test_an_admin_token_finds_its_account_until_replaced_or_revoked(store: Store) -> None:
    ana = await store.create_user("Ana", "hash", 1.0)
    assert await store.user_by_admin_token("h1") is None
    await store.set_admin_token(ana.user_id, "h1")
    assert await store.user_by_admin_token("h1") == ana
    await store.set_admin_token(ana.user_id, "h2")
    assert await store.user_by_admin_token("h1") is None
    assert await store.user_by_admin_token("h2") == ana
    await store.set_admin_token(ana.user_id, None)
    assert await store.user_by_admin_token("h2") is None


async def test_an_action_is_written_to_the_moderation_log(store: Store) -> None:
    ana = await store.create_user("Ana", "hash", 1.0)
    await store.write_log(LogEntry(5.0, ana.user_id, "end_table", None, None, "trabada", {"table": "t1"}))
    (entry,) = await store.moderation_log(10)
    assert (entry.action, entry.moderator_id, entry.reason, entry.details) == (
        "end_table",
        ana.user_id,
        "trabada",
        {"table": "t1"},
    )
