"""`Game`: rounds until a side reaches the target (R7, R14; V6–V8 game ends; C6, C7)."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence

from tranque.engine.actions import Action, IllegalAction
from tranque.engine.deal import DealError, deal_from_seed, parse_deal
from tranque.engine.round import Round
from tranque.engine.rules import FirstLead, NextStart, Rules, Scoring, TieStart
from tranque.engine.scoring import RoundResult
from tranque.engine.tiles import Mask, Tile, TileIndex
from tranque.engine.view import PlayerView

Seed = int | str | bytes
ExplicitDeal = tuple[Sequence[Sequence[Tile | str]], Sequence[Tile | str]]


def _seed_bytes(seed: Seed) -> bytes:
    return seed if isinstance(seed, bytes) else str(seed).encode()


def round_seed(game_seed: Seed, round_number: int) -> bytes:
    """The shuffle seed of round `round_number` (0-based) of a seeded game."""
    return hashlib.sha256(b"tranque-round:" + _seed_bytes(game_seed) + b":%d" % round_number).digest()


class Game:
    """A game (partida). Round k is dealt from `deals[k]` while there are explicit deals; then
    from `seed_for_round(k)` if given (the server's committed seeds), else from `seed`, else
    from the OS's CSPRNG. With `deals` alone, running out of them is an error."""

    def __init__(
        self,
        rules: Rules,
        seed: Seed | None = None,
        deals: Sequence[ExplicitDeal] | None = None,
        first_starter: int | None = None,
        seed_for_round: Callable[[int], bytes] | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self._seed_for_round = seed_for_round
        sides = rules.side_count
        self._deals = [parse_deal(rules, hands, boneyard) for hands, boneyard in deals or ()]
        self._explicit = deals is not None
        self.scores = [0] * sides
        self.goals = [0] * sides
        self.results: list[RoundResult] = []
        self.rounds: list[Round] = []
        self.round_seeds: list[bytes | None] = []
        self.actions: list[tuple[int, int, Action]] = []  # (round number, seat, action)
        self.winners: list[int] = []
        self._credited_pass_points = [0] * sides
        if first_starter is not None and not (0 <= first_starter < rules.players):
            raise DealError(f"first_starter debe ser un asiento de 0 a {rules.players - 1}")
        if rules.first_round_lead is FirstLead.RANDOM_ANY and first_starter is None:
            first_starter = self._random_starter()
        self.first_starter = first_starter
        self.round = self._deal(first=True, starter=first_starter)

    def _random_starter(self) -> int:
        if self.seed is None:
            return secrets.randbelow(self.rules.players)
        digest = hashlib.sha256(b"tranque-starter:" + _seed_bytes(self.seed)).digest()
        return int.from_bytes(digest, "big") % self.rules.players

    def _next_deal(self) -> tuple[list[Mask], list[TileIndex], bytes | None]:
        number = len(self.rounds)
        if number < len(self._deals):
            hands, boneyard = self._deals[number]
            return list(hands), list(boneyard), None
        if self._explicit and self._seed_for_round is None:
            raise DealError(f"no hay reparto para la mano {number + 1}")
        if self._seed_for_round is not None:
            seed = self._seed_for_round(number)
        elif self.seed is None:
            seed = secrets.token_bytes(32)
        else:
            seed = round_seed(self.seed, number)
        hands, boneyard = deal_from_seed(self.rules, seed)
        return hands, boneyard, seed

    def _deal(self, *, first: bool, starter: int | None) -> Round:
        hands, boneyard, seed = self._next_deal()
        pending = self.rounds[-1].pass_bonus_pending if self.rounds else self.rules.pass_points
        round_ = Round.from_masks(
            self.rules,
            hands,
            boneyard,
            first=first and self.rules.first_round_lead is FirstLead.HIGHEST_DOUBLE,
            starter=starter,
            pass_bonus_pending=pending,
        )
        self.rounds.append(round_)
        self.round_seeds.append(seed)
        self._credited_pass_points = [0] * self.rules.side_count
        return round_

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def round_number(self) -> int:
        """0-based number of the current round."""
        return len(self.rounds) - 1

    def view(self, seat: int | None) -> PlayerView:
        return self.round.view(seat, scores=self.scores, goals=self.goals)

    def apply(self, action: Action) -> Action:
        """Apply `action` to the current round and score what it settles. Returns the
        action as applied (a lead's or single placement's side filled in)."""
        if self.is_over:
            raise IllegalAction("La partida ya terminó.")
        if self.round.is_over:
            raise IllegalAction("La mano ya terminó: empieza la siguiente.")
        seat = self.round.turn
        applied = self.round.apply(action)
        self.actions.append((self.round_number, seat, applied))
        if self.rules.pass_points:
            self._credit_pass_points()
        if self.round.is_over and not self.is_over:
            self._finish_round()
        return applied

    def _credit_pass_points(self) -> None:
        """C6: ponce pass points enter the score at once; reaching the target ends the game."""
        for side, earned in enumerate(self.round.pass_points):
            gained = earned - self._credited_pass_points[side]
            if gained:
                self._credited_pass_points[side] = earned
                self._add(side, gained)

    def _add(self, side: int, points: int) -> None:
        self.scores[side] += points
        if (
            not self.winners
            and self.rules.scoring is Scoring.PONCE
            and self.scores[side] >= self.rules.target
        ):
            self.winners = [side]

    def _finish_round(self) -> None:
        result = self.round.result
        assert result is not None
        self.results.append(result)
        rules = self.rules
        if rules.scoring is Scoring.PONCE:
            # C6: the blocker's 2 count before the pips.
            for side, points in result.blocker_points.items():
                self._add(side, points)
            for side, points in result.points.items():
                self._add(side, points - result.pass_points.get(side, 0) - result.blocker_points.get(side, 0))
            return
        for side, points in result.points.items():
            self.scores[side] += points
        for side, goals in result.goals.items():
            self.goals[side] += goals
        self.winners = self._game_winners(result)

    def _game_winners(self, result: RoundResult) -> list[int]:
        rules = self.rules
        if rules.goals_to_win is not None:
            scorers = [s for s, g in enumerate(self.goals) if g >= rules.goals_to_win]
            if scorers:
                return scorers
        reached = [s for s, points in enumerate(self.scores) if points >= rules.target]
        if not reached:
            return []
        if rules.scoring is Scoring.PENALTY:
            # V8: the game ends when a total reaches the target; the lowest total wins.
            lowest = min(self.scores)
            return [s for s, points in enumerate(self.scores) if points == lowest]
        best = max(self.scores[s] for s in reached)
        return [s for s in reached if self.scores[s] == best]

    def next_starter(self) -> int:
        """R7, R13, V6–V8, C7: who starts the round after the current one."""
        result = self.round.result
        if result is None:
            raise IllegalAction("La mano no ha terminado.")
        previous = self.round.starter
        rotate = (previous + 1) % self.rules.players
        if result.tie:
            return previous if self.rules.tie_next_start is TieStart.SAME else rotate
        if self.rules.next_round_start is NextStart.PREVIOUS_WINNER:
            assert result.winner_seat is not None
            return result.winner_seat
        return rotate

    def start_next_round(self) -> Round:
        if self.is_over:
            raise IllegalAction("La partida ya terminó.")
        if not self.round.is_over:
            raise IllegalAction("La mano no ha terminado.")
        self.round = self._deal(first=False, starter=self.next_starter())
        return self.round
