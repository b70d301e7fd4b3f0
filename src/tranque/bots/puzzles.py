"""«¿Qué jugarías?»: positions from bot games where one move is clearly best, found offline.

A *puzzle* is one decision of a finished game, seen from the deciding seat's `PlayerView`
alone (R17: its hand and the public history, never the other hands). Each legal move is
worth the mean, over the deals of the hidden tiles consistent with that view, *each equally
likely* (the uniform reading), of the hand's points for the mover's side minus the others'
(their average with more than two sides), every deal solved exactly to the end of the round
(`search.Solver`, two sides only). Late in a round those deals are few: they are all
enumerated (`exact`); otherwise `samples` deals are drawn uniformly (`DealSampler` with no
assumption about how anyone plays) and the best move must beat each other one by the margin
even at the low end of a 99.7% interval of the mean difference.

Moves that leave the same ends (a tile that fits both ends of the same number) are one
*choice*. A position is kept when one choice beats every other by at least `margin` points
of the hand; the reasons why (`reasons`) are read from the view and the solution, each
tied to a lesson of «Aprender» (docs/puzzles.md).

Deterministic: the same game, the same options and the same seed give the same puzzles.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from tranque.bots.analysis import positions
from tranque.bots.base import ends_after
from tranque.bots.knowledge import Knowledge, knowledge_of
from tranque.bots.sampling import DealSampler, state_from_view
from tranque.bots.search import SearchAborted, Solver
from tranque.engine import Action, Game, Play, PlayerView, Rules
from tranque.engine.bitboard import RoundState
from tranque.engine.round import move_of
from tranque.engine.scoring import scorer_of
from tranque.engine.tiles import BIT, HIGH, LOW, PIPS, WITH_NUMBER, Mask, TileIndex, indices

MARGIN = 10.0  # points of the hand the best choice must gain over the second best
MAX_DEALS = 600  # enumerate every consistent deal up to this many; sample beyond
SAMPLES = 200  # uniform deals drawn when there are more
MAX_TILES = 14  # tiles left in hands and boneyard: past this, a position is not solved
NODES_PER_DEAL = 60_000  # the solver's positions per deal; past them the position is dropped
MAX_BONEYARD_ORDERS = 24  # enumerate the boneyard's orders only when there are this few
Z = 3.0  # sampled positions: the margin must hold at mean − Z standard errors


def hand_value(rules: Rules, seat: int) -> Any:
    """What a finished round is worth to `seat`'s side in points of the hand: its points
    minus the others' (their average), goals counted as a tenth of the target, penalties
    against. Nothing for the game's score: a puzzle is about the hand."""
    scorer = scorer_of(rules)
    team = rules.team_of(seat)
    goal_worth = rules.target / rules.goals_to_win if rules.goals_to_win else 0.0
    sign = -1.0 if scorer.points_against else 1.0

    def value(state: RoundState) -> float:
        points, goals, _ = scorer.round_points(rules, state)
        gains = [sign * (p + goal_worth * g) for p, g in zip(points, goals, strict=True)]
        others = [g for s, g in enumerate(gains) if s != team]
        return gains[team] - sum(others) / len(others)

    return value


def choice_key(view: PlayerView, action: Action) -> tuple[Any, ...]:
    """Moves with the same key leave the same position (the same tile, the same ends)."""
    if isinstance(action, Play):
        ends = ends_after(view, action)
        assert ends is not None
        return ("play", str(action.tile), tuple(sorted(ends)))
    return (action.kind,)


def _fits(tiles: Sequence[TileIndex], slots: Sequence[int]) -> bool:
    """Whether `tiles` can fill `slots` (each a mask of numbers its tile lacks): a matching."""
    owner: dict[int, int] = {}

    def place(tile: TileIndex, seen: set[int]) -> bool:
        for slot, lacking in enumerate(slots):
            if slot in seen or (1 << HIGH[tile] | 1 << LOW[tile]) & lacking:
                continue
            seen.add(slot)
            if slot not in owner or place(owner[slot], seen):
                owner[slot] = tile
                return True
        return False

    return all(place(tile, set()) for tile in tiles)


Deal = tuple[list[Mask], list[TileIndex]]


def count_deals(known: Knowledge, drawing: bool, limit: int) -> int:
    """How many deals `enumerate_deals` gives, counted up to `limit` (then `limit` + 1)."""
    count = 0
    for _ in enumerate_deals(known, drawing):
        count += 1
        if count > limit:
            break
    return count


def enumerate_deals(known: Knowledge, drawing: bool) -> Iterator[Deal]:
    """Every deal of the unseen tiles consistent with `known`, each once: the other hands as
    sets, and, where tiles are drawn, every order of the boneyard (out of play otherwise)."""
    others = [seat for seat in range(known.players) if seat != known.seat]
    unseen = indices(known.unseen)

    def assign(index: int, left: list[TileIndex], hands: list[Mask]) -> Iterator[Deal]:
        if index == len(others):
            if drawing and known.boneyard_count:
                for order in itertools.permutations(left):
                    yield hands, list(order)
            else:
                yield hands, list(left)
            return
        seat = others[index]
        slots = known.slots[seat]
        for chosen in itertools.combinations(left, len(slots)):
            if not _fits(chosen, slots):
                continue
            mask = 0
            for tile in chosen:
                mask |= BIT[tile]
            rest = [tile for tile in left if not BIT[tile] & mask]
            new = list(hands)
            new[seat] = mask
            yield from assign(index + 1, rest, new)

    hands = [0] * known.players
    hands[known.seat] = known.own
    yield from assign(0, unseen, hands)


@dataclass(frozen=True)
class Solution:
    """Each legal move's worth over the deals (`values[m][d]`: move m on deal d)."""

    actions: tuple[Action, ...]
    values: tuple[tuple[float, ...], ...]
    exact: bool  # every consistent deal, or a uniform sample of them

    @property
    def deals(self) -> int:
        return len(self.values[0])

    def mean(self, index: int) -> float:
        return sum(self.values[index]) / self.deals

    def wins(self, index: int) -> int:
        """Deals on which the move wins the hand for the mover's side."""
        return sum(1 for v in self.values[index] if v > 0)


def solve(view: PlayerView, *, seed: int = 0, samples: int = SAMPLES) -> Solution | None:
    """Every legal move of `view` solved on each deal (see the module); None when the
    position is too big to solve (too many tiles left, a solver past its node limit) or
    the rules have more than two sides."""
    rules = view.rules
    if view.seat is None or view.seat != view.turn or rules.team_count != 2:
        return None
    if sum(view.hand_counts) + view.boneyard_count > MAX_TILES:
        return None
    known = knowledge_of(view)
    drawing = rules.drawing.value != "none"
    if drawing and math.factorial(view.boneyard_count) > MAX_BONEYARD_ORDERS:
        exact = False
    else:
        exact = count_deals(known, drawing, MAX_DEALS) <= MAX_DEALS
    if exact:
        deals: list[Deal] = list(enumerate_deals(known, drawing))
    else:
        sampler = DealSampler(known, random.Random(seed))
        deals = [sampler.draw() for _ in range(samples)]
    value = hand_value(rules, view.seat)
    maximizing = [rules.team_of(s) == rules.team_of(view.seat) for s in range(rules.players)]
    moves = [move_of(action) for action in view.legal_actions]
    columns: list[list[float]] = [[] for _ in moves]
    for hands, rest in deals:
        state = state_from_view(view, hands, rest)
        solver = Solver(value, maximizing, state, node_limit=NODES_PER_DEAL)
        try:
            scores = solver.solve_moves(state, moves)
        except SearchAborted:
            return None
        for column, score in zip(columns, scores, strict=True):
            column.append(score)
    return Solution(tuple(view.legal_actions), tuple(tuple(c) for c in columns), exact)


@dataclass(frozen=True)
class Choice:
    """One distinct choice: its moves (the first stands for all), its mean worth, its wins."""

    actions: tuple[Action, ...]
    worth: float
    wins: int
    index: int  # of the first move in the solution


def choices(view: PlayerView, solution: Solution) -> list[Choice]:
    """The distinct choices, most worth first (ties in legal order)."""
    groups: dict[tuple[Any, ...], list[int]] = {}
    for index, action in enumerate(solution.actions):
        groups.setdefault(choice_key(view, action), []).append(index)
    found = [
        Choice(
            tuple(solution.actions[i] for i in members),
            solution.mean(members[0]),
            solution.wins(members[0]),
            members[0],
        )
        for members in groups.values()
    ]
    return sorted(found, key=lambda c: (-c.worth, c.index))


def clearly_best(solution: Solution, ranked: Sequence[Choice], margin: float) -> bool:
    """Whether the first choice beats every other by `margin`: on the mean for an exact
    solution, at the mean minus `Z` standard errors of the paired difference otherwise."""
    if len(ranked) < 2 or ranked[0].worth - ranked[1].worth < margin:
        return False
    if solution.exact:
        return True
    best = solution.values[ranked[0].index]
    for other in ranked[1:]:
        differences = [b - o for b, o in zip(best, solution.values[other.index], strict=True)]
        n = len(differences)
        mean = sum(differences) / n
        spread = math.sqrt(sum((d - mean) ** 2 for d in differences) / max(1, n - 1))
        if mean - Z * spread / math.sqrt(n) < margin:
            return False
    return True


# The reasons --------------------------------------------------------------------------------


def _tile_text(tile: TileIndex) -> str:
    return f"{HIGH[tile]}-{LOW[tile]}"


def reasons(view: PlayerView, solution: Solution, ranked: Sequence[Choice]) -> list[dict[str, Any]]:
    """Why the best choice is best, read from the view and the solution: each reason a kind,
    its parameters and its lesson; the last one (`deals`) always holds."""
    assert view.seat is not None
    rules = view.rules
    best, second = ranked[0], ranked[1]
    action = best.actions[0]
    found: list[dict[str, Any]] = []
    known = knowledge_of(view)
    lacking = known.lacking
    if isinstance(action, Play):
        tile = action.tile
        after = ends_after(view, action)
        assert after is not None
        if len(view.hand) == 1:
            found.append({"kind": "domino", "params": {"tile": str(tile)}, "lesson": "domino-y-tranque"})
        else:
            outcome = _outcome_after(view, solution, best.index)
            if outcome == "tranque" and best.worth > 0:
                found.append({"kind": "tranque", "params": {"tile": str(tile)}, "lesson": "contar-tranque"})
        nxt = (view.seat + 1) % rules.players
        if rules.team_of(nxt) != rules.team_of(view.seat) and view.hand_counts[nxt]:
            shut = all(lacking[nxt] >> end & 1 for end in after)
            other_after = ends_after(view, second.actions[0])
            other_shut = other_after is not None and all(lacking[nxt] >> end & 1 for end in other_after)
            if shut and not other_shut:
                numbers = sorted(set(after))
                found.append(
                    {"kind": "pass_read", "params": {"seat": nxt, "numbers": numbers}, "lesson": "leer-pases"}
                )
        partner = rules.partner_of(view.seat)
        if partner is not None and view.hand_counts[partner]:
            other_after = ends_after(view, second.actions[0])
            if other_after is not None:
                open_now = [end for end in after if not lacking[partner] >> end & 1]
                open_other = [end for end in other_after if not lacking[partner] >> end & 1]
                if open_now and not open_other:
                    found.append(
                        {
                            "kind": "partner",
                            "params": {"numbers": sorted(set(other_after))},
                            "lesson": "parejas",
                        }
                    )
        heavy = PIPS[tile.index]
        if (
            heavy >= 10
            and heavy == max(PIPS[t.index] for t in view.hand)
            and not any(r["kind"] == "domino" for r in found)
        ):
            second_tile = second.actions[0]
            if isinstance(second_tile, Play) and PIPS[second_tile.tile.index] < heavy:
                found.append(
                    {
                        "kind": "heavy",
                        "params": {"tile": str(tile), "pips": heavy},
                        "lesson": "contar-tranque",
                    }
                )
    second_action = second.actions[0]
    found.append(
        {
            "kind": "deals",
            "params": {
                "best": _action_text(action),
                "other": _action_text(second_action),
                "best_side": _side_of(action),
                "other_side": _side_of(second_action),
                "deals": solution.deals,
                "exact": solution.exact,
                "best_wins": best.wins,
                "other_wins": second.wins,
                "gap": round(best.worth - second.worth, 1),
            },
            "lesson": found[0]["lesson"] if found else "contar-tranque",
        }
    )
    return found


def _side_of(action: Action) -> str | None:
    return action.side.value if isinstance(action, Play) and action.side is not None else None


def _action_text(action: Action) -> str:
    return str(action.tile) if isinstance(action, Play) else action.kind


def _outcome_after(view: PlayerView, solution: Solution, index: int) -> str | None:
    """'tranque' when the move closes the game at once on every deal (the ends then show a
    number whose tiles are all out, and nobody can play), else None."""
    action = solution.actions[index]
    if not isinstance(action, Play) or view.boneyard_count:
        return None
    after = ends_after(view, action)
    assert after is not None
    left, right = after
    if left != right:
        return None
    known = knowledge_of(view)
    own_rest = known.own & ~BIT[action.tile.index]
    if (known.unseen | own_rest) & WITH_NUMBER[left]:
        return None
    return "tranque"


# Finding them in games ---------------------------------------------------------------------


@dataclass
class Tally:
    """What a search went through: games, decisions examined, solved, kept."""

    games: int = 0
    decisions: int = 0
    solved: int = 0
    kept: int = 0
    by_preset: dict[str, int] = field(default_factory=dict)


def puzzle_of(
    view: PlayerView, played: Action, solution: Solution, ranked: Sequence[Choice]
) -> dict[str, Any]:
    """The packaged puzzle: the seat's view only, and the answer beside it."""
    assert view.seat is not None
    explained = reasons(view, solution, ranked)
    return {
        "rules": view.rules.to_json(),
        "seat": view.seat,
        "hand": [str(t) for t in view.hand],
        "events": [e.to_json() for e in view.events],
        "ends": None if view.ends is None else list(view.ends),
        "hand_counts": list(view.hand_counts),
        "boneyard_count": view.boneyard_count,
        "starter": view.starter,
        "scores": list(view.scores),
        "legal": [a.to_json() for a in view.legal_actions],
        "answer": {
            "best": ranked[0].actions[0].to_json(),
            "accepted": [a.to_json() for a in ranked[0].actions],
            "played": played.to_json(),
            "choices": [
                {
                    "actions": [a.to_json() for a in c.actions],
                    "points": round(c.worth, 1),
                    "wins": c.wins,
                }
                for c in ranked
            ],
            "deals": solution.deals,
            "exact": solution.exact,
            "reasons": explained,
            "lesson": explained[0]["lesson"],
        },
    }


def find(
    game: Game,
    *,
    seed: int = 0,
    margin: float = MARGIN,
    samples: int = SAMPLES,
    tally: Tally | None = None,
) -> list[dict[str, Any]]:
    """The puzzles of one finished `game`: every unforced decision small enough to solve
    where one choice is clearly best (`clearly_best`), latest in its round first."""
    tally = tally if tally is not None else Tally()
    tally.games += 1
    found = []
    for round_number, number, view, played in positions(game):
        if len(view.legal_actions) < 2:
            continue
        tally.decisions += 1
        solution = solve(view, seed=seed * 7919 + round_number * 131 + number, samples=samples)
        if solution is None:
            continue
        tally.solved += 1
        ranked = choices(view, solution)
        if not clearly_best(solution, ranked, margin):
            continue
        tally.kept += 1
        found.append(puzzle_of(view, played, solution, ranked))
    return found


# A book of puzzles --------------------------------------------------------------------------


@dataclass(frozen=True)
class Collection:
    """One kind of game the book draws from: its name (the puzzles' id prefix), its rules
    and the bots that play it."""

    name: str
    preset: str
    players: int
    set_max: int | None = None
    bot: str = "heuristic"

    def rules(self) -> Rules:
        extra = {} if self.set_max is None else {"set_max": self.set_max}
        return Rules.preset(self.preset, players=self.players, **extra)


COLLECTIONS = (
    Collection("parejas", "clasico", 4),
    Collection("individual", "clasico", 2),
    Collection("doble-nueve", "sin-pozo", 4, set_max=9),
)
PER_GAME = 2  # puzzles kept from one game at most: variety over many games


def _rank_key(puzzle: dict[str, Any]) -> tuple[Any, ...]:
    answer = puzzle["answer"]
    choices_ = answer["choices"]
    return (not answer["exact"], -(choices_[0]["points"] - choices_[1]["points"]))


def build(
    *,
    seed: int = 0,
    per_collection: int = 40,
    max_games: int = 200,
    collections: Sequence[Collection] = COLLECTIONS,
    margin: float = MARGIN,
    samples: int = SAMPLES,
    progress: Any = lambda name, kept, games: None,
) -> tuple[list[dict[str, Any]], dict[str, Tally]]:
    """Play games of each collection (seeded from `seed`) until `per_collection` puzzles are
    kept or `max_games` were played; each puzzle gets its id (`<collection>-<n>`) and the
    figures of each collection come back with them."""
    from tranque.bots import make_bot
    from tranque.bots.arena import play_out

    book: list[dict[str, Any]] = []
    figures: dict[str, Tally] = {}
    for collection in collections:
        rng = random.Random(f"tranque-puzzles:{seed}:{collection.name}")
        rules = collection.rules()
        tally = Tally()
        kept: list[dict[str, Any]] = []
        while len(kept) < per_collection and tally.games < max_games:
            game_seed = rng.randrange(2**32)
            bots = [make_bot(collection.bot, seed=rng.randrange(2**32)) for _ in range(rules.players)]
            game = play_out(Game(rules, seed=game_seed), bots)
            found = sorted(
                find(game, seed=game_seed, margin=margin, samples=samples, tally=tally), key=_rank_key
            )
            kept.extend(found[: min(PER_GAME, per_collection - len(kept))])
            progress(collection.name, len(kept), tally.games)
        tally.kept = len(kept)
        for number, puzzle in enumerate(kept, start=1):
            puzzle["id"] = f"{collection.name}-{number:03d}"
            puzzle["collection"] = collection.name
        figures[collection.name] = tally
        book.extend(kept)
    return book, figures
