"""Registering, withdrawing, cancelling and starting: what the machine refuses (each with its
catalogue code, the document unchanged) and how a field is formed at the start."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from tests.server.tournaments.simulated import Chances, drive, field_of, outcome
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError
from tranque.server.tournaments.machine import CreateTable, Notify, Status, Tournament

CREATOR = 1000


def config(**changes: Any) -> TournamentConfig:
    base = TournamentConfig(name="Copa del barrio", format=Format.MINITORNEO, entry=Entry.DUEL)
    config: TournamentConfig = replace(base, **changes)
    return config.checked()


def refused(code: str, call: Callable[[], object], tournament: Tournament) -> TournamentError:
    """`call()` raises the refusal `code` and leaves the document as it was."""
    before = tournament.to_json()
    with pytest.raises(TournamentError) as raised:
        call()
    assert raised.value.key == code, raised.value.key
    assert raised.value.message and raised.value.message_en != raised.value.message
    assert tournament.to_json() == before
    return raised.value


def ids() -> Callable[[], str]:
    numbers = iter(range(1, 10_000))
    return lambda: f"table-{next(numbers)}"


def test_registering_twice_is_refused() -> None:
    t = Tournament.new("t", config(), CREATOR, 0.0)
    t.register(1, "ana", 1500, 1.0)
    refused("tournament_registered", lambda: t.register(1, "ana", 1500, 2.0), t)


def test_a_full_field_is_refused_and_a_full_minitorneo_starts_at_once() -> None:
    t = Tournament.new("t", config(size=4), CREATOR, 0.0)
    for account in range(1, 5):
        assert t.can_register(account, 1.0)
        t.register(account, f"p{account}", 1500, 1.0)
    assert not t.can_register(5, 1.0)
    refused("tournament_full", lambda: t.register(5, "p5", 1500, 1.0), t)
    effects = t.step(2.0, random.Random(1), ids())
    assert t.status is Status.RUNNING
    assert len([e for e in effects if isinstance(e, CreateTable)]) == 2


def test_registering_after_the_start_is_refused() -> None:
    t = field_of(config(size=4), 4)
    t.step(1.0, random.Random(1), ids())
    assert t.status is Status.RUNNING
    refused("tournament_started", lambda: t.register(9, "tarde", 1500, 2.0), t)


def test_a_private_tournament_needs_its_invitation_code() -> None:
    t = Tournament.new("t", config(private=True), CREATOR, 0.0)
    refused("tournament_private", lambda: t.register(1, "ana", 1500, 1.0), t)
    refused("tournament_private", lambda: t.register(1, "ana", 1500, 1.0, invite="nope"), t)
    code = t.invite_code()
    assert code not in str(t.public_json(None)) and t.secret not in str(t.public_json(None))
    t.register(1, "ana", 1500, 1.0, invite=code)
    assert t.registered(1)
    # the code is the tournament's own: another's does not open it
    other = Tournament.new("u", config(private=True), CREATOR, 0.0)
    refused("tournament_private", lambda: other.register(2, "bea", 1500, 1.0, invite=code), other)


def test_withdrawing_mid_game_is_refused_between_games_allowed() -> None:
    t = field_of(config(format=Format.SUIZO, size=6, rounds=3, starts_at=5.0), 6)
    t.step(5.0, random.Random(1), ids())
    game = t.playing_game_of(1)
    assert game is not None
    assert not t.can_withdraw(1)
    refused("tournament_mid_game", lambda: t.withdraw(1, 6.0), t)
    t.record(game.key, outcome(t, game, random.Random(2), Chances(), 7.0), 7.0)
    assert t.can_withdraw(1)
    t.withdraw(1, 8.0)
    entrant = t.entrant_of(1)
    assert entrant is not None and entrant.status == "withdrawn"
    refused("tournament_not_registered.out", lambda: t.withdraw(1, 9.0), t)
    refused("tournament_not_registered", lambda: t.withdraw(77, 9.0), t)


def test_the_creator_cannot_leave_before_the_start_but_may_cancel() -> None:
    t = Tournament.new("t", config(), CREATOR, 0.0)
    t.register(CREATOR, "dueña", 1500, 1.0)
    t.register(2, "bea", 1500, 1.0)
    assert not t.can_withdraw(CREATOR) and t.can_cancel(CREATOR) and not t.can_cancel(2)
    refused("tournament_creator", lambda: t.withdraw(CREATOR, 2.0), t)
    refused("tournament_creator.only", lambda: t.cancel(2, 2.0), t)
    effects = t.cancel(CREATOR, 3.0)
    assert t.status is Status.CANCELLED
    assert effects == [Notify((CREATOR, 2), t._message("cancelled"))]
    refused("tournament_over", lambda: t.register(3, "cata", 1500, 4.0), t)


def test_cancelling_after_the_start_is_refused() -> None:
    t = field_of(config(size=4), 4)
    t.step(1.0, random.Random(1), ids())
    refused("tournament_started.cancel", lambda: t.cancel(CREATOR, 2.0), t)


def test_withdrawing_before_the_start_undoes_the_registration() -> None:
    t = Tournament.new("t", config(), CREATOR, 0.0)
    for account in (1, 2, 3):
        t.register(account, f"p{account}", 1500, float(account))
    t.withdraw(2, 5.0)
    assert not t.registered(2)
    assert [(e.no, e.accounts) for e in t.entrants] == [(1, (1,)), (2, (3,))]


def test_a_rated_event_refuses_a_bot_only_field() -> None:
    t = Tournament.new("t", config(bot_fill=True, rated=True), CREATOR, 0.0)
    refused("tournament_bots_only", lambda: t.start(CREATOR, 1.0), t)
    # filled with bots at the end of the wait, nobody registered: called off, never played
    effects = t.step(301.0, random.Random(1), ids())
    assert t.status is Status.CANCELLED and not list(t.games())
    assert effects == []


def test_an_unrated_minitorneo_fills_with_bots_after_the_wait() -> None:
    t = Tournament.new("t", config(size=8, bot_fill=True, rated=False, fill_wait_seconds=60.0), CREATOR, 0.0)
    t.register(1, "ana", 1600, 1.0)
    assert t.wake_at() == 60.0
    assert t.step(59.0, random.Random(1), ids()) == []
    effects = t.step(60.0, random.Random(1), ids())
    assert t.status is Status.RUNNING and len(t.entrants) == 8
    assert [e.is_bot for e in t.entrants] == [False] + [True] * 7
    assert len({name for e in t.entrants for name in e.names}) == 8
    creates = [e for e in effects if isinstance(e, CreateTable)]
    assert len(creates) == 4 and not any(c.competitive for c in creates)
    run = drive(t, 4)
    assert run.tournament.status is Status.FINISHED


def test_a_rated_minitorneo_with_one_person_plays_with_bots() -> None:
    t = Tournament.new("t", config(size=4, bot_fill=True), CREATOR, 0.0)
    t.register(1, "ana", 1600, 1.0)
    effects = t.step(400.0, random.Random(1), ids())
    assert t.status is Status.RUNNING
    assert all(c.competitive for c in effects if isinstance(c, CreateTable))


def test_a_minitorneo_not_full_at_its_time_without_bots_is_called_off() -> None:
    t = Tournament.new("t", config(size=8, starts_at=100.0), CREATOR, 0.0)
    for account in (1, 2, 3):
        t.register(account, f"p{account}", 1500, 1.0)
    assert t.step(99.0, random.Random(1), ids()) == []
    effects = t.step(100.0, random.Random(1), ids())
    assert t.status is Status.CANCELLED
    assert effects == [Notify((1, 2, 3), t._message("cancelled"))]
    assert t.wake_at() is None


def test_the_creator_starts_an_event_without_a_start_time() -> None:
    t = Tournament.new("t", config(format=Format.SUIZO, size=10, rounds=3), CREATOR, 0.0)
    t.register(1, "ana", 1500, 1.0)
    refused("tournament_few", lambda: t.start(CREATOR, 2.0), t)
    t.register(2, "bea", 1500, 1.0)
    refused("tournament_creator.only", lambda: t.start(2, 2.0), t)
    assert t.wake_at() is None
    t.start(CREATOR, 3.0)
    assert t.wake_at() == 3.0
    t.step(3.0, random.Random(1), ids())
    assert t.status is Status.RUNNING and len(t.rounds) == 1


def test_seeds_follow_the_ratings_at_the_start() -> None:
    t = Tournament.new("t", config(size=4), CREATOR, 0.0)
    for account, rating in ((1, 1400), (2, 1900), (3, 1600), (4, 1750)):
        t.register(account, f"p{account}", rating, float(account))
    t.step(5.0, random.Random(1), ids())
    assert [e.accounts[0] for e in t.entrants] == [2, 4, 3, 1]
    assert [e.no for e in t.entrants] == [1, 2, 3, 4]
    # seed 1 meets seed 4, seed 2 meets seed 3
    assert sorted(tuple(sorted(g.sides[0] + g.sides[1])) for g in t.games()) == [(1, 4), (2, 3)]


class TestPairs:
    def test_mutual_names_make_a_pair_and_the_rest_pair_in_order(self) -> None:
        t = Tournament.new("t", config(entry=Entry.PAIRS, size=4, starts_at=50.0), CREATOR, 0.0)
        t.register(1, "ana", 1500, 1.0, partner="dora")
        t.register(2, "bea", 1500, 2.0)
        t.register(3, "cata", 1500, 3.0)
        t.register(4, "dora", 1500, 4.0, partner="ana")
        t.register(5, "eva", 1500, 5.0)
        assert [e.accounts for e in t.entrants] == [(1, 4), (2,), (3,), (5,)]
        refused("tournament_partner.taken", lambda: t.register(6, "fer", 1500, 6.0, partner="ana"), t)
        refused("tournament_partner.self", lambda: t.register(6, "fer", 1500, 6.0, partner="fer"), t)
        effects = t.step(50.0, random.Random(1), ids())
        # bea and cata make a pair; eva, alone and without bots, is left out and told
        assert sorted(e.accounts for e in t.entrants) == [(1, 4), (2, 3)]
        assert Notify((5,), t._message("withdrawn")) in effects
        assert not t.registered(5)

    def test_a_lone_player_gets_a_bot_partner_when_bots_fill(self) -> None:
        t = Tournament.new(
            "t", config(entry=Entry.PAIRS, size=4, starts_at=50.0, bot_fill=True), CREATOR, 0.0
        )
        for account in (1, 2, 3):
            t.register(account, f"p{account}", 1500, float(account))
        t.step(50.0, random.Random(1), ids())
        assert t.status is Status.RUNNING
        lone = t.entrant_of(3)
        assert lone is not None and lone.bot_level == "heuristic" and len(lone.names) == 2
        assert len(t.entrants) == 4  # filled to the bracket with bot pairs
        game = t.playing_game_of(3)
        assert game is not None
        seats = [s for s in game.seats if s.entrant == lone.no]
        assert [(s.account, s.bot_level) for s in seats] == [(3, None), (None, "heuristic")]

    def test_a_partner_outside_pairs_is_refused(self) -> None:
        t = Tournament.new("t", config(), CREATOR, 0.0)
        refused("tournament_partner.not_pairs", lambda: t.register(1, "ana", 1500, 1.0, partner="bea"), t)


class TestLateEntry:
    def test_a_suizo_takes_entrants_until_half_its_rounds_are_paired(self) -> None:
        t = field_of(config(format=Format.SUIZO, size=20, rounds=5, starts_at=1.0), 8)
        rng = random.Random(3)
        make = ids()
        t.step(1.0, rng, make)
        late = t.register(50, "tarde", 1500, 2.0)
        assert late.joined_round == 2
        for game in list(t.games()):
            t.record(game.key, outcome(t, game, rng, Chances(), 3.0), 3.0)
        t.step(4.0, rng, make)
        seated = {no for g in t.rounds[1].games for side in g.sides for no in side} | set(t.rounds[1].byes)
        assert late.no in seated
        assert t.late_entry_open(4.0)  # two rounds of five paired: 2 < 2.5
        for game in t.rounds[1].games:
            t.record(game.key, outcome(t, game, rng, Chances(), 5.0), 5.0)
        t.step(6.0, rng, make)
        assert len(t.rounds) == 3 and not t.late_entry_open(6.0)
        refused("tournament_started", lambda: t.register(51, "muy tarde", 1500, 7.0), t)
        # the late entrant starts with nothing: no bye counted for the round it missed
        standing = next(s for s in t.standings() if s.entrant == late.no)
        assert standing.byes == sum(late.no in plan.byes for plan in t.rounds)

    def test_a_knockout_and_a_duplicado_take_nobody_late(self) -> None:
        t = field_of(config(size=4), 4)
        t.step(1.0, random.Random(1), ids())
        assert not t.late_entry_open(1.0)
        d = field_of(config(format=Format.DUPLICADO, size=8, rounds=2, starts_at=1.0), 6)
        d.step(1.0, random.Random(1), ids())
        refused("tournament_started", lambda: d.register(70, "tarde", 1500, 2.0), d)

    def test_an_arena_takes_entrants_while_its_window_is_open(self) -> None:
        t = field_of(config(format=Format.ARENA, size=10, window_seconds=600.0, starts_at=1.0), 4)
        rng = random.Random(1)
        make = ids()
        t.step(1.0, rng, make)
        t.register(20, "tarde", 1500, 2.0)
        t.register(21, "tarde2", 1500, 2.0)
        effects = t.step(3.0, rng, make)
        assert {s.account for e in effects if isinstance(e, CreateTable) for s in e.game.seats} == {20, 21}
        refused("tournament_started", lambda: t.register(22, "fuera", 1500, 601.0), t)
