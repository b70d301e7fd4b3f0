"""Individual four-handed events with rotating partners: who partners whom, and against whom.

The practice at Spanish and Latin American individual events, in the swissDouble rules: the
players are ranked, cut into groups of four from the top, and each group plays 1st and 3rd
against 2nd and 4th; nobody partners the same player twice while that can be avoided (hard),
and meeting the same opponents again is avoided where a group can be split another way
(soft). The byes (the number of players modulo four) go to the lowest in the standings
without one.

A group whose three possible splits all repeat a partnership is re-formed with the groups
around it: the window of groups doubles until a maximum matching (networkx) of players who
never partnered covers it, partnerships near in the standings preferred, and the new
partnerships then meet the nearest partnership in the window. So the work stays linear in the
field (1,000 players in a few milliseconds, see benchmarks/tournament_pairing.py) unless the
field is close to exhausting its possible partnerships.

Pure: equal standings are ordered by the `random.Random` passed in (a first round is a draw).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

Table = tuple[tuple[int, int], tuple[int, int]]
Pairs = set[frozenset[int]]  # pairs of players who have been partners
Meetings = Mapping[frozenset[int], int]  # how often each pair of players met as opponents
# The splits of a group of four ranked (0, 1, 2, 3), preferred first: 1st and 3rd against 2nd and
# 4th, then 1st and 4th against 2nd and 3rd, then 1st and 2nd against 3rd and 4th.
SPLITS = (((0, 2), (1, 3)), ((0, 3), (1, 2)), ((0, 1), (2, 3)))


@dataclass(frozen=True)
class RotatingPlayer:
    entrant: int
    wins: int
    efectividad: int
    byes: int


@dataclass(frozen=True)
class RotatingRound:
    tables: list[Table]  # ((a, b), (c, d)): a+b partners v c+d
    byes: list[int]  # n % 4 players, lowest without a bye first


def pair_rotating(
    players: Sequence[RotatingPlayer],
    partnered: set[frozenset[int]],
    opposed: Mapping[frozenset[int], int],
    rng: random.Random,
) -> RotatingRound:
    """The next round's tables and byes.

    `partnered`: every pair of players who have been partners; `opposed`: how many times each
    pair of players has met as opponents.
    """
    draw = {player.entrant: rng.random() for player in players}
    ranked = sorted(players, key=lambda p: (-p.wins, -p.efectividad, draw[p.entrant]))
    # lowest first among those with the fewest byes, then the next fewest, ...
    count = len(ranked) % 4
    bottom_up = sorted(range(len(ranked)), key=lambda i: (ranked[i].byes, -i))
    bye_at = set(bottom_up[:count])
    byes = [ranked[i].entrant for i in bottom_up[:count]]
    order = [player.entrant for i, player in enumerate(ranked) if i not in bye_at]
    rank = {entrant: index for index, entrant in enumerate(order)}

    groups = [order[i : i + 4] for i in range(0, len(order), 4)]
    tables = [_best_split(group, partnered, opposed) for group in groups]
    _swap_for_opponents(groups, tables, partnered, opposed)
    failing = [index for index, table in enumerate(tables) if _repeats_partners(table, partnered)]
    if failing:
        tables = _reform(groups, tables, failing, rank, partnered, opposed)
    return RotatingRound(tables, byes)


def _best_split(
    group: list[int], partnered: set[frozenset[int]], opposed: Mapping[frozenset[int], int]
) -> Table:
    """The group's split with no repeated partner, fewest repeated opponents, preferred order."""
    options = []
    for preference, ((a, b), (c, d)) in enumerate(SPLITS):
        table = ((group[a], group[b]), (group[c], group[d]))
        options.append((_cost(table, partnered, opposed), preference, table))
    return min(options)[2]


def _cost(
    table: Table, partnered: set[frozenset[int]], opposed: Mapping[frozenset[int], int]
) -> tuple[int, int]:
    """(partnerships repeated, opponent meetings repeated) of one table."""
    (a, b), (c, d) = table
    partners = (frozenset((a, b)) in partnered) + (frozenset((c, d)) in partnered)
    opponents = sum(opposed.get(frozenset((x, y)), 0) for x in (a, b) for y in (c, d))
    return partners, opponents


def _repeats_partners(table: Table, partnered: set[frozenset[int]]) -> bool:
    return frozenset(table[0]) in partnered or frozenset(table[1]) in partnered


def _swap_for_opponents(
    groups: list[list[int]],
    tables: list[Table],
    partnered: set[frozenset[int]],
    opposed: Mapping[frozenset[int], int],
) -> None:
    """One pass down the groups: swap a group's last with the next group's first when that
    lowers the two tables' repeats (partners first, then opponents). Neighbours in the
    standings, so the groups stay groups of equals."""
    for index in range(len(groups) - 1):
        here, there = groups[index], groups[index + 1]
        before = _add(_cost(tables[index], partnered, opposed), _cost(tables[index + 1], partnered, opposed))
        if before == (0, 0):
            continue
        new_here, new_there = [*here[:3], there[0]], [here[3], *there[1:]]
        table_here = _best_split(new_here, partnered, opposed)
        table_there = _best_split(new_there, partnered, opposed)
        after = _add(_cost(table_here, partnered, opposed), _cost(table_there, partnered, opposed))
        if after < before:
            groups[index], groups[index + 1] = new_here, new_there
            tables[index], tables[index + 1] = table_here, table_there


def _add(x: tuple[int, int], y: tuple[int, int]) -> tuple[int, int]:
    return x[0] + y[0], x[1] + y[1]


def _reform(
    groups: list[list[int]],
    tables: list[Table],
    failing: list[int],
    rank: dict[int, int],
    partnered: set[frozenset[int]],
    opposed: Mapping[frozenset[int], int],
) -> list[Table]:
    """Re-form the tables around each failing group from a window of neighbouring groups."""
    tables = list(tables)
    for index in failing:
        if not _repeats_partners(tables[index], partnered):
            continue  # an earlier window already mended it
        reach = 1
        while True:
            low, high = max(0, index - reach), min(len(tables), index + reach + 1)
            pool = [entrant for table in tables[low:high] for side in table for entrant in side]
            teams = _partnerships(pool, rank, partnered)
            if len(teams) * 2 == len(pool) or (low == 0 and high == len(tables)):
                break
            reach *= 2
        tables[low:high] = _tables_of(teams, pool, rank, opposed)
    return tables


def _partnerships(
    pool: list[int], rank: dict[int, int], partnered: set[frozenset[int]]
) -> list[tuple[int, int]]:
    """The most partnerships among `pool` of players who never partnered, near ones preferred."""
    graph = nx.Graph()
    graph.add_nodes_from(pool)
    span = len(rank) + 1
    for i, a in enumerate(pool):
        for b in pool[i + 1 :]:
            if frozenset((a, b)) not in partnered:
                graph.add_edge(a, b, weight=span - abs(rank[a] - rank[b]))
    return [
        (a, b) if rank[a] < rank[b] else (b, a) for a, b in nx.max_weight_matching(graph, maxcardinality=True)
    ]


def _tables_of(
    teams: list[tuple[int, int]], pool: list[int], rank: dict[int, int], opposed: Mapping[frozenset[int], int]
) -> list[Table]:
    """Partnerships (and, when unavoidable, repeated ones) seated against each other by standing."""
    matched = {entrant for team in teams for entrant in team}
    left = sorted((entrant for entrant in pool if entrant not in matched), key=rank.__getitem__)
    teams = [*teams, *((left[i], left[i + 1]) for i in range(0, len(left) - 1, 2))]
    teams.sort(key=lambda team: rank[team[0]] + rank[team[1]])
    tables: list[Table] = []
    while teams:
        first = teams.pop(0)
        # the nearest partnership below it that repeats the fewest opponents, among the next three
        options = range(min(3, len(teams)))
        pick = min(options, key=lambda i: (_cost((first, teams[i]), set(), opposed)[1], i))
        tables.append((first, teams.pop(pick)))
    return tables
