"""The recorder (players/recorder.py): a game's end stands whatever happens to its recording,
and each game end is recorded once, after the table, on every store.

Each table is the real `Table` actor (tests/server/support/inprocess.py) on a real store (the
`store` fixture: memory, SQLite and PostgreSQL); the recorder runs as the app runs it, a task
woken when a game is over, and fails through its `check` hook, which a test sets."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from tests.server.support.inprocess import TableRig, play_until
from tranque.engine import Rules
from tranque.server.players.rating_scale import shown
from tranque.server.players.recorder import Recorder
from tranque.server.store import Store
from tranque.server.store.outbox import GameEnd
from tranque.server.table import commands
from tranque.server.table.actor import Table
from tranque.server.table.state import Phase, TableKind

pytestmark = pytest.mark.anyio

DUEL = Rules.preset("clasico", players=2, mode="individual")
WITHIN = 30.0  # seconds a running recorder may take to try a game end


class Fault(Exception):
    pass


async def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WITHIN
    while not condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.01)


@asynccontextmanager
async def rated_duel(store: Store) -> AsyncIterator[tuple[TableRig, Recorder, list[int], list[GameEnd]]]:
    """A competitive duel of two accounts from two addresses, both following it, and a
    recorder running beside it as the app runs one (woken when the game is over, telling the
    table of each game end it records, listed last)."""
    users = [(await store.create_user(f"jugador{seat}", "hash", 0.0)).user_id for seat in range(2)]
    recorder = Recorder(store, retry_seconds=0.01)
    async with TableRig.opened(DUEL, TableKind.PUBLIC, store, competitive=True) as rig:
        done: list[GameEnd] = []

        def recorded(end: GameEnd) -> None:
            done.append(end)
            rig.table.post(commands.RatingsRecorded())

        recorder.recorded = recorded

        def changed(table: Table) -> None:
            if table.state.phase.is_over:
                recorder.wake()

        rig.table.on_change = changed
        for seat, user in enumerate(users):
            seated = await rig.call(commands.Sit(user, f"jugador{seat}", seat, f"10.0.0.{seat + 1}"))
            rig.tokens[seat] = seated["token"]
            await rig.hello(seat)
        recorder.start()
        try:
            yield rig, recorder, users, done
        finally:
            await recorder.close()


async def test_a_failing_recording_leaves_the_games_end_standing_and_records_it_once_it_clears(
    store: Store,
) -> None:
    async with rated_duel(store) as (rig, recorder, users, done):
        tries: list[GameEnd] = []

        def fail(end: GameEnd) -> None:
            tries.append(end)
            raise Fault("the ratings cannot be kept")

        recorder.check = fail
        await play_until(rig, lambda state: state.phase.is_over, humans=(0, 1))
        await until(lambda: len(tries) >= 2, "the recorder did not try (and try again)")

        # The winning move and the game's end stand, stored and sent as ever.
        assert rig.phase() is Phase.FINISHED
        assert (await rig.replayed()).phase is Phase.FINISHED
        log = await rig.log()
        assert [event.kind for event in log][-2:] == ["round_ended", "game_ended"]
        ended = log[-1]
        assert ended.data["reason"] == "target" and len(ended.data["rating_changes"]) == 2
        assert tries[0] == GameEnd(rig.table_id, ended.seq, ended.at)
        # ... and nothing of its recording was kept.
        assert await store.game_ends(10) == [tries[0]]
        assert await store.load_game(f"{rig.table_id}.1") is None
        assert await store.ratings_of(users, "duel") == {}
        assert [await store.xp_of(user) for user in users] == [{}, {}]

        recorder.check = None  # the fault clears: the end is recorded at the next try
        recorder.wake()
        await until(lambda: bool(done), "the game end was not recorded once the fault cleared")
        assert done == tries[:1]
        found = await store.ratings_of(users, "duel")
        assert [found[user].games for user in users] == [1, 1]
        changes = ended.data["rating_changes"]
        assert [change["after"] for change in changes] == [
            round(shown(found[user].mu, found[user].sigma)) for user in users
        ]
        assert [(await store.xp_of(user))["all"] for user in users] == [change["xp"] for change in changes]
        assert await store.game_ends(10) == []
        assert await recorder.catch_up() == 0  # once recorded, never again
        assert [row.games for row in (await store.ratings_of(users, "duel")).values()] == [1, 1]


async def test_a_rematch_shows_the_ratings_the_recorder_kept(store: Store) -> None:
    async with rated_duel(store) as (rig, _, users, done):
        await play_until(rig, lambda state: state.phase.is_over, humans=(0, 1))
        await until(lambda: bool(done), "the game end was not recorded")
        await rig.table.until_idle()  # the table told
        found = await store.ratings_of(users, "duel")
        for seat in (0, 1):
            await rig.call(commands.Rematch(seat))
        rating = rig.table.state.rating
        assert rating is not None
        assert [seat["rating"] for seat in rating["seats"]] == [round(found[user].shown) for user in users]


async def test_an_annulled_game_is_recorded_as_leaving_nothing(store: Store) -> None:
    async with rated_duel(store) as (rig, _, users, done):
        await play_until(rig, lambda state: state.phase is Phase.PLAYING, humans=(0, 1))
        for seat in (0, 1):
            await rig.call(commands.Vote(seat, True))
        assert rig.phase() is Phase.ANNULLED
        await until(lambda: bool(done), "the game end was not recorded")
        ended = (await rig.log())[-1]
        assert (ended.kind, ended.data["reason"]) == ("game_ended", "annulled")
        assert done == [GameEnd(rig.table_id, ended.seq, ended.at)]
        assert await store.game_ends(10) == []
        assert await store.load_game(f"{rig.table_id}.1") is None
        assert await store.ratings_of(users, "duel") == {}
