"""Bad input over a real socket: each is answered with a clear error, nothing changes.

The arena is a two-person table in play, nobody but people at it, and a clock that does
not move: the table only changes if somebody's command is accepted. For every kind of bad
input we check the error code and its Spanish message, that a fresh `sync` of every seat
is the same as before, that the same connection still answers (and is still seated), and
that the server still serves somebody else.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.scripted import seat_table, start_table_now
from tranque.engine import Rules
from tranque.server.ws import messages as protocol

Message = dict[str, Any]
WAIT = 10.0


class Client:
    """A blocking WebSocket client that keeps every frame it reads."""

    def __init__(self, server: LiveServer, headers: dict[str, str] | None = None) -> None:
        self._open = contextlib.ExitStack()
        self.socket: ClientConnection = self._open.enter_context(
            connect(
                server.ws, compression=None, max_size=1 << 22, ping_interval=None, additional_headers=headers
            )
        )
        self.frames: list[Message] = []
        self._next_id = 0

    def close(self) -> None:
        self._open.close()

    def send(self, message: Message) -> int:
        self._next_id += 1
        self.socket.send(json.dumps({"id": self._next_id, **message}))
        return self._next_id

    def send_raw(self, data: str | bytes) -> None:
        self.socket.send(data)

    def next(self, wanted: Callable[[Message], bool]) -> Message:
        while True:
            frame: Message = json.loads(self.socket.recv(timeout=WAIT))
            self.frames.append(frame)
            if wanted(frame):
                return frame

    def answer(self, message_id: Any) -> Message:
        return self.next(lambda m: m["type"] in ("ack", "error") and m["id"] == message_id)

    def request(self, message: Message) -> Message:
        return self.answer(self.send(message))


@dataclass
class Arena:
    server: LiveServer
    table: str
    tokens: dict[int, str]
    seats: dict[int, Client]
    spectator: Client
    outsider: Client  # connected, never said hello
    bystander: Client  # at another table: "the server still serves others"
    practice: dict[str, Any]

    @property
    def turn(self) -> int:
        sync = self.sync(self.tokens[0])
        return int(sync["turn"]["seat"])

    def client(self, who: str) -> Client:
        if who == "turn":
            return self.seats[self.turn]
        if who == "other":
            return self.seats[1 - self.turn]
        return {"spectator": self.spectator, "outsider": self.outsider}[who]

    def sync(self, token: str | None) -> Message:
        peek = Client(self.server)
        try:
            peek.send({"type": "hello", "table": self.table, "token": token})
            return peek.next(lambda m: m["type"] == "sync")
        finally:
            peek.close()

    def snapshot(self) -> list[Message]:
        """What every seat and a spectator would be told now, event numbers aside."""
        syncs = [self.sync(self.tokens[0]), self.sync(self.tokens[1]), self.sync(None)]
        return [{key: value for key, value in sync.items() if key != "seq"} for sync in syncs]

    def view(self, seat: int) -> Message:
        view: Message = self.sync(self.tokens[seat])["view"]
        return view

    def legal(self) -> list[Message]:
        actions: list[Message] = self.view(self.turn)["legal_actions"]
        return actions

    def turn_id(self) -> int:
        return int(self.sync(None)["turn"]["turn_id"])

    def assert_alive(self, client: Client) -> None:
        """The connection still answers, a seated one is still seated, and others are served."""
        assert client.request({"type": "ping"}) == {"type": "ack", "id": client._next_id, "pong": True}
        if client in self.seats.values():
            refused = client.request({"type": "ready"})
            assert refused["code"] == "not_between_rounds", refused
        assert self.bystander.request({"type": "ping"})["type"] == "ack"
        response = httpx.get(f"{self.server.http}/api/lobby", timeout=WAIT)
        assert response.status_code == 200


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    live = LiveServer(fast_settings())
    # Keepalive pings draw from the global `random` in other threads, which hypothesis
    # reports as randomness inside its strategies: no pings here (tests are short).
    live.server.config.ws_ping_interval = None
    with live:
        yield live


@contextlib.contextmanager
def new_arena(server: LiveServer) -> Iterator[Arena]:
    rules = Rules.preset("clasico", players=2)
    table, tokens = seat_table(server, rules, [0, 1])
    practice = server.post("/api/practice", {"preset": "clasico", "bot_level": "greedy"})
    seats = {seat: Client(server) for seat in tokens}
    spectator, outsider, bystander = Client(server), Client(server), Client(server)
    clients = [*seats.values(), spectator, outsider, bystander]
    try:
        for seat, client in seats.items():
            assert client.request({"type": "hello", "table": table, "token": tokens[seat]})["seat"] == seat
        assert spectator.request({"type": "hello", "table": table})["seat"] is None
        hello = {"type": "hello", "table": practice["table"], "token": practice["token"]}
        assert bystander.request(hello)["type"] == "ack"
        start_table_now(server, table)
        for client in [*seats.values(), spectator]:
            client.next(lambda m: m["type"] == "event" and m["kind"] == "turn")
        yield Arena(server, table, tokens, seats, spectator, outsider, bystander, practice)
    finally:
        for client in clients:
            client.close()


@pytest.fixture(scope="module")
def arena(server: LiveServer) -> Iterator[Arena]:
    """One arena for every case that must change nothing (each compares its own before/after)."""
    with new_arena(server) as made:
        yield made


@pytest.fixture
def fresh_arena(server: LiveServer) -> Iterator[Arena]:
    with new_arena(server) as made:
        yield made


# Spanish, and no English left over from the validator.
SPANISH = re.compile(
    r"[áéíóúñ¿¡«]|\b(el|la|los|las|de|del|no|es|un|una|en|con|se|que|ya|tu|esa|esta)\b", re.I
)
ENGLISH = re.compile(
    r"Field required|Input should|Extra inputs|not permitted|valid (string|integer|dictionary)"
)


# Python's own spelling of values (None, True, 'text'), which no message should show.
PYTHON = re.compile(r"\b(None|True|False)\b|'[^'\s]*'|\\u[0-9a-f]{4}")


def assert_spanish(message: str) -> None:
    assert SPANISH.search(message), message
    assert not ENGLISH.search(message), message
    assert not PYTHON.search(message), message


def assert_explained(answer: Message) -> None:
    """An error's message in Spanish, and the same in English."""
    assert_spanish(answer["message"])
    english: str = answer["message_en"]
    assert not re.search("[áéíóúñ¿¡]", re.sub("«[^»]*»", "", english)), english  # no Spanish words
    assert not PYTHON.search(english), english
    assert english != answer["message"], answer
    if answer["code"] == "bad_message":  # the field it names, in both
        assert re.findall("«[^»]*»", answer["message"])[:1] == re.findall("«[^»]*»", english)[:1]


Payload = Callable[[Arena], Message | str | bytes]


def play_with(arena: Arena, **changes: Any) -> Message:
    return {"type": "act", "action": arena.legal()[0], **changes}


FULL_WIDTH = {str(digit): chr(ord("０") + digit) for digit in range(10)}


def loose_tile(arena: Arena, translation: dict[int, str]) -> Message:
    """A legal play with its tile written otherwise than documented (`str.translate`)."""
    play = next(action for action in arena.legal() if action["type"] == "play")
    return {**play, "tile": play["tile"].translate(translation)}


def foreign_tile(arena: Arena) -> str:
    """A tile in the other person's hand."""
    tile: str = arena.view(1 - arena.turn)["hand"][0]
    return tile


CASES: list[tuple[str, str, Payload, str]] = [
    ("malformed_json", "turn", lambda a: '{"type": "ping"', "bad_json"),
    ("not_json", "turn", lambda a: "hola", "bad_json"),
    ("nested_too_deep", "turn", lambda a: "[" * 5000 + "]" * 5000, "bad_json"),
    ("json_array", "turn", lambda a: "[1, 2]", "bad_message"),
    ("json_number", "turn", lambda a: "42", "bad_message"),
    ("json_string", "turn", lambda a: '"ping"', "bad_message"),
    ("json_null", "turn", lambda a: "null", "bad_message"),
    ("no_type", "turn", lambda a: {}, "bad_message"),
    ("type_is_null", "turn", lambda a: {"type": None}, "bad_message"),
    ("type_is_true", "turn", lambda a: {"type": True}, "bad_message"),
    ("unknown_type", "turn", lambda a: {"type": "trampa"}, "unknown_type"),
    ("type_is_a_list", "turn", lambda a: '{"type": ["act"]}', "bad_message"),
    ("type_is_an_object", "turn", lambda a: '{"type": {"act": 1}}', "bad_message"),
    ("type_lone_surrogate", "turn", lambda a: '{"type": "\\ud800"}', "unknown_type"),
    ("missing_action", "turn", lambda a: {"type": "act"}, "bad_message"),
    ("missing_table", "outsider", lambda a: {"type": "hello"}, "bad_message"),
    ("extra_field", "turn", lambda a: {"type": "ping", "extra": 1}, "bad_message"),
    ("extra_field_lone_surrogate", "turn", lambda a: '{"type": "ping", "\\udfff": 1}', "bad_message"),
    ("acting_for_another_seat", "other", lambda a: play_with(a, seat=a.turn), "bad_message"),
    ("action_is_a_string", "turn", lambda a: {"type": "act", "action": "6-6"}, "bad_message"),
    ("turn_id_is_a_word", "turn", lambda a: play_with(a, turn_id="uno"), "bad_message"),
    ("agree_is_a_word", "turn", lambda a: {"type": "vote", "agree": "quizás"}, "bad_message"),
    ("id_is_an_object", "turn", lambda a: '{"type": "ping", "id": {"a": 1}}', "bad_message"),
    (
        "negative_last_seq",
        "outsider",
        lambda a: {"type": "hello", "table": a.table, "last_seq": -1},
        "bad_message",
    ),
    ("phrase_too_long", "turn", lambda a: {"type": "phrase", "phrase": "x" * 100}, "bad_message"),
    ("over_16_KiB", "turn", lambda a: json.dumps({"type": "ping", "id": 1, "pad": "x" * 17_000}), "too_big"),
    ("binary_frame", "turn", lambda a: b'{"type": "ping"}', "bad_json"),
    ("out_of_turn", "other", lambda a: {"type": "act", "action": {"type": "pass"}}, "not_your_turn"),
    ("spectator_acts", "spectator", lambda a: play_with(a), "spectator"),
    ("spectator_ready", "spectator", lambda a: {"type": "ready"}, "spectator"),
    ("spectator_phrase", "spectator", lambda a: {"type": "phrase", "phrase": "buena"}, "spectator"),
    ("spectator_votes", "spectator", lambda a: {"type": "vote", "agree": True}, "spectator"),
    ("act_before_hello", "outsider", lambda a: play_with(a), "no_table"),
    (
        "tile_in_other_hand",
        "turn",
        lambda a: play_with(a, action={"type": "play", "tile": foreign_tile(a)}),
        "illegal",
    ),
    (
        "tile_outside_the_set",
        "turn",
        lambda a: play_with(a, action={"type": "play", "tile": "9-8"}),
        "illegal",
    ),
    (
        "tile_lone_surrogate",
        "turn",
        lambda a: json.dumps(play_with(a, action={"type": "play", "tile": "\ud800"})),
        "bad_message",
    ),
    ("not_a_tile", "turn", lambda a: play_with(a, action={"type": "play", "tile": "x-y"}), "bad_message"),
    ("tile_is_a_number", "turn", lambda a: play_with(a, action={"type": "play", "tile": 66}), "bad_message"),
    (
        "tile_full_width",
        "turn",
        lambda a: play_with(a, action=loose_tile(a, str.maketrans(FULL_WIDTH))),
        "bad_message",
    ),
    (
        "tile_with_spaces",
        "turn",
        lambda a: play_with(a, action=loose_tile(a, {ord("-"): " - "})),
        "bad_message",
    ),
    (
        "tile_two_digits",
        "turn",
        lambda a: play_with(a, action={"type": "play", "tile": "10-3"}),
        "bad_message",
    ),
    (
        "unknown_side",
        "turn",
        lambda a: play_with(a, action={**a.legal()[0], "side": "arriba"}),
        "bad_message",
    ),
    ("unknown_action", "turn", lambda a: play_with(a, action={"type": "trampa"}), "bad_message"),
    ("action_without_type", "turn", lambda a: play_with(a, action={"tile": "6-6"}), "bad_message"),
    (
        "draw_with_a_tile",
        "turn",
        lambda a: play_with(a, action={"type": "draw", "tile": "6-6"}),
        "bad_message",
    ),
    # A value of another JSON type is refused, never converted (each would change the table).
    ("agree_is_a_string", "turn", lambda a: {"type": "vote", "agree": "false"}, "bad_message"),
    ("agree_is_a_number", "turn", lambda a: {"type": "vote", "agree": 1}, "bad_message"),
    ("id_is_true", "turn", lambda a: '{"type": "vote", "agree": true, "id": true}', "bad_message"),
    ("id_is_a_float", "turn", lambda a: '{"type": "ping", "id": 1.0}', "bad_message"),
    ("turn_id_is_true", "turn", lambda a: play_with(a, turn_id=True), "bad_message"),
    ("turn_id_is_a_digit_string", "turn", lambda a: play_with(a, turn_id=str(a.turn_id())), "bad_message"),
    ("turn_id_is_a_float", "turn", lambda a: play_with(a, turn_id=float(a.turn_id())), "bad_message"),
    (
        "last_seq_is_a_digit_string",
        "outsider",
        lambda a: {"type": "hello", "table": a.table, "last_seq": "0"},
        "bad_message",
    ),
    ("table_is_a_number", "outsider", lambda a: {"type": "hello", "table": 7}, "bad_message"),
    ("seat_is_true", "outsider", lambda a: {"type": "sit", "table": a.table, "seat": True}, "bad_message"),
    ("sit_nowhere", "outsider", lambda a: {"type": "sit", "seat": 1}, "bad_message"),
    (
        "with_bots_is_a_string",
        "outsider",
        lambda a: {"type": "quick_match", "with_bots": "true"},
        "bad_message",
    ),
    ("nan_is_not_json", "turn", lambda a: '{"type": "ping", "id": NaN}', "bad_json"),
    ("pass_holding_a_play", "turn", lambda a: play_with(a, action={"type": "pass"}), "illegal"),
    ("draw_holding_a_play", "turn", lambda a: play_with(a, action={"type": "draw"}), "illegal"),
    ("future_turn_id", "turn", lambda a: play_with(a, turn_id=a.turn_id() + 1), "stale"),
    (
        "forged_token",
        "outsider",
        lambda a: {"type": "hello", "table": a.table, "token": "x" * 32},
        "bad_token",
    ),
    (
        "forged_token_on_a_seat",
        "turn",
        lambda a: {"type": "hello", "table": a.table, "token": "x" * 32},
        "bad_token",
    ),
    (
        "token_of_another_table",
        "outsider",
        lambda a: {"type": "hello", "table": a.table, "token": a.practice["token"]},
        "bad_token",
    ),
    ("no_such_table", "turn", lambda a: {"type": "hello", "table": "no-existe"}, "no_such_table"),
    (
        "watch_a_practice_table",
        "outsider",
        lambda a: {"type": "hello", "table": a.practice["table"]},
        "private",
    ),
    ("ready_while_playing", "turn", lambda a: {"type": "ready"}, "not_between_rounds"),
    ("unknown_phrase", "turn", lambda a: {"type": "phrase", "phrase": "tramposo"}, "unknown_phrase"),
    ("sit_without_account", "outsider", lambda a: {"type": "sit", "table": a.table}, "login_required"),
    ("quick_match_without_account", "outsider", lambda a: {"type": "quick_match"}, "login_required"),
    (
        "fill_bots_without_account",
        "turn",
        lambda a: {"type": "fill_bots", "level": "greedy"},
        "login_required",
    ),
]


@pytest.mark.parametrize(("who", "payload", "code"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_refused_and_changes_nothing(
    arena: Arena, who: str, payload: Payload, code: str
) -> None:
    client = arena.client(who)
    data = payload(arena)
    before = arena.snapshot()
    if isinstance(data, dict):
        answer = client.answer(client.send(data))
    else:
        client.send_raw(data)
        answer = client.next(lambda m: m["type"] in ("ack", "error"))
    assert answer["type"] == "error", answer
    assert answer["code"] == code, answer
    assert_explained(answer)
    assert arena.snapshot() == before
    arena.assert_alive(client)


def test_replayed_command_is_stale(fresh_arena: Arena) -> None:
    """The same command twice: the second names a turn that is over (draws included)."""
    arena = fresh_arena
    first = arena.turn
    command = play_with(arena, turn_id=arena.turn_id())
    assert arena.seats[first].request(command)["type"] == "ack"
    while arena.turn != first:
        assert arena.seats[arena.turn].request(play_with(arena))["type"] == "ack"
    before = arena.snapshot()
    replayed = arena.seats[first].request(command)
    assert (replayed["type"], replayed["code"]) == ("error", "stale")
    assert replayed["message"] == "Esa jugada es de un turno que ya pasó."
    assert arena.snapshot() == before
    arena.assert_alive(arena.seats[first])


def test_frame_over_1_MiB_closes_with_1009_and_the_server_goes_on(arena: Arena) -> None:
    before = arena.snapshot()
    with connect(arena.server.ws, compression=None, max_size=1 << 22, ping_interval=None) as huge:
        huge.send(json.dumps({"type": "ping", "pad": "x" * (1 << 20)}))
        with pytest.raises(ConnectionClosed) as closed:
            huge.recv(timeout=WAIT)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 1009
    assert arena.snapshot() == before
    for client in [*arena.seats.values(), arena.spectator]:
        arena.assert_alive(client)


def test_phrase_flood_is_refused_after_the_first(fresh_arena: Arena) -> None:
    arena = fresh_arena
    seat = arena.turn
    client = arena.seats[seat]
    assert client.request({"type": "phrase", "phrase": "buena"})["type"] == "ack"
    before = arena.snapshot()
    for _ in range(20):
        answer = client.request({"type": "phrase", "phrase": "gracias"})
        assert (answer["type"], answer["code"]) == ("error", "too_fast")
        assert answer["message"] == "Espera un momento antes de otra frase."
    assert arena.snapshot() == before
    arena.assert_alive(client)
    arena.spectator.request({"type": "ping"})  # everything queued for the spectator before now
    heard = [m["data"] for m in arena.spectator.frames if m["type"] == "event" and m["kind"] == "phrase"]
    assert heard == [{"seat": seat, "phrase": "buena"}]


# Fuzzing ----------------------------------------------------------------------------------

FIELDS = sorted(
    {name for message in protocol.MESSAGES for name in message.model_fields} | {"tile", "side", "seq"}
)
# Every type but `abandon`: an accepted one hands the seat to the machine for good, after which
# nothing this seat sends could change the table (tests/server/table/test_leaving.py pins it).
FUZZED_TYPES = sorted(kind for kind in protocol.TYPES if kind != "abandon")
KNOWN_STRINGS = [
    "6-6",
    "6-5",
    "0-0",
    "play",
    "draw",
    "pass",
    "left",
    "right",
    "buena",
    "greedy",
    *FUZZED_TYPES,
]
leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=12)
    | st.sampled_from(KNOWN_STRINGS)
)
values = st.recursive(
    leaves,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=12,
)
messages = (
    st.fixed_dictionaries(
        {"type": st.sampled_from([*FUZZED_TYPES, "", "jugar"])},
        optional={name: values for name in FIELDS if name != "type"},
    )
    | values
)


def test_fuzz_every_message_is_answered_once_and_only_accepted_acts_change_the_table(
    fresh_arena: Arena,
) -> None:
    """Arbitrary JSON-ish messages from the seat on turn (some of them its real legal actions):
    each gets exactly one answer, ack or error (in Spanish), the connection goes on, and the
    table changes only when an `act` or a vote was acknowledged."""
    arena = fresh_arena
    client = arena.seats[arena.turn]
    legal_acts = st.fixed_dictionaries(
        {"type": st.just("act"), "action": st.sampled_from(arena.legal())}, optional={"turn_id": values}
    )
    tally = {"answers": 0, "accepted_acts": 0}
    before = [arena.snapshot()]

    @settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(message=messages | legal_acts)
    def fuzz(message: Any) -> None:
        client.send_raw(json.dumps(message))
        answer = client.next(lambda m: m["type"] in ("ack", "error"))
        tally["answers"] += 1
        if answer["type"] == "error":
            assert re.fullmatch(r"[a-z_]+", answer["code"]), answer
            assert_explained(answer)
        after = arena.snapshot()
        if answer["type"] == "ack" and isinstance(message, dict) and message.get("type") in ("act", "vote"):
            tally["accepted_acts"] += message["type"] == "act"
        else:
            assert after == before[0], message
        before[0] = after
        ping = client.send({"type": "ping"})
        assert client.next(lambda m: m["type"] in ("ack", "error")) == {
            "type": "ack",
            "id": ping,
            "pong": True,
        }

    fuzz()
    assert tally["answers"] >= 300
    assert tally["accepted_acts"] >= 1
    arena.assert_alive(client)
