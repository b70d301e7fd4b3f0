"""A real server runs the fair-play sampler with its settings (`fairplay_*`), on every backend,
and hands the signals it finds to `fairplay_on_signal`; off, it runs none."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.moderation.test_sampler import rated_duels
from tests.server.support.http_helpers import database_url, live
from tranque.server.moderation.sampler import FairPlaySampler
from tranque.server.moderation.signals import FLOW, Signal
from tranque.server.store.moderation import ReviewItem

__all__ = ["database_url"]  # the fixture: a server on every backend


def test_a_server_runs_the_sampler_and_hands_its_signals_over(database_url: str) -> None:
    got: list[Signal] = []

    async def on_signal(signal: Signal) -> None:
        got.append(signal)

    settings: dict[str, Any] = {
        "fairplay_sampler": True,
        "fairplay_sample_rate": 0.0,  # results only: what is checked needs no analysis
        "fairplay_on_signal": on_signal,
        "fairplay_in_processes": False,
    }
    with live(database_url, **settings) as server:
        fairplay: FairPlaySampler | None = server.state.fairplay
        assert fairplay is not None and fairplay._task is not None and not fairplay._task.done()

        async def seed() -> tuple[int, int]:
            return await rated_duels(server.state.store, [1] * 12, server.settings.clock.now() - 3600)

        giver, receiver = server.on_server(seed)

        async def check() -> list[Signal]:
            await asyncio.sleep(0)
            return await fairplay.check()

        found = server.on_server(check)
    assert [(s.kind, s.accounts) for s in found] == [(FLOW, (giver, receiver))]
    assert got == found


def test_a_server_with_the_sampler_off_runs_none(database_url: str) -> None:
    with live(database_url) as server:  # the tests' settings turn it off
        fairplay = server.state.fairplay
        assert fairplay is not None and fairplay._task is None


def test_a_servers_signals_go_to_the_moderators_queue_once_per_finding(database_url: str) -> None:
    settings: dict[str, Any] = {
        "fairplay_sampler": True,
        "fairplay_sample_rate": 0.0,
        "fairplay_in_processes": False,
    }
    with live(database_url, **settings) as server:
        fairplay = server.state.fairplay
        assert fairplay is not None
        store = server.state.store

        async def seed() -> tuple[int, int]:
            return await rated_duels(store, [1] * 12, server.settings.clock.now() - 3600)

        giver, receiver = server.on_server(seed)

        async def check_twice() -> list[ReviewItem]:
            await fairplay.check()
            fairplay._signalled.clear()  # as if another process (or a restart) found it again
            await fairplay.check()
            items: list[ReviewItem] = await store.review_items("open", 100)
            return items

        items = server.on_server(check_twice)
    assert [(item.kind, item.subjects) for item in items] == [(FLOW, [giver, receiver])]
    assert items[0].evidence["net_points"] > 0
