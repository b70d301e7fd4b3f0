"""docs/rules.md §3, the decided clarifications C1 (when a tranque is declared), C2 (drawing one
tile at a time), C9 (explicit deals that are refused) and C10 (R15 on a lead)."""

from __future__ import annotations

import pytest

from tests.engine.deals import Deal, complete_deal, played_round, result_of, run, snapshot, tiles
from tests.engine.test_rules_clasico import (
    ALL_SIXES,
    DRAW_THEN_PLAY,
    FOUR,
    PAIRS,
    TRANQUE_LINE,
    TRANQUE_WON,
    TWO,
)
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, Side, Tile
from tranque.engine import DealError, DrawEvent, PassEvent, PlayEvent, RoundEnd

L = Side.LEFT

# 4 players, 25 plays, nobody passes: seat 0's last tile 6-0 leaves the ends (6, 6) with all
# sixes on the line, so it also blocks. Left: seat 1: 0-0 (0), seat 2: 2-2 (4), seat 3: 1-1 (2).
# As a tranque, team 1 (2 pips) would beat team 0 (4 pips); as a dominó team 0 wins.
BLOCKING_DOMINO_LINE = (
    "6-6 6-5 5-5 5-4 6-4L 6-3 5-3 5-2 6-2L 6-1 5-1 5-0 4-0 4-4 4-3 3-3 3-2 4-2 4-1 3-1 3-0 2-0 2-1 1-0 6-0L"
)
BLOCKING_DOMINO = Deal(
    [
        tiles("6-6 6-4 6-2 4-0 3-2 3-0 6-0"),
        tiles("6-5 6-3 6-1 4-4 4-2 2-0 0-0"),
        tiles("5-5 5-3 5-1 4-3 4-1 2-1 2-2"),
        tiles("5-4 5-2 5-0 3-3 3-1 1-0 1-1"),
    ],
    [],
)

# 2 players play the 10-tile tranque line (seat 1 plays last), leaving the ends (6, 6) with all
# sixes placed and 14 tiles, none a six, in the boneyard. Seat 0 keeps 0-0 1-1, seat 1 2-0 2-1.
DRAWN_OUT = complete_deal(TWO, ["6-6 5-4 6-3 6-2 1-0", "6-5 6-4 3-2 6-1 6-0"], avoid={6})


def play_to_block(rnd: Round) -> None:
    run(rnd, TRANQUE_LINE.rsplit(" ", 1)[0])


class TestTranqueDeclared:
    def test_C1_tranque_declared_right_after_the_blocking_play(self) -> None:
        rnd = Round.deal(PAIRS, *TRANQUE_WON, first=True)
        play_to_block(rnd)
        assert not rnd.is_over
        assert rnd.turn == 1
        run(rnd, "6-0L")
        assert rnd.is_over
        assert rnd.result is not None
        assert (rnd.result.kind, rnd.result.closer) == (RoundEnd.TRANQUE, 1)
        assert rnd.legal_actions() == []
        assert all(rnd.view(seat).legal_actions == () for seat in range(4))

    def test_C1_no_pass_events_for_a_tranque(self) -> None:
        rnd = played_round(PAIRS, TRANQUE_WON, TRANQUE_LINE)
        assert [type(event) for event in rnd.full_events] == [PlayEvent] * 10
        before = snapshot(rnd)
        with pytest.raises(IllegalAction, match="terminó"):
            rnd.apply(Pass())
        assert snapshot(rnd) == before

    def test_C1_game_scores_the_tranque_without_passes(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON])
        run(game, TRANQUE_LINE)
        assert [type(action) for _, _, action in game.actions] == [Play] * 10
        assert game.scores == [90, 0]

    @pytest.mark.parametrize(("rules", "points"), [(PAIRS, (6, 0)), (FOUR, (6, 0, 0, 0))])
    def test_C1_last_tile_that_blocks_is_a_domino(self, rules: Rules, points: tuple[int, ...]) -> None:
        rnd = played_round(rules, BLOCKING_DOMINO, BLOCKING_DOMINO_LINE)
        assert rnd.ends == (6, 6)
        assert not any(6 in (t.high, t.low) for hand in rnd.hands for t in hand)
        result = result_of(rnd)
        assert (result.kind, result.winner, result.winner_seat, result.closer) == (RoundEnd.DOMINO, 0, 0, 0)
        assert result.points == points
        assert result.seat_counts == (0, 0, 4, 2)

    def test_C1_tranque_after_the_draw_that_empties_the_boneyard(self) -> None:
        rnd = played_round(TWO, DRAWN_OUT, TRANQUE_LINE)
        assert not rnd.is_over
        assert (rnd.turn, rnd.boneyard_count) == (0, 14)
        run(rnd, "draw*13")
        assert not rnd.is_over
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert rnd.is_over
        assert rnd.boneyard_count == 0
        assert not [e for e in rnd.full_events if isinstance(e, PassEvent)]
        result = result_of(rnd)
        assert (result.kind, result.closer) == (RoundEnd.TRANQUE, 1)
        assert result.counts == (2 + 83, 5)
        assert (result.winner, result.points) == (1, (0, 85))
        with pytest.raises(IllegalAction):
            rnd.apply(Pass())

    def test_C1_emptying_draw_is_no_tranque_while_someone_can_play(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6 draw*14")
        assert not rnd.is_over
        assert rnd.legal_actions() == [Pass()]


class TestDrawOne:
    def test_C2_draw_takes_exactly_one_tile_and_keeps_the_turn(self) -> None:
        rnd = played_round(TWO, DRAW_THEN_PLAY, "6-6")
        hand = set(rnd.hands[1])
        assert rnd.apply(Draw()).action == Draw()
        assert rnd.turn == 1
        assert set(rnd.hands[1]) == hand | {DRAW_THEN_PLAY.boneyard[0]}
        assert DRAW_THEN_PLAY.boneyard[0] == Tile(2, 1)
        assert rnd.boneyard == DRAW_THEN_PLAY.boneyard[1:]
        assert rnd.view(1).events[-1] == DrawEvent(1, Tile(2, 1))

    def test_C2_boneyard_is_drawn_from_index_zero(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6")
        for drawn in range(14):
            assert rnd.boneyard == ALL_SIXES.boneyard[drawn:]
            run(rnd, "draw")
            assert rnd.turn == 1
        draws = [e.tile for e in rnd.view(1).events if isinstance(e, DrawEvent)]
        assert draws == ALL_SIXES.boneyard

    def test_C2_drawn_tile_that_fits_must_be_played(self) -> None:
        rnd = played_round(TWO, DRAW_THEN_PLAY, "6-6 draw")
        assert rnd.legal_actions() == [Draw()]
        run(rnd, "draw")
        assert rnd.legal_actions() == [Play(Tile(6, 3), L)]
        assert rnd.turn == 1

    def test_C2_pass_once_the_boneyard_is_empty(self) -> None:
        rnd = played_round(TWO, ALL_SIXES, "6-6 draw*14")
        assert rnd.legal_actions() == [Pass()]
        run(rnd, "pass")
        assert rnd.turn == 0

    def test_C2_game_draw_keeps_the_turn(self) -> None:
        game = Game(TWO, deals=[DRAW_THEN_PLAY])
        run(game, "6-6 draw")
        assert game.round.turn == 1
        assert game.actions == [(0, 0, Play(Tile(6, 6), None)), (0, 1, Draw())]


def replaced(deal: Deal, old: str, new: str) -> tuple[list[list[str]], list[str]]:
    """The deal as strings, with tile `old` written as `new` wherever it is."""

    def swap(items: list[Tile]) -> list[str]:
        return [new if str(tile) == old else str(tile) for tile in items]

    return [swap(hand) for hand in deal.hands], swap(deal.boneyard)


class TestExplicitDeal:
    def test_C9_whole_deal_is_accepted_as_tiles_or_text(self) -> None:
        hands = [[str(tile) for tile in hand] for hand in DRAW_THEN_PLAY.hands]
        boneyard = [str(tile) for tile in DRAW_THEN_PLAY.boneyard]
        rnd = Round.deal(TWO, hands, boneyard, first=True)
        assert [set(hand) for hand in rnd.hands] == [set(hand) for hand in DRAW_THEN_PLAY.hands]
        assert rnd.boneyard == DRAW_THEN_PLAY.boneyard
        assert Round.deal(TWO, *DRAW_THEN_PLAY, starter=1).starter == 1

    @pytest.mark.parametrize("outside", ["7-7", "9-9", "7-0"])
    def test_C9_tile_outside_the_set(self, outside: str) -> None:
        hands, boneyard = replaced(TRANQUE_WON, "2-1", outside)
        with pytest.raises(DealError, match=outside):
            Round.deal(PAIRS, hands, boneyard, first=True)

    def test_C9_tile_outside_the_set_in_the_boneyard(self) -> None:
        hands, boneyard = replaced(DRAW_THEN_PLAY, "6-3", "8-3")
        with pytest.raises(DealError, match="8-3"):
            Round.deal(TWO, hands, boneyard, first=True)

    @pytest.mark.parametrize("text", ["6-x", "66", "10-1"])
    def test_C9_text_that_is_no_tile(self, text: str) -> None:
        hands, boneyard = replaced(TRANQUE_WON, "2-1", text)
        with pytest.raises(DealError):
            Round.deal(PAIRS, hands, boneyard, first=True)

    def test_C9_tile_twice_in_hands(self) -> None:
        hands, boneyard = replaced(TRANQUE_WON, "6-5", "6-6")
        with pytest.raises(DealError, match="6-6"):
            Round.deal(PAIRS, hands, boneyard, first=True)

    def test_C9_tile_twice_in_hand_and_boneyard(self) -> None:
        hands, boneyard = replaced(DRAW_THEN_PLAY, "6-3", "6-6")
        with pytest.raises(DealError, match="6-6"):
            Round.deal(TWO, hands, boneyard, first=True)

    def test_C9_missing_tile(self) -> None:
        with pytest.raises(DealError, match="6-3"):
            Round.deal(
                TWO, DRAW_THEN_PLAY.hands, [t for t in DRAW_THEN_PLAY.boneyard if t != Tile(6, 3)], first=True
            )
        with pytest.raises(DealError):
            Round.deal(TWO, DRAW_THEN_PLAY.hands, [], first=True)

    def test_C9_hand_too_short(self) -> None:
        hands = [list(hand) for hand in DRAW_THEN_PLAY.hands]
        moved = hands[0].pop()
        with pytest.raises(DealError):
            Round.deal(TWO, hands, [moved, *DRAW_THEN_PLAY.boneyard], first=True)

    def test_C9_hand_too_long(self) -> None:
        hands = [list(hand) for hand in DRAW_THEN_PLAY.hands]
        hands[1].append(DRAW_THEN_PLAY.boneyard[0])
        with pytest.raises(DealError):
            Round.deal(TWO, hands, DRAW_THEN_PLAY.boneyard[1:], first=True)

    def test_C9_wrong_number_of_hands(self) -> None:
        hands = TRANQUE_WON.hands
        with pytest.raises(DealError):
            Round.deal(PAIRS, hands[:3], hands[3], first=True)

    def test_C9_first_and_starter_together(self) -> None:
        with pytest.raises(DealError):
            Round.deal(PAIRS, *TRANQUE_WON, first=True, starter=0)

    def test_C9_neither_first_nor_starter(self) -> None:
        with pytest.raises(DealError):
            Round.deal(PAIRS, *TRANQUE_WON)

    @pytest.mark.parametrize("starter", [-1, 4])
    def test_C9_starter_outside_the_table(self, starter: int) -> None:
        with pytest.raises(DealError):
            Round.deal(PAIRS, *TRANQUE_WON, starter=starter)

    def test_C9_game_refuses_a_bad_deal(self) -> None:
        hands, boneyard = replaced(TRANQUE_WON, "6-5", "6-6")
        with pytest.raises(DealError):
            Game(PAIRS, deals=[TRANQUE_WON, (hands, boneyard)])

    def test_C9_deal_error_is_a_value_error(self) -> None:
        assert issubclass(DealError, ValueError)


class TestTimeoutLead:
    def test_C10_forced_first_lead_highest_double(self) -> None:
        rnd = Round.deal(PAIRS, *TRANQUE_WON.rotated(1), first=True)
        assert rnd.turn == 1
        assert rnd.timeout_action() == Play(Tile(6, 6), None)

    def test_C10_forced_first_lead_highest_double_dealt(self) -> None:
        deal = complete_deal(TWO, ["6-5 6-4 6-3", "3-3"], boneyard="6-6 5-5 4-4")
        rnd = Round.deal(TWO, *deal, first=True)
        assert rnd.timeout_action() == Play(Tile(3, 3), None)

    def test_C10_forced_first_lead_without_doubles(self) -> None:
        hands = ["5-4 1-0 2-0 3-0 4-0 5-0 6-0", "6-3 2-1 3-1 4-1 5-1 4-2 6-1"]
        deal = complete_deal(TWO, hands, boneyard="6-6 5-5 4-4 3-3 2-2 1-1 0-0 6-5 6-4")
        rnd = Round.deal(TWO, *deal, first=True)
        assert (rnd.turn, rnd.timeout_action()) == (1, Play(Tile(6, 3), None))

    def test_C10_later_lead_most_pips(self) -> None:
        # Seat 2 holds 5-4 (9) and 6-2 (8); seat 3 holds 6-4 (10), 4-4 (8) and 5-3 (8).
        rnd = Round.deal(PAIRS, *TRANQUE_WON, starter=2)
        assert rnd.timeout_action() == Play(Tile(5, 4), None)
        rnd = Round.deal(PAIRS, *TRANQUE_WON, starter=3)
        assert rnd.timeout_action() == Play(Tile(6, 4), None)

    def test_C10_later_lead_equal_pips_higher_high_half(self) -> None:
        deal = complete_deal(FOUR, [None, "5-4 1-0 2-0 6-3 0-0 1-1 2-1"])
        rnd = Round.deal(FOUR, *deal, starter=1)
        assert rnd.timeout_action() == Play(Tile(6, 3), None)

    def test_C10_later_round_of_a_game(self) -> None:
        game = Game(PAIRS, deals=[TRANQUE_WON, TRANQUE_WON])
        run(game, TRANQUE_LINE)
        game.start_next_round()
        assert game.round.turn == 1
        assert Tile(6, 6) not in game.round.hands[1]
        action = game.round.timeout_action()
        assert action == Play(Tile(6, 5), None)
        assert action in game.round.legal_actions()
