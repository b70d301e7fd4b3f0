"""A peña's seasons on every backend (store/seasons.py, seasons/service.py, revision 0019):
opening one and its refusals, the games that count kept as they are found (a member leaving
takes nothing out), the peña's nights, and the rows frozen once the season is over."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import pytest

from tranque.server.penas.errors import PenaError
from tranque.server.penas.service import Penas
from tranque.server.seasons.service import GRACE_SECONDS, Seasons, day_start
from tranque.server.store import GamePlayerRow, GameRow, SeasonOverlaps, Store, UserRow

pytestmark = pytest.mark.anyio

TODAY = dt.date(2027, 1, 10)
NOW = day_start(TODAY) + 10 * 3600  # 10:00 in Bogotá
DAY = 24 * 3600.0


def seasons_of(store: Store) -> Seasons:
    return Seasons(store, Penas(store, cast(Any, None), cast(Any, None)))  # no tables, nobody online


async def accounts(store: Store, *names: str) -> list[UserRow]:
    return [await store.create_user(name, "hash", 1.0) for name in names]


async def play(
    store: Store,
    game_id: str,
    at: float,
    seats: list[UserRow | None],
    scores: list[int],
    winners: list[int],
    rated: bool = True,
) -> None:
    """Keep a finished game as the recorder does, each seat naming its team (here seat mod the
    number of scores, as the engine's R3 gives it)."""
    teams = len(scores)
    summary = {
        "seats": [
            {
                "seat": index,
                "team": index % teams,
                "name": user.name if user else "Bot",
                "kind": "human" if user else "bot",
                "user_id": user.user_id if user else None,
            }
            for index, user in enumerate(seats)
        ],
        "scores": scores,
        "goals": [0] * teams,
        "winners": winners,
        "rounds": 2,
    }
    table_id, number = game_id.split(".")
    fmt = "pairs" if len(seats) == 4 and teams == 2 else ("duel" if len(seats) == 2 else "individual")
    game = GameRow(
        game_id, table_id, int(number), at, "clasico", fmt, len(seats), "private", True, rated, rated,
        None if rated else "casual", summary, {"rounds": []},
    )  # fmt: skip
    players = [
        GamePlayerRow(
            game_id, user.user_id, index, at, "clasico", fmt, True, index % teams in winners, False, 0
        )
        for index, user in enumerate(seats)
        if user is not None
    ]
    await store.save_game(game, players, [], [])


def table_of(listing: dict[str, Any]) -> list[tuple[str, int, int, int, int, int, int, int]]:
    season = listing.get("current", listing)
    return [
        (
            r["name"],
            r["played"],
            r["won"],
            r["lost"],
            r["tantos_for"],
            r["tantos_against"],
            r["difference"],
            r["points"],
        )
        for r in season["rows"]
    ]


async def test_a_seasons_life_counts_members_games_keeps_leavers_and_freezes(store: Store) -> None:
    ana, beto, caro, eva = await accounts(store, "ana", "beto", "caro", "eva")
    pena = await store.create_pena(
        "Los del Martes", "los-del-martes", "gallo", "", "invite", ana.user_id, 1.0
    )
    await store.add_pena_member(pena.id, beto.user_id, 2.0)
    await store.add_pena_member(pena.id, caro.user_id, NOW + 500)  # joins after the first games
    seasons = seasons_of(store)
    opened = await seasons.open(
        ana, pena.slug, " Apertura  2027 ", "2027-01-10", "2027-01-16", "rated", "tres_uno", NOW
    )
    assert (opened["name"], opened["starts"], opened["ends"], opened["state"], opened["rows"]) == (
        "Apertura 2027",
        "2027-01-10",
        "2027-01-16",
        "live",
        [],
    )
    assert opened["ends_at"] - opened["starts_at"] == 7 * DAY

    await play(store, "t1.1", NOW + 100, [ana, beto], [100, 60], [0])  # counts
    await play(store, "t2.1", NOW + 200, [ana, eva], [100, 0], [0])  # eva is no member
    await play(store, "t3.1", NOW + 300, [beto, ana], [100, 80], [0], rated=False)  # friendly
    await play(store, "t4.1", NOW + 400, [caro, ana], [100, 10], [0])  # caro not a member yet
    await play(store, "t5.1", NOW + 400, [ana, None], [100, 10], [0])  # a bot
    listing = await seasons.listing(pena.slug, ana, NOW + 1000)
    assert table_of(listing) == [("ana", 1, 1, 0, 100, 60, 40, 3), ("beto", 1, 0, 1, 60, 100, -40, 1)]
    assert listing["may_open"] is False and listing["past"] == []

    # beto leaves: his game stays. A pairs game counts only when all four seats are members.
    assert await store.leave_pena(pena.id, beto.user_id) == "left"
    assert table_of(await seasons.listing(pena.slug, None, NOW + 1500))[1] == (
        "beto",
        1,
        0,
        1,
        60,
        100,
        -40,
        1,
    )
    dani, fede = await accounts(store, "dani", "fede")
    await store.add_pena_member(pena.id, dani.user_id, NOW + 600)
    await store.add_pena_member(pena.id, fede.user_id, NOW + 600)
    await play(store, "t6.1", NOW + 2000, [ana, beto, caro, dani], [90, 120], [1])  # beto left
    await play(store, "t7.1", NOW + 2100, [ana, fede, caro, dani], [90, 120], [1])
    assert table_of(await seasons.listing(pena.slug, None, NOW + 2200)) == [
        ("ana", 2, 1, 1, 190, 180, 10, 4),
        ("dani", 1, 1, 0, 120, 90, 30, 3),
        ("fede", 1, 1, 0, 120, 90, 30, 3),
        ("caro", 1, 0, 1, 90, 120, -30, 1),
        ("beto", 1, 0, 1, 60, 100, -40, 1),
    ]


async def test_ties_and_the_frozen_table(store: Store) -> None:
    ana, beto = await accounts(store, "ana", "beto")
    pena = await store.create_pena("Peña Mango", "pena-mango", "gallo", "", "invite", ana.user_id, 1.0)
    await store.add_pena_member(pena.id, beto.user_id, 2.0)
    seasons = seasons_of(store)
    opened = await seasons.open(
        ana, pena.slug, "Corta", "2027-01-10", "2027-01-10", "rated", "dos_por_ganada", NOW
    )
    end = opened["ends_at"]
    await play(store, "t1.1", NOW + 100, [ana, beto], [100, 60], [0])
    await play(store, "t2.1", end - 10, [beto, ana], [100, 95], [0])
    await play(store, "t3.1", end + 10, [ana, beto], [100, 0], [0])  # after its end
    expected = [("ana", 2, 1, 1, 195, 160, 35, 2), ("beto", 2, 1, 1, 160, 195, -35, 2)]
    ended = await seasons.listing(pena.slug, ana, end + 20)
    assert ended["current"] is None and ended["may_open"] is True
    assert [s["state"] for s in ended["past"]] == ["ended"] and table_of(ended["past"][0]) == expected
    frozen = await seasons.listing(pena.slug, ana, end + GRACE_SECONDS + 1)
    assert frozen["past"][0]["frozen"] is True and table_of(frozen["past"][0]) == expected
    stored = await store.season_by_id(opened["id"])
    assert stored is not None and stored.final is not None and stored.frozen_at == end + GRACE_SECONDS + 1
    # A game kept late with a time inside the season changes nothing any more.
    await play(store, "t4.1", end - 5, [ana, beto], [100, 0], [0])
    again = await seasons.season(pena.slug, opened["id"], end + 10 * DAY)
    assert table_of(again) == expected


async def test_the_pena_nights_count_only_its_tables(store: Store) -> None:
    ana, beto = await accounts(store, "ana", "beto")
    pena = await store.create_pena("Peña Noche", "pena-noche", "gallo", "", "invite", ana.user_id, 1.0)
    await store.add_pena_member(pena.id, beto.user_id, 2.0)
    await store.create_table("mesa1", {"options": {"pena_id": pena.id}}, NOW)
    await store.create_table("mesa2", {"options": {"pena_id": None}}, NOW)
    seasons = seasons_of(store)
    await seasons.open(ana, pena.slug, "Noches", "2027-01-10", "2027-01-20", "nights", "tantos", NOW)
    await play(store, "mesa1.1", NOW + 100, [ana, beto], [100, 70], [0], rated=False)  # a friendly night
    await play(store, "mesa2.1", NOW + 200, [ana, beto], [100, 0], [0])  # not the peña's table
    listing = await seasons.listing(pena.slug, beto, NOW + 300)
    assert table_of(listing) == [("ana", 1, 1, 0, 100, 70, 30, 100), ("beto", 1, 0, 1, 70, 100, -30, 70)]


async def test_opening_a_season_refused(store: Store) -> None:
    ana, beto = await accounts(store, "ana", "beto")
    pena = await store.create_pena("Peña Fija", "pena-fija", "gallo", "", "invite", ana.user_id, 1.0)
    await store.add_pena_member(pena.id, beto.user_id, 2.0)
    seasons = seasons_of(store)
    good = {
        "name": "Apertura",
        "starts": "2027-01-10",
        "ends": "2027-02-10",
        "scope": "rated",
        "points": "tres_uno",
    }

    async def refused(user: UserRow, status: int, code: str, **changes: str) -> None:
        body = {**good, **changes}
        with pytest.raises(PenaError) as caught:
            await seasons.open(
                user,
                pena.slug,
                body["name"],
                body["starts"],
                body["ends"],
                body["scope"],
                body["points"],
                NOW,
            )
        assert (caught.value.status, caught.value.code) == (status, code)
        assert (
            caught.value.message
            and caught.value.message_en
            and caught.value.message != caught.value.message_en
        )

    await refused(beto, 403, "pena_leader_only")
    await refused(ana, 422, "season_name", name="   ")
    await refused(ana, 422, "season_scope", scope="todo")
    await refused(ana, 422, "season_points", points="1 por ganada")
    await refused(ana, 422, "season_dates", starts="10/01/2027")
    await refused(ana, 422, "season_dates_order", ends="2027-01-09")
    await refused(ana, 422, "season_starts_past", starts="2027-01-09")
    await refused(ana, 422, "season_too_long", ends="2028-01-11")
    await refused(ana, 422, "season_starts_far", starts="2028-02-10", ends="2028-02-11")
    assert await store.seasons_of_pena(pena.id) == []
    await seasons.open(ana, pena.slug, **good, now=NOW)
    await refused(ana, 409, "season_open", starts="2027-03-01", ends="2027-03-10")
    assert len(await store.seasons_of_pena(pena.id)) == 1
    with pytest.raises(PenaError) as caught:
        await seasons.season(pena.slug, 999, NOW)
    assert caught.value.code == "no_such_season"


async def test_the_store_refuses_overlapping_seasons(store: Store) -> None:
    (ana,) = await accounts(store, "ana")
    pena = await store.create_pena("Peña Una", "pena-una", "gallo", "", "invite", ana.user_id, 1.0)
    await store.create_season(pena.id, "A", "rated", "tantos", 100.0, 200.0, ana.user_id, 1.0)
    with pytest.raises(SeasonOverlaps):
        await store.create_season(pena.id, "B", "rated", "tantos", 199.0, 300.0, ana.user_id, 1.0)
    after = await store.create_season(pena.id, "C", "rated", "tantos", 200.0, 300.0, ana.user_id, 1.0)
    assert [s.name for s in await store.seasons_of_pena(pena.id)] == [
        "C",
        "A",
    ] and after.scanned_until == 200.0
