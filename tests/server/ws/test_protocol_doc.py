"""docs/protocol.md against the code: every message, event kind, error code and endpoint the
server has is documented, and every example in the document is valid.

The document's conventions, which these tests read:
- `## Client → server messages`, `## Server → client messages`, `## Table events`: one
  `### \\`name\\`` heading per client message type, server message type, event kind;
- `## Error codes`: one table row `| \\`code\\` | message | meaning |` per WebSocket error code,
  the message column every Spanish text of the code's entries in `tranque.server.refusals`
  (separated by " / ", each field filled with an example);
  after that table, a numbered list of which code answers when several apply, each item
  starting with its code (or close code, in bold);
  `### HTTP errors` (in `## HTTP API`): one row `| \\`code\\` | status | message | meaning |`
  per HTTP error code, the same way;
- fenced blocks: ```json client (a client message), ```json refused (a client message the
  server refuses, followed by the ```json server error that answers it), ```json server (a
  server frame),
  ```json (an HTTP body), ```python (the deal-verification code).
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from pathlib import Path
from typing import Any

import pytest

from tests.server.ws.test_protocol_strict import PRECEDENCE_ORDER
from tranque.engine import Rules
from tranque.engine.deal import deal_from_seed
from tranque.engine.fairness import commitment_of
from tranque.engine.tiles import TILES
from tranque.server.accounts.bot_tokens import BAD_TOKEN_CLOSE, TOKEN_REVOKED_CLOSE
from tranque.server.app import create_app
from tranque.server.lobby.limits import Limits
from tranque.server.refusals import REFUSALS, code_of
from tranque.server.runtime import WS_MAX_SIZE
from tranque.server.settings import Settings
from tranque.server.table.events import EVENT_TYPES, PHRASES
from tranque.server.ws import messages as protocol
from tranque.server.ws.connection import OUTBOUND_LIMIT, SLOW_CLIENT_CLOSE
from tranque.server.ws.endpoint import FLOOD_CLOSE
from tranque.server.ws.limits import DEFAULT_LIMITS

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SERVER_SOURCE = {
    path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
    for path in sorted((ROOT / "src" / "tranque" / "server").rglob("*.py"))
}

# Refusals raised by catalogue key: over the socket, and as HTTP bodies (a TournamentError
# reaches a client only through http/tournaments.py, which answers each as an ApiError).
WS_ERROR = re.compile(r'(?:TableError|ProtocolError|protocol\.error\(Refusal)\(\s*"([\w.]+)"')
HTTP_ERROR = re.compile(
    r"""ApiError\(\s*\d+,\s*"([\w.]+)"|Refusal\(\s*"([\w.]+)".*?\)\.body\(\)"""
    r'|RetryLater\(\s*"([\w.]+)"|TournamentError\(\s*"([\w.]+)"'
    r'|PenaError\(\s*\d+,\s*"([\w.]+)"'
    r'|FichasError\(\s*"([\w.]+)"'
)
OUTBOUND_TYPE = re.compile(r"""["']type["']:\s*["'](\w+)["']""")


def section(title: str) -> str:
    """The text of the `## title` section, up to the next `## ` heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", DOC, re.M | re.S)
    assert match is not None, f"docs/protocol.md has no section «## {title}»"
    return match.group(1)


def headings(text: str) -> set[str]:
    return set(re.findall(r"^### `(\w+)`", text, re.M))


def table_rows(text: str) -> dict[str, str]:
    """First-column code → the whole row, for rows that start with a `code`."""
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| `(\w+)` \|.*$", text, re.M)}


def blocks(info: str) -> list[str]:
    """The bodies of the fenced blocks whose info string is exactly `info`."""
    return [
        m.group(2) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", DOC, re.M | re.S) if m.group(1) == info
    ]


def source_matches(pattern: re.Pattern[str]) -> set[tuple[str, ...]]:
    return {m.groups() for text in SERVER_SOURCE.values() for m in pattern.finditer(text)}


def ws_error_codes() -> set[str]:
    return {code_of(groups[0]) for groups in source_matches(WS_ERROR)}


def http_error_codes() -> set[str]:
    return {code_of(key) for groups in source_matches(HTTP_ERROR) for key in groups if key}


def http_error_rows() -> dict[str, str]:
    return table_rows(section("HTTP API").split("### HTTP errors", 1)[1])


def text_pattern(template: str) -> re.Pattern[str]:
    """A catalogue text as a pattern: its words as they are, each field any value."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".+?")
    return re.compile("".join(parts))


def documented_messages() -> dict[str, list[str]]:
    """Each documented code (socket and HTTP tables) → the Spanish texts its row shows."""
    shown: dict[str, list[str]] = {}
    for rows, column in ((table_rows(section("Error codes")), 1), (http_error_rows(), 2)):
        for code, row in rows.items():
            shown.setdefault(code, []).extend(row.split(" | ")[column].split(" / "))
    return shown


def catalogue_texts(code: str, lang: str) -> list[re.Pattern[str]]:
    return [text_pattern(texts[lang]) for key, texts in REFUSALS.items() if code_of(key) == code]


def outbound_types() -> set[str]:
    return {groups[0] for groups in source_matches(OUTBOUND_TYPE)}


def examples(direction: str) -> list[dict[str, Any]]:
    """The parsed examples of one direction (`client` or `server`)."""
    return [json.loads(text) for text in blocks(f"json {direction}")]


# (a) every client message type has a section and a valid example ---------------------------


def test_every_client_message_type_has_a_section() -> None:
    documented = headings(section("Client → server messages"))
    assert protocol.TYPES - documented == set(), "client messages without a section"
    assert documented - protocol.TYPES == set(), "sections for client messages the server does not know"


def test_every_client_message_type_has_an_example() -> None:
    assert protocol.TYPES - {example["type"] for example in examples("client")} == set()


@pytest.mark.parametrize("text", blocks("json client"))
def test_each_client_example_is_accepted_by_the_server_parser(text: str) -> None:
    message = protocol.parse(text)
    assert message.type == json.loads(text)["type"]


# (b) every event kind has a section and an example that the viewer filter could produce --------


def test_every_event_kind_has_a_section() -> None:
    documented = headings(section("Table events"))
    assert set(EVENT_TYPES) - documented == set(), "event kinds without a section"
    assert documented - set(EVENT_TYPES) == set(), "sections for event kinds the server does not have"


def test_every_event_kind_has_an_example() -> None:
    shown = {example["kind"] for example in examples("server") if example["type"] == "event"}
    assert set(EVENT_TYPES) - shown == set()


def _keys_a_viewer_may_get(kind: str) -> set[str]:
    """The keys an event kind's projection can let through (R17's whitelist)."""
    return set(EVENT_TYPES[kind].visible_keys)


def test_R17_event_examples_carry_only_keys_the_viewer_filter_lets_through() -> None:
    for example in examples("server"):
        if example["type"] != "event":
            continue
        assert set(example) == {"type", "seq", "kind", "at", "data"}
        extra = set(example["data"]) - _keys_a_viewer_may_get(example["kind"])
        assert extra == set(), f"{example['kind']} example shows keys no viewer gets: {sorted(extra)}"


# Server → client messages ------------------------------------------------------------------


def test_every_server_message_type_has_a_section_and_an_example() -> None:
    sent = outbound_types()
    assert {"ack", "error", "sync", "event", "options", "lobby", "matched"} <= sent  # the scan works
    documented = headings(section("Server → client messages"))
    assert sent - documented == set(), "server messages without a section"
    shown = {example["type"] for example in examples("server")}
    assert sent - shown == set(), "server messages without an example"


def test_server_examples_have_a_known_type() -> None:
    sent = outbound_types()
    for example in examples("server"):
        assert example["type"] in sent


# Refusals whose code is chosen at run time: passwords.weakness names them.
WEAKNESSES = {"password_is_name", "weak_password"}

# The refusals of a message's form, answered before any table.
FORM_CODES = {"too_big", "bad_json", "bad_message", "unknown_type"}


def test_error_examples_use_documented_codes_and_the_catalogues_texts() -> None:
    rows = table_rows(section("Error codes"))
    shown = [example for example in examples("server") if example["type"] == "error"]
    assert len(shown) >= 5
    for example in shown:
        assert set(example) == {"type", "id", "code", "message", "message_en"}
        assert example["code"] in rows
        for field, lang in (("message", "es"), ("message_en", "en")):
            patterns = catalogue_texts(example["code"], lang)
            assert any(p.fullmatch(example[field]) for p in patterns), f"{example}: not the catalogue's"


def test_http_error_examples_carry_both_languages() -> None:
    bodies = [json.loads(text) for text in blocks("json")]
    refusals = [body for body in bodies if isinstance(body, dict) and "message" in body]
    assert len(refusals) >= 2
    rows = http_error_rows()
    for body in refusals:
        assert body["code"] in rows
        assert set(body) - {"parameter", "retry_after"} == {"code", "message", "message_en"}, body
        assert any(p.fullmatch(body["message_en"]) for p in catalogue_texts(body["code"], "en")), body


def test_each_refused_example_gets_the_answer_shown_after_it() -> None:
    found = [(m.group(1), m.group(2)) for m in re.finditer(r"^```([^\n]*)\n(.*?)^```", DOC, re.M | re.S)]
    pairs = [(text, found[i + 1]) for i, (info, text) in enumerate(found) if info == "json refused"]
    assert len(pairs) >= 2
    for text, (info, answer) in pairs:
        assert info == "json server", f"no answer after «{text.strip()}»"
        with pytest.raises(protocol.ProtocolError) as refused:
            protocol.parse(text)
        assert refused.value.frame() == json.loads(answer)


@pytest.mark.parametrize(
    "text",
    [
        "[1]",
        '{"type": "act"}',
        '{"type": "vote", "agree": "false"}',
        '{"type": "ping", "extra": 1}',
        '{"type": "sit", "seat": 1}',
        '{"type": "dance"}',
        "{",
        "x" * (protocol.MAX_MESSAGE_CHARS + 1),
    ],
)
def test_the_error_table_shows_the_parsers_messages_word_for_word(text: str) -> None:
    rows = table_rows(section("Error codes"))
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.parse(text)
    assert refused.value.code in FORM_CODES
    assert f" {refused.value.message} " in rows[refused.value.code]


def test_the_order_of_the_codes_is_the_one_the_server_follows() -> None:
    listed = re.findall(r"^\d+\. (?:`(\w+)`|\*\*(\d+)\*\*)", section("Error codes"), re.M)
    assert [code or close for code, close in listed] == list(PRECEDENCE_ORDER)


# (c) every error code raised in the server is in the error tables -----------------------------


def test_every_websocket_error_code_is_in_the_error_table() -> None:
    codes = ws_error_codes()
    assert {"too_big", "bad_json", "not_your_turn", "illegal", "rate_limited"} <= codes  # the scan works
    rows = table_rows(section("Error codes"))
    assert codes - set(rows) == set(), "error codes missing from «## Error codes»"
    assert set(rows) - codes == set(), "documented error codes the server never sends"


def test_every_http_error_code_is_in_the_http_error_table() -> None:
    codes = http_error_codes()
    assert {"login_required", "no_record", "bad_rules", "body_too_big", "verify_busy"} <= codes  # the scan
    rows = http_error_rows()
    assert codes - set(rows) == set(), "HTTP error codes missing from «### HTTP errors»"
    # a TableError raised under an HTTP route reaches the client too (app.py's handler)
    unsent = set(rows) - codes - ws_error_codes() - WEAKNESSES
    assert unsent == set(), "documented HTTP error codes nobody sends"


def test_every_catalogue_code_is_documented_and_every_documented_code_is_in_the_catalogue() -> None:
    documented = set(documented_messages())
    catalogue = {code_of(key) for key in REFUSALS}
    assert catalogue - documented == set(), "catalogue codes missing from the error tables"
    assert documented - catalogue == set(), "documented error codes the catalogue does not have"


@pytest.mark.parametrize("key", sorted(REFUSALS))
def test_each_catalogue_text_is_shown_in_its_codes_row(key: str) -> None:
    shown = documented_messages().get(code_of(key), [])
    pattern = text_pattern(REFUSALS[key]["es"])
    assert any(pattern.fullmatch(text) for text in shown), f"{key}: no row shows «{REFUSALS[key]['es']}»"


def test_each_documented_message_is_a_catalogue_text_of_its_code() -> None:
    for code, shown in documented_messages().items():
        patterns = catalogue_texts(code, "es")
        for text in shown:
            assert any(p.fullmatch(text) for p in patterns), f"{code}: «{text}» is not the catalogue's"


def test_every_catalogue_entry_is_raised_somewhere() -> None:
    source = "\n".join(text for path, text in SERVER_SOURCE.items() if not path.endswith("refusals.py"))
    unused = {key for key in REFUSALS if f'"{key}"' not in source}
    assert unused == set(), "catalogue entries no server module uses"


# (d) every JSON block parses ---------------------------------------------------------------


def test_every_json_block_parses() -> None:
    found = 0
    for match in re.finditer(r"^```(json[^\n]*)\n(.*?)^```", DOC, re.M | re.S):
        info, text = match.group(1), match.group(2)
        assert info in ("json", "json client", "json refused", "json server"), f"unknown block kind «{info}»"
        json.loads(text)
        found += 1
    assert found >= 40


# Endpoints, phrases, limits ----------------------------------------------------------------


def _shape(path: str) -> str:
    return re.sub(r"\{\w+\}", "{}", path)


def test_every_http_endpoint_is_documented() -> None:
    schema = create_app(Settings(database_url="memory://")).openapi()
    paths = {_shape(path) for path in schema["paths"] if path.startswith("/api/")}
    assert "/api/practice" in paths
    mentioned = re.findall(r"`(?:GET|POST|PUT|PATCH|DELETE) (/api/[^`\s?]*)", section("HTTP API"))
    documented = {_shape(path) for path in mentioned}
    assert paths - documented == set()


def test_the_quick_phrases_are_the_servers() -> None:
    rows = table_rows(section("Quick phrases"))
    assert set(rows) == set(PHRASES)
    for key, text in PHRASES.items():
        assert f"| `{key}` | {text} |" in rows[key]


def test_the_limits_are_the_servers() -> None:
    limits = section("Limits and slow clients")
    assert f"{protocol.MAX_MESSAGE_CHARS} characters" in limits
    assert f"{WS_MAX_SIZE} bytes" in limits
    assert f"queue of {OUTBOUND_LIMIT} messages" in limits
    assert f"**{SLOW_CLIENT_CLOSE}**" in limits


def test_the_message_rate_and_heartbeats_are_the_servers() -> None:
    limits, heartbeats = (
        " ".join(section(title).split()) for title in ("Limits and slow clients", "Heartbeats")
    )
    rate = DEFAULT_LIMITS
    assert f"**{rate.burst} messages at once, then {rate.per_second:g} a second**" in limits
    assert f"holds {rate.burst} tokens, gains {rate.per_second:g} a second" in limits
    assert f"**{rate.flood_refusals}**" in limits
    assert f"**{FLOOD_CLOSE}**" in limits
    assert f"down to half ({OUTBOUND_LIMIT // 2} messages)" in limits
    assert f"every **{rate.ping_seconds:g} s**" in heartbeats
    assert f"**{rate.pong_seconds:g} s** later" in heartbeats
    assert rate.heartbeat_seconds is not None
    assert f"sent nothing for **{rate.heartbeat_seconds:g} s**" in heartbeats
    assert f"({2.5 * rate.heartbeat_seconds:g} s)" in heartbeats
    (example,) = [e for e in examples("server") if e["type"] == "heartbeat"]
    assert example == {"type": "heartbeat", "interval": rate.heartbeat_seconds}
    close_codes = set(re.findall(r"^\| (\d{4}) \|", section("Error codes"), re.M))
    assert {"1009", "1011", str(SLOW_CLIENT_CLOSE), str(FLOOD_CLOSE)} <= close_codes


def test_the_bot_accounts_limits_and_close_codes_are_the_servers() -> None:
    limits = " ".join(section("Limits and slow clients").split())
    rate = DEFAULT_LIMITS
    assert f"{rate.bot_burst} messages at once, then {rate.bot_per_second:g} a second" in limits
    http_limits = " ".join(section("HTTP limits").split())
    assert f"at most **{Limits().bots_per_owner}** per person (`409 too_many_bots`" in http_limits
    close_codes = set(re.findall(r"^\| (\d{4}) \|", section("Error codes"), re.M))
    assert {str(BAD_TOKEN_CLOSE), str(TOKEN_REVOKED_CLOSE)} <= close_codes


# Fair deals: the document's verification code is the engine's shuffle ------------------------


def _doc_verifier() -> dict[str, Any]:
    (code,) = [text for text in blocks("python") if "def deal(" in text]
    namespace: dict[str, Any] = {}
    exec(compile(code, "docs/protocol.md", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("preset", Rules.presets())
def test_the_documented_deal_is_the_engines(preset: str) -> None:
    verifier = _doc_verifier()
    rules = Rules.preset(preset)
    for number in range(20):
        seed = hashlib.sha256(f"{preset}-{number}".encode()).digest()
        masks, boneyard = deal_from_seed(rules, seed)
        hands, rest = verifier["deal"](seed.hex(), rules.set_max, rules.players, rules.hand_size)
        assert [sorted(hand) for hand in hands] == [
            sorted(str(TILES[i]) for i in range(len(TILES)) if mask >> i & 1) for mask in masks
        ]
        assert rest == [str(TILES[i]) for i in boneyard]


def test_the_documented_commitment_is_the_servers() -> None:
    verifier = _doc_verifier()
    seed, salt = bytes(range(32)), bytes(range(100, 116))
    assert verifier["commitment"](seed.hex(), salt.hex()) == commitment_of(seed, salt)


def test_the_round_examples_verify_with_the_documented_code() -> None:
    verifier = _doc_verifier()
    events = [example for example in examples("server") if example["type"] == "event"]
    started = next(e["data"] for e in events if e["kind"] == "round_started" and e["data"]["hand"])
    ended = next(e["data"] for e in events if e["kind"] == "round_ended")
    assert started["round"] == ended["round"]
    assert (
        verifier["commitment"](ended["seed"], ended["salt"]) == started["commitment"] == ended["commitment"]
    )
    hands, boneyard = verifier["deal"](ended["seed"], 6, 2, 7)
    assert sorted(hands[0]) == started["hand"]
    own_draw = next(e["data"] for e in events if e["kind"] == "action" and e["data"].get("drawn") is not None)
    assert own_draw["drawn"] in boneyard
