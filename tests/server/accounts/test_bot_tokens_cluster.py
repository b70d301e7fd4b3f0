"""A bot's token revoked on one process closes the bot's sockets on every process (bot_tokens.py),
over the bus of a cluster: the in-process one and Redis (shared_links.py)."""

from __future__ import annotations

import pytest

from tests.server.support.shared_links import KINDS, Links, settle, until
from tranque.server.accounts.bot_tokens import TOKEN_REVOKED_CLOSE, BotSockets
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

ROBOTINA, ROBOTIN = 7, 8


class FakeSocket:
    """What `BotSockets` uses of a WebSocket: `close`, noted."""

    def __init__(self) -> None:
        self.closed: list[tuple[int, str]] = []

    async def close(self, code: int, reason: str = "") -> None:
        self.closed.append((code, reason))


@pytest.mark.parametrize("kind", KINDS)
async def test_a_revocation_on_one_process_closes_the_bots_sockets_on_the_others(kind: str) -> None:
    async with Links.of(kind, FakeClock()) as links:
        processes = []
        for _ in range(3):
            bus, _ = await links.node()
            sockets = BotSockets()
            sockets.share(bus, f"{links.prefix}:bot_tokens")
            await sockets.start()
            processes.append(sockets)
        here, there, elsewhere = processes
        await settle(links)
        on_there, also_there, other_bot = FakeSocket(), FakeSocket(), FakeSocket()
        there.add(ROBOTINA, on_there)  # type: ignore[arg-type]
        elsewhere.add(ROBOTINA, also_there)  # type: ignore[arg-type]
        there.add(ROBOTIN, other_bot)  # type: ignore[arg-type]

        await here.revoke(ROBOTINA)  # a process where the bot has no socket
        await until(lambda: on_there.closed and also_there.closed, "both of the bot's sockets closed")
        assert on_there.closed == also_there.closed == [(TOKEN_REVOKED_CLOSE, "token_revoked")]
        await settle(links)
        assert other_bot.closed == []  # another bot plays on
        await there.revoke(ROBOTINA)  # again: those sockets are gone, none is closed twice
        await settle(links)
        assert on_there.closed == also_there.closed == [(TOKEN_REVOKED_CLOSE, "token_revoked")]
