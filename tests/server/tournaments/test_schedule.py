"""Recurring events (tournaments/schedule.py): each occurrence at its wall-clock time in its
zone, created ahead of time once, however many directors look."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tranque.server.lobby.presence import Presence
from tranque.server.lobby.registry import Registry
from tranque.server.store import MemoryStore
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.tournaments import schedule
from tranque.server.tournaments.director import Director

BOGOTA = ZoneInfo("America/Bogota")
EVENING = {
    "format": "minitorneo",
    "entry": "duel",
    "size": 8,
    "time": "20:00",
    "zone": "America/Bogota",
    "bot_fill": True,
    "rated": False,
}


def at(year: int, month: int, day: int, hour: int, minute: int, zone: ZoneInfo = BOGOTA) -> float:
    return dt.datetime(year, month, day, hour, minute, tzinfo=zone).timestamp()


def test_an_evening_minitorneo_is_due_an_hour_before_its_bogota_time_and_not_before() -> None:
    (event,) = schedule.due([EVENING], at(2026, 12, 7, 19, 30))
    assert event.starts_at == at(2026, 12, 7, 20, 0)
    assert event.starts_at == dt.datetime(2026, 12, 8, 1, 0, tzinfo=dt.UTC).timestamp()  # UTC-5
    assert event.key == "minitorneo-duel-8-20:00-America/Bogota@2026-12-07T20:00"
    assert event.config["starts_at"] == event.starts_at and event.config["size"] == 8
    assert "time" not in event.config and "zone" not in event.config
    assert event.config["name"] == "Minitorneo de las 20:00"
    assert schedule.due([EVENING], at(2026, 12, 7, 18, 30)) == []  # more than an hour ahead
    assert schedule.due([EVENING], at(2026, 12, 7, 20, 0)) == []  # started: not created now


def test_a_weekday_entry_skips_the_other_days_and_summer_time_keeps_the_wall_clock() -> None:
    sundays = {**EVENING, "days": [6]}
    assert schedule.due([sundays], at(2026, 12, 7, 19, 30)) == []  # a Monday
    (sunday,) = schedule.due([sundays], at(2026, 12, 13, 19, 30))
    assert sunday.starts_at == at(2026, 12, 13, 20, 0)
    madrid = ZoneInfo("Europe/Madrid")
    spain = {**EVENING, "zone": "Europe/Madrid"}
    winter = schedule.due([spain], at(2026, 1, 10, 19, 30, madrid))[0].starts_at
    summer = schedule.due([spain], at(2026, 7, 10, 19, 30, madrid))[0].starts_at
    assert dt.datetime.fromtimestamp(winter, dt.UTC).hour == 19  # CET
    assert dt.datetime.fromtimestamp(summer, dt.UTC).hour == 18  # CEST


@pytest.mark.anyio
async def test_two_directors_create_each_occurrence_once() -> None:
    store = MemoryStore()
    await store.start()
    clock = FakeClock(start=at(2026, 12, 7, 19, 10))
    directors = []
    for _ in range(2):
        registry = Registry(store, clock, InlineBots(), {})
        directors.append(Director(store, registry, Presence(clock), clock, schedule=[EVENING]))
    for director in directors:
        await director.run_pass()
        await director.run_pass()
    live = [await store.tournament(tournament_id) for tournament_id in await store.live_tournaments()]
    assert len(live) == 1
    (row,) = live
    assert row is not None and row.schedule_key == "minitorneo-duel-8-20:00-America/Bogota@2026-12-07T20:00"
    assert row.status == "open" and row.starts_at == at(2026, 12, 7, 20, 0)
    assert row.doc["config"]["bot_fill"] is True
