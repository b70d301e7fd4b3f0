"""Fichas at the accounts' doors, through the real app on every backend: registering grants
the new account its fichas, logging in tops a balance below the floor up to it (once a day),
and with fichas off neither happens."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.conftest import empty_database_url
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, live, login, register
from tranque.server.fichas.ledger import Books, Kind, account

NAME = "cayetana"


def balance_and_kinds(server: LiveServer, user_id: int) -> tuple[int, list[str]]:
    """The account's balance, and its movements' kinds, newest first."""
    state = server.state

    async def read() -> tuple[int, list[str]]:
        history = await state.store.ficha_history(user_id, 10, None)
        return await state.store.ficha_balance(account(user_id)), [m.kind.value for m in history]

    return server.on_server(read)


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgresql"])
def test_registering_grants_and_logging_in_refills_to_the_floor(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = empty_database_url(backend, request, tmp_path)
    with live(url, fichas_grant=100, fichas_floor=300) as server, client(server) as http:
        answer = register(http, NAME)
        assert answer.status_code == 201, answer.text
        user_id = answer.json()["id"]
        assert balance_and_kinds(server, user_id) == (100, [Kind.GRANT.value])
        assert login(http, NAME).status_code == 200
        assert balance_and_kinds(server, user_id) == (300, [Kind.REFILL.value, Kind.GRANT.value])
        assert login(http, NAME).status_code == 200  # the same day: no second refill
        assert balance_and_kinds(server, user_id) == (300, [Kind.REFILL.value, Kind.GRANT.value])
        books = server.on_server(server.state.fichas.books)
        assert books == Books(300, 300, 0, 0)


def test_with_fichas_off_an_account_gets_none() -> None:
    with live(fichas_enabled=False) as server, client(server) as http:
        answer = register(http, NAME)
        assert answer.status_code == 201, answer.text
        assert login(http, NAME).status_code == 200
        assert balance_and_kinds(server, answer.json()["id"]) == (0, [])
        assert server.on_server(server.state.fichas.books) == Books(0, 0, 0, 0)
