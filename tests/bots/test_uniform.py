"""The judge's uniform reading of the hidden tiles (tranque.bots.uniform): every consistent
deal, each history equally likely, and the exact worth over them."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.analysis import evaluate, positions
from tranque.bots.arena import play_out
from tranque.bots.knowledge import Knowledge, knowledge_of, tiles_without
from tranque.bots.sampling import state_from_view
from tranque.bots.search import Solver
from tranque.bots.uniform import consistent_deals, read, solvable, valuer_of
from tranque.engine import PlayerView
from tranque.engine.round import move_of
from tranque.engine.tiles import BIT, indices

PAIRS = Rules.preset("clasico", target=50)


def late_views(rules: Rules, seeds: range) -> Iterator[PlayerView]:
    for seed in seeds:
        game = play_out(
            Game(rules, seed=seed), [make_bot("random", seed=seed * 8 + s) for s in range(rules.players)]
        )
        for _, _, view, _ in positions(game):
            if len(view.legal_actions) > 1 and solvable(view):
                yield view


def brute_force(known: Knowledge) -> dict[tuple[int, ...], int]:
    """Every assignment of the unseen tiles to the other seats' slots (each slot a tile it
    may hold), counted by the hands it makes: the histories of each deal."""
    places = [
        (seat, tiles_without(mask, known.unseen)) for seat, slots in enumerate(known.slots) for mask in slots
    ]
    tiles = indices(known.unseen)
    counts: dict[tuple[int, ...], int] = {}
    for chosen in itertools.permutations(tiles, len(places)):
        if all(BIT[tile] & allowed for tile, (_, allowed) in zip(chosen, places, strict=True)):
            hands = [0] * known.players
            for tile, (seat, _) in zip(chosen, places, strict=True):
                hands[seat] |= BIT[tile]
            key = tuple(hands)
            counts[key] = counts.get(key, 0) + 1
    return counts


def test_every_consistent_deal_is_listed_with_the_histories_it_stands_for() -> None:
    checked = 0
    for view in late_views(PAIRS, range(6)):
        known = knowledge_of(view)
        if known.unseen.bit_count() > 7:
            continue
        deals = consistent_deals(known, 10_000)
        assert deals is not None
        listed = {}
        for (hands, _), weight in deals:
            others = [0 if seat == known.seat else hand for seat, hand in enumerate(hands)]
            listed[tuple(others)] = weight
        assert listed == brute_force(known)
        checked += 1
    assert checked >= 5


def test_too_many_deals_are_refused_rather_than_listed_in_part() -> None:
    view = next(v for v in late_views(PAIRS, range(6)) if knowledge_of(v).unseen.bit_count() >= 8)
    assert consistent_deals(knowledge_of(view), 3) is None


def test_with_every_deal_listed_the_worth_is_the_exact_mean_of_the_solved_deals() -> None:
    view = next(v for v in late_views(PAIRS, range(6)) if 4 <= knowledge_of(v).unseen.bit_count() <= 6)
    known = knowledge_of(view)
    worths = read(view, 10, 500, random.Random(0))
    assert worths.exact and worths.complete
    deals = consistent_deals(known, 500)
    assert deals is not None
    value = valuer_of(view)
    rules = view.rules
    assert view.seat is not None
    maximizing = [rules.team_of(s) == rules.team_of(view.seat) for s in range(rules.players)]
    moves = [move_of(a) for a in worths.actions]
    totals = [0.0] * len(moves)
    weight = 0
    for (hands, rest), times in deals:
        state = state_from_view(view, hands, rest)
        for index, score in enumerate(Solver(value, maximizing, state).solve_moves(state, moves)):
            totals[index] += times * score
        weight += times
    assert [round(w, 6) for w in worths.worth] == [round(t / weight, 6) for t in totals]


def test_the_judge_reads_no_model_of_how_the_others_play() -> None:
    """The judge's worths are the uniform reading's (with every deal listed: no weighing by
    how the others chose); the expert's weighted reading is kept apart, as the model."""
    view = next(v for v in late_views(PAIRS, range(6)) if knowledge_of(v).unseen.bit_count() <= 6)
    judged = evaluate(view, deals=2000, seed=4)
    uniform = read(view, 2000, 200, random.Random(4))
    assert judged.worth == uniform.worth and judged.complete
    assert judged.model is not None and judged.model.actions == judged.actions
