"""The learning area of the store (`LearnStore`, schema.learn_progress, revision 0015) on every
backend: an account's stars by lesson kept, never lowered, merged from a guest's, and gone
with the account."""

from __future__ import annotations

import pytest

from tranque.server.store import Store

pytestmark = pytest.mark.anyio


async def test_an_account_starts_with_no_stars(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    assert await store.learn_progress(ana) == {}


async def test_stars_are_kept_by_lesson_and_only_ever_raised(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    assert await store.keep_learn_progress(ana, {"fichas": 2}, 10.0) == {"fichas": 2}
    assert await store.keep_learn_progress(ana, {"fichas": 1, "pegar": 3}, 11.0) == {"fichas": 2, "pegar": 3}
    assert await store.keep_learn_progress(ana, {"fichas": 3}, 12.0) == {"fichas": 3, "pegar": 3}
    assert await store.learn_progress(bea) == {}


async def test_a_guests_stars_merge_into_the_account_keeping_the_best(store: Store) -> None:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    await store.keep_learn_progress(ana, {"fichas": 3, "pegar": 1}, 10.0)
    merged = await store.keep_learn_progress(ana, {"fichas": 1, "pegar": 2, "obligado": 3}, 20.0)
    assert merged == {"fichas": 3, "pegar": 2, "obligado": 3}
    assert await store.learn_progress(ana) == merged
