"""The game-results area of the store (`GameResultStore`): the games two accounts both played
and the latest games of a set of accounts, newest first, each game once, as a viewer may see
them (a private game only to its players), on every backend."""

from __future__ import annotations

import pytest

from tranque.server.store import GamePlayerRow, GameRow, Store

pytestmark = pytest.mark.anyio


async def keep(store: Store, game_id: str, at: float, user_ids: list[int], *, private: bool = False) -> None:
    """A duel or individual game of these accounts (seat = index), the first one winning."""
    table_id, number = game_id.split(".")
    summary = {
        "seats": [
            {"seat": s, "name": f"p{u}", "kind": "human", "user_id": u} for s, u in enumerate(user_ids)
        ],
        "scores": [100] + [10] * (len(user_ids) - 1),
        "goals": [0] * len(user_ids),
        "winners": [0],
        "rounds": 2,
    }
    fmt = "duel" if len(user_ids) == 2 else "individual"
    kind = "private" if private else "public"
    game = GameRow(
        game_id, table_id, int(number), at, "clasico", fmt, len(user_ids), kind, private, False, False,
        "casual", summary, {"rounds": ["heavy"]},
    )  # fmt: skip
    rows = [
        GamePlayerRow(game_id, user_id, seat, at, "clasico", fmt, private, seat == 0, False, 0)
        for seat, user_id in enumerate(user_ids)
    ]
    await store.save_game(game, rows, [], [])


async def test_games_together_newest_first_and_private_ones_only_to_their_players(store: Store) -> None:
    ana, beto, caro = [
        (await store.create_user(name, "hash", 1.0)).user_id for name in ("ana", "beto", "caro")
    ]
    await keep(store, "t1.1", 10.0, [ana, beto])
    await keep(store, "t2.1", 30.0, [beto, caro, ana])
    await keep(store, "t3.1", 20.0, [ana, caro])  # beto not in it
    await keep(store, "t4.1", 40.0, [ana, beto], private=True)
    found = await store.games_together(ana, beto, ana, 10)
    assert [game.game_id for game in found] == ["t4.1", "t2.1", "t1.1"]
    assert [(row.user_id, row.seat, row.won) for row in found[1].accounts] == [
        (beto, 0, True),
        (caro, 1, False),
        (ana, 2, False),
    ]
    assert found[1].summary["scores"] == [100, 10, 10] and found[1].format == "individual"
    assert [game.game_id for game in await store.games_together(beto, ana, caro, 10)] == ["t2.1", "t1.1"]
    assert [game.game_id for game in await store.games_together(ana, beto, None, 10)] == ["t2.1", "t1.1"]
    assert [game.game_id for game in await store.games_together(ana, beto, ana, 2)] == ["t4.1", "t2.1"]


async def test_games_of_any_lists_each_game_once(store: Store) -> None:
    ana, beto, caro, dani = [
        (await store.create_user(name, "hash", 1.0)).user_id for name in ("ana", "beto", "caro", "dani")
    ]
    await keep(store, "t1.1", 10.0, [ana, beto])
    await keep(store, "t2.1", 20.0, [beto, caro])
    await keep(store, "t3.1", 30.0, [caro, dani], private=True)
    await keep(store, "t4.1", 40.0, [dani, ana])
    friends = [beto, caro]
    assert [game.game_id for game in await store.games_of_any(friends, dani, 10)] == ["t3.1", "t2.1", "t1.1"]
    assert [game.game_id for game in await store.games_of_any(friends, ana, 10)] == ["t2.1", "t1.1"]
    assert [game.game_id for game in await store.games_of_any(friends, ana, 1)] == ["t2.1"]
    assert await store.games_of_any([], ana, 10) == []
