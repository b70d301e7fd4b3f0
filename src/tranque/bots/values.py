"""What a finished round is worth to one seat: the preset's own scoring, fast, and the game.

`round_points` is a lean copy of `tranque.engine.scoring.score_round` for search (the tests
check the two agree on every preset); `Valuer` turns a round's points into one number for a
seat's side, counting what the game's score and target make of them.
"""

from __future__ import annotations

from tranque.engine import Mode, Rules, Scoring, TranqueCount, TranqueTie
from tranque.engine.scoring import PONCE_BLOCKER_POINTS, nearest_starter, palitos
from tranque.engine.state import DOMINO, RoundState
from tranque.engine.tiles import PIPS, TILE_COUNT, Mask

# Pips of the tiles in each 8-bit chunk of a hand mask.
_CHUNKS = (TILE_COUNT + 7) // 8
_CHUNK_PIPS: list[list[int]] = [
    [
        sum(PIPS[8 * k + b] for b in range(8) if byte >> b & 1 and 8 * k + b < TILE_COUNT)
        for byte in range(256)
    ]
    for k in range(_CHUNKS)
]


def hand_pips(mask: Mask) -> int:
    total = 0
    chunk = 0
    while mask:
        total += _CHUNK_PIPS[chunk][mask & 255]
        mask >>= 8
        chunk += 1
    return total


def round_points(rules: Rules, state: RoundState) -> tuple[list[int], list[int]]:
    """(points, goals) per side of a finished round, exactly as `score_round` gives them."""
    n = rules.players
    counts = [hand_pips(hand) for hand in state.hands]
    side_count = rules.side_count
    pairs = rules.mode is Mode.PAIRS
    half = n // 2
    domino = state.outcome == DOMINO
    points = [0] * side_count
    goals = [0] * side_count
    winner = state.closer if domino else _tranque_winner(rules, state, counts)
    scoring = rules.scoring
    if winner is None:
        if rules.tranque_tie is TranqueTie.DRAW:
            points = counts[:side_count]
    elif scoring is Scoring.PENALTY:
        points = [0 if seat == winner else counts[seat] for seat in range(side_count)]
    elif scoring is Scoring.FUTBOL:
        loser = 1 - winner
        if counts[loser] >= 10:
            points[winner] = counts[loser]
        else:
            goals[loser] = 1
    else:
        total = sum(counts)
        if scoring is Scoring.OTHERS:
            taken = total if pairs else total - counts[winner]
        elif scoring is Scoring.OPPONENTS_ONLY:
            team = winner % half if pairs else winner
            taken = sum(c for seat, c in enumerate(counts) if (seat % half if pairs else seat) != team)
        else:
            taken = palitos(total - (counts[winner] if domino else 0))
        points[winner % half if pairs else winner] += taken
    if domino and state.capicua and rules.capicua_bonus > 0:
        points[rules.side_of(state.closer)] += rules.capicua_bonus
    if scoring is Scoring.PONCE:
        for side, earned in enumerate(state.team_points):
            points[side] += earned
        if not domino:
            points[state.closer % half] += PONCE_BLOCKER_POINTS
    return points, goals


def _tranque_winner(rules: Rules, state: RoundState, counts: list[int]) -> int | None:
    n = rules.players
    if rules.tranque_count is TranqueCount.TEAM and rules.mode is Mode.PAIRS:
        half = n // 2
        side_counts = [counts[side] + counts[side + half] for side in range(half)]
        lowest = min(side_counts)
        contenders = [s for s in range(n) if side_counts[s % half] == lowest]
        sides = {s % half for s in contenders}
    else:
        lowest = min(counts)
        contenders = [s for s in range(n) if counts[s] == lowest]
        sides = {rules.side_of(s) for s in contenders}
    if len(contenders) == 1:
        return contenders[0]
    if len(sides) == 1 or rules.tranque_tie is TranqueTie.NEAREST_STARTER:
        return nearest_starter(n, state.starter, set(contenders))
    return None


class Valuer:
    """The worth to `seat`'s side of a finished round, given the game's score before it.

    Points count as scored (penalties against), measured against the other sides: in pairs of
    two teams the difference, otherwise against the other sides' average. A result that ends
    the game is worth `target` more (won) or less (lost): near the end, winning the round
    matters more than its size. Futbol goals are worth a tenth of the target each.
    """

    def __init__(self, rules: Rules, seat: int, scores: tuple[int, ...], goals: tuple[int, ...]) -> None:
        self.rules = rules
        self.side = rules.side_of(seat)
        self.sides = rules.side_count
        self.scores = scores
        self.goals = goals
        self.penalty = rules.scoring is Scoring.PENALTY
        self.goal_worth = rules.target / rules.goals_to_win if rules.goals_to_win else 0.0
        self.cache: dict[tuple[int, ...], float] = {}

    def __call__(self, state: RoundState) -> float:
        points, goals = round_points(self.rules, state)
        key = (*points, *goals)
        value = self.cache.get(key)
        if value is None:
            value = self.worth(points, goals)
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
