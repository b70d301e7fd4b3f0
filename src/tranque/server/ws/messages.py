"""The WebSocket protocol's inbound messages (docs/protocol.md), validated with pydantic.

Every message is a JSON object with a `type`; it may carry an `id`, which the answer
(`ack` or `error`) repeats so a client can match them. The models are strict: a value of
another JSON type is never converted (a string is not a number nor a boolean, a boolean is
not a number), and a tile is exactly its documented text, like ``"6-4"``.

A refused message raises `ProtocolError`, whose text (from the server's catalogue,
`refusals.py`) names the field and what it must be, in Spanish (`message`) and in English
(`message_en`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, model_validator
from pydantic_core import ErrorDetails, PydanticCustomError

from tranque.server.refusals import Refusal, Words

MAX_MESSAGE_CHARS = 16_384
TILE_TEXT = r"^[0-9]-[0-9]$"  # two ASCII digits and a hyphen, as in `legal_actions`

CHAT_RAW_CHARS = 1000  # a chat line as sent, before trimming (talk/lines.py keeps 200)
MessageId = int | str | None
STRICT = ConfigDict(extra="forbid", strict=True)


class _Message(BaseModel):
    model_config = STRICT
    id: MessageId = None


# Actions (the engine's `Action.to_json()`) ---------------------------------------------------


class _Action(BaseModel):
    model_config = STRICT

    def to_json(self) -> dict[str, Any]:
        """The action as the engine reads it (`action_from_json`)."""
        return self.model_dump()


class PlayAction(_Action):
    type: Literal["play"]
    tile: str = Field(pattern=TILE_TEXT)
    side: Literal["left", "right"] | None = None


class DrawAction(_Action):
    type: Literal["draw"]


class PassAction(_Action):
    type: Literal["pass"]


ActionMessage = Annotated[PlayAction | DrawAction | PassAction, Field(discriminator="type")]
ACTIONS: dict[str, type[_Action]] = {"play": PlayAction, "draw": DrawAction, "pass": PassAction}


# Messages ------------------------------------------------------------------------------------


class Hello(_Message):
    type: Literal["hello"]
    table: str = Field(max_length=64)
    token: str | None = Field(default=None, max_length=128)
    last_seq: int | None = Field(default=None, ge=0)
    watch: str | None = Field(default=None, max_length=64)


class Act(_Message):
    type: Literal["act"]
    action: ActionMessage
    turn_id: int | None = None


class Hint(_Message):
    type: Literal["hint"]


class Ready(_Message):
    type: Literal["ready"]


class Phrase(_Message):
    type: Literal["phrase"]
    phrase: str = Field(max_length=32)


class Chat(_Message):
    type: Literal["chat"]
    text: str = Field(max_length=CHAT_RAW_CHARS)


class Vote(_Message):
    type: Literal["vote"]
    agree: bool


class Return(_Message):
    type: Literal["return"]


class Rematch(_Message):
    type: Literal["rematch"]


class Abandon(_Message):
    type: Literal["abandon"]


class Sit(_Message):
    type: Literal["sit"]
    table: str | None = Field(default=None, max_length=64)
    invite: str | None = Field(default=None, max_length=64)
    seat: int | None = Field(default=None, ge=0, le=5)

    @model_validator(mode="after")
    def _names_a_table(self) -> Sit:
        if self.table is None and self.invite is None:
            raise PydanticCustomError("table_or_invite", "neither table nor invite")
        return self


class Stand(_Message):
    type: Literal["stand"]


class FillBots(_Message):
    type: Literal["fill_bots"]
    level: str = Field(max_length=32)


class Lobby(_Message):
    type: Literal["lobby"]


class QuickMatch(_Message):
    type: Literal["quick_match"]
    with_bots: bool = False


class CancelQuickMatch(_Message):
    type: Literal["cancel_quick_match"]


class Ping(_Message):
    type: Literal["ping"]


Inbound = Annotated[
    Hello
    | Act
    | Hint
    | Ready
    | Phrase
    | Vote
    | Return
    | Rematch
    | Abandon
    | Sit
    | Stand
    | FillBots
    | Lobby
    | QuickMatch
    | CancelQuickMatch
    | Ping
    | Chat,
    Field(discriminator="type"),
]
INBOUND: TypeAdapter[Inbound] = TypeAdapter(Inbound)
MESSAGE_ID: TypeAdapter[MessageId] = TypeAdapter(MessageId, config=STRICT)
MESSAGES: tuple[type[_Message], ...] = (
    Hello,
    Act,
    Hint,
    Ready,
    Phrase,
    Vote,
    Return,
    Rematch,
    Abandon,
    Sit,
    Stand,
    FillBots,
    Lobby,
    QuickMatch,
    CancelQuickMatch,
    Ping,
    Chat,
)
TYPES = frozenset(get_args(m.model_fields["type"].annotation)[0] for m in MESSAGES)
MODELS: dict[str, type[_Message]] = {get_args(m.model_fields["type"].annotation)[0]: m for m in MESSAGES}

# What each field must be, in Spanish and in English (a field that may be null says so too).
EXPECTED: dict[str, Words] = {
    "id": Words("un número entero, un texto o null", "an integer, a string or null"),
    "type": Words("el tipo de mensaje, un texto como «hello»", "the message type, a string such as «hello»"),
    "table": Words(
        "el id de la mesa, un texto de hasta 64 caracteres",
        "the table id, a string of at most 64 characters",
    ),
    "token": Words(
        "el código del puesto, un texto de hasta 128 caracteres",
        "the seat's token, a string of at most 128 characters",
    ),
    "last_seq": Words(
        "el número del último evento que procesaste, un entero desde 0",
        "the number of the last event you processed, an integer from 0",
    ),
    "action": Words(
        "una jugada, un objeto cuyo «type» es «play», «draw» o «pass»",
        "an action, an object whose «type» is «play», «draw» or «pass»",
    ),
    "action.type": Words("«play», «draw» o «pass»", "«play», «draw» or «pass»"),
    "action.tile": Words(
        "una ficha escrita como «6-4», dos cifras del 0 al 9 con un guion en medio",
        "a tile written like «6-4», two digits from 0 to 9 with a hyphen between them",
    ),
    "action.side": Words("«left» o «right»", "«left» or «right»"),
    "turn_id": Words("el «turn_id» del turno, un número entero", "the turn's «turn_id», an integer"),
    "phrase": Words(
        "la clave de una frase, un texto de hasta 32 caracteres",
        "a phrase's key, a string of at most 32 characters",
    ),
    "agree": Words("true o false", "true or false"),
    "seat": Words("un número de puesto del 0 al 5", "a seat number from 0 to 5"),
    "invite": Words(
        "el código de invitación, un texto de hasta 64 caracteres",
        "the invitation code, a string of at most 64 characters",
    ),
    "level": Words(
        "el nivel del bot, un texto de hasta 32 caracteres",
        "the bot's level, a string of at most 32 characters",
    ),
    "with_bots": Words("true o false", "true or false"),
    "watch": Words(
        "el código del enlace para mirones, un texto de hasta 64 caracteres",
        "the watching link's code, a string of at most 64 characters",
    ),
    "text": Words(
        f"el mensaje, un texto de hasta {CHAT_RAW_CHARS} caracteres",
        f"the message, a string of at most {CHAT_RAW_CHARS} characters",
    ),
}
SHOWN_CHARS = 32  # a name or type from the client longer than this is not repeated back


class ProtocolError(Refusal):
    """A message refused at the door: `code` for programs, `message` (Spanish) and
    `message_en` (English) for people, `message_id` the message's `id` if it could be read."""

    def __init__(self, key: str, /, message_id: MessageId = None, **params: object) -> None:
        super().__init__(key, **params)
        self.message_id = message_id

    def frame(self) -> dict[str, Any]:
        """The `error` frame that answers the message."""
        return error(self, self.message_id)


def parse(text: str) -> Inbound:
    """Read one client message, or raise `ProtocolError` saying what is wrong.

    The first check that fails answers: size (`too_big`), JSON (`bad_json`), an object
    with a string `type` (`bad_message`), a known type (`unknown_type`), then its fields
    (`bad_message`, naming the first wrong field: the message's own in their documented
    order, then the unknown ones)."""
    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError("too_big", most=MAX_MESSAGE_CHARS)
    try:
        data = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message")
    message_id = _readable_id(data.get("id"))
    kind = data.get("type")
    if not isinstance(kind, str):
        raise _wrong_field(
            "bad_message.missing" if "type" not in data else "bad_message.wrong", "type", message_id
        )
    if kind not in TYPES:
        shown = _shown(kind)
        if shown is None:
            raise ProtocolError("unknown_type.unnamed", message_id)
        raise ProtocolError("unknown_type", message_id, type=shown)
    try:
        return INBOUND.validate_python(data)
    except ValidationError as invalid:
        raise _refusal(kind, invalid.errors()[0], message_id) from None


def _not_json(constant: str) -> None:
    """`NaN` and `Infinity` are Python's, not JSON's."""
    raise ValueError(constant)


_DECODER = json.JSONDecoder(parse_constant=_not_json)


def _readable_id(value: object) -> MessageId:
    """The message's `id` if it is one (an integer, a string or null), else None."""
    try:
        return MESSAGE_ID.validate_python(value)
    except ValidationError:
        return None


def _shown(text: str) -> str | None:
    """`text` if it can be repeated back to the client as it is, else None."""
    return text if len(text) <= SHOWN_CHARS and text.isprintable() else None


def _refusal(kind: str, first: ErrorDetails, message_id: MessageId) -> ProtocolError:
    """The `bad_message` for pydantic's first complaint about a `kind` message."""
    if first["type"] == "table_or_invite":
        return ProtocolError("bad_message.table_or_invite", message_id)
    loc = [str(part) for part in first["loc"][1:]]  # [0] is the message type; an action's [1], its type
    in_action = loc[:1] == ["action"]
    # No field in `loc` (the message's, or its action's): a field name that is not valid text.
    if first["type"] == "extra_forbidden" or not loc or (in_action and len(loc) == 2):
        return _unknown_field(kind, loc, message_id)
    if in_action and len(loc) >= 3:
        path = f"action.{loc[2]}"
    elif in_action and first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        path = "action.type"
    else:
        path = loc[0]
    missing = first["type"] in ("missing", "union_tag_not_found")
    key = "bad_message.missing" if missing else "bad_message.wrong"
    return _wrong_field(key, path, message_id, _nullable(kind, path))


def _unknown_field(kind: str, loc: list[str], message_id: MessageId) -> ProtocolError:
    """`bad_message` for a field the message (or its action, `loc[1]`) does not have."""
    if loc[:1] == ["action"] and len(loc) >= 2:
        shown = _shown(f"action.{loc[2]}") if len(loc) >= 3 else None
        if shown is None:
            return ProtocolError("bad_message.extra_unnamed_in_action", message_id, action=loc[1])
        return ProtocolError("bad_message.extra_in_action", message_id, field=shown, action=loc[1])
    shown = _shown(loc[0]) if loc else None
    if shown is None:
        return ProtocolError("bad_message.extra_unnamed", message_id, type=kind)
    return ProtocolError("bad_message.extra", message_id, field=shown, type=kind)


def _wrong_field(key: str, path: str, message_id: MessageId, nullable: bool = False) -> ProtocolError:
    """`bad_message` for a field that is missing or not what it must be (`key` says which)."""
    expected = EXPECTED[path]
    if nullable:
        expected = Words(f"{expected.es}, o null", f"{expected.en}, or null")
    return ProtocolError(key, message_id, field=path, expected=expected)


def _nullable(kind: str, path: str) -> bool:
    """Whether the field at `path` of a `kind` message may be null."""
    if path == "id":
        return False  # its expectation says null already
    if path.startswith("action."):
        fields = {name: f for model in ACTIONS.values() for name, f in model.model_fields.items()}
    else:
        fields = MODELS[kind].model_fields
    field = fields.get(path.removeprefix("action."))
    return field is not None and type(None) in get_args(field.annotation)


def error(refusal: Refusal, message_id: MessageId = None) -> dict[str, Any]:
    """The `error` frame of a refusal: its code, and its text in Spanish and English."""
    return {"type": "error", "id": message_id, **refusal.body()}


def ack(message_id: MessageId, **result: Any) -> dict[str, Any]:
    return {"type": "ack", "id": message_id, **result}
