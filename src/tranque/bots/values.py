"""What a finished round is worth to one seat: the preset's own scoring (the engine's
`Scorer`, which the referee uses too) turned into one number for the seat's team, counting
what the game's score and target make of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from tranque.engine import Rules
from tranque.engine.bitboard import RoundState
from tranque.engine.scoring import scorer_of


class Valuer:
    """The worth to `seat`'s team of a finished round, given the game's score before it.

    Points count as scored (penalties against), measured against the other teams: in pairs of
    two teams the difference, otherwise against the other teams' average. A result that ends
    the game is worth `target` more (won) or less (lost): near the end, winning the round
    matters more than its size. Futbol goals are worth a tenth of the target each. Winning
    the round itself is worth `round_bonus` more (losing it, that much less).

    `round_pass_points` are the ponce pass points the round has earned so far, which the
    game has already added to `scores` and a finished round's points count again.
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        scores: tuple[int, ...],
        goals: tuple[int, ...],
        round_bonus: float = 0.0,
        round_pass_points: Sequence[int] = (),
    ) -> None:
        self.rules = rules
        self.scorer = scorer_of(rules)
        self.round_bonus = round_bonus
        self.team = rules.team_of(seat)
        self.teams = rules.team_count
        if self.scorer.passes_score and round_pass_points:
            scores = tuple(total - earned for total, earned in zip(scores, round_pass_points, strict=True))
        self.scores = scores
        self.goals = goals
        self.ends_at_once = self.scorer.ends_at_once
        self.goal_worth = rules.target / rules.goals_to_win if rules.goals_to_win else 0.0
        self.cache: dict[tuple[int, ...], float] = {}

    def __call__(self, state: RoundState) -> float:
        points, goals, winner = self.scorer.round_points(self.rules, state)
        won = 0 if winner is None else 1 if self.rules.team_of(winner) == self.team else -1
        order = self.scorer.reach_order(self.rules, state) if self.ends_at_once else ()
        key = (won, *points, *goals, *order)
        value = self.cache.get(key)
        if value is None:
            value = self.worth(points, goals, order) + won * self.round_bonus
            self.cache[key] = value
        return value

    def worth(self, points: Sequence[int], goals: Sequence[int], order: tuple[int, ...] = ()) -> float:
        team = self.team
        gains = [p + self.goal_worth * g for p, g in zip(points, goals, strict=True)]
        if self.scorer.points_against:
            gains = [-g for g in gains]
        others = [g for s, g in enumerate(gains) if s != team]
        value = gains[team] - sum(others) / len(others)
        ending = self.game_end(points, goals, order)
        if ending is not None:
            won, lost = ending
            target = self.rules.target
            value += target * (won - lost)
        return value

    def game_end(
        self, points: Sequence[int], goals: Sequence[int], order: tuple[int, ...] = ()
    ) -> tuple[float, float] | None:
        """(our share of the game's win, the others' share) if this result ends the game;
        `order` is the engine's `Scorer.reach_order` of the finished position."""
        winners = self.scorer.winners_after(self.rules, self.scores, self.goals, points, goals, order)
        if not winners:
            return None
        ours = 1.0 / len(winners) if self.team in winners else 0.0
        return ours, 1.0 - ours
