"""Recurring events from the site's configuration (`Settings.tournament_schedule`).

Each entry names a local time of day and a time zone (IANA, through `zoneinfo`) and any
`TournamentConfig` fields; `days` (optional, 0 = Monday … 6 = Sunday) limits the weekdays:

    {"format": "minitorneo", "entry": "duel", "size": 8, "time": "20:00",
     "zone": "America/Bogota", "bot_fill": true, "rated": false}

is a minitorneo every evening at 20:00 in Bogotá. The director creates each occurrence
`AHEAD_SECONDS` before it starts (so players can register), with `starts_at` its start, under
a `schedule_key` unique in the store (the entry's key and the local date and time): two
directors, or one that restarted, never create it twice. Summer time is the zone's: the
occurrence is at that wall-clock time on that date (a time skipped by a change is taken as
`zoneinfo` folds it).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

AHEAD_SECONDS = 3600.0  # an occurrence is created (and open for registration) this long before it
_NOT_CONFIG = ("time", "zone", "days", "key")
_FORMAT_NAMES = {"minitorneo": "Minitorneo", "suizo": "Suizo", "arena": "Arena", "duplicado": "Duplicado"}


@dataclass(frozen=True)
class ScheduledEvent:
    key: str  # the store's `schedule_key`: unique per occurrence
    config: dict[str, Any]  # TournamentConfig.to_json-shaped, `starts_at` and `name` filled in
    starts_at: float


def entry_key(entry: Mapping[str, Any]) -> str:
    """An entry's own name: its `key`, else what it is and when."""
    if entry.get("key"):
        return str(entry["key"])
    what = f"{entry.get('format', 'minitorneo')}-{entry.get('entry', 'duel')}-{entry.get('size', 8)}"
    return f"{what}-{entry['time']}-{entry['zone']}"


def occurrences(entry: Mapping[str, Any], since: float, until: float) -> list[ScheduledEvent]:
    """The entry's occurrences that start in (since, until]."""
    zone = ZoneInfo(str(entry["zone"]))
    hours, minutes = (int(part) for part in str(entry["time"]).split(":"))
    days = set(entry["days"]) if entry.get("days") is not None else None
    first = dt.datetime.fromtimestamp(since, zone).date()
    found = []
    for offset in range(-1, int((until - since) // 86400) + 2):
        date = first + dt.timedelta(days=offset)
        if days is not None and date.weekday() not in days:
            continue
        local = dt.datetime(date.year, date.month, date.day, hours, minutes, tzinfo=zone)
        starts_at = local.timestamp()
        if not since < starts_at <= until:
            continue
        config = {key: value for key, value in entry.items() if key not in _NOT_CONFIG}
        config["starts_at"] = starts_at
        config.setdefault("format", "minitorneo")
        config.setdefault(
            "name", f"{_FORMAT_NAMES.get(str(config['format']), 'Torneo')} de las {entry['time']}"
        )
        key = f"{entry_key(entry)}@{date.isoformat()}T{hours:02d}:{minutes:02d}"
        found.append(ScheduledEvent(key, config, starts_at))
    return found


def due(
    entries: Iterable[Mapping[str, Any]], now: float, ahead: float = AHEAD_SECONDS
) -> list[ScheduledEvent]:
    """Every entry's occurrences that start within `ahead` seconds of `now`: to create now."""
    return [event for entry in entries for event in occurrences(entry, now, now + ahead)]
