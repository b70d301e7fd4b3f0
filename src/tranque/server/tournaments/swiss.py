"""The suizo's rounds: FIDE's Dutch system while the field is small enough, a casual Swiss above.

Both engines are caissify-pairings' (Apache-2.0): its Dutch engine agrees with bbpPairings,
FIDE's reference, on every round of the FIDE A.7 check, but it is pure Python and slow in big
fields (measured here, rounds 2..5: up to 0.6-0.9 s a round at 40 to 44 entrants, 1.2-1.3 s
at 45 and 48, 3.5-5 s at 100 and more than 300 s at 1,000), so fields above `DUTCH_MOST` are
paired by its casual engine (0.1-0.2 s a round at 1,000). The casual engine is greedy: it
never pairs two entrants twice, but it can leave a few unpaired at the bottom when the only
opponents left are ones they met. `_complete` then re-pairs those together with the nearest
games by a maximum matching (networkx), so nobody is left out, or meets an opponent again,
while a pairing without it exists. The casual engine's bye is chosen here: the lowest entrant
in the standings without a bye whose absence leaves the rest pairable (the Dutch engine's own
rule is FIDE's: the lowest score group that can give it).

A side is `first` or `second`: who sits first at the table. The engines are given no colour
history: in dominó who sits first matters far less than white does in chess, and FIDE's
absolute colour rules (never three times the same colour, ...) would otherwise give byes to
higher scores and leave players unpaired in small fields (the property tests found both). Sides
are set here instead, each game's first side being whoever has sat first less often so far.
Dominó games have no draws, so an entrant's score is its games won (byes included).

Pure: the history comes in as arguments, the round goes out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import networkx as nx
from caissify_pairings import generate_pairings

# The largest field paired by the Dutch engine: measured by `benchmarks/tournament_pairing.py
# --dutch 40,41,...` over simulated rounds 2..5 on this project's (shared, 2-core) machine, the
# slowest round took 0.6-0.9 s from 40 to 44 entrants and 1.2-1.3 s at 45 and 48. (Given the
# colour history it is 2-3 times faster, 0.6 s at 56, but see the module's docstring.)
DUTCH_MOST = 44


@dataclass(frozen=True)
class SwissPlayer:
    entrant: int
    score: float  # games won, byes included
    rating: int
    seed: int  # 1-based starting number
    sides: tuple[str, ...]  # per round: "first" | "second" | "none" (bye/absent)
    floats: tuple[str, ...]  # per round: "up" | "down" | "none"
    byes: int


@dataclass(frozen=True)
class SwissRound:
    games: list[tuple[int, int]]  # (first side, second side) entrants
    bye: int | None
    engine: str  # "dutch" | "casual"


def pair_swiss(
    players: Sequence[SwissPlayer],
    played: set[frozenset[int]],
    round_number: int,
    total_rounds: int,
    *,
    engine: str | None = None,
) -> SwissRound:
    """The next round of a suizo between `players` (those still in), given who `played` whom.

    Every game of the answer is between two entrants who have not met while a pairing without
    a rematch exists; one entrant (odd fields only) has the bye, a second bye only when
    everyone has had one. `engine` forces "dutch" or "casual" (default: by the field's size).
    """
    chosen = engine or ("dutch" if len(players) <= DUTCH_MOST else "casual")
    if len(players) < 2:
        return SwissRound([], players[0].entrant if players else None, chosen)
    by_entrant = {player.entrant: player for player in players}
    previous = {_pair_key(*pair) for pair in played if len(pair) == 2}
    if chosen == "dutch":
        return _dutch(players, by_entrant, previous, played, round_number, total_rounds)
    return _casual(players, by_entrant, previous, played, round_number, total_rounds)


def _dutch(
    players: Sequence[SwissPlayer],
    by_entrant: dict[int, SwissPlayer],
    previous: set[tuple[int, int]],
    played: set[frozenset[int]],
    round_number: int,
    total_rounds: int,
) -> SwissRound:
    out = generate_pairings(
        "dutch", [_engine_player(p, round_number) for p in players], previous, round_number, total_rounds
    )
    games = [(row["white_id"], row["black_id"]) for row in out if row.get("black_id") is not None]
    unpaired = [row["white_id"] for row in out if row.get("black_id") is None]
    bye: int | None = None
    if unpaired and len(players) % 2:
        bye = unpaired[0]
        unpaired = unpaired[1:]
    return SwissRound(_seated(_complete(games, unpaired, by_entrant, played), by_entrant), bye, "dutch")


def _casual(
    players: Sequence[SwissPlayer],
    by_entrant: dict[int, SwissPlayer],
    previous: set[tuple[int, int]],
    played: set[frozenset[int]],
    round_number: int,
    total_rounds: int,
) -> SwissRound:
    rows = [_engine_player(p, round_number) for p in players]
    if len(players) % 2 == 0:
        return SwissRound(
            _casual_games(rows, by_entrant, previous, played, round_number, total_rounds), None, "casual"
        )
    # In a big field the lowest candidate all but always leaves the rest pairable; trying more
    # than a few would cost a casual pairing each.
    candidates = _bye_candidates(players)[: len(players) if len(players) <= 4 * DUTCH_MOST else 16]
    first_try: list[tuple[int, int]] | None = None
    for candidate in candidates:
        rest = [row for row in rows if row["id"] != candidate]
        games = _casual_games(rest, by_entrant, previous, played, round_number, total_rounds)
        if not any(frozenset(game) in played for game in games):
            return SwissRound(games, candidate, "casual")
        first_try = first_try or games
    # nobody's bye leaves a field without rematches: the lowest takes it, the fewest rematches follow
    assert first_try is not None
    return SwissRound(first_try, candidates[0], "casual")


def _casual_games(
    rows: list[dict[str, Any]],
    by_entrant: dict[int, SwissPlayer],
    previous: set[tuple[int, int]],
    played: set[frozenset[int]],
    round_number: int,
    total_rounds: int,
) -> list[tuple[int, int]]:
    out = generate_pairings("casual", rows, previous, round_number, total_rounds, max_byes_per_player=1)
    games = [(row["white_id"], row["black_id"]) for row in out if row.get("black_id") is not None]
    unpaired = [row["white_id"] for row in out if row.get("black_id") is None]
    return _seated(_complete(games, unpaired, by_entrant, played), by_entrant)


def _bye_candidates(players: Sequence[SwissPlayer]) -> list[int]:
    """Who may have the bye, lowest in the standings first: those without one, or else everyone."""
    fewest = min(player.byes for player in players)
    lowest_first = sorted(players, key=lambda p: (p.byes > fewest, p.score, -p.seed))
    return [player.entrant for player in lowest_first]


def _complete(
    games: list[tuple[int, int]],
    unpaired: list[int],
    by_entrant: dict[int, SwissPlayer],
    played: set[frozenset[int]],
) -> list[tuple[int, int]]:
    """Pair the `unpaired` (an even number) by re-pairing them with the games nearest in the standings.

    The window of games re-paired doubles until a maximum matching without rematches covers it
    (the whole field at worst); if none exists, the rest are paired among themselves anyway,
    since a rematch is better than a second game lost to nobody.
    """
    if not unpaired:
        return games
    rank = _ranks(by_entrant.values())
    nearest = sorted(games, key=lambda game: min(abs(rank[e] - rank[u]) for e in game for u in unpaired))
    size = 1
    while True:
        window, kept = nearest[:size], nearest[size:]
        pool = [*unpaired, *(entrant for game in window for entrant in game)]
        matched = _matching(pool, rank, played)
        if 2 * len(matched) == len(pool) or size >= len(nearest):
            break
        size *= 2
    left = [entrant for entrant in pool if not any(entrant in pair for pair in matched)]
    left.sort(key=rank.__getitem__)
    matched += [(left[i], left[i + 1]) for i in range(0, len(left) - 1, 2)]
    return kept + matched


def _matching(pool: list[int], rank: dict[int, int], played: set[frozenset[int]]) -> list[tuple[int, int]]:
    """The most games without rematches among `pool`, entrants close in the standings preferred."""
    graph = nx.Graph()
    graph.add_nodes_from(pool)
    span = len(rank) + 1
    for i, a in enumerate(pool):
        for b in pool[i + 1 :]:
            if frozenset((a, b)) not in played:
                graph.add_edge(a, b, weight=span - abs(rank[a] - rank[b]))
    return [(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]


def _seated(games: list[tuple[int, int]], by_entrant: dict[int, SwissPlayer]) -> list[tuple[int, int]]:
    """Each game as (first side, second side), best board first.

    First is whoever has sat first less often (then whoever sat second last time, then the higher).
    """
    rank = _ranks(by_entrant.values())

    def lean(entrant: int) -> tuple[int, int, int]:
        sides = [side for side in by_entrant[entrant].sides if side != "none"]
        last = {"first": 1, "second": -1}.get(sides[-1], 0) if sides else 0
        return sides.count("first") - sides.count("second"), last, rank[entrant]

    seated = [(a, b) if lean(a) <= lean(b) else (b, a) for a, b in games]
    return sorted(seated, key=lambda game: min(rank[game[0]], rank[game[1]]))


def _ranks(players: Iterable[SwissPlayer]) -> dict[int, int]:
    ordered = sorted(players, key=lambda p: (-p.score, p.seed, p.entrant))
    return {player.entrant: index for index, player in enumerate(ordered)}


def _pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _engine_player(player: SwissPlayer, round_number: int) -> dict[str, Any]:
    """caissify's player record: no colours (see the module's docstring), floats as given, a late
    entrant's rounds before it joined counted as rounds without a float."""
    floats = list(player.floats)
    floats = ["none"] * max(0, round_number - 1 - len(floats)) + floats
    return {
        "id": player.entrant,
        "name": str(player.entrant),
        "score": float(player.score),
        "rating": player.rating,
        "starting_number": player.seed,
        "pairing_number": player.seed,
        "color_hist": [],
        "float_history": floats,
        "bye_count": player.byes,
    }
