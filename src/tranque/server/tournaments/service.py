"""`Tournaments`: what players do to a tournament (create, register, withdraw, cancel) and
what they read of it, over the store.

Every change is load → the machine's method → save with compare-and-set on the stored
version (`TournamentStore.save_tournament`): a request and the director (or two requests)
that loaded the same version cannot both write it; the one that lost loads the newer document
and tries again, a few times (`TRIES`). The machine (machine.py) decides what a change means
and refuses it with its own codes; the service adds what needs the store: the event exists
(`tournament_not_found`), a private event's invitation (`tournament_private`), the attendance
bar (`tournament_barred`), the players' ratings, and who entered (for the profiles).

`changed` is called with a tournament's id after each change is saved: the director
(director.py) hooks it to step the event at once (a full minitorneo starts); `effects` gets
what a change asked for (a cancellation's notices to the entrants) to carry out.

An event with an entry in fichas (tournaments/fichas.py) takes it at registration, before the
entry is saved (a registration the machine refuses is tried on a copy first, so it takes
nothing; one that loses a race after paying is refunded), and gives it back on a withdrawal
before the start and on a cancellation.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from tranque.server.fichas.errors import FichasError
from tranque.server.fichas.service import Fichas
from tranque.server.moderation.standing import utc_text
from tranque.server.players.rating_scale import shown
from tranque.server.store import Store, TournamentRow, UserRow
from tranque.server.store.tournaments import Order, TournamentStore
from tranque.server.table.clock import Clock
from tranque.server.tournaments import fichas as entry_fichas
from tranque.server.tournaments.config import Entry, TournamentConfig, TournamentError
from tranque.server.tournaments.machine import Effect, Status, Tournament

TRIES = 5  # saves tried on a stale version before the request is answered `tournament_busy`
PER_PAGE = 20  # tournaments in a page of the list
PENA_SCAN = 200  # the latest tournaments of each list a peña's page looks through for its own
NEW_RATING = shown(25.0, 25.0 / 3.0)  # the rating a player without one in the pool is seeded with
# The lists' statuses: what a client asks for, the store's statuses, and their order.
LISTS: dict[str, tuple[tuple[str, ...], Order]] = {
    "upcoming": (("open",), "soonest"),
    "live": (("running",), "soonest"),
    "finished": (("finished", "cancelled"), "latest"),
}


def new_row(
    tournament: Tournament, starts_at: float | None, schedule_key: str | None = None
) -> TournamentRow:
    """The stored row of a tournament just made (version 0), by a person or by the site's
    schedule (`schedule_key`: one row per occurrence, however many directors try)."""
    return TournamentRow(
        id=tournament.id,
        status=str(tournament.status),
        format=str(tournament.config.format),
        name=tournament.config.name,
        private=tournament.config.private,
        creator_id=tournament.creator,
        created_at=tournament.created_at,
        starts_at=starts_at,
        finished_at=None,
        schedule_key=schedule_key,
        version=0,
        doc=tournament.to_json(),
    )


def new_tournament_id() -> str:
    return secrets.token_urlsafe(9)


@dataclass(frozen=True)
class Loaded:
    """A tournament as the store holds it: the machine's state, and its row (invitation, …)."""

    tournament: Tournament
    row: TournamentRow


def loaded(row: TournamentRow) -> Loaded:
    tournament = Tournament.from_json(row.doc)
    tournament.version = row.version
    return Loaded(tournament, row)


def rating_pool(entry: Entry) -> str:
    """The ratings pool a tournament's entrants are seeded by: its tables' (duels, or four
    players in pairs)."""
    return "duel" if entry is Entry.DUEL else "pairs"


def entered_accounts(tournament: Tournament) -> list[int]:
    """The accounts a profile lists as having entered (withdrawing before the start undoes
    an entry; after it, the player stays in the event's list)."""
    return [account for entrant in tournament.entrants for account in entrant.accounts]


def is_registered(tournament: Tournament, account: int) -> bool:
    return any(
        account in entrant.accounts and entrant.status != "withdrawn" for entrant in tournament.entrants
    )


class Tournaments:
    """The tournaments' service: one per server, over its store and clock."""

    def __init__(self, store: Store, clock: Clock, bar_days: float = 7.0) -> None:
        self.store = store
        self.clock = clock
        self.bar_days = bar_days
        self.changed: Callable[[str], None] | None = None  # the director's wake-up
        # What the machine asked for (a cancellation's notices): the director carries it out.
        self.effects: Callable[[str, list[Effect]], Awaitable[None]] | None = None
        self.fichas: Fichas | None = None  # entries in fichas (app_state.py sets it; None: none)

    # Reading --------------------------------------------------------------------------------

    async def load(self, tournament_id: str) -> Loaded:
        row = await self.store.tournament(tournament_id[:64])
        if row is None:
            raise TournamentError("tournament_not_found")
        return loaded(row)

    async def get(self, tournament_id: str, viewer: UserRow | None, invite: str | None = None) -> Loaded:
        """A tournament as `viewer` may read it: a private one only with its invitation, to its
        creator, or to those in it (to anyone else, as if it did not exist: `tournament_private`)."""
        found = await self.load(tournament_id)
        self.check_visible(found, viewer, invite)
        return found

    def check_visible(self, found: Loaded, viewer: UserRow | None, invite: str | None) -> None:
        if not found.row.private or found.tournament.invite_ok(invite):
            return
        if viewer is not None and (
            viewer.user_id == found.tournament.creator or is_registered(found.tournament, viewer.user_id)
        ):
            return
        raise TournamentError("tournament_private")

    async def barred(self, tournament: Tournament, user: UserRow) -> float | None:
        """Until when `user` may not enter `tournament` (it requires attendance and they are
        barred); None: they may."""
        if not tournament.config.requires_attendance:
            return None
        until = await self.store.barred_until(user.user_id)
        return until if until is not None and until > self.clock.now() else None

    async def page(self, status: str, page: int) -> tuple[list[Loaded], int]:
        """A page of the public tournaments of a list (`LISTS`), and how many pages it has."""
        statuses, order = LISTS[status]
        total = await self.store.count_tournaments(statuses, True)
        rows = await self.store.tournaments(statuses, True, PER_PAGE, (page - 1) * PER_PAGE, order)
        return [loaded(row) for row in rows], max(1, math.ceil(total / PER_PAGE))

    async def of_player(
        self, user_id: int, limit: int, public_only: bool
    ) -> list[tuple[TournamentRow, int | None]]:
        """The tournaments an account entered, the latest first, with its place in each."""
        return await self.store.player_tournaments(user_id, limit, public_only)

    # Changes --------------------------------------------------------------------------------

    async def create(self, user: UserRow, config: TournamentConfig) -> Loaded:
        """A new tournament by `user` (who is not entered in it by that: they register as
        anyone does). A private one's invitation is `invite_of(tournament, user)`, its creator's."""
        now = self.clock.now()
        config = config.checked()
        if config.entry_fichas and (self.fichas is None or not self.fichas.enabled):
            raise TournamentError("fichas_off")
        if config.pena_id is not None:
            await self._pena_member(config.pena_id, user)
        for pena_id in config.battle_penas:  # peña against peña: peñas that exist
            if await self.store.pena_by_id(pena_id) is None:
                raise TournamentError("tournament_battle_no_pena")
        while True:
            tournament = Tournament.new(new_tournament_id(), config, user.user_id, now)
            row = new_row(tournament, starts_at(tournament))
            if await self.store.create_tournament(row):  # else its id was taken: another one
                break
        self._changed(tournament.id)
        return loaded(row)

    async def register(
        self,
        user: UserRow,
        tournament_id: str,
        invite: str | None = None,
        partner: str | None = None,
        pena_id: int | None = None,
    ) -> Loaded:
        """Enter `user` (with `partner`'s name, in pairs; for the peña `pena_id` in peña against
        peña); refused with the machine's codes, and: a private event without its invitation,
        an attendance event while barred, a peña's own event or a battle's peña the account is
        not a member of."""
        found = await self.load(tournament_id)
        self.check_visible(found, user, invite)
        own = found.tournament.config.pena_id  # a peña's own tournament: its members only
        if own is not None:
            await self._pena_member(own, user)
        battle = found.tournament.config.battle_penas
        if battle and pena_id in battle and await self.store.pena_role(pena_id, user.user_id) is None:
            raise TournamentError("tournament_battle_member")
        until = await self.barred(found.tournament, user)
        if until is not None:
            raise TournamentError("tournament_barred", until=utc_text(until))
        pool = rating_pool(found.tournament.config.entry)
        ratings = await self.store.ratings_of([user.user_id], pool)
        rating = ratings[user.user_id].shown if user.user_id in ratings else NEW_RATING
        code = invite_of(found.tournament, user) or invite

        def enter(tournament: Tournament, now: float) -> None:
            tournament.register(
                user.user_id, user.name, round(rating), now, partner, invite=code, pena_id=pena_id
            )

        entry = entry_fichas.entry_of(found.tournament, self.fichas)
        if not entry or self.fichas is None:
            return await self._change(found, enter)
        enter(Tournament.from_json(found.row.doc), self.clock.now())  # the machine's refusals first
        try:
            await self.fichas.tournament_entry(user.user_id, found.tournament.id, entry)
        except FichasError as error:  # not enough: nothing moved, nothing entered
            if error.code != "fichas_not_enough":
                raise TournamentError(error.key) from None
            need, have = error.params["need"], error.params["have"]
            raise TournamentError("fichas_not_enough.entry", need=need, have=have) from None
        try:
            return await self._change(found, enter)
        except TournamentError:
            await self.fichas.tournament_refund(user.user_id, found.tournament.id)
            raise

    async def _pena_member(self, pena_id: int, user: UserRow) -> None:
        """A peña's tournament is created and entered by the peña's members only."""
        if await self.store.pena_role(pena_id, user.user_id) is None:
            pena = await self.store.pena_by_id(pena_id)
            name = pena.name if pena is not None else "—"
            raise TournamentError("pena_members_only.tournament", name=name)

    async def of_pena(self, pena_id: int, limit: int) -> list[Loaded]:
        """A peña's tournaments (the private ones too: the peña's page shows them to its
        members), those not yet over first, each list in its own order."""
        found: list[Loaded] = []
        for statuses, order in LISTS.values():
            rows = await self.store.tournaments(statuses, False, PENA_SCAN, 0, order)
            found += [loaded(row) for row in rows if row.doc.get("config", {}).get("pena_id") == pena_id]
        return found[:limit]

    async def withdraw(self, user: UserRow, tournament_id: str) -> Loaded:
        found = await self.load(tournament_id)
        before_start = found.tournament.status is Status.OPEN
        done = await self._change(found, lambda tournament, now: tournament.withdraw(user.user_id, now))
        if before_start and self.fichas is not None and self.fichas.enabled:
            await self.fichas.tournament_refund(user.user_id, tournament_id)
        return done

    async def cancel(self, user: UserRow, tournament_id: str) -> Loaded:
        return await self._change(
            await self.load(tournament_id), lambda tournament, now: tournament.cancel(user.user_id, now)
        )

    async def start(self, user: UserRow, tournament_id: str) -> Loaded:
        """The creator starts an event that has no start time (the director's next step does)."""
        return await self._change(
            await self.load(tournament_id), lambda tournament, now: tournament.start(user.user_id, now)
        )

    async def _change(self, found: Loaded, change: Callable[[Tournament, float], object]) -> Loaded:
        """Apply `change` to the stored document and save it by compare-and-set, loading the
        newer document and trying again while another writer got there first; then hand the
        effects it returned (if any) to `effects`."""
        for _ in range(TRIES):
            tournament = found.tournament
            before = entered_accounts(tournament)
            now = self.clock.now()
            effects = change(tournament, now)  # a refusal leaves the store as it was
            if await save(self.store, Loaded(tournament, found.row), now):
                after = entered_accounts(tournament)
                if after != before:
                    await self.store.set_players(tournament.id, after)
                await entry_fichas.settle(self.fichas, tournament)  # a cancellation's refunds
                if isinstance(effects, list) and effects and self.effects is not None:
                    await self.effects(tournament.id, effects)
                self._changed(tournament.id)
                return await self.load(tournament.id)
            found = await self.load(tournament.id)
        raise TournamentError("tournament_busy")

    def _changed(self, tournament_id: str) -> None:
        if self.changed is not None:
            self.changed(tournament_id)


async def save(store: TournamentStore, found: Loaded, now: float) -> bool:
    """Write a changed tournament over the version it was loaded at (`found.row.version`),
    with the columns the lists read; False if another writer saved first (load it again). The
    director saves what it changed with this too."""
    tournament = found.tournament
    return await store.save_tournament(
        tournament.id,
        found.row.version,
        tournament.to_json(),
        str(tournament.status),
        starts_at=starts_at(tournament),
        finished_at=finished_at(tournament, now, found.row),
    )


def invite_of(tournament: Tournament, user: UserRow | None) -> str | None:
    """A private event's invitation code, for its creator only (None for anyone else)."""
    if not tournament.config.private or user is None or user.user_id != tournament.creator:
        return None
    return tournament.invite_code()


def starts_at(tournament: Tournament) -> float | None:
    """When the event starts, for the lists: its first round's start once it started, else
    the time it is set to (None: when full, or by its creator)."""
    if tournament.rounds:
        return tournament.rounds[0].started_at
    return tournament.config.starts_at


def finished_at(tournament: Tournament, now: float, row: TournamentRow) -> float | None:
    if tournament.status in (Status.FINISHED, Status.CANCELLED):
        return row.finished_at if row.finished_at is not None else now
    return None
