"""Table events and what each viewer may see of them (R17 of docs/rules.md; docs/design.md).

Events are stored as the referee knows them (every hand, each round's seed); everything
that leaves the server goes through `visible`, which keeps only the keys a viewer may know.
It is a whitelist: an event kind it does not know is an error, never a leak.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tranque.server.store import StoredEvent

Viewer = int | None  # a seat, or None for a spectator

PUBLIC = "public"


def _public_keys(*keys: str) -> Callable[[dict[str, Any], Viewer], dict[str, Any]]:
    def keep(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        return {key: data[key] for key in keys if key in data}

    return keep


def _round_started(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    shown = {key: data[key] for key in ("round", "starter", "commitment", "hand_counts", "boneyard_count")}
    shown["hand"] = data["hands"][viewer] if viewer is not None else None
    return shown


def _action(data: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    shown: dict[str, Any] = {key: data[key] for key in ("seat", "action", "by", "ends") if key in data}
    if data.get("drawn") is not None and data["seat"] == viewer:
        shown["drawn"] = data["drawn"]
    return shown


FILTERS: dict[str, Callable[[dict[str, Any], Viewer], dict[str, Any]]] = {
    "table_created": _public_keys("rules", "kind", "bot_level"),
    "seat": _public_keys("seat", "name", "kind", "state", "bot_level"),
    "game_started": _public_keys("first_starter"),
    "round_started": _round_started,
    "turn": _public_keys("seat", "turn_id", "deadline", "auto"),
    "action": _action,
    "round_ended": _public_keys("round", "result", "hands", "seed", "salt", "commitment", "scores", "goals"),
    "ready": _public_keys("seat"),
    "game_ended": _public_keys("scores", "goals", "winners", "reason"),
    "phrase": _public_keys("seat", "phrase"),
    "vote": _public_keys("seat", "agree"),
    "annulled": _public_keys("votes"),
}


def visible(event: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """The event as `viewer` receives it."""
    keep = FILTERS.get(event.kind)
    if keep is None:
        raise KeyError(f"no visibility rule for table event kind {event.kind!r}")
    return {
        "type": "event",
        "seq": event.seq,
        "kind": event.kind,
        "at": event.at,
        "data": keep(event.data, viewer),
    }
