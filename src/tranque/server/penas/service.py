"""The peñas' rules over the store (docs/penas.md): who may create, join, leave, remove and
name leaders, and what a peña's page shows.

- Any account creates a peña (and is its first leader): a name as penas/rules.py says, a crest,
  a description and its access: "open" (anybody asks to join; a leader approves) or "invite"
  (only with an invitation link). A leader makes invitation links; a live link lets any
  account join either kind of peña.
- A member leaves; a leader removes members (never another leader) and names other members
  leaders. The one leader may not leave while others remain (`pena_last_leader`: they name
  another leader first); the only member leaving dissolves the peña: it is deleted, and its
  name is free again.
- Every refusal is an `ApiError` with a stable code, in Spanish and English, and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any, Final

from tranque.server.accounts.avatars import avatar_of
from tranque.server.lobby.presence import Presence
from tranque.server.lobby.registry import Registry
from tranque.server.penas import rules
from tranque.server.penas.errors import PenaError
from tranque.server.players.views import seats
from tranque.server.store import Store, UserRow
from tranque.server.store.penas import PenaNameTaken, PenaRow
from tranque.server.table.actor import Table
from tranque.server.table.seats import SeatKind
from tranque.server.table.state import Phase
from tranque.server.table.views import invite_path

INVITATION_SECONDS: Final = 14 * 24 * 3600  # how long an invitation link lets people in
MEMBERS_MOST: Final = 200  # members of one peña
PENAS_MOST: Final = 20  # peñas one account belongs to
LIST_MOST: Final = 50  # peñas a list or a search shows
GAMES_MOST: Final = 10  # recent games a peña's page shows
GAMES_SCANNED_MEMBERS: Final = 50  # members whose latest games are looked through for them


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_path(slug: str, token: str) -> str:
    """Where the browser opens an invitation link (web/js/penas.js)."""
    return f"/#/penas/{slug}?invitacion={token}"


@dataclass(frozen=True)
class Invitation:
    token: str
    url: str
    expires_at: float


def pena_json(pena: PenaRow) -> dict[str, Any]:
    return {
        "id": pena.id,
        "slug": pena.slug,
        "name": pena.name,
        "crest": pena.crest,
        "description": pena.description,
        "access": pena.access,
        "members": pena.members,
        "created_at": pena.created_at,
    }


class Penas:
    """The peñas' rules over the store, the live tables and who is online."""

    def __init__(self, store: Store, registry: Registry, presence: Presence) -> None:
        self.store = store
        self.registry = registry
        self.presence = presence

    # Reads ----------------------------------------------------------------------------------

    async def pena(self, slug: str) -> PenaRow:
        found = await self.store.pena_by_slug(slug)
        if found is None:
            raise PenaError(404, "no_such_pena")
        return found

    async def listing(self, query: str) -> list[dict[str, Any]]:
        return [pena_json(pena) for pena in await self.store.list_penas(query.strip(), LIST_MOST)]

    async def mine(self, user: UserRow) -> list[dict[str, Any]]:
        return [
            {**pena_json(membership.pena), "role": membership.role}
            for membership in await self.store.penas_of(user.user_id)
        ]

    def tables(self, pena: PenaRow, member: bool) -> list[dict[str, Any]]:
        """The peña's tables not yet over, those waiting for players first; their invitation
        links only for members (the only ones who may sit)."""
        found = [
            table
            for table in self.registry.tables.values()
            if table.options.pena_id == pena.id and not table.state.phase.is_over
        ]
        found.sort(key=lambda table: (table.state.phase is not Phase.WAITING, table.table_id))
        return [self._table(table, member) for table in found]

    @staticmethod
    def _table(table: Table, member: bool) -> dict[str, Any]:
        code = table.options.invite_code
        return {
            "table": table.table_id,
            "phase": "waiting" if table.state.phase is Phase.WAITING else "playing",
            "preset": table.rules.preset_name,
            "players": table.rules.players,
            "competitive": table.options.competitive,
            "seats": [seat.name if seat.kind is not SeatKind.EMPTY else None for seat in table.seats],
            "invite_url": invite_path(code) if member and code is not None else None,
        }

    async def games(self, slug: str, viewer: UserRow | None, limit: int = GAMES_MOST) -> list[dict[str, Any]]:
        """The peña's recent games: finished games with two or more of its members at the table
        (a peña's table seats only members), newest first, from the players' game archive as
        the viewer may see them (a private game only if they played it)."""
        pena = await self.pena(slug)
        members = await self.store.pena_members(pena.id)
        ids = {member.user_id for member in members}
        viewer_id = viewer.user_id if viewer is not None else None
        found: dict[str, dict[str, Any]] = {}
        for member in members[:GAMES_SCANNED_MEMBERS]:
            for played in await self.store.player_games(member.user_id, viewer_id, None, limit):
                game_id = played.player.game_id
                seated = {seat.get("user_id") for seat in played.summary["seats"]}
                if game_id in found or len(seated & ids) < 2:
                    continue
                found[game_id] = {
                    "game_id": game_id,
                    "finished_at": played.player.finished_at,
                    "preset": played.player.preset,
                    "format": played.player.format,
                    "players": played.players,
                    "competitive": played.competitive,
                    "rated": played.rated,
                    "seats": seats(played.summary),
                    "scores": played.summary["scores"],
                    "winners": played.summary["winners"],
                }
        games = sorted(found.values(), key=lambda game: -float(game["finished_at"]))
        return games[:limit]

    async def page(self, slug: str, viewer: UserRow | None) -> dict[str, Any]:
        """The body of `GET /api/penas/{slug}`: the requests waiting only for its leaders, who
        is online only for its members."""
        pena = await self.pena(slug)
        members = await self.store.pena_members(pena.id)
        role = None
        if viewer is not None:
            role = next((m.role for m in members if m.user_id == viewer.user_id), None)
        requests = await self.store.pena_requests(pena.id)
        asked = viewer is not None and any(r.user_id == viewer.user_id for r in requests)
        return {
            **pena_json(pena),
            "role": role,
            "requested": asked,
            "people": [
                {
                    "name": member.name,
                    "avatar": avatar_of(member.user_id, member.avatar),
                    "role": member.role,
                    "joined_at": member.joined_at,
                    # Who is online is told to the peña's members only (as to friends).
                    "online": self.presence.online(member.user_id) if role is not None else None,
                }
                for member in members
            ],
            "requests": [
                {"name": r.name, "avatar": avatar_of(r.user_id, r.avatar), "at": r.at} for r in requests
            ]
            if role == "leader"
            else [],
            "tables": self.tables(pena, role is not None),
        }

    # Creating and changing ------------------------------------------------------------------

    async def create(
        self, user: UserRow, name: str, crest: str, description: str, access: str, now: float
    ) -> PenaRow:
        name = rules.clean_name(name)
        crest = rules.check_crest(crest)
        description = rules.clean_description(description)
        access = rules.check_access(access)
        await self._room_for(user)
        await self._name_free(name)
        try:
            return await self.store.create_pena(
                name, rules.slug_of(name), crest, description, access, user.user_id, now
            )
        except PenaNameTaken:
            raise PenaError(409, "pena_name_taken", parameter="name") from None

    async def _name_free(self, name: str) -> None:
        if await self.store.find_pena(name) is not None:
            raise PenaError(409, "pena_name_taken", parameter="name")
        similar = await self.store.find_similar_pena(name)
        if similar is not None:
            raise PenaError(409, "pena_name_confusable", parameter="name", similar=similar.name)

    async def _room_for(self, user: UserRow) -> None:
        if len(await self.store.penas_of(user.user_id)) >= PENAS_MOST:
            raise PenaError(409, "too_many_penas", most=str(PENAS_MOST))

    async def update(self, user: UserRow, slug: str, crest: str, description: str, access: str) -> PenaRow:
        pena = await self.leader_of(user, slug)
        crest = rules.check_crest(crest)
        description = rules.clean_description(description)
        access = rules.check_access(access)
        changed = await self.store.update_pena(pena.id, crest, description, access)
        if changed is None:
            raise PenaError(404, "no_such_pena")
        return changed

    # Roles ----------------------------------------------------------------------------------

    async def leader_of(self, user: UserRow, slug: str) -> PenaRow:
        pena = await self.pena(slug)
        if await self.store.pena_role(pena.id, user.user_id) != "leader":
            raise PenaError(403, "pena_leader_only")
        return pena

    async def member_of(self, user: UserRow, slug: str) -> PenaRow:
        pena = await self.pena(slug)
        if await self.store.pena_role(pena.id, user.user_id) is None:
            raise PenaError(403, "pena_members_only")
        return pena

    async def check_member(self, pena_id: int, user: UserRow, case: str) -> None:
        """`pena_members_only.<case>` (403) unless the account belongs to the peña: a peña's
        tables ("table") and tournaments ("tournament")."""
        if await self.store.pena_role(pena_id, user.user_id) is None:
            pena = await self.store.pena_by_id(pena_id)
            name = pena.name if pena is not None else "—"
            key = "pena_members_only.table" if case == "table" else "pena_members_only.tournament"
            raise PenaError(403, key, name=name)

    async def _account_in(self, pena: PenaRow, name: str) -> tuple[UserRow, str | None]:
        other = await self.store.find_user(name)
        if other is None:
            raise PenaError(404, "no_such_player", name=name)
        return other, await self.store.pena_role(pena.id, other.user_id)

    # Joining --------------------------------------------------------------------------------

    async def _may_join(self, user: UserRow, pena: PenaRow) -> None:
        if await self.store.pena_role(pena.id, user.user_id) is not None:
            raise PenaError(409, "pena_already_member")
        if pena.members >= MEMBERS_MOST:
            raise PenaError(409, "pena_full", most=str(MEMBERS_MOST))
        await self._room_for(user)

    async def ask(self, user: UserRow, slug: str, now: float) -> PenaRow:
        """A request to join an open peña; a peña by invitation refuses it (`pena_invite_only`)."""
        pena = await self.pena(slug)
        await self._may_join(user, pena)
        if pena.access != "open":
            raise PenaError(403, "pena_invite_only")
        if not await self.store.request_pena(pena.id, user.user_id, now):
            raise PenaError(409, "pena_already_requested")
        return pena

    async def withdraw(self, user: UserRow, slug: str) -> PenaRow:
        pena = await self.pena(slug)
        if not await self.store.drop_pena_request(pena.id, user.user_id):
            raise PenaError(404, "pena_no_request", name=user.name)
        return pena

    async def join(self, user: UserRow, slug: str, token: str | None, now: float) -> PenaRow:
        """Join with an invitation link's token. Without one (or with one that is not this
        peña's live link): `pena_invite_only` for a peña by invitation, `pena_bad_invitation`
        for a token that does not work."""
        pena = await self.pena(slug)
        await self._may_join(user, pena)
        if token is None:
            raise PenaError(403, "pena_invite_only")
        invited = await self.store.pena_by_invitation(token_hash(token), now)
        if invited is None or invited.id != pena.id:
            raise PenaError(403, "pena_bad_invitation")
        await self.store.add_pena_member(pena.id, user.user_id, now)
        return pena

    async def invite(self, user: UserRow, slug: str, now: float) -> Invitation:
        pena = await self.leader_of(user, slug)
        token = secrets.token_urlsafe(16)
        expires_at = now + INVITATION_SECONDS
        await self.store.create_pena_invitation(pena.id, token_hash(token), user.user_id, now, expires_at)
        return Invitation(token, invitation_path(pena.slug, token), expires_at)

    async def approve(self, user: UserRow, slug: str, name: str, now: float) -> PenaRow:
        pena = await self.leader_of(user, slug)
        other, _ = await self._account_in(pena, name)
        if pena.members >= MEMBERS_MOST:
            raise PenaError(409, "pena_full", most=str(MEMBERS_MOST))
        if not await self.store.approve_pena_request(pena.id, other.user_id, now):
            raise PenaError(404, "pena_no_request", name=other.name)
        return pena

    async def refuse(self, user: UserRow, slug: str, name: str) -> PenaRow:
        pena = await self.leader_of(user, slug)
        other, _ = await self._account_in(pena, name)
        if not await self.store.drop_pena_request(pena.id, other.user_id):
            raise PenaError(404, "pena_no_request", name=other.name)
        return pena

    # Leaving, removing, naming leaders ------------------------------------------------------

    async def leave(self, user: UserRow, slug: str) -> str:
        """ "left", or "dissolved" when the account was the peña's only member."""
        pena = await self.pena(slug)
        outcome = await self.store.leave_pena(pena.id, user.user_id)
        if outcome == "not_member":
            raise PenaError(404, "pena_not_member.self")
        if outcome == "last_leader":
            raise PenaError(409, "pena_last_leader")
        return outcome

    async def remove(self, user: UserRow, slug: str, name: str) -> PenaRow:
        pena = await self.leader_of(user, slug)
        other, role = await self._account_in(pena, name)
        if role is None:
            raise PenaError(404, "pena_not_member", name=other.name)
        if role == "leader":
            raise PenaError(409, "pena_remove_leader")
        if not await self.store.remove_pena_member(pena.id, other.user_id):
            raise PenaError(404, "pena_not_member", name=other.name)
        return pena

    async def promote(self, user: UserRow, slug: str, name: str) -> PenaRow:
        pena = await self.leader_of(user, slug)
        other, role = await self._account_in(pena, name)
        if role is None:
            raise PenaError(404, "pena_not_member", name=other.name)
        if role == "leader":
            raise PenaError(409, "pena_already_leader", name=other.name)
        await self.store.set_pena_role(pena.id, other.user_id, "leader")
        return pena
