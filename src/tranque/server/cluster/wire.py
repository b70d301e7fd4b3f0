"""Every message that crosses between server processes over the bus, typed and versioned.

Each message is a frozen `msgspec.Struct` with readable field names and a stable `kind`
string (its tag), and carries the wire `version` of the release that wrote it. msgspec reads
and writes them in C: about a third of the time pydantic took, which two processes near
full load feel in their latency. `encode` and `decode`
are the one place where messages become bytes and bytes become messages.

Two releases share the bus during a rolling upgrade (docs/design.md, "The wire between
processes"), so `decode` reads generously: fields it does not know are ignored, a missing
field that has a default takes it, and a message of a kind it does not know is logged once
per kind and dropped (`decode` returns None). A table command of a kind it does not know,
forwarded to this process as the owner, arrives as `command=None` and is refused. Anything
else that does not read as a message (not JSON, a field of the wrong type, a required field
missing) is logged once per kind too and dropped. So a field added later needs a default,
and a field whose meaning changes needs a new kind.

The module is the one catalogue of what crosses between processes: kept whole so that it
is read together.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any, ClassVar, cast

import msgspec

from tranque.server.store import StoredEvent
from tranque.server.table import commands

log = logging.getLogger(__name__)

VERSION = 1  # the wire version this release writes


class _Value(msgspec.Struct, frozen=True, kw_only=True):
    """A value inside a message: frozen, read with unknown fields ignored."""


class _Tagged(_Value, tag_field="kind", frozen=True, kw_only=True):
    """A value of one of several kinds: its `kind` is its tag on the wire."""

    @property
    def kind(self) -> str:
        return str(type(self).__struct_config__.tag)


class Message(_Tagged, frozen=True, kw_only=True):
    """What every message carries besides its own fields."""

    version: int = VERSION


# The owners' events, heard by every process ------------------------------------------------


class WireEvent(_Value, frozen=True, kw_only=True):
    """One stored table event (`StoredEvent`) as it travels."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class TableEvents(Message, tag="table.events", frozen=True, kw_only=True):
    """The events one command of the owner stored, in order."""

    table_id: str
    owner: str
    epoch: int | None = None
    events: tuple[WireEvent, ...] = ()

    @classmethod
    def of(cls, table_id: str, owner: str, epoch: int | None, events: list[StoredEvent]) -> TableEvents:
        wired = tuple(WireEvent(seq=e.seq, kind=e.kind, data=e.data, at=e.at) for e in events)
        return cls(table_id=table_id, owner=owner, epoch=epoch, events=wired)

    def stored(self) -> list[StoredEvent]:
        return [StoredEvent(event.seq, event.kind, event.data, event.at) for event in self.events]


class TableOwner(Message, tag="table.owner", frozen=True, kw_only=True):
    """A process took a table over, at `epoch`, with the log at `seq`."""

    table_id: str
    owner: str
    epoch: int
    seq: int = 0


# Table commands forwarded by a replica to the owner ------------------------------------------


class WireCommand(_Tagged, frozen=True, kw_only=True):
    """A table command (table/commands.py) as it travels: its fields, under its own kind."""

    command_type: ClassVar[type[Any]]

    def command(self) -> Any:
        return self.command_type(**msgspec.structs.asdict(self))


class ActCommand(WireCommand, tag="act", frozen=True, kw_only=True):
    command_type = commands.Act
    seat: int | None
    action: dict[str, Any]
    turn_id: int | None = None


class ReadyCommand(WireCommand, tag="ready", frozen=True, kw_only=True):
    command_type = commands.Ready
    seat: int | None


class PhraseCommand(WireCommand, tag="phrase", frozen=True, kw_only=True):
    command_type = commands.Phrase
    seat: int | None
    phrase: str


class ChatCommand(WireCommand, tag="chat", frozen=True, kw_only=True):
    command_type = commands.Chat
    seat: int | None
    text: str
    among_friends: bool = False


class VoteCommand(WireCommand, tag="vote", frozen=True, kw_only=True):
    command_type = commands.Vote
    seat: int | None
    agree: bool


class ReturnToSeatCommand(WireCommand, tag="return_to_seat", frozen=True, kw_only=True):
    command_type = commands.ReturnToSeat
    seat: int | None


class AbandonCommand(WireCommand, tag="abandon", frozen=True, kw_only=True):
    command_type = commands.Abandon
    seat: int | None


class RematchCommand(WireCommand, tag="rematch", frozen=True, kw_only=True):
    command_type = commands.Rematch
    seat: int | None


class SitCommand(WireCommand, tag="sit", frozen=True, kw_only=True):
    command_type = commands.Sit
    user_id: int
    name: str
    seat: int | None = None
    address: str | None = None


class StandCommand(WireCommand, tag="stand", frozen=True, kw_only=True):
    command_type = commands.Stand
    user_id: int


class FillWithBotsCommand(WireCommand, tag="fill_with_bots", frozen=True, kw_only=True):
    command_type = commands.FillWithBots
    user_id: int
    level: str


class AccountSeatCommand(WireCommand, tag="account_seat", frozen=True, kw_only=True):
    command_type = commands.AccountSeat
    user_id: int
    address: str | None = None


class SetAsideCommand(WireCommand, tag="set_aside", frozen=True, kw_only=True):
    command_type = commands.SetAside
    user_id: int


class StartGameCommand(WireCommand, tag="start_game", frozen=True, kw_only=True):
    command_type = commands.StartGame


class HintCommand(WireCommand, tag="hint", frozen=True, kw_only=True):
    command_type = commands.Hint
    seat: int | None


class EndByOperatorCommand(WireCommand, tag="end_by_operator", frozen=True, kw_only=True):
    command_type = commands.EndByOperator
    reason: str


AnyCommand = (
    ActCommand
    | ReadyCommand
    | PhraseCommand
    | VoteCommand
    | ReturnToSeatCommand
    | AbandonCommand
    | RematchCommand
    | SitCommand
    | StandCommand
    | FillWithBotsCommand
    | AccountSeatCommand
    | SetAsideCommand
    | StartGameCommand
    | HintCommand
    | EndByOperatorCommand
    | ChatCommand
)

_WIRE_COMMANDS: dict[type[Any], type[WireCommand]] = {
    cls.command_type: cls
    for cls in (
        ActCommand,
        ReadyCommand,
        PhraseCommand,
        VoteCommand,
        ReturnToSeatCommand,
        AbandonCommand,
        RematchCommand,
        SitCommand,
        StandCommand,
        FillWithBotsCommand,
        AccountSeatCommand,
        SetAsideCommand,
        StartGameCommand,
        HintCommand,
        EndByOperatorCommand,
        ChatCommand,
    )
}
COMMAND_KINDS = frozenset(str(cls.__struct_config__.tag) for cls in _WIRE_COMMANDS.values())


def is_forwarded(command: object) -> bool:
    """Whether a replica may send `command` to the owner (a timer's or a bot's may not)."""
    return type(command) in _WIRE_COMMANDS


def wire_command(command: object) -> AnyCommand:
    """`command` as it travels; only for a command `is_forwarded` accepts."""
    fields = dataclasses.asdict(command)  # type: ignore[call-overload]
    return cast(AnyCommand, msgspec.convert(fields, _WIRE_COMMANDS[type(command)]))


class SubscribeRequest(_Tagged, tag="subscribe", frozen=True, kw_only=True):
    """A socket of the calling process follows the table (as the account of `token`)."""

    ref: str
    token: str | None = None
    address: str | None = None  # the socket's, which the owner keeps as a key (commands.Subscribe)
    admitted: bool = False  # a spectator the table's policy lets watch (talk/watching.py)


class UnsubscribeRequest(_Tagged, tag="unsubscribe", frozen=True, kw_only=True):
    ref: str


class SocketRequest(_Tagged, tag="socket", frozen=True, kw_only=True):
    """A command from a socket of the calling process, for the seat it may act for."""

    ref: str
    token: str | None = None
    command: AnyCommand | None
    address: str | None = None


class RunRequest(_Tagged, tag="run", frozen=True, kw_only=True):
    """A command of a request of the calling process (HTTP, quick match)."""

    command: AnyCommand | None


Request = SubscribeRequest | UnsubscribeRequest | SocketRequest | RunRequest
REQUEST_KINDS = frozenset({"subscribe", "unsubscribe", "socket", "run"})


class TableCall(Message, tag="table.call", frozen=True, kw_only=True):
    """A replica asks the owner of `table_id`; the answer comes back to `sender` as a
    `TableReply` with the same `call_id`."""

    call_id: int
    sender: str
    table_id: str
    request: Request | None


class RefusalText(_Value, frozen=True, kw_only=True):
    """An owner's refusal: its catalogue key and both texts."""

    key: str
    message: str
    message_en: str


class TableReply(Message, tag="table.reply", frozen=True, kw_only=True):
    """The owner's answer to a `TableCall`: `answer` and its last event sent (`seq`), or a
    `refusal`."""

    call_id: int
    answer: Any = None
    seq: int = 0
    refusal: RefusalText | None = None


# Presence (lobby/presence.py): each process's online accounts ------------------------------


class PresenceOn(Message, tag="presence.on", frozen=True, kw_only=True):
    """`user_id` has `sockets` open on `sender` (0: its last closed, in its grace there)."""

    sender: str
    user_id: int
    sockets: int


class PresenceOff(Message, tag="presence.off", frozen=True, kw_only=True):
    sender: str
    user_id: int


class PresenceSend(Message, tag="presence.send", frozen=True, kw_only=True):
    """A frame (`text`, encoded once) for every socket of `user_id`."""

    sender: str
    user_id: int
    text: str


class PresenceMute(Message, tag="presence.mute", frozen=True, kw_only=True):
    sender: str
    user_id: int
    muted: tuple[int, ...] = ()


class PresenceAsk(Message, tag="presence.ask", frozen=True, kw_only=True):
    """`sender` asks `to` (None: every process) for its whole list; `ask_id` numbers it."""

    sender: str
    ask_id: int
    to: str | None = None


class PresenceAll(Message, tag="presence.all", frozen=True, kw_only=True):
    """`sender`'s whole list, (account, sockets) pairs; an answer to `to`'s ask `answers`."""

    sender: str
    accounts: tuple[tuple[int, int], ...] = ()
    to: str | None = None
    answers: int | None = None


class PresenceBye(Message, tag="presence.bye", frozen=True, kw_only=True):
    sender: str


# Quick match (lobby/quickmatch.py): the players, between their process and the matchmaker ---


class QuickJoin(Message, tag="quick.join", frozen=True, kw_only=True):
    """A player who joined on `origin`, waiting since `since`, sent to matchmaker `to`."""

    sender: str
    to: str | None = None
    user_id: int
    name: str
    with_bots: bool = False
    since: float
    address: str | None = None
    origin: str


class QuickMatched(Message, tag="quick.matched", frozen=True, kw_only=True):
    """The matchmaker seated `user_id` (waiting since `since`): `frame` is for its socket."""

    sender: str
    to: str
    user_id: int
    since: float
    frame: dict[str, Any]


class QuickCancel(Message, tag="quick.cancel", frozen=True, kw_only=True):
    """Whatever wait of `user_id` began by `at` ends."""

    sender: str
    user_id: int
    at: float


class QuickApart(Message, tag="quick.apart", frozen=True, kw_only=True):
    """One of the two accounts has just blocked the other."""

    sender: str
    user_ids: tuple[int, int]


class QuickQueue(Message, tag="quick.queue", frozen=True, kw_only=True):
    """The matchmaker's queue (and the players it is seating)."""

    sender: str
    user_ids: tuple[int, ...] = ()


class QuickBoss(Message, tag="quick.boss", frozen=True, kw_only=True):
    """`sender` is the matchmaker."""

    sender: str


class QuickBye(Message, tag="quick.bye", frozen=True, kw_only=True):
    sender: str


# Bot tokens (accounts/bot_tokens.py) --------------------------------------------------------


class BotRevoked(Message, tag="bot.revoked", frozen=True, kw_only=True):
    """The bot's token no longer holds: every process closes its sockets."""

    bot_id: int


# Moderation (moderation/enforce.py, accounts/account_sockets.py) ------------------------------


class AccountBarred(Message, tag="account.barred", frozen=True, kw_only=True):
    """The account was suspended or banned: every process closes its sockets (`reason`)."""

    user_id: int
    reason: str


# Spreading the tables over the processes (cluster/balance.py) ---------------------------------


class NodeStatus(Message, tag="node.status", frozen=True, kw_only=True):
    """What a process has, said to every process every `status_seconds`."""

    node: str
    owned: int
    replicas: int
    sockets: int = 0
    draining: bool = False


class HandOver(Message, tag="table.hand_over", frozen=True, kw_only=True):
    """The sender gave the table's lease back, between two commands: the receiver takes it over."""

    table_id: str
    sender: str
    seq: int = 0


class Drain(Message, tag="node.drain", frozen=True, kw_only=True):
    """The receiving process stops taking tables and hands over all it owns."""

    node: str


AnyMessage = (
    TableEvents
    | TableOwner
    | NodeStatus
    | HandOver
    | Drain
    | TableCall
    | TableReply
    | PresenceOn
    | PresenceOff
    | PresenceSend
    | PresenceMute
    | PresenceAsk
    | PresenceAll
    | PresenceBye
    | QuickJoin
    | QuickMatched
    | QuickCancel
    | QuickApart
    | QuickQueue
    | QuickBoss
    | QuickBye
    | BotRevoked
    | AccountBarred
)
_DECODER = msgspec.json.Decoder(AnyMessage)
MESSAGE_KINDS = frozenset(str(cls.__struct_config__.tag) for cls in AnyMessage.__args__)
_ENCODER = msgspec.json.Encoder()


def encode(message: Message) -> bytes:
    """`message` as the bytes published on the bus."""
    return _ENCODER.encode(message)


def decode(data: bytes | str) -> AnyMessage | None:
    """The message in `data`; None (logged once per kind) for one this release cannot read."""
    try:
        return _DECODER.decode(data)
    except msgspec.ValidationError as error:
        return _decode_slowly(data, error)
    except msgspec.DecodeError as error:
        _note_once("unreadable bytes", "wire: dropping messages that are not JSON (%s)", error)
        return None


def _decode_slowly(data: bytes | str, error: msgspec.ValidationError) -> AnyMessage | None:
    """A message that did not read as one of ours: of a kind this release does not know
    (dropped, logged once per kind), or carrying a request or a table command of a kind it
    does not know (which then reads as None, and the owner refuses it), or not a message."""
    fields = msgspec.json.decode(data)
    kind = fields.get("kind") if isinstance(fields, dict) else None
    if not isinstance(fields, dict) or kind is None:
        _note_once("unreadable untagged", "wire: dropping unreadable untagged messages (%s)", error)
        return None
    if kind not in MESSAGE_KINDS:
        _note_unknown(f"message {kind!r}")
        return None
    request = fields.get("request")
    if isinstance(request, dict):
        if request.get("kind") not in REQUEST_KINDS:
            _note_unknown(f"request {request.get('kind')!r}")
            fields["request"] = None
        elif isinstance(request.get("command"), dict) and request["command"].get("kind") not in COMMAND_KINDS:
            _note_unknown(f"command {request['command'].get('kind')!r}")
            request["command"] = None
    try:
        return cast(AnyMessage, msgspec.convert(fields, AnyMessage))
    except msgspec.ValidationError as still:
        text = "wire: dropping unreadable %r messages (%s)"
        _note_once(f"unreadable {kind!r}", text, kind, still)
        return None


_noted: set[str] = set()  # what this process has logged already


def _note_once(key: str, text: str, *args: object) -> None:
    if key not in _noted:
        _noted.add(key)
        log.warning(text, *args)


def _note_unknown(what: str) -> None:
    _note_once(f"unknown {what}", "wire: dropping every %s: this release does not know that kind", what)
