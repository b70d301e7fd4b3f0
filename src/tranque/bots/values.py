"""What a finished round is worth to one seat: the preset's own scoring (the engine's
`round_points`) turned into one number for the seat's side, counting what the game's score
and target make of it.
"""

from __future__ import annotations

from tranque.engine import Rules, Scoring
from tranque.engine.scoring import round_points
from tranque.engine.state import RoundState


class Valuer:
    """The worth to `seat`'s side of a finished round, given the game's score before it.

    Points count as scored (penalties against), measured against the other sides: in pairs of
    two teams the difference, otherwise against the other sides' average. A result that ends
    the game is worth `target` more (won) or less (lost): near the end, winning the round
    matters more than its size. Futbol goals are worth a tenth of the target each. Winning
    the round itself is worth `round_bonus` more (losing it, that much less).
    """

    def __init__(
        self,
        rules: Rules,
        seat: int,
        scores: tuple[int, ...],
        goals: tuple[int, ...],
        round_bonus: float = 0.0,
    ) -> None:
        self.rules = rules
        self.round_bonus = round_bonus
        self.side = rules.side_of(seat)
        self.sides = rules.side_count
        self.scores = scores
        self.goals = goals
        self.penalty = rules.scoring is Scoring.PENALTY
        self.goal_worth = rules.target / rules.goals_to_win if rules.goals_to_win else 0.0
        self.cache: dict[tuple[int, ...], float] = {}

    def __call__(self, state: RoundState) -> float:
        points, goals, winner = round_points(self.rules, state)
        won = 0 if winner is None else 1 if self.rules.side_of(winner) == self.side else -1
        key = (won, *points, *goals)
        value = self.cache.get(key)
        if value is None:
            value = self.worth(points, goals) + won * self.round_bonus
            self.cache[key] = value
        return value

    def worth(self, points: list[int], goals: list[int]) -> float:
        side = self.side
        gains = [p + self.goal_worth * g for p, g in zip(points, goals, strict=True)]
        if self.penalty:
            gains = [-g for g in gains]
        others = [g for s, g in enumerate(gains) if s != side]
        value = gains[side] - sum(others) / len(others)
        ending = self.game_end(points, goals)
        if ending is not None:
            won, lost = ending
            target = self.rules.target
            value += target * (won - lost)
        return value

    def game_end(self, points: list[int], goals: list[int]) -> tuple[float, float] | None:
        """(our share of the game's win, the others' share) if this result ends the game."""
        rules = self.rules
        totals = [s + p for s, p in zip(self.scores, points, strict=True)]
        winners: list[int] = []
        if rules.goals_to_win is not None:
            winners = [s for s in range(self.sides) if self.goals[s] + goals[s] >= rules.goals_to_win]
        if not winners:
            reached = [s for s in range(self.sides) if totals[s] >= rules.target]
            if not reached:
                return None
            if self.penalty:
                lowest = min(totals)
                winners = [s for s in range(self.sides) if totals[s] == lowest]
            else:
                best = max(totals[s] for s in reached)
                winners = [s for s in reached if totals[s] == best]
        ours = 1.0 / len(winners) if self.side in winners else 0.0
        return ours, 1.0 - ours
