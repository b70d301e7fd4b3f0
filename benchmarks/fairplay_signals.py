"""How often the fair-play signals (tranque.server.moderation) flag honest accounts, and whether
they flag an account played by the expert.

    python benchmarks/fairplay_signals.py                         # the defaults below
    python benchmarks/fairplay_signals.py --per-level 3 --games 60 --establish 150

Accounts are played by the bots, one level each (random, greedy, heuristic, expert: see
docs/bots.md), in rated individual games of `clasico` (4 players, each alone, to 100), seated
at random, offline: the engine plays them, and the site's own rating code (`finish_ranks`,
the OpenSkill model of players/ratings.py) rates them in order.

1. Established: the honest accounts (random, greedy, heuristic) play `--establish` games among
   themselves first, rated but not analysed: their ratings settle. The pairs and flows
   signals are computed over these results (every two accounts meet many times): how many
   honest pairs they flag. `--establish-only` stops there.
2. Observed: the expert accounts arrive with a newcomer's rating, as a person driven by the
   expert would, and everybody plays `--games` games, seated at random. Each is kept in an
   in-memory store as the recorder keeps it (`games` and `game_players` rows, with the
   record and the ratings before and after).

The real `FairPlaySampler` then walks the kept games with the server's settings (sample rate,
deals per decision, thresholds: `--rate`, `--deals` change them), analysing the chosen
ones in this process (a thread, as in the tests; the server uses a worker process), and
computes the signals over them. Per level it prints the accounts, their sampled games and
judged decisions, their accuracy against the line the sampler fitted, and how many accounts
each signal flagged (a pair or a flow counts for both its accounts).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import itertools
import json
import random
import statistics
import time
from collections import defaultdict

from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.engine.record import to_record
from tranque.server.moderation.sampler import FairPlaySampler
from tranque.server.moderation.signals import (
    ACCURACY,
    FLOW,
    PAIR,
    Signal,
    Thresholds,
    account_accuracies,
    accuracy_signals,
    by_game,
    fit_line,
    flow_signals,
    pair_signals,
    trimmed_line,
)
from tranque.server.players import ratings
from tranque.server.players.game_rating import finish_ranks
from tranque.server.settings import Settings
from tranque.server.store import FairPlaySample, GamePlayerRow, GameRow, MemoryStore
from tranque.server.table.clock import FakeClock

RULES = Rules.preset("clasico", players=4, mode="individual")
HONEST = ("random", "greedy", "heuristic")
LEVELS = (*HONEST, "expert")


class Population:
    """The accounts, their levels and their current ratings."""

    def __init__(self, per_level: int) -> None:
        self.level: dict[int, str] = {}
        self.rating: dict[int, ratings.Rating] = {}
        for level in LEVELS:
            for _ in range(per_level):
                user_id = len(self.level) + 1
                self.level[user_id] = level
                self.rating[user_id] = ratings.rating()

    def of(self, *levels: str) -> list[int]:
        return [user for user, level in self.level.items() if level in levels]


def play(population: Population, seats: list[int], seed: int) -> tuple[Game, list[GamePlayerRow]]:
    """One rated game of `seats` (account ids), played by their levels' bots, and each
    account's part in it with its rating before and after (the ratings are updated)."""
    bots = [make_bot(population.level[user], seed=seed * 8 + seat) for seat, user in enumerate(seats)]
    game = play_out(Game(RULES, seed=seed), bots)
    ranks = finish_ranks(RULES, game.winners, game.scores)
    before = [population.rating[user] for user in seats]
    after = ratings.rate([[rating] for rating in before], ranks)
    rows = []
    for seat, user in enumerate(seats):
        new = after[seat][0]
        rows.append(
            GamePlayerRow(
                f"t{seed}.1",
                user,
                seat,
                0.0,
                RULES.preset_name,
                "individual",
                False,
                ranks[seat] == 0,
                False,
                10,
                before[seat].mu,
                before[seat].sigma,
                new.mu,
                new.sigma,
            )
        )
        population.rating[user] = new
    return game, rows


async def observe(args: argparse.Namespace) -> None:
    settings = Settings()
    rate = settings.fairplay_sample_rate if args.rate is None else args.rate
    deals = settings.fairplay_deals if args.deals is None else args.deals
    draw = random.Random(args.seed)
    population = Population(args.per_level)
    started = time.process_time()
    honest = population.of(*HONEST)
    results: list[GamePlayerRow] = []
    for number in range(args.establish):
        _, rows = play(population, draw.sample(honest, 4), seed=1_000_000 + number)
        results += [dataclasses.replace(row, finished_at=float(number)) for row in rows]
    established = time.process_time() - started
    print(
        f"1. {len(honest)} honest accounts played {args.establish} games among themselves "
        f"({established:.0f} s CPU)"
    )
    for level in HONEST:
        mus = [population.rating[user].mu for user in population.of(level)]
        print(f"   {level:9} μ {min(mus):5.1f} – {max(mus):5.1f}")
    thresholds = Settings().fairplay_thresholds
    meetings: dict[tuple[int, int], int] = defaultdict(int)
    for rows in by_game(results):
        for a, b in itertools.combinations(sorted(row.user_id for row in rows), 2):
            meetings[a, b] += 1
    pairs, flows = pair_signals(results, thresholds), flow_signals(results, thresholds)
    print(
        f"   pairs of honest accounts: {len(meetings)}, "
        f"met {min(meetings.values())}–{max(meetings.values())} times; "
        f"flagged: {len(pairs)} as sitting together, {len(flows)} as a rating flow"
    )
    for signal in [*pairs, *flows]:
        levels = [population.level[user] for user in signal.accounts]
        evidence = {k: v for k, v in signal.evidence.items() if k != "game_ids"}
        print(f"   {signal.kind} {signal.accounts} {levels}: {evidence}")
    if args.establish_only:
        return

    clock = FakeClock()
    store = MemoryStore()
    for user_id, level in population.level.items():
        await store.create_user(f"{level}{user_id}", "hash", 1.0)
    start = clock.now() - args.games * 60
    everyone = list(population.level)
    started = time.process_time()
    for number in range(args.games):
        at = start + 60 * number
        game, rows = play(population, draw.sample(everyone, 4), seed=number)
        game_id = f"t{number}.1"
        row = GameRow(
            game_id, f"t{number}", 1, at, RULES.preset_name, "individual", 4, "public", False, True,
            True, None, {"seats": []}, to_record(game),
        )  # fmt: skip
        await store.save_game(row, [GamePlayerRow(**{**r.__dict__, "finished_at": at}) for r in rows], [], [])
    played = time.process_time() - started
    print(
        f"2. {len(everyone)} accounts ({args.per_level} a level) played {args.games} games "
        f"({played:.0f} s CPU)"
    )

    found: list[Signal] = []

    async def on_signal(signal: Signal) -> None:
        found.append(signal)

    sampler = FairPlaySampler(
        store,
        clock,
        rate=rate,
        deals=deals,
        window=settings.fairplay_window_days * 86400.0,
        thresholds=settings.fairplay_thresholds,
        on_signal=on_signal,
        in_processes=False,
    )
    started = time.process_time()
    sampled = 0
    while True:
        count = await sampler.run_once()
        sampled += count
        print(f"   sampled {sampled} games ({time.process_time() - started:.0f} s CPU)", flush=True)
        if not count:
            break
    await sampler.close()
    analysed = time.process_time() - started
    samples = await store.fairplay_samples(0.0)
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            json.dump({"levels": population.level, "samples": [dataclasses.asdict(s) for s in samples]}, out)
    print(
        f"3. sampler: rate {rate}, {deals} deals per decision: {sampled} games analysed, "
        f"{analysed:.0f} s CPU ({analysed / max(1, sampled):.1f} s a game)"
    )
    report(population.level, samples, found, settings.fairplay_thresholds)


def report(
    level_of: dict[int, str], samples: list[FairPlaySample], found: list[Signal], limits: Thresholds
) -> None:
    """The line the accuracy signal used, and per level its accounts' figures and flags."""
    first = fit_line(samples)
    assert first is not None
    line = trimmed_line(samples, first, limits)
    for name, fitted in (("line fitted on every sample", first), ("line trimmed (the signal's)", line)):
        print(
            f"   {name}: {100 * fitted.at(20):.1f}% at μ 20, {100 * fitted.at(25):.1f}% at μ 25, "
            f"{100 * fitted.at(30):.1f}% at μ 30, {100 * fitted.at(35):.1f}% at μ 35; "
            f"φ {fitted.dispersion:.2f}, "
            f"{fitted.games} games"
        )
    measured = {a.user_id: a for a in account_accuracies(samples, line)}
    mus: dict[int, list[float]] = defaultdict(list)
    for sample in samples:
        mus[sample.user_id].append(sample.mu_before)
    flagged: dict[str, set[int]] = defaultdict(set)
    for signal in found:
        flagged[signal.kind].update(signal.accounts)
    print()
    print(
        "| level | accounts | sampled games (min–max) | μ as they sat (min–max) | judged decisions "
        "| accuracy | expected | z (min–max) | flagged: accuracy / pair / flow |"
    )
    print("|---|---:|---|---|---:|---:|---:|---|---|")
    for level in LEVELS:
        users = [user for user, its in level_of.items() if its == level]
        mine = [measured[user] for user in users if user in measured]
        games = [a.games for a in mine] or [0]
        seen = [mu for user in users for mu in mus[user]] or [0.0]
        decisions = sum(a.decisions for a in mine)
        accuracy = 100 * sum(a.accurate for a in mine) / max(1, decisions)
        expected = 100 * sum(a.expected for a in mine) / max(1, decisions)
        zs = [a.z for a in mine] or [0.0]
        counts = " / ".join(str(len(flagged[kind] & set(users))) for kind in (ACCURACY, PAIR, FLOW))
        print(
            f"| {level} | {len(users)} | {statistics.mean(games):.1f} ({min(games)}–{max(games)}) "
            f"| {min(seen):.1f}–{max(seen):.1f} | {decisions} | {accuracy:.1f}% | {expected:.1f}% "
            f"| {min(zs):.1f} – {max(zs):.1f} | {counts} |"
        )
    print()
    for signal in found:
        levels = [level_of[user] for user in signal.accounts]
        evidence = {k: v for k, v in signal.evidence.items() if k not in ("game_ids", "line")}
        print(f"   {signal.kind} {signal.accounts} {levels}: {evidence}")


def from_dump(path: str) -> None:
    """The accuracy signal again over the samples a run wrote with `--dump` (no play, no analysis)."""
    with open(path, encoding="utf-8") as source:
        dumped = json.load(source)
    level_of = {int(user): level for user, level in dumped["levels"].items()}
    samples = [FairPlaySample(**sample) for sample in dumped["samples"]]
    limits = Settings().fairplay_thresholds
    print(f"{len(samples)} samples of {len(level_of)} accounts, from {path}: the accuracy signal only")
    report(level_of, samples, accuracy_signals(samples, limits), limits)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=3, help="accounts of each bot level")
    parser.add_argument("--establish", type=int, default=150, help="games the honest accounts play first")
    parser.add_argument("--games", type=int, default=60, help="games observed, everybody at random tables")
    parser.add_argument("--rate", type=float, default=None, help="sample rate (default: the server's)")
    parser.add_argument("--deals", type=int, default=None, help="deals per decision (default: the server's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dump", metavar="PATH", help="write the accounts' levels and samples as JSON")
    parser.add_argument("--from-dump", metavar="PATH", help="only recompute the accuracy signal from a dump")
    parser.add_argument(
        "--establish-only", action="store_true", help="stop after part 1 and its pairs' signals"
    )
    args = parser.parse_args()
    if args.from_dump:
        from_dump(args.from_dump)
    else:
        asyncio.run(observe(args))


if __name__ == "__main__":
    main()
