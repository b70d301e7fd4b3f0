"""Is the post-game analysis's judge right? An exact referee on late-round decisions.

    python benchmarks/analysis_judge.py                  # 6 games of each preset (~minutes)
    python benchmarks/analysis_judge.py --games 1 --limit 200   # a quick look (the smoke test)

Games of several presets (clasico 4 in pairs to 100, ponce in pairs, clasico 1 against 1
with the pozo) are played by mixed bot levels (expert, heuristic, greedy, random) from fixed seeds.
Every unforced decision late in a round (two sides, at most 20 tiles left in the hands and
the pozo: where the judge solves deals exactly) whose consistent deals number at most
`--limit` is refereed EXACTLY: every deal consistent with what the mover could see (hand
counts, passes, draws, the public history; each history equally likely,
`uniform.consistent_deals`) is solved to the end of the round with perfect play by all
(`search.Solver`, each side maximising its worth), and each alternative's exact worth is the
mean over all those deals of the worth of the round's end: the expert's `Valuer` (the hand's
points for the mover's side against the other, 15% of the target more for winning the round,
the target more for winning the game), the same worth the judge estimates. The move's exact
loss is the best alternative's exact worth less its own.

The judge (`analysis.evaluate` at the default 2,000 deals: every consistent deal solved when
there are at most 200, else 200 drawn uniformly) classes each move; the figures are

* false flags: moves the judge classed *imprecisión* or *error* whose exact loss is below
  the inaccuracy threshold (5% of the preset's target), as a share of the moves flagged;
* missed big mistakes: moves classed *precisa* whose exact loss reaches the error threshold
  (15%), as a share of the moves classed *precisa*;

and the same figures for the expert's weighted reading (the old judge, now `model_note`).
Goal: false flags at most 3%, missed big mistakes at most 1%.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.analysis import DEALS, THRESHOLDS, Evaluation, Verdict, decision_seed, evaluate, positions
from tranque.bots.arena import play_out
from tranque.bots.knowledge import knowledge_of
from tranque.bots.uniform import consistent_deals, read, solvable

PRESETS = (
    ("clasico 4 in pairs", Rules.preset("clasico")),
    ("ponce", Rules.preset("ponce")),
    ("clasico 1 vs 1", Rules.preset("clasico", players=2)),
)
LINEUPS = {4: ("expert", "heuristic", "greedy", "random"), 2: ("heuristic", "greedy")}
LIMIT = 1500  # the referee enumerates decisions with at most this many consistent deals


@dataclass
class Tally:
    decisions: int = 0
    flagged: int = 0
    false_flags: int = 0
    precise: int = 0
    missed: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)

    def add(self, verdict: Verdict, exact_loss: float, inaccuracy: float, error: float, where: str) -> None:
        self.decisions += 1
        if verdict in (Verdict.INACCURACY, Verdict.ERROR):
            self.flagged += 1
            if exact_loss < inaccuracy:
                self.false_flags += 1
                self.examples.append(f"false flag {where}: exact loss {exact_loss:.1f}")
        elif verdict is Verdict.ACCURATE:
            self.precise += 1
            if exact_loss >= error:
                self.missed += 1
                self.examples.append(f"missed {where}: exact loss {exact_loss:.1f}")

    def line(self, name: str) -> str:
        flags = f"{self.false_flags}/{self.flagged} ({pct(self.false_flags, self.flagged)})"
        missed = f"{self.missed}/{self.precise} ({pct(self.missed, self.precise)})"
        return f"  {name:<28} decisions {self.decisions:4}  false flags {flags:<18} missed big {missed}"


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "—"


def game_of(rules: Rules, seed: int) -> Game:
    lineup = LINEUPS[rules.players]
    bots = [
        make_bot(lineup[(seat + seed) % len(lineup)], seed=seed * 16 + seat) for seat in range(rules.players)
    ]
    return play_out(Game(rules, seed=seed), bots)


def referee(view: object, limit: int) -> Evaluation | None:
    """The exact worth of every alternative (None: too many deals, or not solvable)."""
    from tranque.engine import PlayerView

    assert isinstance(view, PlayerView)
    if not solvable(view):
        return None
    deals = consistent_deals(knowledge_of(view), limit)
    if deals is None:
        return None
    worths = read(view, 1, limit, random.Random(0), exact_nodes=1 << 60)
    if not (worths.exact and worths.complete):
        return None
    return Evaluation(worths.actions, worths.worth, worths.deals, True, worths.points, True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games per preset")
    parser.add_argument("--limit", type=int, default=LIMIT, help="most consistent deals refereed")
    parser.add_argument("--deals", type=int, default=DEALS, help="the judge's deals per decision")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    judge_all, model_all = Tally(), Tally()
    sampled = Tally()
    print(
        f"Exact referee: {args.games} games per preset, at most {args.limit} deals,"
        f" judge at {args.deals} deals"
    )
    for name, rules in PRESETS:
        inaccuracy, error = THRESHOLDS.points(rules)
        judge, model = Tally(), Tally()
        for game_number in range(args.games):
            seed = args.seed + game_number
            game = game_of(rules, seed)
            for round_number, number, view, played in positions(game):
                if len(view.legal_actions) < 2:
                    continue
                wall = time.perf_counter()
                exact = referee(view, args.limit)
                if exact is None:
                    continue
                judged = evaluate(view, args.deals, decision_seed(0, round_number, number))
                loss = exact.loss(played)
                where = f"{name} game {seed} round {round_number + 1} move {number + 1}"
                verdict = THRESHOLDS.classify(judged.loss(played), rules)
                for tally in (judge, judge_all) + ((sampled,) if not judged.complete else ()):
                    tally.add(verdict, loss, inaccuracy, error, where)
                if judged.model is not None:
                    model_verdict = THRESHOLDS.classify(judged.model.loss(played), rules)
                    for tally in (model, model_all):
                        tally.add(model_verdict, loss, inaccuracy, error, where)
                judge.seconds += time.perf_counter() - wall
        print(f"{name} (thresholds {inaccuracy:g} and {error:g}; {judge.seconds:.0f} s)")
        print(judge.line("judge (uniform)"))
        print(model.line("expert's model (model_note)"))
    print("All presets")
    print(judge_all.line("judge (uniform)"))
    print(sampled.line("  of which deals sampled"))
    print(model_all.line("expert's model (model_note)"))
    for example in judge_all.examples[:12]:
        print("   ", example)
    print(f"{time.perf_counter() - started:.0f} s in all")


if __name__ == "__main__":
    main()
