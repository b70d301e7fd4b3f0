"""copy.copy, copy.deepcopy and pickle keep everything observable, in the compiled build too."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from functools import partial

import pytest

from tranque import Game, Round, Rules, Tile
from tranque.engine.bitboard import STATE_FIELDS, RoundState


def _objects() -> dict[str, object]:
    """A seeded game with one finished round and one under way, and pieces of it."""
    game = Game(Rules.preset("clasico"), seed=7)
    while not game.round.is_over:
        actions = game.round.legal_actions()
        game.apply(actions[len(actions) // 2])
    finished, result, final_view = game.round, game.round.result, game.view(0)
    game.start_next_round()
    for _ in range(5):
        game.apply(game.round.legal_actions()[-1])
    live = game.round
    return {
        "Tile": Tile(6, 4),
        "Rules": game.rules,
        "RoundResult": result,
        "PlayerView": game.view(live.turn),
        "PlayerView(final)": final_view,
        "Round": live,
        "Round(finished)": finished,
        "RoundState": live._state,
        "Game": game,
    }


def _seen(obj: object) -> object:
    """What can be observed of `obj` (every public attribute, today's or tomorrow's)."""
    if isinstance(obj, RoundState):
        return tuple(getattr(obj, name) for name in STATE_FIELDS)
    if isinstance(obj, Round):
        public = [(n, getattr(obj, n)) for n in dir(obj) if not n.startswith("_")]
        public = [(n, v) for n, v in public if not callable(v)]
        views = [obj.view(seat) for seat in [*range(obj.rules.players), None]]
        return public, obj.legal_actions(), views, _seen(obj._state)
    if isinstance(obj, Game):
        public = [(n, getattr(obj, n)) for n in dir(obj) if not n.startswith("_") and n != "round"]
        public = [(n, v) for n, v in public if not callable(v)]
        return [(n, _seen(v)) for n, v in public if n != "rounds"], [_seen(r) for r in obj.rounds]
    return obj


def _move(obj: object) -> bool:
    if isinstance(obj, Game):
        obj = obj.round
    if isinstance(obj, Round) and not obj.is_over:
        obj.apply(obj.legal_actions()[0])
        return True
    if isinstance(obj, RoundState) and not obj.outcome:
        obj.push(obj.legal_moves()[0])
        return True
    return False


def _pickled(obj: object, protocol: int) -> object:
    return pickle.loads(pickle.dumps(obj, protocol))


HOW: dict[str, Callable[[object], object]] = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    **{f"pickle{p}": partial(_pickled, protocol=p) for p in range(pickle.HIGHEST_PROTOCOL + 1)},
}


@pytest.mark.parametrize("how", list(HOW))
@pytest.mark.parametrize("name", list(_objects()))
def test_a_copy_or_a_pickle_is_the_same_and_independent(name: str, how: str) -> None:
    original = _objects()[name]
    before = _seen(original)
    twin = HOW[how](original)
    assert type(twin) is type(original)
    assert _seen(twin) == before
    if how != "copy" and _move(twin):
        assert _seen(original) == before
        _move(original)
        assert _seen(original) == _seen(twin)


@pytest.mark.parametrize("name", ["Round", "Round(finished)"])
def test_round_copy_is_the_same_and_independent(name: str) -> None:
    """`Round.copy()` (sharing the rules and events) is as good as a deep copy."""
    original = _objects()[name]
    assert isinstance(original, Round)
    before = _seen(original)
    twin = original.copy()
    assert _seen(twin) == before
    assert twin.rules is original.rules
    if _move(twin):
        assert _seen(original) == before
        _move(original)
        assert _seen(original) == _seen(twin)


def test_a_copied_game_keeps_the_shared_scorer_of_its_kind() -> None:
    game = _objects()["Game"]
    assert isinstance(game, Game)
    for twin in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin.scorer is game.scorer


def test_a_game_keeps_its_round_as_its_last_round() -> None:
    game = _objects()["Game"]
    assert isinstance(game, Game)
    for twin in (copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert twin.round is twin.rounds[-1]


def _finished_round_game() -> Game:
    game = _objects()["Game"]
    assert isinstance(game, Game)
    while not game.round.is_over:
        game.apply(game.round.legal_actions()[0])
    return game


def test_game_copy_is_the_same_and_independent() -> None:
    """`Game.copy()` (sharing the rules and the rounds that are over) is as good as a deep copy,
    with a round in play and with the round over (the next deal tried on it)."""
    for original in (_objects()["Game"], _finished_round_game()):
        assert isinstance(original, Game)
        before = _seen(original)
        twin = original.copy()
        assert _seen(twin) == before
        assert twin.rules is original.rules and twin.rounds[0] is original.rounds[0]
        assert twin.round is twin.rounds[-1]
        if twin.round.is_over:
            twin.start_next_round()
            assert _seen(original) == before
            original.start_next_round()
        else:
            _move(twin)
            assert _seen(original) == before
            _move(original)
        assert _seen(original) == _seen(twin)


def test_a_game_copy_deals_its_next_round_from_the_seeds_it_is_given() -> None:
    rules = Rules.preset("clasico")
    seeds = {0: b"first" * 6, 1: b"second" * 5}
    played = Game(rules, seed_for_round=lambda number: seeds[number])
    while not played.round.is_over:
        played.apply(played.round.legal_actions()[0])
    elsewhere = {**seeds, 1: b"other" * 6}
    twin = played.copy(seed_for_round=elsewhere.__getitem__)
    twin.start_next_round()
    played.start_next_round()
    assert twin.round_seeds[-1] == elsewhere[1] and played.round_seeds[-1] == seeds[1]
    assert twin.round.hands != played.round.hands
