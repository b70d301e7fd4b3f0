"""`Game`: rounds until a team reaches the target (R7, R14; V6–V8 game ends; C6, C7), or for
a set number of hands (G1), or until the time cap decides it (G2–G4)."""

from __future__ import annotations

import copy
import hashlib
import secrets
import sys
from collections.abc import Callable, Sequence
from enum import StrEnum

from tranque.engine.actions import Action, IllegalAction
from tranque.engine.board import short_repr
from tranque.engine.deal import DealError, deal_from_seed, parse_deal
from tranque.engine.events import Event
from tranque.engine.round import Round
from tranque.engine.rules import FirstLead, NextStart, Rules, TieStart
from tranque.engine.scoring import RoundResult, scorer_of
from tranque.engine.tiles import Mask, Tile, TileIndex
from tranque.engine.view import PlayerView

Seed = int | str | bytes
ExplicitDeal = tuple[Sequence[Sequence[Tile | str]], Sequence[Tile | str]]


class GameEnd(StrEnum):
    """What decided a game that is over."""

    TARGET = "target"  # R14 and the presets' own ends (V6–V8): the target or the goals
    HANDS = "hands"  # G1: the last of a set number of hands was played
    TIME = "time"  # G2–G4: the time cap, the side ahead at the end of a hand


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
        self.scorer = scorer_of(rules)
        # G1: a game of a set number of hands is never ended by its target or goals: the
        # scorer is handed rules whose target nobody reaches, and the game counts the hands.
        self._scoring_rules = (
            rules if rules.hands is None else rules.replace(target=sys.maxsize, goals_to_win=None)
        )
        self.time_called: int | None = None  # G2: the round during which time was called
        self.ended_by: GameEnd | None = None
        self.seed = seed
        self._seed_for_round = seed_for_round
        teams = rules.team_count
        self._deals = [parse_deal(rules, hands, boneyard) for hands, boneyard in deals or ()]
        self._explicit = deals is not None
        self.scores = [0] * teams
        self.goals = [0] * teams
        self.results: list[RoundResult] = []
        self.rounds: list[Round] = []
        self.round_seeds: list[bytes | None] = []
        self.actions: list[tuple[int, int, Action]] = []  # (round number, seat, action)
        self.winners: list[int] = []
        self._credited_pass_points = [0] * teams
        if first_starter is not None and not (0 <= first_starter < rules.players):
            raise DealError("deal_bad_first_starter", last=rules.players - 1)
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
            raise DealError("deal_none_for_round", round=number + 1)
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
        self._credited_pass_points = [0] * self.rules.team_count
        return round_

    def copy(self, seed_for_round: Callable[[int], bytes] | None = None) -> Game:
        """An independent copy to try the next deal on, sharing what never changes: the rules,
        the rounds that are over and the history. A round in play is copied (`Round.copy`).
        The copy deals its later rounds from `seed_for_round` if given, else as this game would."""
        other = copy.copy(self)
        other.scores, other.goals = list(self.scores), list(self.goals)
        other.results, other.rounds, other.round_seeds = (
            list(self.results),
            list(self.rounds),
            list(self.round_seeds),
        )
        other.actions, other.winners = list(self.actions), list(self.winners)
        other._deals = list(self._deals)
        other._credited_pass_points = list(self._credited_pass_points)
        if not self.round.is_over:
            other.round = other.rounds[-1] = self.round.copy()
        if seed_for_round is not None:
            other._seed_for_round = seed_for_round
        return other

    def __repr__(self) -> str:
        over = f"over, winners {self.winners}" if self.winners else None
        return short_repr("Game", self.rules, self.turn, len(self.round.line), over)

    def __str__(self) -> str:
        return self.board()

    def board(self, lang: str = "es") -> str:
        """The game as text (`print(game)` in Spanish): the rules in a line, the score, the
        current round's line and every hand (a game holds the whole deal), the boneyard,
        and whose turn it is, how the round ended, or who won. See `tranque.engine.board`."""
        return self.round.board_of(
            lang, scores=self.scores, goals=self.goals, round_number=self.round_number, winners=self.winners
        )

    @property
    def is_over(self) -> bool:
        return bool(self.winners)

    @property
    def round_number(self) -> int:
        """0-based number of the current round."""
        return len(self.rounds) - 1

    @property
    def turn(self) -> int | None:
        """The seat to act, or None while no one is (between rounds, or the game over)."""
        return None if self.is_over or self.round.is_over else self.round.turn

    def legal_actions(self) -> list[Action]:
        """Every action the seat to act may take; empty between rounds and once it is over."""
        return [] if self.is_over else self.round.legal_actions()

    def view(self, seat: int | None) -> PlayerView:
        return self.round.view(seat, scores=self.scores, goals=self.goals)

    def apply(self, action: Action, *, seat: int | None = None) -> Event:
        """Apply `action` to the current round (for `seat`, if given, which must be the seat
        to act) and score what it settles. Returns the event that happened (see
        `Round.apply`)."""
        if self.is_over:
            raise IllegalAction("game_over")
        if self.round.is_over:
            raise IllegalAction("next_round_pending")
        mover = self.round.turn
        event = self.round.apply(action, seat=seat)
        self.actions.append((self.round_number, mover, event.action))
        if self.rules.pass_points:
            self._credit_pass_points()
        if self.round.is_over and not self.is_over:
            self._finish_round()
        return event

    def _credit_pass_points(self) -> None:
        """C6: ponce pass points enter the score at once; reaching the target ends the game."""
        earned = self.round.pass_points
        gains = [now - before for now, before in zip(earned, self._credited_pass_points, strict=True)]
        if any(gains):
            self._credited_pass_points = list(earned)
            self.winners = self.scorer.credit(self._scoring_rules, self.scores, gains)
            if self.winners:
                self.ended_by = GameEnd.TARGET

    def _finish_round(self) -> None:
        result = self.round.result
        assert result is not None
        self.results.append(result)
        self.winners = self.scorer.settle(self._scoring_rules, self.scores, self.goals, result)
        if self.winners:
            self.ended_by = GameEnd.TARGET
        elif self.rules.hands is not None and len(self.results) >= self.rules.hands:
            self.winners, self.ended_by = self.leaders(), GameEnd.HANDS  # G1: ties share
        else:
            self._decide_on_time()

    def leaders(self) -> list[int]:
        """The teams with the best total: the most points, or the fewest where points count
        against (V8); several when they are level."""
        best = min(self.scores) if self.scorer.points_against else max(self.scores)
        return [team for team, total in enumerate(self.scores) if total == best]

    def call_time(self) -> None:
        """G2: the game's time is up. The hand in play is finished; when it ends, the side
        ahead wins (G3); if the lead is shared, one more hand is played, and another, until a
        hand ends with one side ahead (G4). Called between hands, the game is decided at once
        (or by one more hand). Does nothing once the game is over or time was called."""
        if self.is_over or self.time_called is not None:
            return
        self.time_called = self.round_number
        if self.round.is_over:
            self._decide_on_time()

    def _decide_on_time(self) -> None:
        """G3, G4: at the end of a hand once time was called, a single leader wins."""
        if self.time_called is None:
            return
        leaders = self.leaders()
        if len(leaders) == 1:
            self.winners, self.ended_by = leaders, GameEnd.TIME

    def next_starter(self) -> int:
        """R7, R13, V6–V8, C7: who starts the round after the current one."""
        result = self.round.result
        if result is None:
            raise IllegalAction("round_not_over")
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
            raise IllegalAction("game_over")
        if not self.round.is_over:
            raise IllegalAction("round_not_over")
        self.round = self._deal(first=False, starter=self.next_starter())
        return self.round
