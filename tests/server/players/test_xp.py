"""XP (server/players/xp.py): the contract's rule per player count and mode, and the periods a game
counts in, from its finish time in UTC."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tranque.engine import Rules
from tranque.server.players import xp
from tranque.server.players.game_rating import rate_game
from tranque.server.players.periods import period_keys
from tranque.server.table.seats import Seat


def at(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> float:
    return datetime(year, month, day, hour, minute, tzinfo=UTC).timestamp()


def xp_of(rules: Rules, winners: list[int], scores: list[int]) -> list[int]:
    seats = [Seat(index).seat_human(f"p{index}", 1 + index, f"h{index}") for index in range(rules.players)]
    return [player.xp for player in rate_game(rules, seats, winners, scores, {})]


class TestTheRule:
    @pytest.mark.parametrize(("players", "winner"), [(2, 20), (3, 30), (4, 40), (5, 50), (6, 60)])
    def test_alone_the_winner_gets_ten_per_player_every_loser_five(self, players: int, winner: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        scores = [0] * players
        scores[1] = 100
        assert xp_of(rules, [1], scores) == [5, winner, *[5] * (players - 2)]

    def test_in_pairs_the_partners_split_the_winners_xp(self) -> None:
        rules = Rules.preset("clasico", players=4, mode="pairs")
        assert xp_of(rules, [1], [60, 100]) == [5, 20, 5, 20]

    def test_in_three_pairs_each_winner_gets_half_of_sixty(self) -> None:
        rules = Rules.preset("clasico", players=6, mode="pairs")
        assert xp_of(rules, [2], [10, 50, 100]) == [5, 5, 30, 5, 5, 30]

    def test_an_abandoner_gets_nothing(self) -> None:
        assert xp.game_xp(4, 1, won=False, abandoned=True) == 0
        assert xp.game_xp(4, 2, won=True, abandoned=True) == 0
        assert xp.game_xp(4, 2, won=True, abandoned=False) == 20
        assert xp.game_xp(2, 1, won=False, abandoned=False) == 5


class TestPeriods:
    def test_all_time_the_iso_week_and_the_month(self) -> None:
        assert xp.periods(at(2026, 12, 1, 12)) == ["all", "w2026-49", "m2026-12"]

    def test_the_week_is_isos_even_across_a_new_year(self) -> None:
        assert xp.periods(at(2027, 1, 1, 9)) == ["all", "w2026-53", "m2027-01"]
        assert period_keys(at(2025, 12, 29))["week"] == "w2026-01"

    def test_the_time_is_utc(self) -> None:
        # 23:30 on a Sunday in UTC is already Monday east of it: still the Sunday's week here.
        assert xp.periods(at(2026, 11, 29, 23, 30)) == ["all", "w2026-48", "m2026-11"]
        assert xp.periods(at(2026, 11, 30, 0, 0)) == ["all", "w2026-49", "m2026-11"]
