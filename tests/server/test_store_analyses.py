"""The `Store`'s post-game analyses (schema.analyses, revision 0008) on every backend: kept,
replaced and read back as they were; an account's requests counted by day and by those not
over; the unfinished ones listed oldest first. And a database at revision 0006 upgrades
with the table empty, and back."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command

from tests.server.migration_helpers import execute, own_database_url
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


async def two_games_and_two_users(store: Store) -> tuple[int, int]:
    ana = await store.create_user("ana", "hash", 1.0)
    bea = await store.create_user("bea", "hash", 1.0)
    for game_id in ("mesa1.1", "mesa2.1", "mesa3.1"):
        await store.save_game(game_row(game_id), [], [], [])
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


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_database_at_0006_upgrades_with_no_analyses_and_back(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), "0006")
    # a user and a kept game as a server at revision 0006 wrote them
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
    command.downgrade(alembic_config(url), "0006")
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
