"""The tournaments' area of the store (`TournamentStore`), on every backend (memory, SQLite,
PostgreSQL): a tournament kept once (a second with its id or its schedule key refused), its
document saved by compare-and-set (a stale version writes nothing), the lists by status and
visibility in their order and pages, the live ones, who entered and their places as their
profiles list them, and the attendance bar (a later bar kept).
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from tranque.server.store import Store, TournamentRow

pytestmark = pytest.mark.anyio


def row(tournament_id: str, **changes: object) -> TournamentRow:
    made = TournamentRow(
        id=tournament_id,
        status="open",
        format="minitorneo",
        name=f"Torneo {tournament_id}",
        private=False,
        creator_id=1,
        created_at=10.0,
        starts_at=None,
        finished_at=None,
        schedule_key=None,
        version=0,
        doc={"id": tournament_id, "entrants": [], "nested": {"a": [1, 2.5, None, "ñ"]}},
    )
    return dataclasses.replace(made, **changes)  # type: ignore[arg-type]


async def test_a_tournament_is_kept_once_by_id_and_by_schedule_key(store: Store) -> None:
    assert await store.tournament("t1") is None
    assert await store.create_tournament(row("t1", schedule_key="diario:2026-12-07"))
    assert await store.tournament("t1") == row("t1", schedule_key="diario:2026-12-07")
    assert not await store.create_tournament(row("t1", name="Otro"))  # its id: refused
    assert not await store.create_tournament(row("t2", schedule_key="diario:2026-12-07"))
    assert await store.tournament("t2") is None
    assert await store.create_tournament(row("t3"))  # no schedule key: any number of them
    assert await store.create_tournament(row("t4"))
    found = await store.tournament("t1")
    assert found is not None and found.name == "Torneo t1"


async def test_a_save_on_a_stale_version_writes_nothing(store: Store) -> None:
    await store.create_tournament(row("t1"))
    doc = {"id": "t1", "entrants": [{"no": 1}]}
    assert await store.save_tournament("t1", 0, doc, "running", starts_at=50.0, finished_at=None)
    saved = await store.tournament("t1")
    assert saved == row("t1", version=1, doc=doc, status="running", starts_at=50.0)
    # A second writer that loaded version 0 too: refused, and the first one's document stays.
    assert not await store.save_tournament(
        "t1", 0, {"id": "t1"}, "cancelled", starts_at=None, finished_at=1.0
    )
    assert await store.tournament("t1") == saved
    assert not await store.save_tournament("nadie", 0, {}, "open", starts_at=None, finished_at=None)
    over = {"id": "t1", "done": True}
    assert await store.save_tournament("t1", 1, over, "finished", starts_at=50.0, finished_at=90.0)
    assert await store.tournament("t1") == row(
        "t1", version=2, doc=over, status="finished", starts_at=50.0, finished_at=90.0
    )


async def test_of_writers_racing_on_one_version_exactly_one_wins(store: Store) -> None:
    await store.create_tournament(row("t1"))
    saves = [
        store.save_tournament("t1", 0, {"writer": n}, "open", starts_at=None, finished_at=None)
        for n in range(5)
    ]
    won = await asyncio.gather(*saves)
    assert sorted(won) == [False, False, False, False, True]
    kept = await store.tournament("t1")
    assert kept is not None and kept.version == 1 and kept.doc == {"writer": won.index(True)}


async def test_lists_by_status_and_visibility_in_order_and_pages(store: Store) -> None:
    rows = [
        row("a", starts_at=300.0, created_at=1.0),
        row("b", starts_at=None, created_at=2.0),  # when full: after those with a time
        row("c", starts_at=100.0, created_at=3.0),
        row("d", private=True, starts_at=50.0, created_at=4.0),
        row("e", status="running", starts_at=20.0, created_at=5.0),
        row("f", status="finished", starts_at=5.0, finished_at=40.0, created_at=1.0),
        row("g", status="finished", starts_at=5.0, finished_at=60.0, created_at=2.0),
        row("h", status="cancelled", finished_at=50.0, created_at=3.0),
    ]
    for made in rows:
        assert await store.create_tournament(made)

    async def ids(*statuses: str, public_only: bool = True, **page: object) -> list[str]:
        found = await store.tournaments(list(statuses), public_only, **page)  # type: ignore[arg-type]
        return [found_row.id for found_row in found]

    assert await ids("open", limit=10) == ["c", "a", "b"]
    assert await ids("open", public_only=False, limit=10) == ["d", "c", "a", "b"]
    assert await ids("open", limit=2, offset=1) == ["a", "b"]
    assert await ids("running", limit=10) == ["e"]
    assert await ids("finished", "cancelled", limit=10, order="latest") == ["g", "h", "f"]
    assert await store.count_tournaments(["open"], True) == 3
    assert await store.count_tournaments(["open"], False) == 4
    assert await store.count_tournaments(["finished", "cancelled"], True) == 3
    assert await store.count_tournaments(["running"], True) == 1
    full = (await store.tournaments(["running"], True, 1))[0]
    assert full == rows[4]  # the whole row, its document too
    assert await store.live_tournaments() == ["a", "b", "c", "d", "e"]  # private too, oldest first


async def test_players_and_places_as_a_profile_lists_them(store: Store) -> None:
    ana, beto, carla = [
        (await store.create_user(name, "x", 1.0)).user_id for name in ("ana", "beto", "carla")
    ]
    await store.create_tournament(row("viejo", status="finished", starts_at=10.0, finished_at=20.0))
    await store.create_tournament(row("nuevo", status="running", starts_at=30.0))
    await store.create_tournament(row("secreto", private=True, created_at=40.0))
    await store.set_players("viejo", [ana, beto, carla])
    await store.set_places("viejo", {ana: 2, beto: 1, carla: 3})
    await store.set_players("nuevo", [ana, beto])
    await store.set_players("nuevo", [ana, carla, carla])  # beto withdrew, carla entered
    await store.set_players("secreto", [ana])

    async def listed(user: int, limit: int = 10, public_only: bool = False) -> list[tuple[str, int | None]]:
        return [
            (found.id, place) for found, place in await store.player_tournaments(user, limit, public_only)
        ]

    assert await listed(ana) == [("secreto", None), ("nuevo", None), ("viejo", 2)]
    assert await listed(ana, public_only=True) == [("nuevo", None), ("viejo", 2)]
    assert await listed(ana, limit=1) == [("secreto", None)]
    assert await listed(beto) == [("viejo", 1)]
    assert await listed(carla) == [("nuevo", None), ("viejo", 3)]
    # Places kept for those who stay when the players are set again; a place adds its player.
    await store.set_players("viejo", [beto, carla])
    await store.set_places("viejo", {ana: 4})
    assert await listed(ana) == [("secreto", None), ("nuevo", None), ("viejo", 4)]
    assert await listed(beto) == [("viejo", 1)]
    await store.set_players("secreto", [])
    assert await listed(ana, limit=1) == [("nuevo", None)]
    found = await store.player_tournaments(beto, 1)
    assert found[0][0] == row("viejo", status="finished", starts_at=10.0, finished_at=20.0)


async def test_the_attendance_bar_keeps_the_later_time(store: Store) -> None:
    ana, beto = [(await store.create_user(name, "x", 1.0)).user_id for name in ("ana", "beto")]
    assert await store.barred_until(ana) is None
    await store.bar(ana, 1000.0)
    assert await store.barred_until(ana) == 1000.0
    await store.bar(ana, 500.0)  # an earlier one does not shorten it
    assert await store.barred_until(ana) == 1000.0
    await store.bar(ana, 2000.5)
    assert await store.barred_until(ana) == 2000.5
    assert await store.barred_until(beto) is None
