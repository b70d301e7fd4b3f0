"""The serving garbage-collection policy (collector.py): what is alive is frozen on the clock,
young garbage is still collected young, and the full collection finds cycles among frozen objects."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator

import pytest

from tranque.server import collector
from tranque.server.app import create_app
from tranque.server.collector import Collector
from tranque.server.settings import Settings


class Node:
    other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Two objects that refer to each other and nothing else refers to: garbage only a
    collection can free."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def tracked(thing: object) -> bool:
    """Whether a collection of any generation would walk `thing` (frozen objects are in none)."""
    return any(item is thing for item in gc.get_objects())


async def until(condition: Callable[[], bool], what: str, seconds: float = 10) -> None:
    """Let the loop run (the collector's timers fire) until `condition()` holds."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, f"never: {what}"
        await asyncio.sleep(0.005)


@pytest.fixture
def gc_restored() -> Iterator[None]:
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    (gc.enable if enabled else gc.disable)()
    collector._managed = False


@pytest.mark.anyio
async def test_a_running_collector_freezes_what_lives_so_no_collection_walks_it(gc_restored: None) -> None:
    running = Collector(freeze_seconds=0.01)
    running.start()
    try:
        survivor = [object()]
        assert tracked(survivor)
        await until(lambda: not tracked(survivor), "the collector freezes what lives")
        assert survivor[0] is not None  # frozen, not gone
    finally:
        running.close()


def test_pythons_own_collector_still_collects_young_garbage_by_itself(gc_restored: None) -> None:
    collector.manage()
    assert gc.isenabled()
    dead = cycle()
    # allocations enough for a young collection
    kept: list[list[int]] = [[] for _ in range(5 * gc.get_threshold()[0])]
    assert dead() is None and len(kept) > 0


def test_the_full_collection_finds_cycles_among_frozen_objects(gc_restored: None) -> None:
    dead = cycle()
    gc.freeze()  # the cycle was alive at a tick, then its last outside reference went
    gc.collect()
    assert dead() is not None  # no ordinary collection walks frozen objects
    full = Collector()
    found = full.collect_all()
    assert dead() is None
    assert found >= 2 and full.last_full_found == found and full.full_collections == 1
    assert full.last_full_ms is not None and full.last_full_ms >= 0
    assert gc.get_freeze_count() > 0  # what survived is frozen again


def test_the_full_collection_comes_due_on_the_clock(gc_restored: None) -> None:
    async def run() -> Collector:
        due = Collector(freeze_seconds=0.01, full_seconds=0.03)
        due.start()
        await until(lambda: due.full_collections >= 1, "a full collection on the clock")
        due.close()
        return due

    assert asyncio.run(run()).full_collections >= 1


@pytest.mark.anyio
async def test_the_app_runs_a_collector_only_when_serve_manages_collection(gc_restored: None) -> None:
    app = create_app(Settings(database_url="memory://"))
    async with app.router.lifespan_context(app):
        assert app.state.tranque.collector is None
    collector.manage()
    app = create_app(Settings(database_url="memory://"))
    async with app.router.lifespan_context(app):
        running = app.state.tranque.collector
        assert isinstance(running, Collector)
        survivor = [object()]
        await until(lambda: not tracked(survivor), "the app's collector freezes what lives")
    assert running._timer is None  # closed with the app
