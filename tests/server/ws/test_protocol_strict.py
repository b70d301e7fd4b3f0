"""Strict inbound messages over a real socket (docs/protocol.md, «Messages, acks and errors»).

The client is logged in and seated at a table in play, on turn, and hosts a public table
with free seats: each of the messages below, as it is, would be accepted and change
something (a move, a vote, a seat). With any one field replaced by a value of a JSON type
that field does not take, the message must be refused with `bad_message`, naming the field
in Spanish and in English, and nothing may be stored: a string is never a number or a
boolean, a boolean never a number, a number never a string.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.http.test_bad_input import Client, assert_explained
from tests.server.support.harness import LiveServer, Message, fast_settings
from tests.server.support.http_helpers import register
from tests.server.support.scripted import seat_table, start_table_now, stored_events
from tranque.engine import Rules
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.ws import messages as protocol

# The JSON types each field takes (docs/protocol.md, «Client → server messages»); an
# action's fields are `action.<name>`.
COMMON = {"id": {"integer", "string", "null"}, "type": {"string"}}
ACCEPTS: dict[str, dict[str, set[str]]] = {
    "hello": {
        "table": {"string"},
        "token": {"string", "null"},
        "last_seq": {"integer", "null"},
        "watch": {"string", "null"},
    },
    "act": {
        "action": {"object"},
        "action.type": {"string"},
        "action.tile": {"string"},
        "action.side": {"string", "null"},
        "turn_id": {"integer", "null"},
    },
    "hint": {},
    "ready": {},
    "phrase": {"phrase": {"string"}},
    "vote": {"agree": {"boolean"}},
    "return": {},
    "abandon": {},
    "rematch": {},
    "sit": {"table": {"string", "null"}, "invite": {"string", "null"}, "seat": {"integer", "null"}},
    "stand": {},
    "fill_bots": {"level": {"string"}},
    "lobby": {},
    "quick_match": {"with_bots": {"boolean"}},
    "cancel_quick_match": {},
    "ping": {},
    "chat": {"text": {"string"}},
}
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
OF_TYPE: dict[str, st.SearchStrategy[Any]] = {
    "null": st.none(),
    "boolean": st.booleans(),
    "integer": st.sampled_from([0, 1, 2]) | st.integers(min_value=-(2**63), max_value=2**63),
    # 1.0 too: JSON's 1.0 is a number, not an integer
    "number": st.sampled_from([0.0, 1.0]) | st.floats(allow_nan=False, allow_infinity=False),
    "string": st.sampled_from(["0", "1", "true", "false", "null", "6-4", "５-４"]) | st.text(max_size=8),
    "array": st.lists(SCALARS, max_size=3),
    "object": st.dictionaries(st.text(max_size=4), SCALARS, max_size=3),
}
REPLACEMENTS = [
    (kind, path, wrong)
    for kind, fields in ACCEPTS.items()
    for path, takes in sorted({**COMMON, **fields}.items())
    for wrong in sorted(set(OF_TYPE) - takes)
]
HOSTS = (f"strict_host_{number}" for number in itertools.count())


@dataclass
class World:
    server: LiveServer
    table: str  # in play, the client's seat on turn
    hosted: str  # public, waiting, hosted by the client's account
    client: Client
    bases: dict[str, Message]  # one message of each type that would be accepted

    def stored(self) -> list[Any]:
        return [*stored_events(self.server, self.table), *stored_events(self.server, self.hosted)]


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    live = LiveServer(fast_settings())
    live.server.config.ws_ping_interval = None  # no randomness in other threads (hypothesis)
    with live:
        yield live


def new_world(server: LiveServer) -> World:
    with httpx.Client(base_url=server.http, timeout=20) as http:
        assert register(http, next(HOSTS)).status_code in (200, 201)
        cookie = http.cookies[SESSION_COOKIE]
        hosted = http.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]
    table, tokens = seat_table(server, Rules.preset("clasico", players=2), [0, 1])
    start_table_now(server, table)
    sync = peek_sync(server, table, tokens[0])
    seat = sync["turn"]["seat"]
    client = Client(server, headers={"Cookie": f"{SESSION_COOKIE}={cookie}"})
    assert client.request({"type": "hello", "table": table, "token": tokens[seat]})["seat"] == seat
    play = next(
        a for a in peek_sync(server, table, tokens[seat])["view"]["legal_actions"] if a["type"] == "play"
    )
    bases: dict[str, Message] = {
        "hello": {"type": "hello", "table": table, "token": tokens[seat], "last_seq": 0},
        "act": {"type": "act", "action": play, "turn_id": sync["turn"]["turn_id"]},
        "hint": {"type": "hint"},
        "ready": {"type": "ready"},
        "phrase": {"type": "phrase", "phrase": "buena"},
        "vote": {"type": "vote", "agree": True},
        "return": {"type": "return"},
        "abandon": {"type": "abandon"},
        "rematch": {"type": "rematch"},
        "sit": {"type": "sit", "table": hosted, "invite": None, "seat": 1},
        "stand": {"type": "stand"},
        "fill_bots": {"type": "fill_bots", "level": "greedy"},
        "lobby": {"type": "lobby"},
        "quick_match": {"type": "quick_match", "with_bots": True},
        "cancel_quick_match": {"type": "cancel_quick_match"},
        "ping": {"type": "ping"},
        "chat": {"type": "chat", "text": "¡Buenas!"},
    }
    return World(server, table, hosted, client, {kind: {"id": 1, **base} for kind, base in bases.items()})


def peek_sync(server: LiveServer, table: str, token: str) -> Message:
    peek = Client(server)
    try:
        peek.send({"type": "hello", "table": table, "token": token})
        return peek.next(lambda m: m["type"] == "sync")
    finally:
        peek.close()


@pytest.fixture(scope="module")
def world(server: LiveServer) -> Iterator[World]:
    made = new_world(server)
    yield made
    made.client.close()


def replaced(message: Message, path: str, value: Any) -> Message:
    changed = copy.deepcopy(message)
    owner, _, name = path.rpartition(".")
    (changed[owner] if owner else changed)[name] = value
    return changed


def test_the_table_of_types_names_every_field_of_every_message() -> None:
    assert set(ACCEPTS) == protocol.TYPES
    for kind, model in protocol.MODELS.items():
        own = {f"action.{name}" for action in protocol.ACTIONS.values() for name in action.model_fields}
        fields = set(model.model_fields) | (own if kind == "act" else set())
        assert fields == set(COMMON) | set(ACCEPTS[kind]), kind
    assert len(REPLACEMENTS) > 150


def test_each_message_as_it_is_would_be_accepted(world: World) -> None:
    """The untouched messages pass the parser: a refusal below is the replaced field's."""
    for base in world.bases.values():
        assert protocol.parse(json.dumps(base)).type == base["type"]


@pytest.mark.parametrize(("kind", "path", "wrong"), REPLACEMENTS, ids=["-".join(r) for r in REPLACEMENTS])
def test_a_value_of_another_json_type_is_bad_message_and_stores_nothing(
    world: World, kind: str, path: str, wrong: str
) -> None:
    before = world.stored()

    @settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(value=OF_TYPE[wrong])
    def refused(value: Any) -> None:
        message = replaced(world.bases[kind], path, value)
        world.client.send_raw(json.dumps(message))
        answer = world.client.next(lambda m: m["type"] in ("ack", "error"))
        assert (answer["type"], answer["code"]) == ("error", "bad_message"), (message, answer)
        assert answer["id"] == (None if path == "id" else 1), answer
        assert f"«{path}»" in answer["message"], answer
        assert f"«{path}»" in answer["message_en"], answer
        assert_explained(answer)
        assert world.client.request({"type": "ping"})["type"] == "ack"

    refused()
    assert world.stored() == before


def test_the_same_messages_with_their_own_types_change_the_table(server: LiveServer) -> None:
    """The control: a vote, a seat and a move as they are are accepted, and stored."""
    made = new_world(server)
    try:
        for kind in ("vote", "sit", "act"):
            before = len(made.stored())
            made.client.send_raw(json.dumps(made.bases[kind]))
            answer = made.client.next(lambda m: m["type"] in ("ack", "error"))
            assert answer["type"] == "ack", answer
            assert len(made.stored()) > before, kind
    finally:
        made.client.close()


# Which code answers when several apply (docs/protocol.md, «Error codes») --------------------

# The order of the checks: ws.py's (the frame size, the rate, binary frames), then
# `protocol.parse`'s, then the command's own; "1009" closes the socket.
PRECEDENCE_ORDER = (
    "1009",
    "rate_limited",
    "bad_json",
    "too_big",
    "bad_json",
    "bad_message",
    "unknown_type",
    "bad_message",
    "no_table",
)
FULL_WIDTH_PLAY = {"type": "play", "tile": "５-４"}
PRECEDENCE: list[tuple[str, str, str, str, str | None]] = [
    # (case, the text sent, the code that answers, another that applies, the field named)
    ("too_big_over_bad_json", "{" * 17_000, "too_big", "bad_json", None),
    ("too_big_over_bad_message", json.dumps([0] * 6_000), "too_big", "bad_message", None),
    ("bad_json_over_unknown_type", '{"type": "trampa", ', "bad_json", "unknown_type", None),
    ("not_an_object", '["ping"]', "bad_message", "unknown_type", None),
    ("type_before_unknown_fields", '{"type": 5, "extra": 1}', "bad_message", "bad_message", "type"),
    (
        "unknown_type_over_bad_fields",
        '{"type": "trampa", "id": true, "x": 1}',
        "unknown_type",
        "bad_message",
        None,
    ),
    ("id_first_among_fields", '{"type": "ping", "id": [1], "extra": 1}', "bad_message", "bad_message", "id"),
    (
        "own_fields_before_unknown",
        '{"type": "vote", "extra": 1, "agree": "sí"}',
        "bad_message",
        "bad_message",
        "agree",
    ),
    (
        "documented_order",
        '{"type": "hello", "last_seq": "0", "table": 5}',
        "bad_message",
        "bad_message",
        "table",
    ),
    ("unknown_before_sit_nowhere", '{"type": "sit", "extra": 1}', "bad_message", "bad_message", "extra"),
    (
        "over_no_table",
        json.dumps({"type": "act", "action": FULL_WIDTH_PLAY}),
        "bad_message",
        "no_table",
        "action.tile",
    ),
    ("over_login_required", '{"type": "sit", "table": "x", "seat": true}', "bad_message", "no_table", "seat"),
    ("over_no_table_for_ready", '{"type": "ready", "id": 3, "extra": 1}', "bad_message", "no_table", "extra"),
]


@pytest.mark.parametrize(
    ("text", "code", "also", "field"), [p[1:] for p in PRECEDENCE], ids=[p[0] for p in PRECEDENCE]
)
def test_when_two_codes_apply_the_documented_one_answers(
    server: LiveServer, text: str, code: str, also: str, field: str | None
) -> None:
    first = PRECEDENCE_ORDER.index(code)
    assert first <= len(PRECEDENCE_ORDER) - 1 - PRECEDENCE_ORDER[::-1].index(also)  # `code` comes first
    stranger = Client(server)  # no account, no table: every command of a table is refused too
    try:
        stranger.send_raw(text)
        answer = stranger.next(lambda m: m["type"] in ("ack", "error"))
        assert (answer["type"], answer["code"]) == ("error", code), answer
        if field is not None:
            assert f"«{field}»" in answer["message"], answer
        assert_explained(answer)
        assert stranger.request({"type": "ready"})["code"] == "no_table"  # what the rest would get
    finally:
        stranger.close()


def test_rate_limited_answers_before_anything_is_read(server: LiveServer) -> None:
    """With no token left, even a binary frame, a frame over 16 KiB or one that is not JSON is
    `rate_limited` (with its id when it has one), not the error it would otherwise get."""
    unlimited = server.settings.socket_limits
    # For the sockets opened while it is set (read once the socket is accepted); the clock stands still.
    server.settings.socket_limits = dataclasses.replace(unlimited, burst=1)
    client = Client(server)
    try:
        assert client.request({"type": "ping"})["type"] == "ack"  # the one token
        frames: list[tuple[str | bytes, int | None]] = [
            (b'{"type": "ping"}', None),
            ("x" * 17_000, None),
            ("hola", None),
            ('{"type": 5, "id": 8}', 8),
            ('{"type": "trampa", "id": 9}', 9),
        ]
        for frame, message_id in frames:
            client.send_raw(frame)
            answer = client.next(lambda m: m["type"] in ("ack", "error"))
            assert (answer["code"], answer["id"]) == ("rate_limited", message_id), answer
    finally:
        client.close()
        server.settings.socket_limits = unlimited
