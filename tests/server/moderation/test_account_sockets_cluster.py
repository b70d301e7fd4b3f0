"""A suspension or ban on one process closes the account's sockets on every process
(accounts/account_sockets.py), over the bus of a cluster: the in-process one and Redis
(shared_links.py)."""

from __future__ import annotations

import pytest

from tests.server.support.shared_links import KINDS, Links, settle, until
from tranque.server.accounts.account_sockets import AccountSockets
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

PEDRO, ANA = 7, 8


class FakeSocket:
    """What `AccountSockets` uses of a WebSocket: `close`, noted."""

    def __init__(self) -> None:
        self.closed: list[tuple[int, str]] = []

    async def close(self, code: int, reason: str = "") -> None:
        self.closed.append((code, reason))


async def _note(barred: list[tuple[int, int]], index: int, user_id: int) -> None:
    barred.append((index, user_id))


@pytest.mark.parametrize("kind", KINDS)
async def test_a_suspension_on_one_process_closes_the_accounts_sockets_on_the_others(kind: str) -> None:
    async with Links.of(kind, FakeClock()) as links:
        processes = []
        barred: list[tuple[int, int]] = []  # (process, account) each process set aside
        for index in range(3):
            bus, _ = await links.node()
            sockets = AccountSockets()
            sockets.share(bus, f"{links.prefix}:accounts")
            sockets.on_barred = lambda user_id, index=index: _note(barred, index, user_id)
            await sockets.start()
            processes.append(sockets)
        here, there, elsewhere = processes
        await settle(links)
        on_there, also_there, other = FakeSocket(), FakeSocket(), FakeSocket()
        there.add(PEDRO, on_there)  # type: ignore[arg-type]
        elsewhere.add(PEDRO, also_there)  # type: ignore[arg-type]
        there.add(ANA, other)  # type: ignore[arg-type]

        await here.close(PEDRO, "account_suspended")  # a process where Pedro has no socket
        await until(lambda: on_there.closed and also_there.closed, "both of Pedro's sockets closed")
        assert on_there.closed == also_there.closed == [(LOGGED_OUT_CLOSE, "account_suspended")]
        await settle(links)
        assert other.closed == [] and there.count(ANA) == 1  # Ana plays on
        # The other processes also give Pedro's seats at their tables to the tables.
        assert {(1, PEDRO), (2, PEDRO)} <= set(barred) and ANA not in {user for _, user in barred}
        await there.close(PEDRO, "account_banned")  # those sockets are gone: none closed twice
        await settle(links)
        assert on_there.closed == also_there.closed == [(LOGGED_OUT_CLOSE, "account_suspended")]


@pytest.mark.parametrize("kind", KINDS)
async def test_an_admin_closing_sockets_closes_them_everywhere_and_bars_nothing(kind: str) -> None:
    async with Links.of(kind, FakeClock()) as links:
        processes = []
        barred: list[tuple[int, int]] = []
        for index in range(2):
            bus, _ = await links.node()
            sockets = AccountSockets()
            sockets.share(bus, f"{links.prefix}:accounts")
            sockets.on_barred = lambda user_id, index=index: _note(barred, index, user_id)
            await sockets.start()
            processes.append(sockets)
        here, there = processes
        await settle(links)
        socket = FakeSocket()
        there.add(PEDRO, socket)  # type: ignore[arg-type]
        await here.close(PEDRO, "closed_by_admin")
        await until(lambda: socket.closed, "Pedro's socket closed")
        await settle(links)
        assert socket.closed == [(LOGGED_OUT_CLOSE, "closed_by_admin")]
        assert barred == []  # not a sanction: the seats stay the account's
