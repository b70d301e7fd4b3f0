"""Why a flagged move lost: the reasons the post-game analysis gives, each with the lesson of
Aprender that teaches it (docs/analysis.md, "Reasons", states every condition).

Each reason is computed from the mover's `PlayerView` before the move, the move played, the
judge's best move and what the record says happened afterwards, and is given only when its
condition holds:

* `missed_domino`: the best move went out for sure (on every consistent deal, everyone
  playing best, the mover's side made dominó) and the move played did not;
* `missed_winning_tranque`: the best move closed the game at once in a tranque the mover's
  side wins, and the move played did not;
* `closed_partner_number` (pairs): the partner showed a number (led it, or played a tile
  leaving it at an end), has not passed on it since, it showed at an end before the move,
  the move covered the last end showing it and the best move left one;
* `ignored_pass`: an opponent passed (or drew) on a number and the best move left more ends
  it cannot follow than the move played did;
* `left_number_alone`: after the move the mover held a tile that can never be played (no
  end shows its numbers, every other tile with them is on the table) and after the best
  move no tile of the hand was so stranded;
* `kept_heavy_into_tranque`: the best move played a heavy tile (10 pips or more) that the
  mover still held when the round ended in a tranque won by the others.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.bots.base import ends_after
from tranque.bots.knowledge import knowledge_of, numbers
from tranque.engine import Action, Play, PlayerView, PlayEvent, Round, Side
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, WITH_NUMBER, Mask, TileIndex, indices

HEAVY = 10  # pips from which a tile is heavy

LESSONS = {
    "missed_domino": "domino-y-tranque",
    "missed_winning_tranque": "contar-tranque",
    "closed_partner_number": "parejas",
    "ignored_pass": "leer-pases",
    "left_number_alone": "leer-pases",
    "kept_heavy_into_tranque": "contar-tranque",
}


@dataclass(frozen=True)
class Reason:
    kind: str
    params: dict[str, Any]

    @property
    def lesson(self) -> str:
        return LESSONS[self.kind]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "params": dict(self.params), "lesson": self.lesson}


@dataclass(frozen=True)
class RoundEnding:
    """How a round of the record ended: a tranque or not, the winning team (None: a tie or
    unfinished) and every seat's tiles at the end."""

    tranque: bool
    winner: int | None
    hands: tuple[Mask, ...]


def ending_of(round_: Round) -> RoundEnding | None:
    """The ending of a played round, None if it never finished (the game ended mid-round)."""
    result = round_.result
    if result is None:
        return None
    hands = tuple(sum(BIT[t.index] for t in hand) for hand in round_.hands)
    return RoundEnding(result.kind.value == "tranque", result.winner, hands)


def _hand(view: PlayerView) -> Mask:
    hand = 0
    for tile in view.hand:
        hand |= BIT[tile.index]
    return hand


def _after_hand(view: PlayerView, action: Action) -> Mask:
    return _hand(view) & ~BIT[action.tile.index] if isinstance(action, Play) else _hand(view)


def closes_in_winning_tranque(round_: Round, seat: int, action: Action) -> bool:
    """Whether `action` (legal for `seat` in `round_`, the real round) ends it at once in a
    tranque won by `seat`'s side. A tranque right after a play needs every tile that fits an
    end out of the hands (and no pozo), which the mover can tell from its own view."""
    trial = round_.copy()
    trial.apply(action, seat=seat)
    result = trial.result
    return (
        result is not None and result.kind.value == "tranque" and result.winner == round_.rules.team_of(seat)
    )


def stranded(hand: Mask, ends: tuple[int, int] | None, played: Mask, everything: Mask) -> list[TileIndex]:
    """The tiles of `hand` that can never be played: none of their numbers shows at an end
    and every other tile of the set (`everything`) with one of them is on the table (`played`)."""
    if ends is None:
        return []
    found = []
    for tile in indices(hand):
        own = {HIGH[tile], LOW[tile]}
        others = 0
        for number in own:
            others |= WITH_NUMBER[number]
        others &= everything & ~BIT[tile]
        if not own & set(ends) and not others & ~played:
            found.append(tile)
    return found


def shown_by_partner(view: PlayerView, partner: int) -> set[int]:
    """The numbers the partner has shown it holds: the number of the tile it led, and those a
    play of it left at an end where the tile's other half went; less those it passed or drew
    on since."""
    shown: set[int] = set()
    left = right = -1
    for event in view.events:
        if isinstance(event, PlayEvent):
            tile = event.tile.index
            if event.side is None:
                new = (HIGH[tile], LOW[tile])
                if event.seat == partner:
                    shown.update(new)
                left, right = new
                continue
            if event.side is Side.LEFT:
                left = PIPS[tile] - left
                left_shown = left
            else:
                right = PIPS[tile] - right
                left_shown = right
            if event.seat == partner:
                shown.add(left_shown)
        elif event.seat == partner and left >= 0:
            shown.discard(left)
            shown.discard(right)
    return shown


def reasons(
    view: PlayerView,
    played: Action,
    best: Action,
    *,
    round_: Round | None = None,
    ending: RoundEnding | None = None,
    sure_domino: tuple[bool, bool] = (False, False),
) -> list[Reason]:
    """The reasons a flagged move (`played`, judged worse than `best`) lost, each given only
    when its condition holds (the module's docstring). `round_` is the real round before the
    move (for a tranque the best move would have closed), `ending` how the round ended,
    `sure_domino` whether the best and the played move each went out for sure."""
    assert view.seat is not None
    seat = view.seat
    rules = view.rules
    found: list[Reason] = []
    # A draw or a pass leaves the ends as they are.
    after_played = ends_after(view, played) or view.ends
    after_best = ends_after(view, best) or view.ends
    best_tile = best.tile if isinstance(best, Play) else None
    if sure_domino[0] and not sure_domino[1] and best_tile is not None:
        found.append(Reason("missed_domino", {"tile": str(best_tile)}))
    if (
        round_ is not None
        and best_tile is not None
        and closes_in_winning_tranque(round_, seat, best)
        and not closes_in_winning_tranque(round_, seat, played)
    ):
        found.append(Reason("missed_winning_tranque", {"tile": str(best_tile)}))
    partner = rules.partner_of(seat)
    if partner is not None and view.ends is not None and after_played and after_best:
        known = knowledge_of(view)
        for number in sorted(shown_by_partner(view, partner)):
            if (
                not known.lacking[partner] >> number & 1
                and not known.exhausted(number)
                and number in view.ends
                and number not in after_played
                and number in after_best
            ):
                found.append(Reason("closed_partner_number", {"number": number}))
                break
    if view.ends is not None and after_played and after_best:
        known = knowledge_of(view)
        for other in range(rules.players):
            if rules.team_of(other) == rules.team_of(seat):
                continue
            lacking = set(numbers(known.lacking[other]))
            if not lacking:
                continue
            kept = sum(1 for end in after_best if end in lacking)
            left = sum(1 for end in after_played if end in lacking)
            if kept > left:
                number = (
                    next(end for end in after_best if end in lacking and end not in after_played)
                    if any(end in lacking and end not in after_played for end in after_best)
                    else next(end for end in after_best if end in lacking)
                )
                found.append(Reason("ignored_pass", {"number": number, "seat": other}))
                break
    if view.ends is not None:
        known = knowledge_of(view)
        table = known.played
        played_table = table | (BIT[played.tile.index] if isinstance(played, Play) else 0)
        best_table = table | (BIT[best.tile.index] if isinstance(best, Play) else 0)
        every = rules.set_mask
        alone = stranded(_after_hand(view, played), after_played, played_table, every)
        if alone and not stranded(_after_hand(view, best), after_best, best_table, every):
            tile = alone[0]
            found.append(Reason("left_number_alone", {"number": HIGH[tile]}))
    if (
        ending is not None
        and ending.tranque
        and ending.winner is not None
        and ending.winner != rules.team_of(seat)
        and best_tile is not None
        and best_tile.pips >= HEAVY
        and best != played
        and not (isinstance(played, Play) and played.tile == best_tile)
        and ending.hands[seat] & BIT[best_tile.index]
    ):
        found.append(Reason("kept_heavy_into_tranque", {"tile": str(best_tile)}))
    return found
