"""Seeded simulated tournaments of every format and entry, driven through the machine with
made-up game outcomes (random scores, some no-shows, some annulments): what must hold in
every one of them."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import pytest

from tests.server.tournaments.simulated import Chances, Run, drive, field_of
from tranque.server.tournaments.config import Entry, Format, TournamentConfig
from tranque.server.tournaments.machine import (
    CreateTable,
    MarkAbsent,
    Placings,
    RevealDeals,
    Status,
    Tournament,
)

# format, entry, size (entrants), rounds, arena window
EVENTS = [
    ("minitorneo", "duel", 4, None, None),
    ("minitorneo", "duel", 8, None, None),
    ("minitorneo", "duel", 16, None, None),
    ("minitorneo", "pairs", 8, None, None),
    ("suizo", "duel", 32, 5, None),
    ("suizo", "duel", 11, 4, None),
    ("suizo", "pairs", 14, 4, None),
    ("suizo", "rotating", 30, 4, None),
    ("arena", "duel", 13, None, 3630.0),
    ("arena", "rotating", 14, None, 3630.0),
    ("duplicado", "duel", 9, 4, None),
    ("duplicado", "pairs", 8, 3, None),
]
SEEDS = [1, 2, 3]


def config(fmt: str, entry: str, size: int, rounds: int | None, window: float | None) -> TournamentConfig:
    return TournamentConfig(
        name="Torneo de prueba",
        format=Format(fmt),
        entry=Entry(entry),
        size=size,
        rounds=rounds,
        window_seconds=window,
        starts_at=100.0,
        target=100,
    )


Event = tuple[str, str, int, int | None, float | None]


def simulated(event: Event, seed: int, chances: Chances) -> Run:
    cfg = config(*event)
    people = cfg.size * cfg.players_per_entrant
    return drive(field_of(cfg, people), seed, chances, start=0.0)


@functools.cache
def simulated_with_faults(event: Event, seed: int) -> Run:
    """One seeded event with some no-shows and annulments (shared by the tests: read only)."""
    return simulated(event, seed, Chances(no_show=0.04, annulled=0.04))


def runs(*formats: str) -> list[pytest.param]:  # type: ignore[valid-type]
    return [
        pytest.param(event, seed, id=f"{'-'.join(map(str, event[:3]))}-s{seed}")
        for event in EVENTS
        for seed in SEEDS
        if not formats or event[0] in formats
    ]


@pytest.fixture
def run(event: Event, seed: int) -> Run:
    return simulated_with_faults(event, seed)


@pytest.mark.parametrize(("event", "seed"), runs())
def test_every_event_finishes_with_placings_for_every_person(run: Run) -> None:
    t = run.tournament
    assert t.status is Status.FINISHED
    assert all(game.state == "done" for game in t.games())
    (placings,) = run.of(Placings)
    people = {account for e in t.entrants for account in e.accounts}
    assert set(placings.placings) == people
    assert len(t.podium()) == 3
    assert min(placings.placings.values()) == 1


@pytest.mark.parametrize(("event", "seed"), runs())
def test_every_active_entrant_plays_or_has_a_bye_each_round(run: Run) -> None:
    for number, active, seated in run.paired:
        assert len(seated) == len(set(seated)), f"round {number}: someone twice"
        assert set(seated) <= active, f"round {number}: someone not in the field"
        if run.tournament.config.format is not Format.MINITORNEO:
            assert set(seated) == active, f"round {number}: {active - set(seated)} left out"


@pytest.mark.parametrize(("event", "seed"), runs("minitorneo"))
def test_a_knockout_plays_every_active_entrant_each_round(run: Run) -> None:
    t = run.tournament
    for number, active, seated in run.paired:
        assert set(seated) == active, f"round {number}"
    assert len(t.rounds) == {4: 2, 8: 3, 16: 4}[t.config.size]
    assert t.rounds[-1].pairs is not None and len(t.rounds[-1].pairs) == 2  # the final and third place


@pytest.mark.parametrize(("event", "seed"), runs())
def test_no_game_key_or_table_twice(run: Run) -> None:
    games = list(run.tournament.games())
    assert len({g.key for g in games}) == len(games)
    assert len({g.table_id for g in games}) == len(games)
    created = [e.game.key for e in run.of(CreateTable)]
    assert sorted(created) == sorted(g.key for g in games)


@pytest.mark.parametrize(("event", "seed"), runs())
def test_points_are_capped_and_absent_sides_lose(run: Run) -> None:
    t = run.tournament
    for game in t.games():
        result = game.result
        assert result is not None
        if t.config.format is not Format.DUPLICADO:
            assert max(result.points) <= t.config.target
        for side, won in zip(result.sides, result.won, strict=True):
            if any(no in result.absent for no in side):
                assert not won


@pytest.mark.parametrize(("event", "seed"), runs())
def test_two_missed_games_withdraw_and_bar_and_then_nothing_is_played(run: Run) -> None:
    t = run.tournament
    misses: Counter[int] = Counter()
    last_round: dict[int, int] = {}
    for game in sorted(t.games(), key=lambda g: (g.round, g.started_at or 0.0, g.board)):
        assert game.result is not None
        for side in game.sides:
            for no in side:
                assert misses[no] < 2, f"entrant {no} seated after two missed games"
        for no in game.result.absent:
            misses[no] += 1
            last_round[no] = game.round
    marked = {effect.account for effect in run.of(MarkAbsent)}
    for e in t.entrants:
        assert e.missed == misses[e.no]
        if e.missed >= 2:
            assert e.status == "absent"
            assert set(e.absent_accounts) <= marked and e.absent_accounts
        else:
            assert e.status != "absent"
            assert not set(e.accounts) & marked


@pytest.mark.parametrize(("event", "seed"), runs("suizo", "duplicado"))
def test_a_suizo_and_a_duplicado_play_their_rounds(run: Run) -> None:
    t = run.tournament
    assert len(t.rounds) == t.config.rounds


@pytest.mark.parametrize(("event", "seed"), runs("duplicado"))
def test_a_duplicado_reveals_each_round_once_its_matchpoints_are_in(run: Run) -> None:
    t = run.tournament
    assert [e.round for e in run.of(RevealDeals)] == list(range(1, len(t.rounds) + 1))
    tables = len(t.rounds[0].games)
    for plan in t.rounds:
        assert plan.revealed
        total = 0.0
        for game in plan.games:
            assert game.result is not None and game.result.matchpoints is not None
            assert game.hands is None  # kept only until the round is scored
            total += sum(game.result.matchpoints)
        # every deal: 2 * (tables - 1) per table between the two sides, less what absence took
        assert total <= tables * 2 * (tables - 1) * t.config.hands


@pytest.mark.parametrize(("event", "seed"), runs("arena"))
def test_an_arena_never_seats_anyone_twice_at_once_and_its_late_games_count(run: Run) -> None:
    t = run.tournament
    spans: dict[int, list[tuple[float, float]]] = {}
    for game in t.games():
        assert game.started_at is not None and game.ended_at is not None
        for side in game.sides:
            for no in side:
                spans.setdefault(no, []).append((game.started_at, game.ended_at))
    for no, games in spans.items():
        games.sort()
        for (_, ended), (started, _) in itertools.pairwise(games):
            assert started >= ended, f"entrant {no} at two tables"
    end = t.window_end
    assert end is not None
    assert all(g.started_at is not None and g.started_at < end for g in t.games())
    finished_after = [g for g in t.games() if g.ended_at is not None and g.ended_at > end]
    assert finished_after, "the simulation should have games running over the end"
    played = sum(s.played for s in t.standings())
    per_game = 2 if t.config.entry is Entry.DUEL else 4
    assert played == per_game * len(list(t.games()))  # every game counts, the late ones too
    assert t.wake_at() is None


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: "-".join(map(str, e[:3])))
def test_the_same_seed_plays_the_same_event(event: Event) -> None:
    first = simulated(event, 7, Chances(no_show=0.05, annulled=0.05)).tournament.to_json()
    second = simulated(event, 7, Chances(no_show=0.05, annulled=0.05)).tournament.to_json()
    first.pop("secret")
    second.pop("secret")
    assert first == second


def test_nobody_waits_for_an_absent_player_a_suizo_goes_on() -> None:
    """Accounts 1 and 2 never show: each loses its first two games, is withdrawn and barred,
    and the rounds go on without them."""
    cfg = config("suizo", "duel", 10, 5, None)
    run = drive(field_of(cfg, 10), 3, Chances(absentees=frozenset({1, 2})))
    t = run.tournament
    assert t.status is Status.FINISHED and len(t.rounds) == 5
    for account in (1, 2):
        entrant = t.entrant_of(account)
        assert entrant is not None and entrant.status == "absent" and entrant.missed == 2
    assert sorted(effect.account for effect in run.of(MarkAbsent)) == [1, 2]
    for plan in t.rounds[2:]:
        seated = {no for game in plan.games for side in game.sides for no in side} | set(plan.byes)
        assert not seated & {1, 2}


def test_a_rotating_suizo_table_is_four_single_entrants_in_two_sides() -> None:
    run = simulated(EVENTS[7], 1, Chances())
    for game in run.tournament.games():
        assert [len(side) for side in game.sides] == [2, 2]
        assert [seat.seat for seat in game.seats] == [0, 1, 2, 3]
        by_seat = {seat.seat: seat.entrant for seat in game.seats}
        assert game.sides == ((by_seat[0], by_seat[2]), (by_seat[1], by_seat[3]))


def test_a_pairs_side_sits_at_seats_0_and_2_against_1_and_3() -> None:
    run = simulated(EVENTS[6], 1, Chances())
    t: Tournament = run.tournament
    for game in t.games():
        (a,), (b,) = game.sides
        seats = {seat.seat: seat for seat in game.seats}
        assert [seats[0].account, seats[2].account] == list(t.entrant(a).accounts)
        assert [seats[1].account, seats[3].account] == list(t.entrant(b).accounts)
