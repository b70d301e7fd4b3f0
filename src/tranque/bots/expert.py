"""The `expert` level: determinized search over the hidden tiles (perfect-information Monte
Carlo). Deal the unseen tiles many times consistently with everything public, play each
candidate out on every deal with the engine's fast `RoundState`, and choose the candidate
with the best average worth under the preset's own scoring and the game's score.

Deals are weighted by how well they explain the other seats' choices (people play heavy
tiles first, and some opponents always do; `sampling.ChoiceModel`): many are drawn, and the
ones kept are resampled by weight. Late in the round each deal is solved exactly
(alpha-beta); earlier it is played out by fast rollouts, and since "everyone plays bota
gorda" is a crude forecast of the rest of a round, the `heuristic` level's score of each
play (docs/strategy.md) is added to the rollout averages as a prior (`Budget.prior`):
measured, it wins more rounds than either alone.
A deal's outcome is worth its points plus a bonus for winning the round at all
(`Budget.round_bonus`): points alone leave the search indifferent between a sure small win
and a long shot at a big one.

Partners keep a public convention (`convention`, docs/strategy.md): while rolling out, a play
earns a little for each own tile it leaves showing a number at the ends (`Budget.signal`), and
the partner's plays are read that way when deals are weighed (`Budget.reading_share`).
"""

from __future__ import annotations

import dataclasses
import random
import time
from dataclasses import dataclass

from tranque.bots.base import bot_rng, legal_choices
from tranque.bots.convention import Reading, signals
from tranque.bots.heuristic import Advice, Weights
from tranque.bots.knowledge import Knowledge, knowledge_of
from tranque.bots.sampling import ChoiceModel, Deal, DealSampler, heavy_first_assumptions, state_from_view
from tranque.bots.search import (
    Rollout,
    SearchAborted,
    Solver,
    blocking_rollout,
    greedy_rollout,
    solved_rollout,
)
from tranque.bots.values import Valuer
from tranque.engine import Action, PlayerView
from tranque.engine.bitboard import Move, RoundState
from tranque.engine.round import move_of
from tranque.engine.tiles import Mask

WEIGHTS = Weights()
# How much less often the sampler draws a deal for each heavy-first assumption it breaks
# (`sampling.heavy_first_assumptions`); `ChoiceModel` weighs it back.
PROPOSAL_SLACK = 0.1


@dataclass(frozen=True)
class Budget:
    samples: int = 40  # deals per decision
    exact_tiles: int = 20  # solve exactly once this few tiles remain (hands and boneyard)
    exact_samples: int = 40
    exact_nodes: int = 80_000  # stop solving more deals past this many positions...
    exact_min_samples: int = 6  # ...once this many are solved
    heaviness: float = 0.5  # how strongly opponents are assumed to play heavy tiles first
    partner_heaviness: float = 0.5
    oversample: int = 4  # deals drawn per deal kept, when the choices seen tell them apart
    rollout: str = "greedy"
    prior: float = 1.0  # weight of the heuristic's score, added to rollout averages
    prior_exact: float = 0.0  # the same, when the deals are solved exactly
    round_bonus: float = 0.15  # worth of winning the round itself, as a share of the target
    rollout_tail: int = 0  # with two teams, solve rollouts exactly once this few tiles are left
    time_limit: float | None = None  # seconds of wall clock; None: the counts alone decide
    # The partnership's convention (`convention`): worth points added, where deals are rolled
    # out, per own tile a play leaves showing a number at the ends; and the reading of the
    # partner's plays: exp(`reading_heaviness` * pips + `reading` * tiles said), believed of
    # the partner with `reading_share` before any play (0: the partner is read as heavy-first).
    signal: float = 3.0
    reading: float = 0.6
    reading_heaviness: float = 0.15
    reading_share: float = 0.5
    # Each opponent is believed, with `heavy_first_share` before it plays, to always play its
    # heaviest tile that fits, as exp(`heavy_first` * pips) models it; its plays decide.
    heavy_first: float = 3.0
    heavy_first_share: float = 0.5

    def __post_init__(self) -> None:
        for name in ("samples", "exact_samples", "exact_nodes", "exact_min_samples", "oversample"):
            if getattr(self, name) < 1:
                raise BudgetError(name, getattr(self, name), "at_least_one")
        for name in (
            "exact_tiles",
            "rollout_tail",
            "heaviness",
            "partner_heaviness",
            "prior",
            "prior_exact",
            "round_bonus",
            "signal",
            "reading",
            "reading_heaviness",
            "heavy_first",
        ):
            if getattr(self, name) < 0:
                raise BudgetError(name, getattr(self, name), "not_negative")
        for name in ("reading_share", "heavy_first_share"):
            if not 0 <= getattr(self, name) <= 1:
                raise BudgetError(name, getattr(self, name), "share")
        if self.rollout not in ROLLOUTS:
            raise BudgetError("rollout", self.rollout, "rollout")
        if self.time_limit is not None and self.time_limit <= 0:
            raise BudgetError("time_limit", self.time_limit, "time_limit")

    @classmethod
    def parse(cls, text: str) -> Budget:
        """The default budget with the fields `text` names changed, as `name=value` items
        separated by commas (`time_limit=None`: no time limit); `BudgetError` says which item
        does not fit.

        >>> Budget.parse("samples=80,heavy_first_share=1").samples
        80
        """
        defaults = cls()
        changes: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, word = (part.strip() for part in item.partition("="))
            if name not in BUDGET_FIELDS:
                raise BudgetError(name, word, "field")
            default = getattr(defaults, name)
            if isinstance(default, str) or (name == "time_limit" and word == "None"):
                changes[name] = None if word == "None" else word
                continue
            try:
                changes[name] = int(word) if isinstance(default, int) else float(word)
            except ValueError:
                raise BudgetError(name, word, "whole" if isinstance(default, int) else "number") from None
        return dataclasses.replace(defaults, **changes)  # type: ignore[arg-type]

    def changes(self) -> str:
        """The fields that differ from the default budget, as `parse` reads them.

        >>> Budget(samples=80).changes()
        'samples=80'
        """
        defaults = Budget()
        changed = [name for name in BUDGET_FIELDS if getattr(self, name) != getattr(defaults, name)]
        return ",".join(f"{name}={getattr(self, name)}" for name in changed)


class BudgetError(ValueError):
    """A budget item that does not fit: the `field` named, the `value` given and a stable
    `code` for what was expected of it (`EXPECTED` says it in words)."""

    def __init__(self, field: str, value: object, code: str) -> None:
        self.field = field
        self.value = value
        self.code = code
        if code == "field":
            message = f"no budget field {field!r}; there are: {', '.join(BUDGET_FIELDS)}"
        else:
            message = f"budget field {field}={value}: expected {EXPECTED[code]}"
        super().__init__(message)


EXPECTED = {
    "whole": "a whole number",
    "number": "a number",
    "at_least_one": "at least 1",
    "not_negative": "0 or more",
    "share": "from 0 to 1",
    "rollout": "greedy or blocking",
    "time_limit": "seconds, more than 0, or None",
}


ROLLOUTS = ("greedy", "blocking")
BUDGET_FIELDS = tuple(f.name for f in dataclasses.fields(Budget))


@dataclass(frozen=True)
class Estimate:
    """What the search found for each legal action (in `view.legal_actions` order): `totals`
    is its worth summed over the `deals` weighed (a deal drawn twice counts twice); `exact`
    says the deals were solved exactly to the end of the round rather than rolled out."""

    actions: tuple[Action, ...]
    totals: tuple[float, ...]
    deals: int
    exact: bool

    @property
    def worth(self) -> tuple[float, ...]:
        """Each action's mean worth over the deals."""
        return tuple(total / self.deals for total in self.totals)


def others_model(
    known: Knowledge, budget: Budget, partner: int | None, opponents: list[int]
) -> tuple[ChoiceModel, list[list[Mask]]]:
    """The expert's model of how the others chose their moves, and what its deals are drawn
    assuming (every opponent playing heavy first, weighed back; none without that share)."""
    reading = None
    if partner is not None and budget.reading_share:
        reading = Reading(known, partner, budget.reading, budget.reading_heaviness)
    assumed = heavy_first_assumptions(known, opponents) if budget.heavy_first_share else []
    model = ChoiceModel(
        known,
        budget.heaviness,
        budget.partner_heaviness,
        partner,
        reading,
        budget.reading_share,
        budget.heavy_first,
        budget.heavy_first_share,
        assumed,
        PROPOSAL_SLACK,
    )
    return model, assumed


def weighted_deals(
    sampler: DealSampler, model: ChoiceModel, count: int, oversample: int, rng: random.Random
) -> list[tuple[Deal, int]]:
    """`count` deals drawn in proportion to their weight, as (deal, times drawn)."""
    if not model.informative:
        return [(sampler.draw(), 1) for _ in range(count)]
    pool = [sampler.draw() for _ in range(count * oversample)]
    weights = [model.weight(hands) for hands, _ in pool]
    total = sum(weights)
    # Systematic resampling: one random offset, `count` evenly spaced picks.
    step = total / count
    position = rng.random() * step
    kept: list[tuple[Deal, int]] = []
    cumulative = 0.0
    for deal, weight in zip(pool, weights, strict=True):
        cumulative += weight
        times = 0
        while position < cumulative and len(kept) + times < count * 2:
            times += 1
            position += step
        if times:
            kept.append((deal, times))
    return kept


class ExpertBot:
    """The strongest level: plays each candidate out on deals that fit what it has seen."""

    name = "expert"

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self._rng = bot_rng(seed)
        self.budget = budget or Budget()

    def choose(self, view: PlayerView) -> Action:
        """The legal action with the best expected worth over deals sampled to fit what
        `view` has seen, within the budget (the module's docstring tells how)."""
        actions = legal_choices(view)
        if len(actions) == 1:
            return actions[0]
        estimate = self.estimate(view)
        totals = list(estimate.totals)
        done = estimate.deals
        budget = self.budget
        prior = budget.prior_exact if estimate.exact else budget.prior
        if prior and done:
            table = Advice(view, knowledge_of(view))
            for index, action in enumerate(actions):
                totals[index] += prior * done * table.score(action, WEIGHTS)
        if budget.signal and done and not estimate.exact:
            for index, told in enumerate(signals(view, actions)):
                totals[index] += budget.signal * done * told
        best = max(range(len(actions)), key=totals.__getitem__)
        return actions[best]

    def estimate(self, view: PlayerView) -> Estimate:
        """The worth of each legal action of `view` over the deals of the hidden tiles: the
        search `choose` makes, without the heuristic's prior. The seat must be to act."""
        actions = legal_choices(view)
        assert view.seat is not None
        budget = self.budget
        rules = view.rules
        known = knowledge_of(view)
        value = Valuer(
            rules,
            view.seat,
            view.scores,
            view.goals,
            budget.round_bonus * rules.target,
            round_pass_points=view.round_pass_points,
        )
        moves = [move_of(a) for a in actions]
        exact = rules.team_count == 2 and sum(view.hand_counts) + view.boneyard_count <= budget.exact_tiles
        samples = budget.exact_samples if exact else budget.samples
        maximizing = [rules.team_of(s) == rules.team_of(view.seat) for s in range(rules.players)]
        partner = rules.partner_of(view.seat)
        # Deals are drawn as if every opponent played heavy first, and weighed back.
        opponents = [s for s in range(rules.players) if not maximizing[s]]
        model, assumed = others_model(known, budget, partner, opponents)
        totals = [0.0] * len(moves)
        rollout = blocking_rollout if budget.rollout == "blocking" else greedy_rollout
        nodes = 0
        done = 0
        deadline = None if budget.time_limit is None else time.perf_counter() + budget.time_limit
        sampler = self._sampler(known, assumed, PROPOSAL_SLACK)
        deals = weighted_deals(sampler, model, samples, budget.oversample, self._rng)
        for (hands, rest), times in deals:
            state = state_from_view(view, hands, rest)
            scores = None
            if exact:
                solver = Solver(value, maximizing, state, node_limit=budget.exact_nodes - nodes)
                try:
                    scores = solver.solve_moves(state, moves)
                except SearchAborted:
                    exact = False  # too big to solve in the budget: roll out the rest
                nodes += solver.nodes
            if scores is None and budget.rollout_tail and rules.team_count == 2:
                tail_solver = Solver(value, maximizing, state)
                scores = []
                for move in moves:
                    state.push(move)
                    scores.append(solved_rollout(state, value, tail_solver, budget.rollout_tail))
                    state.pop()
            if scores is None:
                scores = [self._roll(rollout, state, move, value) for move in moves]
            for index, score in enumerate(scores):
                totals[index] += times * score
            done += times
            if deadline is not None and time.perf_counter() > deadline:
                break
            if exact and nodes > budget.exact_nodes * 0.5 and done >= budget.exact_min_samples:
                break
        return Estimate(actions, tuple(totals), done, exact)

    def _sampler(self, known: Knowledge, assumed: list[list[Mask]], slack: float) -> DealSampler:
        """What deals the hidden tiles: from `known` alone (a benchmark overrides it to
        measure what more sight would be worth)."""
        return DealSampler(known, self._rng, assumed, slack)

    @staticmethod
    def _roll(rollout: Rollout, state: RoundState, move: Move, value: Valuer) -> float:
        state.push(move)
        try:
            return rollout(state, value)
        finally:
            state.pop()
