"""Every message that crosses between server processes over the bus, typed and versioned.

Each message is a frozen pydantic model with readable field names and a stable `kind`
string, and carries the wire `version` of the release that wrote it. `encode` and `decode`
are the one place where messages become bytes and bytes become messages.

Two releases share the bus during a rolling upgrade (docs/design.md, "The wire between
processes"), so `decode` reads generously: fields it does not know are ignored, a missing
field that has a default takes it, and a message of a kind it does not know is logged once
per kind and dropped (`decode` returns None). A table command of a kind it does not know,
forwarded to this process as the owner, arrives as `command=None` and is refused. Anything
else that does not read as a message (not JSON, a field of the wrong type, a required field
missing) is logged once per kind too and dropped. So a field added later needs a default,
and a field whose meaning changes needs a new kind.

The module is a little over 500 lines on purpose: it is the one catalogue of what crosses
between processes, and splitting it would scatter what must be read together.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Annotated, Any, ClassVar, Literal, cast

import pydantic_core
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from tranque.server.store import StoredEvent
from tranque.server.table import commands

log = logging.getLogger(__name__)

VERSION = 1  # the wire version this release writes


class _Value(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class Message(_Value):
    """What every message carries besides its own fields."""

    version: int = VERSION


# The owners' events, heard by every process ------------------------------------------------


class WireEvent(_Value):
    """One stored table event (`StoredEvent`) as it travels."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class TableEvents(Message):
    """The events one command of the owner stored, in order."""

    kind: Literal["table.events"] = "table.events"
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


class TableOwner(Message):
    """A process took a table over, at `epoch`, with the log at `seq`."""

    kind: Literal["table.owner"] = "table.owner"
    table_id: str
    owner: str
    epoch: int
    seq: int = 0


# Table commands forwarded by a replica to the owner ------------------------------------------


class WireCommand(_Value):
    """A table command (table/commands.py) as it travels: its fields, under its own kind."""

    command_type: ClassVar[type[Any]]

    def command(self) -> Any:
        return self.command_type(**self.model_dump(exclude={"kind"}))


class ActCommand(WireCommand):
    command_type = commands.Act
    kind: Literal["act"] = "act"
    seat: int | None
    action: dict[str, Any]
    turn_id: int | None = None


class ReadyCommand(WireCommand):
    command_type = commands.Ready
    kind: Literal["ready"] = "ready"
    seat: int | None


class PhraseCommand(WireCommand):
    command_type = commands.Phrase
    kind: Literal["phrase"] = "phrase"
    seat: int | None
    phrase: str


class VoteCommand(WireCommand):
    command_type = commands.Vote
    kind: Literal["vote"] = "vote"
    seat: int | None
    agree: bool


class ReturnToSeatCommand(WireCommand):
    command_type = commands.ReturnToSeat
    kind: Literal["return_to_seat"] = "return_to_seat"
    seat: int | None


class RematchCommand(WireCommand):
    command_type = commands.Rematch
    kind: Literal["rematch"] = "rematch"
    seat: int | None


class SitCommand(WireCommand):
    command_type = commands.Sit
    kind: Literal["sit"] = "sit"
    user_id: int
    name: str
    seat: int | None = None
    address: str | None = None


class StandCommand(WireCommand):
    command_type = commands.Stand
    kind: Literal["stand"] = "stand"
    user_id: int


class FillWithBotsCommand(WireCommand):
    command_type = commands.FillWithBots
    kind: Literal["fill_with_bots"] = "fill_with_bots"
    user_id: int
    level: str


class AccountSeatCommand(WireCommand):
    command_type = commands.AccountSeat
    kind: Literal["account_seat"] = "account_seat"
    user_id: int


class StartGameCommand(WireCommand):
    command_type = commands.StartGame
    kind: Literal["start_game"] = "start_game"


class HintCommand(WireCommand):
    command_type = commands.Hint
    kind: Literal["hint"] = "hint"
    seat: int | None


AnyCommand = (
    ActCommand
    | ReadyCommand
    | PhraseCommand
    | VoteCommand
    | ReturnToSeatCommand
    | RematchCommand
    | SitCommand
    | StandCommand
    | FillWithBotsCommand
    | AccountSeatCommand
    | StartGameCommand
    | HintCommand
)
ForwardedCommand = Annotated[AnyCommand, Field(discriminator="kind")]

_WIRE_COMMANDS: dict[type[Any], type[WireCommand]] = {
    cls.command_type: cls
    for cls in (
        ActCommand,
        ReadyCommand,
        PhraseCommand,
        VoteCommand,
        ReturnToSeatCommand,
        RematchCommand,
        SitCommand,
        StandCommand,
        FillWithBotsCommand,
        AccountSeatCommand,
        StartGameCommand,
        HintCommand,
    )
}
COMMAND_KINDS = frozenset(cls.model_fields["kind"].default for cls in _WIRE_COMMANDS.values())


def is_forwarded(command: object) -> bool:
    """Whether a replica may send `command` to the owner (a timer's or a bot's may not)."""
    return type(command) in _WIRE_COMMANDS


def wire_command(command: object) -> AnyCommand:
    """`command` as it travels; only for a command `is_forwarded` accepts."""
    fields = dataclasses.asdict(command)  # type: ignore[call-overload]
    return cast(AnyCommand, _WIRE_COMMANDS[type(command)].model_validate(fields))


def _known_command(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A command of a kind this release does not know reads as None (the owner refuses it)."""
    if isinstance(value, dict) and value.get("kind") not in COMMAND_KINDS:
        _note_unknown(f"command {value.get('kind')!r}")
        return None
    return handler(value)


class SubscribeRequest(_Value):
    """A socket of the calling process follows the table (as the account of `token`)."""

    kind: Literal["subscribe"] = "subscribe"
    ref: str
    token: str | None = None


class UnsubscribeRequest(_Value):
    kind: Literal["unsubscribe"] = "unsubscribe"
    ref: str


class SocketRequest(_Value):
    """A command from a socket of the calling process, for the seat it may act for."""

    kind: Literal["socket"] = "socket"
    ref: str
    token: str | None = None
    command: ForwardedCommand | None

    _known = field_validator("command", mode="wrap")(_known_command)


class RunRequest(_Value):
    """A command of a request of the calling process (HTTP, quick match)."""

    kind: Literal["run"] = "run"
    command: ForwardedCommand | None

    _known = field_validator("command", mode="wrap")(_known_command)


Request = Annotated[
    SubscribeRequest | UnsubscribeRequest | SocketRequest | RunRequest, Field(discriminator="kind")
]
REQUEST_KINDS = frozenset({"subscribe", "unsubscribe", "socket", "run"})


def _known_request(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    if isinstance(value, dict) and value.get("kind") not in REQUEST_KINDS:
        _note_unknown(f"request {value.get('kind')!r}")
        return None
    return handler(value)


class TableCall(Message):
    """A replica asks the owner of `table_id`; the answer comes back to `sender` as a
    `TableReply` with the same `call_id`."""

    kind: Literal["table.call"] = "table.call"
    call_id: int
    sender: str
    table_id: str
    request: Request | None

    _known = field_validator("request", mode="wrap")(_known_request)


class RefusalText(_Value):
    """An owner's refusal: its catalogue key and both texts."""

    key: str
    message: str
    message_en: str


class TableReply(Message):
    """The owner's answer to a `TableCall`: `answer` and its last event sent (`seq`), or a
    `refusal`."""

    kind: Literal["table.reply"] = "table.reply"
    call_id: int
    answer: Any = None
    seq: int = 0
    refusal: RefusalText | None = None


# Presence (lobby/presence.py): each process's online accounts ------------------------------


class PresenceOn(Message):
    """`user_id` has `sockets` open on `sender` (0: its last closed, in its grace there)."""

    kind: Literal["presence.on"] = "presence.on"
    sender: str
    user_id: int
    sockets: int


class PresenceOff(Message):
    kind: Literal["presence.off"] = "presence.off"
    sender: str
    user_id: int


class PresenceSend(Message):
    """A frame (`text`, encoded once) for every socket of `user_id`."""

    kind: Literal["presence.send"] = "presence.send"
    sender: str
    user_id: int
    text: str


class PresenceMute(Message):
    kind: Literal["presence.mute"] = "presence.mute"
    sender: str
    user_id: int
    muted: tuple[int, ...] = ()


class PresenceAsk(Message):
    """`sender` asks `to` (None: every process) for its whole list; `ask_id` numbers it."""

    kind: Literal["presence.ask"] = "presence.ask"
    sender: str
    ask_id: int
    to: str | None = None


class PresenceAll(Message):
    """`sender`'s whole list, (account, sockets) pairs; an answer to `to`'s ask `answers`."""

    kind: Literal["presence.all"] = "presence.all"
    sender: str
    accounts: tuple[tuple[int, int], ...] = ()
    to: str | None = None
    answers: int | None = None


class PresenceBye(Message):
    kind: Literal["presence.bye"] = "presence.bye"
    sender: str


# Quick match (lobby/quickmatch.py): the players, between their process and the matchmaker ---


class QuickJoin(Message):
    """A player who joined on `origin`, waiting since `since`, sent to matchmaker `to`."""

    kind: Literal["quick.join"] = "quick.join"
    sender: str
    to: str | None = None
    user_id: int
    name: str
    with_bots: bool = False
    since: float
    address: str | None = None
    origin: str


class QuickMatched(Message):
    """The matchmaker seated `user_id` (waiting since `since`): `frame` is for its socket."""

    kind: Literal["quick.matched"] = "quick.matched"
    sender: str
    to: str
    user_id: int
    since: float
    frame: dict[str, Any]


class QuickCancel(Message):
    """Whatever wait of `user_id` began by `at` ends."""

    kind: Literal["quick.cancel"] = "quick.cancel"
    sender: str
    user_id: int
    at: float


class QuickApart(Message):
    """One of the two accounts has just blocked the other."""

    kind: Literal["quick.apart"] = "quick.apart"
    sender: str
    user_ids: tuple[int, int]


class QuickQueue(Message):
    """The matchmaker's queue (and the players it is seating)."""

    kind: Literal["quick.queue"] = "quick.queue"
    sender: str
    user_ids: tuple[int, ...] = ()


class QuickBoss(Message):
    """`sender` is the matchmaker."""

    kind: Literal["quick.boss"] = "quick.boss"
    sender: str


class QuickBye(Message):
    kind: Literal["quick.bye"] = "quick.bye"
    sender: str


# Bot tokens (accounts/bot_tokens.py) --------------------------------------------------------


class BotRevoked(Message):
    """The bot's token no longer holds: every process closes its sockets."""

    kind: Literal["bot.revoked"] = "bot.revoked"
    bot_id: int


AnyMessage = (
    TableEvents
    | TableOwner
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
)
_MESSAGES: TypeAdapter[AnyMessage] = TypeAdapter(Annotated[AnyMessage, Field(discriminator="kind")])


def encode(message: Message) -> bytes:
    """`message` as the bytes published on the bus."""
    return pydantic_core.to_json(message)


def decode(data: bytes | str) -> AnyMessage | None:
    """The message in `data`; None (logged once per kind) for one this release cannot read."""
    try:
        return _MESSAGES.validate_json(data)
    except ValidationError as error:
        first = error.errors(include_url=False)[0]
        location = first["loc"]
        if first["type"] == "union_tag_invalid" and not location:
            _note_unknown(f"message {first['ctx']['tag']!r}")
        else:
            kind = repr(location[0]) if location else "untagged"
            where = ".".join(str(part) for part in location[1:])
            text = "wire: dropping unreadable %s messages (%s: %s)"
            _note_once(f"unreadable {kind}", text, kind, where, first["msg"])
        return None


_noted: set[str] = set()  # what this process has logged already


def _note_once(key: str, text: str, *args: object) -> None:
    if key not in _noted:
        _noted.add(key)
        log.warning(text, *args)


def _note_unknown(what: str) -> None:
    _note_once(f"unknown {what}", "wire: dropping every %s: this release does not know that kind", what)
