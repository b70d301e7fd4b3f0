"""The fast core `RoundState`: push/pop restore the exact state, copies are independent,
and its integer moves are exactly the public `Round.legal_actions`."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.deals import COMBOS, rules_of
from tranque import Draw, Game, Pass, Play, Round, Side, Tile
from tranque.engine import Mode
from tranque.engine.bitboard import DOMINO, DRAW_MOVE, ONGOING, PASS_MOVE, STATE_FIELDS, TRANQUE, RoundState
from tranque.engine.scoring import score_round

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
FAST = settings(max_examples=4, deadline=None, database=None)

# Tile index {h, l} (h >= l) is h*(h+1)/2 + l, inverted here from its definition.
TILE_OF_INDEX = {h * (h + 1) // 2 + lo: Tile(h, lo) for h in range(10) for lo in range(h + 1)}
SIDE_OF_END = {0: None, 1: Side.LEFT, 2: Side.RIGHT}


def decode(move: int) -> Play | Draw | Pass:
    """A move int as the action it stands for: tile_index * 4 + end, then draw, then pass."""
    if move == DRAW_MOVE:
        return Draw()
    if move == PASS_MOVE:
        return Pass()
    assert move % 4 in SIDE_OF_END, f"move {move} has no valid end"
    return Play(TILE_OF_INDEX[move // 4], SIDE_OF_END[move % 4])


def snapshot(state: RoundState) -> dict[str, Any]:
    return {name: copy.deepcopy(getattr(state, name)) for name in STATE_FIELDS}


def a_round(name: str, players: int, mode: Mode, seed: int, later: bool) -> Round:
    """The first round of a seeded game (R6's forced lead where the preset has one), or the
    same deal as a later round led by any tile from a seat the seed picks."""
    rules = rules_of(name, players, mode)
    first = Game(rules, seed=seed).round
    if not later:
        return first
    return Round.deal(rules, first.dealt_hands, first.dealt_boneyard, starter=seed % players)


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
@FAST
@given(seed=SEEDS, policy=SEEDS, later=st.booleans())
def test_push_then_pop_restores_every_slot(
    name: str, players: int, mode: Mode, seed: int, policy: int, later: bool
) -> None:
    state = a_round(name, players, mode, seed, later).fast_state()
    rng = random.Random(policy)
    saved = []
    while state.outcome == ONGOING:
        before = snapshot(state)
        move = rng.choice(state.legal_moves())
        # Making the move without its undo record gives the same state...
        ahead = state.copy()
        ahead.advance(move)
        # ...every single push is undone exactly...
        state.push(move)
        assert {k: v for k, v in snapshot(ahead).items() if k != "history"} == {
            k: v for k, v in snapshot(state).items() if k != "history"
        }
        assert state.pop() == move
        assert snapshot(state) == before
        state.push(move)
        saved.append((move, before))
    assert state.outcome in (DOMINO, TRANQUE)
    assert len(state.legal_moves()) == 0
    # ...and so is the whole round, unwound from the end.
    for move, before in reversed(saved):
        assert state.pop() == move
        assert snapshot(state) == before
    assert state.history == []


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
@FAST
@given(seed=SEEDS, policy=SEEDS, later=st.booleans(), prefix=st.integers(min_value=0, max_value=60))
def test_copy_is_independent_of_the_original(
    name: str, players: int, mode: Mode, seed: int, policy: int, later: bool, prefix: int
) -> None:
    state = a_round(name, players, mode, seed, later).fast_state()
    rng = random.Random(policy)
    for _ in range(prefix):
        if state.outcome != ONGOING:
            break
        state.push(rng.choice(state.legal_moves()))
    original = snapshot(state)
    duplicate = state.copy()
    assert duplicate.history == []
    assert {k: v for k, v in snapshot(duplicate).items() if k != "history"} == {
        k: v for k, v in original.items() if k != "history"
    }
    while duplicate.outcome == ONGOING:
        duplicate.push(rng.choice(duplicate.legal_moves()))
    assert snapshot(state) == original
    # And the other way round: playing on the original leaves the copy alone.
    duplicate = state.copy()
    duplicate_before = snapshot(duplicate)
    while state.outcome == ONGOING:
        state.push(rng.choice(state.legal_moves()))
    assert snapshot(duplicate) == duplicate_before


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
@FAST
@given(seed=SEEDS, policy=SEEDS, later=st.booleans())
def test_legal_moves_map_one_to_one_to_legal_actions(
    name: str, players: int, mode: Mode, seed: int, policy: int, later: bool
) -> None:
    rnd = a_round(name, players, mode, seed, later)
    state = rnd.fast_state()
    rng = random.Random(policy)
    while not rnd.is_over:
        moves = state.legal_moves()
        assert len(moves) == len(set(moves))
        actions = list(rnd.legal_actions())
        assert [decode(m) for m in moves] == actions
        index = rng.randrange(len(moves))
        assert rnd.apply(actions[index]).action == actions[index]
        state.push(moves[index])
        assert state.hands == [sum(1 << t.index for t in hand) for hand in rnd.hands]
        assert state.turn == rnd.turn
        assert (None if state.left < 0 else (state.left, state.right)) == rnd.ends
        assert state.boneyard_count == rnd.boneyard_count
        assert bool(state.outcome) is rnd.is_over
    assert len(state.legal_moves()) == 0 and len(rnd.legal_actions()) == 0
    result = rnd.result
    assert result is not None
    assert state.closer == result.closer
    assert score_round(rnd.rules, state) == result
