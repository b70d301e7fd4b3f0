"""WebSockets per place (`Settings.sockets_per_place`; addresses.py: an IPv6 /64 is one place):
one more is told why in an `error` frame and closed with 4031; closing one makes room. Against a
real uvicorn; the addresses are the test's `X-Forwarded-For`."""

from __future__ import annotations

import asyncio
import json

import websockets

from tests.server.support.harness import LiveServer, Player, fast_settings
from tranque.server.ws.endpoint import CROWDED_CLOSE


def test_a_place_may_open_so_many_sockets_and_no_more() -> None:
    with LiveServer(fast_settings(sockets_per_place=3)) as server:

        async def scenario() -> None:
            here = [Player(server, headers={"X-Forwarded-For": f"2001:db8:1:2::{i}"}) for i in range(1, 4)]
            for player in here:
                await player.connect()
                assert (await player.request({"type": "ping"})).get("pong") is True
            async with websockets.connect(
                server.ws, additional_headers={"X-Forwarded-For": "2001:db8:1:2::99"}
            ) as crowded:
                refusal = json.loads(await crowded.recv())
                assert (refusal["type"], refusal["code"]) == ("error", "too_many_sockets")
                assert "3" in refusal["message"] and "3" in refusal["message_en"]
                await crowded.wait_closed()
                assert crowded.close_code == CROWDED_CLOSE
            async with Player(server, headers={"X-Forwarded-For": "2001:db8:1:3::1"}) as elsewhere:
                assert (await elsewhere.request({"type": "ping"})).get("pong") is True
            await here[0].close()
            while server.state.sockets_by_place["2001:db8:1:2::/64"] >= 3:
                await asyncio.sleep(0.01)
            async with Player(server, headers={"X-Forwarded-For": "2001:db8:1:2::99"}) as again:
                assert (await again.request({"type": "ping"})).get("pong") is True
            for player in here[1:]:
                await player.close()

        asyncio.run(scenario())
