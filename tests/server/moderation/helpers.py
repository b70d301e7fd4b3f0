"""Helpers of the moderation tests: accounts with roles, a table where an account plays."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, register
from tranque.engine import Rules
from tranque.server.store.moderation import LogEntry
from tranque.server.table.state import TableKind, TableOptions

OPEN: list[httpx.Client] = []  # closed after each test (conftest.py)


def account(server: LiveServer, name: str, role: str = "player") -> httpx.Client:
    """A registered, logged-in HTTP client of a new account with `role`."""
    http = client(server)
    OPEN.append(http)
    assert register(http, name).status_code == 201
    if role != "player":
        user_id = http.get("/api/me").json()["id"]

        async def grant() -> None:
            entry = LogEntry(
                server.settings.clock.now(), None, "grant", user_id, None, "test", {"role": role}
            )
            await server.state.store.set_role(user_id, role, entry)

        server.on_server(grant)
    return http


def playing_table(server: LiveServer, user_id: int, name: str, *, start: bool = True) -> tuple[str, str]:
    """A public duel in play: the account at seat 0, the table's bot at seat 1; (table, token).
    Without `start`, the table waits for a second player at seat 1."""
    state = server.state

    async def make() -> tuple[str, str]:
        options = TableOptions(kind=TableKind.PUBLIC, bot_level="greedy", **state.settings.table_defaults())
        table = await state.registry.create(Rules.from_options("clasico", players=2), options)
        token = await table.take_seat(table.seats[0], name, user_id)
        if start:
            await table.give_to_bot(table.seats[1], "greedy")
            await table.start_game()
        return table.table_id, token

    result: tuple[str, str] = server.on_server(make)
    return result


def seat_state(server: LiveServer, table_id: str, seat: int) -> dict[str, Any]:
    return dict(server.state.registry.tables[table_id].state.seats[seat].public_json())
