"""copy.copy, copy.deepcopy and pickle keep everything observable, in the compiled build too."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from functools import partial

import pytest

from tranque import Game, Round, Rules, Tile
from tranque.engine.state import STATE_FIELDS, RoundState


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
