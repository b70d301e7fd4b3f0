"""Random-playout speed of the engine, next to the PyPI `dominoes` 6.1.0 library.

    python benchmarks/engine_speed.py [--seconds 1.0] [--runs 7]

Every figure is whole hands (rounds) per second, dealing included, on one core: the best
of several runs (the least disturbed by other work on the machine), the contenders' runs
taken in turn so that such work weighs on all of them alike. Random players pick
`moves[int(random() * len(moves))]` everywhere, so all sides pay the same for chance.

* `dominoes`: Game.new(starting_domino=6-6), then random valid moves until a result. Its
  rules are our `sin-pozo` 4-player pairs round (no drawing, 6-6 leads).
* public API, same rules: shuffle the tiles, Round.deal(first=True), then
  legal_actions()/apply() until is_over, and the result.
* fast path (the bitmask RoundState the bots search with), same rules:
  - random_deal + RoundState + `playout()` (the compiled rollout loop, a few `random()`
    floats per hand: `tranque.engine.chance.SplitFloat`);
  - the same with the loop in Python over legal_moves()/advance();
  - the same with push() and then pop() of every move (how a tree search walks);
* public API and fast path for clasico double-nine with 6 players (pairs, with drawing);
* the memory held by one played Round and by one RoundState.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import tracemalloc
from collections.abc import Callable

import dominoes

import tranque.engine.bitboard
from tranque import Round, Rules, Tile
from tranque.engine.bitboard import RoundState
from tranque.engine.deal import first_lead, random_deal
from tranque.engine.round import state_for

Playout = Callable[[], object]


def run_rate(playout: Playout, seconds: float) -> float:
    """Hands per second of one run of `playout` lasting `seconds`."""
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(20):
            playout()
        count += 20
    return count / (time.perf_counter() - start)


def best_rates(playouts: dict[str, Playout], seconds: float, runs: int) -> dict[str, float]:
    """The fastest of `runs` runs of each playout, the runs taken in turn (one of each, then
    again), so that other work on the machine weighs on every figure alike."""
    best = dict.fromkeys(playouts, 0.0)
    for _ in range(runs):
        for label, playout in playouts.items():
            best[label] = max(best[label], run_rate(playout, seconds))
    return best


def dominoes_hand(rng: random.Random) -> Playout:
    six_six = dominoes.Domino(6, 6)
    random_float = rng.random

    def playout() -> object:
        game = dominoes.Game.new(starting_domino=six_six)
        while game.result is None:
            moves = game.valid_moves
            game.make_move(*moves[int(random_float() * len(moves))])
        return game.result

    return playout


def public_hand(rules: Rules, rng: random.Random) -> Playout:
    tiles = Tile.full_set(rules.set_max)
    size, players = rules.hand_size, rules.players
    random_float = rng.random

    def playout() -> object:
        order = tiles.copy()
        rng.shuffle(order)
        hands = [order[s * size : (s + 1) * size] for s in range(players)]
        rnd = Round.deal(rules, hands, order[players * size :], first=True)
        while not rnd.is_over:
            actions = rnd.legal_actions()
            rnd.apply(actions[int(random_float() * len(actions))])
        return rnd.result

    return playout


def dealt_state(rules: Rules, random_float: Callable[[], float]) -> RoundState:
    hands, boneyard = random_deal(rules, random_float)
    starter, lead = first_lead(hands)
    return state_for(rules, hands, boneyard, starter, forced_lead=lead)


def fast_hand(rules: Rules, rng: random.Random) -> Playout:
    random_float = rng.random

    def playout() -> object:
        state = dealt_state(rules, random_float)
        state.playout(random_float)
        return state.outcome

    return playout


def fast_hand_python_loop(rules: Rules, rng: random.Random) -> Playout:
    random_float = rng.random

    def playout() -> object:
        state = dealt_state(rules, random_float)
        while not state.outcome:
            moves = state.legal_moves()
            state.advance(moves[int(random_float() * len(moves))])
        return state.outcome

    return playout


def fast_hand_with_undo(rules: Rules, rng: random.Random) -> Playout:
    random_float = rng.random

    def playout() -> object:
        state = dealt_state(rules, random_float)
        while not state.outcome:
            moves = state.legal_moves()
            state.push(moves[int(random_float() * len(moves))])
        outcome = state.outcome
        while state.history:
            state.pop()
        return outcome

    return playout


def bytes_per_object(build: Callable[[], object], count: int = 200) -> int:
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept = [build() for _ in range(count)]
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    total = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    assert len(kept) == count
    return total // count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one run")
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (the best is kept)")
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    sin_pozo = Rules.preset("sin-pozo", players=4, mode="pairs")
    double_nine = Rules.preset("clasico", players=6, mode="pairs")
    compiled = tranque.engine.bitboard.__file__.endswith(".so")

    print(
        f"Python {sys.version.split()[0]}, engine {'compiled (mypyc)' if compiled else 'pure Python'}, "
        f"one core, best of {args.runs} runs of {args.seconds} s taken in turn, dealing included",
        flush=True,
    )
    dominoes_label = "dominoes 6.1.0, 4p pairs, no drawing"
    public_label = "public API, sin-pozo 4p pairs"
    fast_label = "fast path, sin-pozo 4p pairs: RoundState.playout"
    loop_label = "fast path, sin-pozo 4p pairs: loop, advance"
    undo_label = "fast path, sin-pozo 4p pairs: loop, push + pop"
    rates = best_rates(
        {
            dominoes_label: dominoes_hand(rng),
            public_label: public_hand(sin_pozo, rng),
            fast_label: fast_hand(sin_pozo, rng),
            loop_label: fast_hand_python_loop(sin_pozo, rng),
            undo_label: fast_hand_with_undo(sin_pozo, rng),
            "public API, clasico double-nine 6p pairs": public_hand(double_nine, rng),
            "fast path, clasico double-nine 6p pairs: RoundState.playout": fast_hand(double_nine, rng),
        },
        args.seconds,
        args.runs,
    )
    for label, hands_per_second in rates.items():
        print(f"{label:<62} {hands_per_second:>10,.0f} hands/s")
    base, public, fast = rates[dominoes_label], rates[public_label], rates[fast_label]
    loop, undo = rates[loop_label], rates[undo_label]
    print(f"public API / dominoes:                 {public / base:5.1f}x   (goal >= 4x)")
    print(f"fast path (playout) / dominoes:        {fast / base:5.1f}x   (goal >= 20x)")
    print(f"fast path (Python loop) / dominoes:    {loop / base:5.1f}x")
    print(f"fast path (push + pop) / dominoes:     {undo / base:5.1f}x")

    def played_round() -> Round:
        tiles = Tile.full_set(6)
        rng.shuffle(tiles)
        rnd = Round.deal(sin_pozo, [tiles[s * 7 : (s + 1) * 7] for s in range(4)], [], first=True)
        while not rnd.is_over:
            rnd.apply(rng.choice(rnd.legal_actions()))
        return rnd

    round_bytes = bytes_per_object(played_round)
    state_bytes = bytes_per_object(lambda: dealt_state(sin_pozo, rng.random))
    print(f"memory: one played Round ~{round_bytes:,} bytes; one RoundState ~{state_bytes:,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
