"""XP (Minitorneos): what a rated game gives its players, and the periods it counts in.

The winners of a rated game share 10 XP per player at the table (a pair's partners half each),
every other player gets 5, and an abandoner (a seat still played by a bot at the end) none:

>>> [winner_xp(2, 1), winner_xp(4, 1), winner_xp(4, 2)]
[20, 40, 20]

A game counts in the all-time total, its ISO week and its month, in UTC:

>>> periods(1796083200.0)  # 2026-12-01 00:00 UTC, a Tuesday
['all', 'w2026-49', 'm2026-12']
"""

from __future__ import annotations

from tranque.server.players.periods import period_keys

XP_PER_PLAYER = 10
LOSER_XP = 5


def winner_xp(players: int, partners: int) -> int:
    """Each winner's XP: 10 per player at the table, split between the team's `partners`."""
    return XP_PER_PLAYER * players // partners


def game_xp(players: int, partners: int, won: bool, abandoned: bool) -> int:
    if abandoned:
        return 0
    return winner_xp(players, partners) if won else LOSER_XP


def periods(at: float) -> list[str]:
    """The periods a game finished at `at` (seconds since the epoch) counts in (`periods.py`)."""
    keys = period_keys(at)
    return [keys["all"], keys["week"], keys["month"]]
