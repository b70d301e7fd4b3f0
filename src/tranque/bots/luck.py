"""How much of a round was luck: what its deal alone gave each side (docs/analysis.md, «La
suerte del reparto»).

A side's *expected* points of a round are the mean of what it scores when the round's own
deal (every hand, the pozo in its order, the same starter and the same forced lead) is
played from its start `PLAYOUTS` times by equal players: the `expert` level, on a small
budget (`LUCK_BUDGET`), at every seat. Each bot sees only its own seat's view, as at a table,
so the deal is played as people who cannot see the other hands would play it; the bots'
sampling makes the playouts differ where the play is close, and their mean is the deal's
worth when nobody outplays anybody. Beside it, what the side really *scored* in that round:
the same unit (the points the round adds to the side's score; palitos in ponce; in
`en-contra` points count against).

Everything is seeded (`seed`): the same deal always gets the same figures.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.bots.expert import Budget, ExpertBot
from tranque.bots.uniform import rules_unit
from tranque.engine import Game, Rules
from tranque.engine.round import Round
from tranque.engine.rules import FirstLead
from tranque.engine.scoring import RoundResult, scorer_of
from tranque.engine.tiles import Mask, TileIndex

PLAYOUTS = 24
LUCK_BUDGET = Budget(samples=4, exact_samples=4, exact_nodes=3000, exact_tiles=12)
LEVEL = "expert"


@dataclass(frozen=True)
class RoundDeal:
    """A round as it was dealt: everything needed to play it again from its start."""

    rules: Rules
    hands: tuple[Mask, ...]
    boneyard: tuple[TileIndex, ...]
    starter: int
    first: bool  # R6: the first round, led with the highest double
    pass_bonus_pending: bool  # ponce: the game's first scoring pass is still to come

    def fresh(self) -> Round:
        """The round at its start, nothing played."""
        return Round.from_masks(
            self.rules,
            list(self.hands),
            list(self.boneyard),
            first=self.first,
            starter=None if self.first else self.starter,
            pass_bonus_pending=self.pass_bonus_pending,
        )


def round_deal(game: Game, number: int) -> RoundDeal:
    """Round `number` (0-based) of `game` as it was dealt."""
    rules = game.rules
    dealt = game.rounds[number]
    pending = game.rounds[number - 1].pass_bonus_pending if number else rules.pass_points
    return RoundDeal(
        rules,
        tuple(sum(1 << tile.index for tile in hand) for hand in dealt.dealt_hands),
        tuple(tile.index for tile in dealt.dealt_boneyard),
        dealt.starter,
        number == 0 and rules.first_round_lead is FirstLead.HIGHEST_DOUBLE,
        bool(pending),
    )


def side_seats(rules: Rules) -> list[list[int]]:
    """The seats of each side (team), in team order."""
    return [
        [seat for seat in range(rules.players) if rules.team_of(seat) == team]
        for team in range(rules.team_count)
    ]


def playout(deal: RoundDeal, seed: int, budget: Budget = LUCK_BUDGET) -> RoundResult:
    """The deal played once from its start by the expert at every seat, seeded by `seed`."""
    rules = deal.rules
    round_ = deal.fresh()
    bots = [ExpertBot(seed=seed * 16 + seat, budget=budget) for seat in range(rules.players)]
    zeros = (0,) * rules.team_count
    while not round_.is_over:
        seat = round_.turn
        round_.apply(bots[seat].choose(round_.view(seat, scores=zeros, goals=zeros)))
    result = round_.result
    assert result is not None
    return result


def expected_points(
    deal: RoundDeal, playouts: int = PLAYOUTS, seed: int = 0, budget: Budget = LUCK_BUDGET
) -> tuple[float, ...]:
    """Each side's mean points over `playouts` playouts of the deal (module docstring)."""
    totals = [0.0] * deal.rules.team_count
    for k in range(playouts):
        for team, points in enumerate(playout(deal, seed * 100_003 + k, budget).points):
            totals[team] += points
    return tuple(total / playouts for total in totals)


def round_luck(
    deal: RoundDeal, result: RoundResult, playouts: int = PLAYOUTS, seed: int = 0
) -> list[dict[str, Any]]:
    """Each side's seats, expected points (one decimal) and scored points in the round."""
    expected = expected_points(deal, playouts, seed)
    return [
        {"seats": seats, "expected": round(expected[team], 1), "scored": result.points[team]}
        for team, seats in enumerate(side_seats(deal.rules))
    ]


def luck_body(rules: Rules, playouts: int = PLAYOUTS) -> dict[str, Any]:
    """What every answer says besides its rounds: their unit, whether points count against,
    and how the expectation was worked out."""
    return {
        "status": "done",
        "unit": rules_unit(rules),
        "against": scorer_of(rules).points_against,
        "level": LEVEL,
        "playouts": playouts,
    }


def game_luck(game: Game, playouts: int = PLAYOUTS, seed: int = 0) -> dict[str, Any]:
    """Every finished round of `game` (numbered from 1, as the analysis numbers them)."""
    rounds = []
    for number, round_ in enumerate(game.rounds):
        result = round_.result
        if result is None:
            continue  # a round cut short by the game's end (annulled, time called): no result
        sides = round_luck(round_deal(game, number), result, playouts, seed)
        rounds.append({"round": number + 1, "sides": sides})
    return luck_body(game.rules, playouts) | {"rounds": rounds}
