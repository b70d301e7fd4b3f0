"""The talk area of the store (`TalkStore`, schema.chat_mutes and chat_settings, revision 0017)
on every backend: mutes kept once and undone, by name, and the chat setting."""

from __future__ import annotations

import pytest

from tranque.server.store import Store

pytestmark = pytest.mark.anyio


async def test_mutes_are_an_accounts_own_kept_once_and_undone(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    beto = (await store.create_user("beto", "hash", 1.0)).user_id
    carla = (await store.create_user("Carla", "hash", 1.0)).user_id
    assert await store.chat_muted_users(ana) == []
    await store.mute_in_chat(ana, carla, 2.0)
    await store.mute_in_chat(ana, beto, 3.0)
    await store.mute_in_chat(ana, beto, 4.0)  # again: no change
    assert [user.name for user in await store.chat_muted_users(ana)] == ["beto", "Carla"]
    assert await store.chat_muted_users(beto) == []  # the muted account's own list is untouched
    assert await store.unmute_in_chat(ana, beto) is True
    assert await store.unmute_in_chat(ana, beto) is False
    assert [user.user_id for user in await store.chat_muted_users(ana)] == [carla]


async def test_the_chat_setting_is_off_only_once_turned_off(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    assert await store.chat_off(ana) is False
    await store.set_chat_off(ana, True, 2.0)
    assert await store.chat_off(ana) is True
    await store.set_chat_off(ana, False, 3.0)
    assert await store.chat_off(ana) is False
