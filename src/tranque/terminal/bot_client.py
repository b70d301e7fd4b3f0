"""A bot account's client of the server's WebSocket protocol (docs/bots.md), for `tranque bot run`.

It speaks the protocol only: it joins the bots' quick match with the bot's token, follows
each table it is seated at, and on its turn hands `choose` the seat's `PlayerView` as the
server sent it (`PlayerView.from_json` of the `sync` frame's `view`), so a built-in level
plays on exactly what a person's seat is told. A view is as fresh as the last `sync`: when
events came since, the client asks for the table again (`hello`, which the server answers
with a new `sync` and the turn's `options` once more) before it chooses. The choice runs in a
thread, so the socket keeps answering the server meanwhile.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import websockets

from tranque.engine import Action, PlayerView, Rules

Message = dict[str, Any]
IGNORED = frozenset({"stale", "not_your_turn", "not_playing"})  # a turn already over: nothing to do


@dataclass
class Report:
    """What the client tells its user: each game's end, each refusal, the socket's close."""

    game_over: Callable[[int, Message], None] = lambda number, data: None
    refused: Callable[[Message], None] = lambda message: None


class Closed(Exception):
    """The server closed the socket: `code` and `reason` (4401 bad_token, 4002 token_revoked...)."""

    def __init__(self, code: int | None, reason: str) -> None:
        super().__init__(f"{code} {reason}")
        self.code = code
        self.reason = reason


class BotClient:
    def __init__(
        self, choose: Callable[[PlayerView], Action], games: int, report: Report | None = None
    ) -> None:
        self.choose = choose
        self.games_left = games
        self.played = 0
        self.report = report or Report()
        self.ids = itertools.count(1)
        self.socket: Any = None
        self.table: str | None = None
        self.token: str | None = None
        self.rules: Rules | None = None
        self.view: Message | None = None  # the last sync's view
        self.synced = False  # no event since that sync: the view is the table as it is
        self.resyncing = False

    async def run(self, url: str, bot_token: str) -> int:
        """Play `games` games from the bots' quick match; the number played."""
        headers = {"Authorization": f"Bearer {bot_token}"}
        try:
            async with websockets.connect(url, additional_headers=headers, max_size=1 << 22) as socket:
                self.socket = socket
                await self.send({"type": "quick_match"})
                async for text in socket:
                    if await self.on(json.loads(text)):
                        break
        except websockets.ConnectionClosed as closed:
            received = closed.rcvd
            raise Closed(received.code if received else None, received.reason if received else "") from None
        return self.played

    async def send(self, message: Message) -> None:
        await self.socket.send(json.dumps({**message, "id": next(self.ids)}))

    async def on(self, message: Message) -> bool:
        """Do what one frame calls for; True once the last game is over."""
        kind = message["type"]
        if kind == "matched":
            self.table, self.token = message["table"], message["token"]
            await self.hello()
        elif kind == "sync":
            self.rules = Rules.from_json(message["rules"])
            self.view, self.synced, self.resyncing = message["view"], True, False
        elif kind == "event":
            self.synced = False
            return await self.on_event(message["kind"], message["data"])
        elif kind == "options":
            await self.on_turn(message["turn_id"])
        elif kind == "error" and message["code"] not in IGNORED:
            self.report.refused(message)
        return False

    async def on_event(self, kind: str, data: Message) -> bool:
        if kind == "round_ended":
            await self.send({"type": "ready"})
        elif kind == "game_ended":
            self.played += 1
            self.games_left -= 1
            self.report.game_over(self.played, data)
            if self.games_left <= 0:
                return True
            self.table = self.token = None
            await self.send({"type": "quick_match"})
        return False

    async def on_turn(self, turn_id: int) -> None:
        if self.resyncing:
            return  # the sync on its way comes with this turn's options again
        if not self.synced or self.view is None or self.rules is None:
            await self.hello()
            return
        view = PlayerView.from_json(self.view, self.rules)
        action = await asyncio.to_thread(self.choose, view)
        await self.send({"type": "act", "action": action.to_json(), "turn_id": turn_id})

    async def hello(self) -> None:
        self.resyncing = True
        await self.send({"type": "hello", "table": self.table, "token": self.token})
