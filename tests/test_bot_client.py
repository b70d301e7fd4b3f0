"""`tranque bot run`'s protocol client (terminal/bot_client.py), in process: frames in, messages
out, no server. It follows its table when matched, chooses from the view of a `sync` that is
still the table's, asks for a fresh one when events came since, says «listo» after each round
and stops after its games. (tests/server/accounts/test_bot_clients.py plays it against a real server.)
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tranque.engine import Action, Game, PlayerView, Rules
from tranque.terminal.bot_client import BotClient, Report

Message = dict[str, Any]


class Wire:
    """What the client sends, read back as JSON."""

    def __init__(self) -> None:
        self.sent: list[Message] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    def types(self) -> list[str]:
        return [message["type"] for message in self.sent]


def sync_of(game: Game, seat: int, seq: int) -> Message:
    return {"type": "sync", "seq": seq, "rules": game.rules.to_json(), "view": game.view(seat).to_json()}


def client(games: int = 1) -> tuple[BotClient, Wire, list[PlayerView], list[int]]:
    seen: list[PlayerView] = []
    ended: list[int] = []

    def choose(view: PlayerView) -> Action:
        seen.append(view)
        return view.legal_actions[-1]

    bot = BotClient(choose, games, Report(game_over=lambda number, data: ended.append(number)))
    wire = Wire()
    bot.socket = wire
    return bot, wire, seen, ended


def test_it_plays_from_the_latest_sync_and_asks_again_once_events_came() -> None:
    game = Game(Rules.preset("clasico", players=2), seed=4)
    seat = game.turn
    assert seat is not None
    bot, wire, seen, _ = client()

    async def script() -> None:
        await bot.on({"type": "matched", "table": "T1", "seat": seat, "token": "seat-token"})
        assert wire.sent[-1] == {"type": "hello", "id": 1, "table": "T1", "token": "seat-token"}
        await bot.on({"type": "options", "turn_id": 1, "legal_actions": []})  # before the sync
        assert wire.types() == ["hello"]  # the sync on its way brings the turn again
        await bot.on(sync_of(game, seat, 5))
        await bot.on({"type": "options", "turn_id": 1, "legal_actions": []})
        assert seen == [game.view(seat)]  # exactly the engine's view of the seat
        assert wire.sent[-1] == {
            "type": "act",
            "id": 2,
            "action": game.view(seat).legal_actions[-1].to_json(),
            "turn_id": 1,
        }
        await bot.on({"type": "event", "seq": 6, "kind": "action", "data": {}})
        await bot.on({"type": "options", "turn_id": 3, "legal_actions": []})
        assert wire.types() == ["hello", "act", "hello"]  # the view is stale: a fresh one first
        assert len(seen) == 1

    asyncio.run(script())


def test_it_says_ready_after_a_round_and_stops_after_its_games() -> None:
    bot, wire, _, ended = client(games=2)

    async def script() -> list[bool]:
        done = [await bot.on({"type": "event", "seq": 9, "kind": "round_ended", "data": {}})]
        done.append(
            await bot.on({"type": "event", "seq": 12, "kind": "game_ended", "data": {"scores": [100, 3]}})
        )
        done.append(
            await bot.on({"type": "event", "seq": 40, "kind": "game_ended", "data": {"scores": [5, 100]}})
        )
        return done

    assert asyncio.run(script()) == [False, False, True]
    assert wire.types() == ["ready", "quick_match"]  # a second game, then no third
    assert ended == [1, 2]


def test_refusals_are_reported_except_for_a_turn_already_over() -> None:
    refused: list[str] = []
    bot = BotClient(
        lambda view: view.legal_actions[0], 1, Report(refused=lambda m: refused.append(m["code"]))
    )
    bot.socket = Wire()

    async def script() -> None:
        for code in ("stale", "not_your_turn", "rate_limited", "too_many_games"):
            await bot.on({"type": "error", "id": 1, "code": code, "message": "", "message_en": ""})

    asyncio.run(script())
    assert refused == ["rate_limited", "too_many_games"]
