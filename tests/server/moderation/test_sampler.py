"""The fair-play sampler (moderation/sampler.py) on every store: a rated game in the sample
is analysed off the event loop and its people's figures kept (those the analysis gives, a bot
account's seat left out); a game out of the sample, or unrated, is not; a restarted sampler
goes on where the last one left off; players' own analyses come first; the signals found
are handed to the callback once each; in processes, a worker process evaluates."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import pytest

from tests.bots.test_analysis import small_game
from tranque.bots.analysis import Evaluation, Job, analyze, evaluate_job
from tranque.engine.record import to_record
from tranque.server.moderation.sampler import FairPlaySampler, chosen
from tranque.server.moderation.signals import FLOW, Signal
from tranque.server.players import ratings
from tranque.server.store import AnalysisRow, GamePlayerRow, GameRow, MemoryStore, Store
from tranque.server.table.clock import FakeClock

pytestmark = pytest.mark.anyio

GAME_SEED = 3  # greedy (seat 0) against random, clasico 1 contra 1 to 30: 10 decisions to judge
DEALS = 3
POLL = 30.0


class Recording:
    """`evaluate_job`, noting the thread each evaluation ran on."""

    def __init__(self) -> None:
        self.threads: list[int] = []

    def __call__(self, job: Job) -> Evaluation:
        self.threads.append(threading.get_ident())
        return evaluate_job(job)


def sampler_of(store: Store, clock: FakeClock, **changes: Any) -> FairPlaySampler:
    options: dict[str, Any] = {"rate": 1.0, "deals": DEALS, "poll": POLL, "in_processes": False, **changes}
    return FairPlaySampler(store, clock, **options)


async def keep_rated(
    store: Store, game_id: str, users: list[int], at: float, *, rated: bool = True, winner: int = 0
) -> None:
    """A finished duel with a real record (the small game), rated from newcomers' ratings."""
    table_id, number = game_id.split(".")
    game = GameRow(
        game_id, table_id, int(number), at, "clasico", "duel", 2, "public", False, True, rated,
        None if rated else "casual", {"seats": []}, to_record(small_game(seed=GAME_SEED)),
    )  # fmt: skip
    parts = []
    for seat, user in enumerate(users):
        mu_after = 27.0 if seat == winner else 23.0
        figures = (25.0, 25 / 3, mu_after, 8.0) if rated else (None, None, None, None)
        parts.append(
            GamePlayerRow(
                game_id, user, seat, at, "clasico", "duel", False, seat == winner, False, 10, *figures
            )
        )
    await store.save_game(game, parts, [], [])


async def test_a_sampled_game_is_analysed_off_the_loop_and_its_figures_kept(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    await keep_rated(store, "mesa.1", [ana, bea], clock.now() - 60)
    recording = Recording()
    sampler = sampler_of(store, clock, evaluate=recording)
    try:
        assert await sampler.run_once() == 1
    finally:
        await sampler.close()
    assert recording.threads and threading.get_ident() not in recording.threads
    report = analyze(small_game(seed=GAME_SEED), deals=DEALS, seed=0)
    samples = await store.fairplay_samples(0.0)
    assert [(s.game_id, s.user_id, s.seat) for s in samples] == [("mesa.1", ana, 0), ("mesa.1", bea, 1)]
    for kept in samples:
        figures = report.accuracy_of(kept.seat)
        assert kept.decisions == figures.decisions > 0
        assert (kept.accurate, kept.inaccuracies, kept.errors) == (
            figures.accurate,
            figures.inaccuracies,
            figures.errors,
        )
        assert kept.total_loss == pytest.approx(figures.total_loss)
        assert (kept.mu_before, kept.deals, kept.format) == (25.0, DEALS, "duel")
    assert len(recording.threads) == sum(s.decisions for s in samples)


async def test_a_bot_accounts_seat_is_left_out(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bot = (await store.create_bot("robotina", ana, 1.0, 5)).user_id
    await keep_rated(store, "mesa.1", [ana, bot], clock.now() - 60)
    sampler = sampler_of(store, clock)
    try:
        assert await sampler.run_once() == 1
    finally:
        await sampler.close()
    assert [s.user_id for s in await store.fairplay_samples(0.0)] == [ana]


async def test_games_out_of_the_sample_or_unrated_are_not_analysed(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    await keep_rated(store, "casual.1", [ana, bea], clock.now() - 60, rated=False)
    ids = [f"t{n}.1" for n in range(40)]
    for n, game_id in enumerate(ids):
        await keep_rated(store, game_id, [ana, bea], clock.now() - 50 + n)
    rate = 0.2
    expected = [game_id for game_id in ids if chosen(game_id, rate)]
    assert 0 < len(expected) < len(ids)  # the hash picks some, not all
    recording = Recording()
    sampler = sampler_of(store, clock, rate=rate, evaluate=recording)
    try:
        assert await sampler.run_once() == len(expected)
    finally:
        await sampler.close()
    assert sorted({s.game_id for s in await store.fairplay_samples(0.0)}) == sorted(expected)


async def test_a_restarted_sampler_goes_on_where_the_last_left_off(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    await keep_rated(store, "a.1", [ana, bea], clock.now() - 60)
    first = sampler_of(store, clock)
    try:
        assert await first.run_once() == 1
        assert await first.run_once() == 0  # nothing new
    finally:
        await first.close()
    await keep_rated(store, "b.1", [ana, bea], clock.now() - 30)
    recording = Recording()
    second = sampler_of(store, clock, evaluate=recording)
    try:
        assert await second.run_once() == 1  # b.1 only: a.1 is not analysed again
    finally:
        await second.close()
    assert sorted({s.game_id for s in await store.fairplay_samples(0.0)}) == ["a.1", "b.1"]
    assert len(recording.threads) == sum(
        s.decisions for s in await store.fairplay_samples(0.0) if s.game_id == "b.1"
    )


async def test_players_own_analyses_come_first(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    await keep_rated(store, "mesa.1", [ana, bea], clock.now() - 60)
    await keep_rated(store, "otra.1", [ana, bea], clock.now() - 120, rated=False)
    await store.save_analysis(AnalysisRow("otra.1", ana, "pending", clock.now()))
    recording = Recording()
    sampler = sampler_of(store, clock, evaluate=recording)
    task = asyncio.create_task(sampler.run_once())
    try:
        for _ in range(50):  # the sampler asks the store, finds a player's analysis, and sleeps
            await asyncio.sleep(0.01)
        assert recording.threads == [] and not task.done()
        await store.save_analysis(AnalysisRow("otra.1", ana, "done", clock.now(), 1, 1, {}, clock.now()))
        clock.advance(POLL)
        assert await task == 1
    finally:
        task.cancel()
        await sampler.close()
    assert recording.threads


async def rated_duels(store: Store, winner_of: list[int], at: float) -> tuple[int, int]:
    """Rated duels of two new accounts with the site's model, game n won by seat winner_of[n]."""
    users = [(await store.create_user(name, "hash", 1.0)).user_id for name in ("ana", "bea")]
    current = [ratings.rating(), ratings.rating()]
    for number, winner in enumerate(winner_of):
        after = ratings.rate([[current[0]], [current[1]]], [0 if winner == 0 else 1, 0 if winner == 1 else 1])
        game_id = f"d{number}.1"
        game = GameRow(
            game_id, "d", 1, at + number, "clasico", "duel", 2, "public", False, True, True, None,
            {"seats": []}, {"rounds": []},
        )  # fmt: skip
        parts = [
            GamePlayerRow(
                game_id,
                users[seat],
                seat,
                at + number,
                "clasico",
                "duel",
                False,
                seat == winner,
                False,
                10,
                current[seat].mu,
                current[seat].sigma,
                after[seat][0].mu,
                after[seat][0].sigma,
            )
            for seat in (0, 1)
        ]
        await store.save_game(game, parts, [], [])
        current = [after[0][0], after[1][0]]
    return users[0], users[1]


async def test_the_callback_gets_each_signal_once(store: Store) -> None:
    clock = FakeClock()
    giver, receiver = await rated_duels(store, [1] * 12, clock.now() - 3600)
    got: list[Signal] = []

    async def on_signal(signal: Signal) -> None:
        got.append(signal)

    sampler = sampler_of(store, clock, rate=0.0, on_signal=on_signal)  # no analysis: results only
    try:
        assert await sampler.run_once() == 0
        assert [(s.kind, s.accounts) for s in got] == [(FLOW, (giver, receiver))]
        assert got[0].evidence["games_together"] == 12 and got[0].evidence["receiver_ahead"] == 12
        assert await sampler.check() == [] and len(got) == 1  # handed over once
    finally:
        await sampler.close()


async def test_the_signals_are_computed_at_start_then_at_most_every_check_interval(store: Store) -> None:
    clock = FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    checks: list[float] = []

    class Counted(FairPlaySampler):
        async def check(self) -> list[Signal]:
            checks.append(self.clock.now())
            return await super().check()

    sampler = Counted(store, clock, rate=1.0, deals=DEALS, in_processes=False, check_every=3600.0)
    try:
        assert await sampler.run_once() == 0 and checks == [clock.now()]  # at start
        await keep_rated(store, "a.1", [ana, bea], clock.now() - 10)
        assert await sampler.run_once() == 1 and len(checks) == 1  # sampled, but within the hour
        clock.advance(3600.0)
        await keep_rated(store, "b.1", [ana, bea], clock.now() - 10)
        assert await sampler.run_once() == 1 and len(checks) == 2
        assert await sampler.run_once() == 0 and len(checks) == 2  # nothing sampled: nothing to look at
    finally:
        await sampler.close()


async def test_in_processes_the_decisions_are_evaluated_in_a_worker_process() -> None:
    store, clock = MemoryStore(), FakeClock()
    ana = (await store.create_user("ana", "hash", 1.0)).user_id
    bea = (await store.create_user("bea", "hash", 1.0)).user_id
    await keep_rated(store, "mesa.1", [ana, bea], clock.now() - 60)
    sampler = sampler_of(store, clock, in_processes=True)
    try:
        assert await sampler.run_once() == 1
        pids = sampler.worker_pids()
        assert pids and os.getpid() not in pids
    finally:
        await sampler.close()
    report = analyze(small_game(seed=GAME_SEED), deals=DEALS, seed=0)
    kept = await store.fairplay_samples(0.0)
    assert [(s.decisions, s.accurate) for s in kept] == [
        (report.accuracy_of(seat).decisions, report.accuracy_of(seat).accurate) for seat in (0, 1)
    ]
