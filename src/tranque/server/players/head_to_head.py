"""Head-to-head between two accounts ("tú contra Kike"), folded from the games both played.

A pure fold over `GameResult`s (store/game_results.py): no store, no clock. Each game two
accounts played is a `Meeting`: as opponents (different sides, in any format) or as partners
(the same side of a game in pairs), with who of the two was among its winners and each one's
tantos (their side's final score). Only kept games count, and a game is kept only once it is
finished (players/recorder.py): an annulled game leaves nothing, so there is none to count.

A side is a team of the game's score (R3): the summary's `scores` and `winners` are by team,
and each seat of the summary names the team it played for (`team`, the engine's
`Rules.team_of` when the game was kept), so an individual game's sides are its seats. A game
kept before seats named their team counts for neither.

>>> from tranque.server.store import GamePlayerRow, GameResult
>>> def game(game_id, seats, scores, winners):
...     rows = [GamePlayerRow(game_id, user, seat, 1.0, "clasico", "duel", False, seat in winners, False, 0)
...             for seat, user in enumerate(seats)]
...     teams = [{"seat": s, "team": s} for s in range(len(seats))]
...     summary = {"seats": teams, "scores": scores, "winners": winners}
...     return GameResult(game_id, 1.0, "clasico", "duel", len(seats), True, True, False, summary, rows)
>>> record = head_to_head([game("t.1", [7, 9], [100, 40], [0]), game("t.2", [9, 7], [101, 77], [0])], 7, 9)
>>> (record.opponents.played, record.opponents.first_wins, record.opponents.second_wins)
(2, 1, 1)
>>> (record.opponents.first_points, record.opponents.second_points)
(177, 141)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tranque.server.store import GamePlayerRow, GameResult


class Together(StrEnum):
    """How two accounts sat in a game."""

    OPPONENTS = "opponents"
    PARTNERS = "partners"


class Outcome(StrEnum):
    """Which of the two was among the game's winners (partners are both or neither)."""

    FIRST = "first"
    SECOND = "second"
    BOTH = "both"  # opponents: a shared win (a tie at the top); partners: their side won
    NEITHER = "neither"  # someone else won (or, for partners, the other side)


@dataclass(frozen=True)
class Meeting:
    """One game both accounts played, from the pair's point of view."""

    game: GameResult
    together: Together
    outcome: Outcome
    first_points: int  # the first account's side's final score
    second_points: int
    against: int  # partners: the other sides' final scores added up; opponents: 0


@dataclass(frozen=True)
class AsOpponents:
    """The games the two played against each other: who won, and the tantos each made."""

    played: int = 0
    first_wins: int = 0
    second_wins: int = 0
    draws: int = 0  # both among the winners
    others: int = 0  # another player won (individual games of three or more)
    first_points: int = 0
    second_points: int = 0


@dataclass(frozen=True)
class AsPartners:
    """The games the two played on the same side: won, lost, tantos for and against."""

    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0


@dataclass(frozen=True)
class HeadToHead:
    """Two accounts' record against and beside each other, and each game, as given (newest first)."""

    opponents: AsOpponents
    partners: AsPartners
    meetings: list[Meeting]


def side_of(summary: dict[str, Any], seat: int) -> int | None:
    """The team (the index into the summary's `scores` and `winners`) seat `seat` played for,
    as the summary names it; None if it does not."""
    for entry in summary["seats"]:
        if entry.get("seat") == seat:
            team = entry.get("team")
            return int(team) if team is not None else None
    return None


def winning_seats(summary: dict[str, Any]) -> list[int]:
    """The seats of a kept game whose side won it."""
    winners = set(summary["winners"])
    return [int(entry["seat"]) for entry in summary["seats"] if entry.get("team") in winners]


def meeting(game: GameResult, first_id: int, second_id: int) -> Meeting | None:
    """The game as the two accounts met in it; None if one of them did not play it."""
    first, second = _row(game.accounts, first_id), _row(game.accounts, second_id)
    if first is None or second is None:
        return None
    scores = [int(score) for score in game.summary["scores"]]
    first_side, second_side = side_of(game.summary, first.seat), side_of(game.summary, second.seat)
    if first_side is None or second_side is None:
        return None
    outcome = _outcome(first.won, second.won)
    if game.format == "pairs" and first_side == second_side:
        against = sum(score for side, score in enumerate(scores) if side != first_side)
        return Meeting(game, Together.PARTNERS, outcome, scores[first_side], scores[second_side], against)
    return Meeting(game, Together.OPPONENTS, outcome, scores[first_side], scores[second_side], 0)


def head_to_head(games: Sequence[GameResult], first_id: int, second_id: int) -> HeadToHead:
    """The two accounts' record over `games` (those either did not play are left out)."""
    meetings = [found for game in games if (found := meeting(game, first_id, second_id)) is not None]
    against = [one for one in meetings if one.together is Together.OPPONENTS]
    beside = [one for one in meetings if one.together is Together.PARTNERS]

    def count(group: list[Meeting], outcome: Outcome) -> int:
        return sum(1 for one in group if one.outcome is outcome)

    opponents = AsOpponents(
        played=len(against),
        first_wins=count(against, Outcome.FIRST),
        second_wins=count(against, Outcome.SECOND),
        draws=count(against, Outcome.BOTH),
        others=count(against, Outcome.NEITHER),
        first_points=sum(one.first_points for one in against),
        second_points=sum(one.second_points for one in against),
    )
    partners = AsPartners(
        played=len(beside),
        won=count(beside, Outcome.BOTH),
        lost=len(beside) - count(beside, Outcome.BOTH),
        points_for=sum(one.first_points for one in beside),
        points_against=sum(one.against for one in beside),
    )
    return HeadToHead(opponents, partners, meetings)


def _row(accounts: list[GamePlayerRow], user_id: int) -> GamePlayerRow | None:
    return next((row for row in accounts if row.user_id == user_id), None)


def _outcome(first_won: bool, second_won: bool) -> Outcome:
    if first_won and second_won:
        return Outcome.BOTH
    if first_won:
        return Outcome.FIRST
    return Outcome.SECOND if second_won else Outcome.NEITHER
