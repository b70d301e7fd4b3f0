"""The fair-play area of the store (`FairPlayStore`, schema.fairplay_samples, revision 0011) on
every backend: the rated games listed in the order they finished, after a cursor; a sampled
game's figures kept, replaced and read back by window; where a restarted sampler goes on; and
the rated results (ratings before and after) of a window."""

from __future__ import annotations

import dataclasses

import pytest

from tranque.server.store import FairPlaySample, GamePlayerRow, GameRow, RatedGame, Store

pytestmark = pytest.mark.anyio


def game_row(game_id: str, at: float, rated: bool = True) -> GameRow:
    table_id, number = game_id.split(".")
    return GameRow(
        game_id, table_id, int(number), at, "clasico", "duel", 2, "public", False, True, rated,
        None if rated else "casual", {"seats": []}, {"rounds": []},
    )  # fmt: skip


def part(game_id: str, user_id: int, seat: int, at: float, rated: bool = True) -> GamePlayerRow:
    ratings = (25.0, 8.0, 26.0 - 2 * seat, 7.5) if rated else (None, None, None, None)
    return GamePlayerRow(game_id, user_id, seat, at, "clasico", "duel", False, seat == 0, False, 10, *ratings)


def sample(game_id: str, user_id: int, at: float, accurate: int = 30) -> FairPlaySample:
    return FairPlaySample(
        game_id, user_id, 0, at, "duel", 25.0, 8.0, 40, accurate, 40 - accurate, 0, 12.5, 100, at + 1
    )


async def kept_games(store: Store) -> tuple[int, int]:
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    for game_id, at, rated in (
        ("b.1", 20.0, True),
        ("a.1", 20.0, True),
        ("c.1", 10.0, True),
        ("d.1", 30.0, False),
    ):
        await store.save_game(
            game_row(game_id, at, rated),
            [part(game_id, ana, 0, at, rated), part(game_id, bea, 1, at, rated)],
            [],
            [],
        )
    return ana, bea


async def test_the_rated_games_are_listed_in_the_order_they_finished_after_a_cursor(store: Store) -> None:
    await kept_games(store)
    everything = await store.rated_games_after(None, 10)
    assert everything == [
        RatedGame("c.1", 10.0, "duel"),
        RatedGame("a.1", 20.0, "duel"),
        RatedGame("b.1", 20.0, "duel"),
    ]
    assert [g.game_id for g in await store.rated_games_after((20.0, "a.1"), 10)] == ["b.1"]
    assert [g.game_id for g in await store.rated_games_after((10.0, "c.1"), 1)] == ["a.1"]
    assert await store.rated_games_after((20.0, "b.1"), 10) == []  # d.1 is not rated


async def test_a_sampled_games_figures_are_kept_replaced_and_read_by_window(store: Store) -> None:
    ana, bea = await kept_games(store)
    assert await store.last_fairplay_sample() is None
    assert not await store.fairplay_sampled("a.1")
    first = [sample("a.1", ana, 20.0), sample("a.1", bea, 20.0, accurate=20)]
    await store.save_fairplay_samples(first)
    await store.save_fairplay_samples([sample("c.1", ana, 10.0)])
    assert await store.fairplay_sampled("a.1") and not await store.fairplay_sampled("b.1")
    assert await store.fairplay_samples(0.0) == [sample("c.1", ana, 10.0), *first]
    assert await store.fairplay_samples(15.0) == first
    assert await store.last_fairplay_sample() == (20.0, "a.1")
    again = dataclasses.replace(first[1], accurate=25, inaccuracies=15)
    await store.save_fairplay_samples([again])
    assert await store.fairplay_samples(15.0) == [first[0], again]
    assert again.accuracy == 62.5 and again.mean_loss == 12.5 / 40


async def test_the_rated_results_of_a_window_carry_their_ratings(store: Store) -> None:
    ana, bea = await kept_games(store)
    results = await store.rated_results(15.0)
    assert [(r.game_id, r.user_id) for r in results] == [
        ("a.1", ana),
        ("a.1", bea),
        ("b.1", ana),
        ("b.1", bea),
    ]
    assert all(r.mu_before == 25.0 and r.mu_after is not None for r in results)
    assert [r.game_id for r in await store.rated_results(0.0)][:2] == ["c.1", "c.1"]
