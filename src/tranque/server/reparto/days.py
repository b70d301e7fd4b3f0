"""The reparto's days: the calendar day in America/Bogota (no daylight saving there, but
`zoneinfo` is asked all the same), as `YYYY-MM-DD`."""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

ZONE = ZoneInfo("America/Bogota")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def day_of(instant: float) -> str:
    """The day in Bogotá at `instant` (seconds since the epoch)."""
    return datetime.fromtimestamp(instant, ZONE).date().isoformat()


def parse_day(text: str) -> str:
    """`text` if it is a real day written `YYYY-MM-DD`; ValueError otherwise."""
    if not _DAY.fullmatch(text):
        raise ValueError(f"not a day: {text!r}")
    return date.fromisoformat(text).isoformat()


def shifted(day: str, days: int) -> str:
    """The day `days` after `day` (before, when negative)."""
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def day_start(day: str) -> float:
    """The instant the day starts in Bogotá (its midnight)."""
    return datetime.combine(date.fromisoformat(day), time(0), ZONE).timestamp()


def day_end(day: str) -> float:
    """The instant the day ends in Bogotá: the next day's midnight, when it is revealed."""
    return day_start(shifted(day, 1))
