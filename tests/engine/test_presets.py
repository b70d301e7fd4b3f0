"""The presets of docs/rules.md §2 (V1–V9), each pinned by explicit deals and exact outcomes.

Most 4-player rounds below reuse one of a few scripts whose tiles are dealt to the seat
that plays them (`scripted_deal`); only the tiles left in hand change between tests, and
they decide who wins. The scripts and hands are reused by test_presets_clarified.py.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.engine.deals import Deal, played_round, result_of, run, tiles
from tranque import Draw, Game, IllegalAction, Pass, Play, Round, Rules, RulesError, Tile
from tranque.engine import DealError, DrawEvent, Drawing, Mode, RoundEnd, RoundResult, Scoring
from tranque.engine.scoring import palitos


def make_deal(rules: Rules, hands: Sequence[str], undealt: str = "") -> Deal:
    """Each seat's hand as written; the undealt tiles are `undealt` (drawn first) followed by
    every tile not named anywhere, in set order."""
    dealt = [tiles(hand) for hand in hands]
    first = tiles(undealt)
    named = {tile for hand in dealt for tile in hand} | set(first)
    return Deal(dealt, first + [tile for tile in Tile.full_set(rules.set_max) if tile not in named])


def scripted_deal(rules: Rules, script: str, kept: Sequence[str], starter: int = 0) -> Deal:
    """The deal for a script of plays only (no pass, no draw) starting at `starter`: every
    seat holds the tiles it plays in turn, plus `kept[k]` for the seat k places after the
    starter. Tiles nobody holds are undealt."""
    players = rules.players
    played: list[list[str]] = [[] for _ in range(players)]
    for step, token in enumerate(script.split()):
        played[step % players].append(token.rstrip("LR"))
    hands = [
        " ".join([*played[(seat - starter) % players], kept[(seat - starter) % players]])
        for seat in range(players)
    ]
    return make_deal(rules, hands)


def scripted_round(
    rules: Rules, script: str, kept: Sequence[str], starter: int = 0, *, first: bool = False
) -> Round:
    """`script` played on its `scripted_deal`, as the game's first round (R6 finds the
    starter) or, without `first`, led by `starter`."""
    deal = scripted_deal(rules, script, kept, starter)
    return played_round(rules, deal, script, starter=None if first else starter)


def scripted_result(
    rules: Rules, script: str, kept: Sequence[str], starter: int = 0, *, first: bool = False
) -> RoundResult:
    """The result of `scripted_round`, which the script must end."""
    return result_of(scripted_round(rules, script, kept, starter, first=first))


# A 4-player tranque in 10 plays, no passes: every 6 ends on the table with both ends 6.
# The blocker is the seat after the starter. 18 tiles (90 pips) stay in hand: 4, 4, 5, 5
# for the starter and the three seats after them.
TRANQUE_10 = "6-6 6-0 1-0 6-1L 6-2 3-2 6-3L 6-4 5-4 6-5L"
# The same in 11 plays: the blocker is the starter's partner. 17 tiles (90 pips) stay:
# 4, 4, 4, 5.
TRANQUE_11 = "6-6 6-0 1-0 6-1L 6-2 3-2 6-3L 6-4 4-0 5-0 6-5L"

# Tiles kept after TRANQUE_10 by the starter and the three seats after them; the comment
# gives each one's pips and each team's (starter's team first).
# 13, 30, 14, 33; teams 27 and 63.
KEPT_LOWEST_FIRST = ["1-1 2-1 2-2 3-1", "4-3 4-4 5-0 5-5", "0-0 2-0 3-0 4-0 4-1", "3-3 4-2 5-1 5-2 5-3"]
# 14, 13, 31, 32; teams 45 and 45.
KEPT_TEAMS_TIED = ["0-0 2-1 3-3 4-1", "2-0 3-0 3-1 4-0", "1-1 4-2 4-3 4-4 5-3", "2-2 5-0 5-1 5-2 5-5"]
# 25, 19, 27, 19; teams 52 and 38.
KEPT_SECOND_FOURTH_TIED = ["3-1 4-2 4-3 4-4", "0-0 1-1 5-2 5-5", "3-0 3-3 4-0 5-1 5-3", "2-0 2-1 2-2 4-1 5-0"]
# 18, 18, 29, 25; teams 47 and 43.
KEPT_FIRST_SECOND_TIED = ["2-0 3-0 4-2 5-2", "1-1 2-2 4-0 5-3", "2-1 4-3 4-4 5-0 5-1", "0-0 3-1 3-3 4-1 5-5"]
# 18, 17, 25, 30; teams 43 and 47.
KEPT_SECOND_LOWEST = ["2-0 3-0 4-1 4-4", "2-1 3-1 4-0 4-2", "0-0 2-2 3-3 5-0 5-5", "1-1 4-3 5-1 5-2 5-3"]
# 22, 18, 18, 32; teams 40 and 50.
KEPT_SECOND_THIRD_TIED = ["3-1 3-3 4-1 5-2", "0-0 1-1 5-1 5-5", "2-0 2-1 2-2 3-0 4-2", "4-0 4-3 4-4 5-0 5-3"]

# Tiles kept after TRANQUE_11: 27, 18, 21, 24.
KEPT_11_SECOND_LOWEST = ["3-0 4-3 5-3 5-4", "0-0 4-1 4-2 5-2", "2-1 3-1 4-4 5-1", "1-1 2-0 2-2 3-3 5-5"]

# 4-player dominós in 25 plays, no passes: the starter leads 6-6 and plays their 7th tile
# last; each other seat keeps one tile.
DOMINO_21 = (
    "6-6 6-0 6-3 3-0R 2-0 2-2 5-2 5-3 3-1 0-0 1-1 1-0L 5-0 4-0 4-3 5-5 6-5 3-2 6-2L 2-1 4-1 5-4 4-2 6-4 5-1"
)
KEPT_DOMINO_21 = ["", "3-3", "4-4", "6-1"]  # 6 + 8 + 7
# The last tile, 6-4, fits both ends (4 and 6): capicúa.
DOMINO_CAPICUA = (
    "6-6 6-0 4-0 4-1 6-1L 6-2 6-5 2-1 5-2 1-1 2-2 5-1 3-2 5-5 5-3R 5-0 3-0 3-1 5-4 1-0 4-3 2-0 6-3 4-2 6-4L"
)
KEPT_DOMINO_CAPICUA = ["", "0-0", "3-3", "4-4"]  # 14
# The last tile, 4-3, goes on ends 4 and 4: it fits both, but they show the same number.
DOMINO_EQUAL_ENDS = (
    "6-6 6-0 4-0 4-1 6-1L 6-2 6-5 2-1 5-2 1-1 2-2 5-1 3-2 5-5 5-3R 5-0 3-0 3-1 5-4 4-4 1-0 0-0 2-0 4-2L 4-3"
)
KEPT_DOMINO_EQUAL_ENDS = ["", "3-3", "6-3", "6-4"]  # 25
# Dominós that leave 15, 16, 25 and 26 pips in the other hands (V6's rounding).
DOMINOES_BY_PIPS_LEFT = {
    15: (
        "6-6 6-5 6-1 5-1R 5-3 3-0 5-5 2-0 5-2R 6-2 2-1 6-3 "
        "3-1L 1-1 1-0 4-1 4-0L 6-4 4-2 3-2 4-3 6-0 0-0 4-4 5-4",
        ["", "2-2", "3-3", "5-0"],
    ),
    16: (
        "6-6 6-0 6-5 5-0R 3-0 3-1 5-1 4-0 5-4L 4-3 4-1 6-1 "
        "6-3L 6-4 6-2 2-2 3-2 5-3 5-5 4-4 4-2 2-0 0-0 1-0 1-1",
        ["", "2-1", "3-3", "5-2"],
    ),
    25: (
        "6-6 6-4 4-1 1-1 6-0 2-0 2-1R 5-1 5-0 1-0L 6-1 6-2 "
        "3-2 3-0 0-0 3-1 3-3 4-0 6-3 5-4 6-5R 5-2 5-3 2-2 4-2",
        ["", "4-3", "4-4", "5-5"],
    ),
    26: (
        "6-6 6-2 4-2 6-3 4-3L 5-3 5-2 2-2 3-1 6-1 2-1 6-4 "
        "1-1 5-1 4-4 5-5 4-1 1-0 5-0L 4-0 0-0 3-0 3-3 3-2 2-0",
        ["", "5-4", "6-0", "6-5"],
    ),
}

# Futbol (2 players, 12 tiles, 4 out of play). A tranque in 4 plays: 6-6, 6-5, 6-4 on the
# table and 6-3, 6-2, 6-1, 6-0 out of play, so nobody holds a 6. Each keeps 10 tiles.
FUTBOL_TRANQUE = "6-6 6-5 5-4 6-4L"
# 40 and 56.
FUTBOL_KEPT_FIRST_LOWER = [
    "0-0 1-0 1-1 2-0 2-1 3-2 3-3 4-1 4-2 5-5",
    "2-2 3-0 3-1 4-0 4-3 4-4 5-0 5-1 5-2 5-3",
]
FUTBOL_KEPT_SECOND_LOWER = FUTBOL_KEPT_FIRST_LOWER[::-1]
# 48 and 48.
FUTBOL_KEPT_TIED = ["1-0 2-1 2-2 3-0 4-0 4-3 4-4 5-0 5-1 5-2", "0-0 1-1 2-0 3-1 3-2 3-3 4-1 4-2 5-3 5-5"]
# A dominó in 23 plays: the starter plays all 12 tiles; the other keeps one of 5-4, 5-5, 6-5,
# 4-0, 1-0 and the rest are out of play.
FUTBOL_DOMINO = (
    "6-6 6-0 0-0 2-0 2-1 1-1 3-1 3-0 5-0 5-1 4-1 4-2 2-2 3-2 3-3 4-3 4-4 6-4L 6-2 5-2 5-3 6-3L 6-1"
)


def refused(parameter: str, name: str, **overrides: object) -> RulesError:
    """Asserts that the preset with these overrides is refused, naming `parameter`."""
    with pytest.raises(RulesError) as error:
        Rules.preset(name, **overrides)
    assert error.value.parameter == parameter
    return error.value


# V1 -------------------------------------------------------------------------------------


class TestV1SinPozo:
    def test_V1_seatings_and_targets(self) -> None:
        one_on_one = Rules.preset("sin-pozo", players=2)
        assert (one_on_one.mode, one_on_one.target, one_on_one.drawing) == (Mode.INDIVIDUAL, 50, Drawing.NONE)
        assert one_on_one.boneyard_size == 14
        pairs = Rules.preset("sin-pozo")
        assert (pairs.players, pairs.mode, pairs.target) == (4, Mode.PAIRS, 100)
        assert Rules.preset("sin-pozo", mode="individual").target == 100
        for players in (3, 5, 6):
            refused("players", "sin-pozo", players=players)

    def test_V1_one_on_one_never_draws_and_plays_to_50(self) -> None:
        rules = Rules.preset("sin-pozo", players=2)
        first = make_deal(rules, ["6-6 6-5 5-5 5-4 4-4 6-4 6-0", "2-0 2-1 2-2 3-0 3-1 3-2 3-3"])
        second = make_deal(rules, ["6-5 5-5 5-4 4-4 6-4 6-0 6-1", "6-6 1-1 2-1 2-2 3-1 3-2 3-3"])
        game = Game(rules, deals=[first, second])
        assert (game.round.starter, game.round.boneyard_count, len(game.round.dealt_boneyard)) == (0, 0, 14)
        run(game, "6-6")
        assert game.round.legal_actions() == [Pass()]
        assert game.view(1).legal_actions == (Pass(),)
        with pytest.raises(IllegalAction):
            game.apply(Draw())
        run(game, "pass 6-5 pass 5-5 pass 5-4 pass 4-4 pass 6-4L pass 6-0")
        result = game.results[0]
        assert (result.kind, result.winner, result.points) == (RoundEnd.DOMINO, 0, (27, 0))
        assert not any(isinstance(event, DrawEvent) for event in game.round.events)
        assert (game.scores, game.winners) == ([27, 0], [])

        assert game.start_next_round().starter == 1
        run(game, "6-6 6-5 pass 5-5 pass 5-4 pass 4-4 pass 6-4L pass 6-0 pass 6-1")
        assert game.results[1].points == (24, 0)
        assert (game.scores, game.winners) == ([51, 0], [0])

    def test_V1_one_on_one_highest_double_dealt_leads(self) -> None:
        rules = Rules.preset("sin-pozo", players=2)
        deal = make_deal(rules, ["3-3 6-5 6-4 6-3 6-2 6-1 6-0", "4-4 2-2 1-1 0-0 5-4 5-3 5-2"])
        rnd = Round.deal(rules, *deal, first=True)
        assert (rnd.starter, rnd.legal_actions()) == (1, [Play(Tile(4, 4))])

    def test_V1_one_on_one_without_doubles_highest_tile_leads(self) -> None:
        rules = Rules.preset("sin-pozo", players=2)
        deal = make_deal(rules, ["5-4 4-3 3-2 2-1 1-0 4-2 3-1", "6-3 5-3 5-2 4-1 4-0 3-0 2-0"])
        rnd = Round.deal(rules, *deal, first=True)
        assert (rnd.starter, rnd.legal_actions()) == (1, [Play(Tile(6, 3))])

    @pytest.mark.parametrize("mode", ["individual", "pairs"])
    def test_V1_four_players_six_six_leads(self, mode: str) -> None:
        rules = Rules.preset("sin-pozo", mode=mode)
        hands = [
            "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
            "3-1 3-2 3-3 4-0 4-1 4-2 4-3",
            "6-6 4-4 5-0 5-1 5-2 5-3 5-4",
            "5-5 6-0 6-1 6-2 6-3 6-4 6-5",
        ]
        rnd = Round.deal(rules, *make_deal(rules, hands), first=True)
        assert (rnd.starter, rnd.legal_actions(), rnd.boneyard_count) == (2, [Play(Tile(6, 6))], 0)

    def test_V1_tranque_tie_nobody_scores(self) -> None:
        rules = Rules.preset("sin-pozo", players=2)
        # Every other tile with a 6 or a 5 is out of play: the lead blocks at once, 25 to 25.
        deal = make_deal(rules, ["6-5 0-0 4-3 4-2 3-3 3-2 1-0", "1-1 2-1 2-2 3-0 3-1 4-0 4-1"])
        result = result_of(played_round(rules, deal, "6-5", starter=0))
        assert (result.kind, result.tie, result.winner) == (RoundEnd.TRANQUE, True, None)
        assert (result.counts, result.points) == ((25, 25), (0, 0))


# V2 -------------------------------------------------------------------------------------


class TestV2Salon:
    def test_V2_seatings_and_targets(self) -> None:
        assert Rules.preset("salon").target == 100
        assert Rules.preset("salon", target=50).target == 50
        assert Rules.preset("salon", target=300).target == 300
        for players in (2, 3):
            assert Rules.preset("salon", players=players).mode is Mode.INDIVIDUAL
        assert Rules.preset("salon").mode is Mode.PAIRS
        refused("players", "salon", players=5)

    @pytest.mark.parametrize(("starter", "winner"), [(0, 1), (2, 3)])
    def test_V2_individual_tranque_tie_goes_to_the_nearest_after_the_starter(
        self, starter: int, winner: int
    ) -> None:
        # The first and third seats after the starter tie at 19; the first comes first.
        rules = Rules.preset("salon", mode="individual")
        result = scripted_result(rules, TRANQUE_10, KEPT_SECOND_FOURTH_TIED, starter)
        assert (result.winner, result.winner_seat, result.tie) == (winner, winner, False)
        assert result.points == tuple(71 if seat == winner else 0 for seat in range(4))  # 25 + 27 + 19

    def test_V2_individual_tranque_tie_with_the_starter_goes_to_the_starter(self) -> None:
        result = scripted_result(Rules.preset("salon", mode="individual"), TRANQUE_10, KEPT_FIRST_SECOND_TIED)
        assert result.seat_counts == (18, 18, 29, 25)
        assert (result.winner, result.points) == (0, (72, 0, 0, 0))

    @pytest.mark.parametrize("starter", [0, 1])
    def test_V2_pairs_tranque_tie_goes_to_the_starters_team(self, starter: int) -> None:
        result = scripted_result(Rules.preset("salon"), TRANQUE_10, KEPT_TEAMS_TIED, starter)
        assert (result.counts, result.winner, result.tie) == ((45, 45), starter, False)
        assert result.points == ((90, 0) if starter == 0 else (0, 90))

    @pytest.mark.parametrize(("mode", "points"), [("pairs", (21, 0)), ("individual", (21, 0, 0, 0))])
    def test_V2_domino_winner_scores_every_other_hand(self, mode: str, points: tuple[int, ...]) -> None:
        result = scripted_result(Rules.preset("salon", mode=mode), DOMINO_21, KEPT_DOMINO_21, first=True)
        assert result.points == points


# V3 -------------------------------------------------------------------------------------


class TestV3Internacional:
    def test_V3_pairs_of_four_only_to_200(self) -> None:
        rules = Rules.preset("internacional")
        assert (rules.players, rules.mode, rules.target) == (4, Mode.PAIRS, 200)
        assert Rules.preset("internacional", target=300).target == 300
        refused("mode", "internacional", mode="individual")
        for players in (2, 3, 5, 6):
            refused("players", "internacional", players=players)

    def test_V3_first_starter_is_given_and_leads_any_tile(self) -> None:
        rules = Rules.preset("internacional")
        deal = scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST)
        with pytest.raises(DealError):
            Round.deal(rules, *deal, first=True)
        game = Game(rules, deals=[deal], first_starter=2)
        assert (game.round.starter, game.round.turn) == (2, 2)
        assert game.round.legal_actions() == [
            Play(tile) for tile in sorted(deal[0][2], key=lambda t: t.index)
        ]

    def test_V3_first_starter_is_drawn_at_random(self) -> None:
        rules = Rules.preset("internacional")
        starters = [Game(rules, seed=seed).round.starter for seed in range(40)]
        assert set(starters) == {0, 1, 2, 3}
        assert starters == [Game(rules, seed=seed).round.starter for seed in range(40)]

    def test_V3_domino_scores_all_hands(self) -> None:
        result = scripted_result(Rules.preset("internacional"), DOMINO_21, KEPT_DOMINO_21)
        assert (result.winner, result.points) == (0, (21, 0))

    def test_V3_tranque_scores_all_hands_own_included(self) -> None:
        result = scripted_result(Rules.preset("internacional"), TRANQUE_10, KEPT_LOWEST_FIRST)
        assert result.counts == (27, 63)
        assert (result.winner, result.points) == (0, (90, 0))

    def test_V3_tranque_tie_nobody_scores_and_the_start_passes_right(self) -> None:
        rules = Rules.preset("internacional")
        deals = [scripted_deal(rules, TRANQUE_10, KEPT_TEAMS_TIED, starter) for starter in (0, 1)]
        game = Game(rules, deals=deals, first_starter=0)
        run(game, TRANQUE_10)
        result = game.results[0]
        assert (result.tie, result.winner, result.points) == (True, None, (0, 0))
        assert game.scores == [0, 0]
        assert game.next_starter() == 1
        assert game.start_next_round().starter == 1


# V4 -------------------------------------------------------------------------------------


class TestV4Latino:
    def test_V4_pairs_of_four_only_to_100(self) -> None:
        rules = Rules.preset("latino")
        assert (rules.players, rules.mode, rules.target, rules.scoring) == (
            4,
            Mode.PAIRS,
            100,
            Scoring.OPPONENTS_ONLY,
        )
        refused("mode", "latino", mode="individual")
        refused("players", "latino", players=6)

    def test_V4_six_six_leads_the_first_round(self) -> None:
        rules = Rules.preset("latino")
        game = Game(rules, deals=[scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST, starter=3)])
        assert (game.round.starter, game.round.legal_actions()) == (3, [Play(Tile(6, 6))])

    def test_V4_domino_scores_only_the_opponents(self) -> None:
        result = scripted_result(Rules.preset("latino"), DOMINO_21, KEPT_DOMINO_21, first=True)
        assert result.points == (13, 0)  # 3-3 and 6-1; the partner's 4-4 does not count

    def test_V4_tranque_scores_only_the_opponents(self) -> None:
        result = scripted_result(Rules.preset("latino"), TRANQUE_10, KEPT_LOWEST_FIRST, first=True)
        assert (result.winner, result.points) == (0, (63, 0))

    def test_V4_tranque_tie_nobody_scores_and_the_start_passes_right(self) -> None:
        rules = Rules.preset("latino")
        deals = [scripted_deal(rules, TRANQUE_10, KEPT_TEAMS_TIED, starter) for starter in (0, 1)]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        assert (game.results[0].tie, game.results[0].points, game.scores) == (True, (0, 0), [0, 0])
        assert game.next_starter() == 1
        assert game.start_next_round().starter == 1


# V5 -------------------------------------------------------------------------------------


class TestV5Maracucho:
    def test_V5_pairs_of_four_only_to_100_six_six_leads(self) -> None:
        rules = Rules.preset("maracucho")
        assert (rules.players, rules.mode, rules.target) == (4, Mode.PAIRS, 100)
        refused("mode", "maracucho", mode="individual")
        rnd = Round.deal(rules, *scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST, starter=1), first=True)
        assert (rnd.starter, rnd.legal_actions()) == (1, [Play(Tile(6, 6))])

    def test_V5_tranque_is_won_by_the_single_lowest_player(self) -> None:
        # Seat 1 has the fewest pips (17) although their team has more (47 to 43).
        result = scripted_result(Rules.preset("maracucho"), TRANQUE_10, KEPT_SECOND_LOWEST, first=True)
        assert (result.counts, result.seat_counts) == ((43, 47), (18, 17, 25, 30))
        assert (result.winner, result.winner_seat, result.tie) == (1, 1, False)
        assert result.points == (0, 90)

    @pytest.mark.parametrize(("starter", "winner_seat"), [(0, 1), (1, 2)])
    def test_V5_tied_players_go_to_the_nearest_after_the_starter(
        self, starter: int, winner_seat: int
    ) -> None:
        # The first and second seats after the starter tie at 18, from different teams.
        result = scripted_result(Rules.preset("maracucho"), TRANQUE_10, KEPT_SECOND_THIRD_TIED, starter)
        team = winner_seat % 2
        assert (result.winner_seat, result.winner, result.tie) == (winner_seat, team, False)
        assert result.points == ((90, 0) if team == 0 else (0, 90))

    def test_V5_domino_scores_all_hands(self) -> None:
        result = scripted_result(Rules.preset("maracucho"), DOMINO_21, KEPT_DOMINO_21, first=True)
        assert result.points == (21, 0)


# V6 -------------------------------------------------------------------------------------

# Ponce pass deals. The starter holds every 6; the others hold no 6, and seats 1 and 2 no 5.
ALL_SIXES_FIRST = [
    "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    "3-1 3-2 3-3 4-0 4-1 4-2 4-3",
    "4-4 5-0 5-1 5-2 5-3 5-4 5-5",
]
# Seat 0 leads 6-6, seat 1 answers 6-5 and seat 2 (no 5, no 6) must pass.
SECOND_ANSWERS_SIX_FIVE = [
    "6-6 0-0 1-0 1-1 2-0 2-1 2-2",
    "6-5 6-4 6-3 6-2 6-1 6-0 4-3",
    "3-0 3-1 3-2 3-3 4-0 4-1 4-2",
    "4-4 5-0 5-1 5-2 5-3 5-4 5-5",
]


def ponce_result(kept: Sequence[str], script: str = TRANQUE_10, starter: int = 0) -> RoundResult:
    return scripted_result(Rules.preset("ponce"), script, kept, starter)


class TestV6Ponce:
    def test_V6_pairs_of_four_only_to_20(self) -> None:
        rules = Rules.preset("ponce")
        assert (rules.players, rules.mode, rules.target, rules.pass_points) == (4, Mode.PAIRS, 20, True)
        refused("players", "ponce", players=6)
        refused("mode", "ponce", mode="individual")

    def test_V6_a_play_that_makes_three_others_pass_earns_two(self) -> None:
        rules = Rules.preset("ponce")
        rnd = Round.deal(rules, *make_deal(rules, ALL_SIXES_FIRST), starter=0)
        assert not rnd.pass_bonus_pending
        earned = []
        for token in ["6-6", "pass", "pass", "pass"]:
            run(rnd, token)
            earned.append(rnd.pass_points)
        # The opponents' passes score 1 each, the partner's is free.
        assert earned == [(0, 0), (1, 0), (1, 0), (2, 0)]

    def test_V6_the_first_scoring_pass_is_worth_two(self) -> None:
        rules = Rules.preset("ponce")
        rnd = Round.deal(rules, *make_deal(rules, ALL_SIXES_FIRST), first=True)
        assert rnd.pass_bonus_pending
        earned = []
        for token in ["6-6", "pass", "pass", "pass", "6-5", "pass", "pass"]:
            run(rnd, token)
            earned.append(rnd.pass_points)
        assert earned == [(0, 0), (2, 0), (2, 0), (3, 0), (3, 0), (4, 0), (4, 0)]
        assert not rnd.pass_bonus_pending
        assert rnd.view(1).round_pass_points == (4, 0)

    def test_V6_passes_score_for_the_team_of_the_last_player(self) -> None:
        rules = Rules.preset("ponce")
        rnd = Round.deal(rules, *make_deal(rules, SECOND_ANSWERS_SIX_FIVE), first=True)
        run(rnd, "6-6 6-5 pass")
        assert rnd.pass_points == (0, 2)
        run(rnd, "5-5 pass")  # seat 3 plays, seat 0 cannot follow
        assert rnd.pass_points == (0, 3)

    def test_V6_the_first_scoring_pass_of_the_game_may_come_in_a_later_round(self) -> None:
        rules = Rules.preset("ponce")
        deals = [
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST),
            make_deal(rules, ALL_SIXES_FIRST[-1:] + ALL_SIXES_FIRST[:-1]),
        ]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        assert game.scores == [9, 2]
        assert game.start_next_round().pass_bonus_pending
        run(game, "6-6 pass")  # seat 1 leads, seat 2 passes
        assert game.scores == [9, 4]
        run(game, "pass pass")
        assert game.scores == [9, 5]

    def test_V6_tranque_blocker_scores_two_whoever_wins(self) -> None:
        result = ponce_result(KEPT_LOWEST_FIRST)  # seat 1 blocks, seat 0 has the fewest pips
        assert (result.closer, result.winner_seat, result.winner) == (1, 0, 0)
        assert (result.blocker_points, result.pass_points) == ((0, 2), (0, 0))
        assert result.points == (9, 2)  # 90 pips in all four hands: 9 palitos

    def test_V6_tranque_blocker_who_also_wins(self) -> None:
        result = ponce_result(KEPT_SECOND_LOWEST)
        assert (result.winner_seat, result.points) == (1, (0, 11))

    def test_V6_tranque_is_individual(self) -> None:
        # Seat 1 has the fewest pips (17) although their team has more (47 to 43).
        result = ponce_result(KEPT_SECOND_LOWEST)
        assert result.counts == (43, 47)
        assert result.seat_counts == (18, 17, 25, 30)
        assert result.winner == 1

    def test_V6_tranque_tie_between_teams_scores_no_pips(self) -> None:
        result = ponce_result(KEPT_FIRST_SECOND_TIED)  # seats 0 and 1 at 18
        assert (result.tie, result.winner, result.points) == (True, None, (0, 2))

    def test_V6_tranque_tie_between_partners_goes_to_their_team(self) -> None:
        result = ponce_result(KEPT_SECOND_FOURTH_TIED)  # seats 1 and 3 at 19
        assert (result.tie, result.winner, result.points) == (False, 1, (0, 11))

    @pytest.mark.parametrize(("pips", "expected"), [(15, 1), (16, 2), (25, 2), (26, 3)])
    def test_V6_round_points_become_palitos_rounding_halves_down(self, pips: int, expected: int) -> None:
        assert palitos(pips) == expected
        script, kept = DOMINOES_BY_PIPS_LEFT[pips]
        result = scripted_result(Rules.preset("ponce"), script, kept, first=True)
        assert (result.kind, sum(result.seat_counts)) == (RoundEnd.DOMINO, pips)
        assert result.points == (expected, 0)

    def test_V6_tie_rounds_rotate_the_start_too(self) -> None:
        rules = Rules.preset("ponce")
        deals = [
            scripted_deal(rules, TRANQUE_10, KEPT_FIRST_SECOND_TIED),
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST, starter=1),
        ]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        assert (game.results[0].tie, game.scores) == (True, [0, 2])
        assert game.next_starter() == 1
        assert game.start_next_round().starter == 1

    def test_V6_game_to_20_ends_mid_round(self) -> None:
        rules = Rules.preset("ponce")
        deals = [
            scripted_deal(rules, TRANQUE_10, KEPT_LOWEST_FIRST),  # team 0: 9, team 1 blocks: 2
            scripted_deal(rules, TRANQUE_11, KEPT_11_SECOND_LOWEST, starter=1),  # the same
            make_deal(rules, ALL_SIXES_FIRST[2:] + ALL_SIXES_FIRST[:2]),  # seat 2 holds every 6
        ]
        game = Game(rules, deals=deals)
        run(game, TRANQUE_10)
        game.start_next_round()
        run(game, TRANQUE_11)
        assert (game.scores, game.winners) == ([18, 4], [])
        game.start_next_round()
        run(game, "6-6 pass")  # the game's first scoring pass: 2
        assert (game.scores, game.winners, game.is_over) == ([20, 4], [0], True)
        assert (game.round.is_over, game.round.result, len(game.results)) == (False, None, 2)
        with pytest.raises(IllegalAction):
            game.apply(Pass())
        with pytest.raises(IllegalAction):
            game.start_next_round()

    def test_V6_no_capicua_bonus(self) -> None:
        refused("capicua_bonus", "ponce", capicua_bonus=10)
        assert Rules.preset("ponce").capicua_bonus == 0


# V7 -------------------------------------------------------------------------------------


class TestV7Futbol:
    def test_V7_one_on_one_with_twelve_tiles_and_four_out(self) -> None:
        rules = Rules.preset("futbol")
        assert (rules.players, rules.mode, rules.hand_size, rules.drawing) == (
            2,
            Mode.INDIVIDUAL,
            12,
            Drawing.NONE,
        )
        assert (rules.boneyard_size, rules.target, rules.goals_to_win) == (4, 100, 10)
        rnd = Round.deal(rules, *scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_TIED), first=True)
        assert (rnd.hand_counts, rnd.boneyard_count, len(rnd.dealt_boneyard)) == ([12, 12], 0, 4)

    @pytest.mark.parametrize(
        ("kept", "points", "goals"),
        [("1-0", 0, (0, 1)), ("5-4", 0, (0, 1)), ("5-5", 10, (0, 0)), ("6-5", 11, (0, 0))],
    )
    def test_V7_domino_under_ten_pips_is_a_goal_for_the_loser(
        self, kept: str, points: int, goals: tuple[int, int]
    ) -> None:
        result = scripted_result(Rules.preset("futbol"), FUTBOL_DOMINO, ["", kept], first=True)
        assert (result.kind, result.winner, result.counts) == (
            RoundEnd.DOMINO,
            0,
            (0, Tile.parse(kept).pips),
        )
        assert (result.points, result.goals) == ((points, 0), goals)

    @pytest.mark.parametrize(
        ("kept", "winner"), [(FUTBOL_KEPT_FIRST_LOWER, 0), (FUTBOL_KEPT_SECOND_LOWER, 1)]
    )
    def test_V7_tranque_fewest_pips_takes_the_losers(self, kept: list[str], winner: int) -> None:
        result = scripted_result(Rules.preset("futbol"), FUTBOL_TRANQUE, kept, first=True)
        assert (result.kind, result.winner, result.goals) == (RoundEnd.TRANQUE, winner, (0, 0))
        assert result.points == ((56, 0) if winner == 0 else (0, 56))

    def test_V7_next_round_is_started_by_the_previous_winner(self) -> None:
        rules = Rules.preset("futbol")
        deals = [
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_FIRST_LOWER),
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_SECOND_LOWER),
            scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_FIRST_LOWER, starter=1),
        ]
        game = Game(rules, deals=deals)
        run(game, FUTBOL_TRANQUE)
        assert game.next_starter() == 0  # seat 0 won its own start
        assert game.start_next_round().starter == 0
        run(game, FUTBOL_TRANQUE)
        assert game.next_starter() == 1
        assert game.start_next_round().starter == 1

    def test_V7_tranque_tie_nobody_scores_same_starter(self) -> None:
        rules = Rules.preset("futbol")
        game = Game(rules, deals=[scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_TIED)] * 2)
        run(game, FUTBOL_TRANQUE)
        result = game.results[0]
        assert (result.tie, result.points, result.goals) == (True, (0, 0), (0, 0))
        assert game.next_starter() == 0
        assert game.start_next_round().starter == 0

    def test_V7_game_is_won_at_100_points(self) -> None:
        rules = Rules.preset("futbol")
        game = Game(rules, deals=[scripted_deal(rules, FUTBOL_TRANQUE, FUTBOL_KEPT_FIRST_LOWER)] * 2)
        run(game, FUTBOL_TRANQUE)
        assert (game.scores, game.winners) == ([56, 0], [])
        game.start_next_round()
        run(game, FUTBOL_TRANQUE)
        assert (game.scores, game.goals, game.winners) == ([112, 0], [0, 0], [0])

    def test_V7_game_is_won_with_ten_goals(self) -> None:
        rules = Rules.preset("futbol")
        game = Game(rules, deals=[scripted_deal(rules, FUTBOL_DOMINO, ["", "5-4"])] * 10)
        for number in range(1, 11):
            if number > 1:
                assert game.start_next_round().starter == 0
            run(game, FUTBOL_DOMINO)
            assert (game.scores, game.goals) == ([0, 0], [0, number])
            assert game.winners == ([1] if number == 10 else [])


# V8 -------------------------------------------------------------------------------------

# Seat 0 holds every 6 and seat 1 draws the whole boneyard before it can play.
PENALTY_DOMINO = "6-6 draw*14 pass 6-5 5-0 6-0L pass 6-4 4-1 6-1L pass 6-3 3-2 6-2L"
PENALTY_HANDS = ["6-6 6-5 6-4 6-3 6-2 6-1 6-0", "5-0 4-1 3-2 0-0 1-1 2-2 3-3"]

# Three rounds of TRANQUE_10 in which each winner starts the next: 0, then 3, then 0.
PENALTY_GAME_KEPT = [
    ["3-0 3-3 4-2 5-1", "2-1 3-1 4-1 5-2", "2-2 4-3 4-4 5-3 5-5", "0-0 1-1 2-0 4-0 5-0"],  # 21 19 37 13
    ["2-0 3-1 4-3 5-2", "0-0 2-2 3-3 4-0", "1-1 2-1 3-0 4-1 5-5", "4-2 4-4 5-0 5-1 5-3"],  # 20 14 23 33
    ["1-1 3-3 4-3 5-1", "0-0 2-2 4-2 5-0", "2-1 4-0 4-1 5-3 5-5", "2-0 3-0 3-1 4-4 5-2"],  # 21 15 30 24
]


class TestV8EnContra:
    def test_V8_individual_two_to_four_with_double_six(self) -> None:
        rules = Rules.preset("en-contra")
        assert (rules.players, rules.mode, rules.set_max, rules.scoring) == (
            4,
            Mode.INDIVIDUAL,
            6,
            Scoring.PENALTY,
        )
        assert [Rules.preset("en-contra", players=n).boneyard_size for n in (2, 3, 4)] == [14, 7, 0]
        refused("players", "en-contra", players=5)
        refused("set_max", "en-contra", set_max=9)

    def test_V8_every_loser_adds_their_own_pips(self) -> None:
        rules = Rules.preset("en-contra", players=2)
        rnd = played_round(rules, make_deal(rules, PENALTY_HANDS))
        assert rnd.boneyard_count == 14
        run(rnd, PENALTY_DOMINO)
        result = result_of(rnd)
        assert (result.kind, result.winner, result.counts) == (RoundEnd.DOMINO, 0, (0, 90))
        assert result.points == (0, 90)

    def test_V8_tranque_penalties(self) -> None:
        result = scripted_result(Rules.preset("en-contra"), TRANQUE_10, PENALTY_GAME_KEPT[0], first=True)
        assert (result.winner, result.points) == (3, (21, 19, 37, 0))

    def test_V8_tranque_tie_is_a_draw_everyone_adds_their_pips(self) -> None:
        rules = Rules.preset("en-contra")
        game = Game(rules, deals=[scripted_deal(rules, TRANQUE_10, KEPT_SECOND_FOURTH_TIED)] * 2)
        run(game, TRANQUE_10)
        result = game.results[0]
        assert (result.tie, result.winner) == (True, None)
        assert result.points == (25, 19, 27, 19)
        assert game.scores == [25, 19, 27, 19]
        assert game.next_starter() == 0
        assert game.start_next_round().starter == 0

    def test_V8_game_ends_at_100_and_the_lowest_wins(self) -> None:
        rules = Rules.preset("en-contra", players=2)
        game = Game(rules, deals=[make_deal(rules, PENALTY_HANDS)] * 2)
        run(game, PENALTY_DOMINO)
        assert (game.scores, game.winners) == ([0, 90], [])
        assert game.next_starter() == 0
        assert game.start_next_round().starter == 0
        run(game, PENALTY_DOMINO)
        assert (game.scores, game.winners) == ([0, 180], [0])

    def test_V8_previous_winner_starts_and_lowest_totals_share_the_win(self) -> None:
        rules = Rules.preset("en-contra")
        starters = [0, 3, 0]
        deals = [
            scripted_deal(rules, TRANQUE_10, kept, starter)
            for kept, starter in zip(PENALTY_GAME_KEPT, starters, strict=True)
        ]
        game = Game(rules, deals=deals)
        totals = [[21, 19, 37, 0], [21, 42, 70, 20], [42, 42, 100, 44]]
        for number, starter in enumerate(starters):
            if number:
                assert game.start_next_round().starter == starter
            run(game, TRANQUE_10)
            assert game.scores == totals[number]
        assert game.winners == [0, 1]


# V9 -------------------------------------------------------------------------------------


def clasico_domino(script: str, kept: list[str], bonus: int) -> RoundResult:
    return scripted_result(Rules.preset("clasico", capicua_bonus=bonus), script, kept, first=True)


class TestV9CapicuaBonus:
    def test_V9_off_in_every_preset(self) -> None:
        assert {name: Rules.preset(name).capicua_bonus for name in Rules.presets()} == dict.fromkeys(
            Rules.presets(), 0
        )

    def test_V9_bonus_when_the_last_tile_fits_both_different_ends(self) -> None:
        result = clasico_domino(DOMINO_CAPICUA, KEPT_DOMINO_CAPICUA, 20)
        assert (result.capicua, result.points) == (True, (34, 0))

    def test_V9_no_bonus_when_off(self) -> None:
        result = clasico_domino(DOMINO_CAPICUA, KEPT_DOMINO_CAPICUA, 0)
        assert (result.capicua, result.points) == (False, (14, 0))

    def test_V9_no_bonus_when_both_ends_show_the_same_number(self) -> None:
        result = clasico_domino(DOMINO_EQUAL_ENDS, KEPT_DOMINO_EQUAL_ENDS, 20)
        assert (result.capicua, result.points) == (False, (25, 0))

    def test_V9_no_bonus_when_the_last_tile_fits_one_end(self) -> None:
        result = clasico_domino(DOMINO_21, KEPT_DOMINO_21, 20)
        assert (result.capicua, result.points) == (False, (21, 0))

    def test_V9_bonus_in_sin_pozo_one_on_one_needs_different_ends(self) -> None:
        rules = Rules.preset("sin-pozo", players=2, capicua_bonus=20)
        deal = make_deal(rules, ["6-6 6-5 5-5 5-4 4-4 6-4 6-0", "2-0 2-1 2-2 3-0 3-1 3-2 3-3"])
        rnd = played_round(rules, deal, "6-6 pass 6-5 pass 5-5 pass 5-4 pass 4-4 pass 6-4L pass 6-0")
        result = result_of(rnd)  # 6-0 went on ends 6 and 6
        assert (result.capicua, result.points) == (False, (27, 0))

    @pytest.mark.parametrize("name", ["ponce", "futbol", "en-contra"])
    def test_V9_refused_with_ponce_futbol_and_penalty_scoring(self, name: str) -> None:
        refused("capicua_bonus", name, capicua_bonus=10)

    @pytest.mark.parametrize("name", ["clasico", "sin-pozo", "salon", "internacional", "latino", "maracucho"])
    def test_V9_accepted_with_the_other_presets(self, name: str) -> None:
        assert Rules.preset(name, capicua_bonus=10).capicua_bonus == 10
