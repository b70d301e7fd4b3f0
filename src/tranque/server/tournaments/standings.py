"""The table of a tournament: who is ahead, by the rules players know (docs/tournaments.md).

Dominó is competed on games won, then *efectividad* (points for minus points against, each
game's points already capped at its target, so a rout counts no more than a win by the
target), then points for. Duplicado puts matchpoints first, since the deals were the same for
every table. Individual events with rotating partners add the swissDouble tie-break, the
opponents' wins minus the partners' wins: a win over strong opponents beside weak partners is
worth more. What is still tied is split by the games between exactly the tied players, and
what is tied after that shares a place.

Pure: the results come in, the table goes out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class GameResult:
    """One game's result as the standings read it (the machine has applied absence already)."""

    round: int
    sides: tuple[tuple[int, ...], ...]  # entrant numbers per side (a side = a team at the table)
    points: tuple[int, ...]  # each side's game points, already capped at the target
    won: tuple[bool, ...]  # each side won the game (absence already applied by the machine)
    absent: frozenset[int] = frozenset()  # entrants who did not show (their side lost)
    matchpoints: tuple[float, ...] | None = None  # duplicado: each side's matchpoints for the game


@dataclass(frozen=True)
class Bye:
    """A round without a game: it counts one game won, and no points either way."""

    round: int
    entrant: int


@dataclass(frozen=True)
class Standing:
    entrant: int
    place: int  # 1-based; equal places only when every key is equal
    played: int  # games played (byes not included)
    wins: int  # games won, byes included
    losses: int
    byes: int
    points_for: int
    points_against: int
    efectividad: int  # points_for - points_against
    partners_tiebreak: int | None  # rotating partners only: opponents' wins - partners' wins
    matchpoints: float | None  # duplicado only (then the first key)


@dataclass
class _Tally:
    played: int = 0
    wins: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    matchpoints: float = 0.0


def standings(
    entrants: Sequence[int],
    games: Sequence[GameResult],
    byes: Sequence[Bye],
    *,
    rotating: bool = False,
    duplicate: bool = False,
) -> list[Standing]:
    """Every entrant's line, best first.

    Order: (duplicado: matchpoints) wins, efectividad, points for, (rotating: opponents' wins
    minus partners' wins), then wins in the games between exactly the tied players; entrants
    still equal share a place (listed by entrant number). Points against a side are the other
    sides' points summed (one other side in a dominó game between two teams).
    """
    tally = {entrant: _Tally() for entrant in entrants}
    for game in games:
        for index, side in enumerate(game.sides):
            against = sum(points for other, points in enumerate(game.points) if other != index)
            for entrant in side:
                line = tally.get(entrant)
                if line is None:
                    continue
                line.played += 1
                line.wins += game.won[index]
                line.points_for += game.points[index]
                line.points_against += against
                if game.matchpoints is not None:
                    line.matchpoints += game.matchpoints[index]
    for bye in byes:
        if bye.entrant in tally:
            tally[bye.entrant].byes += 1
            tally[bye.entrant].wins += 1

    partners = _partners_tiebreak(tally, games) if rotating else {}

    def key(entrant: int) -> tuple[float, ...]:
        line = tally[entrant]
        keys: list[float] = [line.matchpoints] if duplicate else []
        keys += [line.wins, line.points_for - line.points_against, line.points_for]
        if rotating:
            keys.append(partners[entrant])
        return tuple(-value for value in keys)

    games_of: dict[int, list[int]] = defaultdict(list)  # each entrant's games, by index
    for number, game in enumerate(games):
        for side in game.sides:
            for entrant in side:
                games_of[entrant].append(number)
    ordered = sorted(tally, key=lambda entrant: (key(entrant), entrant))
    ranked: list[tuple[int, tuple[float, ...]]] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and key(ordered[end]) == key(ordered[start]):
            end += 1
        group = ordered[start:end]
        direct = _head_to_head(set(group), games, games_of) if len(group) > 1 else {group[0]: 0}
        ranked += sorted(((entrant, (*key(entrant), -direct[entrant])) for entrant in group), key=_by_key)
        start = end

    lines: list[Standing] = []
    for position, (entrant, full_key) in enumerate(ranked):
        place = lines[-1].place if lines and ranked[position - 1][1] == full_key else position + 1
        line = tally[entrant]
        lines.append(
            Standing(
                entrant=entrant,
                place=place,
                played=line.played,
                wins=line.wins,
                losses=line.played - (line.wins - line.byes),
                byes=line.byes,
                points_for=line.points_for,
                points_against=line.points_against,
                efectividad=line.points_for - line.points_against,
                partners_tiebreak=partners[entrant] if rotating else None,
                matchpoints=line.matchpoints if duplicate else None,
            )
        )
    return lines


def _by_key(item: tuple[int, tuple[float, ...]]) -> tuple[tuple[float, ...], int]:
    return item[1], item[0]


def _partners_tiebreak(tally: dict[int, _Tally], games: Sequence[GameResult]) -> dict[int, int]:
    """Sum of the opponents' wins minus sum of the partners' wins, once per game met (swissDouble)."""
    result: dict[int, int] = defaultdict(int)
    for game in games:
        for index, side in enumerate(game.sides):
            opponents = [
                entrant for other, team in enumerate(game.sides) if other != index for entrant in team
            ]
            for entrant in side:
                if entrant not in tally:
                    continue
                result[entrant] += sum(tally[o].wins for o in opponents if o in tally)
                result[entrant] -= sum(tally[p].wins for p in side if p != entrant and p in tally)
    return {entrant: result[entrant] for entrant in tally}


def _head_to_head(
    group: set[int], games: Sequence[GameResult], games_of: dict[int, list[int]]
) -> dict[int, int]:
    """Each tied entrant's wins in the games where another tied entrant sat on an opposing side."""
    wins = dict.fromkeys(group, 0)
    for number in sorted({number for entrant in group for number in games_of.get(entrant, ())}):
        game = games[number]
        for index, side in enumerate(game.sides):
            if not game.won[index]:
                continue
            opposed = {entrant for other, team in enumerate(game.sides) if other != index for entrant in team}
            if not opposed & group:
                continue
            for entrant in side:
                if entrant in group:
                    wins[entrant] += 1
    return wins
