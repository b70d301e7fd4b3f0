"""Helpers for engine tests: explicit deals, action scripts and state snapshots.

A test writes only the tiles it cares about; `complete_deal` puts the rest of the set
somewhere deterministic, so the deal is still the whole set (C9) and reads short:

>>> from tranque import Rules
>>> rules = Rules.preset("clasico", players=2, mode="individual")
>>> deal = complete_deal(rules, ["6-6 6-5", ""], boneyard="4-4")
>>> [len(hand) for hand in deal.hands], len(deal.boneyard), str(deal.boneyard[0])
([7, 7], 14, '4-4')
>>> " ".join(str(t) for t in deal.hands[1])
'2-2 3-0 3-1 3-2 3-3 4-0 4-1'

A deal unpacks into `Round.deal(rules, *deal, first=True)` and is an item of
`Game(rules, deals=[...])`. Scripts name actions the way a person reads them, and
`played_round` deals a round and plays a script on it in one go:

>>> from tranque import Round
>>> rnd = Round.deal(rules, *deal, first=True)
>>> [str(action) for action in run(rnd, "6-6 draw*2")]
['6-6', 'robar', 'robar']
>>> rnd.turn, rnd.boneyard_count
(1, 12)
>>> played_round(rules, deal, "6-6 draw*2").boneyard_count
12

`COMBOS` parametrizes a test over every seating of every preset (`rules_of` makes its
rules); `play_randomly` and `finish_round` play seeded random legal actions, and
`assert_same_game` checks that two games (one replayed or reloaded) are the same game.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Collection, Sequence
from typing import Any, NamedTuple

import pytest

from tranque import Game, Round, Rules, Tile
from tranque.engine import Action, Mode, RoundResult
from tranque.engine.presets import PRESETS
from tranque.engine.record import to_record

TileList = Sequence[Tile | str] | str

# Every seating of every preset: parametrize ("name", "players", "mode") with it.
COMBOS = [
    pytest.param(name, players, mode, id=f"{name}-{players}-{mode.value}")
    for name, preset in PRESETS.items()
    for players, modes in sorted(preset.seatings.items())
    for mode in modes
]


def rules_of(name: str, players: int, mode: Mode | str) -> Rules:
    """The rules of one of `COMBOS`."""
    return Rules.preset(name, players=players, mode=mode)


class Deal(NamedTuple):
    """Every seat's hand and the boneyard in drawing order (`boneyard[0]` is drawn first)."""

    hands: list[list[Tile]]
    boneyard: list[Tile]

    def rotated(self, steps: int) -> Deal:
        """The same deal with seat s's hand given to seat (s + steps) mod n."""
        n = len(self.hands)
        return Deal([self.hands[(seat - steps) % n] for seat in range(n)], self.boneyard)


def tiles(value: TileList) -> list[Tile]:
    """Tiles from a space-separated string (``"6-6 6-5"``) or a sequence of tiles/strings."""
    items = value.split() if isinstance(value, str) else value
    return [item if isinstance(item, Tile) else Tile.parse(item) for item in items]


def pips(value: TileList) -> int:
    """The pips of some tiles."""
    return sum(tile.pips for tile in tiles(value))


def complete_deal(
    rules: Rules,
    hands: Sequence[TileList | None],
    boneyard: TileList = (),
    *,
    avoid: Collection[int] = (),
) -> Deal:
    """A whole deal from the tiles a test cares about.

    `hands` has an entry per seat, from seat 0: the tiles that seat must hold (fewer than
    `hand_size`, or None, is fine; seats past the end of `hands` start empty). `boneyard`
    gives the first tiles to be drawn, in order. Short hands are then filled seat by seat
    with the lowest unused tiles in canonical order (0-0, 1-0, 1-1, 2-0, …), skipping tiles
    that show a number in `avoid`; every tile left over goes to the end of the boneyard in
    canonical order. Raises ValueError if the hands cannot be filled that way. The result
    is not validated: hand it to the engine for that.
    """
    if len(hands) > rules.players:
        raise ValueError(f"{len(hands)} hands for {rules.players} players")
    chosen = [tiles(hand or ()) for hand in hands] + [[] for _ in range(rules.players - len(hands))]
    head = tiles(boneyard)
    used = {tile for hand in chosen for tile in hand} | set(head)
    spare = [tile for tile in Tile.full_set(rules.set_max) if tile not in used]
    for seat, hand in enumerate(chosen):
        fillers = [t for t in spare if t.high not in avoid and t.low not in avoid]
        missing = rules.hand_size - len(hand)
        if missing > len(fillers):
            raise ValueError(f"not enough tiles to fill hand {seat} avoiding {sorted(avoid)}")
        for tile in fillers[: max(missing, 0)]:
            hand.append(tile)
            spare.remove(tile)
    return Deal(chosen, head + spare)


def run(target: Round | Game, script: str) -> list[Action]:
    """Apply a space-separated script of actions in the engine's notation (`Action.parse`;
    ``"draw*3"`` repeats) to a round or a game and return the actions as applied."""
    applied = []
    for token in script.split():
        word, _, times = token.partition("*")
        for _ in range(int(times or 1)):
            applied.append(target.apply(Action.parse(word)).action)
    return applied


def played_round(
    rules: Rules,
    deal: tuple[Sequence[Sequence[Tile | str]], Sequence[Tile | str]],
    script: str = "",
    *,
    starter: int | None = None,
) -> Round:
    """The round of `deal` (the game's first, or led by `starter`) with `script` played on it."""
    if starter is None:
        rnd = Round.deal(rules, *deal, first=True)
    else:
        rnd = Round.deal(rules, *deal, starter=starter)
    run(rnd, script)
    return rnd


def result_of(rnd: Round) -> RoundResult:
    """The result of a round that must be over."""
    result = rnd.result
    assert result is not None, "the round is not over"
    return result


def finish_round(game: Game, rng: random.Random) -> Game:
    """`game` with its current round played to the end by random legal actions."""
    while not game.round.is_over:
        game.apply(rng.choice(game.round.legal_actions()))
    return game


def play_randomly(game: Game, rng: random.Random, steps: int | None = None) -> Game:
    """`game` played by random legal actions, starting each next round, to its end or for
    `steps` steps (an action or a round's start each)."""
    taken = 0
    while not game.is_over and (steps is None or taken < steps):
        if game.round.is_over:
            game.start_next_round()
        else:
            game.apply(rng.choice(game.round.legal_actions()))
        taken += 1
    return game


def without_seeds(record: dict[str, Any]) -> dict[str, Any]:
    """A game record without its rounds' seeds (a game rebuilt from explicit deals has none)."""
    stripped = copy.deepcopy(record)
    for round_data in stripped["rounds"]:
        round_data.pop("seed")
    return stripped


def assert_same_game(one: Game, two: Game) -> None:
    """`two` (replayed, reloaded or played alongside) is the same game as `one`: totals,
    results, the current round seen by the referee and by every seat, and the record but for
    the rounds' seeds."""
    assert two.scores == one.scores
    assert two.goals == one.goals
    assert two.winners == one.winners
    assert [r.to_json() for r in two.results] == [r.to_json() for r in one.results]
    assert two.round_number == one.round_number
    assert two.round.hands == one.round.hands
    assert two.round.line == one.round.line
    assert two.round.layout == one.round.layout
    assert two.round.boneyard == one.round.boneyard
    assert two.round.full_events == one.round.full_events
    assert two.round.turn == one.round.turn
    for seat in [None, *range(one.rules.players)]:
        assert two.view(seat).to_json() == one.view(seat).to_json()
    assert without_seeds(to_record(two)) == without_seeds(to_record(one))


def snapshot(rnd: Round) -> dict[str, Any]:
    """Everything observable about a round, referee's view included, to show that a refused
    action changed nothing."""
    return {
        "hands": rnd.hands,
        "boneyard": rnd.boneyard,
        "line": rnd.line,
        "layout": rnd.layout,
        "ends": rnd.ends,
        "turn": rnd.turn,
        "events": rnd.full_events,
        "legal_actions": rnd.legal_actions(),
        "is_over": rnd.is_over,
        "views": [rnd.view(seat) for seat in [*range(rnd.rules.players), None]],
    }
