"""`tranque bot run`'s protocol client (terminal/bot_client.py), in process: frames in, messages
out, no server. It follows its table when matched, keeps the seat's view from the `sync` and
the events (never asking for the table again to choose), says «listo» only between rounds,
sends a message again after `rate_limited`, tells a seat covered by the server's bot, and
stops after its games. (tests/server/accounts/test_bot_run.py and test_bot_clients.py play it
against a real server.)
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from tranque.engine import Action, Game, PlayerView, Rules
from tranque.terminal.bot_client import BotClient, Report
from tranque.terminal.pace import Pace

Message = dict[str, Any]


class Wire:
    """What the client sends, read back as JSON."""

    def __init__(self) -> None:
        self.sent: list[Message] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))

    async def close(self) -> None:
        pass

    def types(self) -> list[str]:
        return [message["type"] for message in self.sent]


def sync_of(game: Game, seat: int, seq: int, turn_id: int = 1) -> Message:
    return {
        "type": "sync",
        "seq": seq,
        "you": seat,
        "phase": "playing",
        "rules": game.rules.to_json(),
        "view": game.view(seat).to_json(),
        "turn": {"seat": game.turn, "turn_id": turn_id, "deadline": 0.0},
        "seats": [{"seat": s, "state": "present"} for s in range(game.rules.players)],
        "results": [],
        "round": game.round_number,
    }


def client(games: int = 1, pace: Pace | None = None) -> tuple[BotClient, Wire, list[PlayerView], Report]:
    seen: list[PlayerView] = []

    def choose(view: PlayerView) -> Action:
        seen.append(view)
        return view.legal_actions[-1]

    report = Report()
    bot = BotClient(choose, games, report, pace or Pace(1000, 1000.0))
    wire = Wire()
    bot.socket = wire
    return bot, wire, seen, report


async def settled(bot: BotClient) -> None:
    """Wait for the choice in its thread, and for the message it sends."""
    while bot.thinking is not None or bot.tasks:
        await asyncio.sleep(0.001)


def test_it_plays_on_the_view_it_keeps_from_the_events_one_message_a_turn() -> None:
    game = Game(Rules.preset("clasico", players=2), seed=4)
    seat = game.turn
    assert seat is not None
    other = 1 - seat
    bot, wire, seen, _ = client()

    async def script() -> None:
        await bot.on({"type": "matched", "table": "T1", "seat": seat, "token": "seat-token"})
        assert wire.sent[-1] == {"type": "hello", "id": 1, "table": "T1", "token": "seat-token"}
        await bot.on({"type": "options", "turn_id": 1, "legal_actions": []})  # before the sync
        assert wire.types() == ["hello"]  # the sync on its way brings the turn again
        await bot.on(sync_of(game, seat, 5))
        legal = [a.to_json() for a in game.legal_actions()]
        await bot.on({"type": "options", "turn_id": 1, "legal_actions": legal})
        await settled(bot)
        assert seen == [game.view(seat)]  # exactly the engine's view of the seat
        mine = game.view(seat).legal_actions[-1]
        assert wire.sent[-1] == {"type": "act", "id": 2, "action": mine.to_json(), "turn_id": 1}
        game.apply(mine)
        # The server's events for that play, then the other seat's turn, its play, and ours again.
        ends = list(game.round.ends or ())
        await bot.on(
            event(6, "action", {"seat": seat, "action": mine.to_json(), "by": "human", "ends": ends})
        )
        await bot.on(event(7, "turn", {"seat": other, "turn_id": 2, "deadline": 0.0, "auto": False}))
        theirs = game.legal_actions()[0]
        game.apply(theirs)
        ends = list(game.round.ends or ())
        await bot.on(
            event(8, "action", {"seat": other, "action": theirs.to_json(), "by": "human", "ends": ends})
        )
        await bot.on(event(9, "turn", {"seat": seat, "turn_id": 3, "deadline": 0.0, "auto": False}))
        legal = [a.to_json() for a in game.legal_actions()]
        await bot.on({"type": "options", "turn_id": 3, "legal_actions": legal})
        await settled(bot)
        assert seen[-1] == game.view(seat)  # folded from the events, no sync asked for
        assert wire.types() == ["hello", "act", "act"]

    asyncio.run(script())


def event(seq: int, kind: str, data: Message) -> Message:
    return {"type": "event", "seq": seq, "kind": kind, "at": 0.0, "data": data}


def test_an_act_for_a_turn_that_is_over_is_not_sent() -> None:
    game = Game(Rules.preset("clasico", players=2), seed=4)
    seat = game.turn
    assert seat is not None
    bot, wire, _, _ = client()

    async def script() -> None:
        await bot.on({"type": "matched", "table": "T1", "seat": seat, "token": "seat-token"})
        await bot.on(sync_of(game, seat, 5))
        legal = [a.to_json() for a in game.legal_actions()]
        await bot.on({"type": "options", "turn_id": 1, "legal_actions": legal})
        # The clock played for the seat before the choice came back.
        timeout = game.legal_actions()[0]
        game.apply(timeout)
        ends = list(game.round.ends or ())
        await bot.on(
            event(6, "action", {"seat": seat, "action": timeout.to_json(), "by": "timeout", "ends": ends})
        )
        await settled(bot)

    asyncio.run(script())
    assert wire.types() == ["hello"]


def test_it_says_ready_only_between_rounds_and_stops_after_its_games() -> None:
    game = Game(Rules.preset("clasico", players=2), seed=4)
    bot, wire, _, _ = client(games=2)

    def round_ended(seq: int, scores: list[int]) -> Message:
        return event(seq, "round_ended", {"result": {}, "hands": [[], []], "scores": scores, "goals": [0, 0]})

    async def script() -> list[bool]:
        await bot.on({"type": "matched", "table": "T1", "seat": 0, "token": "t"})
        await bot.on(sync_of(game, 0, 8))
        done = [await bot.on(round_ended(9, [40, 12]))]  # the game goes on: ready
        done.append(await bot.on(round_ended(10, [104, 12])))  # the game is over: no ready
        done.append(
            await bot.on(event(11, "game_ended", {"scores": [104, 12], "winners": [0], "reason": "target"}))
        )
        await bot.on({"type": "matched", "table": "T2", "seat": 1, "token": "u"})
        await bot.on(sync_of(game, 1, 3))
        done.append(
            await bot.on(event(4, "game_ended", {"scores": [5, 100], "winners": [1], "reason": "target"}))
        )
        return done

    assert asyncio.run(script()) == [False, False, False, True]
    assert wire.types() == ["hello", "ready", "quick_match", "hello"]  # a second game, then no third
    assert bot.outcome.played == 2


def test_after_rate_limited_it_waits_as_told_and_sends_the_message_again() -> None:
    bot, wire, _, _ = client()

    async def script() -> float:
        await bot.on({"type": "matched", "table": "T1", "seat": 0, "token": "t"})
        started = time.monotonic()
        refusal = {"type": "error", "id": 1, "code": "rate_limited", "message": "", "message_en": ""}
        await bot.on({**refusal, "retry_after": 0.2})
        return time.monotonic() - started

    waited = asyncio.run(script())
    assert wire.sent == [
        {"type": "hello", "id": 1, "table": "T1", "token": "t"},
        {"type": "hello", "id": 2, "table": "T1", "token": "t"},
    ]
    assert waited >= 0.2
    assert bot.outcome.refusals["rate_limited"] == 1


def test_refusals_are_reported_except_for_a_turn_or_a_round_already_over() -> None:
    refused: list[str] = []
    bot = BotClient(
        lambda view: view.legal_actions[0], 1, Report(refused=lambda m: refused.append(m["code"]))
    )
    bot.socket = Wire()

    async def script() -> None:
        for code in ("stale", "not_your_turn", "not_between_rounds", "too_many_games"):
            await bot.on({"type": "error", "id": 9, "code": code, "message": "", "message_en": ""})

    asyncio.run(script())
    assert refused == ["too_many_games"]


def test_a_refused_quick_match_stops_the_run() -> None:
    bot, _, _, _ = client()

    async def script() -> bool:
        await bot.send({"type": "quick_match"})
        return await bot.on(
            {"type": "error", "id": 1, "code": "too_many_games", "message": "", "message_en": ""}
        )

    assert asyncio.run(script()) is True
    assert bot.outcome.stopped_by is not None and bot.outcome.stopped_by["code"] == "too_many_games"


def test_a_seat_covered_is_told_taken_back_and_a_game_ended_covered_is_abandoned() -> None:
    game = Game(Rules.preset("clasico", players=2), seed=4)
    covered: list[tuple[str, int]] = []
    bot, wire, _, report = client(games=3)
    report.covered = lambda table, seat: covered.append((table, seat))

    def seat_event(seq: int, state: str) -> Message:
        return event(seq, "seat", {"seat": 0, "name": "R", "name_en": "R", "kind": "human", "state": state})

    async def script() -> bool:
        await bot.on({"type": "matched", "table": "T1", "seat": 0, "token": "t"})
        await bot.on(sync_of(game, 0, 8))
        await bot.on(seat_event(9, "covered"))
        await bot.on(seat_event(10, "present"))  # its `return` was taken
        await bot.on(seat_event(11, "covered"))
        return await bot.on(event(12, "game_ended", {"scores": [4, 100], "winners": [1], "reason": "target"}))

    assert asyncio.run(script()) is True  # it stops after that game, though it had 3 to play
    assert covered == [("T1", 0), ("T1", 0)]
    assert wire.types() == ["hello", "return", "return"]
    assert (bot.outcome.covered, bot.outcome.abandoned) == ([1], [1])
