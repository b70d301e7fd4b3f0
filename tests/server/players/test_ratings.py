"""Ratings (server/players/ratings.py, game_rating.py): every update is the OpenSkill library's own
`rate` for the game's teams and ranks, the shown rating its scaled ordinal."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from openskill.models import PlackettLuce, PlackettLuceRating

from tranque.engine import Rules
from tranque.server.players import rating_scale, ratings
from tranque.server.players.game_rating import finish_ranks, rate_game, standings
from tranque.server.store import RatingRow
from tranque.server.table.seats import Seat, SeatKind, SeatState

LIBRARY = PlackettLuce()  # the library's model with its defaults, built here on its own


def accounts(players: int, covered: tuple[int, ...] = ()) -> list[Seat]:
    seats = [Seat(index).seat_human(f"p{index}", 100 + index, f"hash{index}") for index in range(players)]
    return [
        replace(seat, state=SeatState.COVERED if seat.index in covered else SeatState.PRESENT)
        for seat in seats
    ]


def known(players: int) -> dict[int, RatingRow]:
    """Players with ratings of their own (different from a newcomer's and from each other)."""
    return {
        100 + index: RatingRow(100 + index, "x", 20.0 + 3 * index, 8.0 - index, 0.0, 5 + index, 0.0)
        for index in range(players)
    }


def library_teams(rules: Rules, rows: dict[int, RatingRow]) -> list[list[ratings.Rating]]:
    return [
        [
            LIBRARY.rating(mu=rows[100 + seat].mu, sigma=rows[100 + seat].sigma)
            for seat in rules.seats_of(team)
        ]
        for team in range(rules.team_count)
    ]


def pairs_of(teams: list[list[ratings.Rating]]) -> list[list[tuple[float, float]]]:
    return [[(player.mu, player.sigma) for player in team] for team in teams]


class TestShownRating:
    def test_a_newcomer_shows_450_and_is_provisional(self) -> None:
        newcomer = ratings.of_row(None)
        assert (newcomer.mu, newcomer.sigma) == (25.0, 25.0 / 3)
        assert ratings.shown(newcomer) == pytest.approx(450.0)
        assert ratings.provisional(newcomer.sigma)

    def test_the_shown_rating_is_the_librarys_ordinal_scaled_to_1500(self) -> None:
        skill = ratings.rating(31.2, 2.1)
        assert ratings.shown(skill) == pytest.approx(
            LIBRARY.rating(mu=31.2, sigma=2.1).ordinal(z=3, alpha=60, target=450)
        )
        assert ratings.shown(skill) == pytest.approx(1500 + 60 * (31.2 - 3 * 2.1 - 17.5))
        assert ratings.shown(ratings.rating(25.0, 2.5)) == pytest.approx(1500.0)

    def test_provisional_while_sigma_is_above_two_and_a_half(self) -> None:
        assert ratings.provisional(2.51)
        assert not ratings.provisional(2.5)
        assert not ratings.provisional(1.0)

    def test_chances_are_the_librarys_prediction(self) -> None:
        strong, weak = ratings.rating(30.0, 3.0), ratings.rating(22.0, 5.0)
        chances = ratings.win_chances([[strong], [weak]])
        expected = LIBRARY.predict_win(
            [[LIBRARY.rating(mu=30.0, sigma=3.0)], [LIBRARY.rating(mu=22.0, sigma=5.0)]]
        )
        assert chances == pytest.approx(expected)
        assert chances[0] > 0.5 > chances[1]
        assert math.fsum(chances) == pytest.approx(1.0)


class TestFinishRanks:
    def test_winners_first_then_the_others_by_score(self) -> None:
        rules = Rules.preset("clasico", players=4, mode="individual")
        assert finish_ranks(rules, [1], [30, 102, 30, 64]) == [2, 0, 2, 1]

    def test_two_winners_tie(self) -> None:
        rules = Rules.preset("clasico", players=3, mode="individual")
        assert finish_ranks(rules, [0, 2], [110, 40, 110]) == [0, 1, 0]


class TestRateGameIsTheLibrarysRate:
    def test_one_contra_one(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        rows = known(2)
        rated = rate_game(rules, accounts(2), [1], [58, 104], rows)
        expected = LIBRARY.rate(library_teams(rules, rows), ranks=[1, 0])
        assert [[(p.after.mu, p.after.sigma)] for p in rated] == pairs_of(expected)
        assert [(p.won, p.xp, p.games) for p in rated] == [(False, 5, 6), (True, 20, 7)]
        assert rated[1].after.mu > rated[1].before.mu and rated[0].after.mu < rated[0].before.mu

    def test_a_newcomers_first_game_is_the_librarys_from_its_defaults(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        rated = rate_game(rules, accounts(2), [0], [100, 20], {})
        expected = LIBRARY.rate([[LIBRARY.rating()], [LIBRARY.rating()]], ranks=[0, 1])
        assert [[(p.after.mu, p.after.sigma)] for p in rated] == pairs_of(expected)
        assert [p.games for p in rated] == [1, 1]

    @pytest.mark.parametrize("players", [3, 4, 5, 6])
    def test_individual(self, players: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        rows = known(players)
        scores = [10 * (index // 2) for index in range(players)]
        scores[players - 1] = 200
        winners = [players - 1]
        rated = rate_game(rules, accounts(players), winners, scores, rows)
        ranks = finish_ranks(rules, winners, scores)
        assert ranks[players - 1] == 0 and len(set(ranks)) < players  # ties among the losers
        expected = LIBRARY.rate(library_teams(rules, rows), ranks=[float(rank) for rank in ranks])
        assert [[(p.after.mu, p.after.sigma)] for p in rated] == pairs_of(expected)

    def test_pairs(self) -> None:
        rules = Rules.preset("clasico", players=4, mode="pairs")
        rows = known(4)
        rated = rate_game(rules, accounts(4), [0], [101, 77], rows)
        expected = LIBRARY.rate(library_teams(rules, rows), ranks=[0, 1])
        by_seat = {p.seat: (p.after.mu, p.after.sigma) for p in rated}
        assert [[by_seat[0], by_seat[2]], [by_seat[1], by_seat[3]]] == pairs_of(expected)
        assert [(p.won, p.xp) for p in rated] == [(True, 20), (False, 5), (True, 20), (False, 5)]


class TestAbandoning:
    def test_alone_an_abandoner_finishes_last_even_if_the_bot_won_for_them(self) -> None:
        rules = Rules.preset("clasico", players=3, mode="individual")
        rows = known(3)
        seats = accounts(3, covered=(1,))
        rated = rate_game(rules, seats, [1], [40, 120, 60], rows)
        expected = LIBRARY.rate(library_teams(rules, rows), ranks=[1, 2, 0])
        assert [[(p.after.mu, p.after.sigma)] for p in rated] == pairs_of(expected)
        assert [(p.won, p.abandoned, p.xp) for p in rated] == [
            (False, False, 5),
            (False, True, 0),
            (True, False, 30),
        ]

    def test_in_pairs_the_partner_keeps_the_result_and_the_abandoner_is_rated_as_last(self) -> None:
        rules = Rules.preset("clasico", players=4, mode="pairs")
        rows = known(4)
        seats = accounts(4, covered=(2,))
        rated = {p.seat: p for p in rate_game(rules, seats, [0], [104, 80], rows)}
        as_ended = LIBRARY.rate(library_teams(rules, rows), ranks=[0, 1])
        as_last = LIBRARY.rate(library_teams(rules, rows), ranks=[2, 1])
        for seat, (team, place) in {0: (0, 0), 1: (1, 0), 3: (1, 1)}.items():
            assert (rated[seat].after.mu, rated[seat].after.sigma) == pairs_of(as_ended)[team][place]
        assert (rated[2].after.mu, rated[2].after.sigma) == pairs_of(as_last)[0][1]
        assert rated[2].after.mu < rated[2].before.mu  # a loss, though the pair won
        assert [(rated[s].won, rated[s].abandoned, rated[s].xp) for s in range(4)] == [
            (True, False, 20),
            (False, False, 5),
            (False, True, 0),
            (False, False, 5),
        ]

    def test_someone_back_in_their_seat_is_no_abandoner(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        back = [seat.cover().come_back() for seat in accounts(2)]
        assert [s.abandoned for s in standings(rules, back, [0], [100, 3])] == [False, False]
        assert [s.won for s in standings(rules, back, [0], [100, 3])] == [True, False]

    def test_a_bot_seated_from_the_start_is_no_abandoner(self) -> None:
        rules = Rules.preset("clasico", players=2, mode="individual")
        seats = [accounts(2)[0], Seat(1).seat_bot("greedy")]
        assert seats[1].kind is SeatKind.BOT
        assert [s.abandoned for s in standings(rules, seats, [1], [10, 100])] == [False, False]


def test_the_shown_rating_is_openskills_ordinal_to_the_last_bit() -> None:
    generator = random.Random(3)
    for _ in range(2000):
        mu, sigma = generator.uniform(-30.0, 80.0), generator.uniform(0.0, 12.0)
        expected = PlackettLuceRating(mu, sigma).ordinal(z=3, alpha=60, target=450)
        assert rating_scale.shown(mu, sigma) == expected
