"""`MemoryPenas`: peñas, their members, requests and invitations, in memory."""

from __future__ import annotations

import dataclasses

from tranque.server.accounts.names import skeleton
from tranque.server.store.memory.data import MemoryData
from tranque.server.store.penas import (
    LeaveOutcome,
    PenaMember,
    PenaMembership,
    PenaNameTaken,
    PenaRequest,
    PenaRow,
)


class MemoryPenas(MemoryData):
    """`PenaStore` in memory. No method awaits between its reads and its writes: each is one
    step of the loop, as each SQL one is one transaction."""

    def _counted(self, pena: PenaRow) -> PenaRow:
        members = sum(pena_id == pena.id for pena_id, _ in self._pena_members)
        return dataclasses.replace(pena, members=members)

    def _free_slug(self, slug: str) -> str:
        taken = {pena.slug for pena in self._penas.values()}
        chosen, number = slug, 1
        while chosen in taken:
            number += 1
            chosen = f"{slug}-{number}"
        return chosen

    async def create_pena(
        self,
        name: str,
        slug: str,
        crest: str,
        description: str,
        access: str,
        creator_id: int,
        at: float,
    ) -> PenaRow:
        key, look = name.casefold(), skeleton(name)
        if any(p.name.casefold() == key or skeleton(p.name) == look for p in self._penas.values()):
            raise PenaNameTaken(name)
        self._pena_serial += 1
        pena = PenaRow(
            self._pena_serial, self._free_slug(slug), name, crest, description, access, creator_id, at
        )
        self._penas[pena.id] = pena
        self._pena_members[pena.id, creator_id] = ("leader", at)
        return self._counted(pena)

    async def find_pena(self, name: str) -> PenaRow | None:
        key = name.casefold()
        found = next((p for p in self._penas.values() if p.name.casefold() == key), None)
        return self._counted(found) if found is not None else None

    async def find_similar_pena(self, name: str) -> PenaRow | None:
        look = skeleton(name)
        found = next((p for p in self._penas.values() if skeleton(p.name) == look), None)
        return self._counted(found) if found is not None else None

    async def pena_by_slug(self, slug: str) -> PenaRow | None:
        found = next((p for p in self._penas.values() if p.slug == slug), None)
        return self._counted(found) if found is not None else None

    async def pena_by_id(self, pena_id: int) -> PenaRow | None:
        found = self._penas.get(pena_id)
        return self._counted(found) if found is not None else None

    async def update_pena(self, pena_id: int, crest: str, description: str, access: str) -> PenaRow | None:
        found = self._penas.get(pena_id)
        if found is None:
            return None
        changed = dataclasses.replace(found, crest=crest, description=description, access=access)
        self._penas[pena_id] = changed
        return self._counted(changed)

    async def list_penas(self, query: str, most: int) -> list[PenaRow]:
        key = query.casefold()
        found = [self._counted(p) for p in self._penas.values() if key in p.name.casefold()]
        found.sort(key=lambda pena: (-pena.members, pena.name.casefold(), pena.id))
        return found[:most]

    async def pena_role(self, pena_id: int, user_id: int) -> str | None:
        found = self._pena_members.get((pena_id, user_id))
        return found[0] if found is not None else None

    async def pena_members(self, pena_id: int) -> list[PenaMember]:
        members = []
        for (pena, user_id), (role, joined_at) in self._pena_members.items():
            user = self._users.get(user_id)
            if pena == pena_id and user is not None:
                members.append(PenaMember(user_id, user.name, user.avatar, role, joined_at))
        members.sort(key=lambda member: (member.role != "leader", member.joined_at, member.user_id))
        return members

    async def penas_of(self, user_id: int) -> list[PenaMembership]:
        found = [
            PenaMembership(self._counted(self._penas[pena_id]), role, joined_at)
            for (pena_id, user), (role, joined_at) in self._pena_members.items()
            if user == user_id and pena_id in self._penas
        ]
        found.sort(key=lambda membership: (membership.pena.name.casefold(), membership.pena.id))
        return found

    async def add_pena_member(self, pena_id: int, user_id: int, at: float) -> bool:
        if pena_id not in self._penas or (pena_id, user_id) in self._pena_members:
            return False
        self._pena_requests.pop((pena_id, user_id), None)
        self._pena_members[pena_id, user_id] = ("member", at)
        return True

    async def set_pena_role(self, pena_id: int, user_id: int, role: str) -> bool:
        found = self._pena_members.get((pena_id, user_id))
        if found is None:
            return False
        self._pena_members[pena_id, user_id] = (role, found[1])
        return True

    async def remove_pena_member(self, pena_id: int, user_id: int) -> bool:
        found = self._pena_members.get((pena_id, user_id))
        if found is None or found[0] == "leader":
            return False
        del self._pena_members[pena_id, user_id]
        return True

    async def leave_pena(self, pena_id: int, user_id: int) -> LeaveOutcome:
        found = self._pena_members.get((pena_id, user_id))
        if found is None:
            return "not_member"
        roles = [role for (pena, _), (role, _) in self._pena_members.items() if pena == pena_id]
        if len(roles) == 1:
            self._dissolve(pena_id)
            return "dissolved"
        if found[0] == "leader" and roles.count("leader") == 1:
            return "last_leader"
        del self._pena_members[pena_id, user_id]
        return "left"

    def _dissolve(self, pena_id: int) -> None:
        del self._penas[pena_id]
        for key in [key for key in self._pena_members if key[0] == pena_id]:
            del self._pena_members[key]
        for key in [key for key in self._pena_requests if key[0] == pena_id]:
            del self._pena_requests[key]
        for token in [token for token, (pena, _) in self._pena_invitations.items() if pena == pena_id]:
            del self._pena_invitations[token]

    async def request_pena(self, pena_id: int, user_id: int, at: float) -> bool:
        if pena_id not in self._penas or (pena_id, user_id) in self._pena_requests:
            return False
        self._pena_requests[pena_id, user_id] = at
        return True

    async def pena_requests(self, pena_id: int) -> list[PenaRequest]:
        found = []
        for (pena, user_id), at in self._pena_requests.items():
            user = self._users.get(user_id)
            if pena == pena_id and user is not None:
                found.append(PenaRequest(user_id, user.name, user.avatar, at))
        found.sort(key=lambda request: (request.at, request.user_id))
        return found

    async def approve_pena_request(self, pena_id: int, user_id: int, at: float) -> bool:
        if self._pena_requests.pop((pena_id, user_id), None) is None:
            return False
        self._pena_members.setdefault((pena_id, user_id), ("member", at))
        return True

    async def drop_pena_request(self, pena_id: int, user_id: int) -> bool:
        return self._pena_requests.pop((pena_id, user_id), None) is not None

    async def create_pena_invitation(
        self, pena_id: int, token_hash: str, created_by: int, at: float, expires_at: float
    ) -> None:
        for token in [
            t for t, (pena, until) in self._pena_invitations.items() if pena == pena_id and until <= at
        ]:
            del self._pena_invitations[token]
        self._pena_invitations[token_hash] = (pena_id, expires_at)

    async def pena_by_invitation(self, token_hash: str, now: float) -> PenaRow | None:
        found = self._pena_invitations.get(token_hash)
        if found is None or found[1] <= now:
            return None
        return await self.pena_by_id(found[0])
