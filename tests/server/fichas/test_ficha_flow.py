"""The `ficha_flow` signal (moderation/signals.py) on hand-made ledgers: an account that keeps
losing its stakes to the same friend is flagged with the games as evidence; ordinary play
(an even rivalry, a strong player beating many) is not; a few games never flag; refunded
games move nothing; the store reads the window's games only (no grant, refill or tournament),
on every backend."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tranque.server.fichas import ledger, rules
from tranque.server.fichas.ledger import Kind, Movement
from tranque.server.moderation.review_queue import queue_signals
from tranque.server.moderation.sampler import FairPlaySampler
from tranque.server.moderation.signals import (
    FICHA_FLOW,
    Thresholds,
    ficha_flow_signals,
    game_nets,
)
from tranque.server.store import Store
from tranque.server.table.clock import FakeClock

LIMITS = Thresholds()
CUT = 0.40


def staked_game(table: str, number: int, stakes: dict[int, int], winners: list[int]) -> list[Movement]:
    """One game's movements as the site writes them: each seat's stake into the pot, then the
    pot settled (the winners take it less the bank's cut)."""
    pot, ref = ledger.pot(table, number), ledger.game_ref(table, number)
    moved = [
        Movement(f"stake:{ref}:{seat}:{user}", ledger.account(user), pot, amount, Kind.STAKE, user, ref, 0.0)
        for seat, (user, amount) in enumerate(sorted(stakes.items()))
    ]
    return moved + rules.settle(pot, ref, stakes, winners, CUT, rated=True, annulled=False)


def duels(table: str, first: int, second: int, winners: list[int], stake: int = 500) -> list[Movement]:
    moved: list[Movement] = []
    for number, winner in enumerate(winners, start=1):
        moved += staked_game(table, number, {first: stake, second: stake}, [winner])
    return moved


def test_a_game_nets_each_account_what_came_back_less_its_stake() -> None:
    nets = game_nets(staked_game("t", 1, {1: 500, 2: 500}, [2]))
    assert nets == {"t.1": {1: -500, 2: 100}}  # the pot of 1000 less the cut of 400 to the winner


def test_a_feeder_losing_to_the_same_friend_is_flagged_with_the_games() -> None:
    moved = duels("feed", 7, 8, [8] * 12)
    found = ficha_flow_signals(moved, LIMITS)
    assert len(found) == 1
    signal = found[0]
    assert signal.kind == FICHA_FLOW == "ficha_flow"
    assert signal.accounts == (7, 8)  # the giver, then the receiver
    evidence = signal.evidence
    assert evidence["games_together"] == 12 and evidence["receiver_ahead"] == 12
    assert evidence["net_fichas"] == 12 * 100 and evidence["given_back"] == 0
    assert evidence["share_of_winnings"] == 1.0
    assert evidence["game_ids"] == [f"feed.{n}" for n in range(1, 13)]


def test_the_feeder_is_found_among_ordinary_games_of_others() -> None:
    rng = random.Random(3)
    moved = duels("feed", 7, 8, [8] * 11 + [7])
    moved += duels("other", 1, 2, [rng.choice([1, 2]) for _ in range(40)])
    assert [s.accounts for s in ficha_flow_signals(moved, LIMITS)] == [(7, 8)]


def test_an_even_rivalry_is_not_flagged() -> None:
    rng = random.Random(11)
    winners = [rng.choice([1, 2]) for _ in range(60)]
    assert ficha_flow_signals(duels("t", 1, 2, winners), LIMITS) == []


def test_a_strong_player_beating_many_opponents_is_not_flagged() -> None:
    moved: list[Movement] = []
    for opponent in range(10, 30):  # twenty opponents, three games each, the strong one wins most
        moved += duels(f"t{opponent}", 1, opponent, [1, 1, opponent])
    assert ficha_flow_signals(moved, LIMITS) == []


def test_few_games_never_flag_however_lopsided() -> None:
    assert ficha_flow_signals(duels("t", 7, 8, [8] * (LIMITS.ficha_flow_min_games - 1)), LIMITS) == []


def test_refunded_games_move_nothing_between_the_players() -> None:
    moved: list[Movement] = []
    for number in range(1, 15):  # unrated (same address): every stake back, no cut
        ref, pot = ledger.game_ref("t", number), ledger.pot("t", number)
        stakes = {7: 500, 8: 500}
        moved += [
            Movement(f"stake:{ref}:{u}", ledger.account(u), pot, 500, Kind.STAKE, u, ref, 0.0) for u in stakes
        ]
        moved += rules.settle(pot, ref, stakes, [8], CUT, rated=False, annulled=False)
    assert ficha_flow_signals(moved, LIMITS) == []


@pytest.mark.anyio
async def test_the_store_reads_only_the_games_of_the_window(
    store: Store,
) -> None:
    grant = Movement("grant:7", ledger.GRANTS, ledger.account(7), 1000, Kind.GRANT, 7, "", 5.0)
    old = Movement("stake:t.1:0:7", ledger.account(7), ledger.pot("t", 1), 10, Kind.STAKE, 7, "t.1", 5.0)
    new = Movement("stake:t.2:0:7", ledger.account(7), ledger.pot("t", 2), 10, Kind.STAKE, 7, "t.2", 20.0)
    entry = Movement(
        "entry:x:7", ledger.account(7), ledger.tournament_pot("x"), 50, Kind.ENTRY, 7, "tournament:x", 20.0
    )
    await store.move_fichas([grant, old, new, entry])
    found = await store.ficha_game_movements_since(10.0)
    assert [movement.key for movement in found] == ["stake:t.2:0:7"]


@pytest.mark.anyio
async def test_the_sampler_puts_a_feeder_in_the_moderators_queue_once(store: Store) -> None:
    clock = FakeClock()
    at = clock.now() - 3600
    moved = [dataclasses.replace(movement, at=at) for movement in duels("feed", 7, 8, [8] * 12)]
    await store.move_fichas(
        [
            Movement(f"grant:{u}", ledger.GRANTS, ledger.account(u), 10_000, Kind.GRANT, u, "", at)
            for u in (7, 8)
        ]
    )
    await store.move_fichas(moved)
    sampler = FairPlaySampler(store, clock, rate=0.0, in_processes=False, on_signal=queue_signals(store))
    try:
        assert [(s.kind, s.accounts) for s in await sampler.check()] == [(FICHA_FLOW, (7, 8))]
        assert await sampler.check() == []  # handed over once
    finally:
        await sampler.close()
    items = await store.review_items("open", 10)
    assert [(item.kind, item.subjects) for item in items] == [("ficha_flow", [7, 8])]
    assert items[0].evidence["game_ids"] == [f"feed.{n}" for n in range(1, 13)]
