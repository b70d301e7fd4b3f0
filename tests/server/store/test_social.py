"""The social area of the store (`SocialStore`), on every backend (memory, SQLite,
PostgreSQL): friend requests asked once, accepted only by the one asked, declined, ended; blocks
that end a friendship, listed, found among a group, lifted; and how each account stands with
the other. On real databases, the relation is read from the rows as they are kept.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.server.support.migration_helpers import own_database_url
from tranque.server.store import SocialSend, Store
from tranque.server.store.schema import blocks, friends
from tranque.server.store.sql import SqlStore

pytestmark = pytest.mark.anyio


async def test_store_requests_friendships_and_blocks(store: Store) -> None:
    ana, beto, carla = [await store.create_user(name, "x", 1.0) for name in ("ana", "beto", "carla")]
    await store.request_friend(ana.user_id, beto.user_id, 2.0)
    await store.request_friend(ana.user_id, beto.user_id, 3.0)  # again: nothing more
    await store.request_friend(beto.user_id, ana.user_id, 3.0)  # the other way: nothing either
    assert [(link.user.name, link.status, link.at) for link in await store.friend_links(ana.user_id)] == [
        ("beto", "outgoing", 2.0)
    ]
    assert [(link.user.name, link.status) for link in await store.friend_links(beto.user_id)] == [
        ("ana", "incoming")
    ]
    assert not await store.accept_friend(ana.user_id, beto.user_id, 4.0)  # only the asked one accepts
    assert await store.accept_friend(beto.user_id, ana.user_id, 5.0)
    for one, other in ((ana, beto), (beto, ana)):
        assert [(link.user, link.status) for link in await store.friend_links(one.user_id)] == [
            (other, "friends")
        ]
    await store.request_friend(carla.user_id, ana.user_id, 6.0)
    assert [link.status for link in await store.friend_links(ana.user_id)] == ["friends", "incoming"]
    assert await store.remove_friend(ana.user_id, carla.user_id)  # a declined request
    assert not await store.remove_friend(ana.user_id, carla.user_id)
    await store.block(beto.user_id, ana.user_id, 7.0)
    await store.block(beto.user_id, ana.user_id, 8.0)  # twice: one block
    assert await store.friend_links(ana.user_id) == []  # the friendship ended
    assert await store.blocked_users(beto.user_id) == [ana]
    assert await store.blocked_users(ana.user_id) == []
    await store.block(carla.user_id, beto.user_id, 9.0)
    ids = [ana.user_id, beto.user_id, carla.user_id]
    assert await store.blocks_among(ids) == {(beto.user_id, ana.user_id), (carla.user_id, beto.user_id)}
    assert await store.blocks_among([ana.user_id, carla.user_id]) == set()
    assert await store.blocks_among([]) == set()
    assert await store.unblock(beto.user_id, ana.user_id)
    assert not await store.unblock(beto.user_id, ana.user_id)
    assert await store.blocks_among(ids) == {(carla.user_id, beto.user_id)}


async def test_each_account_stands_with_the_other_as_their_requests_and_blocks_say(store: Store) -> None:
    ana, beto, carla = [
        (await store.create_user(name, "x", 1.0)).user_id for name in ("ana", "beto", "carla")
    ]
    assert await store.relation(ana, beto) == ("none", False)
    await store.request_friend(ana, beto, 2.0)
    assert (await store.relation(ana, beto), await store.relation(beto, ana)) == (
        ("outgoing", False),
        ("incoming", False),
    )
    assert await store.accept_friend(beto, ana, 3.0)
    assert (await store.relation(ana, beto), await store.relation(beto, ana)) == (
        ("friends", False),
        ("friends", False),
    )
    await store.block(carla, ana, 4.0)
    assert (await store.relation(carla, ana), await store.relation(ana, carla)) == (
        ("none", True),
        ("none", False),
    )
    await store.block(beto, ana, 5.0)  # the friendship ends with the block
    assert (await store.relation(beto, ana), await store.relation(ana, beto)) == (
        ("none", True),
        ("none", False),
    )
    assert await store.unblock(beto, ana)
    assert await store.relation(beto, ana) == ("none", False)


# Real databases: the rows as kept -------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_friendship_and_blocks_are_read_from_their_rows(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)

    async def scenario() -> list[tuple[str, bool]]:
        store = SqlStore(url)
        await store.start()
        try:
            ids = [
                (await store.create_user(name, "hash", 1.0)).user_id
                for name in ("ana", "beto", "caro", "dora")
            ]
            ana, beto, caro, dora = ids
            async with store.engine.begin() as connection:
                await connection.execute(
                    friends.insert(),
                    [
                        {"user_id": ana, "friend_id": beto, "status": "accepted", "created_at": 1.0},
                        {"user_id": beto, "friend_id": ana, "status": "accepted", "created_at": 1.0},
                        {"user_id": ana, "friend_id": caro, "status": "pending", "created_at": 1.0},
                    ],
                )
                await connection.execute(blocks.insert().values(user_id=dora, blocked_id=ana, created_at=1.0))
            pairs = [(ana, beto), (beto, ana), (ana, caro), (caro, ana), (ana, dora), (dora, ana)]
            return [await store.relation(one, other) for one, other in pairs]
        finally:
            await store.close()

    assert asyncio.run(scenario()) == [
        ("friends", False),
        ("friends", False),
        ("outgoing", False),
        ("incoming", False),
        ("none", False),
        ("none", True),
    ]


async def test_the_sends_of_an_account_are_kept_a_day_and_its_requests_counted(store: Store) -> None:
    ana, beto, carla = [
        (await store.create_user(name, "x", 1.0)).user_id for name in ("ana", "beto", "carla")
    ]
    assert await store.social_sends(ana, "friend_request", 0.0) == []
    await store.keep_social_send(ana, beto, "friend_request", 10.0, 0.0)
    await store.keep_social_send(ana, beto, "friend_request", 10.0, 0.0)  # again at once: both count
    await store.keep_social_send(ana, carla, "invite", 20.0, 0.0)
    await store.keep_social_send(beto, ana, "friend_request", 30.0, 0.0)
    assert await store.social_sends(ana, "friend_request", 0.0) == [
        SocialSend(beto, "friend_request", 10.0),
        SocialSend(beto, "friend_request", 10.0),
    ]
    assert await store.social_sends(ana, "invite", 0.0) == [SocialSend(carla, "invite", 20.0)]
    assert await store.social_sends(ana, "invite", 20.5) == []
    # A new send forgets the account's sends before `forget_before`, and only its own.
    await store.keep_social_send(ana, carla, "friend_request", 40.0, 15.0)
    assert await store.social_sends(ana, "friend_request", 0.0) == [SocialSend(carla, "friend_request", 40.0)]
    assert await store.social_sends(ana, "invite", 0.0) == [SocialSend(carla, "invite", 20.0)]
    assert await store.social_sends(beto, "friend_request", 0.0) == [SocialSend(ana, "friend_request", 30.0)]

    assert await store.pending_requests(ana) == (0, 0)
    await store.request_friend(ana, beto, 50.0)
    await store.request_friend(carla, beto, 50.0)
    await store.request_friend(ana, carla, 50.0)
    assert [await store.pending_requests(user) for user in (ana, beto, carla)] == [(2, 0), (0, 2), (1, 1)]
    assert await store.accept_friend(beto, ana, 60.0)  # a friendship waits for nothing
    assert [await store.pending_requests(user) for user in (ana, beto, carla)] == [(1, 0), (0, 1), (1, 1)]
