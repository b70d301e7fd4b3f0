"""The exact solver agrees with plain minimax, and rollouts end rounds the way their policy
says."""

from __future__ import annotations

import pytest

from tests.bots.positions import rounds_with_views
from tranque import Rules
from tranque.bots.search import Solver, blocking_rollout, greedy_rollout
from tranque.bots.values import Valuer
from tranque.engine.bitboard import MOVE_COUNT, RoundState
from tranque.engine.tiles import PIPS

TWO_SIDES = [
    pytest.param("sin-pozo", 4, "pairs", 10, id="sin-pozo-4-pairs"),
    pytest.param("clasico", 2, "individual", 13, id="clasico-2-drawing"),
    pytest.param("ponce", 4, "pairs", 10, id="ponce"),
    pytest.param("maracucho", 4, "pairs", 10, id="maracucho"),
    pytest.param("futbol", 2, "individual", 9, id="futbol"),
]


def minimax(state: RoundState, value: Valuer, maximizing: list[bool]) -> float:
    if state.outcome:
        return value(state)
    scores = []
    for move in state.legal_moves():
        state.push(move)
        scores.append(minimax(state, value, maximizing))
        state.pop()
    return max(scores) if maximizing[state.turn] else min(scores)


@pytest.mark.parametrize(("name", "players", "mode", "tiles_left"), TWO_SIDES)
def test_solver_value_is_the_minimax_value(name: str, players: int, mode: str, tiles_left: int) -> None:
    rules = Rules.preset(name, players=players, mode=mode)
    checked = 0
    for seed in range(10):
        for rnd, view in rounds_with_views(rules, seed=seed, rounds=1):
            if sum(view.hand_counts) + rnd.boneyard_count > tiles_left:
                continue
            assert view.seat is not None
            state = rnd.fast_state()
            value = Valuer(rules, view.seat, view.scores, view.goals)
            maximizing = [rules.team_of(s) == rules.team_of(view.seat) for s in range(players)]
            solver = Solver(value, maximizing, state)
            for move in state.legal_moves():
                state.push(move)
                assert solver.solve(state) == minimax(state, value, maximizing)
                state.pop()
            checked += 1
            break
    assert checked >= 4


def test_solve_moves_gives_each_moves_minimax_value_and_leaves_the_state_whole() -> None:
    rules = Rules.preset("sin-pozo")
    for rnd, view in rounds_with_views(rules, seed=4, rounds=1):
        if sum(view.hand_counts) > 10 or len(view.legal_actions) < 2:
            continue
        assert view.seat is not None
        state = rnd.fast_state()
        before = (state.hands[:], state.left, state.right, state.turn)
        value = Valuer(rules, view.seat, view.scores, view.goals)
        maximizing = [rules.team_of(s) == rules.team_of(view.seat) for s in range(rules.players)]
        moves = state.legal_moves()
        expected = []
        for move in moves:
            state.push(move)
            expected.append(minimax(state, value, maximizing))
            state.pop()
        assert Solver(value, maximizing, state).solve_moves(state, moves) == expected
        assert (state.hands[:], state.left, state.right, state.turn) == before
        return
    raise AssertionError("no position with a choice and ten tiles or fewer")


def test_rollouts_leave_the_state_as_it_was_and_follow_their_policy() -> None:
    rules = Rules.preset("sin-pozo")
    for rnd, view in rounds_with_views(rules, seed=4, rounds=1):
        if len(view.line) != 6:
            continue
        assert view.seat is not None
        state = rnd.fast_state()
        value = Valuer(rules, view.seat, view.scores, view.goals)
        before = (list(state.hands), state.left, state.right, state.turn)
        greedy = greedy_rollout(state, value)
        blocking = blocking_rollout(state, value)
        assert (list(state.hands), state.left, state.right, state.turn) == before
        # Greedy by hand: the heaviest playable tile, first one found on ties.
        copy = state.copy()
        while not copy.outcome:
            moves = copy.legal_moves()
            copy.push(max(moves, key=lambda m: PIPS[m >> 2] if m < MOVE_COUNT else -1))
        assert greedy == value(copy)
        assert isinstance(blocking, float | int)
        return
    raise AssertionError("no position with six tiles on the table")
