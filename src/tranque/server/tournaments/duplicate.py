"""Duplicado: every table of a round plays the same deals, and scores are compared deal by deal.

The luck of the tiles cancels out: side 0 holds the same hands at every table, so side 0 at
one table is scored against side 0 at every other (and side 1 against side 1), by
matchpoints, as in duplicate bridge: per deal, 2 for each other table you did better than, 1
for each you tied. Over the event each entrant plays both sides about equally often (the
seating here keeps the difference at one whenever it can), and meets a new opponent each round
while that is possible.

Seating: down the standings, each entrant meets the nearest one below it who is new to it
and leans the other way (has sat side 0 less often, or more); what that leaves unpaired at the
bottom is re-paired with the nearest games by a maximum-weight matching (networkx) whose
weights put a new opponent first, a balanced side next and nearness in the standings last. The
bye (odd fields) goes to the lowest in the order who has had the fewest (an entrant's byes are
the rounds before this one it sat at no table).

Pure: the standings' order and the history come in, the tables go out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import networkx as nx


def duplicate_tables(
    order: Sequence[int],
    round_number: int,
    played: set[frozenset[int]],
    sides_so_far: Mapping[int, tuple[int, int]],
) -> tuple[list[tuple[int, int]], int | None]:
    """(side-0 entrant, side-1 entrant) per table, best first, and the bye (odd fields)."""
    sides = {entrant: sides_so_far.get(entrant, (0, 0)) for entrant in order}
    bye: int | None = None
    field = list(order)
    if len(field) % 2:
        byes = {entrant: max(0, round_number - 1 - sum(sides[entrant])) for entrant in field}
        bye = min(reversed(field), key=byes.__getitem__)
        field.remove(bye)
    rank = {entrant: index for index, entrant in enumerate(field)}
    lean = {entrant: sides[entrant][0] - sides[entrant][1] for entrant in field}

    def good(a: int, b: int) -> bool:
        return frozenset((a, b)) not in played and not (lean[a] and lean[a] == lean[b])

    games: list[tuple[int, int]] = []
    unpaired: list[int] = []
    free = list(field)
    while free:
        a = free.pop(0)
        pick = next((i for i, b in enumerate(free) if good(a, b)), None)
        if pick is None:
            unpaired.append(a)
        else:
            games.append((a, free.pop(pick)))
    if unpaired:
        games = _complete(games, unpaired, rank, played, lean)
    seated = [_seat(a, b, lean, rank) for a, b in games]
    seated.sort(key=lambda game: min(rank[game[0]], rank[game[1]]))
    return seated, bye


def _seat(a: int, b: int, lean: dict[int, int], rank: dict[int, int]) -> tuple[int, int]:
    """Side 0 to whoever has sat there less often (the higher in the standings on equal)."""
    return (a, b) if (lean[a], rank[a]) <= (lean[b], rank[b]) else (b, a)


def _complete(
    games: list[tuple[int, int]],
    unpaired: list[int],
    rank: dict[int, int],
    played: set[frozenset[int]],
    lean: dict[int, int],
) -> list[tuple[int, int]]:
    """Re-pair the unpaired with a doubling window of the nearest games until the window's best
    matching has no rematch and no unbalanced side (or the window is the whole field)."""
    nearest = sorted(games, key=lambda game: min(abs(rank[e] - rank[u]) for e in game for u in unpaired))
    size = 1
    while True:
        window, kept = nearest[:size], nearest[size:]
        pool = [*unpaired, *(entrant for game in window for entrant in game)]
        matched = _matching(pool, rank, played, lean)
        flawless = all(frozenset(game) not in played and not _clash(*game, lean) for game in matched)
        if (flawless and 2 * len(matched) == len(pool)) or size >= len(nearest):
            return kept + matched
        size *= 2


def _clash(a: int, b: int, lean: dict[int, int]) -> bool:
    return bool(lean[a]) and lean[a] == lean[b]


def _matching(
    pool: list[int], rank: dict[int, int], played: set[frozenset[int]], lean: dict[int, int]
) -> list[tuple[int, int]]:
    """A perfect matching of `pool`: fewest rematches, then fewest unbalanced sides, then nearest."""
    span = len(rank) + 1
    balance = span * len(pool)  # outweighs any sum of nearness
    new = balance * len(pool)  # outweighs any sum of balance
    graph = nx.Graph()
    for i, a in enumerate(pool):
        for b in pool[i + 1 :]:
            weight = span - abs(rank[a] - rank[b])
            weight += balance * (not _clash(a, b, lean)) + new * (frozenset((a, b)) not in played)
            graph.add_edge(a, b, weight=weight)
    return [(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True)]


def matchpoints(diffs: Mapping[int, Sequence[int]]) -> dict[int, tuple[float, float]]:
    """Each table's (side 0, side 1) matchpoints, summed over the round's deals.

    `diffs[table][deal]` is side 0's points minus side 1's in that deal. Per deal, side 0 gets 2
    for each other table whose side 0 did worse and 1 for each that did the same; side 1 gets
    2 * (T - 1) minus that, T being the tables that played the deal.
    """
    result = {table: [0.0, 0.0] for table in diffs}
    deals = max((len(row) for row in diffs.values()), default=0)
    for deal in range(deals):
        scores = {table: row[deal] for table, row in diffs.items() if deal < len(row)}
        top = 2 * (len(scores) - 1)
        for table, mine in scores.items():
            earned = sum(2 if mine > other else 1 if mine == other else 0 for other in scores.values())
            earned -= 1  # the table itself, counted as a tie above
            result[table][0] += earned
            result[table][1] += top - earned
    return {table: (zero, one) for table, (zero, one) in result.items()}
