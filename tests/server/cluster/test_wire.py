"""The messages between processes (cluster/wire.py): every kind travels and comes back equal,
kinds are stable strings, and messages of another release are read by the rolling-upgrade rule
(docs/design.md): unknown fields ignored, missing fields with a default take it, unknown kinds
logged once per kind and dropped, nothing raised."""

from __future__ import annotations

import logging
from typing import Any

import orjson
import pytest

from tranque.server.cluster import wire
from tranque.server.store import StoredEvent
from tranque.server.table import commands

SAMPLES: list[wire.Message] = [
    wire.TableEvents.of("t1", "node-a", 3, [StoredEvent(7, "dealt", {"hand": [1, 2]}, 1.5)]),
    wire.TableOwner(table_id="t1", owner="node-b", epoch=4, seq=9),
    wire.TableCall(
        call_id=1, sender="node-a", table_id="t1", request=wire.SubscribeRequest(ref="r", token="k")
    ),
    wire.TableCall(call_id=2, sender="node-a", table_id="t1", request=wire.UnsubscribeRequest(ref="r")),
    wire.TableCall(
        call_id=3,
        sender="node-a",
        table_id="t1",
        request=wire.SocketRequest(ref="r", token=None, command=wire.ReadyCommand(seat=2)),
    ),
    wire.TableCall(
        call_id=4, sender="node-a", table_id="t1", request=wire.RunRequest(command=wire.StartGameCommand())
    ),
    wire.TableReply(call_id=4, answer={"seq": 12}, seq=12),
    wire.TableReply(call_id=5, refusal=wire.RefusalText(key="stale", message="ya no", message_en="stale")),
    wire.PresenceOn(sender="node-a", user_id=5, sockets=2),
    wire.PresenceOff(sender="node-a", user_id=5),
    wire.PresenceSend(sender="node-a", user_id=5, text='{"type":"hello"}'),
    wire.PresenceMute(sender="node-a", user_id=5, muted=(6, 7)),
    wire.PresenceAsk(sender="node-a", ask_id=0, to=None),
    wire.PresenceAll(sender="node-a", accounts=((5, 2), (6, 0)), to="node-b", answers=3),
    wire.PresenceBye(sender="node-a"),
    wire.QuickJoin(
        sender="node-a", to="node-b", user_id=5, name="Ana", with_bots=True, since=12.25, origin="node-a"
    ),
    wire.QuickMatched(sender="node-b", to="node-a", user_id=5, since=12.25, frame={"type": "matched"}),
    wire.QuickCancel(sender="node-a", user_id=5, at=13.5),
    wire.QuickApart(sender="node-a", user_ids=(5, 6)),
    wire.QuickQueue(sender="node-b", user_ids=(5, 6, 8)),
    wire.QuickBoss(sender="node-b"),
    wire.QuickBye(sender="node-b"),
    wire.BotRevoked(bot_id=42),
    wire.AccountBarred(user_id=7, reason="account_suspended"),
]

# The kinds on the wire: renaming one breaks the bus between two releases.
KINDS = {
    "table.events",
    "table.owner",
    "table.call",
    "table.reply",
    "presence.on",
    "presence.off",
    "presence.send",
    "presence.mute",
    "presence.ask",
    "presence.all",
    "presence.bye",
    "quick.join",
    "quick.matched",
    "quick.cancel",
    "quick.apart",
    "quick.queue",
    "quick.boss",
    "quick.bye",
    "bot.revoked",
    "account.barred",
}

FORWARDED: dict[str, Any] = {
    "act": commands.Act(1, {"type": "pass"}, 17),
    "ready": commands.Ready(0),
    "phrase": commands.Phrase(2, "¡Capicúa!"),
    "vote": commands.Vote(3, True),
    "return_to_seat": commands.ReturnToSeat(1),
    "abandon": commands.Abandon(2),
    "rematch": commands.Rematch(None),
    "sit": commands.Sit(9, "Beto", 2, "203.0.113.9"),
    "stand": commands.Stand(9),
    "fill_with_bots": commands.FillWithBots(9, "greedy"),
    "account_seat": commands.AccountSeat(9),
    "start_game": commands.StartGame(),
    "hint": commands.Hint(0),
    "set_aside": commands.SetAside(9),
    "end_by_operator": commands.EndByOperator("la mesa se trabó"),
    "chat": commands.Chat(1, "¡Buenas, mesa!", True),
}


def hand_written(**fields: Any) -> bytes:
    """A message as another release would write it."""
    return orjson.dumps(fields)


def test_every_message_comes_back_equal_and_names_its_kind_and_version() -> None:
    assert {sample.kind for sample in SAMPLES} == KINDS
    for sample in SAMPLES:
        data = wire.encode(sample)
        raw = orjson.loads(data)
        assert raw["version"] == wire.VERSION
        assert raw["kind"] != type(sample).__name__
        assert wire.decode(data) == sample


def test_forwarded_commands_travel_under_stable_kinds_and_come_back_equal() -> None:
    assert set(FORWARDED) == wire.COMMAND_KINDS
    for kind, command in FORWARDED.items():
        assert wire.is_forwarded(command)
        call = wire.TableCall(
            call_id=1, sender="a", table_id="t", request=wire.RunRequest(command=wire.wire_command(command))
        )
        data = wire.encode(call)
        assert orjson.loads(data)["request"]["command"]["kind"] == kind
        decoded = wire.decode(data)
        assert isinstance(decoded, wire.TableCall) and isinstance(decoded.request, wire.RunRequest)
        assert decoded.request.command is not None
        assert decoded.request.command.command() == command


def test_commands_of_timers_and_bots_are_not_forwarded() -> None:
    assert not wire.is_forwarded(commands.Timeout(3))
    assert not wire.is_forwarded(commands.NextRound(2))


def test_a_previous_release_message_with_fewer_fields_takes_their_defaults() -> None:
    older = hand_written(
        version=wire.VERSION, kind="quick.join", sender="a", user_id=5, name="Ana", since=1.0, origin="a"
    )
    decoded = wire.decode(older)
    assert decoded == wire.QuickJoin(sender="a", to=None, user_id=5, name="Ana", since=1.0, origin="a")
    assert isinstance(decoded, wire.QuickJoin) and decoded.with_bots is False and decoded.address is None
    owner = wire.decode(hand_written(kind="table.owner", table_id="t", owner="b", epoch=2))
    assert owner == wire.TableOwner(table_id="t", owner="b", epoch=2, seq=0)


def test_a_next_release_message_with_unknown_fields_reads_without_them() -> None:
    newer = hand_written(
        version=wire.VERSION + 1, kind="presence.on", sender="a", user_id=5, sockets=1, device="phone"
    )
    decoded = wire.decode(newer)
    assert decoded == wire.PresenceOn(version=wire.VERSION + 1, sender="a", user_id=5, sockets=1)
    assert "device" not in orjson.loads(wire.encode(decoded))


def test_an_unknown_kind_is_dropped_and_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=wire.__name__)
    newer = hand_written(version=wire.VERSION + 1, kind="table.teleport", table_id="t", to="b")
    assert wire.decode(newer) is None
    assert wire.decode(newer) is None
    assert wire.decode(hand_written(kind="table.teleport")) is None
    noted = [record for record in caplog.records if "'table.teleport'" in record.getMessage()]
    assert len(noted) == 1
    assert noted[0].levelno == logging.WARNING


def test_an_unknown_forwarded_command_reads_as_none(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=wire.__name__)
    request = {"kind": "socket", "ref": "r", "command": {"kind": "shuffle_again", "seat": 1}}
    data = hand_written(kind="table.call", call_id=9, sender="b", table_id="t", request=request)
    for _ in range(2):
        decoded = wire.decode(data)
        assert isinstance(decoded, wire.TableCall) and isinstance(decoded.request, wire.SocketRequest)
        assert decoded.request.ref == "r" and decoded.request.command is None
    assert len([record for record in caplog.records if "'shuffle_again'" in record.getMessage()]) == 1


def test_what_does_not_read_as_a_message_is_dropped(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger=wire.__name__)
    assert wire.decode(b"not json") is None
    assert wire.decode(hand_written(k="ev", t="t1")) is None  # no kind at all
    assert wire.decode(hand_written(kind="presence.off", sender="a")) is None  # no user_id
    assert wire.decode(hand_written(kind="bot.revoked", bot_id="many")) is None
    assert wire.decode(b"[1, 2]") is None
    assert any("'presence.off'" in record.getMessage() for record in caplog.records)
