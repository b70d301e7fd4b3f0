"""How a finished round is won and scored (R10–R13, V1–V9, C1, C4–C7).

Each rule difference is a small function selected by a `Rules` parameter: who wins a
tranque (`tranque_count`, `tranque_tie`) and what the winner scores (`scoring`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from tranque.engine.rules import Mode, Rules, Scoring, TranqueCount, TranqueTie
from tranque.engine.state import DOMINO, RoundState
from tranque.engine.tiles import mask_pips

PONCE_BLOCKER_POINTS = 2


class RoundEnd(StrEnum):
    DOMINO = "domino"
    TRANQUE = "tranque"


@dataclass(frozen=True)
class RoundResult:
    """How a round ended. Sides are teams in pairs and seats in individual (C5)."""

    kind: RoundEnd
    winner: int | None  # side; None exactly when `tie`
    winner_seat: int | None  # the player who went out, or who had the fewest pips
    closer: int  # seat that played the last tile or made the blocking play
    points: dict[int, int]  # what each side adds to its game score (penalty: its penalty)
    counts: dict[int, int]  # pips left per side, partners summed
    seat_counts: dict[int, int]  # pips left per seat
    tie: bool
    capicua: bool = False
    goals: dict[int, int] = field(default_factory=dict)  # futbol: goals credited this round
    pass_points: dict[int, int] = field(default_factory=dict)  # ponce: palitos from passes
    blocker_points: dict[int, int] = field(default_factory=dict)  # ponce: the tranque's 2

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "winner_seat": self.winner_seat,
            "closer": self.closer,
            "points": _keyed(self.points),
            "counts": _keyed(self.counts),
            "seat_counts": _keyed(self.seat_counts),
            "tie": self.tie,
            "capicua": self.capicua,
            "goals": _keyed(self.goals),
            "pass_points": _keyed(self.pass_points),
            "blocker_points": _keyed(self.blocker_points),
        }


def _keyed(values: dict[int, int]) -> dict[str, int]:
    return {str(k): v for k, v in values.items()}


def nearest_starter(players: int, starter: int, seats: set[int]) -> int:
    """The seat among `seats` that is the starter or comes first after them in turn order."""
    for step in range(players):
        seat = (starter + step) % players
        if seat in seats:
            return seat
    raise ValueError("no seat to choose from")


def _tranque_winner(rules: Rules, state: RoundState, seat_counts: list[int]) -> int | None:
    """The winning seat of a tranque (R11, V2, V5, V6), or None on an unresolved tie."""
    n = rules.players
    if rules.tranque_count is TranqueCount.TEAM:
        side_counts = [sum(seat_counts[s] for s in rules.seats_of(side)) for side in range(rules.side_count)]
        lowest = min(side_counts)
        contenders = {s for s in range(n) if side_counts[rules.side_of(s)] == lowest}
    else:
        lowest = min(seat_counts)
        contenders = {s for s in range(n) if seat_counts[s] == lowest}
    sides = {rules.side_of(s) for s in contenders}
    if len(sides) == 1 or rules.tranque_tie is TranqueTie.NEAREST_STARTER:
        # One side holds every lowest count (partners tied: ponce's decided rule), or the
        # tie goes to whoever is the starter or nearest after them (salon, maracucho).
        return nearest_starter(n, state.starter, contenders)
    return None


def _others(rules: Rules, winner: int, seat_counts: list[int], domino: bool) -> int:
    """R12/R13: every other hand; a pairs tranque counts every hand, the winners' too."""
    if rules.mode is Mode.PAIRS:
        return sum(seat_counts)
    return sum(seat_counts) - seat_counts[winner]


def _opponents_only(rules: Rules, winner: int, seat_counts: list[int], domino: bool) -> int:
    team = rules.side_of(winner)
    return sum(c for s, c in enumerate(seat_counts) if rules.side_of(s) != team)


def _all_other_hands(rules: Rules, winner: int, seat_counts: list[int], domino: bool) -> int:
    """Ponce: on a dominó every other hand; in a tranque all four."""
    return sum(seat_counts) - (seat_counts[winner] if domino else 0)


WINNER_TAKES: dict[Scoring, Callable[[Rules, int, list[int], bool], int]] = {
    Scoring.OTHERS: _others,
    Scoring.OPPONENTS_ONLY: _opponents_only,
    Scoring.PONCE: _all_other_hands,
}


def palitos(pips: int) -> int:
    """V6: round to tens with halves down. 15 → 1, 16 → 2, 25 → 2, 26 → 3."""
    return (pips + 4) // 10


def round_points(
    rules: Rules, state: RoundState, seat_counts: list[int] | None = None
) -> tuple[list[int], list[int], int | None]:
    """What each side adds to its game score and its futbol goals for a round whose
    `state.outcome` is DOMINO or TRANQUE, and the winning seat (None on an unresolved tie).

    The whole of the preset's scoring, lean enough for the bots' search to call at every
    finished position; `score_round` builds the full `RoundResult` on it."""
    if seat_counts is None:
        seat_counts = [mask_pips(hand) for hand in state.hands]
    domino = state.outcome == DOMINO
    winner_seat = state.closer if domino else _tranque_winner(rules, state, seat_counts)
    side_count = rules.side_count
    points = [0] * side_count
    goals = [0] * side_count
    scoring = rules.scoring
    if winner_seat is None:
        if rules.tranque_tie is TranqueTie.DRAW:
            points = seat_counts[:side_count]
    elif scoring is Scoring.PENALTY:
        points = [0 if seat == winner_seat else seat_counts[seat] for seat in range(side_count)]
    elif scoring is Scoring.FUTBOL:
        loser = 1 - winner_seat
        if seat_counts[loser] >= 10:
            points[winner_seat] = seat_counts[loser]
        else:
            goals[loser] = 1
    else:
        taken = WINNER_TAKES[scoring](rules, winner_seat, seat_counts, domino)
        if scoring is Scoring.PONCE:
            taken = palitos(taken)
        points[rules.side_of(winner_seat)] += taken
    if domino and state.capicua and rules.capicua_bonus > 0:
        points[rules.side_of(state.closer)] += rules.capicua_bonus
    if scoring is Scoring.PONCE:
        for side, earned in enumerate(state.team_points):
            points[side] += earned
        if not domino:
            points[rules.side_of(state.closer)] += PONCE_BLOCKER_POINTS
    return points, goals, winner_seat


def score_round(rules: Rules, state: RoundState) -> RoundResult:
    """The result of a round whose `state.outcome` is DOMINO or TRANQUE."""
    seat_counts = [mask_pips(hand) for hand in state.hands]
    domino = state.outcome == DOMINO
    side_points, side_goals, winner_seat = round_points(rules, state, seat_counts)
    sides = range(rules.side_count)
    points = dict(enumerate(side_points))
    goals = {side: 1 for side in sides if side_goals[side]}
    capicua = domino and state.capicua and rules.capicua_bonus > 0
    pass_points: dict[int, int] = {}
    blocker_points: dict[int, int] = {}
    if rules.scoring is Scoring.PONCE:
        pass_points = dict(enumerate(state.team_points))
        if not domino:
            blocker_points = {rules.side_of(state.closer): PONCE_BLOCKER_POINTS}
    side_counts = dict.fromkeys(sides, 0)
    for seat, count in enumerate(seat_counts):
        side_counts[rules.side_of(seat)] += count
    return RoundResult(
        kind=RoundEnd.DOMINO if domino else RoundEnd.TRANQUE,
        winner=None if winner_seat is None else rules.side_of(winner_seat),
        winner_seat=winner_seat,
        closer=state.closer,
        points=points,
        counts=side_counts,
        seat_counts=dict(enumerate(seat_counts)),
        tie=winner_seat is None,
        capicua=capicua,
        goals=goals,
        pass_points=pass_points,
        blocker_points=blocker_points,
    )
