"""Whole games over real WebSockets, every preset, people and bots together.

Each game runs on a real uvicorn on loopback: scripted people choose among their view's
legal actions, bots take the other seats, and the game is played to `game_ended`. Then the
stored log must be numbered 1..N with nothing missing, every person must have received
every event in order, and the downloadable record must replay with the engine and check
out with /api/verify.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import empty_database_url
from tests.server.support.harness import LiveServer
from tests.server.support.scripted import (
    ScriptedClient,
    game_settings,
    seat_table,
    start_table,
    stored_events,
)
from tranque.engine import Rules
from tranque.engine.record import replay

TWO_PLAYER_ONLY = {"futbol"}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(game_settings()) as live:
        yield live


async def play_all(clients: list[ScriptedClient]) -> list[dict[str, Any]]:
    """Play every client to the end at once (connecting those not yet connected)."""
    for client in clients:
        if not client.joined:
            await client.player.connect()
    try:
        return list(await asyncio.gather(*(client.play() for client in clients)))
    finally:
        for client in clients:
            await client.player.close()


def check_finished_game(server: LiveServer, table_id: str, clients: list[ScriptedClient]) -> None:
    """The log, what each client saw, and the record all tell the same complete game."""
    events = stored_events(server, table_id)
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    (ended,) = [event for event in events if event.kind == "game_ended"]
    # After the end only the people leaving: their seats become «away».
    assert {(e.kind, e.data["state"]) for e in events[ended.seq :]} <= {("seat", "away")}
    assert ended.data["reason"] == "target"
    assert ended.data["winners"]

    for client in clients:
        assert client.ended == ended.data
        seqs = [frame["seq"] for frame in client.frames if frame["type"] in ("sync", "event")]
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), "a client missed or repeated an event"
        assert seqs[-1] >= ended.seq

    humans_acted = sum(client.actions_acked for client in clients)
    by = [event.data["by"] for event in events if event.kind == "action"]
    assert by.count("human") == humans_acted
    assert by.count("timeout") == 0
    assert by.count("auto") == sum(client.forced_left + client.forced_lost for client in clients)

    response = httpx.get(f"{server.http}/api/tables/{table_id}/record", timeout=20)
    assert response.status_code == 200
    record = response.json()
    game = replay(record)
    assert game.scores == ended.data["scores"]
    assert game.goals == ended.data["goals"]
    assert game.winners == ended.data["winners"]
    started = [event for event in events if event.kind == "round_started"]
    assert len(record["rounds"]) == len(started)
    for round_data, event in zip(record["rounds"], started, strict=True):
        assert round_data["commitment"] == event.data["commitment"]
        assert round_data["hands"] == event.data["hands"]
    verdict = server.post("/api/verify", record)
    assert verdict["ok"] is True
    assert [r["round"] for r in verdict["rounds"] if r["ok"]] == list(range(len(started)))


def human_seats(rules: Rules) -> list[int]:
    """Two people: partners across in pairs, neighbours otherwise; alone against one bot in 1v1."""
    if rules.players == 2:
        return [0, 1]
    if rules.is_pairs:
        return [0, rules.players // 2]
    return [0, 1]


@pytest.mark.parametrize("preset", Rules.presets())
def test_full_games_every_preset_people_and_bots(server: LiveServer, preset: str) -> None:
    """Per preset: a practice table over HTTP (one person, verifying its view on every turn
    against the server's sync) and a table of two people with bots (one of them lets the
    server play its forced passes and draws), both played to the end at the same time."""
    rules = Rules.preset(preset)
    practice = server.post("/api/practice", {"preset": preset, "bot_level": "greedy"})
    table_id, tokens = seat_table(server, rules, human_seats(rules), bot_level="random")
    seed = sum(map(ord, preset))

    async def scenario() -> tuple[ScriptedClient, list[ScriptedClient]]:
        alone = ScriptedClient(
            server, practice["table"], practice["token"], rng=random.Random(seed), verify=True
        )
        people = [
            ScriptedClient(server, table_id, token, rng=random.Random(seed + seat), autoplay_forced=(n == 1))
            for n, (seat, token) in enumerate(sorted(tokens.items()))
        ]
        for person in people:
            await person.player.connect()
            await person.join()
        await start_table(server, table_id)
        await play_all([alone, *people])
        return alone, people

    alone, people = asyncio.run(scenario())
    assert alone.views_checked > 0.9 * alone.actions_acked > 0
    check_finished_game(server, practice["table"], [alone])
    check_finished_game(server, table_id, people)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_full_game_on_a_database_keeps_every_event_across_a_restart(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two people and two bots to the end on SQLite and PostgreSQL; then a new server on the
    same database still has the whole log (1..N) and the record, and the record verifies."""
    # An empty database: a restart recovers every table it finds, other tests' rows included.
    url = empty_database_url(backend, request, tmp_path)
    rules = Rules.preset("clasico", target=50)
    with LiveServer(game_settings(url)) as first:
        table_id, tokens = seat_table(first, rules, [0, 2])

        async def scenario() -> list[ScriptedClient]:
            people = [
                ScriptedClient(first, table_id, token, rng=random.Random(seat), verify=(seat == 0))
                for seat, token in sorted(tokens.items())
            ]
            for person in people:
                await person.player.connect()
                await person.join()
            await start_table(first, table_id)
            await play_all(people)
            return people

        people = asyncio.run(scenario())
        check_finished_game(first, table_id, people)
        events = stored_events(first, table_id)
        record = httpx.get(f"{first.http}/api/tables/{table_id}/record", timeout=20).json()

    with LiveServer(game_settings(url)) as second:
        assert stored_events(second, table_id) == events
        again = httpx.get(f"{second.http}/api/tables/{table_id}/record", timeout=20)
        assert again.json() == record
        assert second.post("/api/verify", record)["ok"] is True
