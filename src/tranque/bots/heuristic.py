"""The `heuristic` level: the common Caribbean advice (docs/strategy.md), as a score for each play.

* heavy tiles first (fewer pips to count if the round blocks);
* remember who passed on which numbers, and which numbers are exhausted;
* in pairs, do not cover a number your partner showed, play to the partner's numbers, and do
  not leave ends the partner lacks;
* keep numbers you can follow with, and avoid being left with one number;
* do not carry doubles to the end;
* choose the end that hurts the opponents: ends they cannot follow make them pass;
* block the round (tranque) only when the count favours your team.
"""

from __future__ import annotations

from dataclasses import dataclass

from tranque.bots.base import bot_rng, legal_choices
from tranque.bots.knowledge import TILE_NUMBERS, Knowledge, knowledge_of, tiles_without
from tranque.engine import Action, Play, PlayerView, PlayEvent, Side, TranqueCount
from tranque.engine.tiles import HIGH, IS_DOUBLE, LOW, PIPS, WITH_NUMBER, Mask, indices, mask_pips


@dataclass(frozen=True)
class Weights:
    pips: float = 1.0
    double: float = 4.0
    next_passes: float = 9.0
    opponent_passes: float = 4.0
    partner_passes: float = -7.0
    partner_number: float = 3.0
    cover_partner: float = -4.0
    follow: float = 2.5  # per own tile (up to two) that fits the new ends
    stuck: float = -6.0  # no own tile fits the new ends
    variety: float = 1.0  # per distinct number left in hand
    lead_strength: float = 2.0  # per other own tile sharing a number with the lead
    tranque: float = 30.0  # blocking: + if our count should win, - if not


class HeuristicBot:
    """Scores every legal play with that advice and plays the best (ties at random)."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, weights: Weights | None = None) -> None:
        self._rng = bot_rng(seed)
        self.weights = weights or Weights()

    def choose(self, view: PlayerView) -> Action:
        """The legal action the weighted advice scores highest, ties at random."""
        actions = legal_choices(view)
        if len(actions) == 1:
            return actions[0]
        known = knowledge_of(view)
        table = Advice(view, known)
        scored = [(table.score(action, self.weights), action) for action in actions]
        best = max(score for score, _ in scored)
        return self._rng.choice([a for score, a in scored if score >= best - 1e-9])


class Advice:
    """The advice for one position: the facts every candidate play is scored against
    (`score`: higher is better)."""

    def __init__(self, view: PlayerView, known: Knowledge) -> None:
        assert view.seat is not None
        self.view = view
        self.known = known
        self.seat = view.seat
        rules = view.rules
        self.players = rules.players
        self.partner = rules.partner_of(self.seat)
        self.opponents = [s for s in range(self.players) if rules.team_of(s) != rules.team_of(self.seat)]
        self.lacking = known.lacking
        # What each other seat might hold: unseen tiles showing none of the numbers it lacks.
        self.possible = {
            s: tiles_without(self.lacking[s], known.unseen) if known.hand_counts[s] else 0
            for s in range(self.players)
            if s != self.seat
        }
        self.partner_numbers = self._partner_numbers()

    def _partner_numbers(self) -> int:
        """Numbers the partner led with or left showing at an end: the partner's strength."""
        if self.partner is None:
            return 0
        shown = 0
        left = right = -1
        for event in self.view.events:
            if not isinstance(event, PlayEvent):
                continue
            tile = event.tile.index
            if event.side is None:
                left, right = HIGH[tile], LOW[tile]
                new = TILE_NUMBERS[tile]
            elif event.side is Side.LEFT:
                left = PIPS[tile] - left
                new = 1 << left
            else:
                right = PIPS[tile] - right
                new = 1 << right
            if event.seat == self.partner:
                shown |= new
        return shown & ~self.lacking[self.partner]

    def score(self, action: Action, w: Weights) -> float:
        if not isinstance(action, Play):
            return 0.0
        tile = action.tile.index
        hand = self.known.own & ~(1 << tile)
        if not hand:
            return 1e6  # dominó
        ends = self.view.ends
        if ends is None:
            left, right = HIGH[tile], LOW[tile]
            covered = -1
        elif action.side is Side.RIGHT:
            left, right = ends[0], PIPS[tile] - ends[1]
            covered = ends[1]
        else:
            left, right = PIPS[tile] - ends[0], ends[1]
            covered = ends[0]
        fits = WITH_NUMBER[left] | WITH_NUMBER[right]
        value = w.pips * PIPS[tile]
        if IS_DOUBLE[tile]:
            value += w.double
        value += self._hurt(fits, w)
        own_follow = (hand & fits).bit_count()
        value += w.follow * min(own_follow, 2) if own_follow else w.stuck
        value += w.variety * _distinct_numbers(hand)
        if ends is None:
            value += w.lead_strength * (hand & (WITH_NUMBER[left] | WITH_NUMBER[right])).bit_count()
        if self.partner is not None:
            if self.partner_numbers & ((1 << left) | (1 << right)):
                value += w.partner_number
            if covered >= 0 and self.partner_numbers >> covered & 1 and left != right:
                value += w.cover_partner
        if not (self.known.unseen | hand) & fits:
            value += w.tranque * self._tranque_outlook(hand)
        return value

    def _hurt(self, fits: Mask, w: Weights) -> float:
        """Opponents who surely cannot follow the new ends (the next one most), and the partner."""
        value = 0.0
        for step in range(1, self.players):
            seat = (self.seat + step) % self.players
            if seat == self.seat or not self.known.hand_counts[seat]:
                continue
            blocked = not self.possible[seat] & fits
            if seat == self.partner:
                if blocked:
                    value += w.partner_passes
            elif blocked:
                value += w.next_passes if step == 1 else w.opponent_passes
        return value

    def _tranque_outlook(self, hand: Mask) -> float:
        """+1 if our team should win the blocked round on the count, -1 if not, between if unsure."""
        known = self.known
        unseen = indices(known.unseen)
        average = sum(PIPS[t] for t in unseen) / len(unseen) if unseen else 0.0
        expected = [average * known.hand_counts[s] for s in range(self.players)]
        expected[self.seat] = mask_pips(hand)
        rules = self.view.rules
        if self.partner is not None and rules.tranque_count is TranqueCount.INDIVIDUAL:
            # Maracucho, ponce: the single lowest hand wins for its team.
            ours = min(expected[self.seat], expected[self.partner])
            theirs = min(expected[s] for s in self.opponents)
        elif self.partner is not None:
            ours = expected[self.seat] + expected[self.partner]
            theirs = min(
                sum(expected[s] for s in rules.seats_of(team))
                for team in range(rules.team_count)
                if team != rules.team_of(self.seat)
            )
        else:
            ours = expected[self.seat]
            theirs = min(expected[s] for s in range(self.players) if s != self.seat)
        spread = max(ours, theirs, 1.0)
        return max(-1.0, min(1.0, (theirs - ours) / spread * 3))


def _distinct_numbers(hand: Mask) -> int:
    shown = 0
    for tile in indices(hand):
        shown |= TILE_NUMBERS[tile]
    return shown.bit_count()
