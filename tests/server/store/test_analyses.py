"""The analyses' area of the store (`AnalysisStore`): post-game analyses (schema.analyses,
revision 0008) on every backend: kept, replaced and read back as they were; an account's
requests counted by day and by those not over; the unfinished ones listed oldest first and
counted. The store is the queue of every process: a job is claimed oldest first, in turns
between the places and then the accounts that asked for them, a running one
only once its heartbeat is stale, two claimers at once (two stores on one database) never get
the same one, and a worker that lost its claim writes nothing. And a database at revision 0007
upgrades with the table empty, and back."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.support.migration_helpers import execute, own_database_url
from tranque.server.store import AnalysisRow, GameRow, Store
from tranque.server.store.sql import SqlStore, alembic_config

RESULT: dict[str, Any] = {
    "deals": 3,
    "players": [{"seat": 0, "accuracy": 87.5, "mean_loss": 1.25}],
    "decisions": [{"round": 1, "move": 1, "verdict": "forced", "alternatives": []}],
}


def game_row(game_id: str) -> GameRow:
    table_id, number = game_id.split(".")
    return GameRow(
        game_id, table_id, int(number), 10.0, "clasico", "duel", 2, "public", False, False, False,
        "casual", {"seats": []}, {"rounds": []},
    )  # fmt: skip


async def two_games_and_two_users(store: Store, games: int = 3) -> tuple[int, int]:
    ana = await store.create_user("ana", "hash", 1.0)
    bea = await store.create_user("bea", "hash", 1.0)
    for number in range(1, games + 1):
        await store.save_game(game_row(f"mesa{number}.1"), [], [], [])
    return ana.user_id, bea.user_id


@pytest.mark.anyio
async def test_an_analysis_is_kept_replaced_and_read_back(store: Store) -> None:
    ana, _ = await two_games_and_two_users(store)
    assert await store.analysis("mesa1.1") is None
    pending = AnalysisRow("mesa1.1", ana, "pending", 100.5)
    await store.save_analysis(pending)
    assert await store.analysis("mesa1.1") == pending
    running = AnalysisRow("mesa1.1", ana, "running", 100.5, done=3, total=10)
    await store.save_analysis(running)
    assert await store.analysis("mesa1.1") == running
    done = AnalysisRow("mesa1.1", ana, "done", 100.5, 10, 10, RESULT, 130.25)
    await store.save_analysis(done)
    assert await store.analysis("mesa1.1") == done
    assert await store.analysis("mesa2.1") is None


@pytest.mark.anyio
async def test_an_accounts_requests_are_counted_by_day_and_by_those_not_over(store: Store) -> None:
    ana, bea = await two_games_and_two_users(store)
    assert await store.analyses_requested(ana, 0.0) == (0, 0)
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "done", 100.0, 4, 4, RESULT, 110.0))
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "running", 200.0, 1, 4))
    await store.save_analysis(AnalysisRow("mesa3.1", bea, "pending", 300.0))
    assert await store.analyses_requested(ana, 0.0) == (2, 1)
    assert await store.analyses_requested(ana, 150.0) == (1, 1)
    assert await store.analyses_requested(ana, 250.0) == (0, 1)
    assert await store.analyses_requested(bea, 300.0) == (1, 1)
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "failed", 200.0, 1, 4, None, 210.0))
    assert await store.analyses_requested(ana, 0.0) == (2, 0)


@pytest.mark.anyio
async def test_the_unfinished_analyses_are_listed_oldest_first(store: Store) -> None:
    ana, bea = await two_games_and_two_users(store)
    await store.save_analysis(AnalysisRow("mesa3.1", bea, "pending", 300.0))
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "done", 100.0, 4, 4, RESULT, 110.0))
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "running", 200.0, 1, 4))
    assert [row.game_id for row in await store.unfinished_analyses()] == ["mesa2.1", "mesa3.1"]


@pytest.mark.anyio
async def test_the_unfinished_analyses_of_the_site_are_counted(store: Store) -> None:
    ana, bea = await two_games_and_two_users(store)
    assert await store.unfinished_analysis_count() == 0
    await store.save_analysis(AnalysisRow("mesa3.1", bea, "pending", 300.0))
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "done", 100.0, 4, 4, RESULT, 110.0))
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "running", 200.0, 1, 4))
    assert await store.unfinished_analysis_count() == 2
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "failed", 200.0, 1, 4, None, 210.0))
    assert await store.unfinished_analysis_count() == 1


@pytest.mark.anyio
async def test_jobs_are_claimed_oldest_first_and_marked_running(store: Store) -> None:
    ana, bea = await two_games_and_two_users(store, games=4)
    await store.save_analysis(AnalysisRow("mesa3.1", bea, "pending", 300.0))
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "done", 100.0, 4, 4, RESULT, 110.0))
    await store.save_analysis(AnalysisRow("mesa2.1", ana, "pending", 200.0))
    await store.save_analysis(AnalysisRow("mesa4.1", ana, "failed", 50.0, 1, 4, None, 60.0))
    first = await store.claim_analysis("w1", 1000.0, 940.0)
    assert first == AnalysisRow("mesa2.1", ana, "running", 200.0, claimed_by="w1", heartbeat_at=1000.0)
    assert await store.analysis("mesa2.1") == first
    second = await store.claim_analysis("w2", 1001.0, 941.0)
    assert second == AnalysisRow("mesa3.1", bea, "running", 300.0, claimed_by="w2", heartbeat_at=1001.0)
    assert await store.claim_analysis("w3", 1002.0, 942.0) is None  # both fresh; done and failed never
    assert await store.analysis("mesa1.1") == AnalysisRow("mesa1.1", ana, "done", 100.0, 4, 4, RESULT, 110.0)


@pytest.mark.anyio
async def test_jobs_are_claimed_in_turns_between_places_then_accounts(store: Store) -> None:
    ana, bea = await two_games_and_two_users(store, games=6)
    carla = (await store.create_user("carla", "hash", 1.0)).user_id
    # Place x asked first and most; y and a row of no known place came later.
    for game, user, at, place in (
        ("mesa1.1", ana, 100.0, "x"),
        ("mesa2.1", bea, 110.0, "x"),
        ("mesa3.1", ana, 120.0, "x"),
        ("mesa4.1", carla, 130.0, "y"),
        ("mesa5.1", carla, 140.0, None),
        ("mesa6.1", bea, 150.0, "y"),
    ):
        await store.save_analysis(AnalysisRow(game, user, "pending", at, place_key=place))
    claimed = []
    for number in range(7):
        row = await store.claim_analysis(f"w{number}", 1000.0, 940.0)
        claimed.append(row.game_id if row is not None else None)
    # The first of each place (a row of no known place is always a first), by the accounts'
    # turns then oldest first; then the second of each place, and so on.
    assert claimed == ["mesa1.1", "mesa4.1", "mesa5.1", "mesa2.1", "mesa6.1", "mesa3.1", None]
    assert (await store.analysis("mesa3.1")) == AnalysisRow(
        "mesa3.1", ana, "running", 120.0, claimed_by="w5", heartbeat_at=1000.0, place_key="x"
    )


@pytest.mark.anyio
async def test_a_running_job_is_claimed_again_only_once_its_heartbeat_is_stale(store: Store) -> None:
    ana, _ = await two_games_and_two_users(store)
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "pending", 100.0))
    claimed = await store.claim_analysis("dead", 1000.0, 940.0)
    assert claimed is not None
    progress = dataclasses.replace(claimed, done=2, total=5, heartbeat_at=1030.0)
    assert await store.save_claimed_analysis(progress)  # its heartbeat: 1030
    assert await store.claim_analysis("alive", 1080.0, 1020.0) is None  # 1030 is not before 1020
    assert await store.claim_analysis("alive", 1080.0, 1030.0) is None  # nor before 1030
    taken = await store.claim_analysis("alive", 1091.0, 1031.0)
    assert taken == dataclasses.replace(progress, claimed_by="alive", heartbeat_at=1091.0)


@pytest.mark.anyio
async def test_a_worker_that_lost_its_claim_writes_nothing(store: Store) -> None:
    ana, _ = await two_games_and_two_users(store)
    await store.save_analysis(AnalysisRow("mesa1.1", ana, "pending", 100.0))
    slow = await store.claim_analysis("slow", 1000.0, 940.0)
    assert slow is not None
    taken = await store.claim_analysis("quick", 1100.0, 1040.0)  # slow's heartbeat went stale
    assert taken is not None and taken.claimed_by == "quick"
    # The slow one's progress, and its result, are refused; the new claimer's are kept.
    assert not await store.save_claimed_analysis(
        dataclasses.replace(slow, done=3, total=5, heartbeat_at=1101.0)
    )
    late = dataclasses.replace(slow, status="done", done=5, total=5, result=RESULT, finished_at=1102.0)
    assert not await store.save_claimed_analysis(late)
    assert await store.analysis("mesa1.1") == taken
    mine = dataclasses.replace(taken, done=1, total=5, heartbeat_at=1103.0)
    assert await store.save_claimed_analysis(mine)
    finished = dataclasses.replace(mine, status="done", done=5, result=RESULT, finished_at=1104.0)
    assert await store.save_claimed_analysis(finished)
    assert await store.analysis("mesa1.1") == finished
    # Over: nobody's save is taken any more, not even its last claimer's.
    assert not await store.save_claimed_analysis(dataclasses.replace(mine, done=4))
    assert not await store.save_claimed_analysis(dataclasses.replace(mine, claimed_by=None))
    assert await store.analysis("mesa1.1") == finished


@pytest.mark.anyio
async def test_two_stores_on_one_database_claiming_at_once_never_get_the_same_job(store: Store) -> None:
    ana, _ = await two_games_and_two_users(store, games=6)
    for number in range(1, 7):
        await store.save_analysis(AnalysisRow(f"mesa{number}.1", ana, "pending", 100.0 + number))
    other: Store = store
    if isinstance(store, SqlStore):  # another process's store: its own engine and connections
        other = SqlStore(store.url.render_as_string(hide_password=False))
        await other.start()
    try:
        claims = await asyncio.gather(
            *((store if i % 2 else other).claim_analysis(f"w{i}", 1000.0, 940.0) for i in range(10))
        )
    finally:
        if other is not store:
            await other.close()
    got = [row for row in claims if row is not None]
    assert sorted(row.game_id for row in got) == [f"mesa{number}.1" for number in range(1, 7)]
    for row in got:  # each row says who has it, the one that was told so
        stored = await store.analysis(row.game_id)
        assert stored is not None and stored.claimed_by == row.claimed_by and stored.status == "running"


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0007_upgrades_with_no_analyses_and_back(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0007")
    # a user and a kept game as a server at revision 0007 wrote them
    asyncio.run(
        execute(
            url,
            sa.text(
                "INSERT INTO users (name, name_key, password_hash, created_at, name_skeleton) "
                "VALUES ('ana', 'ana', 'hash', 1.0, 'ana')"
            ),
            sa.text(
                "INSERT INTO games (game_id, table_id, number, finished_at, preset, format, players, "
                "table_kind, private, competitive, rated, unrated_reason, summary, record) VALUES "
                "('mesa1.1', 'mesa1', 1, 10.0, 'clasico', 'duel', 2, 'public', false, false, false, "
                "'casual', '{}', '{\"rounds\": []}')"
            ),
        )
    )
    command.upgrade(alembic_config(url), "head")

    async def use() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            assert await store.unfinished_analyses() == []
            user = await store.find_user("ana")
            assert user is not None
            row = AnalysisRow("mesa1.1", user.user_id, "done", 20.0, 2, 2, RESULT, 30.0)
            await store.save_analysis(row)
            assert await store.analysis("mesa1.1") == row
        finally:
            await store.close()

    asyncio.run(use())
    command.downgrade(alembic_config(url), "0007")
    command.upgrade(alembic_config(url), "head")

    async def empty() -> list[AnalysisRow]:
        store = SqlStore(url)
        await store.start()
        try:
            return await store.unfinished_analyses() + [
                row for row in [await store.analysis("mesa1.1")] if row is not None
            ]
        finally:
            await store.close()

    assert asyncio.run(empty()) == []  # the table went with the downgrade, and came back empty
