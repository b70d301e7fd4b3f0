"""How long one tournament round takes to pair, for each pairer, in big fields.

    python benchmarks/tournament_pairing.py [--entrants 1000] [--before 4] [--seed 1]
    python benchmarks/tournament_pairing.py --dutch 40,48,56,64,72   # re-measure DUTCH_MOST

Each pairer plays `--before` simulated rounds (random results, the history the machine keeps)
and the figure is the slowest of the timed rounds after them, in seconds, on one core:

* suizo, casual engine (caissify-pairings, plus the repair that re-pairs what it leaves out);
* suizo, Dutch engine at DUTCH_MOST entrants, rounds 2..5 (the largest field it pairs);
* rotating partners (tournaments/partners.py);
* arena, every entrant free at once, duels and four-handed tables;
* duplicado seating.

`--dutch` prints the Dutch engine's slowest round 2..5 for each field size listed, odd sizes
next to even ones, the figures DUTCH_MOST was chosen from (the largest field within ~1 s).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from tranque.server.tournaments.arena_pairing import ArenaPlayer, pair_arena
from tranque.server.tournaments.duplicate import duplicate_tables
from tranque.server.tournaments.partners import RotatingPlayer, pair_rotating
from tranque.server.tournaments.swiss import DUTCH_MOST, SwissPlayer, pair_swiss


def swiss(entrants: int, rounds: int, rng: random.Random, engine: str | None, timed_from: int) -> float:
    """The slowest round from `timed_from` to `rounds` of a simulated suizo."""
    players = {no: SwissPlayer(no, 0.0, 2000 - no, no, (), (), 0) for no in range(1, entrants + 1)}
    played: set[frozenset[int]] = set()
    slowest = 0.0
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        paired = pair_swiss(list(players.values()), played, number, rounds, engine=engine)
        if number >= timed_from:
            slowest = max(slowest, time.perf_counter() - started)
        new = dict(players)
        for first, second in paired.games:
            played.add(frozenset((first, second)))
            a, b = players[first], players[second]
            won = rng.random() < 0.5
            drift = "down" if a.score > b.score else "up" if a.score < b.score else "none"
            back = {"down": "up", "up": "down", "none": "none"}[drift]
            new[first] = _played(a, won, "first", drift)
            new[second] = _played(b, not won, "second", back)
        if paired.bye is not None:
            p = players[paired.bye]
            new[p.entrant] = SwissPlayer(
                p.entrant, p.score + 1, p.rating, p.seed, (*p.sides, "none"), (*p.floats, "down"), p.byes + 1
            )
        players = new
    return slowest


def _played(p: SwissPlayer, won: bool, side: str, drift: str) -> SwissPlayer:
    return SwissPlayer(
        p.entrant, p.score + won, p.rating, p.seed, (*p.sides, side), (*p.floats, drift), p.byes
    )


def rotating(entrants: int, before: int, rng: random.Random) -> float:
    players = {no: RotatingPlayer(no, 0, 0, 0) for no in range(1, entrants + 1)}
    partnered: set[frozenset[int]] = set()
    opposed: dict[frozenset[int], int] = {}
    for _ in range(before):
        paired = pair_rotating(list(players.values()), partnered, opposed, rng)
        for first, second in paired.tables:
            partnered |= {frozenset(first), frozenset(second)}
            for x in first:
                for y in second:
                    opposed[frozenset((x, y))] = opposed.get(frozenset((x, y)), 0) + 1
            margin = rng.randint(1, 100) * (1 if rng.random() < 0.5 else -1)
            for team, sign in ((first, 1), (second, -1)):
                for no in team:
                    p = players[no]
                    wins = p.wins + (sign * margin > 0)
                    players[no] = RotatingPlayer(no, wins, p.efectividad + sign * margin, p.byes)
        for no in paired.byes:
            p = players[no]
            players[no] = RotatingPlayer(no, p.wins + 1, p.efectividad, p.byes + 1)
    started = time.perf_counter()
    pair_rotating(list(players.values()), partnered, opposed, rng)
    return time.perf_counter() - started


def arena(entrants: int, per_table: int, rng: random.Random) -> float:
    order = list(range(1, entrants + 1))
    rng.shuffle(order)
    last: dict[int, tuple[int, ...]] = {}
    for i in range(0, entrants, per_table):
        table = order[i : i + per_table]
        for no in table:
            last[no] = tuple(other for other in table if other != no)
    free = [
        ArenaPlayer(no, rng.randint(0, 20), rng.random(), last.get(no, ())) for no in range(1, entrants + 1)
    ]
    started = time.perf_counter()
    pair_arena(free, per_table)
    return time.perf_counter() - started


def duplicate(entrants: int, before: int, rng: random.Random) -> float:
    field = list(range(1, entrants + 1))
    played: set[frozenset[int]] = set()
    sides = dict.fromkeys(field, (0, 0))
    seconds = 0.0
    for number in range(1, before + 2):
        scores = {no: rng.randint(0, 4 * number) for no in field}
        order = sorted(field, key=lambda no: (-scores[no], no))
        started = time.perf_counter()
        tables, _ = duplicate_tables(order, number, played, sides)
        seconds = time.perf_counter() - started
        for zero, one in tables:
            played.add(frozenset((zero, one)))
            sides[zero] = (sides[zero][0] + 1, sides[zero][1])
            sides[one] = (sides[one][0], sides[one][1] + 1)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--before", type=int, default=4, help="simulated rounds before the timed one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dutch", help="field sizes to time the Dutch engine at, e.g. 40,48,56,64")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.dutch:
        print("| entrants | Dutch, slowest of rounds 2..5 (s) |")
        print("|---|---|")
        for size in (int(text) for text in args.dutch.split(",")):
            print(f"| {size} | {swiss(size, 5, rng, 'dutch', 2):.2f} |", flush=True)
        return
    n, last = args.entrants, args.before + 1
    rows: list[tuple[str, Callable[[], float]]] = [
        (f"suizo, casual engine, {n} entrants, round {last}", lambda: swiss(n, last, rng, "casual", last)),
        (
            f"suizo, Dutch engine, {DUTCH_MOST} entrants (DUTCH_MOST), slowest of rounds 2..5",
            lambda: swiss(DUTCH_MOST, 5, rng, "dutch", 2),
        ),
        (f"rotating partners, {n} players, round {last}", lambda: rotating(n, args.before, rng)),
        (f"arena, {n} free at once, duels", lambda: arena(n, 2, rng)),
        (f"arena, {n} free at once, four-handed", lambda: arena(n, 4, rng)),
        (f"duplicado, {n} entrants, round {last}", lambda: duplicate(n, args.before, rng)),
    ]
    print("| pairer | one round (s) |")
    print("|---|---|")
    for name, run in rows:
        print(f"| {name} | {run():.3f} |", flush=True)


if __name__ == "__main__":
    main()
