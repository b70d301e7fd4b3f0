"""The recorded event streams the client's reducer is tested on (tests/web/js/streams/,
written by tests/web/record_streams.py) cover every table event kind docs/protocol.md
documents, and the cases the table must show: plays, draws and passes, ponce's passes that
score palitos, rounds ended by dominó and by tranque, games ended at the target and by
vote, a seat's stream and a spectator's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
STREAMS = Path(__file__).resolve().parent / "js" / "streams"


def documented_event_kinds() -> set[str]:
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text.split("\n## Table events", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^### `([a-z_]+)`", section, re.M))


def streams() -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in sorted(STREAMS.glob("*.json"))]


def events(stream: dict[str, Any]) -> list[dict[str, Any]]:
    return [frame for frame in stream["frames"] if frame["type"] == "event"]


def test_every_documented_event_kind_has_a_recorded_stream() -> None:
    documented = documented_event_kinds()
    assert {"table_created", "seat", "action", "round_ended", "game_ended"} <= documented
    recorded = {event["kind"] for stream in streams() for event in events(stream)}
    missing = documented - recorded
    assert not missing, f"no recorded stream has {sorted(missing)}: run python -m tests.web.record_streams"


def test_the_streams_cover_what_the_table_shows() -> None:
    everything = [event for stream in streams() for event in events(stream)]
    actions = [event["data"] for event in everything if event["kind"] == "action"]
    assert {action["action"]["type"] for action in actions} == {"play", "draw", "pass"}
    assert any(action["action"]["type"] == "pass" and "scores" in action for action in actions), (
        "no ponce palitos"
    )
    rounds = {
        e["data"]["result"]["kind"] for e in everything if e["kind"] == "round_ended" and e["data"]["result"]
    }
    assert rounds == {"domino", "tranque"}
    assert {e["data"]["reason"] for e in everything if e["kind"] == "game_ended"} == {"target", "annulled"}
    viewers = {stream["viewer"] for stream in streams()}
    assert viewers == {"seat", "spectator"}
    assert all(stream["checks"] for stream in streams()), "a stream without a snapshot to compare with"
