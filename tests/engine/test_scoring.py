"""Scoring: one `Scorer` per scoring kind, the immutable `RoundResult` and its record form
(C5), and ponce's end of game (V6, C6): the game ends the moment a team reaches the target,
and nothing is added after that moment.

The deals and scripts come from test_presets.py, where they are described.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.engine.deals import Deal, run
from tests.engine.test_presets import (
    ALL_SIXES_FIRST,
    FUTBOL_DOMINO,
    KEPT_11_SECOND_LOWEST,
    KEPT_LOWEST_FIRST,
    KEPT_SECOND_FOURTH_TIED,
    TRANQUE_10,
    TRANQUE_11,
    make_deal,
    scripted_deal,
    scripted_result,
)
from tests.engine.test_presets_clarified import PONCE_PASS_AND_TRANQUE
from tranque import Game, IllegalAction, Pass, Rules
from tranque.engine import RoundResult, Scoring
from tranque.engine.scoring import SCORERS, scorer_of

PONCE = Rules.preset("ponce")


# One scorer per kind ----------------------------------------------------------------------


def test_R12_V4_V6_V7_V8_every_scoring_kind_has_one_shared_scorer() -> None:
    assert set(SCORERS) == set(Scoring)
    for name in Rules.presets():
        rules = Rules.preset(name)
        assert scorer_of(rules) is SCORERS[rules.scoring]
        assert scorer_of(rules).kind is rules.scoring


# The result and its record form (C5) ------------------------------------------------------


def ponce_tranque() -> RoundResult:
    game = Game(PONCE, deals=[make_deal(PONCE, PONCE_PASS_AND_TRANQUE)])
    run(game, "6-6 6-2L 6-1R 2-0L 4-1R 6-4R 6-0L pass 6-3L 5-3L 6-5L")
    return game.results[0]


def futbol_goal() -> RoundResult:
    return scripted_result(Rules.preset("futbol"), FUTBOL_DOMINO, ["", "4-0"], first=True)


def en_contra_draw() -> RoundResult:
    return scripted_result(Rules.preset("en-contra"), TRANQUE_10, KEPT_SECOND_FOURTH_TIED, 3)


def clasico_tranque() -> RoundResult:
    return scripted_result(Rules.preset("clasico"), TRANQUE_10, KEPT_LOWEST_FIRST, first=True)


# What these results were in records written before results became tuples: records compare
# them as they are, so the form must not change.
RECORDED = [
    (
        ponce_tranque,
        '{"kind": "tranque", "winner": 1, "winner_seat": 3, "closer": 0, "points": {"0": 4, "1": 9}, '
        '"counts": {"0": 45, "1": 45}, "seat_counts": {"0": 20, "1": 27, "2": 25, "3": 18}, '
        '"tie": false, "capicua": false, "goals": {}, "pass_points": {"0": 2, "1": 0}, '
        '"blocker_points": {"0": 2}}',
    ),
    (
        futbol_goal,
        '{"kind": "domino", "winner": 0, "winner_seat": 0, "closer": 0, "points": {"0": 0, "1": 0}, '
        '"counts": {"0": 0, "1": 4}, "seat_counts": {"0": 0, "1": 4}, "tie": false, '
        '"capicua": false, "goals": {"1": 1}, "pass_points": {}, "blocker_points": {}}',
    ),
    (
        en_contra_draw,
        '{"kind": "tranque", "winner": null, "winner_seat": null, "closer": 0, '
        '"points": {"0": 19, "1": 27, "2": 19, "3": 25}, "counts": {"0": 19, "1": 27, "2": 19, "3": 25}, '
        '"seat_counts": {"0": 19, "1": 27, "2": 19, "3": 25}, "tie": true, "capicua": false, '
        '"goals": {}, "pass_points": {}, "blocker_points": {}}',
    ),
    (
        clasico_tranque,
        '{"kind": "tranque", "winner": 0, "winner_seat": 0, "closer": 1, "points": {"0": 90, "1": 0}, '
        '"counts": {"0": 27, "1": 63}, "seat_counts": {"0": 13, "1": 30, "2": 14, "3": 33}, '
        '"tie": false, "capicua": false, "goals": {}, "pass_points": {}, "blocker_points": {}}',
    ),
]


class TestC5RoundResult:
    def test_C5_every_part_is_a_tuple_per_side_with_zeros_where_nothing(self) -> None:
        result = ponce_tranque()
        assert (result.points, result.counts, result.seat_counts) == ((4, 9), (45, 45), (20, 27, 25, 18))
        assert (result.goals, result.pass_points, result.blocker_points) == ((0, 0), (2, 0), (2, 0))
        goal = futbol_goal()
        assert (goal.goals, goal.pass_points, goal.blocker_points) == ((0, 1), (0, 0), (0, 0))

    def test_C5_a_result_cannot_be_changed(self) -> None:
        result = clasico_tranque()
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.points = (0, 0)  # type: ignore[misc]
        with pytest.raises(TypeError):
            result.points[0] = 0  # type: ignore[index]
        assert hash(result) == hash(clasico_tranque())

    @pytest.mark.parametrize(("build", "recorded"), RECORDED)
    def test_C5_record_form_is_unchanged(self, build: object, recorded: str) -> None:
        assert callable(build)
        result = build()
        assert json.dumps(result.to_json()) == recorded
        assert RoundResult.from_json(json.loads(recorded)) == result


# Ponce's end of game (V6, C6) --------------------------------------------------------------

# TRANQUE_11 from seat 2 is blocked by seat 0 (team 0). Kept tiles by the seat 0, 1, 2 and 3
# places after the starter, with their pips: the fewest are seat 3's (team 1) ...
PIPS_TO_THE_OTHERS = KEPT_11_SECOND_LOWEST  # 27, 18, 21, 24
# ... or seat 2's (team 0, the blocker's): the same tiles, handed round.
PIPS_TO_THE_BLOCKERS = [
    "0-0 4-1 4-2 5-2",  # 18
    "3-0 4-3 5-3 5-4",  # 27
    "2-1 3-1 4-4 5-1",  # 21
    "1-1 2-0 2-2 3-3 5-5",  # 24
]


def ponce_at_18_to_4(third: Deal) -> Game:
    """A ponce game whose first two rounds (test_presets_clarified's C6 game) leave team 0 at
    18 and team 1 at 4, with `third` dealt for the third round, which seat 2 starts."""
    deals = [
        scripted_deal(PONCE, TRANQUE_10, KEPT_LOWEST_FIRST),  # team 0 +9, team 1 blocks
        scripted_deal(PONCE, TRANQUE_11, KEPT_11_SECOND_LOWEST, starter=1),  # the same
        third,
    ]
    game = Game(PONCE, deals=deals)
    run(game, TRANQUE_10)
    game.start_next_round()
    run(game, TRANQUE_11)
    assert game.scores == [18, 4]
    assert game.start_next_round().starter == 2
    return game


class TestC6PonceEndOfGame:
    @pytest.mark.parametrize(
        ("kept", "worth"), [(PIPS_TO_THE_OTHERS, (2, 9)), (PIPS_TO_THE_BLOCKERS, (2 + 9, 0))]
    )
    def test_C6_ponce_blocker_points_reaching_target_end_the_game_before_pips(
        self, kept: list[str], worth: tuple[int, int]
    ) -> None:
        game = ponce_at_18_to_4(scripted_deal(PONCE, TRANQUE_11, kept, starter=2))
        run(game, TRANQUE_11)
        result = game.results[-1]
        assert (result.closer, result.blocker_points, result.pass_points) == (0, (2, 0), (0, 0))
        # 18 + the blocker's 2 = 20: the game is over, and the round's 9 palitos of pips are
        # not added to anyone, not even to the winners.
        assert (game.scores, game.winners, game.is_over) == ([20, 4], [0], True)
        # The round still records all it was worth.
        assert (len(game.results), result.points) == (3, worth)
        with pytest.raises(IllegalAction):
            game.start_next_round()

    def test_C6_ponce_pips_count_after_blocker_points_that_do_not_reach_the_target(self) -> None:
        # TRANQUE_10 from seat 2 is blocked by seat 3 (team 1, 4 + 2); seat 2 keeps the fewest
        # pips, so team 0 takes the 90 pips: 18 + 9.
        game = ponce_at_18_to_4(scripted_deal(PONCE, TRANQUE_10, KEPT_LOWEST_FIRST, starter=2))
        run(game, TRANQUE_10)
        assert (game.results[-1].points, game.results[-1].blocker_points) == ((9, 2), (0, 2))
        assert (game.scores, game.winners) == ([27, 6], [0])

    def test_C6_ponce_pass_points_reaching_target_end_the_game_at_once(self) -> None:
        # Seat 2 leads 6-6 and seat 3 (no six) passes: the game's first scoring pass, 2 to
        # team 0, which reaches 20 with the round barely begun.
        game = ponce_at_18_to_4(make_deal(PONCE, ALL_SIXES_FIRST[2:] + ALL_SIXES_FIRST[:2]))
        run(game, "6-6 pass")
        assert (game.scores, game.winners, game.is_over) == ([20, 4], [0], True)
        assert (game.round.is_over, game.round.result, game.round.pass_points) == (False, None, (2, 0))
        assert len(game.results) == 2  # the unfinished round has no result
        with pytest.raises(IllegalAction):
            game.apply(Pass())
        assert game.scores == [20, 4]
