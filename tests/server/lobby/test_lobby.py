"""Following the lobby (docs/protocol.md, «lobby» and «lobby_update»): the whole list once,
then diffs, gathered by one shared timer into at most one update an interval, none while
nothing changed. The server's FakeClock stands still, so every frame is counted, not timed."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.scenario_helpers import Client, make_account
from tranque.engine import Rules
from tranque.server.table.actor import TableOptions

INTERVAL = 60.0  # long: only the test's advance() lets an update go


def lobby_frames(client: Client) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] in ("lobby", "lobby_update")]


def apply(tables: dict[str, dict[str, Any]], frame: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What a client does with a lobby frame (as src/tranque/web/js/lobby.js does)."""
    if frame["type"] == "lobby":
        return {entry["table"]: entry for entry in frame["tables"]}
    assert set(frame) == {"type", "tables", "removed"}, frame
    assert frame["tables"] or frame["removed"], "an update with nothing in it"
    result = {table_id: entry for table_id, entry in tables.items() if table_id not in frame["removed"]}
    result.update({entry["table"]: entry for entry in frame["tables"]})
    return result


def http_lobby(server: LiveServer) -> dict[str, dict[str, Any]]:
    return {entry["table"]: entry for entry in httpx.get(f"{server.http}/api/lobby", timeout=20).json()}


def create_public(server: LiveServer, host_id: int, count: int) -> list[str]:
    state = server.state

    async def make() -> list[str]:
        options = dict(kind="public", host_user_id=host_id, **state.settings.table_defaults())
        return [
            (await state.registry.create(Rules.preset("clasico"), TableOptions(**options))).table_id
            for _ in range(count)
        ]

    return server.on_server(make)


async def flushed(client: Client) -> None:
    """Every frame the server sent this client before now has arrived (a ping's ack is after)."""
    await client.ok({"type": "ping"})


def run(scenario: Any) -> None:
    with LiveServer(fast_settings(lobby_update_seconds=INTERVAL)) as server:
        asyncio.run(scenario(server))


def test_a_follower_gets_the_whole_list_then_only_what_changed() -> None:
    async def scenario(server: LiveServer) -> None:
        host_id, host_headers = make_account(server, "anfitriona")
        _, guest_headers = make_account(server, "invitado")
        before = create_public(server, host_id, 2)
        async with (
            Client(server) as follower,
            Client(server, guest_headers) as guest,
            Client(server, host_headers) as host,
        ):
            await follower.ok({"type": "lobby"})
            [first] = lobby_frames(follower)
            assert first["type"] == "lobby"
            assert [entry["table"] for entry in first["tables"]] == before
            mine = apply({}, first)

            added = create_public(server, host_id, 3)
            await guest.ok({"type": "sit", "table": before[0]})  # changed: a seat taken
            seated = await host.ok({"type": "sit", "table": before[1], "seat": 0})
            await host.hello(before[1], seated["token"])
            await host.ok({"type": "fill_bots", "level": "greedy"})  # started: now listed to watch
            await flushed(follower)
            assert len(lobby_frames(follower)) == 1, "an update before the interval"

            server.advance(INTERVAL)
            await flushed(follower)
            frames = lobby_frames(follower)
            assert len(frames) == 2
            update = frames[1]
            assert update["type"] == "lobby_update"
            assert update["removed"] == []
            assert {entry["table"] for entry in update["tables"]} == {before[0], before[1], *added}
            changed = next(entry for entry in update["tables"] if entry["table"] == before[0])
            assert changed["seats"] == ["invitado", None, None, None]
            started = next(entry for entry in update["tables"] if entry["table"] == before[1])
            assert (started["phase"], started["names"][0]) == ("playing", "anfitriona")
            mine = apply(mine, update)
            assert mine == http_lobby(server)

            # A second `lobby` brings the whole list again, up to date.
            await follower.ok({"type": "lobby"})
            again = lobby_frames(follower)[-1]
            assert again["type"] == "lobby"
            assert apply({}, again) == http_lobby(server)

    run(scenario)


def test_two_hundred_new_tables_make_one_update_a_step_and_none_when_nothing_changed() -> None:
    async def scenario(server: LiveServer) -> None:
        host_id, _ = make_account(server, "anfitriona")
        async with Client(server) as follower, Client(server) as other:
            for client in (follower, other):
                await client.ok({"type": "lobby"})
            mine = apply({}, lobby_frames(follower)[0])
            assert mine == {}

            for step in range(1, 5):
                create_public(server, host_id, 50)
                if step == 1:  # the first change after a quiet interval goes at once...
                    await flushed(follower)
                    assert len(lobby_frames(follower)) == 1, "sent before its timer fired"
                    server.advance(0)
                else:  # ...later ones wait for an interval since the last update
                    server.advance(INTERVAL / 2)
                    await flushed(follower)
                    assert len(lobby_frames(follower)) == step, f"step {step}: an update too early"
                    server.advance(INTERVAL / 2)
                await flushed(follower)
                frames = lobby_frames(follower)
                assert len(frames) == step + 1, f"step {step}: {len(frames) - step} updates"
                assert len(frames[-1]["tables"]) == 50 and frames[-1]["removed"] == []
                mine = apply(mine, frames[-1])
            assert len(mine) == 200
            assert mine == http_lobby(server)

            # Nothing changed: however long the clock runs, no frame.
            for _ in range(3):
                server.advance(INTERVAL)
            await flushed(follower)
            assert len(lobby_frames(follower)) == 5

            # Every follower was sent the same frames.
            await flushed(other)
            assert lobby_frames(other) == lobby_frames(follower)

    run(scenario)


def test_a_change_that_leaves_the_lobby_as_it_was_sends_nothing() -> None:
    async def scenario(server: LiveServer) -> None:
        host_id, _ = make_account(server, "anfitriona")
        _, guest_headers = make_account(server, "invitado")
        [table] = create_public(server, host_id, 1)
        async with Client(server) as follower, Client(server, guest_headers) as guest:
            await follower.ok({"type": "lobby"})
            # A seat taken and left again within one interval: the entry ends as it was (a
            # guest's: the host standing from a table nobody else sits at closes it).
            seated = await guest.ok({"type": "sit", "table": table})
            await guest.hello(table, seated["token"])
            await guest.ok({"type": "stand"})
            assert server.state.registry._lobby_dirty, "the table's changes reached the registry"
            server.advance(INTERVAL)
            server.advance(INTERVAL)
            await flushed(follower)
            assert len(lobby_frames(follower)) == 1

    run(scenario)


def test_a_socket_that_left_gets_nothing_and_a_new_one_gets_the_current_list() -> None:
    async def scenario(server: LiveServer) -> None:
        host_id, _ = make_account(server, "anfitriona")
        async with Client(server) as leaving:
            await leaving.ok({"type": "lobby"})
        create_public(server, host_id, 2)
        server.advance(INTERVAL)
        async with Client(server) as follower:
            await follower.ok({"type": "lobby"})
            [first] = lobby_frames(follower)
            assert apply({}, first) == http_lobby(server)
            assert len(first["tables"]) == 2
            server.advance(INTERVAL)
            await flushed(follower)
            assert len(lobby_frames(follower)) == 1
        assert server.state.registry._lobby_followers == {}

    run(scenario)
