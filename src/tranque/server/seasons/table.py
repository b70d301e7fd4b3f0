"""The season table, computed from a list of game records: a pure function, no store, no clock.

A game counts for a season (`counts`) when it finished inside the season's dates, every seat
was an account that was a member of the peña when the game was recorded (no bot, no guest, no
outsider; in pairs all four seats), and it is what the season's `scope` counts: "rated" — a
rated game, at any table; "nights" — a game at one of the peña's own tables (its settings
carry the peña's `pena_id`), rated or friendly.

Each player of a counted game gets a row (the table is per player, in pairs too: both
partners get the game): PJ played, G won (their team is among the game's winners), P lost,
TF their team's tantos, TC the tantos of the best other team (in a duel and in pairs, the
opponents'; in individual for three or four, the highest of the others), DIF = TF - TC, and
PTS by the season's points rule (`POINTS`). Rows sort by PTS, then DIF, then TF, then PJ
fewer first, then the name (casefolded), then the account id.

>>> rules = SeasonRules(pena_id=1, scope="rated", points="dos_por_ganada", starts_at=0, ends_at=100)
>>> game = GameRecord("t.1", 5.0, True, None, ((1, 0, "ana"), (2, 1, "beto")), (100, 40), (0,))
>>> [(r.name, r.played, r.won, r.tantos_for, r.tantos_against, r.points) for r in season_table(rules, [game])]
[('ana', 1, 1, 100, 40, 2), ('beto', 1, 0, 40, 100, 0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Final

SCOPES: Final = ("rated", "nights")


@dataclass(frozen=True)
class PointsRule:
    """Points for a game won and for a game lost; `tantos`: the points are the tantos a favor."""

    win: int
    loss: int
    tantos: bool = False

    def points(self, won: int, lost: int, tantos_for: int) -> int:
        return tantos_for if self.tantos else self.win * won + self.loss * lost


POINTS: Final[dict[str, PointsRule]] = {
    "dos_por_ganada": PointsRule(2, 0),  # 2 por ganada, 0 por perdida
    "tres_uno": PointsRule(3, 1),  # 3 por ganada, 1 por perdida: se premia jugar
    "tantos": PointsRule(0, 0, tantos=True),  # los tantos: los puntos son los tantos a favor
}


@dataclass(frozen=True)
class SeasonRules:
    """What a season counts: its peña, scope (`SCOPES`), points rule (`POINTS`) and dates
    (`starts_at` <= finished_at < `ends_at`, seconds since the epoch)."""

    pena_id: int
    scope: str
    points: str
    starts_at: float
    ends_at: float


@dataclass(frozen=True)
class GameRecord:
    """A finished game as a season reads it. `seats`: (account id or None for a bot or guest,
    team, name) per seat; `tantos`: each team's total; `winners`: the winning teams."""

    game_id: str
    finished_at: float
    rated: bool
    pena_id: int | None  # the table's peña (its settings' `pena_id`), None for any other table
    seats: tuple[tuple[int | None, int, str], ...]
    tantos: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class SeasonRow:
    user_id: int
    name: str
    played: int
    won: int
    lost: int
    tantos_for: int
    tantos_against: int
    points: int

    @property
    def difference(self) -> int:
        return self.tantos_for - self.tantos_against


MemberAt = Callable[[int, float], bool]  # (account, when) → a member of the peña then


def always(_user_id: int, _at: float) -> bool:
    """For games whose players were checked as members when the game was recorded."""
    return True


def counts(rules: SeasonRules, game: GameRecord, member_at: MemberAt) -> bool:
    """Whether `game` counts for the season (see the module's doc)."""
    if not rules.starts_at <= game.finished_at < rules.ends_at:
        return False
    if rules.scope == "rated" and not game.rated:
        return False
    if rules.scope == "nights" and game.pena_id != rules.pena_id:
        return False
    return all(user is not None and member_at(user, game.finished_at) for user, _, _ in game.seats)


def sort_key(row: SeasonRow) -> tuple[int, int, int, int, str, int]:
    return (-row.points, -row.difference, -row.tantos_for, row.played, row.name.casefold(), row.user_id)


class Tally:
    """The rows being added up, game by game, in any order (so a live season adds only the
    games it had not added yet)."""

    def __init__(self) -> None:
        self.games: set[str] = set()
        self._sums: dict[int, list[int]] = {}  # account → played, won, lost, for, against
        self._names: dict[int, tuple[float, str]] = {}  # account → its name in its latest game

    def add(self, game: GameRecord) -> None:
        """Add a game that counts (`counts`), once."""
        if game.game_id in self.games:
            return
        self.games.add(game.game_id)
        for user, team, name in game.seats:
            assert user is not None  # `counts` let no empty seat through
            own = game.tantos[team]
            others = [t for index, t in enumerate(game.tantos) if index != team]
            won = team in game.winners
            entry = self._sums.setdefault(user, [0, 0, 0, 0, 0])
            entry[0] += 1
            entry[1 if won else 2] += 1
            entry[3] += own
            entry[4] += max(others, default=0)
            if user not in self._names or self._names[user][0] <= game.finished_at:
                self._names[user] = (game.finished_at, name)

    def rows(self, points: str) -> list[SeasonRow]:
        rule = POINTS[points]
        rows = [
            SeasonRow(user, self._names[user][1], p, w, lost, tf, tc, rule.points(w, lost, tf))
            for user, (p, w, lost, tf, tc) in self._sums.items()
        ]
        rows.sort(key=sort_key)
        return rows


def season_table(
    rules: SeasonRules, games: Iterable[GameRecord], member_at: MemberAt = always
) -> list[SeasonRow]:
    """The season's rows, sorted (see the module's doc), from the games that count."""
    tally = Tally()
    for game in games:
        if counts(rules, game, member_at):
            tally.add(game)
    return tally.rows(rules.points)


def record_of_game(
    game_id: str, finished_at: float, rated: bool, pena_id: int | None, summary: dict[str, object]
) -> GameRecord | None:
    """A `GameRecord` from an archived game's summary (players/archive.py: seats with their
    kind, user id and team as the engine gave it (R3), each team's scores, the winning teams);
    None for a game kept before its seats named their team. A seat is its account only when a
    person sat in it."""
    scores = [int(score) for score in summary["scores"]]  # type: ignore[attr-defined]
    if any(seat.get("team") is None for seat in summary["seats"]):  # type: ignore[attr-defined]
        return None
    seats = tuple(
        (
            int(seat["user_id"]) if seat.get("kind") == "human" and seat.get("user_id") is not None else None,
            int(seat["team"]),
            str(seat.get("name") or ""),
        )
        for seat in summary["seats"]  # type: ignore[attr-defined]
    )
    winners = tuple(int(team) for team in summary["winners"])  # type: ignore[attr-defined]
    return GameRecord(game_id, finished_at, rated, pena_id, seats, tuple(scores), winners)
