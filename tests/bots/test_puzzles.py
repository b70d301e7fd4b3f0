"""«¿Qué jugarías?»'s generator (tranque.bots.puzzles): deterministic, every kept puzzle's
best move really beats every other by the margin over every deal consistent with the
player's view (checked here by an independent replay through the engine), and the data a
puzzle keeps holds no tile the player could not see (R17)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from tranque.bots.knowledge import knowledge_of
from tranque.bots.puzzles import (
    MARGIN,
    Collection,
    build,
    choice_key,
    enumerate_deals,
    hand_value,
    solve,
)
from tranque.bots.sampling import state_from_view
from tranque.bots.search import Solver
from tranque.engine import IllegalAction, PlayerView, Round, Rules, Tile, action_from_json
from tranque.engine.round import move_of
from tranque.engine.tiles import BIT, TILES, indices

PAIRS = Collection("parejas", "clasico", 4)


@pytest.fixture(scope="module")
def small_book() -> list[dict[str, Any]]:
    book, figures = build(seed=5, per_collection=3, max_games=6, collections=[PAIRS])
    assert figures["parejas"].kept == len(book) >= 1
    return book


def test_the_same_seed_builds_the_same_puzzles(small_book: list[dict[str, Any]]) -> None:
    again, _ = build(seed=5, per_collection=3, max_games=6, collections=[PAIRS])
    assert again == small_book
    assert [p["id"] for p in small_book] == [f"parejas-{n:03d}" for n in range(1, len(small_book) + 1)]


def public_tiles(puzzle: dict[str, Any]) -> set[str]:
    """Every tile the puzzle's position names."""
    named = set(puzzle["hand"])
    named |= {e["tile"] for e in puzzle["events"] if "tile" in e}
    named |= {a["tile"] for a in puzzle["legal"] if "tile" in a}
    return named


def test_R17_a_puzzle_names_only_the_players_own_tiles_and_the_line(small_book: list[dict[str, Any]]) -> None:
    for puzzle in small_book:
        played = {e["tile"] for e in puzzle["events"] if e["type"] == "play"}
        assert public_tiles(puzzle) <= set(puzzle["hand"]) | played
        assert "hands" not in puzzle and "revealed_hands" not in puzzle
        # the hands of the others are counts only
        assert all(isinstance(n, int) for n in puzzle["hand_counts"])


def replay(rules: Rules, puzzle: dict[str, Any], hands: list[list[str]]) -> PlayerView | None:
    """The solver's view had the others held `hands` now, or None if the public history
    could not have happened so (the engine refuses a move of it)."""
    start = [list(hands[s]) for s in range(rules.players)]
    for event in puzzle["events"]:
        if event["type"] == "play":
            start[event["seat"]].append(event["tile"])
    try:
        rnd = Round.deal(rules, start, starter=puzzle["starter"])
        for event in puzzle["events"]:
            action = action_from_json(
                {"type": event["type"], **{k: event[k] for k in ("tile", "side") if k in event}}
            )
            rnd.apply(action)
    except IllegalAction:
        return None
    return rnd.view(puzzle["seat"])


def consistent_deals(rules: Rules, puzzle: dict[str, Any]) -> list[tuple[PlayerView, list[int]]]:
    """Every assignment of the unseen tiles to the other hands that the engine accepts with
    the public history: brute force, nothing from the generator's own enumeration."""
    seat = puzzle["seat"]
    seen = set(puzzle["hand"]) | {e["tile"] for e in puzzle["events"] if e["type"] == "play"}
    unseen = [str(t) for t in TILES[: len(indices(rules.set_mask))] if str(t) not in seen]
    others = [s for s in range(rules.players) if s != seat]
    views = []

    def assign(index: int, left: list[str], hands: list[list[str]]) -> None:
        if index == len(others):
            view = replay(rules, puzzle, hands)
            if view is not None:
                masks = [sum(BIT[Tile.parse(t).index] for t in hand) for hand in hands]
                views.append((view, masks))
            return
        other = others[index]
        for chosen in itertools.combinations(left, puzzle["hand_counts"][other]):
            hands[other] = list(chosen)
            assign(index + 1, [t for t in left if t not in chosen], hands)
        hands[other] = []

    hands: list[list[str]] = [[] for _ in range(rules.players)]
    hands[seat] = list(puzzle["hand"])
    assign(0, unseen, hands)
    return views


def test_each_exact_puzzle_is_best_by_the_margin_over_every_consistent_deal(
    small_book: list[dict[str, Any]],
) -> None:
    checked = 0
    for puzzle in small_book:
        if not puzzle["answer"]["exact"]:
            continue
        rules = Rules.from_json(puzzle["rules"])
        views = consistent_deals(rules, puzzle)
        assert len(views) == puzzle["answer"]["deals"]
        view = views[0][0]
        # the generator's own enumeration finds exactly the same deals
        known = knowledge_of(view)
        mine = {tuple(hands) for hands, _ in enumerate_deals(known, drawing=False)}
        assert len(mine) == len(views)
        # every move, solved on every deal by the engine's state of that deal
        value = hand_value(rules, puzzle["seat"])
        maximizing = [rules.team_of(s) == rules.team_of(puzzle["seat"]) for s in range(rules.players)]
        totals: dict[tuple[Any, ...], list[float]] = {}
        for deal_view, hands in views:
            assert deal_view.hand == view.hand and deal_view.ends == view.ends
            assert deal_view.legal_actions == view.legal_actions
            state = state_from_view(deal_view, hands, [])
            solver = Solver(value, maximizing, state)
            scores = solver.solve_moves(state, [move_of(a) for a in view.legal_actions])
            for action, score in zip(view.legal_actions, scores, strict=True):
                totals.setdefault(choice_key(view, action), []).append(score)
        means = sorted((sum(v) / len(v), key) for key, v in totals.items())
        best_action = action_from_json(puzzle["answer"]["best"])
        assert means[-1][1] == choice_key(view, best_action)
        assert means[-1][0] - means[-2][0] >= MARGIN
        assert round(means[-1][0], 1) == puzzle["answer"]["choices"][0]["points"]
        checked += 1
    assert checked >= 1


def test_a_sampled_puzzles_answer_holds_on_other_deals() -> None:
    """Double-nine positions are judged on a uniform sample of the deals: solved again on 400
    other deals, the kept answer is still the best, by a clear gap."""
    from tranque.bots import make_bot
    from tranque.bots.analysis import positions
    from tranque.bots.arena import play_out
    from tranque.bots.puzzles import choices, clearly_best
    from tranque.engine import Game

    rules = Collection("doble-nueve", "sin-pozo", 4, set_max=9).rules()
    checked = 0
    for game_seed in range(1, 6):
        game = play_out(Game(rules, seed=game_seed), [make_bot("heuristic", seed=s) for s in range(4)])
        for _, number, view, _ in positions(game):
            if len(view.legal_actions) < 2:
                continue
            solution = solve(view, seed=number)
            if solution is None or solution.exact:
                continue
            ranked = choices(view, solution)
            if not clearly_best(solution, ranked, MARGIN):
                continue
            again = solve(view, seed=number + 10_000, samples=400)
            assert again is not None and not again.exact and again.deals == 400
            other = choices(view, again)
            assert choice_key(view, other[0].actions[0]) == choice_key(view, ranked[0].actions[0])
            assert other[0].worth - other[1].worth >= MARGIN / 2
            checked += 1
        if checked >= 2:
            break
    assert checked >= 1
