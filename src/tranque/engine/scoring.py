"""How a finished round is won and scored, and how a game is won (R10–R14, V1–V9, C1, C4–C7).

Who wins a tranque is a small function of `tranque_count` and `tranque_tie`. What the
winner scores, what enters the game's score and when, and who wins the game belong to the
`scoring` kind: one `Scorer` object per `Scoring`, chosen by `scorer_of(rules)`, that the
referee (`Game`, `score_round`) and the bots' search share.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, Final

from tranque.engine.bitboard import DOMINO, RoundState
from tranque.engine.rules import Rules, Scoring, TranqueCount, TranqueTie
from tranque.engine.tiles import mask_pips

PONCE_BLOCKER_POINTS = 2

# Zeros for every team count, shared: most rounds credit no goals, passes or blocker.
_ZEROS: Final = tuple((0,) * teams for teams in range(7))


class RoundEnd(StrEnum):
    DOMINO = "domino"
    TRANQUE = "tranque"


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what it was worth. A team is a pair of partners in pairs and one
    seat in individual (C5); every per-team tuple has an entry for each team, 0 where nothing."""

    kind: RoundEnd
    winner: int | None  # team; None exactly when `tie`
    winner_seat: int | None  # the player who went out, or who had the fewest pips
    closer: int  # seat that played the last tile or made the blocking play
    points: tuple[int, ...]  # per team: what it adds to its game score (penalty: its penalty)
    counts: tuple[int, ...]  # per team: pips left, partners summed
    seat_counts: tuple[int, ...]  # per seat: pips left
    tie: bool
    capicua: bool
    goals: tuple[int, ...]  # per team: futbol goals credited this round
    pass_points: tuple[int, ...]  # per team: ponce palitos from passes
    blocker_points: tuple[int, ...]  # per team: ponce, the tranque's 2 to the blocker's team
    passes_score: bool  # ponce: its pass points are part of the record even when 0

    def __reduce__(self) -> tuple[type[RoundResult], tuple[object, ...]]:
        """Copy and pickle as the fields' values: the same in the compiled and pure builds."""
        return (RoundResult, tuple(getattr(self, item.name) for item in fields(self)))

    def to_json(self) -> dict[str, Any]:
        """Per-team values keyed by team as a string: points and counts for every team, goals
        and blocker points only where there are some, pass points for every team in ponce."""
        return {
            "kind": self.kind.value,
            "winner": self.winner,
            "winner_seat": self.winner_seat,
            "closer": self.closer,
            "points": _every(self.points),
            "counts": _every(self.counts),
            "seat_counts": _every(self.seat_counts),
            "tie": self.tie,
            "capicua": self.capicua,
            "goals": _nonzero(self.goals),
            "pass_points": _every(self.pass_points) if self.passes_score else {},
            "blocker_points": _nonzero(self.blocker_points),
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> RoundResult:
        """The result `to_json` wrote: per-team values keyed by team, missing ones zero."""
        teams = len(data["points"])

        def per(key: str, count: int) -> tuple[int, ...]:
            keyed: dict[str, int] = data[key]
            return tuple(keyed.get(str(k), 0) for k in range(count))

        return RoundResult(
            kind=RoundEnd(data["kind"]),
            winner=data["winner"],
            winner_seat=data["winner_seat"],
            closer=data["closer"],
            points=per("points", teams),
            counts=per("counts", teams),
            seat_counts=per("seat_counts", len(data["seat_counts"])),
            tie=data["tie"],
            capicua=data["capicua"],
            goals=per("goals", teams),
            pass_points=per("pass_points", teams),
            blocker_points=per("blocker_points", teams),
            passes_score=bool(data["pass_points"]),
        )


def _every(values: tuple[int, ...]) -> dict[str, int]:
    return {str(k): v for k, v in enumerate(values)}


def _nonzero(values: tuple[int, ...]) -> dict[str, int]:
    return {str(k): v for k, v in enumerate(values) if v}


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
        team_counts = [sum(seat_counts[s] for s in rules.seats_of(team)) for team in range(rules.team_count)]
        lowest = min(team_counts)
        contenders = {s for s in range(n) if team_counts[rules.team_of(s)] == lowest}
    else:
        lowest = min(seat_counts)
        contenders = {s for s in range(n) if seat_counts[s] == lowest}
    teams = {rules.team_of(s) for s in contenders}
    if len(teams) == 1 or rules.tranque_tie is TranqueTie.NEAREST_STARTER:
        # One team holds every lowest count (partners tied: ponce's decided rule), or the
        # tie goes to whoever is the starter or nearest after them (salon, maracucho).
        return nearest_starter(n, state.starter, contenders)
    return None


def palitos(pips: int) -> int:
    """V6: round to tens with halves down. 15 → 1, 16 → 2, 25 → 2, 26 → 3."""
    return (pips + 4) // 10


RoundPoints = tuple[list[int], Sequence[int], int | None]


class Scorer:
    """One `Scoring` kind: what a finished round is worth (`round_points`, lean enough for
    the bots' search to call at every finished position), what enters the game's score and
    when (`credit` during a round, `settle` at its end), and who has won the game
    (`game_winners`; `winners_after` a finished position, for the bots' search). Stateless:
    `scorer_of(rules)` returns the kind's shared instance."""

    kind: ClassVar[Scoring]
    points_against: ClassVar[bool] = False  # penalty: what a team scores counts against it
    passes_score: ClassVar[bool] = False  # ponce: passes earn palitos
    ends_at_once: ClassVar[bool] = False  # ponce: reaching the target ends the game at once

    def __reduce__(self) -> tuple[Callable[[Scoring], Scorer], tuple[Scoring]]:
        """Copies and pickles are the kind's shared instance."""
        return (_shared_scorer, (self.kind,))

    def round_points(
        self, rules: Rules, state: RoundState, seat_counts: list[int] | None = None
    ) -> RoundPoints:
        """What each team adds to its game score and its goals for a round whose
        `state.outcome` is DOMINO or TRANQUE, and the winning seat (None on an unresolved tie)."""
        if seat_counts is None:
            seat_counts = [mask_pips(hand) for hand in state.hands]
        domino = state.outcome == DOMINO
        winner_seat = state.closer if domino else _tranque_winner(rules, state, seat_counts)
        return self._score(rules, state, seat_counts, winner_seat, domino)

    def _score(
        self, rules: Rules, state: RoundState, seat_counts: list[int], winner_seat: int | None, domino: bool
    ) -> RoundPoints:
        raise NotImplementedError

    def extras(self, rules: Rules, state: RoundState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The part of a finished round's points earned by passes and by the blocking play,
        per team (ponce; zeros elsewhere)."""
        zeros = _ZEROS[rules.team_count]
        return zeros, zeros

    def credit(self, rules: Rules, scores: list[int], gains: Sequence[int]) -> list[int]:
        """Add to the game's `scores` (in place) what a round earns before it ends (only ponce's
        passes earn anything then); the game's winners if that ends the game, else []."""
        for team, gain in enumerate(gains):
            scores[team] += gain
        return []

    def settle(self, rules: Rules, scores: list[int], goals: list[int], result: RoundResult) -> list[int]:
        """Add a finished round's `result` to the game's totals (in place); the game's winners,
        [] while it goes on. R14: the target counts when a round ends."""
        for team, points in enumerate(result.points):
            scores[team] += points
        for team, scored in enumerate(result.goals):
            goals[team] += scored
        return self.game_winners(rules, scores, goals)

    def reach_order(self, rules: Rules, state: RoundState) -> tuple[int, ...]:
        """What, besides a finished round's points, decides who reaches the target first where
        that ends the game at once (`ends_at_once`); nothing here."""
        return ()

    def winners_after(
        self,
        rules: Rules,
        scores: Sequence[int],
        goals: Sequence[int],
        points: Sequence[int],
        round_goals: Sequence[int],
        order: tuple[int, ...] = (),
    ) -> list[int]:
        """The game's winners if a finished round worth `points` and `round_goals` (and its
        `reach_order`) is added to the totals from before it; [] if the game goes on."""
        totals = list(scores)
        goal_totals = [total + scored for total, scored in zip(goals, round_goals, strict=True)]
        for gains in self.stages(rules, points, order):
            for team, gain in enumerate(gains):
                totals[team] += gain
            if self.ends_at_once:
                winners = self.game_winners(rules, totals, goal_totals)
                if winners:
                    return winners
        return self.game_winners(rules, totals, goal_totals)

    def stages(self, rules: Rules, points: Sequence[int], order: tuple[int, ...]) -> Sequence[Sequence[int]]:
        """A finished round's `points` in the order the game adds them: all at once here."""
        return (points,)

    def game_winners(self, rules: Rules, scores: Sequence[int], goals: Sequence[int]) -> list[int]:
        """R14: of the teams whose total reaches the target, the highest (all of them if tied);
        [] while nobody has reached it."""
        reached = [team for team, total in enumerate(scores) if total >= rules.target]
        if not reached:
            return []
        best = max(scores[team] for team in reached)
        return [team for team in reached if scores[team] == best]


class OthersScorer(Scorer):
    """`others` (R12, R13): the winner takes every other hand, partner's included; a pairs
    tranque counts every hand, the winners' too. V9's capicúa bonus on top."""

    kind = Scoring.OTHERS

    def _score(
        self, rules: Rules, state: RoundState, seat_counts: list[int], winner_seat: int | None, domino: bool
    ) -> RoundPoints:
        points = [0] * rules.team_count
        if winner_seat is not None:
            team = rules.team_of(winner_seat)
            points[team] = self._taken(rules, seat_counts, winner_seat)
            if domino and state.capicua and rules.capicua_bonus > 0:
                points[team] += rules.capicua_bonus
        return points, _ZEROS[rules.team_count], winner_seat

    def _taken(self, rules: Rules, seat_counts: list[int], winner_seat: int) -> int:
        if rules.is_pairs:
            return sum(seat_counts)
        return sum(seat_counts) - seat_counts[winner_seat]


class OpponentsOnlyScorer(OthersScorer):
    """`opponents-only` (V4, latino): the winning team takes only the opposing team's pips."""

    kind = Scoring.OPPONENTS_ONLY

    def _taken(self, rules: Rules, seat_counts: list[int], winner_seat: int) -> int:
        team = rules.team_of(winner_seat)
        return sum(count for seat, count in enumerate(seat_counts) if rules.team_of(seat) != team)


class PenaltyScorer(Scorer):
    """`penalty` (V8, en contra): everyone but the round's winner adds their own pips, and at
    the target the lowest total wins."""

    kind = Scoring.PENALTY
    points_against = True

    def _score(
        self, rules: Rules, state: RoundState, seat_counts: list[int], winner_seat: int | None, domino: bool
    ) -> RoundPoints:
        teams = rules.team_count
        if winner_seat is None:
            points = seat_counts[:teams] if rules.tranque_tie is TranqueTie.DRAW else [0] * teams
        else:
            points = [0 if seat == winner_seat else seat_counts[seat] for seat in range(teams)]
        return points, _ZEROS[teams], winner_seat

    def game_winners(self, rules: Rules, scores: Sequence[int], goals: Sequence[int]) -> list[int]:
        """V8: the game ends when a total reaches the target; the lowest total wins, ties share."""
        if max(scores) < rules.target:
            return []
        lowest = min(scores)
        return [team for team, total in enumerate(scores) if total == lowest]


class FutbolScorer(Scorer):
    """`futbol` (V7, C7): the winner takes the loser's pips from 10 up; under 10 the loser is
    credited a goal. The game is won at the target or at `goals_to_win` goals."""

    kind = Scoring.FUTBOL

    def _score(
        self, rules: Rules, state: RoundState, seat_counts: list[int], winner_seat: int | None, domino: bool
    ) -> RoundPoints:
        points = [0, 0]
        if winner_seat is None:
            return points, _ZEROS[2], None
        loser = 1 - winner_seat
        if seat_counts[loser] >= 10:
            points[winner_seat] = seat_counts[loser]
            return points, _ZEROS[2], winner_seat
        goals = [0, 0]
        goals[loser] = 1
        return points, goals, winner_seat

    def game_winners(self, rules: Rules, scores: Sequence[int], goals: Sequence[int]) -> list[int]:
        """Futbol: whoever reaches the goals to win, else R14 on the points."""
        if rules.goals_to_win is not None:
            scorers = [team for team, scored in enumerate(goals) if scored >= rules.goals_to_win]
            if scorers:
                return scorers
        return super().game_winners(rules, scores, goals)


class PonceScorer(Scorer):
    """`ponce` (V6, C6): palitos. Passes score as they happen, a tranque gives 2 to the
    blocker's team, and the round's pips (every other hand on a dominó, all four in a tranque)
    are rounded to tens. The game ends the moment a team reaches the target, even mid-round,
    and nothing is added after that moment."""

    kind = Scoring.PONCE
    passes_score = True
    ends_at_once = True

    def _score(
        self, rules: Rules, state: RoundState, seat_counts: list[int], winner_seat: int | None, domino: bool
    ) -> RoundPoints:
        points = list(state.team_points)
        if winner_seat is not None:
            taken = sum(seat_counts) - (seat_counts[winner_seat] if domino else 0)
            points[rules.team_of(winner_seat)] += palitos(taken)
        if not domino:
            points[rules.team_of(state.closer)] += PONCE_BLOCKER_POINTS
        return points, _ZEROS[rules.team_count], winner_seat

    def extras(self, rules: Rules, state: RoundState) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Ponce: the palitos from passes and the blocker's 2 after a tranque, per team."""
        blocker = _ZEROS[rules.team_count]
        if state.outcome != DOMINO:
            gained = [0] * rules.team_count
            gained[rules.team_of(state.closer)] = PONCE_BLOCKER_POINTS
            blocker = tuple(gained)
        return tuple(state.team_points), blocker

    def credit(self, rules: Rules, scores: list[int], gains: Sequence[int]) -> list[int]:
        """Ponce: credit the passes' palitos as they are earned; a team reaching the target wins."""
        super().credit(rules, scores, gains)
        return self.game_winners(rules, scores, ())

    def settle(self, rules: Rules, scores: list[int], goals: list[int], result: RoundResult) -> list[int]:
        """C6: the pass points entered the score as they were earned (`credit`); then come the
        blocker's 2 and then the pips, and nothing after a team reaches the target."""
        pips = _pips_points(result.points, result.pass_points, result.blocker_points)
        return self._race(rules, scores, (result.blocker_points, pips))

    def reach_order(self, rules: Rules, state: RoundState) -> tuple[int, ...]:
        """The round's pass points per team, then the blocker's team (-1 after a dominó)."""
        blocker = -1 if state.outcome == DOMINO else rules.team_of(state.closer)
        return (*state.team_points, blocker)

    def stages(self, rules: Rules, points: Sequence[int], order: tuple[int, ...]) -> Sequence[Sequence[int]]:
        """The passes (all at once here, not one by one), the blocker's 2, the pips."""
        teams = rules.team_count
        passes = order[:teams] or _ZEROS[teams]
        blocker_team = order[teams] if order else -1
        blocker = [PONCE_BLOCKER_POINTS if team == blocker_team else 0 for team in range(teams)]
        return (passes, blocker, _pips_points(points, passes, blocker))

    def _race(self, rules: Rules, scores: list[int], stages: Sequence[Sequence[int]]) -> list[int]:
        """Credit `stages` in order until a team reaches the target; its winners, or []."""
        for gains in stages:
            winners = self.credit(rules, scores, gains)
            if winners:
                return winners
        return []


def _pips_points(points: Sequence[int], passes: Sequence[int], blocker: Sequence[int]) -> list[int]:
    """Ponce: the part of a round's palitos that comes from its pips."""
    return [total - passed - blocked for total, passed, blocked in zip(points, passes, blocker, strict=True)]


def _shared_scorer(kind: Scoring) -> Scorer:
    return SCORERS[kind]


SCORERS: Final[dict[Scoring, Scorer]] = {
    scorer.kind: scorer
    for scorer in (OthersScorer(), OpponentsOnlyScorer(), PenaltyScorer(), PonceScorer(), FutbolScorer())
}


def scorer_of(rules: Rules) -> Scorer:
    """The shared `Scorer` of `rules.scoring`."""
    return SCORERS[rules.scoring]


def score_round(rules: Rules, state: RoundState) -> RoundResult:
    """The result of a round whose `state.outcome` is DOMINO or TRANQUE."""
    scorer = scorer_of(rules)
    seat_counts = [mask_pips(hand) for hand in state.hands]
    domino = state.outcome == DOMINO
    points, goals, winner_seat = scorer.round_points(rules, state, seat_counts)
    team_counts = [0] * rules.team_count
    for seat, count in enumerate(seat_counts):
        team_counts[rules.team_of(seat)] += count
    pass_points, blocker_points = scorer.extras(rules, state)
    return RoundResult(
        kind=RoundEnd.DOMINO if domino else RoundEnd.TRANQUE,
        winner=None if winner_seat is None else rules.team_of(winner_seat),
        winner_seat=winner_seat,
        closer=state.closer,
        points=tuple(points),
        counts=tuple(team_counts),
        seat_counts=tuple(seat_counts),
        tie=winner_seat is None,
        capicua=domino and state.capicua and rules.capicua_bonus > 0,
        goals=tuple(goals),
        pass_points=pass_points,
        blocker_points=blocker_points,
        passes_score=scorer.passes_score,
    )
