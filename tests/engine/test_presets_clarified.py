"""The clarifications C3–C8 of docs/rules.md §3, and the inconsistent tables of §4.

The deals and scripts come from test_presets.py, where they are described.
"""

from __future__ import annotations

import pytest

from tests.engine.deals import result_of, run
from tests.engine.test_presets import (
    ALL_SIXES_FIRST,
    FUTBOL_DOMINO,
    FUTBOL_KEPT_FIRST_LOWER,
    FUTBOL_KEPT_SECOND_LOWER,
    FUTBOL_KEPT_TIED,
    FUTBOL_TRANQUE,
    KEPT_11_SECOND_LOWEST,
    KEPT_FIRST_SECOND_TIED,
    KEPT_LOWEST_FIRST,
    KEPT_SECOND_FOURTH_TIED,
    KEPT_SECOND_LOWEST,
    KEPT_SECOND_THIRD_TIED,
    KEPT_TEAMS_TIED,
    PENALTY_GAME_KEPT,
    TRANQUE_10,
    TRANQUE_11,
    make_deal,
    refused,
    scripted_deal,
    scripted_result,
    scripted_round,
)
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, RulesError, Tile
from tranque.engine import Mode, RoundEnd

# C3 -------------------------------------------------------------------------------------


class TestC3OutOfPlay:
    @pytest.mark.parametrize(
        ("name", "players", "out"), [("sin-pozo", 2, 14), ("futbol", 2, 4), ("sin-pozo", 4, 0)]
    )
    def test_C3_undealt_tiles_are_out_of_play(self, name: str, players: int, out: int) -> None:
        rules = Rules.preset(name, players=players)
        in_order = [str(tile) for tile in Tile.full_set(6)]
        size = rules.hand_size
        deal = make_deal(
            rules, [" ".join(in_order[seat * size : (seat + 1) * size]) for seat in range(players)]
        )
        rnd = Round.deal(rules, *deal, starter=0)
        assert (len(rnd.dealt_boneyard), rnd.boneyard, rnd.boneyard_count) == (out, [], 0)
        assert {rnd.view(seat).boneyard_count for seat in [*range(players), None]} == {0}

    def test_C3_no_draw_even_when_a_player_cannot_play(self) -> None:
        rules = Rules.preset("sin-pozo", players=2)
        deal = make_deal(rules, ["6-6 6-5 5-5 5-4 4-4 6-4 6-0", "2-0 2-1 2-2 3-0 3-1 3-2 3-3"])
        rnd = Round.deal(rules, *deal, first=True)
        run(rnd, "6-6")
        assert rnd.legal_actions() == [Pass()]
        with pytest.raises(IllegalAction):
            rnd.apply(Draw())
        assert (rnd.turn, rnd.hand_counts) == (1, [6, 7])

    def test_C3_tranque_needs_only_that_nobody_can_play(self) -> None:
        # 6-3, 6-2, 6-1 and 6-0 fit the ends (6 and 6) but are out of play.
        rnd = scripted_round(Rules.preset("futbol"), FUTBOL_TRANQUE, FUTBOL_KEPT_FIRST_LOWER, first=True)
        assert rnd.ends == (6, 6)
        assert {Tile(6, n) for n in range(4)} <= set(rnd.dealt_boneyard)
        result = result_of(rnd)
        assert (result.kind, result.closer, result.winner) == (RoundEnd.TRANQUE, 1, 0)

    def test_C3_first_lead_counts_out_of_play_tiles_as_not_dealt(self) -> None:
        rules = Rules.preset("futbol")
        deal = make_deal(
            rules,
            [
                "0-0 1-0 1-1 2-0 2-1 2-2 3-0 3-1 3-2 3-3 4-0 4-1",
                "5-5 4-2 4-3 4-4 5-0 5-1 5-2 5-3 5-4 6-0 6-1 6-2",
            ],
        )
        assert Tile(6, 6) in deal[1]
        game = Game(rules, deals=[deal])
        assert (game.round.starter, game.round.legal_actions()) == (1, [Play(Tile(5, 5))])


# C4 -------------------------------------------------------------------------------------


class TestC4SalonPairs:
    def test_C4_pairs_tranque_winning_team_scores_all_four_hands(self) -> None:
        result = scripted_result(Rules.preset("salon"), TRANQUE_10, KEPT_LOWEST_FIRST, first=True)
        assert (result.counts, result.winner, result.points) == ((27, 63), 0, (90, 0))

    def test_C4_individual_tranque_winner_scores_the_other_hands(self) -> None:
        rules = Rules.preset("salon", mode="individual")
        result = scripted_result(rules, TRANQUE_10, KEPT_LOWEST_FIRST, first=True)
        assert result.points == (77, 0, 0, 0)  # 30 + 14 + 33


# C5 -------------------------------------------------------------------------------------


class TestC5Results:
    @pytest.mark.parametrize(
        ("name", "mode", "kept", "winner_seat"),
        [
            ("clasico", "pairs", KEPT_TEAMS_TIED, None),
            ("internacional", "pairs", KEPT_TEAMS_TIED, None),
            ("salon", "pairs", KEPT_TEAMS_TIED, 0),
            ("clasico", "individual", KEPT_SECOND_FOURTH_TIED, None),
            ("salon", "individual", KEPT_SECOND_FOURTH_TIED, 1),
            ("en-contra", "individual", KEPT_SECOND_FOURTH_TIED, None),
            ("maracucho", "pairs", KEPT_SECOND_THIRD_TIED, 1),
            ("ponce", "pairs", KEPT_FIRST_SECOND_TIED, None),
            ("ponce", "pairs", KEPT_SECOND_FOURTH_TIED, 1),
        ],
    )
    def test_C5_tie_means_exactly_no_winner(
        self, name: str, mode: str, kept: list[str], winner_seat: int | None
    ) -> None:
        rules = Rules.preset(name, mode=mode)
        result = scripted_result(rules, TRANQUE_10, kept)
        assert result.winner_seat == winner_seat
        assert result.tie is (winner_seat is None)
        assert result.winner == (None if winner_seat is None else rules.team_of(winner_seat))

    @pytest.mark.parametrize("name", ["clasico", "maracucho", "ponce"])
    def test_C5_pairs_counts_are_per_team_and_per_seat(self, name: str) -> None:
        result = scripted_result(Rules.preset(name), TRANQUE_10, KEPT_SECOND_LOWEST, first=True)
        assert result.counts == (43, 47)
        assert result.seat_counts == (18, 17, 25, 30)

    def test_C5_individual_counts_are_per_seat(self) -> None:
        rules = Rules.preset("clasico", mode="individual")
        result = scripted_result(rules, TRANQUE_10, KEPT_SECOND_LOWEST, first=True)
        assert result.counts == result.seat_counts == (18, 17, 25, 30)


# C6 -------------------------------------------------------------------------------------

# A ponce first round with a pass and a tranque: seat 2 leads, seat 1 passes after seat 0's
# play (the game's first scoring pass: 2 to team 0), seat 0 blocks (2 to team 0) and seat 3
# has the fewest pips (18), so team 1 takes the 90 pips of all hands: 9.
PONCE_PASS_AND_TRANQUE = [
    "6-0 1-0 5-2 6-5 5-0 6-1 4-3",
    "0-0 5-5 3-1 2-0 5-1 3-0 4-0",
    "6-3 6-6 4-1 4-2 3-3 5-4 2-2",
    "6-2 4-4 5-3 2-1 3-2 6-4 1-1",
]


class TestC6PonceGame:
    def test_C6_pass_points_count_at_once_and_round_points_are_all_palitos(self) -> None:
        rules = Rules.preset("ponce")
        game = Game(rules, deals=[make_deal(rules, PONCE_PASS_AND_TRANQUE)])
        run(game, "6-6 6-2L 6-1R 2-0L 4-1R 6-4R 6-0L")
        assert game.scores == [0, 0]
        run(game, "pass")
        assert (game.scores, game.view(3).scores, game.round.pass_points) == ([2, 0], (2, 0), (2, 0))
        run(game, "6-3L 5-3L 6-5L")
        result = game.results[0]
        assert (result.kind, result.closer, result.winner_seat) == (RoundEnd.TRANQUE, 0, 3)
        assert (result.pass_points, result.blocker_points) == ((2, 0), (2, 0))
        assert result.points == (4, 9)
        assert game.scores == [4, 9]

    def test_C6_reaching_20_ends_the_game_with_the_round_unfinished(self) -> None:
        rules = Rules.preset("ponce")
        deals = [
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST),
            scripted_deal(rules, TRANQUE_11, KEPT_11_SECOND_LOWEST, starter=1),
            make_deal(rules, ALL_SIXES_FIRST[2:] + ALL_SIXES_FIRST[:2]),
        ]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        game.start_next_round()
        run(game, TRANQUE_11)
        game.start_next_round()
        run(game, "6-6 pass")
        view = game.view(0)
        assert (view.scores, view.is_over, view.result, view.hand_counts) == (
            (20, 4),
            False,
            None,
            (7, 7, 6, 7),
        )
        assert (game.winners, [r.points for r in game.results]) == ([0], [(9, 2), (9, 2)])

    def test_C6_both_teams_crossing_at_a_round_end_blockers_two_count_first(self) -> None:
        rules = Rules.preset("ponce")
        deals = [
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST),  # team 0 +9, team 1 blocks
            scripted_deal(rules, TRANQUE_11, KEPT_11_SECOND_LOWEST, starter=1),  # the same
            scripted_deal(rules, TRANQUE_10, KEPT_SECOND_LOWEST, starter=2),  # team 1 +9 and blocks
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST, starter=3),  # team 1 +9, team 0 blocks
        ]
        game = Game(rules, deals=deals)
        totals = [[9, 2], [18, 4], [18, 15], [20, 15]]  # team 1's 9 palitos come too late
        for number, total in enumerate(totals):
            if number:
                assert game.start_next_round().starter == number
            run(game, TRANQUE_10 if number != 1 else TRANQUE_11)
            assert game.scores == total
        assert game.results[3].points == (2, 9)
        assert game.winners == [0]


# C7 -------------------------------------------------------------------------------------


class TestC7NextStarter:
    def test_C7_goals_are_credited_to_the_loser(self) -> None:
        rules = Rules.preset("futbol")
        game = Game(rules, deals=[scripted_deal(rules, FUTBOL_DOMINO, ["", "4-0"])] * 2)
        run(game, FUTBOL_DOMINO)
        assert (game.results[0].winner, game.results[0].goals) == (0, (0, 1))
        assert (game.scores, game.goals, game.view(0).goals) == ([0, 0], [0, 1], (0, 1))
        assert game.next_starter() == 0

    @pytest.mark.parametrize(
        ("kept", "winner"), [(FUTBOL_KEPT_FIRST_LOWER, 0), (FUTBOL_KEPT_SECOND_LOWER, 1)]
    )
    def test_C7_futbol_tranque_winner_starts_the_next_round(self, kept: list[str], winner: int) -> None:
        rules = Rules.preset("futbol")
        game = Game(rules, deals=[scripted_deal(rules, FUTBOL_TRANQUE, kept)] * 2)
        run(game, FUTBOL_TRANQUE)
        assert game.results[0].winner == winner
        assert game.start_next_round().starter == winner

    def test_C7_futbol_tie_keeps_the_starter(self) -> None:
        rules = Rules.preset("futbol")
        deals = [
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_SECOND_LOWER),
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_TIED, starter=1),
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_TIED, starter=1),
        ]
        game = Game(rules, deals=deals)
        run(game, FUTBOL_TRANQUE)
        assert game.start_next_round().starter == 1
        run(game, FUTBOL_TRANQUE)
        assert (game.results[1].tie, game.scores) == (True, [0, 56])
        assert game.start_next_round().starter == 1

    def test_C7_en_contra_tie_keeps_the_starter(self) -> None:
        rules = Rules.preset("en-contra")
        deals = [
            scripted_deal(rules, TRANQUE_10, PENALTY_GAME_KEPT[0]),  # seat 3 wins
            scripted_deal(rules, TRANQUE_10, KEPT_SECOND_FOURTH_TIED, starter=3),
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST, starter=3),
        ]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        assert game.start_next_round().starter == 3
        run(game, TRANQUE_10)
        assert game.results[1].tie
        assert game.results[1].points == (19, 27, 19, 25)
        assert game.start_next_round().starter == 3


# C8 -------------------------------------------------------------------------------------


class TestC8Presets:
    @pytest.mark.parametrize(
        ("name", "players", "mode"),
        [
            ("clasico", 4, Mode.PAIRS),
            ("sin-pozo", 4, Mode.PAIRS),
            ("salon", 4, Mode.PAIRS),
            ("internacional", 4, Mode.PAIRS),
            ("latino", 4, Mode.PAIRS),
            ("maracucho", 4, Mode.PAIRS),
            ("ponce", 4, Mode.PAIRS),
            ("futbol", 2, Mode.INDIVIDUAL),
            ("en-contra", 4, Mode.INDIVIDUAL),
        ],
    )
    def test_C8_default_players_and_mode(self, name: str, players: int, mode: Mode) -> None:
        rules = Rules.preset(name)
        assert (rules.preset_name, rules.players, rules.mode) == (name, players, mode)

    @pytest.mark.parametrize(
        ("name", "players", "mode"),
        [
            ("clasico", 2, Mode.INDIVIDUAL),
            ("clasico", 3, Mode.INDIVIDUAL),
            ("clasico", 5, Mode.INDIVIDUAL),
            ("clasico", 6, Mode.PAIRS),
            ("sin-pozo", 2, Mode.INDIVIDUAL),
            ("salon", 3, Mode.INDIVIDUAL),
            ("en-contra", 3, Mode.INDIVIDUAL),
        ],
    )
    def test_C8_mode_defaults_to_pairs_where_allowed(self, name: str, players: int, mode: Mode) -> None:
        assert Rules.preset(name, players=players).mode is mode

    @pytest.mark.parametrize(
        ("name", "overrides", "parameter"),
        [
            ("clasico", {"players": 1}, "players"),
            ("clasico", {"players": 7}, "players"),
            ("sin-pozo", {"players": 3}, "players"),
            ("salon", {"players": 5}, "players"),
            ("internacional", {"players": 2}, "players"),
            ("internacional", {"mode": "individual"}, "mode"),
            ("latino", {"mode": "individual"}, "mode"),
            ("maracucho", {"mode": "individual"}, "mode"),
            ("ponce", {"mode": "individual"}, "mode"),
            ("futbol", {"players": 4}, "players"),
            ("futbol", {"mode": "pairs"}, "mode"),
            ("en-contra", {"mode": "pairs"}, "mode"),
            ("en-contra", {"players": 6}, "players"),
        ],
    )
    def test_C8_overrides_outside_the_presets_seatings_are_refused(
        self, name: str, overrides: dict[str, object], parameter: str
    ) -> None:
        refused(parameter, name, **overrides)

    def test_C8_penalty_and_previous_winner_need_individual(self) -> None:
        refused("scoring", "clasico", scoring="penalty")
        refused("next_round_start", "clasico", next_round_start="previous-winner")
        assert Rules.preset("clasico", mode="individual", scoring="penalty").players == 4
        assert Rules.preset("salon", mode="individual", next_round_start="previous-winner").players == 4

    def test_C8_futbol_scoring_needs_two_individual_players(self) -> None:
        refused("scoring", "clasico", scoring="futbol")
        refused("scoring", "clasico", players=3, scoring="futbol")
        assert Rules.preset("clasico", players=2, scoring="futbol").players == 2

    def test_C8_turn_seconds(self) -> None:
        assert Rules.preset("clasico").turn_seconds == 30
        for seconds in (20, 30, 45):
            assert Rules.preset("clasico", turn_seconds=seconds).turn_seconds == seconds
        for seconds in (0, 10, 25, 60):
            refused("turn_seconds", "clasico", turn_seconds=seconds)

    def test_C8_any_positive_target(self) -> None:
        assert Rules.preset("salon").target == 100
        for target in (1, 40, 75, 350, 1000):
            assert Rules.preset("clasico", target=target).target == target
            assert Rules.preset("salon", target=target).target == target
        for target in (0, -50):
            refused("target", "clasico", target=target)

    def test_C8_section_4_inconsistent_tables_name_the_parameter(self) -> None:
        with pytest.raises(RulesError) as pairs_of_five:
            Rules.preset("clasico", players=5, mode="pairs")
        assert pairs_of_five.value.parameter in {"players", "mode"}
        refused("players", "clasico", players=7)
        with pytest.raises(RulesError) as six_on_double_six:
            Rules.preset("clasico", players=6, set_max=6)
        assert six_on_double_six.value.parameter in {"set_max", "hand_size"}
        refused("target", "clasico", target=0)
