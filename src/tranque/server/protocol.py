"""The WebSocket protocol's inbound messages (docs/protocol.md), validated with pydantic.

Every message is a JSON object with a `type`; it may carry an `id`, which the answer
(`ack` or `error`) repeats so a client can match them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

MAX_MESSAGE_CHARS = 16_384

MessageId = int | str | None


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: Annotated[int | str | None, Field(default=None)] = None


class Hello(_Message):
    type: Literal["hello"]
    table: str = Field(max_length=64)
    token: str | None = Field(default=None, max_length=128)
    last_seq: int | None = Field(default=None, ge=0)


class Act(_Message):
    type: Literal["act"]
    action: dict[str, Any]
    turn_id: int | None = None


class Ready(_Message):
    type: Literal["ready"]


class Phrase(_Message):
    type: Literal["phrase"]
    phrase: str = Field(max_length=32)


class Vote(_Message):
    type: Literal["vote"]
    agree: bool


class Return(_Message):
    type: Literal["return"]


class Sit(_Message):
    type: Literal["sit"]
    table: str | None = Field(default=None, max_length=64)
    invite: str | None = Field(default=None, max_length=64)
    seat: int | None = Field(default=None, ge=0, le=5)


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
    | Ready
    | Phrase
    | Vote
    | Return
    | Sit
    | Stand
    | FillBots
    | Lobby
    | QuickMatch
    | CancelQuickMatch
    | Ping,
    Field(discriminator="type"),
]
INBOUND: TypeAdapter[Inbound] = TypeAdapter(Inbound)
MESSAGES: tuple[type[_Message], ...] = (
    Hello,
    Act,
    Ready,
    Phrase,
    Vote,
    Return,
    Sit,
    Stand,
    FillBots,
    Lobby,
    QuickMatch,
    CancelQuickMatch,
    Ping,
)
TYPES = frozenset(get_args(m.model_fields["type"].annotation)[0] for m in MESSAGES)


class ProtocolError(Exception):
    def __init__(self, code: str, message: str, message_id: MessageId = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_id = message_id


def parse(text: str) -> Inbound:
    """Read one client message, or raise `ProtocolError` saying in Spanish what is wrong."""
    import json

    if len(text) > MAX_MESSAGE_CHARS:
        raise ProtocolError(
            "too_big", f"El mensaje es demasiado grande (máximo {MAX_MESSAGE_CHARS} caracteres)."
        )
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", "El mensaje no es JSON válido.") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "El mensaje debe ser un objeto JSON con «type».")
    message_id = data.get("id") if isinstance(data.get("id"), int | str) else None
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise ProtocolError("unknown_type", f"Tipo de mensaje desconocido: {kind!r}.", message_id)
    try:
        return INBOUND.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = str(first["loc"][1]) if len(first["loc"]) > 1 else "mensaje"
        # A field of several types (like `id`) reports per type: say only that it is wrong.
        reason = REASONS.get(first["type"], "no es válido") if len(first["loc"]) <= 2 else "no es válido"
        raise ProtocolError("bad_message", f"Campo «{where}»: {reason}.", message_id) from None


# pydantic's error types, said in Spanish (its own messages are English).
REASONS = {
    "missing": "falta",
    "extra_forbidden": "no existe en este mensaje",
    "string_type": "debe ser texto",
    "string_unicode": "debe ser texto",
    "string_too_long": "es demasiado largo",
    "int_type": "debe ser un número entero",
    "int_parsing": "debe ser un número entero",
    "int_from_float": "debe ser un número entero",
    "greater_than_equal": "es demasiado pequeño",
    "less_than_equal": "es demasiado grande",
    "bool_type": "debe ser true o false",
    "bool_parsing": "debe ser true o false",
    "dict_type": "debe ser un objeto JSON",
}


def error(code: str, message: str, message_id: MessageId = None) -> dict[str, Any]:
    return {"type": "error", "id": message_id, "code": code, "message": message}


def ack(message_id: MessageId, **result: Any) -> dict[str, Any]:
    return {"type": "ack", "id": message_id, **result}
