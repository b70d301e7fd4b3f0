"""Standings ordered exactly as the rules say: wins, efectividad, points for, tie-breaks, places."""

from __future__ import annotations

from tranque.server.tournaments.standings import Bye, GameResult, standings


def duel(round_: int, a: int, b: int, pa: int, pb: int) -> GameResult:
    return GameResult(round_, ((a,), (b,)), (pa, pb), (pa > pb, pb > pa))


def order(lines: list) -> list[tuple[int, int]]:  # type: ignore[type-arg]
    return [(line.entrant, line.place) for line in lines]


def test_wins_come_before_efectividad() -> None:
    games = [duel(1, 1, 2, 100, 99), duel(1, 3, 4, 100, 0), duel(2, 1, 4, 100, 90), duel(2, 2, 3, 100, 0)]
    lines = standings([1, 2, 3, 4], games, [])
    # 2 has the best efectividad (+99) but one win fewer than 1 (+11)
    assert order(lines) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    first = lines[0]
    assert (first.wins, first.losses, first.played, first.points_for, first.points_against) == (
        2,
        0,
        2,
        200,
        189,
    )
    assert first.efectividad == 11 and first.partners_tiebreak is None and first.matchpoints is None


def test_efectividad_then_points_for_split_equal_wins() -> None:
    # 1 and 2 both won once and lost once; 1's efectividad is better
    # 3 and 4 won once each with equal efectividad; 3 scored more points
    games = [
        duel(1, 1, 5, 100, 0),
        duel(2, 1, 6, 50, 100),
        duel(1, 2, 7, 100, 40),
        duel(2, 2, 8, 60, 100),
        duel(1, 3, 9, 100, 50),
        duel(2, 3, 10, 80, 100),
        duel(1, 4, 11, 100, 30),
        duel(2, 4, 12, 0, 40),
    ]
    lines = standings([1, 2, 3, 4], games, [])
    assert order(lines) == [(1, 1), (3, 2), (4, 3), (2, 4)]
    assert [line.efectividad for line in lines] == [50, 30, 30, 20]
    assert [line.points_for for line in lines] == [150, 180, 100, 160]


def test_a_circle_of_head_to_head_wins_leaves_a_shared_place() -> None:
    # 2 beat 1, 3 beat 2, 1 beat 3, all by 100-40: each 1-1, efectividad 0, 140 for
    games = [duel(1, 1, 2, 40, 100), duel(2, 2, 3, 40, 100), duel(3, 1, 3, 100, 40)]
    assert order(standings([1, 2, 3], games, [])) == [(1, 1), (2, 1), (3, 1)]


def test_head_to_head_counts_only_games_between_the_tied_players() -> None:
    # 1, 2 and 3 are each 1-1 at 140-140. 1 beat 2; 2's and 3's wins came against others (5..8),
    # so 1 is ahead and 2 and 3 stay level
    games = [
        duel(1, 1, 2, 100, 40),
        duel(2, 1, 5, 40, 100),
        duel(2, 2, 6, 100, 40),
        duel(1, 3, 7, 100, 40),
        duel(2, 3, 8, 40, 100),
    ]
    assert order(standings([1, 2, 3], games, [])) == [(1, 1), (2, 2), (3, 2)]


def test_head_to_head_decides_two_players_equal_on_every_other_key() -> None:
    games = [duel(1, 1, 2, 40, 100), duel(2, 1, 3, 100, 40), duel(2, 2, 4, 40, 100)]
    # 4: 1-0, +60; 1 and 2: 1-1 at 140-140, and 2 beat 1; 3: 0-1
    assert order(standings([1, 2, 3, 4], games, [])) == [(4, 1), (2, 2), (1, 3), (3, 4)]


def test_entrants_equal_on_every_key_share_a_place_listed_by_number() -> None:
    games = [duel(1, 3, 4, 100, 50), duel(1, 1, 2, 100, 50)]
    assert order(standings([1, 2, 3, 4], games, [])) == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_a_bye_is_a_win_without_points() -> None:
    games = [duel(1, 1, 2, 100, 0)]
    lines = {line.entrant: line for line in standings([1, 2, 3], games, [Bye(1, 3)])}
    assert (lines[3].wins, lines[3].byes, lines[3].played, lines[3].losses, lines[3].points_for) == (
        1,
        1,
        0,
        0,
        0,
    )
    assert lines[1].place == 1 and lines[3].place == 2 and lines[2].place == 3


def test_an_absent_entrants_lost_game_counts_as_played_and_lost() -> None:
    game = GameResult(1, ((1,), (2,)), (0, 100), (False, True), absent=frozenset({1}))
    lines = {line.entrant: line for line in standings([1, 2], [game], [])}
    assert (lines[1].played, lines[1].losses, lines[1].wins) == (1, 1, 0)


def test_matchpoints_come_first_in_duplicado() -> None:
    games = [
        GameResult(1, ((1,), (2,)), (100, 0), (True, False), matchpoints=(1.0, 3.0)),
        GameResult(1, ((3,), (4,)), (0, 100), (False, True), matchpoints=(2.0, 2.0)),
    ]
    lines = standings([1, 2, 3, 4], games, [], duplicate=True)
    assert order(lines) == [(2, 1), (4, 2), (3, 3), (1, 4)]
    assert [line.matchpoints for line in lines] == [3.0, 2.0, 2.0, 1.0]


def rot(round_: int, a: int, b: int, c: int, d: int, first_won: bool) -> GameResult:
    points = (100, 50) if first_won else (50, 100)
    return GameResult(round_, ((a, b), (c, d)), points, (first_won, not first_won))


def test_rotating_partners_tiebreak_is_opponents_wins_minus_partners_wins() -> None:
    # Round 1: 1+2 beat 3+4, 5+6 beat 7+8. Round 2: 1+3 beat 5+7, 6+8 beat 2+4.
    games = [
        rot(1, 1, 2, 3, 4, True),
        rot(1, 5, 6, 7, 8, True),
        rot(2, 1, 3, 5, 7, True),
        rot(2, 6, 8, 2, 4, True),
    ]
    lines = standings(list(range(1, 9)), games, [], rotating=True)
    wins = {line.entrant: line.wins for line in lines}
    assert wins == {1: 2, 2: 1, 3: 1, 4: 0, 5: 1, 6: 2, 7: 0, 8: 1}
    tiebreak = {line.entrant: line.partners_tiebreak for line in lines}
    # 1: opponents 3,4 then 5,7 → 1+0+1+0 = 2; partners 2, 3 → 1+1 = 2 → 0
    # 6: opponents 7,8 then 2,4 → 0+1+1+0 = 2; partners 5, 8 → 1+1 = 2 → 0
    assert tiebreak[1] == 0 and tiebreak[6] == 0
    # 2, 3, 5, 8 have one win, efectividad 0 and 150 points for; this tie-break leaves them level:
    # 2: opp 3,4 (1) + 6,8 (3) = 4, partners 1, 4 (2) → 2
    # 3: opp 1,2 (3) + 5,7 (1) = 4, partners 4, 1 (2) → 2
    # 5: opp 7,8 (1) + 1,3 (3) = 4, partners 6, 7 (2) → 2
    # 8: opp 5,6 (3) + 2,4 (1) = 4, partners 7, 6 (2) → 2
    assert {tiebreak[e] for e in (2, 3, 5, 8)} == {2}
    # 4: opp 1,2 (3) + 6,8 (3) = 6, partners 3, 2 (2) → 4
    # 7: opp 5,6 (3) + 1,3 (3) = 6, partners 8, 5 (2) → 4
    assert tiebreak[4] == 4 and tiebreak[7] == 4


def test_the_partners_tiebreak_orders_players_equal_on_wins_and_points() -> None:
    # 1 and 5 both win once and lose once by the same score, never against each other.
    # 1 beat the strong pair (9+10, who won twice) beside partners who won little (2 once, 3 never);
    # 5 beat a weaker pair beside 6, who won twice.
    games = [
        rot(1, 1, 2, 9, 10, True),
        rot(1, 5, 6, 11, 12, True),
        rot(2, 1, 3, 11, 12, False),
        rot(2, 5, 4, 9, 10, False),
        rot(3, 9, 10, 3, 4, True),
        rot(3, 6, 7, 2, 8, True),
    ]
    lines = standings(list(range(1, 13)), games, [], rotating=True)
    by = {line.entrant: line for line in lines}
    assert (by[1].wins, by[1].efectividad, by[1].points_for) == (
        by[5].wins,
        by[5].efectividad,
        by[5].points_for,
    )
    # 1: opp 9,10 (2+2) + 11,12 (1+1) = 6; partners 2 (1), 3 (0) → 5
    # 5: opp 11,12 (1+1) + 9,10 (2+2) = 6; partners 6 (2), 4 (0) → 4
    assert (by[1].partners_tiebreak, by[5].partners_tiebreak) == (5, 4)
    assert by[1].place < by[5].place
