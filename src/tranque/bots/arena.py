"""Two bot levels face each other on duplicate deals (the match behind `tranque arena`).

Every deal (a game seed: the same shuffles, round after round) is played once per seating:
with two teams, twice, the bots swapping teams, so the luck of the cards cancels out. With
more teams the first bot plays for one team against copies of the second, once for each team.

`summarize` adds up the share of rounds and of games each bot wins with a 95% Wilson
interval, the points per round and the time each bot takes per decision; `tranque arena`
(tranque.terminal.arena) prints them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field

from tranque.bots import make_bot
from tranque.bots.base import Bot
from tranque.bots.expert import Budget, ExpertBot
from tranque.engine import Game, Rules

MAX_ROUNDS = 500  # a game that long is a bug, not a game


def play_out(game: Game, bots: Sequence[Bot]) -> Game:
    """`game` played to its end by `bots` (one a seat), starting each next round; returns it."""
    while not game.is_over:
        if game.round.is_over:
            game.start_next_round()
            continue
        seat = game.round.turn
        game.apply(bots[seat].choose(game.view(seat)))
    return game


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default).

    >>> low, high = wilson(60, 100)
    >>> round(low, 3), round(high, 3)
    (0.502, 0.691)
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def seatings(rules: Rules) -> list[list[int]]:
    """For each seating, which bot (0 or 1) sits on each seat.

    >>> seatings(Rules.preset("clasico"))
    [[0, 1, 0, 1], [1, 0, 1, 0]]
    """
    teams = rules.team_count
    if teams % 2 == 0:
        patterns = [[team % 2 for team in range(teams)], [1 - team % 2 for team in range(teams)]]
    else:
        patterns = [[0 if team == first else 1 for team in range(teams)] for first in range(teams)]
    return [[pattern[rules.team_of(seat)] for seat in range(rules.players)] for pattern in patterns]


@dataclass
class GameRecord:
    """One game from the point of view of the two bots (index 0 and 1)."""

    round_wins: list[float] = field(default_factory=lambda: [0.0, 0.0])  # ties count half
    rounds: int = 0
    game_win: list[float] = field(default_factory=lambda: [0.0, 0.0])
    points: list[list[int]] = field(default_factory=lambda: [[], []])  # per round, summed per bot
    times: list[list[float]] = field(default_factory=lambda: [[], []])  # seconds per decision


def lineup(
    rules: Rules, seating: Sequence[int], names: Sequence[str], bot_seed: int, budget: Budget | None = None
) -> list[Bot]:
    """A bot for every seat: `names[seating[seat]]`, each seeded by `bot_seed` and its seat;
    the first bot's seats, with a `budget`, an `ExpertBot` searching with it."""
    return [
        ExpertBot(seed=bot_seed * 16 + seat, budget=budget)
        if budget is not None and seating[seat] == 0
        else make_bot(names[seating[seat]], seed=bot_seed * 16 + seat)
        for seat in range(rules.players)
    ]


def play_game(
    rules: Rules,
    seed: int,
    seating: Sequence[int],
    names: Sequence[str],
    bot_seed: int,
    budget: Budget | None = None,
) -> GameRecord:
    """Play one game to its end: `seating[seat]` says which of `names` plays each seat; the
    first bot, an `expert`, searches with `budget` when one is given."""
    bots = lineup(rules, seating, names, bot_seed, budget)
    owner = {rules.team_of(seat): seating[seat] for seat in range(rules.players)}
    record = GameRecord()
    game = Game(rules, seed=seed)
    while True:
        rnd = game.round
        while not rnd.is_over and not game.is_over:
            seat = rnd.turn
            view = game.view(seat)
            start = time.thread_time()
            action = bots[seat].choose(view)
            record.times[seating[seat]].append(time.thread_time() - start)
            game.apply(action)
        result = rnd.result
        if result is not None:
            record.rounds += 1
            if result.winner is None:
                record.round_wins[0] += 0.5
                record.round_wins[1] += 0.5
            else:
                record.round_wins[owner[result.winner]] += 1
            per_bot = [0, 0]
            for team, points in enumerate(result.points):
                per_bot[owner[team]] += points
            for bot in (0, 1):
                record.points[bot].append(per_bot[bot])
        if game.is_over or len(game.rounds) >= MAX_ROUNDS:
            break
        game.start_next_round()
    winners = game.winners
    for team in winners:
        record.game_win[owner[team]] += 1 / len(winners)
    return record


def _play_deal(rules: Rules, names: tuple[str, str], seed: int, budget: Budget | None) -> list[GameRecord]:
    return [play_game(rules, seed, seating, names, seed, budget) for seating in seatings(rules)]


@dataclass
class MatchSummary:
    names: tuple[str, str]
    games: int
    rounds: int
    round_wins: list[float]
    game_wins: list[float]
    points_per_round: list[float]
    times: list[list[float]]

    def round_rate(self, bot: int) -> tuple[float, float, float]:
        return _rate(self.round_wins[bot], self.rounds)

    def game_rate(self, bot: int) -> tuple[float, float, float]:
        return _rate(self.game_wins[bot], self.games)

    def time_ms(self, bot: int, quantile: float) -> float:
        return percentile(self.times[bot], quantile) * 1000


def _rate(wins: float, trials: int) -> tuple[float, float, float]:
    low, high = wilson(wins, trials)
    return (wins / trials if trials else 0.0), low, high


def percentile(values: Sequence[float], quantile: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    position = min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))
    return ordered[position]


def summarize(names: tuple[str, str], records: Sequence[GameRecord]) -> MatchSummary:
    rounds = sum(r.rounds for r in records)
    return MatchSummary(
        names=names,
        games=len(records),
        rounds=rounds,
        round_wins=[sum(r.round_wins[b] for r in records) for b in (0, 1)],
        game_wins=[sum(r.game_win[b] for r in records) for b in (0, 1)],
        points_per_round=[sum(sum(r.points[b]) for r in records) / max(rounds, 1) for b in (0, 1)],
        times=[[t for r in records for t in r.times[b]] for b in (0, 1)],
    )


def play_match(
    rules: Rules,
    names: tuple[str, str],
    deals: int,
    seed: int,
    jobs: int = 1,
    budget: Budget | None = None,
) -> Iterator[tuple[int, list[GameRecord]]]:
    """Yield (deal number, its games' records) as each duplicate deal finishes: in order with
    one job, as they come with more. With a `budget`, the first bot must be `expert`: it
    searches with that budget (against the default one when both are `expert`)."""
    if budget is not None and names[0] != "expert":
        raise ValueError(f"a budget is for the expert, not for {names[0]!r}")
    seeds = [seed * 1_000_003 + k for k in range(deals)]
    if jobs <= 1:
        for number, deal_seed in enumerate(seeds):
            yield number, _play_deal(rules, names, deal_seed, budget)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {
            pool.submit(_play_deal, rules, names, deal_seed, budget): n for n, deal_seed in enumerate(seeds)
        }
        for future in as_completed(futures):
            yield futures[future], future.result()


def games_needed(names: tuple[str, str], deals: Sequence[list[GameRecord]]) -> int | None:
    """The fewest games, counted in whole duplicate deals in deal order, after which the
    Wilson interval of the leading bot's game wins lies above one half, and stays there."""
    if not deals:
        return None
    final = summarize(names, [r for deal in deals for r in deal])
    leader = 0 if final.game_wins[0] >= final.game_wins[1] else 1
    needed = None
    wins = 0.0
    games = 0
    for deal in deals:
        wins += sum(r.game_win[leader] for r in deal)
        games += len(deal)
        above = wilson(wins, games)[0] > 0.5
        if above and needed is None:
            needed = games
        elif not above:
            needed = None
    return needed
