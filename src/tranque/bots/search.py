"""Perfect-information play of one determinization: fast rollouts and an exact solver.

Both walk the engine's `RoundState` with `push`/`pop`. Values are for one team (a `Valuer`):
the solver is a minimax with alpha-beta pruning and a transposition table, for two teams
(pairs of partners, or two players), where one team's gain is the other's loss.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tranque.engine.bitboard import MOVE_COUNT, Move, RoundState
from tranque.engine.tiles import HIGH, LOW, PIPS, WITH_NUMBER

Value = Callable[[RoundState], float]
Rollout = Callable[[RoundState, Value], float]


def heaviest(moves: tuple[Move, ...]) -> Move:
    """The play of the tile with most pips (the first such), or the only move there is."""
    best = moves[0]
    if len(moves) > 1 and best < MOVE_COUNT:
        best_pips = PIPS[best >> 2]
        for move in moves:
            if PIPS[move >> 2] > best_pips:
                best, best_pips = move, PIPS[move >> 2]
    return best


def greedy_rollout(state: RoundState, value: Value) -> float:
    """Every player plays its heaviest playable tile until the round ends ("bota gorda")."""
    state = state.copy()
    while not state.outcome:
        state.advance(heaviest(state.legal_moves()))
    return value(state)


def solved_rollout(state: RoundState, value: Value, solver: Solver, tail: int) -> float:
    """Greedy play until `tail` tiles are left in the hands, then the exact value."""
    state = state.copy()
    while not state.outcome and state.in_hands.bit_count() + len(state.boneyard) - state.drawn > tail:
        state.advance(heaviest(state.legal_moves()))
    return solver.solve(state) if not state.outcome else value(state)


def blocking_rollout(state: RoundState, value: Value) -> float:
    """Every player plays the move that leaves the next player unable to follow if there is
    one, the heaviest such; otherwise its heaviest playable tile."""
    state = state.copy()
    players = state.players
    hands = state.hands
    while not state.outcome:
        moves = state.legal_moves()
        best = moves[0]
        if len(moves) > 1 and best < MOVE_COUNT:
            following = hands[(state.turn + 1) % players]
            left = state.left
            right = state.right
            best_score = -1
            for move in moves:
                tile = move >> 2
                end = move & 3
                if end == 1:
                    new_left, new_right = PIPS[tile] - left, right
                elif end == 2:
                    new_left, new_right = left, PIPS[tile] - right
                else:
                    new_left, new_right = HIGH[tile], LOW[tile]
                score = PIPS[tile]
                if not following & (WITH_NUMBER[new_left] | WITH_NUMBER[new_right]):
                    score += BLOCK_BONUS
                if score > best_score:
                    best, best_score = move, score
        state.advance(best)
    return value(state)


BLOCK_BONUS = 10


class SearchAborted(Exception):
    """The solver met its node limit."""


class Solver:
    """Exact minimax value of positions of one determinization, for the team a `Value` scores.

    Two teams only (pairs of partners, or two players): `maximizing[seat]` says whether the seat
    plays for the valued team. Positions are keyed by the tiles still in hands, which
    (within one deal) says who holds what, plus the ends and the turn; where tiles are drawn
    or passes score (ponce) the key also carries the hands, the draws and the pass points.
    """

    def __init__(
        self,
        value: Value,
        maximizing: list[bool],
        state: RoundState,
        node_limit: int = 1 << 62,
        *,
        keep_lines: bool = False,
    ) -> None:
        self.value = value
        self.maximizing = maximizing
        self.table: dict[object, tuple[float, int]] = {}
        # With `keep_lines`, the best move of every position whose value is known exactly,
        # so that `line_end` can follow the best line (the post-game analysis needs it).
        self.best_moves: dict[object, Move] | None = {} if keep_lines else None
        self.nodes = 0
        self.node_limit = node_limit
        self.plain = not state.boneyard and not state.pass_points

    def key(self, state: RoundState) -> object:
        if self.plain:
            return state.in_hands | (state.left + 1) << 64 | state.right << 72 | state.turn << 80
        return (
            *state.hands,
            state.left,
            state.right,
            state.turn,
            state.drawn,
            state.last_player,
            state.pass_bonus_pending,
            state.team_points,
        )

    def solve_moves(self, state: RoundState, moves: Sequence[Move]) -> list[float]:
        """The value after each of `moves` from `state`, which is left as it was (each is
        solved on a copy, so a `SearchAborted` leaves `state` whole too)."""
        values = []
        for move in moves:
            child = state.copy()
            child.push(move)
            values.append(self.solve(child))
        return values

    def solve(self, state: RoundState, alpha: float = -1e18, beta: float = 1e18) -> float:
        """The value of `state`; raises `SearchAborted` past `node_limit` positions (the state
        is then left somewhere inside the search: solve a copy)."""
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchAborted
        key = self.key(state)
        entry = self.table.get(key)
        if entry is not None:
            stored, bound = entry
            if bound == 0:
                return stored
            if bound > 0:
                if stored > alpha:
                    alpha = stored
            elif stored < beta:
                beta = stored
            if alpha >= beta:
                return stored
        if state.outcome:
            result = self.value(state)
            self.table[key] = (result, 0)
            return result
        original_alpha, original_beta = alpha, beta
        moves = state.legal_moves()
        best_move = moves[-1]
        if self.maximizing[state.turn]:
            best = -1e18
            for move in reversed(moves):
                state.push(move)
                score = self.solve(state, alpha, beta)
                state.pop()
                if score > best:
                    best = score
                    best_move = move
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
        else:
            best = 1e18
            for move in reversed(moves):
                state.push(move)
                score = self.solve(state, alpha, beta)
                state.pop()
                if score < best:
                    best = score
                    best_move = move
                    if best < beta:
                        beta = best
                        if alpha >= beta:
                            break
        if best <= original_alpha:
            self.table[key] = (best, -1)  # an upper bound
        elif best >= original_beta:
            self.table[key] = (best, 1)  # a lower bound
        else:
            self.table[key] = (best, 0)
            if self.best_moves is not None:
                self.best_moves[key] = best_move
        return best

    def line_end(self, state: RoundState) -> RoundState:
        """The position where the round ends when everyone plays best from `state` (solved
        first if it was not; `state` is left as it was): each position's move is the one
        its exact value came from, or, where none was kept, the best of its moves solved
        again with a full window."""
        state = state.copy()
        self.solve(state.copy())
        while not state.outcome:
            move = None if self.best_moves is None else self.best_moves.get(self.key(state))
            if move is None:
                moves = state.legal_moves()
                scores = []
                for candidate in moves:
                    state.push(candidate)
                    scores.append(self.solve(state.copy()))
                    state.pop()
                pick = max if self.maximizing[state.turn] else min
                move = moves[scores.index(pick(scores))]
            state.advance(move)
        return state
