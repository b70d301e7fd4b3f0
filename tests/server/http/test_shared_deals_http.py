"""A duplicado table's records over HTTP (`TableOptions.deals`): until the tournament says
its deals are revealed (`Registry.deals_revealed`), the table's record, the kept game's
record and its replay carry every round's commitment and no seed or salt; once revealed,
they carry them, as the log always did."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.inprocess import fixed_secret
from tranque.engine import Rules
from tranque.server.store import StoredEvent


def test_a_duplicado_tables_records_show_their_seeds_only_once_revealed() -> None:
    revealed: set[str] = set()

    async def source(ref: str) -> Any:
        return fixed_secret(ref)

    async def is_revealed(ref: str) -> bool:
        return ref in revealed

    with LiveServer(fast_settings()) as server:
        registry = server.state.registry

        async def create() -> str:
            registry.deal_sources, registry.deals_revealed = source, is_revealed
            rules = Rules.preset("clasico", players=2, mode="individual", hands=2)
            table = await registry.create(
                rules, registry.options(kind="tournament", tournament="copa", deals="copa:1")
            )
            for seat in table.seats:
                await table.give_to_bot(seat, "greedy")
            await table.start_game()
            return str(table.table_id)

        table_id = server.on_server(create)
        shown = httpx.get(f"{server.http}/api/tables/{table_id}", timeout=20)  # a tournament's: watchable
        assert shown.status_code == 200 and shown.json()["kind"] == "tournament"

        async def logged() -> list[StoredEvent]:
            return list(await registry.store.load_events(table_id))

        # Over once its end is stored: the table's state moves first and its events are
        # written after, so a phase read over may not be in the log yet (a slow database).
        def over() -> bool:
            return any(event.kind == "game_ended" for event in server.on_server(logged))

        for _ in range(2000):
            if over():
                break
            server.advance(1)
        assert over()
        server.recorded()

        ended = [event.data for event in server.on_server(logged) if event.kind == "round_ended"]
        secrets = [data["seed"] for data in ended] + [data["salt"] for data in ended]
        assert len(ended) == 2 and all(secrets)
        paths = [f"/api/tables/{table_id}/record", f"/api/games/{table_id}.1/record"]

        def get(path: str) -> Any:
            response = httpx.get(server.http + path, timeout=20)
            assert response.status_code == 200, response.text
            return response.json()

        for path in paths:
            record = get(path)
            assert [round_["seed"] for round_ in record["rounds"]] == [None, None]
            assert [round_["commitment"] for round_ in record["rounds"]] == [d["commitment"] for d in ended]
        replayed = json.dumps(get(f"/api/games/{table_id}.1/replay"))
        summary = json.dumps(get(f"/api/games/{table_id}.1"))
        assert not any(secret in text for secret in secrets for text in (replayed, summary))

        revealed.add("copa:1")
        for path in paths:
            record = get(path)
            assert [round_["seed"] for round_ in record["rounds"]] == [d["seed"] for d in ended]
            assert [round_["salt"] for round_ in record["rounds"]] == [d["salt"] for d in ended]
