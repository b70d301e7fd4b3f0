"""Seat the PyPI `dominoes` 6.1.0 library's players at our table.

The library plays one round of 4-player pairs with double-six, no boneyard, 6-6 leading,
turns passing to seat + 1, partners facing each other (0 & 2 against 1 & 3), passes when
nothing fits, and scoring as in our `sin-pozo` preset in pairs (dominó: every hand left; tranque:
the lower team takes both teams' pips; a tie scores nothing). So our `Round` referees and, on
their turn, their player gets a `dominoes.Game` built from what that seat may know (their
players read only the board, the moves, their own hand and the pool of other tiles, as they
do in their own Game). `replay_in_dominoes` replays a finished round in their engine and
returns their result, so every benchmark round also checks that the two rule sets agree.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import dominoes
from dominoes import players as their_players

from tranque import Pass, Play, Round, Rules, Side, Tile
from tranque.engine import PassEvent, PlayEvent
from tranque.engine.deal import deal_from_seed

RULES = Rules.preset("sin-pozo", players=4, mode="pairs")

Player = Callable[[dominoes.Game], None]


def opponent(name: str) -> Player:
    """Their players by name. `probabilistic_alphabeta` is set up as the README's figures say: it thinks
    from the 8th move (moves are 0-based, passes count) with 10 sampled deals, and plays
    `bota_gorda` before that (their players compose: each re-sorts the previous preference)."""
    chosen: Player
    if name == "bota_gorda":
        chosen = their_players.bota_gorda
        return chosen
    if name == "random":
        chosen = their_players.random
        return chosen
    if name == "probabilistic_alphabeta":
        thinker = their_players.probabilistic_alphabeta(start_move=7, sample_size=10)

        def composed(game: dominoes.Game) -> None:
            their_players.bota_gorda(game)
            thinker(game)

        return composed
    raise ValueError(f"unknown dominoes player {name!r}")


def domino_of(tile: Tile) -> dominoes.Domino:
    return dominoes.Domino(tile.high, tile.low)


def their_moves(rnd: Round) -> list[Any]:
    """Our public history in their notation: (Domino, left?) per play, None per pass."""
    moves: list[Any] = []
    for event in rnd.events:
        if isinstance(event, PlayEvent):
            moves.append((domino_of(event.tile), event.side is not Side.RIGHT))
        elif isinstance(event, PassEvent):
            moves.append(None)
    return moves


def their_game(rnd: Round) -> dominoes.Game:
    """The position of the seat to act as a `dominoes.Game` (after the lead)."""
    board = dominoes.Board()
    for high, low in rnd.layout:
        board.board.append(dominoes.Domino(high, low))
    hands = [dominoes.Hand([domino_of(t) for t in hand]) for hand in rnd.hands]
    game = dominoes.Game(board, hands, their_moves(rnd), rnd.turn, (), rnd.starter, None)
    game._update_valid_moves()
    return game


def their_choice(player: Player, rnd: Round) -> Play | Pass:
    """What their `player` does for the seat to act in our round."""
    legal = rnd.legal_actions()
    if len(legal) == 1:
        return legal[0]  # type: ignore[return-value]
    game = their_game(rnd)
    player(game)
    domino, left = game.valid_moves[0]
    return Play(Tile(domino.first, domino.second), Side.LEFT if left else Side.RIGHT)


def deal(seed: int) -> Round:
    """The first round of a game of sin-pozo pairs, dealt from `seed` (6-6 leads)."""
    hands, rest = deal_from_seed(RULES, b"bench-deal:%d" % seed)
    return Round.from_masks(RULES, hands, rest, first=True, starter=None)


def replay_in_dominoes(rnd: Round) -> Any:
    """Replay a finished round in their engine; their `Result` (points > 0: team 0 won)."""
    hands = [dominoes.Hand([domino_of(t) for t in hand]) for hand in rnd.dealt_hands]
    game = dominoes.Game(dominoes.Board(), hands, [], rnd.starter, (), rnd.starter, None)
    for move in their_moves(rnd):
        if move is not None:
            game.make_move(*move)
    return game.result


def check_same_result(rnd: Round) -> None:
    """Assert that their engine scores the round exactly as ours does."""
    result = rnd.result
    assert result is not None
    theirs = replay_in_dominoes(rnd)
    ours = result.points[0] - result.points[1]
    if theirs is None or theirs.points != ours:
        raise AssertionError(f"the engines disagree: ours {result}, theirs {theirs}")


def seed_their_randomness(seed: int) -> None:
    """Their players draw from the `random` module: make their choices reproducible."""
    random.seed(seed)
