"""Live games against the machine per place (addresses.py `place`): the addresses of one IPv6
/64 are one place, so they share `Limits.live_games_per_address` (docs/protocol.md, «HTTP
limits»). Against a real uvicorn; the addresses are the test's `X-Forwarded-For`."""

from __future__ import annotations

import httpx

from tests.server.support.harness import LiveServer, fast_settings
from tranque.server.lobby.limits import Limits


def practice(server: LiveServer, address: str) -> httpx.Response:
    return httpx.post(
        f"{server.http}/api/practice",
        json={"bot_level": "random"},
        headers={"X-Forwarded-For": address},
        timeout=30,
    )


def test_N3b_practice_games_from_one_ipv6_64_share_one_quota() -> None:
    with LiveServer(fast_settings(limits=Limits(live_games_per_address=2))) as server:
        answers = [practice(server, f"2001:db8:1:2::{i:x}") for i in range(1, 5)]
        assert [a.status_code for a in answers] == [200, 200, 429, 429]
        assert answers[-1].json()["code"] == "too_many_games"
        assert len(server.state.registry.tables) == 2  # the refused ones left nothing
        assert practice(server, "2001:db8:1:3::1").status_code == 200  # the next /64
