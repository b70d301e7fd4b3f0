"""The default rules, preset `clasico`: docs/rules.md §1, R1–R17.

Every test plays an explicit deal (or a seeded one where the rule is about dealing) and
checks exact outcomes. The deals below are shared by several rules; each comment says
how the round goes.
"""

from __future__ import annotations

import copy
import gc
import json
import re
from collections import Counter
from itertools import pairwise
from types import BuiltinFunctionType, FunctionType, MethodType, ModuleType
from typing import Any

import pytest

from tests.engine.deals import Deal, complete_deal, pips, played_round, result_of, run, snapshot, tiles
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, RulesError, Side, Tile
from tranque.engine import DrawEvent, PassEvent, PlayerView, PlayEvent, RoundEnd
from tranque.engine.bitboard import RoundState

PAIRS = Rules.preset("clasico")  # C8: 4 players in pairs
FOUR = Rules.preset("clasico", mode="individual")
TWO = Rules.preset("clasico", players=2, mode="individual")

L, R = Side.LEFT, Side.RIGHT

# A 4-player tranque after ten plays: the line ends 6|…|6 with all seven sixes on it.
# Turns 0,1,2,3,0,1,2,3,0,1; seat 1 makes the blocking play. Hands left (90 pips in all):
# seat 0: 0-0 1-1 2-0 2-1 (7), seat 1: 3-3 4-2 4-3 5-5 (29), seat 2: 2-2 3-0 3-1 4-0 4-1 (20),
# seat 3: 4-4 5-0 5-1 5-2 5-3 (34). Pairs: team 0 has 27, team 1 has 63.
TRANQUE_LINE = "6-6 6-5 5-4 6-4L 6-3 3-2 6-2L 6-1 1-0 6-0L"
TRANQUE_WON = Deal(
    [
        tiles("6-6 6-3 1-0 0-0 1-1 2-0 2-1"),
        tiles("6-5 3-2 6-0 3-3 4-2 4-3 5-5"),
        tiles("5-4 6-2 2-2 3-0 3-1 4-0 4-1"),
        tiles("6-4 6-1 4-4 5-0 5-1 5-2 5-3"),
    ],
    [],
)
# Same line; hands left: seat 0: 0-0 1-1 5-5 5-3 (20), seat 1: 2-2 3-0 3-1 4-0 (15),
# seat 2: 2-0 2-1 4-4 4-2 3-3 (25), seat 3: 4-1 4-3 5-0 5-1 5-2 (30). Teams tie 45–45.
TRANQUE_TEAMS_TIED = Deal(
    [
        tiles("6-6 6-3 1-0 0-0 1-1 5-5 5-3"),
        tiles("6-5 3-2 6-0 2-2 3-0 3-1 4-0"),
        tiles("5-4 6-2 2-0 2-1 4-4 4-2 3-3"),
        tiles("6-4 6-1 4-1 4-3 5-0 5-1 5-2"),
    ],
    [],
)
# Same line; hands left: seat 0: 0-0 1-1 2-2 4-4 (14), seat 1: 2-0 2-1 3-0 5-1 (14),
# seat 2: 3-1 3-3 4-0 4-1 4-2 (25), seat 3: 4-3 5-0 5-2 5-3 5-5 (37).
TRANQUE_SEATS_TIED = Deal(
    [
        tiles("6-6 6-3 1-0 0-0 1-1 2-2 4-4"),
        tiles("6-5 3-2 6-0 2-0 2-1 3-0 5-1"),
        tiles("5-4 6-2 3-1 3-3 4-0 4-1 4-2"),
        tiles("6-4 6-1 4-3 5-0 5-2 5-3 5-5"),
    ],
    [],
)

# A 4-player dominó: 25 plays, nobody passes, seat 0 plays its seventh tile (1-1) last.
# Left: seat 1: 0-0 (0), seat 2: 6-0 (6), seat 3: 1-0 (1). The ends (1, 6) still fit 1-0 and 6-0.
DOMINO_LINE = (
    "6-6 6-5 5-5 5-4 6-4L 6-3 5-3 5-2 6-2L 6-1 5-1 5-0 4-0 4-4 4-3 3-3 3-2 4-2 4-1 3-1 3-0 2-0 2-2 2-1 1-1"
)
DOMINO = Deal(
    [
        tiles("6-6 6-4 6-2 4-0 3-2 3-0 1-1"),
        tiles("6-5 6-3 6-1 4-4 4-2 2-0 0-0"),
        tiles("5-5 5-3 5-1 4-3 4-1 2-2 6-0"),
        tiles("5-4 5-2 5-0 3-3 3-1 2-1 1-0"),
    ],
    [],
)

# A 2-player dominó in 13 plays: seat 0 plays its seven doubles, seat 1 keeps 6-4 (10).
TWO_DOMINO_LINE = "6-6 6-5 5-5 5-4 4-4 4-3 3-3 3-2 2-2 2-1 1-1 1-0 0-0"
TWO_DOMINO = complete_deal(TWO, ["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-5 5-4 4-3 3-2 2-1 1-0 6-4"])

# 2 players: seat 0 leads 6-6; seat 1 has no six, draws 2-1 (no good), then 6-3 (good).
DRAW_THEN_PLAY = complete_deal(TWO, ["6-6", ""], boneyard="2-1 6-3", avoid={6})

# 2 players, later round: seat 0 leads 5-2, seat 1 plays 4-2; seat 0 holds no 5 nor 4,
# draws 1-0 (no good), then 5-4, which fits both ends (5, 4).
DRAW_FITS_BOTH = complete_deal(TWO, ["5-2", "4-2"], boneyard="1-0 5-4", avoid={4, 5})

# 2 players: seat 0 holds all seven sixes; seat 1 draws all 14 tiles, none fits, and passes.
ALL_SIXES = complete_deal(TWO, ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", ""])

# 4 players, later round started by seat 0: the R8 walk-through (see TestPlacing).
PLACING = Deal(
    [
        tiles("6-4 2-1 1-0 5-5 3-3 0-0 5-0"),
        tiles("4-1 6-0 2-0 5-2 3-0 5-3 3-1"),
        tiles("6-2 6-6 6-5 6-3 4-4 4-3 2-2"),
        tiles("1-1 6-1 5-4 5-1 4-2 4-0 3-2"),
    ],
    [],
)


def leads(hand: list[Tile]) -> set[Play]:
    return {Play(tile, None) for tile in hand}


def finish_round(rnd: Round) -> None:
    """Play a round out taking the first legal action each time (a deterministic policy)."""
    while not rnd.is_over:
        rnd.apply(rnd.legal_actions()[0])


def expected_first_lead(hands: list[list[Tile]]) -> tuple[int, Tile]:
    """R6 written out independently: highest double dealt, else most pips then high half."""
    dealt = [(seat, tile) for seat, hand in enumerate(hands) for tile in hand]
    doubles = [(seat, tile) for seat, tile in dealt if tile.is_double]
    if doubles:
        return max(doubles, key=lambda pair: pair[1].high)
    return max(dealt, key=lambda pair: (pair[1].pips, pair[1].high))


class TestSet:
    def test_R1_double_six_holds_every_pair_once(self) -> None:
        full = Tile.full_set(6)
        assert len(full) == 28 == (6 + 1) * (6 + 2) // 2
        assert set(full) == {Tile(a, b) for a in range(7) for b in range(a, 7)}
        assert len(set(full)) == 28

    def test_R1_double_nine_holds_55_tiles(self) -> None:
        full = Tile.full_set(9)
        assert len(full) == 55 == (9 + 1) * (9 + 2) // 2
        assert set(full) == {Tile(a, b) for a in range(10) for b in range(a, 10)}

    def test_R1_pips_and_canonical_notation(self) -> None:
        assert Tile(4, 6) == Tile(6, 4) == Tile.parse("6-4") == Tile.parse("4-6")
        assert hash(Tile(4, 6)) == hash(Tile(6, 4))
        assert str(Tile(4, 6)) == "6-4"
        assert str(Tile.parse("0-0")) == "0-0"
        assert Tile(6, 4).pips == 10
        assert Tile(0, 0).pips == 0
        assert Tile(9, 9).pips == 18
        assert sum(t.pips for t in Tile.full_set(6)) == 168
        assert sum(t.pips for t in Tile.full_set(9)) == 495

    @pytest.mark.parametrize(("players", "set_max"), [(2, 6), (3, 6), (4, 6), (5, 9), (6, 9)])
    def test_R2_set_by_player_count(self, players: int, set_max: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        assert rules.set_max == set_max
        rnd = Game(rules, seed="R2").round
        dealt = [tile for hand in rnd.hands for tile in hand] + rnd.boneyard
        assert sorted(dealt, key=lambda t: t.index) == Tile.full_set(set_max)

    def test_R2_six_players_in_pairs_use_double_nine(self) -> None:
        assert Rules.preset("clasico", players=6, mode="pairs").set_max == 9
        assert Rules.preset("clasico", players=4, mode="pairs").set_max == 6

    def test_R2_double_six_cannot_deal_six_players(self) -> None:
        with pytest.raises(RulesError) as error:
            Rules.preset("clasico", players=6, mode="individual", set_max=6)
        assert error.value.parameter in ("hand_size", "set_max")


class TestSeats:
    @pytest.mark.parametrize("players", [2, 3, 5])
    def test_R3_pairs_need_four_or_six_players(self, players: int) -> None:
        with pytest.raises(RulesError) as error:
            Rules.preset("clasico", players=players, mode="pairs")
        assert error.value.parameter in ("players", "mode")

    @pytest.mark.parametrize("players", [1, 7])
    def test_R3_two_to_six_players(self, players: int) -> None:
        with pytest.raises(RulesError) as error:
            Rules.preset("clasico", players=players, mode="individual")
        assert error.value.parameter == "players"

    @pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
    def test_R3_individual_each_seat_is_its_own_side(self, players: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        assert rules.team_count == players
        assert [rules.team_of(seat) for seat in range(players)] == list(range(players))
        assert [rules.partner_of(seat) for seat in range(players)] == [None] * players

    def test_R3_four_in_pairs_partners_face_each_other(self) -> None:
        assert PAIRS.team_count == 2
        assert [PAIRS.partner_of(seat) for seat in range(4)] == [2, 3, 0, 1]
        assert [PAIRS.team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
        assert [PAIRS.seats_of(team) for team in range(2)] == [[0, 2], [1, 3]]

    def test_R3_six_in_pairs_two_players_between_partners(self) -> None:
        rules = Rules.preset("clasico", players=6, mode="pairs")
        assert rules.team_count == 3
        assert [rules.partner_of(seat) for seat in range(6)] == [3, 4, 5, 0, 1, 2]
        assert [rules.seats_of(team) for team in range(3)] == [[0, 3], [1, 4], [2, 5]]

    def test_R5_turns_go_to_the_right(self) -> None:
        rnd = Round.deal(PAIRS, *TRANQUE_WON, first=True)
        turns = []
        for action in TRANQUE_LINE.split()[:-1]:
            turns.append(rnd.turn)
            run(rnd, action)
        assert turns == [0, 1, 2, 3, 0, 1, 2, 3, 0]
        assert [event.seat for event in rnd.events] == turns

    def test_R5_turn_wraps_from_last_seat_to_seat_zero(self) -> None:
        rules = Rules.preset("clasico", players=6, mode="pairs")
        rnd = Round.deal(rules, *complete_deal(rules, [None] * 5 + ["9-9"]), starter=5)
        rnd.apply(Play(Tile(9, 9)))
        assert rnd.turn == 0

    @pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
    def test_R5_next_seat_after_every_play_and_pass(self, players: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        for seed in range(5):
            rnd = Game(rules, seed=f"R5-{seed}").round
            starter = rnd.turn
            finish_round(rnd)
            events = rnd.events
            for event, following in pairwise(events):
                if isinstance(event, DrawEvent):
                    assert following.seat == event.seat
                else:
                    assert following.seat == (event.seat + 1) % players
            assert events[0].seat == starter


class TestDealing:
    @pytest.mark.parametrize(
        ("players", "mode", "boneyard"),
        [
            (2, "individual", 14),
            (3, "individual", 7),
            (4, "individual", 0),
            (4, "pairs", 0),
            (5, "individual", 20),
            (6, "individual", 13),
            (6, "pairs", 13),
        ],
    )
    def test_R4_seven_tiles_each_and_boneyard_size(self, players: int, mode: str, boneyard: int) -> None:
        rules = Rules.preset("clasico", players=players, mode=mode)
        for seed in range(3):
            game = Game(rules, seed=f"R4-{seed}")
            rnd = game.round
            assert [len(hand) for hand in rnd.hands] == [7] * players
            assert rnd.hand_counts == [7] * players
            assert rnd.boneyard_count == boneyard == len(rnd.boneyard)
            dealt = [tile for hand in rnd.hands for tile in hand] + rnd.boneyard
            assert len(set(dealt)) == len(dealt) == len(Tile.full_set(rules.set_max))
            for seat in range(players):
                assert list(game.view(seat).hand) == rnd.hands[seat]

    def test_R4_a_seed_fixes_the_deal_and_seeds_differ(self) -> None:
        deals = [Game(PAIRS, seed=seed).round.hands for seed in ("a", "a", "b")]
        assert deals[0] == deals[1]
        assert deals[0] != deals[2]

    def test_R4_shuffle_spreads_tiles_evenly(self) -> None:
        # Deterministic (seeded), so not flaky: with 4 players each seat holds 6-6 a quarter
        # of the time; with 2 players 6-6 is in the boneyard half of the time.
        holders = Counter(Game(PAIRS, seed=f"R4-{i}").round.starter for i in range(800))
        assert sorted(holders) == [0, 1, 2, 3]
        assert all(140 <= count <= 260 for count in holders.values())
        in_boneyard = sum(Tile(6, 6) in Game(TWO, seed=f"R4-{i}").round.boneyard for i in range(800))
        assert 340 <= in_boneyard <= 460


class TestFirstLead:
    def test_R6_highest_double_holder_must_lead_it(self) -> None:
        deal = TRANQUE_WON.rotated(2)  # 6-6 goes to seat 2
        rnd = Round.deal(PAIRS, *deal, first=True)
        assert rnd.starter == rnd.turn == 2
        assert rnd.legal_actions() == [Play(Tile(6, 6), None)]
        assert list(rnd.view(2).legal_actions) == [Play(Tile(6, 6), None)]
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match="6-6"):
            rnd.apply(Play(Tile(6, 3), None))
        assert snapshot(rnd) == before
        assert rnd.apply(Play(Tile(6, 6))).action == Play(Tile(6, 6), None)
        assert rnd.ends == (6, 6)

    def test_R6_first_round_of_a_game_uses_the_rule(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON.rotated(3)])
        assert game.round.starter == 3
        assert game.round.legal_actions() == [Play(Tile(6, 6), None)]

    def test_R6_double_six_in_boneyard_highest_dealt_double_leads(self) -> None:
        hands = ["4-4 6-5 6-4 6-3 6-2 6-1 6-0", "5-5 1-1 5-4 5-3 5-2 5-1 5-0"]
        deal = complete_deal(TWO, hands, boneyard="6-6")
        rnd = Round.deal(TWO, *deal, first=True)
        assert rnd.starter == 1
        assert rnd.legal_actions() == [Play(Tile(5, 5), None)]

    def test_R6_any_dealt_double_beats_a_higher_tile(self) -> None:
        doubles = "6-6 5-5 4-4 3-3 2-2 1-1"
        deal = complete_deal(TWO, ["6-5 6-4 6-3", "0-0"], boneyard=doubles)
        assert not any(tile.is_double for tile in deal.hands[0])
        rnd = Round.deal(TWO, *deal, first=True)
        assert rnd.starter == 1
        assert rnd.legal_actions() == [Play(Tile(0, 0), None)]

    @pytest.mark.parametrize(("seat_of_6_3", "seat_of_5_4"), [(1, 0), (0, 1)])
    def test_R6_no_double_dealt_highest_tile_leads_6_3_over_5_4(
        self, seat_of_6_3: int, seat_of_5_4: int
    ) -> None:
        hands: list[list[str]] = [[], []]
        hands[seat_of_6_3] = ["6-3", "2-1", "3-1", "4-1", "5-1", "4-2", "6-1"]
        hands[seat_of_5_4] = ["5-4", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0"]
        deal = complete_deal(TWO, hands, boneyard="6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4")
        rnd = Round.deal(TWO, *deal, first=True)
        assert rnd.starter == seat_of_6_3
        assert rnd.legal_actions() == [Play(Tile(6, 3), None)]

    def test_R6_five_players_nine_nine_leads(self) -> None:
        rules = Rules.preset("clasico", players=5, mode="individual")
        rnd = Round.deal(rules, *complete_deal(rules, ["8-8", None, None, "9-9", None]), first=True)
        assert rnd.starter == 3
        assert rnd.legal_actions() == [Play(Tile(9, 9), None)]

    def test_R6_six_players_nine_nine_in_boneyard_eight_eight_leads(self) -> None:
        rules = Rules.preset("clasico", players=6, mode="pairs")
        deal = complete_deal(rules, [None, None, None, None, "8-8", None], boneyard="9-9")
        rnd = Round.deal(rules, *deal, first=True)
        assert rnd.starter == 4
        assert rnd.legal_actions() == [Play(Tile(8, 8), None)]

    @pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
    def test_R6_seeded_games_start_by_the_rule(self, players: int) -> None:
        rules = Rules.preset("clasico", players=players, mode="individual")
        for seed in range(20):
            rnd = Game(rules, seed=f"R6-{seed}").round
            seat, tile = expected_first_lead(rnd.hands)
            assert (rnd.starter, rnd.legal_actions()) == (seat, [Play(tile, None)])


class TestLaterRounds:
    def test_R7_starter_rotates_right_and_leads_any_tile(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON, TRANQUE_WON, TRANQUE_WON])
        run(game, TRANQUE_LINE)
        assert game.next_starter() == 1
        rnd = game.start_next_round()
        assert rnd.starter == rnd.turn == 1
        assert Tile(6, 6) in rnd.hands[0]
        assert set(rnd.legal_actions()) == leads(TRANQUE_WON.hands[1])
        assert len(rnd.legal_actions()) == 7

    def test_R7_rotation_wraps_from_last_seat(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON.rotated(3), TRANQUE_WON])
        assert game.round.starter == 3
        run(game, TRANQUE_LINE)
        assert game.results[-1].tie is False
        assert game.start_next_round().starter == 0
        assert set(game.round.legal_actions()) == leads(TRANQUE_WON.hands[0])

    def test_R7_three_rounds_started_by_seats_0_1_2(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON.rotated(k) for k in range(3)])
        for number in range(3):
            if number:
                game.start_next_round()
            assert game.round.starter == number
            run(game, TRANQUE_LINE)  # the 6-6 holder (the starter) leads it by choice
        assert [result.winner for result in game.results] == [0, 1, 0]
        assert game.scores == [180, 90]


class TestPlacing:
    """R8 walk-through on `PLACING` (a later round, so seat 0 may lead any tile)."""

    def start(self) -> Round:
        return Round.deal(PAIRS, *PLACING, starter=0)

    def test_R8_any_lead_is_legal_in_a_later_round(self) -> None:
        rnd = self.start()
        assert set(rnd.legal_actions()) == leads(PLACING.hands[0])
        assert len(rnd.legal_actions()) == 7

    def test_R8_lead_halves_become_the_ends(self) -> None:
        rnd = self.start()
        assert rnd.ends is None
        assert rnd.apply(Play(Tile(6, 4))).action == Play(Tile(6, 4), None)
        assert rnd.ends == (6, 4)
        assert rnd.layout == [(6, 4)]
        assert rnd.line == [Tile(6, 4)]

    def test_R8_forced_play_lists_exactly_the_fitting_placements(self) -> None:
        rnd = self.start()
        run(rnd, "6-4")
        assert set(rnd.legal_actions()) == {Play(Tile(4, 1), R), Play(Tile(6, 0), L)}
        assert Draw() not in rnd.legal_actions() and Pass() not in rnd.legal_actions()

    def test_R8_matching_halves_are_placed_together(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2")
        assert rnd.layout == [(2, 6), (6, 4), (4, 1)]
        assert rnd.line == tiles("6-2 6-4 4-1")
        assert rnd.ends == (2, 1)

    def test_R8_double_leaves_exactly_two_ends(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1")
        assert rnd.layout == [(2, 6), (6, 4), (4, 1), (1, 1)]
        assert rnd.ends == (2, 1)
        # No spinner: 1-0 fits only the right end the double left.
        assert set(rnd.legal_actions()) == {Play(Tile(2, 1), L), Play(Tile(2, 1), R), Play(Tile(1, 0), R)}

    def test_R8_tile_fitting_both_different_ends_gives_two_actions(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1")
        plays_of_2_1 = [a for a in rnd.legal_actions() if isinstance(a, Play) and a.tile == Tile(2, 1)]
        assert sorted(a.side for a in plays_of_2_1 if a.side) == [L, R]
        assert rnd.apply(Play(Tile(2, 1), R)).action == Play(Tile(2, 1), R)
        assert rnd.layout[-1] == (1, 2)
        assert rnd.ends == (2, 2)

    def test_R8_choosing_left_for_a_tile_fitting_both(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1 2-1L")
        assert rnd.layout[0] == (1, 2)
        assert rnd.ends == (1, 1)

    def test_R8_no_end_given_for_a_tile_fitting_both_is_refused(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1")
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match=r"pega en las dos puntas.*izquierda o derecha"):
            rnd.apply(Play(Tile(2, 1), None))
        assert snapshot(rnd) == before

    def test_R8_equal_ends_make_one_move(self) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1 2-1R")
        assert rnd.ends == (2, 2)
        assert rnd.turn == 1
        assert set(rnd.legal_actions()) == {Play(Tile(2, 0), L), Play(Tile(5, 2), L)}
        assert rnd.apply(Play(Tile(5, 2), R)).action == Play(Tile(5, 2), L)
        assert rnd.ends == (5, 2)

    def test_R8_single_placement_accepts_no_end(self) -> None:
        rnd = self.start()
        run(rnd, "6-4")
        assert rnd.apply(Play(Tile(4, 1), None)).action == Play(Tile(4, 1), R)
        assert rnd.ends == (6, 1)

    @pytest.mark.parametrize(
        ("action", "reason"),
        [
            (Play(Tile(6, 6), L), "No tienes la ficha 6-6"),
            (Play(Tile(5, 5), L), "La ficha 5-5 no pega en ninguna punta"),
            (Play(Tile(5, 5), None), "La ficha 5-5 no pega en ninguna punta"),
            (Play(Tile(1, 0), L), r"no pega en la punta izquierda \(2\)"),
            (Draw(), "No puedes robar"),
            (Pass(), "No puedes pasar"),
        ],
    )
    def test_R8_illegal_action_is_refused_and_changes_nothing(self, action: Any, reason: str) -> None:
        rnd = self.start()
        run(rnd, "6-4 4-1 6-2 1-1")
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match=reason):
            rnd.apply(action)
        assert snapshot(rnd) == before

    def test_R8_wrong_end_for_single_placement_is_refused(self) -> None:
        rnd = self.start()
        run(rnd, "6-4")
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match=r"no pega en la punta izquierda \(6\)"):
            rnd.apply(Play(Tile(4, 1), L))
        assert snapshot(rnd) == before


class TestDrawing:
    def test_R9_draw_when_nothing_fits(self) -> None:
        rnd = played_round(TWO, DRAW_THEN_PLAY, "6-6")
        assert rnd.turn == 1
        assert rnd.legal_actions() == [Draw()]

    def test_R9_draw_one_at_a_time_until_playable_then_play_it(self) -> None:
        rnd = played_round(TWO, DRAW_THEN_PLAY, "6-6 draw")
        assert (rnd.turn, rnd.boneyard_count, rnd.hand_counts) == (1, 13, [6, 8])
        assert Tile(2, 1) in rnd.hands[1]
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert (rnd.turn, rnd.boneyard_count, rnd.hand_counts) == (1, 12, [6, 9])
        assert rnd.legal_actions() == [Play(Tile(6, 3), L)]
        assert rnd.timeout_action() == Play(Tile(6, 3), L)
        run(rnd, "6-3")
        assert rnd.ends == (3, 6)
        assert rnd.turn == 0

    @pytest.mark.parametrize("action", [Draw(), Pass()])
    def test_R9_no_more_drawing_nor_passing_once_a_tile_fits(self, action: Any) -> None:
        rnd = played_round(TWO, DRAW_THEN_PLAY, "6-6 draw draw")
        before = snapshot(rnd)
        with pytest.raises(IllegalAction):
            rnd.apply(action)
        assert snapshot(rnd) == before

    def test_R9_drawn_tile_fitting_both_ends_lets_the_drawer_choose(self) -> None:
        rnd = played_round(TWO, DRAW_FITS_BOTH, "5-2 4-2", starter=0)
        assert rnd.ends == (5, 4)
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert set(rnd.legal_actions()) == {Play(Tile(5, 4), L), Play(Tile(5, 4), R)}
        with pytest.raises(IllegalAction, match="dos puntas"):
            rnd.apply(Play(Tile(5, 4), None))
        run(rnd, "5-4R")
        assert rnd.ends == (5, 5)

    def test_R9_no_draw_while_holding_a_playable_tile(self) -> None:
        rnd = played_round(TWO, DRAW_FITS_BOTH, "5-2", starter=0)
        assert rnd.boneyard_count == 14
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match="No puedes robar"):
            rnd.apply(Draw())
        assert snapshot(rnd) == before
        assert Draw() not in rnd.legal_actions()

    def test_R9_no_pass_while_able_to_draw(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6")
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match="No puedes pasar: todavía puedes robar"):
            rnd.apply(Pass())
        assert snapshot(rnd) == before

    def test_R9_boneyard_runs_out_then_pass(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6 draw*13")
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert rnd.boneyard_count == 0
        assert not rnd.is_over
        assert rnd.legal_actions() == [Pass()]
        with pytest.raises(IllegalAction, match="pozo está vacío"):
            rnd.apply(Draw())
        run(rnd, "pass")
        assert rnd.events[-1] == PassEvent(1)
        assert rnd.turn == 0
        assert rnd.hand_counts == [6, 21]

    def test_R9_with_no_boneyard_pass_directly(self) -> None:
        # 4 players: no boneyard. After 6-6, 6-5: seats 2 and 3 of this deal hold no 5 nor 6.
        sixes, fives = "6-6 6-4 6-3 6-2 6-1 6-0 5-5", "6-5 5-4 5-3 5-2 5-1 5-0"
        deal = complete_deal(PAIRS, [sixes, fives], avoid={5, 6})
        rnd = played_round(PAIRS, deal, "6-6 6-5")
        assert rnd.legal_actions() == [Pass()]
        run(rnd, "pass")
        assert rnd.legal_actions() == [Pass()]
        run(rnd, "pass")
        assert rnd.turn == 0
        assert [type(e) for e in rnd.events] == [PlayEvent, PlayEvent, PassEvent, PassEvent]


class TestDomino:
    def test_R10_pairs_domino_wins_for_the_team(self) -> None:
        rnd = played_round(PAIRS, DOMINO, DOMINO_LINE)
        result = rnd.result
        assert rnd.is_over and result is not None
        assert (result.kind, result.winner, result.winner_seat, result.closer) == (RoundEnd.DOMINO, 0, 0, 0)
        assert result.tie is False
        assert rnd.hand_counts == [0, 1, 1, 1]
        assert rnd.legal_actions() == []
        with pytest.raises(IllegalAction):
            rnd.apply(Pass())

    def test_R10_domino_by_seat_one_wins_for_team_one(self) -> None:
        rnd = Round.deal(PAIRS, *DOMINO.rotated(1), starter=1)
        run(rnd, DOMINO_LINE)
        result = result_of(rnd)
        assert (result.kind, result.winner, result.winner_seat) == (RoundEnd.DOMINO, 1, 1)
        assert result.points == (0, 7)

    def test_R10_individual_domino_wins_for_the_player(self) -> None:
        rnd = played_round(TWO, TWO_DOMINO, TWO_DOMINO_LINE)
        result = result_of(rnd)
        assert (result.kind, result.winner, result.winner_seat, result.tie) == (RoundEnd.DOMINO, 0, 0, False)

    def test_R12_pairs_domino_scores_partner_and_opponents(self) -> None:
        rnd = played_round(PAIRS, DOMINO, DOMINO_LINE)
        result = result_of(rnd)
        assert rnd.hands == [[], tiles("0-0"), tiles("6-0"), tiles("1-0")]
        assert result.points == (0 + 6 + 1, 0)  # the partner's 6-0 counts too
        assert result.counts == (6, 1)
        assert result.seat_counts == (0, 0, 6, 1)

    def test_R12_individual_domino_scores_every_other_hand(self) -> None:
        rnd = played_round(FOUR, DOMINO, DOMINO_LINE)
        assert rnd.result is not None
        assert rnd.result.points == (7, 0, 0, 0)

    def test_R12_boneyard_never_counts(self) -> None:
        rnd = played_round(TWO, TWO_DOMINO, TWO_DOMINO_LINE)
        assert rnd.boneyard_count == 14
        assert pips(rnd.boneyard) == 80
        assert rnd.result is not None
        assert rnd.result.points == (10, 0)
        assert rnd.result.counts == (0, 10)

    def test_R12_no_bonus_for_a_last_tile_fitting_both_ends(self) -> None:
        deal = complete_deal(TWO, ["6-6 5-5 4-4 3-3 2-2 1-1 6-0", "6-5 5-4 4-3 3-2 2-1 1-0 5-3"])
        rnd = played_round(TWO, deal, "6-6 6-5 5-5 5-4 4-4 4-3 3-3 3-2 2-2 2-1 1-1 1-0")
        assert rnd.ends == (0, 6)
        assert {Play(Tile(6, 0), L), Play(Tile(6, 0), R)} <= set(rnd.legal_actions())
        run(rnd, "6-0L")
        assert rnd.result is not None
        assert rnd.result.kind is RoundEnd.DOMINO
        assert rnd.result.points == (8, 0)

    def test_R12_game_adds_the_points(self) -> None:
        game = Game(PAIRS, deals=[DOMINO])
        run(game, DOMINO_LINE)
        assert game.scores == [7, 0]
        assert not game.is_over


class TestTranque:
    def test_R11_tranque_when_nobody_can_play(self) -> None:
        rnd = played_round(PAIRS, TRANQUE_WON, TRANQUE_LINE)
        assert rnd.ends == (6, 6)
        assert not any(6 in (t.high, t.low) for hand in rnd.hands for t in hand)
        result = result_of(rnd)
        assert (result.kind, result.closer, result.tie) == (RoundEnd.TRANQUE, 1, False)

    def test_R11_pairs_tranque_lowest_team_count_wins(self) -> None:
        rnd = played_round(PAIRS, TRANQUE_WON, TRANQUE_LINE)
        result = result_of(rnd)
        assert result.seat_counts == (7, 29, 20, 34)
        assert result.counts == (27, 63)
        assert result.winner == 0

    def test_R11_pairs_team_sum_not_lowest_player_decides(self) -> None:
        # Seat 1 has the lowest hand (15) but teams tie 45–45: nobody wins.
        rnd = played_round(PAIRS, TRANQUE_TEAMS_TIED, TRANQUE_LINE)
        result = result_of(rnd)
        assert result.seat_counts == (20, 15, 25, 30)
        assert result.counts == (45, 45)
        assert (result.winner, result.tie) == (None, True)

    def test_R11_individual_tranque_lowest_player_wins(self) -> None:
        rnd = played_round(FOUR, TRANQUE_TEAMS_TIED, TRANQUE_LINE)
        result = result_of(rnd)
        assert (result.winner, result.winner_seat) == (1, 1)
        assert result.counts == (20, 15, 25, 30)

    def test_R13_pairs_tranque_scores_all_hands(self) -> None:
        rnd = played_round(PAIRS, TRANQUE_WON, TRANQUE_LINE)
        assert rnd.result is not None
        assert rnd.result.points == (7 + 29 + 20 + 34, 0)

    def test_R13_individual_tranque_scores_other_hands(self) -> None:
        rnd = played_round(FOUR, TRANQUE_WON, TRANQUE_LINE)
        assert rnd.result is not None
        assert rnd.result.points == (29 + 20 + 34, 0, 0, 0)
        rnd = played_round(FOUR, TRANQUE_TEAMS_TIED, TRANQUE_LINE)
        assert rnd.result is not None
        assert rnd.result.points == (0, 20 + 25 + 30, 0, 0)

    def test_R13_pairs_tie_nobody_scores(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_TEAMS_TIED, TRANQUE_WON.rotated(1)])
        run(game, TRANQUE_LINE)
        result = game.results[-1]
        assert (result.tie, result.winner, result.points) == (True, None, (0, 0))
        assert game.scores == [0, 0]

    def test_R13_individual_tie_between_lowest_nobody_scores(self) -> None:
        rnd = played_round(FOUR, TRANQUE_SEATS_TIED, TRANQUE_LINE)
        result = result_of(rnd)
        assert result.counts == (14, 14, 25, 37)
        assert (result.tie, result.winner, result.winner_seat) == (True, None, None)
        assert result.points == (0, 0, 0, 0)

    def test_R13_tie_same_starter_leads_any_tile(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_TEAMS_TIED, TRANQUE_WON.rotated(1)])
        run(game, TRANQUE_LINE)
        assert game.next_starter() == 0
        rnd = game.start_next_round()
        assert rnd.starter == rnd.turn == 0
        assert Tile(6, 6) not in rnd.hands[0]
        assert set(rnd.legal_actions()) == leads(rnd.hands[0])


class TestGameEnd:
    @pytest.mark.parametrize(
        ("players", "mode", "target"),
        [
            (2, "individual", 100),
            (3, "individual", 100),
            (4, "individual", 100),
            (4, "pairs", 100),
            (5, "individual", 200),
            (6, "individual", 200),
            (6, "pairs", 200),
        ],
    )
    def test_R14_default_target(self, players: int, mode: str, target: int) -> None:
        assert Rules.preset("clasico", players=players, mode=mode).target == target

    @pytest.mark.parametrize("target", [100, 150, 200])
    def test_R14_table_targets(self, target: int) -> None:
        assert Rules.preset("clasico", target=target).target == target

    def test_R14_reaching_the_target_ends_the_game(self) -> None:
        game = Game(PAIRS.replace(target=90), deals=[TRANQUE_WON, TRANQUE_WON])
        run(game, TRANQUE_LINE)
        assert game.scores == [90, 0]
        assert game.is_over
        assert game.winners == [0]
        with pytest.raises(IllegalAction):
            game.start_next_round()
        with pytest.raises(IllegalAction):
            game.apply(Play(Tile(6, 6)))

    def test_R14_passing_the_target_ends_the_game(self) -> None:
        game = Game(PAIRS.replace(target=50), deals=[TRANQUE_WON])
        run(game, TRANQUE_LINE)
        assert game.is_over
        assert game.winners == [0]

    def test_R14_below_the_target_the_game_goes_on(self) -> None:
        game = Game(PAIRS.replace(target=91), deals=[TRANQUE_WON, TRANQUE_WON])
        run(game, TRANQUE_LINE)
        assert game.scores == [90, 0]
        assert not game.is_over
        assert game.winners == []
        assert game.start_next_round().starter == 1

    def test_R14_default_target_over_several_rounds(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON.rotated(k) for k in range(3)])
        for number in range(3):
            if number:
                game.start_next_round()
            assert not game.is_over
            run(game, TRANQUE_LINE)
        assert game.scores == [180, 90]
        assert game.is_over
        assert game.winners == [0]

    def test_R14_individual_game_winner_is_a_seat(self) -> None:
        game = Game(FOUR.replace(target=75), deals=[TRANQUE_TEAMS_TIED])
        run(game, TRANQUE_LINE)
        assert game.scores == [0, 75, 0, 0]
        assert game.winners == [1]


class TestTimeout:
    def test_R15_turn_clock_default_and_choices(self) -> None:
        assert PAIRS.turn_seconds == 30
        for seconds in (20, 30, 45):
            assert Rules.preset("clasico", turn_seconds=seconds).turn_seconds == seconds
        with pytest.raises(RulesError) as error:
            Rules.preset("clasico", turn_seconds=25)
        assert error.value.parameter == "turn_seconds"

    def test_R15_most_pips(self) -> None:
        rnd = played_round(PAIRS, PLACING, "6-4", starter=0)
        assert set(rnd.legal_actions()) == {Play(Tile(4, 1), R), Play(Tile(6, 0), L)}
        assert rnd.timeout_action() == Play(Tile(6, 0), L)

    def test_R15_equal_pips_higher_high_half(self) -> None:
        deal = complete_deal(TWO, ["4-3", "5-4 6-3 0-0 1-0 1-1 2-0 2-1"])
        rnd = played_round(TWO, deal, "4-3", starter=0)
        assert set(rnd.legal_actions()) == {Play(Tile(5, 4), L), Play(Tile(6, 3), R)}
        assert rnd.timeout_action() == Play(Tile(6, 3), R)

    def test_R15_left_end_when_it_fits_both(self) -> None:
        rnd = played_round(PAIRS, PLACING, "6-4 4-1 6-2 1-1", starter=0)
        assert rnd.timeout_action() == Play(Tile(2, 1), L)

    def test_R15_draws_then_plays_the_drawn_tile(self) -> None:
        rnd = played_round(TWO, DRAW_FITS_BOTH, "5-2 4-2", starter=0)
        assert rnd.timeout_action() == Draw()
        rnd.apply(rnd.timeout_action())
        assert rnd.timeout_action() == Draw()
        rnd.apply(rnd.timeout_action())
        assert rnd.timeout_action() == Play(Tile(5, 4), L)
        rnd.apply(rnd.timeout_action())
        assert rnd.ends == (4, 4)

    def test_R15_passes_when_boneyard_is_empty(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6 draw*14")
        assert rnd.timeout_action() == Pass()

    def test_R15_timeout_action_is_always_legal(self) -> None:
        for seed in range(10):
            rnd = Game(FOUR, seed=f"R15-{seed}").round
            while not rnd.is_over:
                action = rnd.timeout_action()
                assert action in rnd.legal_actions()
                rnd.apply(action)
            with pytest.raises(IllegalAction):
                rnd.timeout_action()

    def test_R16_bot_takes_over_after_three_timeouts_by_default(self) -> None:
        for players, mode in [(2, "individual"), (4, "pairs"), (6, "pairs")]:
            assert Rules.preset("clasico", players=players, mode=mode).absent_turns_before_bot == 3
        with pytest.raises(RulesError) as error:
            Rules.preset("clasico", absent_turns_before_bot=0)
        assert error.value.parameter == "absent_turns_before_bot"


_NOT_FOLLOWED = (type, ModuleType, FunctionType, BuiltinFunctionType, MethodType)


def reachable(root: object) -> list[object]:
    """Every object reachable from `root` through references, without following classes,
    modules or functions (through which everything is reachable)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        if not isinstance(obj, _NOT_FOLLOWED):
            stack.extend(gc.get_referents(obj))
    return list(seen.values())


class TestHiddenInformation:
    def mid_round(self) -> Round:
        """2 players, both have drawn: hidden tiles in both hands and in the boneyard."""
        hands = ["6-6 5-5 0-0 2-0 3-0 4-0 5-0", "3-3 3-2 4-2 4-3 5-2 5-4 4-1"]
        deal = complete_deal(TWO, hands, boneyard="2-2 2-1 6-1 4-4 5-3")
        rnd = played_round(TWO, deal, "6-6 draw draw draw 6-1")
        # Seat 0 holds no 1 nor 6: it must draw too, and 4-4 does not fit either.
        assert rnd.ends == (1, 6) and rnd.turn == 0
        run(rnd, "draw")
        return rnd

    def test_R17_view_hand_is_own_tiles(self) -> None:
        rnd = self.mid_round()
        for seat in range(2):
            view = rnd.view(seat)
            assert view.seat == seat
            assert list(view.hand) == rnd.hands[seat]
        assert rnd.view(None).hand == ()
        assert rnd.view(0).hand_counts == tuple(rnd.hand_counts) == (7, 9)
        assert rnd.view(1).boneyard_count == rnd.boneyard_count == 10
        assert rnd.view(1).line == tuple(rnd.line)
        assert rnd.view(1).ends == rnd.ends

    def test_R17_others_draws_have_no_tile(self) -> None:
        rnd = self.mid_round()
        seat_1_draws = [DrawEvent(1, Tile(2, 2)), DrawEvent(1, Tile(2, 1)), DrawEvent(1, Tile(6, 1))]
        own = [e for e in rnd.view(1).events if isinstance(e, DrawEvent)]
        assert own == [*seat_1_draws, DrawEvent(0, None)]
        assert [e for e in rnd.view(0).events if isinstance(e, DrawEvent)] == [
            DrawEvent(1, None),
            DrawEvent(1, None),
            DrawEvent(1, None),
            DrawEvent(0, Tile(4, 4)),
        ]
        hidden = [DrawEvent(1, None)] * 3 + [DrawEvent(0, None)]
        assert [e for e in rnd.view(None).events if isinstance(e, DrawEvent)] == hidden
        assert [e for e in rnd.events if isinstance(e, DrawEvent)] == hidden

    def test_R17_legal_actions_only_for_the_seat_to_act(self) -> None:
        rnd = self.mid_round()
        assert rnd.view(0).legal_actions == tuple(rnd.legal_actions())
        assert rnd.view(1).legal_actions == ()
        assert rnd.view(None).legal_actions == ()

    def test_R17_hands_revealed_only_at_the_end(self) -> None:
        rnd = Round.deal(PAIRS, *TRANQUE_WON, first=True)
        for action in TRANQUE_LINE.split():
            for seat in [0, 1, 2, 3, None]:
                view = rnd.view(seat)
                assert (view.is_over, view.revealed_hands, view.result) == (False, None, None)
            run(rnd, action)
        for seat in [0, 1, 2, 3, None]:
            view = rnd.view(seat)
            assert view.is_over
            assert view.revealed_hands == tuple(tuple(hand) for hand in rnd.hands)
            assert view.result == rnd.result

    @pytest.mark.parametrize("seat", [0, 1, None])
    def test_R17_view_reaches_no_round_and_no_hidden_tile(self, seat: int | None) -> None:
        rnd = self.mid_round()
        view = rnd.view(seat)
        objects = reachable(view)
        assert not [o for o in objects if isinstance(o, (Round, RoundState, Game))]
        assert not [o for o in objects if isinstance(o, (list, set, bytearray))]
        known = set(rnd.line) | (set(rnd.hands[seat]) if seat is not None else set())
        seen_tiles = {o for o in objects if isinstance(o, Tile)}
        assert seen_tiles <= known
        hidden_masks = {
            mask
            for other, mask in enumerate(rnd.fast_state().hands)
            if other != seat and mask.bit_count() > 1
        }
        assert not [o for o in objects if type(o) is int and o in hidden_masks]

    @pytest.mark.parametrize("seat", [0, 1, None])
    def test_R17_view_json_names_no_hidden_tile(self, seat: int | None) -> None:
        rnd = self.mid_round()
        text = json.dumps(rnd.view(seat).to_json())
        named = {Tile.parse(found) for found in re.findall(r"\d-\d", text)}
        known = set(rnd.line) | (set(rnd.hands[seat]) if seat is not None else set())
        assert named <= known

    def test_R17_game_view_reaches_no_game(self) -> None:
        game = Game(TWO, deals=[DRAW_THEN_PLAY])
        run(game, "6-6 draw")
        objects = reachable(game.view(0))
        assert not [o for o in objects if isinstance(o, (Round, RoundState, Game))]
        assert {o for o in objects if isinstance(o, Tile)} <= set(game.round.hands[0]) | {Tile(6, 6)}

    def test_R17_boneyard_order_never_revealed_even_at_the_end(self) -> None:
        rnd = played_round(TWO, TWO_DOMINO, TWO_DOMINO_LINE)
        for seat in [0, 1, None]:
            view = rnd.view(seat)
            seen_tiles = {o for o in reachable(view) if isinstance(o, Tile)}
            assert seen_tiles.isdisjoint(rnd.boneyard)
            assert seen_tiles == set(rnd.line) | {Tile(6, 4)}

    def test_R17_finished_view_holds_no_mutable_part_of_the_round(self) -> None:
        # A bot keeps its view; changing what it holds must not change the round or the game.
        game = Game(PAIRS, deals=[TRANQUE_WON])
        run(game, TRANQUE_LINE)
        view = game.view(1)
        assert view.result is not None
        with pytest.raises(TypeError):
            view.result.points[1] = 500  # type: ignore[index]
        with pytest.raises(TypeError):
            view.result.counts[1] = 0  # type: ignore[index]
        assert game.round.result is not None
        assert game.round.result.points == (90, 0)
        assert game.round.result.counts == (27, 63)
        assert game.results[0].points == (90, 0)

    def test_R17_a_view_is_a_snapshot(self) -> None:
        rnd = Round.deal(TWO, *DRAW_THEN_PLAY, first=True)
        view = rnd.view(1)
        kept = copy.deepcopy(view)
        run(rnd, "6-6 draw draw 6-3")
        assert view == kept
        assert isinstance(view, PlayerView)
        with pytest.raises(AttributeError):
            view.hand = ()  # type: ignore[misc]
