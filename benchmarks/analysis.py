"""How long the post-game analysis (`tranque analyze`, tranque.bots.analysis) takes, how
often it agrees with the expert, and how it classes each bot level's moves.

    python benchmarks/analysis.py                         # every part, 5 games (~6 minutes)
    python benchmarks/analysis.py --only speed --jobs 2     # speed and agreement, two processes
    python benchmarks/analysis.py --only calibration --games 8

1. Speed and agreement. Games of `clasico`, 4 players in pairs, to 100, played by four
   `expert` bots from fixed seeds, each analysed whole (every seat, every decision) with the
   default budget: wall-clock and CPU seconds per game (the goal: at most 30 s on this
   2-core machine, one process), and the share of the unforced decisions where the
   analysis's best move is the one the expert chose, split into the decisions solved
   exactly (late in a round) and those rolled out (early); then the classes the analysis
   gives the expert's own moves.
2. Calibration. Games of `clasico` 4 in pairs with the four levels at one table (expert,
   random, heuristic, greedy; the seating turns one place each game), every decision
   analysed. Per level: how many decisions, how often the move played was the best, the
   quantiles of the loss, the share of moves losing at least each cut, and the classes
   under the thresholds in use. The thresholds (`analysis.Thresholds`) were chosen from it.
3. Noise. The first (at most 3) games of part 1 analysed again with another seed: how much
   the first analysis's best move loses in the second's eyes, that is, how often the
   analysis's own sampling alone would class a best move as an inaccuracy or an error.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.analysis import DEALS, THRESHOLDS, GameAnalysis, Verdict, analyze
from tranque.bots.arena import percentile, play_out

RULES = Rules.preset("clasico")
LINEUP = ("expert", "random", "heuristic", "greedy")
CUTS = (1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 30)


def played(lineup: Sequence[str], seed: int) -> Game:
    bots = [make_bot(level, seed=seed * 16 + seat) for seat, level in enumerate(lineup)]
    return play_out(Game(RULES, seed=seed), bots)


def timed(game: Game, deals: int, jobs: int) -> tuple[GameAnalysis, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    report = analyze(game, deals=deals, jobs=jobs)
    return report, time.perf_counter() - wall, time.process_time() - cpu


def shares(agreed: list[bool]) -> str:
    """How many are true, of how many, and the percentage."""
    total = len(agreed)
    return f"{sum(agreed)}/{total} ({100 * sum(agreed) / total:.1f}%)" if total else "—"


def speed(games: int, seed: int, deals: int, jobs: int) -> None:
    print(f"1. Speed and agreement: clasico 4 in pairs to 100, four experts, {deals} deals, jobs {jobs}")
    walls: list[float] = []
    agree: list[bool] = []
    agree_exact: list[bool] = []
    verdicts = dict.fromkeys(Verdict, 0)
    for number in range(games):
        game = played(["expert"] * 4, seed + number)
        report, wall, cpu = timed(game, deals, jobs)
        walls.append(wall)
        evaluated = [d for d in report.decisions if d.evaluation is not None]
        for decision in report.decisions:
            verdicts[decision.verdict] += 1
            if decision.evaluation is not None:
                same = decision.played == decision.evaluation.best
                (agree_exact if decision.evaluation.exact else agree).append(same)
        cpu_text = f"{cpu:5.1f} s CPU" if jobs == 1 else "(CPU in the workers)"
        print(
            f"   game {number + 1}: {len(game.rounds)} rounds, {len(report.decisions)} actions, "
            f"{len(evaluated)} decisions: {wall:5.1f} s, {cpu_text}"
        )
    print(f"   seconds per game: mean {sum(walls) / len(walls):.1f}, max {max(walls):.1f}")
    print(f"   analysis's best = expert's move: {shares(agree + agree_exact)}")
    print(f"     solved exactly (late): {shares(agree_exact)}; rolled out (early): {shares(agree)}")
    counted = sum(verdicts.values()) - verdicts[Verdict.FORCED]
    print(
        "   the expert's moves: "
        + ", ".join(
            f"{verdict.value} {100 * verdicts[verdict] / counted:.1f}%"
            for verdict in (Verdict.ACCURATE, Verdict.INACCURACY, Verdict.ERROR)
        )
        + f" of {counted} (and {verdicts[Verdict.FORCED]} forced)"
    )


def noise(games: int, seed: int, deals: int, jobs: int) -> None:
    inaccuracy, error = THRESHOLDS.points(RULES)
    print(f"3. Noise: the same expert games analysed with seeds 0 and 1, {deals} deals")
    losses: list[float] = []
    for number in range(games):
        game = played(["expert"] * 4, seed + number)
        first = analyze(game, deals=deals, seed=0, jobs=jobs)
        second = analyze(game, deals=deals, seed=1, jobs=jobs)
        for one, other in zip(first.decisions, second.decisions, strict=True):
            if one.evaluation is not None and other.evaluation is not None:
                losses.append(other.evaluation.loss(one.evaluation.best))
    n = len(losses)
    same = sum(1 for loss in losses if loss == 0)
    print(f"   {n} decisions; seed 0's best is seed 1's best (or as good) in {100 * same / n:.1f}%")
    quantiles = ", ".join(
        f"p{round(100 * q)} {percentile(losses, q):.1f}" for q in (0.5, 0.9, 0.95, 0.99, 1.0)
    )
    print(f"   loss of seed 0's best under seed 1: {quantiles}")
    print(
        f"   seed 0's best classed by seed 1: inaccuracy or worse (≥ {inaccuracy:g}) "
        f"{100 * sum(1 for v in losses if v >= inaccuracy) / n:.1f}%, "
        f"error (≥ {error:g}) {100 * sum(1 for v in losses if v >= error) / n:.1f}%"
    )


def calibration(games: int, seed: int, deals: int, jobs: int) -> None:
    inaccuracy, error = THRESHOLDS.points(RULES)
    print(f"2. Calibration: clasico 4 in pairs to 100, the four levels at one table, {deals} deals")
    losses: dict[str, list[float]] = {level: [] for level in LINEUP}
    best: dict[str, int] = dict.fromkeys(LINEUP, 0)
    for number in range(games):
        lineup = [LINEUP[(seat + number) % len(LINEUP)] for seat in range(RULES.players)]
        game = played(lineup, seed + number)
        report, wall, _ = timed(game, deals, jobs)
        print(f"   game {number + 1}: {len(game.rounds)} rounds, {wall:.1f} s")
        for decision in report.decisions:
            if decision.evaluation is not None:
                losses[lineup[decision.seat]].append(decision.loss)
                best[lineup[decision.seat]] += decision.played == decision.evaluation.best
    cuts = " ".join(f"≥{cut:<3}" for cut in CUTS)
    heads = " ".join(f"{head:>5}" for head in ("p50", "p75", "p90", "p95", "max"))
    print(f"   {'level':9} {'n':>4} {'best':>5}  {heads} | {cuts}")
    for level in ("expert", "heuristic", "greedy", "random"):
        values = losses[level]
        n = len(values)
        quantiles = " ".join(f"{percentile(values, q):5.1f}" for q in (0.5, 0.75, 0.9, 0.95, 1.0))
        over = " ".join(f"{100 * sum(1 for v in values if v >= cut) / n:3.0f}%" for cut in CUTS)
        print(f"   {level:9} {n:4} {100 * best[level] / n:4.0f}%  {quantiles} | {over}")
    print(f"   classes with inaccuracy from {inaccuracy:g} and error from {error:g} points:")
    for level in ("expert", "heuristic", "greedy", "random"):
        values = losses[level]
        n = len(values)
        accurate = sum(1 for v in values if v < inaccuracy)
        errors = sum(1 for v in values if v >= error)
        print(
            f"   {level:9} accurate {100 * accurate / n:5.1f}%  inaccuracy "
            f"{100 * (n - accurate - errors) / n:5.1f}%  error {100 * errors / n:5.1f}%  "
            f"mean loss {sum(values) / n:5.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["speed", "calibration", "noise"])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=DEALS)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.only in (None, "speed"):
        speed(args.games, args.seed, args.deals, args.jobs)
    if args.only in (None, "calibration"):
        calibration(args.games, args.seed + 1000, args.deals, args.jobs)
    if args.only in (None, "noise"):
        noise(min(args.games, 3), args.seed, args.deals, args.jobs)


if __name__ == "__main__":
    main()
