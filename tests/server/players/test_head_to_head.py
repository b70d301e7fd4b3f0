"""The head-to-head fold (players/head_to_head.py) over a hand-made list of games, whose
figures are worked out by hand below: as opponents, as partners, ties, a third player's win,
an abandoned player, and a game only one of the two played."""

from __future__ import annotations

from tranque.server.players.head_to_head import Outcome, Together, head_to_head, winning_seats
from tranque.server.store import GamePlayerRow, GameResult

ANA, BETO, CARO, DANI = 1, 2, 3, 4


def game(
    game_id: str,
    fmt: str,
    seats: list[int],
    scores: list[int],
    winners: list[int],
    abandoned: frozenset[int] = frozenset(),
) -> GameResult:
    """A kept game: `seats[s]` the account at seat s, scores and winners by team (R3)."""
    teams = len(scores)
    rows = [
        GamePlayerRow(
            game_id,
            user_id,
            seat,
            1000.0,
            "clasico",
            fmt,
            False,
            seat % teams in winners and user_id not in abandoned,
            user_id in abandoned,
            0,
        )
        for seat, user_id in enumerate(seats)
    ]
    summary = {
        "seats": [
            {"seat": s, "name": f"p{u}", "kind": "human", "user_id": u, "team": s % teams}
            for s, u in enumerate(seats)
        ],
        "scores": scores,
        "winners": winners,
    }
    return GameResult(game_id, 1000.0, "clasico", fmt, len(seats), True, True, False, summary, rows)


GAMES = [
    game("g1.1", "duel", [ANA, BETO], [100, 45], [0]),  # Ana wins: 100 to 45
    game("g2.1", "duel", [BETO, ANA], [102, 88], [0]),  # Beto wins: Ana 88, Beto 102
    game("g3.1", "individual", [ANA, CARO, BETO], [30, 100, 60], [1]),  # Caro wins: 30, 60
    game("g4.1", "pairs", [ANA, CARO, BETO, DANI], [100, 70], [0]),  # partners win 100 to 70
    game("g5.1", "pairs", [CARO, ANA, DANI, BETO], [150, 90], [0]),  # partners lose 90 to 150
    game("g6.1", "pairs", [ANA, BETO, CARO, DANI], [100, 20], [0]),  # opposing pairs: Ana's wins
    game("g7.1", "duel", [ANA, BETO], [101, 101], [0, 1]),  # a tie at the top: a draw
    game("g8.1", "duel", [ANA, CARO], [100, 0], [0]),  # Beto not in it: left out
    game("g9.1", "individual", [ANA, BETO, CARO], [10, 100, 50], [1], frozenset({ANA})),  # Beto
]


class TestHandMadeList:
    def test_as_opponents(self) -> None:
        record = head_to_head(GAMES, ANA, BETO).opponents
        assert (record.played, record.first_wins, record.second_wins) == (6, 2, 2)
        assert (record.draws, record.others) == (1, 1)
        # Ana 100 + 88 + 30 + 100 + 101 + 10; Beto 45 + 102 + 60 + 20 + 101 + 100
        assert (record.first_points, record.second_points) == (429, 428)

    def test_as_partners(self) -> None:
        record = head_to_head(GAMES, ANA, BETO).partners
        assert (record.played, record.won, record.lost) == (2, 1, 1)
        assert (record.points_for, record.points_against) == (100 + 90, 70 + 150)

    def test_each_game_in_the_order_given_without_the_ones_only_one_played(self) -> None:
        meetings = head_to_head(GAMES, ANA, BETO).meetings
        assert [(one.game.game_id, one.together, one.outcome) for one in meetings] == [
            ("g1.1", Together.OPPONENTS, Outcome.FIRST),
            ("g2.1", Together.OPPONENTS, Outcome.SECOND),
            ("g3.1", Together.OPPONENTS, Outcome.NEITHER),
            ("g4.1", Together.PARTNERS, Outcome.BOTH),
            ("g5.1", Together.PARTNERS, Outcome.NEITHER),
            ("g6.1", Together.OPPONENTS, Outcome.FIRST),
            ("g7.1", Together.OPPONENTS, Outcome.BOTH),
            ("g9.1", Together.OPPONENTS, Outcome.SECOND),
        ]
        assert [(one.first_points, one.second_points) for one in meetings[3:5]] == [(100, 100), (90, 90)]

    def test_the_other_way_round_swaps_the_two(self) -> None:
        record = head_to_head(GAMES, BETO, ANA)
        assert (record.opponents.first_wins, record.opponents.second_wins) == (2, 2)
        assert (record.opponents.first_points, record.opponents.second_points) == (428, 429)
        assert record.partners == head_to_head(GAMES, ANA, BETO).partners

    def test_two_who_never_met(self) -> None:
        record = head_to_head(GAMES, BETO, 99)
        assert (record.opponents.played, record.partners.played, record.meetings) == (0, 0, [])


def test_winning_seats_are_the_winning_teams_seats_R3() -> None:
    assert winning_seats(GAMES[3].summary) == [0, 2]
    assert winning_seats(GAMES[6].summary) == [0, 1]
    assert winning_seats(GAMES[2].summary) == [1]
