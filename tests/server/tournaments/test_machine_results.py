"""How the machine reads a game's outcome: points capped at the target, absence a loss,
annulment a loss for both with 0 points, knock-out eliminations and podium, duplicado
matchpoints; and what it shows anyone (never a secret)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from tests.server.tournaments.simulated import field_of, round_trip
from tranque.server.table.outcome import GameOutcome, SeatOutcome
from tranque.server.tournaments.config import Entry, Format, TournamentConfig
from tranque.server.tournaments.machine import (
    CreateTable,
    MarkAbsent,
    Notify,
    Placings,
    PlannedGame,
    RevealDeals,
    Status,
    Tournament,
)


def config(**changes: Any) -> TournamentConfig:
    base = TournamentConfig(name="Copa", format=Format.MINITORNEO, entry=Entry.DUEL)
    config: TournamentConfig = replace(base, **changes)
    return config.checked()


def ids() -> Callable[[], str]:
    numbers = iter(range(1, 10_000))
    return lambda: f"table-{next(numbers)}"


def ended(
    game: PlannedGame,
    scores: Sequence[int],
    winners: Sequence[int],
    *,
    target: int = 100,
    no_show: Sequence[int] = (),
    annulled: bool = False,
    hands: Sequence[Sequence[int]] = (),
) -> GameOutcome:
    """A hand-made end of `game`: seats in `no_show` were covered for absence."""
    return GameOutcome(
        table_id=game.table_id,
        annulled=annulled,
        scores=tuple(scores),
        target=target,
        winners=tuple(winners),
        reason="annulled" if annulled else "target",
        seats=tuple(
            SeatOutcome(s.seat, s.seat % 2, s.account, s.bot_level, s.seat in no_show, False)
            for s in game.seats
        ),
        hands=tuple(tuple(hand) for hand in hands),
        ended_at=0.0,
    )


def game_between(t: Tournament, a: int, b: int) -> PlannedGame:
    plan = t.rounds[-1]
    return next(g for g in plan.games if {g.sides[0][0], g.sides[1][0]} == {a, b})


def side_won(t: Tournament, game: PlannedGame, winner: int, scores: tuple[int, int] = (100, 40)) -> None:
    """`winner` (an entrant) wins `game` by `scores` (winner's first)."""
    index = 0 if game.sides[0][0] == winner else 1
    pair = scores if index == 0 else (scores[1], scores[0])
    t.record(game.key, ended(game, pair, (index,)), 10.0)


class TestMinitorneo:
    def test_the_podium_and_places_from_hand_made_results(self) -> None:
        t = field_of(config(size=8), 8)  # account k is entrant k (ratings fall with k)
        rng, make = random.Random(1), ids()
        t.step(1.0, rng, make)
        # quarter-finals: 1-8, 4-5, 2-7, 3-6; the lower seeds 5 and 6 win two of them
        for a, b, winner in ((1, 8, 1), (4, 5, 5), (2, 7, 2), (3, 6, 6)):
            side_won(t, game_between(t, a, b), winner)
        assert {e.no for e in t.entrants if e.status == "eliminated"} == {8, 4, 7, 3}
        live = {row["entrant"]: row["place"] for row in t.public_json(None)["standings"]}
        assert live == {1: 1, 5: 1, 2: 1, 6: 1, 8: 5, 4: 5, 7: 5, 3: 5}  # whoever is still in may win
        t.step(2.0, rng, make)
        assert sorted(tuple(sorted(g.sides[0] + g.sides[1])) for g in t.rounds[1].games) == [(1, 5), (2, 6)]
        side_won(t, game_between(t, 1, 5), 5)
        side_won(t, game_between(t, 2, 6), 2)
        assert all(t.entrant(no).status == "active" for no in (1, 5, 2, 6))  # third place to play
        t.step(3.0, rng, make)
        final, third = t.rounds[2].games
        assert set(final.sides[0] + final.sides[1]) == {5, 2}
        assert set(third.sides[0] + third.sides[1]) == {1, 6}
        side_won(t, final, 5, (130, 99))
        side_won(t, third, 1)
        assert t.podium() == []  # not finished until stepped
        effects = t.step(4.0, rng, make)
        assert t.status is Status.FINISHED
        assert t.podium() == [5, 2, 1]
        assert t.places() == {5: 1, 2: 2, 1: 3, 6: 4, 8: 5, 4: 5, 7: 5, 3: 5}
        (placings,) = [e for e in effects if isinstance(e, Placings)]
        assert placings.placings == {1: 3, 2: 2, 3: 5, 4: 5, 5: 1, 6: 4, 7: 5, 8: 5}
        detail = t.public_json(None)
        assert detail["podium"] == [
            {"place": 1, "entrant": 5, "names": ["jugador5"]},
            {"place": 2, "entrant": 2, "names": ["jugador2"]},
            {"place": 3, "entrant": 1, "names": ["jugador1"]},
        ]
        # the standings agree with the podium: a knock-out's table is in the order of its places
        shown = [(row["place"], row["entrant"]) for row in detail["standings"]]
        assert shown[:4] == [(1, 5), (2, 2), (3, 1), (4, 6)]
        assert sorted(shown[4:]) == [(5, 3), (5, 4), (5, 7), (5, 8)]
        # the final's points were capped at the target
        assert final.result is not None and sorted(final.result.points) == [99, 100]

    def test_a_game_both_sides_lost_sends_the_better_seed_on(self) -> None:
        t = field_of(config(size=4), 4)
        rng, make = random.Random(1), ids()
        t.step(1.0, rng, make)
        g14, g23 = game_between(t, 1, 4), game_between(t, 2, 3)
        t.record(g14.key, ended(g14, (0, 0), (), annulled=True), 5.0)
        t.record(g23.key, ended(g23, (100, 20), (0,), no_show=(0, 1)), 5.0)  # both absent
        assert g14.result is not None and g14.result.won == (False, False) and g14.result.points == (0, 0)
        assert g23.result is not None and g23.result.won == (False, False)
        t.step(2.0, rng, make)
        final, third = t.rounds[1].games
        assert set(final.sides[0] + final.sides[1]) == {1, 2}
        assert set(third.sides[0] + third.sides[1]) == {4, 3}

    def test_a_withdrawn_entrant_gives_a_walkover(self) -> None:
        t = field_of(config(size=4), 4)
        rng, make = random.Random(1), ids()
        t.step(1.0, rng, make)
        side_won(t, game_between(t, 1, 4), 1)
        side_won(t, game_between(t, 2, 3), 2)
        t.withdraw(3, 2.0)  # a semi-final loser leaves before the third-place game
        t.step(3.0, rng, make)
        assert len(t.rounds[1].games) == 1 and t.rounds[1].byes == [4]
        side_won(t, t.rounds[1].games[0], 2)
        t.step(4.0, rng, make)
        assert t.podium() == [2, 1, 4]


class TestAbsence:
    def test_an_absent_side_loses_even_when_its_bot_won_and_the_other_side_wins(self) -> None:
        t = field_of(config(format=Format.SUIZO, size=4, rounds=3, starts_at=1.0), 4)
        rng, make = random.Random(1), ids()
        t.step(1.0, rng, make)
        game = t.rounds[0].games[0]
        absent_seat = 0
        absent_no = game.sides[0][0]
        effects = t.record(game.key, ended(game, (120, 30), (0,), no_show=(absent_seat,)), 5.0)
        assert game.result is not None
        assert game.result.won == (False, True) and game.result.points == (100, 30)
        assert game.result.absent == frozenset({absent_no})
        assert t.entrant(absent_no).missed == 1 and t.entrant(absent_no).status == "active"
        assert effects == []  # one miss: no bar yet

    def test_the_second_miss_withdraws_and_marks_the_accounts_that_missed(self) -> None:
        t = field_of(config(format=Format.SUIZO, entry=Entry.PAIRS, size=4, rounds=3, starts_at=1.0), 8)
        rng, make = random.Random(1), ids()
        t.step(1.0, rng, make)
        pair = t.rounds[0].games[0].sides[0][0]
        first, second = t.entrant(pair).accounts
        effects: list[object] = []
        for number, player in ((1, 0), (2, 1)):  # its first player misses round 1, its second round 2
            if number > 1:
                t.step(2.0, rng, make)
            for game in t.rounds[number - 1].games:
                side = 0 if pair in game.sides[0] else 1 if pair in game.sides[1] else None
                seats = () if side is None else (side + 2 * player,)
                effects += t.record(game.key, ended(game, (100, 50), (0,), no_show=seats), 5.0)
        entrant = t.entrant(pair)
        assert entrant.status == "absent" and entrant.missed == 2
        assert [e for e in effects if isinstance(e, MarkAbsent)] == [MarkAbsent(first), MarkAbsent(second)]
        assert Notify((first, second), t._message("withdrawn")) in effects
        last = t.rounds[1].games[0]
        assert t.record(last.key, ended(last, (1, 0), (0,)), 6.0) == []  # a second record: nothing
        t.step(3.0, rng, make)
        assert all(pair not in g.sides[0] + g.sides[1] for g in t.rounds[2].games)
        assert pair not in t.rounds[2].byes


def test_a_duplicado_scores_matchpoints_when_its_round_is_over_then_reveals() -> None:
    t = field_of(config(format=Format.DUPLICADO, size=4, rounds=2, hands=2, starts_at=1.0), 4)
    rng, make = random.Random(1), ids()
    effects = t.step(1.0, rng, make, commitments=lambda r: [f"c{r}-1", f"c{r}-2"])
    creates = [e for e in effects if isinstance(e, CreateTable)]
    assert {e.deals for e in creates} == {"tour-1:1"}
    assert all(e.rules.hands == 2 for e in creates)
    assert t.rounds[0].commitments == ["c1-1", "c1-2"]
    first, second = t.rounds[0].games
    # deal 1: table 1's side 0 makes +30, table 2's side 0 -10; deal 2: both +5
    assert t.record(first.key, ended(first, (35, 0), (0,), hands=[(30, 0), (5, 0)]), 5.0) == []
    assert first.result is not None and first.result.matchpoints is None
    effects = t.record(second.key, ended(second, (5, 10), (1,), hands=[(0, 10), (5, 0)]), 6.0)
    assert effects == [RevealDeals(1)]
    assert t.rounds[0].revealed
    assert first.result is not None and second.result is not None
    # per deal 2 points per other table beaten, 1 per tie; side 1 gets 2 * (T - 1) - side 0's
    assert first.result.matchpoints == (3.0, 1.0)
    assert second.result.matchpoints == (1.0, 3.0)
    # the points are a set number of hands' and are not capped
    assert first.result.points == (35, 0)


def test_the_document_round_trips_and_shows_no_secret() -> None:
    t = field_of(config(format=Format.SUIZO, size=6, rounds=2, starts_at=1.0, private=True), 0)
    for account in range(1, 7):
        t.register(account, f"p{account}", 1500, 0.5, invite=t.invite_code())
    t.step(1.0, random.Random(1), ids())
    again = round_trip(t)
    assert again.to_json() == t.to_json() and again.secret == t.secret
    shown = json.dumps(t.public_json(3))
    assert t.secret not in shown and t.invite_code() not in shown and '"secret"' not in shown
    detail = t.public_json(None)
    assert detail["status"] == "running" and detail["round"] == 1 and detail["rounds_total"] == 2
    assert t.summary_json()["rounds"] == 2  # the Detail's "rounds" is the list of rounds
    assert detail["private"] is True and len(detail["entrants"]) == 6 and t.summary_json()["entrants"] == 6
    assert detail["config"]["format"] == "suizo"
    assert {"accounts", "account"} & set(shown.replace('"', " ").split()) == set()
    assert len(detail["rounds"][0]["games"]) == 3
    assert detail["rounds"][0]["games"][0]["sides"][0]["names"]
    assert [row["place"] for row in detail["standings"]] == [1] * 6  # nothing played yet


def test_notices_name_each_players_table_and_seat() -> None:
    t = field_of(config(size=4), 4)
    effects = t.step(1.0, random.Random(1), ids())
    notices = [e for e in effects if isinstance(e, Notify)]
    assert notices[0] == Notify((1, 2, 3, 4), t._message("starting"))
    rounds = {n.accounts[0]: n.message for n in notices[1:]}
    for game in t.games():
        for seat in game.seats:
            assert seat.account is not None
            assert rounds[seat.account]["table"] == game.table_id
            assert rounds[seat.account]["seat"] == seat.seat
            assert rounds[seat.account]["event"] == "round"


class TestRoundsOnASchedule:
    def test_a_round_waits_for_its_time_then_for_the_last_table_of_the_one_before(self) -> None:
        every = 1200.0
        t = field_of(
            config(format=Format.SUIZO, size=4, rounds=3, round_every_seconds=every, starts_at=100.0), 4
        )
        rng, make = random.Random(1), ids()
        t.step(100.0, rng, make)
        assert t.status is Status.RUNNING and len(t.rounds) == 1 and t.started_at == 100.0
        for game in t.rounds[0].games:  # round 1 is over early...
            side_won(t, game, game.sides[0][0])
        assert t.wake_at() == 100.0 + every
        assert t.step(100.0 + every - 1, rng, make) == [] and len(t.rounds) == 1  # ...round 2 waits
        t.step(100.0 + every, rng, make)
        assert len(t.rounds) == 2
        late, early = t.rounds[1].games
        side_won(t, early, early.sides[0][0])
        # round 3's time comes while a table of round 2 still plays: it waits for that table
        assert t.wake_at() is None
        t.step(100.0 + 2 * every + 5, rng, make)
        assert len(t.rounds) == 2
        side_won(t, late, late.sides[1][0])
        t.step(100.0 + 2 * every + 300, rng, make)
        assert len(t.rounds) == 3 and t.rounds[2].started_at == 100.0 + 2 * every + 300

    def test_without_a_schedule_the_next_round_starts_when_the_last_table_ends(self) -> None:
        t = field_of(config(format=Format.SUIZO, size=4, rounds=2, starts_at=100.0), 4)
        rng, make = random.Random(1), ids()
        t.step(100.0, rng, make)
        for game in t.rounds[0].games:
            side_won(t, game, game.sides[0][0])
        assert t.wake_at() is None  # nothing by the clock: the next step pairs it
        t.step(101.0, rng, make)
        assert len(t.rounds) == 2
