"""Peña against peña: an arena whose entrants each play for one of its peñas, and whose peña
standing counts each peña's best `counting` entrants (docs/tournaments.md, «Peña against
peña»), so a big peña and a small one compete on equal terms — lichess's team battles, where
a team's "leaders" count.

A peña's score is the sum of the arena scores (games won) of its `counting` best entrants, the
best as the arena's own standing orders them (its place). Ties between peñas: the sum of those
counted entrants' efectividad (tantos for − against), then of their tantos for, then the peña
whose best counted entrant placed higher; peñas equal in all of these share the rank (listed
in the event's order). A peña with fewer entrants than `counting` counts those it has.

>>> rows = battle_standing([7, 9], 2, [BattleEntrant(7, "ana", 1, 3, 40, 300),
...     BattleEntrant(9, "beto", 2, 2, 10, 200), BattleEntrant(9, "caro", 3, 2, 5, 190),
...     BattleEntrant(7, "dani", 4, 0, -60, 50)])
>>> [(r.pena_id, r.rank, r.score, r.counted) for r in rows]
[(9, 1, 4, ('beto', 'caro')), (7, 2, 3, ('ana', 'dani'))]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

PENAS_RANGE: Final = (2, 10)  # peñas in one battle
COUNTING_RANGE: Final = (1, 20)  # entrants counted per peña


@dataclass(frozen=True)
class BattleEntrant:
    """An entrant as the arena's standing left it, with the peña it plays for."""

    pena_id: int
    name: str
    place: int  # in the arena's standing (1 = first)
    wins: int  # the arena score: games won
    efectividad: int
    points_for: int


@dataclass(frozen=True)
class PenaStanding:
    pena_id: int
    rank: int  # 1-based; equal ranks only when every key is equal
    score: int  # games won by its counted entrants
    efectividad: int
    points_for: int
    counted: tuple[str, ...]  # its counted entrants, best first
    entrants: int  # how many play for it


def battle_standing(
    penas: Sequence[int], counting: int, entrants: Iterable[BattleEntrant]
) -> list[PenaStanding]:
    """The peñas of `penas` (each, even with no entrant) by score, as the module says."""
    by_pena: dict[int, list[BattleEntrant]] = {pena: [] for pena in penas}
    for entrant in entrants:
        if entrant.pena_id in by_pena:
            by_pena[entrant.pena_id].append(entrant)
    order = {pena: index for index, pena in enumerate(penas)}
    found = []
    for pena, players in by_pena.items():
        best = sorted(players, key=lambda e: (e.place, e.name.casefold()))[:counting]
        found.append(
            (
                pena,
                sum(e.wins for e in best),
                sum(e.efectividad for e in best),
                sum(e.points_for for e in best),
                best[0].place if best else 10**9,
                tuple(e.name for e in best),
                len(players),
            )
        )

    def key(item: tuple[int, int, int, int, int, tuple[str, ...], int]) -> tuple[int, int, int, int]:
        return (-item[1], -item[2], -item[3], item[4])

    found.sort(key=lambda item: (key(item), order[item[0]]))
    rows: list[PenaStanding] = []
    for index, item in enumerate(found):
        rank = rows[-1].rank if rows and key(found[index - 1]) == key(item) else index + 1
        rows.append(PenaStanding(item[0], rank, item[1], item[2], item[3], item[5], item[6]))
    return rows
