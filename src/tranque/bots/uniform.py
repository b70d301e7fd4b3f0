"""The judge's reading of the hidden tiles: every deal consistent with what a seat has seen,
equally likely, and what each legal action is worth over them.

The `expert` weighs deals by a model of the other players (opponents play heavy first, the
partner keeps the expert's convention: `sampling.ChoiceModel`). That serves it well in play,
but a post-game judge that leans on it condemns moves that are only bad if the others play
as the model says. The judge reads the deals *uniformly*: a deal is the tiles each other
seat was dealt and drew (in the order it drew them: `knowledge.Knowledge.slots`) and the
pozo's order where tiles are still drawn, and every deal that fits the hand counts, the
passes, the draws and the public history is as likely as every other. Nothing about how
anyone chooses among legal plays is assumed.

`read` gives each legal action its expected *worth* (the expert's `Valuer`: the round's
points for the mover's side against the others, plus what winning the round and the game
adds) and its expected *points* (the hand's points alone, `hand_points`), both over

* every consistent deal, when few enough (`consistent_deals` enumerates them, each with the
  number of histories it stands for) and few tiles are left (two sides): each solved
  exactly to the end of the round, everyone playing best for their side from there, the
  points read at the end of that best line (`Solver.line_end`). This is the exact answer;
* otherwise deals drawn uniformly (`sampling.DealSampler` without assumptions), solved
  exactly late in a round (two sides) or rolled out ("bota gorda") earlier.

`read(..., model=True)` is the expert's own weighted reading instead (the same sampler and
`ChoiceModel` the expert uses): the analysis shows it only as a labelled note.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tranque.bots.base import legal_choices
from tranque.bots.expert import PROPOSAL_SLACK, Budget, others_model, weighted_deals
from tranque.bots.knowledge import TILE_NUMBERS, Knowledge, knowledge_of
from tranque.bots.sampling import Deal, DealSampler, state_from_view
from tranque.bots.search import SearchAborted, Solver, heaviest
from tranque.bots.values import Valuer
from tranque.engine import Action, PlayerView, Rules
from tranque.engine.bitboard import DOMINO, RoundState
from tranque.engine.round import move_of
from tranque.engine.tiles import BIT, Mask, TileIndex, indices

EXACT_TILES = Budget().exact_tiles  # solve exactly once this few tiles remain (two sides)
ROUND_BONUS = Budget().round_bonus  # what winning the round adds, as a share of the target


@dataclass(frozen=True)
class Worths:
    """Each legal action (in `view.legal_actions` order) with its expected worth and hand
    points; `deals` deals weighed, `exact` solved to the round's end, `complete` every
    consistent deal weighed (with `exact`: the exact answer)."""

    actions: tuple[Action, ...]
    worth: tuple[float, ...]
    points: tuple[float, ...]
    deals: int
    exact: bool
    complete: bool
    domino: tuple[float, ...] = ()  # the share of deals whose line ends in the mover's side's dominó


def hand_points(value: Valuer, state: RoundState) -> float:
    """The points of the finished round in `state` for the valuer's side against the others
    (their average with more than two sides): palitos in ponce, a fútbol goal counted as
    target / goals to win points; penalties count against. No bonus for winning anything."""
    points, goals, _ = value.scorer.round_points(value.rules, state)
    gains = [p + value.goal_worth * g for p, g in zip(points, goals, strict=True)]
    if value.scorer.points_against:
        gains = [-g for g in gains]
    others = [g for team, g in enumerate(gains) if team != value.team]
    return gains[value.team] - sum(others) / len(others)


def valuer_of(view: PlayerView) -> Valuer:
    """The expert's valuer for the seat to act in `view`."""
    assert view.seat is not None
    rules = view.rules
    return Valuer(
        rules,
        view.seat,
        view.scores,
        view.goals,
        ROUND_BONUS * rules.target,
        round_pass_points=view.round_pass_points,
    )


def solvable(view: PlayerView) -> bool:
    """Whether the deals of `view` are solved exactly rather than rolled out: two sides and
    few tiles left (the expert's own line)."""
    return view.rules.team_count == 2 and sum(view.hand_counts) + view.boneyard_count <= EXACT_TILES


def _matchings(hand: Mask, slots: Sequence[Mask]) -> int:
    """In how many ways the tiles of `hand` fill a seat's `slots` (each slot the tiles it
    may hold; nested, as `Knowledge.slots` are): the histories this hand stands for."""
    ways = 1
    for placed, allowed in enumerate(sorted(slots, key=lambda mask: mask.bit_count())):
        ways *= (hand & allowed).bit_count() - placed
        if ways <= 0:
            return 0
    return ways


def _slot_tiles(known: Knowledge) -> list[list[Mask]]:
    """Per seat, each slot's tiles (the unseen tiles showing none of the numbers it lacks)."""
    result: list[list[Mask]] = []
    for seat_slots in known.slots:
        masks = []
        for lacking in seat_slots:
            allowed = 0
            for tile in indices(known.unseen):
                if not TILE_NUMBERS[tile] & lacking:
                    allowed |= BIT[tile]
            masks.append(allowed)
        result.append(masks)
    return result


class TooMany(Exception):
    """More consistent deals than the limit."""


def consistent_deals(known: Knowledge, limit: int) -> list[tuple[Deal, int]] | None:
    """Every deal of the unseen tiles that fits `known`, with the number of histories
    (orders in which each seat got its tiles) it stands for: its weight, all histories
    being equally likely. Where tiles are still drawn, every order of the pozo is a deal of
    its own. None when there are more than `limit` (histories not counted)."""
    seats = [seat for seat in range(known.players) if seat != known.seat]
    slot_tiles = _slot_tiles(known)
    draws = known.boneyard_count > 0
    found: list[tuple[Deal, int]] = []

    def place(position: int, left: Mask, hands: list[Mask], weight: int) -> None:
        if position == len(seats):
            rest = indices(left)
            orders: Iterator[tuple[TileIndex, ...]] = (
                itertools.permutations(rest) if draws and len(rest) > 1 else iter([tuple(rest)])
            )
            for order in orders:
                if len(found) >= limit:
                    raise TooMany
                found.append(((list(hands), list(order)), weight))
            return
        seat = seats[position]
        slots = slot_tiles[seat]
        possible = 0
        for mask in slots:
            possible |= mask
        for combo in itertools.combinations(indices(possible & left), len(slots)):
            hand = 0
            for tile in combo:
                hand |= BIT[tile]
            ways = _matchings(hand, slots)
            if ways:
                hands[seat] = hand
                place(position + 1, left & ~hand, hands, weight * ways)
        hands[seat] = 0

    hands = [0] * known.players
    hands[known.seat] = known.own
    if draws and math.factorial(known.hidden_count) > limit:  # the pozo's orders alone
        return None
    try:
        place(0, known.unseen, hands, 1)
    except TooMany:
        return None
    return found


def read(
    view: PlayerView,
    deals: int,
    exact_deals: int,
    rng: random.Random,
    *,
    model: bool = False,
    exact_nodes: int | None = None,
) -> Worths:
    """Each legal action's expected worth and points from `view` (the seat to act): the
    uniform reading (the module's docstring), or the expert's weighted one with `model`.
    `deals` deals are rolled out early in a round; late in it (`solvable`) every consistent
    deal is solved if there are at most `exact_deals` of them, else `exact_deals` drawn ones.
    `exact_nodes` (default 25,000 per exact deal) caps the solver: past it the rest are
    rolled out."""
    actions = legal_choices(view)
    moves = [move_of(a) for a in actions]
    known = knowledge_of(view)
    value = valuer_of(view)
    rules = view.rules
    exact = solvable(view)
    complete = False
    weighed: list[tuple[Deal, int]] | None = None
    if exact and not model:
        weighed = consistent_deals(known, exact_deals)
        complete = weighed is not None
    if weighed is None:
        weighed = _drawn(view, known, exact_deals if exact else deals, rng, model)
    maximizing = [rules.team_of(s) == rules.team_of(known.seat) for s in range(rules.players)]
    nodes_left = (exact_nodes if exact_nodes is not None else 25_000 * exact_deals) if exact else 0
    worth = [0.0] * len(moves)
    points = [0.0] * len(moves)
    domino = [0.0] * len(moves)
    team = rules.team_of(known.seat)
    total = 0
    for (hands, rest), times in weighed:
        state = state_from_view(view, hands, rest)
        ends: list[RoundState] | None = None
        if exact:
            solver = Solver(value, maximizing, state, node_limit=max(1, nodes_left), keep_lines=True)
            try:
                ends = []
                for move in moves:
                    child = state.copy()
                    child.push(move)
                    ends.append(solver.line_end(child))
            except SearchAborted:
                exact = complete = False  # too big to solve: roll out the rest
                ends = None
            nodes_left -= solver.nodes
        if ends is None:
            ends = []
            for move in moves:
                child = state.copy()
                child.push(move)
                ends.append(_rolled_out(child))
        for index, end in enumerate(ends):
            worth[index] += times * value(end)
            points[index] += times * hand_points(value, end)
            if end.outcome == DOMINO and rules.team_of(end.closer) == team:
                domino[index] += times
        total += times
    return Worths(
        actions,
        tuple(w / total for w in worth),
        tuple(p / total for p in points),
        len(weighed),
        exact,
        complete,
        tuple(d / total for d in domino),
    )


def _rolled_out(state: RoundState) -> RoundState:
    """The end of the round from `state` with everyone playing heaviest first (as
    `search.greedy_rollout` plays it)."""
    end = state.copy()
    while not end.outcome:
        end.advance(heaviest(end.legal_moves()))
    return end


def _drawn(
    view: PlayerView, known: Knowledge, count: int, rng: random.Random, model: bool
) -> list[tuple[Deal, int]]:
    """`count` deals drawn uniformly among the consistent ones, or, with `model`, as the
    expert draws and weighs them (its default `Budget`'s model of the others)."""
    if not model:
        sampler = DealSampler(known, rng)
        return [(sampler.draw(), 1) for _ in range(count)]
    budget = Budget()
    rules = view.rules
    assert view.seat is not None
    partner = rules.partner_of(view.seat)
    opponents = [s for s in range(rules.players) if rules.team_of(s) != rules.team_of(view.seat)]
    choice, assumed = others_model(known, budget, partner, opponents)
    sampler = DealSampler(known, rng, assumed, PROPOSAL_SLACK)
    return weighted_deals(sampler, choice, count, budget.oversample, rng)


def rules_unit(rules: Rules) -> str:
    """What a decision's `loss_points` counts under `rules`: palitos in ponce, points
    elsewhere (fútbol: points, a goal counted as target / goals to win of them)."""
    return "palitos" if rules.scoring.value == "ponce" else "points"
