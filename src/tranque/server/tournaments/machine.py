"""`Tournament`: the pure state machine of one tournament, over a JSON document.

Everything a tournament knows is its document (`to_json`): the configuration, the entrants,
every round's games and their results. The machine does no I/O, reads no clock (`now` is
passed in) and draws randomness only from the `random.Random` it is given, so the director
(director.py) can load a document, call a method, save it with compare-and-set and only then
carry out what the method asked for: the *effects* it returns (`CreateTable`, `Notify`,
`MarkAbsent`, `Placings`, `RevealDeals`). Every method is idempotent where the director may
repeat it: `step` with nothing new returns ``[]``, a second `record` of a game changes nothing.

The one thing not drawn from the given `random.Random` is the duplicate master secret
(``doc["secret"]``, `secrets.token_hex(32)` in `new`): the deals of a duplicado are dealt from
it (deals.py), so it must come from the OS's CSPRNG. It never appears in `public_json`. The
invitation code of a private tournament is derived from it (`invite_code`), with its own label.

Rules the machine applies to every game's `GameOutcome` (`record`):

- Points: each side's score, capped at the game's target (a duplicado's games are of a set
  number of hands and have no target: their points are not capped).
- Absence: a side with a seat marked ``no_show`` (covered by a bot because its player was not
  there at the start) loses the game; its opponents win it even if the covering bot outscored
  them; if every side had a no-show, every side loses. Each entrant with a no-show seat in the
  game counts one missed game; at two it is withdrawn (status ``absent``), and every account of
  it that missed a game gets a `MarkAbsent` (the attendance bar, which events requiring
  attendance honour). Nobody waits for an absent player: rounds advance on finished games.
- Annulment: an annulled game (``GameOutcome.annulled``) is lost by every side, with 0 points
  each. In a knock-out a game every side lost sends the better seed (the lower number) on.
- Duplicado: when every table of a round is done, each game's matchpoints are computed from
  the points of each hand (``GameOutcome.hands``; an annulled table is left out of the
  comparison and scores 0; a hand a table did not play counts as a tie there); a side that
  was absent scores 0 matchpoints. Then the round's deals are revealed (`RevealDeals`).
"""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final, Literal

from tranque.engine import Rules
from tranque.server.table.bot_names import tournament_name
from tranque.server.table.outcome import GameOutcome
from tranque.server.tournaments import deals as tournament_deals
from tranque.server.tournaments.arena_pairing import ArenaPlayer, pair_arena
from tranque.server.tournaments.battle import BattleEntrant, battle_standing
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError
from tranque.server.tournaments.duplicate import duplicate_tables, matchpoints
from tranque.server.tournaments.knockout import bracket, next_round
from tranque.server.tournaments.knockout import podium as knockout_podium
from tranque.server.tournaments.partners import RotatingPlayer, pair_rotating
from tranque.server.tournaments.standings import Bye, GameResult, Standing, standings
from tranque.server.tournaments.swiss import SwissPlayer, pair_swiss

BOT_RATING: Final = 1500  # a bot entrant's rating for seeding (the first rating of a person)
MISSES_TO_WITHDRAW: Final = 2

EntrantStatus = Literal["active", "withdrawn", "eliminated", "absent"]
GameState = Literal["planned", "playing", "done"]
Sides = list[tuple[int, ...]]  # a game's entrants, side by side


class Status(StrEnum):
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass
class Entrant:
    """A side of the field: one player (duel, rotating) or a pair. Its players are its
    `accounts` (people) first, then bots of `bot_level` for the rest of `names`."""

    no: int  # before the start: order of registration; at the start: the seed (1 = strongest)
    accounts: tuple[int, ...]
    names: tuple[str, ...]
    bot_level: str | None
    rating: int
    status: EntrantStatus = "active"
    missed: int = 0
    joined_round: int = 1
    partner: str | None = None  # pairs: the partner named at registration, until paired
    registered_at: float = 0.0
    absent_accounts: tuple[int, ...] = ()  # accounts that missed a game
    pena_id: int | None = None  # peña against peña: the peña it plays for (battle.py)

    @property
    def is_bot(self) -> bool:
        return not self.accounts

    def players(self) -> list[tuple[int | None, str, str | None]]:
        """(account, name, bot level) of each player, people first."""
        return [
            (
                self.accounts[i] if i < len(self.accounts) else None,
                name,
                None if i < len(self.accounts) else self.bot_level,
            )
            for i, name in enumerate(self.names)
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "no": self.no,
            "accounts": list(self.accounts),
            "names": list(self.names),
            "bot_level": self.bot_level,
            "rating": self.rating,
            "status": self.status,
            "missed": self.missed,
            "joined_round": self.joined_round,
            "partner": self.partner,
            "registered_at": self.registered_at,
            "absent_accounts": list(self.absent_accounts),
            "pena_id": self.pena_id,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entrant:
        return cls(
            no=data["no"],
            accounts=tuple(data["accounts"]),
            names=tuple(data["names"]),
            bot_level=data["bot_level"],
            rating=data["rating"],
            status=data["status"],
            missed=data["missed"],
            joined_round=data["joined_round"],
            partner=data["partner"],
            registered_at=data["registered_at"],
            absent_accounts=tuple(data["absent_accounts"]),
            pena_id=data.get("pena_id"),
        )


@dataclass
class PlannedSeat:
    seat: int
    entrant: int
    account: int | None
    name: str
    bot_level: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "entrant": self.entrant,
            "account": self.account,
            "name": self.name,
            "bot_level": self.bot_level,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlannedSeat:
        return cls(data["seat"], data["entrant"], data["account"], data["name"], data["bot_level"])


@dataclass
class PlannedGame:
    """One game of a round: its table, who sits where, and its result once done. A game is
    ``planned`` until the director has its table going (`mark_playing`), then ``playing``."""

    key: str  # f"{round}-{board}"
    round: int
    board: int
    table_id: str
    seats: list[PlannedSeat]
    sides: tuple[tuple[int, ...], ...]  # entrant numbers per side (side i = team i)
    state: GameState = "planned"
    result: GameResult | None = None
    started_at: float | None = None
    ended_at: float | None = None
    hands: list[list[int]] | None = None  # duplicado: each hand's points per side, until scored

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "round": self.round,
            "board": self.board,
            "table_id": self.table_id,
            "seats": [seat.to_json() for seat in self.seats],
            "sides": [list(side) for side in self.sides],
            "state": self.state,
            "result": None if self.result is None else result_to_json(self.result),
            "started_at": self.started_at,
            "ended_at": self.ended_at,
            "hands": self.hands,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlannedGame:
        return cls(
            key=data["key"],
            round=data["round"],
            board=data["board"],
            table_id=data["table_id"],
            seats=[PlannedSeat.from_json(seat) for seat in data["seats"]],
            sides=tuple(tuple(side) for side in data["sides"]),
            state=data["state"],
            result=None if data["result"] is None else result_from_json(data["result"]),
            started_at=data["started_at"],
            ended_at=data["ended_at"],
            hands=data["hands"],
        )


@dataclass
class RoundPlan:
    number: int
    started_at: float
    games: list[PlannedGame]
    byes: list[int]  # entrants with a bye (knock-out: a walkover) this round
    commitments: list[str] | None = None  # duplicado: the round's deals' commitments
    revealed: bool = False  # duplicado: the round is over and its deals are shown
    pairs: list[tuple[int, int]] | None = None  # knock-out: the round's pairs in bracket order

    @property
    def done(self) -> bool:
        return all(game.state == "done" for game in self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "started_at": self.started_at,
            "games": [game.to_json() for game in self.games],
            "byes": list(self.byes),
            "commitments": self.commitments,
            "revealed": self.revealed,
            "pairs": None if self.pairs is None else [list(pair) for pair in self.pairs],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundPlan:
        pairs = data["pairs"]
        return cls(
            number=data["number"],
            started_at=data["started_at"],
            games=[PlannedGame.from_json(game) for game in data["games"]],
            byes=list(data["byes"]),
            commitments=data["commitments"],
            revealed=data["revealed"],
            pairs=None if pairs is None else [(a, b) for a, b in pairs],
        )


def result_to_json(result: GameResult) -> dict[str, Any]:
    return {
        "round": result.round,
        "sides": [list(side) for side in result.sides],
        "points": list(result.points),
        "won": list(result.won),
        "absent": sorted(result.absent),
        "matchpoints": None if result.matchpoints is None else list(result.matchpoints),
    }


def result_from_json(data: Mapping[str, Any]) -> GameResult:
    mp = data["matchpoints"]
    return GameResult(
        round=data["round"],
        sides=tuple(tuple(side) for side in data["sides"]),
        points=tuple(data["points"]),
        won=tuple(data["won"]),
        absent=frozenset(data["absent"]),
        matchpoints=None if mp is None else tuple(float(m) for m in mp),
    )


# Effects: what the director carries out, in order, after saving the document ----------------


@dataclass(frozen=True)
class CreateTable:
    game: PlannedGame
    rules: Rules
    competitive: bool
    deals: str | None  # duplicado: "<tournament id>:<round>"


@dataclass(frozen=True)
class Notify:
    accounts: tuple[int, ...]
    message: dict[str, Any]


@dataclass(frozen=True)
class MarkAbsent:
    account: int  # the attendance bar (the director stores it)


@dataclass(frozen=True)
class Placings:
    placings: dict[int, int]  # account -> place, at the end


@dataclass(frozen=True)
class RevealDeals:
    round: int


Effect = CreateTable | Notify | MarkAbsent | Placings | RevealDeals


class Tournament:
    """One tournament's state and every change to it (see the module's docstring)."""

    def __init__(
        self,
        id: str,
        config: TournamentConfig,
        creator: int,
        created_at: float,
        secret: str,
        status: Status = Status.OPEN,
        entrants: list[Entrant] | None = None,
        rounds: list[RoundPlan] | None = None,
        started_at: float | None = None,
        finished_at: float | None = None,
        start_requested: float | None = None,
        window_closed: bool = False,
        version: int = 0,
    ) -> None:
        self.id = id
        self.config = config
        self.creator = creator
        self.created_at = created_at
        self.secret = secret
        self.status = status
        self.entrants: list[Entrant] = entrants or []
        self.rounds: list[RoundPlan] = rounds or []
        self.started_at = started_at
        self.finished_at = finished_at
        self.start_requested = start_requested
        self.window_closed = window_closed  # an arena's window has been seen to end
        self.version = version  # the store's, not in the document

    @classmethod
    def new(cls, id: str, config: TournamentConfig, creator: int, now: float) -> Tournament:
        return cls(id, config.checked(), creator, now, secrets.token_hex(32))

    # The document ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "config": self.config.to_json(),
            "creator": self.creator,
            "created_at": self.created_at,
            "secret": self.secret,
            "status": self.status.value,
            "entrants": [entrant.to_json() for entrant in self.entrants],
            "rounds": [plan.to_json() for plan in self.rounds],
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "start_requested": self.start_requested,
            "window_closed": self.window_closed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        return cls(
            id=data["id"],
            config=TournamentConfig.from_json(data["config"]),
            creator=data["creator"],
            created_at=data["created_at"],
            secret=data["secret"],
            status=Status(data["status"]),
            entrants=[Entrant.from_json(entrant) for entrant in data["entrants"]],
            rounds=[RoundPlan.from_json(plan) for plan in data["rounds"]],
            started_at=data["started_at"],
            finished_at=data["finished_at"],
            start_requested=data["start_requested"],
            window_closed=data["window_closed"],
        )

    # Looking things up ------------------------------------------------------------------------

    def entrant(self, no: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.no == no:
                return entrant
        raise KeyError(no)

    def entrant_of(self, account: int) -> Entrant | None:
        for entrant in self.entrants:
            if account in entrant.accounts:
                return entrant
        return None

    def registered(self, account: int) -> bool:
        return self.entrant_of(account) is not None

    def game(self, key: str) -> PlannedGame:
        for plan in self.rounds:
            for game in plan.games:
                if game.key == key:
                    return game
        raise KeyError(key)

    def games(self) -> Iterable[PlannedGame]:
        for plan in self.rounds:
            yield from plan.games

    def playing_game_of(self, account: int) -> PlannedGame | None:
        """The game `account` is seated at that is not over (planned or playing)."""
        for game in self.games():
            if game.state != "done" and any(seat.account == account for seat in game.seats):
                return game
        return None

    def invite_code(self) -> str:
        """A private tournament's invitation code: derived from the secret, one-way."""
        return hmac.new(bytes.fromhex(self.secret), b"tranque-tournament-invite", hashlib.sha256).hexdigest()[
            :20
        ]

    def invite_ok(self, code: str | None) -> bool:
        return code is not None and hmac.compare_digest(code.encode(), self.invite_code().encode())

    @property
    def players(self) -> int:
        """People registered (bots are not registered: they fill places at the start)."""
        return sum(len(entrant.accounts) for entrant in self.entrants)

    @property
    def total_rounds(self) -> int | None:
        """How many rounds the event has (None: an arena, timed)."""
        if self.config.format is Format.MINITORNEO:
            return {4: 2, 8: 3, 16: 4}[self.config.size]
        return self.config.rounds

    @property
    def window_end(self) -> float | None:
        if self.config.format is not Format.ARENA or self.started_at is None:
            return None
        assert self.config.window_seconds is not None
        return self.started_at + self.config.window_seconds

    def _message(
        self, event: str, round: int | None = None, table: str | None = None, seat: int | None = None
    ) -> dict[str, Any]:
        return {
            "type": "tournament",
            "tournament": self.id,
            "name": self.config.name,
            "event": event,
            "round": round,
            "table": table,
            "seat": seat,
        }

    def _everyone(self) -> tuple[int, ...]:
        return tuple(account for entrant in self.entrants for account in entrant.accounts)

    # Registration ------------------------------------------------------------------------------

    def late_entry_open(self, now: float) -> bool:
        """Whether a running event still takes entrants: a suizo until half its rounds have
        been paired (so a late entrant plays at least half of them), an arena while its window
        is open."""
        if self.status is not Status.RUNNING:
            return False
        if self.config.format is Format.SUIZO:
            assert self.config.rounds is not None
            return len(self.rounds) < self.config.rounds / 2
        if self.config.format is Format.ARENA:
            return not self._window_over(now)
        return False

    def _window_over(self, now: float) -> bool:
        end = self.window_end
        return end is not None and now >= end

    def can_register(self, account: int, now: float) -> bool:
        """Whether `account` may register now (the invitation and the attendance bar aside)."""
        if self.registered(account) or self.status in (Status.FINISHED, Status.CANCELLED):
            return False
        if self.status is Status.RUNNING and not self.late_entry_open(now):
            return False
        return self.players < self._most_players()

    def can_withdraw(self, account: int) -> bool:
        entrant = self.entrant_of(account)
        if entrant is None or self.status in (Status.FINISHED, Status.CANCELLED):
            return False
        if self.status is Status.OPEN:
            return account != self.creator
        return entrant.status == "active" and self.playing_game_of(account) is None

    def can_cancel(self, account: int) -> bool:
        return account == self.creator and self.status is Status.OPEN

    def _most_players(self) -> int:
        return self.config.size * self.config.players_per_entrant

    def register(
        self,
        account: int,
        name: str,
        rating: int,
        now: float,
        partner: str | None = None,
        *,
        invite: str | None = None,
        pena_id: int | None = None,
    ) -> Entrant:
        """Register `account`. A private tournament needs its invitation code (`invite`): the
        machine checks it, so every caller does. Pairs: naming each other makes a pair; the
        rest are paired in order of registration at the start."""
        if self.registered(account):
            raise TournamentError("tournament_registered")
        if self.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentError("tournament_over")
        if self.config.private and not self.invite_ok(invite):
            raise TournamentError("tournament_private")
        if self.status is Status.RUNNING and not self.late_entry_open(now):
            raise TournamentError("tournament_started")
        if self.players >= self._most_players():
            raise TournamentError("tournament_full", size=self.config.size)
        if self.config.battle_penas and pena_id not in self.config.battle_penas:
            raise TournamentError("tournament_battle_pena")
        if partner is not None:
            partner = partner.strip() or None
        if partner is not None and self.config.entry is not Entry.PAIRS:
            raise TournamentError("tournament_partner.not_pairs")
        late = self.status is Status.RUNNING
        joined = len(self.rounds) + 1 if late and self.config.format is not Format.ARENA else 1
        if partner is not None:
            if partner.casefold() == name.casefold():
                raise TournamentError("tournament_partner.self")
            mate = next((e for e in self.entrants if partner in e.names and e.accounts), None)
            if mate is not None and len(mate.names) > 1:
                raise TournamentError("tournament_partner.taken", name=partner)
            if mate is not None and mate.partner is not None and mate.partner.casefold() == name.casefold():
                mate.accounts += (account,)
                mate.names += (name,)
                mate.rating = (mate.rating + rating) // 2
                mate.partner = None
                if late:
                    mate.no = self._next_no()
                    mate.joined_round = joined
                return mate
        entrant = Entrant(
            no=0 if late and self.config.entry is Entry.PAIRS else self._next_no(),
            accounts=(account,),
            names=(name,),
            bot_level=None,
            rating=rating,
            joined_round=joined,
            partner=partner,
            registered_at=now,
            pena_id=pena_id if self.config.battle_penas else None,
        )
        self.entrants.append(entrant)
        return entrant

    def _next_no(self) -> int:
        return max((entrant.no for entrant in self.entrants), default=0) + 1

    def _renumber(self) -> None:
        for index, entrant in enumerate(self.entrants, start=1):
            entrant.no = index

    def withdraw(self, account: int, now: float) -> None:
        """Leave the tournament. Before the start the registration is undone (the creator
        cancels instead); once it runs, refused while `account` has a game not over."""
        entrant = self.entrant_of(account)
        if entrant is None:
            raise TournamentError("tournament_not_registered")
        if self.status in (Status.FINISHED, Status.CANCELLED):
            raise TournamentError("tournament_over")
        if self.status is Status.OPEN:
            if account == self.creator:
                raise TournamentError("tournament_creator")
            self._unregister(entrant, account)
            self._renumber()
            return
        if entrant.status != "active":
            raise TournamentError("tournament_not_registered.out")
        if self.playing_game_of(account) is not None:
            raise TournamentError("tournament_mid_game")
        if entrant.no == 0:  # a late single of a pairs event, never in the field
            self.entrants.remove(entrant)
            return
        entrant.status = "withdrawn"

    def _unregister(self, entrant: Entrant, account: int) -> None:
        if len(entrant.accounts) == 1:
            self.entrants.remove(entrant)
            return
        index = entrant.accounts.index(account)
        entrant.accounts = tuple(a for a in entrant.accounts if a != account)
        entrant.names = tuple(n for i, n in enumerate(entrant.names) if i != index)
        entrant.partner = None

    def cancel(self, account: int, now: float) -> list[Effect]:
        """The creator calls the tournament off before the start; its entrants are told."""
        if account != self.creator:
            raise TournamentError("tournament_creator.only")
        if self.status is not Status.OPEN:
            raise TournamentError("tournament_started.cancel")
        return self._cancel(now)

    def start(self, account: int, now: float) -> None:
        """The creator starts an event that has no start time: `step` starts it."""
        if account != self.creator:
            raise TournamentError("tournament_creator.only")
        if self.status is not Status.OPEN:
            raise TournamentError("tournament_started")
        if self.config.rated and not self.players:
            raise TournamentError("tournament_bots_only")
        if not self.config.bot_fill and len(self._formed(self.entrants)) < self._least_to_start():
            raise TournamentError("tournament_few", least=self._least_to_start())
        self.start_requested = now

    def _least_to_start(self) -> int:
        return self.config.size if self.config.format is Format.MINITORNEO else self.config.least

    def _cancel(self, now: float) -> list[Effect]:
        self.status = Status.CANCELLED
        self.finished_at = now
        accounts = self._everyone()
        return [Notify(accounts, self._message("cancelled"))] if accounts else []

    # The clock ---------------------------------------------------------------------------------

    def wake_at(self) -> float | None:
        """When `step` next has something to do by the clock alone (None: only on an event)."""
        if self.status is Status.OPEN:
            if self.config.format is Format.MINITORNEO and self.players >= self._most_players():
                return self.created_at  # full: due at once
            return self._start_time()
        if self.status is Status.RUNNING and self.config.format is not Format.ARENA:
            return self._next_round_due() if not self.rounds or self.rounds[-1].done else None
        if self.status is Status.RUNNING and not self.window_closed:
            return self.window_end  # None but in an arena
        return None

    def _next_round_due(self) -> float | None:
        """When the next round is due by the schedule (None: no schedule, or no round left)."""
        every, total = self.config.round_every_seconds, self.total_rounds
        if every is None or self.started_at is None or total is None or len(self.rounds) >= total:
            return None
        return self.started_at + len(self.rounds) * every

    def _start_time(self) -> float | None:
        times = [t for t in (self.start_requested, self.config.starts_at) if t is not None]
        if self.config.format is Format.MINITORNEO and self.config.starts_at is None and self.config.bot_fill:
            times.append(self.created_at + self.config.fill_wait_seconds)
        return min(times) if times else None

    def _start_due(self, now: float) -> bool:
        if self.config.format is Format.MINITORNEO and self.players >= self._most_players():
            return True
        due = self._start_time()
        return due is not None and now >= due

    # Stepping ----------------------------------------------------------------------------------

    def step(
        self,
        now: float,
        rng: random.Random,
        new_table_id: Callable[[], str],
        commitments: Callable[[int], list[str]] | None = None,
    ) -> list[Effect]:
        """Whatever is due: start (when full, at its time, or with bots after the wait), pair
        the next round once the previous is done (an arena: its free players at once), finish.
        `commitments(round)` gives a duplicado round's deal commitments (deals.py)."""
        effects: list[Effect] = []
        if self.status is Status.OPEN:
            if not self._start_due(now):
                return []
            effects += self._start(now)
        if self.status is not Status.RUNNING:
            return effects
        if self.config.format is Format.ARENA:
            effects += self._step_arena(now, rng, new_table_id)
        else:
            effects += self._step_rounds(now, rng, new_table_id, commitments)
        return effects

    def _start(self, now: float) -> list[Effect]:
        config = self.config
        field_ = self._formed(self.entrants)
        singles = [e for e in field_ if len(e.names) < config.players_per_entrant]
        if not config.bot_fill:  # a player left without a partner is not in the field
            field_ = [e for e in field_ if e not in singles]
        kept = {account for entrant in field_ for account in entrant.accounts}
        dropped = [e for e in self.entrants if not set(e.accounts) <= kept]
        self.entrants = field_
        if config.bot_fill:
            for single in singles:
                self._add_bot_partner(single)
        least = self._least_to_start()
        if len(self.entrants) < least and config.bot_fill:
            while len(self.entrants) < least:
                self._add_bot_entrant()
        effects: list[Effect] = [
            Notify(e.accounts, self._message("withdrawn")) for e in dropped if e.accounts
        ]
        if len(self.entrants) < least or (config.rated and all(e.is_bot for e in self.entrants)):
            return effects + self._cancel(now)
        order = sorted(self.entrants, key=lambda e: (-e.rating, e.is_bot, e.registered_at, e.no))
        for number, entrant in enumerate(order, start=1):
            entrant.no = number
            entrant.partner = None
        self.entrants = order
        self.status = Status.RUNNING
        self.started_at = now
        accounts = self._everyone()
        if accounts:
            effects.append(Notify(accounts, self._message("starting")))
        return effects

    def _formed(self, entrants: list[Entrant]) -> list[Entrant]:
        """Pairs: the singles matched in order of registration (a pair's first registered is
        its first player); everyone else as they are. Mutates nothing but merged copies."""
        if self.config.entry is not Entry.PAIRS:
            return list(entrants)
        formed: list[Entrant] = []
        waiting: Entrant | None = None
        for entrant in sorted(entrants, key=lambda e: (e.registered_at, e.no)):
            if len(entrant.names) > 1:
                formed.append(entrant)
            elif waiting is None:
                waiting = entrant
            else:
                formed.append(
                    replace(
                        waiting,
                        accounts=waiting.accounts + entrant.accounts,
                        names=waiting.names + entrant.names,
                        rating=(waiting.rating + entrant.rating) // 2,
                        partner=None,
                    )
                )
                waiting = None
        if waiting is not None:
            formed.append(waiting)
        return formed

    def _add_bot_partner(self, entrant: Entrant) -> None:
        level = self.config.bot_level
        entrant.bot_level = level
        entrant.names += (self._bot_name(self._bots_named() + 1),)

    def _add_bot_entrant(self) -> None:
        level = self.config.bot_level
        players = self.config.players_per_entrant
        first = self._bots_named() + 1
        self.entrants.append(
            Entrant(
                no=self._next_no(),
                accounts=(),
                names=tuple(self._bot_name(first + i) for i in range(players)),
                bot_level=level,
                rating=BOT_RATING,
                registered_at=0.0,  # seeded after the people of its rating (see _start)
            )
        )

    def _bots_named(self) -> int:
        return sum(len(e.names) - len(e.accounts) for e in self.entrants)

    def _bot_name(self, number: int) -> str:
        """A person-like name, as the bots at every table have (table/bot_names.py); the
        table shows the level's title beside it."""
        return tournament_name(self.id, number)

    def _active(self, round_number: int) -> list[Entrant]:
        """The entrants in the field for round `round_number`, by number."""
        return sorted(
            (
                e
                for e in self.entrants
                if e.status == "active"
                and e.no > 0
                and e.joined_round <= round_number
                and len(e.names) == self.config.players_per_entrant
            ),
            key=lambda e: e.no,
        )

    def _step_rounds(
        self,
        now: float,
        rng: random.Random,
        new_table_id: Callable[[], str],
        commitments: Callable[[int], list[str]] | None,
    ) -> list[Effect]:
        if self.rounds and not self.rounds[-1].done:
            return []
        total = self.total_rounds
        assert total is not None
        if len(self.rounds) >= total:
            return self._finish(now)
        due = self._next_round_due()
        if due is not None and now < due:
            return []  # rounds on a schedule: this one's time has not come
        number = len(self.rounds) + 1
        if self.config.entry is Entry.PAIRS:
            self._complete_late_pairs(number)
        if self.config.format is Format.MINITORNEO:
            plan = self._pair_knockout(number, now, new_table_id)
        else:
            field_ = self._active(number)
            if len(field_) < (4 if self.config.entry is Entry.ROTATING else 2):
                return self._finish(now)
            plan = self._pair_round(number, field_, now, rng, new_table_id)
        if self.config.format is Format.DUPLICADO and commitments is not None:
            plan.commitments = commitments(number)
        self.rounds.append(plan)
        effects = self._round_effects(plan)
        if not plan.games and plan.done:  # a knock-out round of walkovers only
            effects += self._step_rounds(now, rng, new_table_id, commitments)
        return effects

    def _complete_late_pairs(self, number: int) -> None:
        singles = [e for e in self.entrants if e.no == 0]
        formed = self._formed(singles)
        for entrant in formed:
            if len(entrant.names) == 1 and self.config.bot_fill:
                self._add_bot_partner(entrant)
        self.entrants = [e for e in self.entrants if e.no != 0]
        for entrant in formed:
            if len(entrant.names) == 2:
                entrant.no = self._next_no()
                entrant.joined_round = number
            self.entrants.append(entrant)

    def _round_effects(self, plan: RoundPlan) -> list[Effect]:
        effects: list[Effect] = []
        rules = self.config.game_rules()
        deals = f"{self.id}:{plan.number}" if self.config.format is Format.DUPLICADO else None
        for game in plan.games:
            effects.append(CreateTable(game, rules, self.config.rated, deals))
        for game in plan.games:
            for seat in game.seats:
                if seat.account is not None:
                    effects.append(
                        Notify((seat.account,), self._message("round", plan.number, game.table_id, seat.seat))
                    )
        for no in plan.byes:
            accounts = self.entrant(no).accounts
            if accounts:
                effects.append(Notify(accounts, self._message("round", plan.number)))
        return effects

    def pending_tables(self) -> list[CreateTable]:
        """A `CreateTable` for every game still ``planned``: what a director that resumes
        (or retries) has to make sure exists; creating one twice is refused by its id."""
        rules = self.config.game_rules()
        return [
            CreateTable(
                game,
                rules,
                self.config.rated,
                f"{self.id}:{game.round}" if self.config.format is Format.DUPLICADO else None,
            )
            for game in self.games()
            if game.state == "planned"
        ]

    def mark_playing(self, key: str, now: float) -> None:
        """The director has the game's table going."""
        game = self.game(key)
        if game.state == "planned":
            game.state = "playing"
            game.started_at = now

    def _make_game(
        self, number: int, board: int, sides: Sides, new_table_id: Callable[[], str]
    ) -> PlannedGame:
        """Seat a game: side i is team i, seats i and i + 2 at a table of four (the first
        player of its first entrant at seat i, then in order), seat i in a duel."""
        players_per_side = 1 if self.config.entry is Entry.DUEL else 2
        seats: list[PlannedSeat] = []
        for side_index, side in enumerate(sides):
            people = [(no, p) for no in side for p in self.entrant(no).players()]
            assert len(people) == players_per_side, (side, people)
            for k, (no, (account, name, level)) in enumerate(people):
                seats.append(PlannedSeat(side_index + 2 * k, no, account, name, level))
        seats.sort(key=lambda s: s.seat)
        return PlannedGame(
            key=f"{number}-{board}",
            round=number,
            board=board,
            table_id=new_table_id(),
            seats=seats,
            sides=tuple(tuple(side) for side in sides),
        )

    # Pairing each format ---------------------------------------------------------------------------

    def _pair_round(
        self,
        number: int,
        field_: list[Entrant],
        now: float,
        rng: random.Random,
        new_table_id: Callable[[], str],
    ) -> RoundPlan:
        if self.config.format is Format.DUPLICADO:
            sides_list, byes = self._pair_duplicate(number, field_)
        elif self.config.entry is Entry.ROTATING:
            sides_list, byes = self._pair_rotating(field_, rng)
        else:
            sides_list, byes = self._pair_swiss(number, field_)
        games = [
            self._make_game(number, board, sides, new_table_id)
            for board, sides in enumerate(sides_list, start=1)
        ]
        return RoundPlan(number, now, games, byes)

    def _results(self) -> list[GameResult]:
        return [game.result for game in self.games() if game.result is not None]

    def _byes(self) -> list[Bye]:
        return [Bye(plan.number, no) for plan in self.rounds for no in plan.byes]

    def _wins(self) -> Counter[int]:
        wins: Counter[int] = Counter()
        for result in self._results():
            for side, won in zip(result.sides, result.won, strict=True):
                if won:
                    wins.update(side)
        for bye in self._byes():
            wins[bye.entrant] += 1
        return wins

    def _pair_swiss(self, number: int, field_: list[Entrant]) -> tuple[list[Sides], list[int]]:
        score: Counter[int] = Counter()
        sides: dict[int, list[str]] = {e.no: [] for e in field_}
        floats: dict[int, list[str]] = {e.no: [] for e in field_}
        byes: Counter[int] = Counter()
        played: set[frozenset[int]] = set()
        for plan in self.rounds:
            before = Counter(score)
            seen: set[int] = set()
            for game in plan.games:
                first, second = game.sides[0][0], game.sides[1][0]
                played.add(frozenset((first, second)))
                for no, side, other in ((first, "first", second), (second, "second", first)):
                    seen.add(no)
                    if no in sides:
                        sides[no].append(side)
                        mine, theirs = before[no], before[other]
                        floats[no].append("down" if mine > theirs else "up" if mine < theirs else "none")
                if game.result is not None:
                    for side_, won in zip(game.result.sides, game.result.won, strict=True):
                        if won:
                            score.update(side_)
            for no in plan.byes:
                seen.add(no)
                score[no] += 1
                byes[no] += 1
                if no in sides:
                    sides[no].append("none")
                    floats[no].append("down")
            for no in sides:
                if no not in seen:
                    sides[no].append("none")
                    floats[no].append("none")
        players = [
            SwissPlayer(
                entrant=e.no,
                score=float(score[e.no]),
                rating=e.rating,
                seed=e.no,
                sides=tuple(sides[e.no]),
                floats=tuple(floats[e.no]),
                byes=byes[e.no],
            )
            for e in field_
        ]
        assert self.config.rounds is not None
        paired = pair_swiss(players, played, number, self.config.rounds)
        games: list[Sides] = [[(first,), (second,)] for first, second in paired.games]
        return games, [] if paired.bye is None else [paired.bye]

    def _pair_rotating(self, field_: list[Entrant], rng: random.Random) -> tuple[list[Sides], list[int]]:
        wins = self._wins()
        efectividad: Counter[int] = Counter()
        partnered: set[frozenset[int]] = set()
        opposed: Counter[frozenset[int]] = Counter()
        byes: Counter[int] = Counter(bye.entrant for bye in self._byes())
        for game in self.games():
            a, b = game.sides
            partnered.add(frozenset(a))
            partnered.add(frozenset(b))
            for x in a:
                for y in b:
                    opposed[frozenset((x, y))] += 1
            if game.result is not None:
                for index, side in enumerate(game.result.sides):
                    diff = game.result.points[index] - sum(
                        p for i, p in enumerate(game.result.points) if i != index
                    )
                    for no in side:
                        efectividad[no] += diff
        players = [RotatingPlayer(e.no, wins[e.no], efectividad[e.no], byes[e.no]) for e in field_]
        paired = pair_rotating(players, partnered, opposed, rng)
        return [[tuple(a), tuple(b)] for a, b in paired.tables], list(paired.byes)

    def _pair_duplicate(self, number: int, field_: list[Entrant]) -> tuple[list[Sides], list[int]]:
        in_field = {e.no for e in field_}
        if self.rounds:
            order = [s.entrant for s in self.standings() if s.entrant in in_field]
        else:
            order = [e.no for e in field_]
        played: set[frozenset[int]] = set()
        counts: dict[int, list[int]] = {no: [0, 0] for no in in_field}
        for game in self.games():
            first, second = game.sides[0][0], game.sides[1][0]
            played.add(frozenset((first, second)))
            for index, no in enumerate((first, second)):
                if no in counts:
                    counts[no][index] += 1
        sides_so_far = {no: (c[0], c[1]) for no, c in counts.items()}
        tables, bye = duplicate_tables(order, number, played, sides_so_far)
        return [[(a,), (b,)] for a, b in tables], [] if bye is None else [bye]

    def _pair_knockout(self, number: int, now: float, new_table_id: Callable[[], str]) -> RoundPlan:
        if number == 1:
            pairs = bracket([e.no for e in sorted(self.entrants, key=lambda e: e.no)])
            matches = list(pairs)
        else:
            previous = self.rounds[-1]
            assert previous.pairs is not None
            winners = {pair: self._knockout_winner(previous, pair) for pair in previous.pairs}
            pairs = next_round(previous.pairs, winners)  # from the semi-finals: [final, third place]
            matches = list(pairs)
        games: list[PlannedGame] = []
        byes: list[int] = []
        for a, b in matches:
            here = [no for no in (a, b) if self.entrant(no).status == "active"]
            if len(here) == 2:
                games.append(self._make_game(number, len(games) + 1, [(a,), (b,)], new_table_id))
            else:  # a walkover: the one still in goes on (neither: the better seed)
                byes.append(here[0] if here else min(a, b))
        return RoundPlan(number, now, games, byes, pairs=[(a, b) for a, b in pairs])

    def _knockout_winner(self, plan: RoundPlan, pair: tuple[int, int]) -> int:
        a, b = pair
        for no in plan.byes:
            if no in pair:
                return no
        for game in plan.games:
            if {game.sides[0][0], game.sides[1][0]} == {a, b}:
                assert game.result is not None
                winners = [
                    side[0] for side, won in zip(game.result.sides, game.result.won, strict=True) if won
                ]
                return winners[0] if len(winners) == 1 else min(a, b)
        raise KeyError(pair)

    def _step_arena(self, now: float, rng: random.Random, new_table_id: Callable[[], str]) -> list[Effect]:
        playing = [g for g in self.games() if g.state != "done"]
        if self._window_over(now):
            self.window_closed = True  # no more pairing; the games in progress finish and count
            return [] if playing else self._finish(now)
        if not self.rounds:
            self.rounds.append(RoundPlan(1, now, [], []))
        plan = self.rounds[0]
        busy = {no for g in playing for side in g.sides for no in side}
        last: dict[int, PlannedGame] = {}
        for game in plan.games:
            for side in game.sides:
                for no in side:
                    last[no] = game
        wins = self._wins()
        free = []
        for e in self._active(1):
            if e.no in busy:
                continue
            previous = last.get(e.no)
            since = self.started_at if previous is None or previous.ended_at is None else previous.ended_at
            opponents = (
                () if previous is None else tuple(no for side in previous.sides for no in side if no != e.no)
            )
            at = since if since is not None else now
            free.append(ArenaPlayer(e.no, wins[e.no], at, opponents, e.pena_id))
        per_table = 2 if self.config.entry is Entry.DUEL else 4
        tables = pair_arena(free, per_table) if len(free) >= per_table else []
        new: list[PlannedGame] = []
        for group in tables:
            sides: Sides = (
                [(group[0],), (group[1],)] if per_table == 2 else [(group[0], group[2]), (group[1], group[3])]
            )
            game = self._make_game(1, len(plan.games) + 1, sides, new_table_id)
            plan.games.append(game)
            new.append(game)
        if not new:
            return []
        rules = self.config.game_rules()
        effects: list[Effect] = [CreateTable(game, rules, self.config.rated, None) for game in new]
        for game in new:
            for seat in game.seats:
                if seat.account is not None:
                    effects.append(
                        Notify((seat.account,), self._message("round", 1, game.table_id, seat.seat))
                    )
        return effects

    # Results ---------------------------------------------------------------------------------------

    def record(self, key: str, outcome: GameOutcome, now: float) -> list[Effect]:
        """A game's result (see the module's docstring for points, absence and annulment);
        recording a game already done changes nothing and returns ``[]``."""
        game = self.game(key)
        if game.state == "done":
            return []
        if outcome.table_id != game.table_id:
            raise ValueError(f"outcome of table {outcome.table_id} recorded for game {key} ({game.table_id})")
        duplicate = self.config.format is Format.DUPLICADO
        target = outcome.target
        entrant_of_seat = {seat.seat: seat.entrant for seat in game.seats}
        absent_accounts: dict[int, list[int]] = {}
        absent_sides: set[int] = set()
        for seat in outcome.seats:
            if seat.no_show:
                no = entrant_of_seat[seat.seat]
                absent_sides.update(i for i, side in enumerate(game.sides) if no in side)
                accounts = absent_accounts.setdefault(no, [])
                if seat.user_id is not None:
                    accounts.append(seat.user_id)
        sides = len(game.sides)
        if outcome.annulled:
            points = tuple(0 for _ in range(sides))
            won = tuple(False for _ in range(sides))
        else:
            points = tuple(score if duplicate else min(score, target) for score in outcome.scores)
            everyone_else_absent = [
                all(j in absent_sides for j in range(sides) if j != i) for i in range(sides)
            ]
            won = tuple(
                i not in absent_sides and (i in outcome.winners or everyone_else_absent[i])
                for i in range(sides)
            )
        game.result = GameResult(
            round=game.round,
            sides=game.sides,
            points=points,
            won=won,
            absent=frozenset(absent_accounts),
        )
        game.state = "done"
        game.ended_at = now
        if game.started_at is None:
            game.started_at = now
        if duplicate and not outcome.annulled:
            game.hands = [list(hand) for hand in outcome.hands]
        effects: list[Effect] = []
        for no, accounts in absent_accounts.items():
            effects += self._missed(no, accounts)
        plan = self.rounds[game.round - 1]
        if self.config.format is Format.MINITORNEO:
            self._eliminate(plan, game)
        if duplicate and plan.done:
            self._score_duplicate(plan)
            plan.revealed = True
            effects.append(RevealDeals(plan.number))
        return effects

    def _missed(self, no: int, accounts: list[int]) -> list[Effect]:
        entrant = self.entrant(no)
        entrant.missed += 1
        entrant.absent_accounts = tuple(dict.fromkeys(entrant.absent_accounts + tuple(accounts)))
        if entrant.missed < MISSES_TO_WITHDRAW or entrant.status == "absent":
            return []
        entrant.status = "absent"
        effects: list[Effect] = [MarkAbsent(account) for account in entrant.absent_accounts]
        if entrant.accounts:
            effects.append(Notify(entrant.accounts, self._message("withdrawn")))
        return effects

    def _eliminate(self, plan: RoundPlan, game: PlannedGame) -> None:
        total = self.total_rounds
        assert total is not None and plan.pairs is not None
        if plan.number >= total - 1:  # semi-final losers play for third place; the last round ends it
            return
        pair = next(p for p in plan.pairs if set(p) == {game.sides[0][0], game.sides[1][0]})
        winner = self._knockout_winner(plan, pair)
        loser = pair[0] if winner == pair[1] else pair[1]
        if self.entrant(loser).status == "active":
            self.entrant(loser).status = "eliminated"

    def _score_duplicate(self, plan: RoundPlan) -> None:
        hands = self.config.hands
        diffs: dict[int, list[int]] = {}
        for game in plan.games:
            if game.hands is not None:
                per_deal = [hand[0] - hand[1] for hand in game.hands][:hands]
                diffs[game.board] = per_deal + [0] * (hands - len(per_deal))
        scored = matchpoints(diffs) if diffs else {}
        for game in plan.games:
            assert game.result is not None
            mp = list(scored.get(game.board, (0.0, 0.0)))
            for index, side in enumerate(game.sides):
                if any(no in game.result.absent for no in side):
                    mp[index] = 0.0
            game.result = replace(game.result, matchpoints=(float(mp[0]), float(mp[1])))
            game.hands = None

    # The end ------------------------------------------------------------------------------------------

    def _finish(self, now: float) -> list[Effect]:
        self.status = Status.FINISHED
        self.finished_at = now
        placings = {
            account: place for no, place in self.places().items() for account in self.entrant(no).accounts
        }
        effects: list[Effect] = [Placings(placings)]
        accounts = self._everyone()
        if accounts:
            effects.append(Notify(accounts, self._message("finished")))
        return effects

    def places(self) -> dict[int, int]:
        """Each entrant's place (a knock-out: 1-4 from the last round, then equal places by
        the round one went out in: 5 for the quarter-finals, 9 for the round of sixteen)."""
        if self.config.format is not Format.MINITORNEO:
            return {s.entrant: s.place for s in self.standings()}
        total = self.total_rounds
        assert total is not None
        places: dict[int, int] = {}
        for plan in self.rounds:
            for no in {no for pair in plan.pairs or [] for no in pair}:
                places[no] = 2 ** (total - plan.number) + 1
        top = self.podium()
        if top:
            last = self.rounds[-1]
            assert last.pairs is not None
            third = last.pairs[1]
            fourth = third[0] if top[2] == third[1] else third[1]
            places.update({top[0]: 1, top[1]: 2, top[2]: 3, fourth: 4})
        return places

    def standings(self) -> list[Standing]:
        games = self._results()
        if self.config.format is Format.DUPLICADO:
            games = [result for result in games if result.matchpoints is not None]
        return standings(
            [e.no for e in self.entrants if e.no > 0],
            games,
            self._byes(),
            rotating=self.config.entry is Entry.ROTATING,
            duplicate=self.config.format is Format.DUPLICADO,
        )

    def _shown_standings(self) -> list[Standing]:
        """The standings as the page shows them: a knock-out's in the order of its places
        (the podium, then by the round one went out in), so the table agrees with the podium."""
        if self.status is Status.OPEN:
            return []
        shown = self.standings()
        if self.config.format is not Format.MINITORNEO or not self.rounds:
            return shown
        places = self.places()
        if self.status is not Status.FINISHED:  # whoever is still in may yet win it
            places.update({e.no: 1 for e in self.entrants if e.no > 0 and e.status == "active"})
        order = {s.entrant: index for index, s in enumerate(shown)}
        unplaced = len(self.entrants) + 1
        shown.sort(key=lambda s: (places.get(s.entrant, unplaced), order[s.entrant]))
        return [replace(s, place=places.get(s.entrant, unplaced)) for s in shown]

    def podium(self) -> list[int]:
        """First, second and third (entrant numbers) once finished; [] before."""
        if self.status is not Status.FINISHED:
            return []
        if self.config.format is Format.MINITORNEO:
            last = self.rounds[-1]
            assert last.pairs is not None and len(last.pairs) == 2
            final, third = last.pairs
            return list(
                knockout_podium(
                    final, self._knockout_winner(last, final), third, self._knockout_winner(last, third)
                )
            )
        return [s.entrant for s in self.standings()[:3]]

    # What anyone may see ----------------------------------------------------------------------------

    def summary_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.config.name,
            "format": self.config.format.value,
            "entry": self.config.entry.value,
            "status": self.status.value,
            "size": self.config.size,
            "entrants": len([e for e in self.entrants if e.no > 0]),
            "starts_at": self.config.starts_at if self.started_at is None else self.started_at,
            "rated": self.config.rated,
            "private": self.config.private,
            "creator": self.creator,
            "round": len(self.rounds),
            "rounds": self.total_rounds,
        }

    def _shown_seeds(self, plan: RoundPlan) -> list[dict[str, str]] | None:
        """A duplicado round's deals, {seed, salt, commitment} in hex, once it is revealed (its
        games over, or the tournament ended): derived from the master secret (deals.py), which
        is never shown. None before, and for every other format."""
        if self.config.format is not Format.DUPLICADO or not plan.commitments:
            return None
        if not plan.revealed and self.status not in (Status.FINISHED, Status.CANCELLED):
            return None
        master = tournament_deals.master_of({"secret": self.secret})
        return tournament_deals.seeds(master, plan.number, len(plan.commitments))

    def battle_json(self) -> list[dict[str, Any]] | None:
        """Peña against peña: each peña's standing (battle.py), its entrants' arena standing
        read as it is shown; None for any other event. The HTTP API adds each peña's name."""
        if not self.config.battle_penas:
            return None
        pena_of = {e.no: e.pena_id for e in self.entrants if e.pena_id is not None}
        names = {e.no: " / ".join(e.names) for e in self.entrants}
        shown = self._shown_standings()
        entrants = [
            BattleEntrant(pena_of[s.entrant], names[s.entrant], s.place, s.wins, s.efectividad, s.points_for)
            for s in shown
            if s.entrant in pena_of
        ]
        placed = {s.entrant for s in shown}
        waiting = [  # registered, not in the standing yet (before the start)
            BattleEntrant(pena, names[no], len(names) + 1, 0, 0, 0)
            for no, pena in pena_of.items()
            if no not in placed
        ]
        rows = battle_standing(self.config.battle_penas, self.config.battle_counting, entrants + waiting)
        return [
            {
                "pena_id": row.pena_id,
                "rank": row.rank,
                "score": row.score,
                "efectividad": row.efectividad,
                "points_for": row.points_for,
                "counted": list(row.counted),
                "entrants": row.entrants,
            }
            for row in rows
        ]

    def public_json(self, viewer: int | None = None) -> dict[str, Any]:
        """The HTTP API's Detail but for ``me`` (http/tournaments.py adds it with
        `registered`, `can_register`, `can_withdraw`, `can_cancel`, `playing_game_of`):
        nothing secret (no secret, no invitation code, no account ids)."""
        names = {e.no: list(e.names) for e in self.entrants}
        config = self.config.to_json()
        rounds = []
        for plan in self.rounds:
            games = []
            for game in plan.games:
                result = game.result
                games.append(
                    {
                        "key": game.key,
                        "table": game.table_id,
                        "state": game.state,
                        "sides": [
                            {
                                "entrants": list(side),
                                "names": [
                                    seat.name for seat in game.seats if seat.seat % len(game.sides) == index
                                ],
                                "points": None if result is None else result.points[index],
                                "won": None if result is None else result.won[index],
                                "matchpoints": None
                                if result is None or result.matchpoints is None
                                else result.matchpoints[index],
                            }
                            for index, side in enumerate(game.sides)
                        ],
                    }
                )
            rounds.append(
                {
                    "number": plan.number,
                    "started_at": plan.started_at,
                    "byes": list(plan.byes),
                    "commitments": plan.commitments,
                    "seeds": self._shown_seeds(plan),
                    "games": games,
                }
            )
        standings_ = [
            {
                "place": s.place,
                "entrant": s.entrant,
                "names": names.get(s.entrant, []),
                "played": s.played,
                "wins": s.wins,
                "losses": s.losses,
                "byes": s.byes,
                "points_for": s.points_for,
                "points_against": s.points_against,
                "efectividad": s.efectividad,
                "partners_tiebreak": s.partners_tiebreak,
                "matchpoints": s.matchpoints,
            }
            for s in self._shown_standings()
        ]
        return {
            **self.summary_json(),
            "rounds_total": self.total_rounds,  # the Summary's "rounds": here "rounds" lists them
            "config": config,
            "entrants": [
                {
                    "no": e.no,
                    "names": list(e.names),
                    "bot": e.is_bot,
                    "status": e.status,
                    **({"pena_id": e.pena_id} if self.config.battle_penas else {}),  # peña against peña
                }
                for e in sorted(self.entrants, key=lambda e: e.no)
                if e.no > 0
            ],
            "standings": standings_,
            "battle": self.battle_json(),
            "rounds": rounds,
            "podium": [
                {"place": place, "entrant": no, "names": names.get(no, [])}
                for place, no in enumerate(self.podium(), start=1)
            ],
        }
