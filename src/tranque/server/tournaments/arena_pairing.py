"""The arena's pairing: whoever is free plays again at once, with someone of a similar score.

The arena (lichess's format, and Ludoteka's rolling tables) has no rounds: a player who
finishes a game joins the free players, and the machine pairs the free ones straight away.
Those who have waited longest sit down first; whoever is left over (fewer than a table) waits
for the next finisher. The seated are ordered by score and cut into tables, so scores near
each other meet, and nobody faces an opponent of their last game again, nor, in a battle of
peña against peña, a member of their own peña (lichess's team battles: teams play each
other), while the free players can be seated otherwise: a table that would is re-seated (a
four-handed table's other split) or swaps a player with a table near it in the order. In
pairs, two members of one peña may be partners.

Pure: the free players come in, the tables go out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class ArenaPlayer:
    entrant: int
    score: int
    since: float  # when the entrant became free (their last game ended, or they joined)
    last_opponents: tuple[int, ...]  # the entrants on the other side(s) in their last game
    team: int | None = None  # peña against peña: the peña the entrant plays for


# A four-handed table's seats 0 and 2 partner against 1 and 3. The splits of four players ranked
# (0, 1, 2, 3), preferred first, as seatings: 1st and 3rd v 2nd and 4th, 1st and 4th v 2nd and
# 3rd, 1st and 2nd v 3rd and 4th.
_FOUR_SEATINGS = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3))
# How far down the order a table with a rematch looks for a player to swap with, in big fields.
_REACH = 8


def pair_arena(free: Sequence[ArenaPlayer], per_table: int) -> list[tuple[int, ...]]:
    """Tables of `per_table` entrants (2: a duel; 4: seats 0, 2 v 1, 3), best scores first."""
    if per_table < 2:
        raise ValueError("a table seats at least two")
    count = len(free) // per_table
    if count == 0:
        return []
    seated = sorted(free, key=lambda p: (p.since, p.entrant))[: count * per_table]
    ordered = [p.entrant for p in sorted(seated, key=lambda p: (-p.score, p.since, p.entrant))]
    last = {p.entrant: frozenset(p.last_opponents) for p in free}
    teams = {p.entrant: p.team for p in free if p.team is not None}
    seating = _Seating(last, teams, per_table)
    groups = [ordered[i : i + per_table] for i in range(0, len(ordered), per_table)]
    tables = [seating.best(group) for group in groups]
    _mend(tables, seating)
    return [tuple(table) for table in tables]


class _Seating:
    def __init__(self, last: dict[int, frozenset[int]], teams: dict[int, int], per_table: int) -> None:
        self.last = last
        self.teams = teams
        self.per_table = per_table

    def met(self, a: int, b: int) -> bool:
        """Whether a and b should not be opponents: they were in their last game, or they play
        for the same peña."""
        if b in self.last.get(a, frozenset()) or a in self.last.get(b, frozenset()):
            return True
        team = self.teams.get(a)
        return team is not None and team == self.teams.get(b)

    def rematches(self, table: list[int]) -> int:
        """Pairs of opponents at the table who should not be: opponents in their last game, or
        of the same peña."""
        if self.per_table == 4:
            return sum(self.met(table[i], table[j]) for i, j in ((0, 1), (0, 3), (2, 1), (2, 3)))
        return sum(self.met(a, b) for i, a in enumerate(table) for b in table[i + 1 :])

    def best(self, group: list[int]) -> list[int]:
        """The group's seating with the fewest rematches (a four's preferred split on equal)."""
        if self.per_table != 4:
            return list(group)
        options = [[group[i] for i in order] for order in _FOUR_SEATINGS]
        return min(options, key=self.rematches)


def _mend(tables: list[list[int]], seating: _Seating) -> None:
    """Swap players between a table with a rematch and the nearest tables while that lowers the
    two tables' rematches; stops when a pass changes nothing."""
    reach = len(tables) if len(tables) <= 4 * _REACH else _REACH
    changed = True
    while changed:
        changed = False
        for i, table in enumerate(tables):
            if not seating.rematches(table):
                continue
            for j in sorted(
                range(max(0, i - reach), min(len(tables), i + reach + 1)), key=lambda j: abs(j - i)
            ):
                if j != i and _try_swap(tables, i, j, seating):
                    changed = True
                    break


def _try_swap(tables: list[list[int]], i: int, j: int, seating: _Seating) -> bool:
    """Swap one player of table i with one of table j if that lowers their rematches; the players
    nearest each other in the order first (i's last with j's first when j is below)."""
    before = seating.rematches(tables[i]) + seating.rematches(tables[j])
    mine, theirs = range(len(tables[i])), range(len(tables[j]))
    if j > i:
        mine = mine[::-1]
    else:
        theirs = theirs[::-1]
    for x in mine:
        for y in theirs:
            here, there = list(tables[i]), list(tables[j])
            here[x], there[y] = there[y], here[x]
            here, there = seating.best(here), seating.best(there)
            if seating.rematches(here) + seating.rematches(there) < before:
                tables[i], tables[j] = here, there
                return True
    return False
