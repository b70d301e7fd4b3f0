"""Post-game analysis ("Análisis"): how much each decision of a finished game gave away.

Every decision is judged from the deciding seat's information only, the `PlayerView` the
engine gave that seat at that moment (its hand and the public history), never the hidden
hands. The judge reads the hidden tiles *uniformly* (`uniform.read`): every deal consistent
with what the seat saw is equally likely, with no model of how the others play. Late in a
round with two sides, when there are at most `deals // EXACT_SHARE` consistent deals, every
one is solved exactly to the round's end (the exact answer); otherwise that many are drawn
uniformly and solved, and earlier in the round `deals` drawn deals are rolled out ("bota
gorda"). The expected *worth* of a candidate is the expert's `Valuer`'s: the round's points
for the seat's side minus the others' (their average with more than two sides), plus the
target when the result wins the game (minus when it loses it), plus 15% of the target for
winning the round. Its *points* are the hand's points alone (`uniform.hand_points`), read
at the end of the same lines: what the page shows (`loss_points`, in the game's `unit`).

The best candidate is the one of highest worth (the first, on a tie); the *loss* of the move
played is the best's worth minus its own, its `loss_points` the best's points minus its own
(never below 0). A decision with a single legal action is forced and not evaluated. Each
evaluated move is classed by its loss, as a share of the preset's own target (`scale`;
`Thresholds`): "precisa" below `inaccuracy` (5%), "imprecisión" from there, "error" from
`error` (15%) on. A player's *accuracy* in a game is the share of its evaluated decisions
that were "precisa"; its mean loss is reported next to it.

The expert's own reading (deals weighed by its model of the others) is computed too, at a
fifth of the deals, and shown as a labelled `model_note` only where it classes the move
differently: never as the verdict. A flagged move gets its `reasons` (`reasons.reasons`).

Deterministic: every decision's deals come from its own seed, derived from the analysis
seed, the round and the move's place in it, so the same record gives the same analysis.

>>> from tranque import Game, Rules
>>> from tranque.bots import make_bot
>>> from tranque.bots.arena import play_out
>>> rules = Rules.preset("clasico", players=2, target=30)
>>> game = play_out(Game(rules, seed=3), [make_bot("greedy", seed=1), make_bot("random", seed=2)])
>>> report = analyze(game, deals=20)
>>> [d.verdict for d in report.decisions if d.evaluation is None][:1]
[<Verdict.FORCED: 'forced'>]
>>> all(d.loss == 0 for d in report.decisions if d.evaluation and d.played == d.evaluation.best)
True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tranque.bots.expert import Budget
from tranque.bots.reasons import Reason, RoundEnding, ending_of, reasons
from tranque.bots.uniform import read, rules_unit
from tranque.engine import Action, Game, PlayerView, Round, Rules

DEALS = 2000  # deals of the hidden tiles per decision while rolling out (the expert: 40)
EXACT_SHARE = 10  # one deal in this many is solved exactly, once few tiles are left
NODES_PER_EXACT_DEAL = 25_000  # the solver's positions, per exact deal: past them, roll out
MODEL_SHARE = 5  # the expert's weighted reading (`model_note`) weighs a fifth of the deals
# The stored analysis's format: 2 is the uniform reading with loss_points, model_note,
# reasons and unit (1, without a "format" field, the expert's weighted reading). The site
# recomputes a stored analysis of an older format when asked (server/analysis/view.py).
FORMAT = 2


def analysis_budget(deals: int = DEALS) -> Budget:
    """The expert's `Budget`, scaled to `deals` deals per decision, with no heuristic prior:
    `deals` rollouts early in a round, `deals // EXACT_SHARE` exact solutions late in it
    (the expert in play: 40 and 40; a solution costs far more than a rollout). Only counts,
    never the clock: the result is the same on any machine."""
    exact = max(1, deals // EXACT_SHARE)
    return Budget(
        samples=deals,
        exact_samples=exact,
        exact_nodes=exact * NODES_PER_EXACT_DEAL,
        exact_min_samples=exact,
        prior=0.0,
        prior_exact=0.0,
    )


class Verdict(Enum):
    """The class of a move, by how much it lost against the best."""

    ACCURATE = "accurate"  # "precisa"
    INACCURACY = "inaccuracy"  # "imprecisión"
    ERROR = "error"  # "error"
    FORCED = "forced"  # a single legal action: not evaluated


def scale(rules: Rules) -> int:
    """What a round's points are measured against: the preset's own target for this many
    players in this mode (clasico 4 in pairs: 100; with 5 or 6: 200; ponce: 20 palitos),
    whatever target the table chose, since a game to 50 plays rounds like one to 100.

    >>> scale(Rules.preset("clasico", target=30)), scale(Rules.preset("ponce"))
    (100, 20)
    """
    try:
        return Rules.preset(rules.preset_name, players=rules.players, mode=rules.mode.value).target
    except (KeyError, ValueError):  # rules of no preset
        return rules.target


@dataclass(frozen=True)
class Thresholds:
    """Where the classes start, as a share of the preset's target (`scale`), so that a
    ponce palito or a point of double-nine to 200 weighs as a clasico point to 100 does.
    Calibrated on games of the bots themselves: README, "Análisis"."""

    inaccuracy: float = 0.05  # clasico 4 in pairs: from 5 points
    error: float = 0.15  # from 15 points

    def points(self, rules: Rules) -> tuple[float, float]:
        """The two thresholds in the worth's own units, for `rules`."""
        measure = scale(rules)
        return self.inaccuracy * measure, self.error * measure

    def classify(self, loss: float, rules: Rules) -> Verdict:
        inaccuracy, error = self.points(rules)
        if loss >= error:
            return Verdict.ERROR
        if loss >= inaccuracy:
            return Verdict.INACCURACY
        return Verdict.ACCURATE


THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Evaluation:
    """Every legal action of one decision (in `view.legal_actions` order) with its expected
    worth; `deals` deals were weighed, solved exactly when `exact`."""

    actions: tuple[Action, ...]
    worth: tuple[float, ...]
    deals: int
    exact: bool
    points: tuple[float, ...] = ()  # each action's expected hand points (`uniform.hand_points`)
    complete: bool = False  # every consistent deal was weighed (with `exact`: the exact answer)
    domino: tuple[float, ...] = ()  # the share of deals each action's line ends in the side's dominó
    model: Evaluation | None = None  # the expert's weighted reading of the same decision

    @property
    def best(self) -> Action:
        """The action of highest worth (the first of them, on a tie)."""
        return self.actions[max(range(len(self.worth)), key=self.worth.__getitem__)]

    def worth_of(self, action: Action) -> float:
        return self.worth[self.actions.index(action)]

    def loss(self, action: Action) -> float:
        """How much less than the best `action` is worth: 0 for the best."""
        return max(self.worth) - self.worth_of(action)

    def loss_points(self, action: Action) -> float:
        """How many fewer hand points than the best `action` expects (never below 0)."""
        if not self.points:
            return 0.0
        best = self.points[self.actions.index(self.best)]
        return max(0.0, best - self.points[self.actions.index(action)])

    def sure_domino(self, action: Action) -> bool:
        """Whether `action` made the mover's side go out on every consistent deal, solved."""
        return (
            self.exact
            and self.complete
            and bool(self.domino)
            and self.domino[self.actions.index(action)] >= 1.0
        )

    def ranked(self) -> list[tuple[Action, float]]:
        """The actions, most worth first (ties in legal order)."""
        return sorted(zip(self.actions, self.worth, strict=True), key=lambda pair: -pair[1])


def evaluate(view: PlayerView, deals: int = DEALS, seed: int = 0) -> Evaluation:
    """The expected worth of each legal action of the seat to act, from `view` alone.

    Two views that are equal (whatever the hidden hands behind them) give equal evaluations
    for the same `deals` and `seed`. A view with fewer than two legal actions is refused
    (`ValueError`): there is nothing to choose."""
    if view.seat is None or view.seat != view.turn or len(view.legal_actions) < 2:
        raise ValueError("no hay nada que elegir: la jugada es forzada o no le toca a este asiento")
    exact_deals = max(1, deals // EXACT_SHARE)
    uniform = read(
        view, deals, exact_deals, random.Random(seed), exact_nodes=exact_deals * NODES_PER_EXACT_DEAL
    )
    small = max(1, deals // MODEL_SHARE)
    small_exact = max(1, small // EXACT_SHARE)
    weighed = read(
        view,
        small,
        small_exact,
        random.Random(seed + 1),
        model=True,
        exact_nodes=small_exact * NODES_PER_EXACT_DEAL,
    )
    model = Evaluation(weighed.actions, weighed.worth, weighed.deals, weighed.exact, weighed.points)
    return Evaluation(
        uniform.actions,
        uniform.worth,
        uniform.deals,
        uniform.exact,
        uniform.points,
        uniform.complete,
        uniform.domino,
        model,
    )


@dataclass(frozen=True)
class Decision:
    """One action of the game: who took it, where, what it was, and its judgement
    (`evaluation` None and `verdict` FORCED for a forced one)."""

    round: int  # 0-based
    number: int  # 0-based place of the action in its round
    seat: int
    played: Action
    ends: tuple[int, int] | None  # the line's ends before the action
    evaluation: Evaluation | None
    loss: float
    verdict: Verdict
    loss_points: float = 0.0  # what the move lost in the hand's points (the game's `unit`)
    model_note: ModelNote | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def best(self) -> Action:
        return self.played if self.evaluation is None else self.evaluation.best


@dataclass(frozen=True)
class ModelNote:
    """The expert's weighted reading of a decision where it classes the move otherwise than
    the judge: its best move and what the move lost by it, in the hand's points."""

    best: Action
    loss_points: float
    verdict: Verdict

    def to_json(self) -> dict[str, Any]:
        return {"kind": "model", "loss_points": round(self.loss_points, 2), "best": self.best.to_json()}


@dataclass(frozen=True)
class PlayerAccuracy:
    """A seat's figures for the game: its evaluated decisions by class and their losses."""

    seat: int
    forced: int
    accurate: int
    inaccuracies: int
    errors: int
    total_loss: float

    @property
    def decisions(self) -> int:
        """Evaluated decisions (forced ones not counted)."""
        return self.accurate + self.inaccuracies + self.errors

    @property
    def accuracy(self) -> float | None:
        """The share of evaluated decisions that were "precisa", in percent; None without any."""
        return 100.0 * self.accurate / self.decisions if self.decisions else None

    @property
    def mean_loss(self) -> float | None:
        return self.total_loss / self.decisions if self.decisions else None


@dataclass(frozen=True)
class GameAnalysis:
    rules: Rules
    deals: int
    seed: int
    thresholds: Thresholds
    seats: tuple[int, ...]  # the seats analysed
    decisions: tuple[Decision, ...]  # every action of those seats, in the order played

    @property
    def players(self) -> tuple[PlayerAccuracy, ...]:
        """Each analysed seat's figures."""
        return tuple(self.accuracy_of(seat) for seat in self.seats)

    def accuracy_of(self, seat: int) -> PlayerAccuracy:
        mine = [d for d in self.decisions if d.seat == seat]
        count = {verdict: sum(1 for d in mine if d.verdict is verdict) for verdict in Verdict}
        return PlayerAccuracy(
            seat=seat,
            forced=count[Verdict.FORCED],
            accurate=count[Verdict.ACCURATE],
            inaccuracies=count[Verdict.INACCURACY],
            errors=count[Verdict.ERROR],
            total_loss=sum(d.loss for d in mine),
        )

    def to_json(self) -> dict[str, Any]:
        inaccuracy, error = self.thresholds.points(self.rules)
        return {
            "format": FORMAT,
            "unit": rules_unit(self.rules),
            "rules": self.rules.to_json(),
            "deals": self.deals,
            "seed": self.seed,
            "thresholds": {"inaccuracy": inaccuracy, "error": error},
            "decisions": [_decision_json(d) for d in self.decisions],
            "players": [
                {
                    "seat": p.seat,
                    "decisions": p.decisions,
                    "forced": p.forced,
                    "accurate": p.accurate,
                    "inaccuracies": p.inaccuracies,
                    "errors": p.errors,
                    "accuracy": None if p.accuracy is None else round(p.accuracy, 1),
                    "mean_loss": None if p.mean_loss is None else round(p.mean_loss, 2),
                }
                for p in self.players
            ],
        }


def _decision_json(decision: Decision) -> dict[str, Any]:
    evaluation = decision.evaluation
    return {
        "round": decision.round + 1,
        "move": decision.number + 1,
        "seat": decision.seat,
        "played": decision.played.to_json(),
        "verdict": decision.verdict.value,
        "best": decision.best.to_json(),
        "loss": round(decision.loss, 2),
        "loss_points": round(decision.loss_points, 2),
        "model_note": None if decision.model_note is None else decision.model_note.to_json(),
        "reasons": [reason.to_json() for reason in decision.reasons],
        "exact": None if evaluation is None else evaluation.exact,
        "alternatives": []
        if evaluation is None
        else [
            {
                "action": a.to_json(),
                "worth": round(w, 2),
                "points": round(evaluation.points[evaluation.actions.index(a)], 2),
            }
            for a, w in evaluation.ranked()
        ],
    }


def positions(game: Game) -> Iterator[tuple[int, int, PlayerView, Action]]:
    """(round, place in the round, the view of the seat to act, the action it took) for every
    action of `game`, replayed from its deals."""
    for round_number, number, view, played, _ in _replayed(game, with_rounds=False):
        yield round_number, number, view, played


def _replayed(game: Game, with_rounds: bool) -> Iterator[tuple[int, int, PlayerView, Action, Round | None]]:
    """`positions`, each with a copy of the real round before the action if `with_rounds`."""
    deals = [(round_.dealt_hands, round_.dealt_boneyard) for round_ in game.rounds]
    again = Game(game.rules, deals=deals, first_starter=game.first_starter)
    number = 0
    for round_number, seat, action in game.actions:
        while again.round_number < round_number:
            again.start_next_round()
            number = 0
        view = again.view(seat)
        before = again.rounds[-1].copy() if with_rounds and len(view.legal_actions) > 1 else None
        played = again.apply(action, seat=seat).action
        yield round_number, number, view, played, before
        number += 1


def decision_seed(seed: int, round_number: int, number: int) -> int:
    """The seed of one decision's deals: the same for the same analysis seed and place."""
    text = b"tranque-analysis:%d:%d:%d" % (seed, round_number, number)
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")


Job = tuple[PlayerView, int, int]  # one decision to evaluate: the view, the deals, the seed


def evaluate_job(job: Job) -> Evaluation:
    """Evaluate one planned decision (`Plan.jobs`): a top-level function, so that a worker
    process can be handed it."""
    return evaluate(*job)


@dataclass(frozen=True)
class Plan:
    """An analysis cut into pieces: every action of the chosen seats (`found`) and the
    decisions to evaluate (`jobs`, the unforced ones, in order). Evaluate each job (in any
    process, in any order, `evaluate_job`) and hand the evaluations in job order to
    `finish`; the result is `analyze`'s."""

    rules: Rules
    deals: int
    seed: int
    seats: tuple[int, ...]
    thresholds: Thresholds
    found: tuple[tuple[int, int, PlayerView, Action], ...]
    jobs: tuple[Job, ...]
    # Per found action, the real round before it (unforced ones; for the reasons), and per
    # round of the game how it ended.
    rounds_before: tuple[Round | None, ...] = ()
    endings: tuple[RoundEnding | None, ...] = ()

    def finish(self, evaluations: Sequence[Evaluation]) -> GameAnalysis:
        if len(evaluations) != len(self.jobs):
            raise ValueError(f"{len(self.jobs)} evaluations expected, {len(evaluations)} given")
        answers = iter(evaluations)
        decisions = []
        befores = self.rounds_before or (None,) * len(self.found)
        for (round_number, number, view, action), before in zip(self.found, befores, strict=True):
            assert view.seat is not None
            if len(view.legal_actions) < 2:
                decisions.append(
                    Decision(round_number, number, view.seat, action, view.ends, None, 0.0, Verdict.FORCED)
                )
                continue
            evaluation = next(answers)
            loss = evaluation.loss(action)
            verdict = self.thresholds.classify(loss, self.rules)
            note = None
            model = evaluation.model
            if model is not None:
                model_verdict = self.thresholds.classify(model.loss(action), self.rules)
                if model_verdict is not verdict:
                    note = ModelNote(model.best, model.loss_points(action), model_verdict)
            why: tuple[Reason, ...] = ()
            if verdict in (Verdict.INACCURACY, Verdict.ERROR):
                ending = self.endings[round_number] if round_number < len(self.endings) else None
                best = evaluation.best
                why = tuple(
                    reasons(
                        view,
                        action,
                        best,
                        round_=before,
                        ending=ending,
                        sure_domino=(evaluation.sure_domino(best), evaluation.sure_domino(action)),
                    )
                )
            decisions.append(
                Decision(
                    round_number,
                    number,
                    view.seat,
                    action,
                    view.ends,
                    evaluation,
                    loss,
                    verdict,
                    evaluation.loss_points(action),
                    note,
                    why,
                )
            )
        return GameAnalysis(self.rules, self.deals, self.seed, self.thresholds, self.seats, tuple(decisions))


def plan(
    game: Game,
    *,
    deals: int = DEALS,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    thresholds: Thresholds = THRESHOLDS,
) -> Plan:
    """What analysing `game` (of `seats` only, if given) takes: its decisions, replayed."""
    rules = game.rules
    chosen = tuple(range(rules.players)) if seats is None else tuple(sorted(set(seats)))
    replayed = [item for item in _replayed(game, with_rounds=True) if item[2].seat in chosen]
    found = tuple((round_number, number, view, action) for round_number, number, view, action, _ in replayed)
    jobs = tuple(
        (view, deals, decision_seed(seed, r, n)) for r, n, view, _ in found if len(view.legal_actions) > 1
    )
    endings = tuple(ending_of(round_) for round_ in game.rounds)
    befores = tuple(before for *_, before in replayed)
    return Plan(rules, deals, seed, chosen, thresholds, found, jobs, befores, endings)


def analyze(
    game: Game,
    *,
    deals: int = DEALS,
    seed: int = 0,
    seats: Sequence[int] | None = None,
    thresholds: Thresholds = THRESHOLDS,
    jobs: int = 1,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> GameAnalysis:
    """Judge every action of `game` (of `seats` only, if given). `progress(done, total)` is
    called before the first evaluation and after each, `total` being the decisions to
    evaluate (the unforced ones). `jobs` > 1 evaluates them in that many processes; the
    result is the same."""
    planned = plan(game, deals=deals, seed=seed, seats=seats, thresholds=thresholds)
    pending = planned.jobs
    total = len(pending)
    progress(0, total)
    evaluations: list[Evaluation] = []
    if jobs <= 1 or total < 2:
        for job in pending:
            evaluations.append(evaluate_job(job))
            progress(len(evaluations), total)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for evaluation in pool.map(evaluate_job, pending):
                evaluations.append(evaluation)
                progress(len(evaluations), total)
    return planned.finish(evaluations)
