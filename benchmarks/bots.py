"""How strong and how fast the bots are, next to the PyPI `dominoes` 6.1.0 library's AIs.

    python benchmarks/bots.py                       # the default run (~3 minutes on 2 cores)
    python benchmarks/bots.py --deals-pa 400 --deals-gorda 1000 --jobs 2   # a bigger run
    python benchmarks/bots.py --only pa --deals-pa 1000 --seed 7 --seed 8 --seed 9   # 3 x 2,000 rounds

1. Strength, under their rules (= our `sin-pozo`, 4 players in pairs, the first round of a
   game: 6-6 leads): each deal is played twice, our bot playing for one team and then for the
   other, against their `bota_gorda` and against their `probabilistic_alphabeta` (10 sampled
   deals from the 8th move, `bota_gorda` before). Rounds won (a tie counts half) with the 95%
   Wilson interval, and the mean points per round of each team. Every round is replayed in
   their engine, which must score it exactly as ours does.
2. Speed of `expert` per decision, alone on one core: median and 99th percentile over every
   decision of whole games of `clasico` 4 players in pairs (double-six) and 6 players in
   pairs (double-nine), also over the decisions with more than one legal action.
3. Where the worth is lost (`--only regret`, not in the default run): against
   `probabilistic_alphabeta`, each decision with a choice and few enough tiles left to solve
   is judged in the true deal, and the worth each team lost against the best move there is
   summed by phase of the round. Some loss is the price of not seeing the hands; the
   comparison between the two teams, phase by phase, is the figure.
4. The ceiling (`--only oracle`, not in the default run): the same match against
   `probabilistic_alphabeta`, but our team sees every hand (the referee's deal, solved
   exactly) at each decision with at most `--oracle-tiles` tiles in hands, and plays as the
   expert before: how much of the game hidden information decides.
5. The partner's hand (`--only partner-sight`, not in the default run): the same match, our
   expert seats seeing only each other's hand from the first play (every deal they sample
   deals it as it is): how much of that ceiling knowing the partner's tiles is worth.
6. How the plays are best read (`--only fit`, not in the default run): every play with a
   choice of tiles in the match against `probabilistic_alphabeta` (`--deals-fit`), each team's,
   is recorded with, for each tile it could have played, its pips and the tiles it would say
   (the convention's `said`); the model exp(kappa * pips + lambda * said), the one the expert
   reads its partner and its opponents by, is fitted by log-likelihood over a grid, for the
   first plays (more than `exact_tiles` in hands) and the later ones apart. The gain is in
   nats per play above picking at random among the tiles that fitted.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import dominoes_adapter as adapter
from tranque import Game, Round, Rules
from tranque.bots import Bot, make_bot
from tranque.bots.arena import percentile, wilson
from tranque.bots.convention import said
from tranque.bots.expert import Budget, BudgetError, ExpertBot
from tranque.bots.knowledge import Knowledge
from tranque.bots.sampling import DealSampler
from tranque.bots.search import Solver
from tranque.bots.values import Valuer
from tranque.engine import Action, Play, PlayerView
from tranque.engine.round import move_of
from tranque.engine.tiles import BIT, PIPS, Mask


@dataclass
class RoundOutcome:
    won: float  # 1 won, 0.5 tie, 0 lost, for our bot's team
    ours: int
    theirs: int
    times: list[float]


def our_bot(name: str, seed: int, budget: Budget | None) -> Bot:
    """The level `name`; the expert with `budget` when one is given (`--budget`)."""
    if budget is not None and name == "expert":
        return ExpertBot(seed=seed, budget=budget)
    return make_bot(name, seed=seed)


def true_worth(rnd: Round, legal: Sequence[Action], round_bonus: float) -> list[float]:
    """The worth of each of `legal` to the seat to act in the referee's `rnd`, every hand
    seen: the deal solved exactly, in the expert's valuation (points and the round bonus)."""
    view = rnd.view(rnd.turn)
    rules = view.rules
    value = Valuer(rules, rnd.turn, view.scores, view.goals, round_bonus * rules.target)
    maximizing = [rules.team_of(s) == rules.team_of(rnd.turn) for s in range(rules.players)]
    state = rnd.fast_state()
    return Solver(value, maximizing, state).solve_moves(state, [move_of(option) for option in legal])


class Clairvoyant:
    """Benchmark only, the ceiling: sees the referee's round, and once at most `most_tiles`
    tiles are in hands plays the best move of the true deal; `before` decides until then."""

    name = "clairvoyant"

    def __init__(self, rnd: Round, before: Bot, most_tiles: int, round_bonus: float) -> None:
        self.rnd = rnd
        self.before = before
        self.most_tiles = most_tiles
        self.round_bonus = round_bonus

    def choose(self, view: PlayerView) -> Action:
        legal = view.legal_actions
        if len(legal) < 2 or sum(self.rnd.hand_counts) > self.most_tiles:
            return self.before.choose(view)
        worth = true_worth(self.rnd, legal, self.round_bonus)
        return legal[max(range(len(legal)), key=worth.__getitem__)]


class PartnerSighted(ExpertBot):
    """Benchmark only: the expert, but every deal it samples gives its partner the hand the
    referee's `rnd` dealt it (4 players in pairs, no boneyard)."""

    def __init__(self, rnd: Round, seed: int, budget: Budget | None) -> None:
        super().__init__(seed=seed, budget=budget)
        self.rnd = rnd

    def _sampler(self, known: Knowledge, assumed: list[list[Mask]], slack: float) -> DealSampler:
        sampler = DealSampler(known, self._rng, assumed, slack)
        partner = self.rnd.rules.partner_of(known.seat)
        assert partner is not None and not known.hidden_count
        hand = self.rnd.fast_state().hands[partner]
        for place, seat in enumerate(sampler.place_seats):
            sampler.allowed[place] &= hand if seat == partner else ~hand
        sampler.constrained = True
        return sampler


def parse_budget(text: str) -> Budget:
    """`--budget samples=100,heavy_first_share=1`: the expert's `Budget` with these fields changed."""
    try:
        return Budget.parse(text)
    except BudgetError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


Decision = Callable[[Round, Action, bool], None]


def play_round(
    bot_name: str,
    their_name: str,
    deal_seed: int,
    our_team: int,
    budget: Budget | None = None,
    decided: Decision | None = None,
    sees: int | None = None,
    partner_sight: bool = False,
) -> RoundOutcome:
    """One round; with `sees`, our seats are `Clairvoyant` from that many tiles in hands; with
    `partner_sight`, `PartnerSighted` experts."""
    rnd = adapter.deal(deal_seed)
    seats = (our_team, our_team + 2)
    if partner_sight:
        bots: dict[int, Bot] = {seat: PartnerSighted(rnd, deal_seed * 8 + seat, budget) for seat in seats}
    else:
        bots = {seat: our_bot(bot_name, deal_seed * 8 + seat, budget) for seat in seats}
    if sees is not None:
        bonus = (budget or Budget()).round_bonus
        bots = {seat: Clairvoyant(rnd, bot, sees, bonus) for seat, bot in bots.items()}
    player = adapter.opponent(their_name)
    adapter.seed_their_randomness(deal_seed * 2 + our_team)
    times: list[float] = []
    while not rnd.is_over:
        seat = rnd.turn
        if seat in bots:
            view = rnd.view(seat)
            start = time.thread_time()
            action = bots[seat].choose(view)
            times.append(time.thread_time() - start)
        else:
            action = adapter.their_choice(player, rnd)
        if decided is not None:
            decided(rnd, action, seat in bots)
        rnd.apply(action)
    adapter.check_same_result(rnd)
    result = rnd.result
    assert result is not None
    won = 0.5 if result.winner is None else float(result.winner == our_team)
    return RoundOutcome(won, result.points[our_team], result.points[1 - our_team], times)


def play_deal(
    bot_name: str,
    their_name: str,
    deal_seed: int,
    budget: Budget | None = None,
    sees: int | None = None,
    partner_sight: bool = False,
) -> list[RoundOutcome]:
    return [
        play_round(bot_name, their_name, deal_seed, team, budget, sees=sees, partner_sight=partner_sight)
        for team in (0, 1)
    ]


def strength(
    bot_name: str,
    their_name: str,
    deals: int,
    seed: int,
    jobs: int,
    budget: Budget | None = None,
    sees: int | None = None,
    partner_sight: bool = False,
) -> list[RoundOutcome]:
    seeds = [seed * 1_000_003 + k for k in range(deals)]
    outcomes: list[RoundOutcome] = []
    started = time.perf_counter()
    if jobs <= 1:
        for deal_seed in seeds:
            outcomes += play_deal(bot_name, their_name, deal_seed, budget, sees, partner_sight)
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            names = [bot_name] * deals
            for result in pool.map(
                play_deal,
                names,
                [their_name] * deals,
                seeds,
                [budget] * deals,
                [sees] * deals,
                [partner_sight] * deals,
                chunksize=4,
            ):
                outcomes += result
    label = bot_name
    if sees is not None:
        label = f"{bot_name} seeing every hand from {sees} tiles"
    elif partner_sight:
        label = f"{bot_name} seeing its partner's hand"
    report_strength(f"{label} (seed {seed})", their_name, outcomes, time.perf_counter() - started)
    return outcomes


def strength_over(
    bot_name: str, their_name: str, deals: int, seeds: Sequence[int], jobs: int, budget: Budget | None = None
) -> list[RoundOutcome]:
    """`strength` on `deals` deals of each of `seeds` (each seed's deals are other deals),
    each seed reported, then, with more than one, all their rounds together."""
    started = time.perf_counter()
    outcomes: list[RoundOutcome] = []
    for seed in seeds:
        outcomes += strength(bot_name, their_name, deals, seed, jobs, budget)
    if len(seeds) > 1:
        label = f"{bot_name} (seeds {', '.join(map(str, seeds))} together)"
        report_strength(label, their_name, outcomes, time.perf_counter() - started)
    return outcomes


@dataclass
class Regret:
    """One decision with a choice, judged in the true deal: whose it was, how many tiles
    were still in hands, and the worth lost against the best move had every hand been seen."""

    ours: bool
    tiles: int
    lost: float


def regrets_of_deal(
    bot_name: str, their_name: str, deal_seed: int, budget: Budget | None, most_tiles: int
) -> list[Regret]:
    """The regret of every decision with a choice and at most `most_tiles` tiles in hands,
    both seatings of one deal, each team's in its own valuation (points and the round bonus)."""
    found: list[Regret] = []
    bonus = (budget or Budget()).round_bonus

    def judge(rnd: Round, action: Action, ours: bool) -> None:
        tiles = sum(rnd.hand_counts)
        legal = rnd.legal_actions()
        if len(legal) < 2 or tiles > most_tiles:
            return
        worth = true_worth(rnd, legal, bonus)
        found.append(Regret(ours, tiles, max(worth) - worth[legal.index(action)]))

    for team in (0, 1):
        play_round(bot_name, their_name, deal_seed, team, budget, judge)
    return found


def regret(
    bot_name: str, their_name: str, deals: int, seed: int, jobs: int, budget: Budget | None, most_tiles: int
) -> None:
    """Where each team loses worth: the regrets of `regrets_of_deal`, by how many tiles are
    left in hands, for our bot and for theirs."""
    seeds = [seed * 1_000_003 + k for k in range(deals)]
    found: list[Regret] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(
            regrets_of_deal,
            [bot_name] * deals,
            [their_name] * deals,
            seeds,
            [budget] * deals,
            [most_tiles] * deals,
            chunksize=4,
        ):
            found += result
    print(
        f"regret against the true deal, {bot_name} vs dominoes.{their_name}, {deals} deals x 2 seatings "
        "(tiles in hands: decisions, mean worth lost, share that lost any, share of the team's total):"
    )
    phases = [(most_tiles, 20), (19, 17), (16, 13), (12, 9), (8, 0)]
    for ours, team in ((True, bot_name), (False, their_name)):
        mine = [r for r in found if r.ours == ours]
        total = sum(r.lost for r in mine) or 1.0
        cells = []
        for high, low in phases:
            here = [r for r in mine if low <= r.tiles <= high]
            lost = sum(r.lost for r in here)
            share = sum(1 for r in here if r.lost > 1e-9) / max(len(here), 1)
            cells.append(
                f"{high}-{low}: {len(here)}, {lost / max(len(here), 1):.1f}, {share:.0%}, {lost / total:.0%}"
            )
        print(f"  {team}: " + " | ".join(cells), flush=True)


@dataclass
class Choice:
    """One play with a choice of tiles: whose team, whether it came before the deals are solved
    exactly, and (pips, tiles said) of every tile that fitted, the one played at `chosen`."""

    ours: bool
    early: bool
    candidates: list[tuple[int, int]]
    chosen: int


def choices_of_deal(bot_name: str, their_name: str, deal_seed: int, budget: Budget | None) -> list[Choice]:
    """Every play with more than one tile that fitted, both seatings of one deal."""
    found: list[Choice] = []
    exact_tiles = (budget or Budget()).exact_tiles

    def record(rnd: Round, action: Action, ours: bool) -> None:
        view = rnd.view(rnd.turn)
        if not isinstance(action, Play) or view.ends is None:
            return
        tiles = sorted({a.tile.index for a in view.legal_actions if isinstance(a, Play)})
        if len(tiles) < 2:
            return
        hand = 0
        for tile in view.hand:
            hand |= BIT[tile.index]
        left, right = view.ends
        candidates = [(PIPS[t], said(hand, t, left, right)) for t in tiles]
        early = sum(view.hand_counts) + view.boneyard_count > exact_tiles
        found.append(Choice(ours, early, candidates, tiles.index(action.tile.index)))

    for team in (0, 1):
        play_round(bot_name, their_name, deal_seed, team, budget, record)
    return found


KAPPAS = (0.0, 0.1, 0.2, 0.3, 0.5, 0.8, 1.2, 2.0, 3.0, 5.0)
LAMBDAS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.5, 2.0)


def gain(choices: Sequence[Choice], kappa: float, strength: float) -> float:
    """Mean log-likelihood per play of exp(`kappa` * pips + `strength` * said), in nats above
    picking uniformly among the tiles that fitted."""
    total = 0.0
    for choice in choices:
        scores = [kappa * pips + strength * told for pips, told in choice.candidates]
        top = max(scores)
        norm = top + math.log(sum(math.exp(x - top) for x in scores))
        total += scores[choice.chosen] - norm + math.log(len(scores))
    return total / max(len(choices), 1)


def fit(bot_name: str, their_name: str, deals: int, seed: int, jobs: int, budget: Budget | None) -> None:
    """The best (kappa, lambda) of the grid for each team's first and later plays."""
    seeds = [seed * 1_000_003 + k for k in range(deals)]
    found: list[Choice] = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for result in pool.map(
            choices_of_deal, [bot_name] * deals, [their_name] * deals, seeds, [budget] * deals, chunksize=4
        ):
            found += result
    chosen = budget or Budget()
    print(
        f"plays read as exp(kappa * pips + lambda * tiles said), {bot_name} vs dominoes.{their_name}, "
        f"{deals} deals x 2 seatings (nats per play above chance):"
    )
    for ours, team in ((True, bot_name), (False, their_name)):
        for early, phase in ((True, f"more than {chosen.exact_tiles} tiles"), (False, "the rest")):
            here = [c for c in found if c.ours == ours and c.early == early]
            grid = {(k, lam): gain(here, k, lam) for k in KAPPAS for lam in LAMBDAS}
            (kappa, strength), best = max(grid.items(), key=lambda item: item[1])
            heavy = max(KAPPAS, key=lambda k: grid[k, 0.0])
            print(
                f"  {team}, {phase}: {len(here)} plays; best kappa {kappa}, lambda {strength}: "
                f"{best:.3f}; without lambda, best kappa {heavy}: {grid[heavy, 0.0]:.3f}; "
                f"the expert's reading of its partner (kappa {chosen.reading_heaviness}, "
                f"lambda {chosen.reading}): {gain(here, chosen.reading_heaviness, chosen.reading):.3f}",
                flush=True,
            )


def report_strength(bot_name: str, their_name: str, outcomes: list[RoundOutcome], seconds: float) -> None:
    n = len(outcomes)
    wins = sum(o.won for o in outcomes)
    low, high = wilson(wins, n)
    ties = sum(1 for o in outcomes if o.won == 0.5)
    ours = sum(o.ours for o in outcomes) / n
    theirs = sum(o.theirs for o in outcomes) / n
    print(
        f"{bot_name} vs dominoes.{their_name}: {n} rounds ({n // 2} deals x 2 seatings), "
        f"won {wins / n:.1%} [95% CI {low:.1%}-{high:.1%}] (ties {ties}), "
        f"points/round {ours:.1f} vs {theirs:.1f}  ({seconds:.0f} s)",
        flush=True,
    )


def speed(
    bot_name: str, preset: str, players: int, games: int, seed: int, budget: Budget | None = None
) -> None:
    """Decision times of `bot_name` over whole games against `heuristic`, on this process."""
    rules = Rules.preset(preset, players=players, mode="pairs")
    times: list[float] = []
    choice_times: list[float] = []
    for g in range(games):
        game = Game(rules, seed=seed * 7919 + g)
        lineup = [
            our_bot(bot_name, g * 8 + seat, budget)
            if seat % 2 == g % 2
            else make_bot("heuristic", seed=g * 8 + seat)
            for seat in range(players)
        ]
        mine = [seat % 2 == g % 2 for seat in range(players)]
        while not game.is_over:
            rnd = game.round
            while not rnd.is_over:
                seat = rnd.turn
                view = game.view(seat)
                start = time.thread_time()
                action = lineup[seat].choose(view)
                elapsed = time.thread_time() - start
                if mine[seat]:
                    times.append(elapsed)
                    if len(view.legal_actions) > 1:
                        choice_times.append(elapsed)
                game.apply(action)
            if not game.is_over:
                game.start_next_round()
    print(
        f"{bot_name} decision time, {preset} {players} players pairs (double-{rules.set_max}), "
        f"{games} games: all {len(times)} decisions p50 {percentile(times, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(times, 0.99) * 1000:.1f} ms, max {max(times) * 1000:.0f} ms; "
        f"{len(choice_times)} with a choice p50 {percentile(choice_times, 0.5) * 1000:.1f} ms, "
        f"p99 {percentile(choice_times, 0.99) * 1000:.1f} ms",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--deals-gorda", type=int, default=300, help="deals against bota_gorda (x2 rounds)")
    parser.add_argument(
        "--deals-pa", type=int, default=150, help="deals against probabilistic_alphabeta (x2)"
    )
    parser.add_argument("--games-4", type=int, default=20, help="games timed in 4-player double-six")
    parser.add_argument("--games-6", type=int, default=6, help="games timed in 6-player double-nine")
    parser.add_argument(
        "--seed",
        type=int,
        action="append",
        help="the deals' seed (1 if none); repeated, --only gorda and pa play each seed's deals "
        "and report them together too",
    )
    parser.add_argument("--jobs", type=int, default=2, help="processes for the strength runs")
    parser.add_argument(
        "--deals-regret",
        type=int,
        default=100,
        help="deals against probabilistic_alphabeta judged in the true deal (x2), with --only regret",
    )
    parser.add_argument(
        "--regret-tiles",
        type=int,
        default=22,
        help="judge the decisions with at most this many tiles in hands (solved exactly)",
    )
    parser.add_argument(
        "--deals-oracle",
        type=int,
        default=100,
        help="deals of the ceiling run (x2), with --only oracle or partner-sight",
    )
    parser.add_argument(
        "--oracle-tiles",
        type=int,
        default=24,
        help="our team sees every hand at each decision with at most this many tiles in hands",
    )
    parser.add_argument(
        "--deals-fit",
        type=int,
        default=200,
        help="deals against probabilistic_alphabeta whose plays are fitted (x2), with --only fit",
    )
    parser.add_argument(
        "--only",
        choices=["gorda", "pa", "speed", "regret", "oracle", "partner-sight", "fit"],
        action="append",
    )
    parser.add_argument(
        "--budget",
        type=parse_budget,
        help="the expert with these Budget fields changed, e.g. heavy_first_share=1,samples=100",
    )
    args = parser.parse_args(argv)
    parts = args.only or ["gorda", "pa", "speed"]
    seeds = args.seed or [1]
    if len(seeds) > 1 and set(parts) - {"gorda", "pa"}:
        parser.error("--seed more than once needs --only gorda or --only pa, and nothing else")
    seed = seeds[0]  # the one set of deals every other part plays
    if args.budget is not None:
        print(f"budget: {args.budget}", flush=True)
    if "gorda" in parts and args.deals_gorda:
        strength_over(args.bot, "bota_gorda", args.deals_gorda, seeds, args.jobs, args.budget)
    if "pa" in parts and args.deals_pa:
        strength_over(args.bot, "probabilistic_alphabeta", args.deals_pa, seeds, args.jobs, args.budget)
    if "regret" in parts:
        regret(
            args.bot,
            "probabilistic_alphabeta",
            args.deals_regret,
            seed,
            args.jobs,
            args.budget,
            args.regret_tiles,
        )
    if "oracle" in parts:
        strength(
            args.bot,
            "probabilistic_alphabeta",
            args.deals_oracle,
            seed,
            args.jobs,
            args.budget,
            args.oracle_tiles,
        )
    if "partner-sight" in parts:
        strength(
            "expert",
            "probabilistic_alphabeta",
            args.deals_oracle,
            seed,
            args.jobs,
            args.budget,
            partner_sight=True,
        )
    if "fit" in parts:
        fit(args.bot, "probabilistic_alphabeta", args.deals_fit, seed, args.jobs, args.budget)
    if "speed" in parts:
        speed(args.bot, "clasico", 4, args.games_4, seed, args.budget)
        speed(args.bot, "clasico", 6, args.games_6, seed, args.budget)
    return 0


if __name__ == "__main__":
    sys.exit(main())
