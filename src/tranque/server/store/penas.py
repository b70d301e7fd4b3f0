"""The peñas' area of the store: groups of accounts with their members, leaders, join
requests and invitation links (the rules are penas/service.py's).

A peña has an integer `id` and a unique url `slug`; its name is unique casefolded and by its
look-alike key (`accounts.names.skeleton`), as account names are. Each member is a "leader" or
a "member"; an account asks to join an open peña (a request a leader approves), or joins any
peña with an invitation link a leader made (only the SHA-256 of its token is kept).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

ROLES = ("leader", "member")
ACCESS = ("open", "invite")  # open: by request (a leader approves) or link; invite: by link only

LeaveOutcome = Literal["left", "dissolved", "last_leader", "not_member"]


class PenaNameTaken(Exception):
    """A peña with this name (casefolded) or one that looks like it exists already."""


@dataclass(frozen=True)
class PenaRow:
    id: int
    slug: str
    name: str
    crest: str  # one of the site's drawings (accounts/avatars.py)
    description: str
    access: str  # `ACCESS`
    created_by: int | None
    created_at: float
    members: int = 0  # how many members it has, when read


@dataclass(frozen=True)
class PenaMember:
    """One member of a peña, as its page lists them."""

    user_id: int
    name: str
    avatar: str | None
    role: str  # `ROLES`
    joined_at: float


@dataclass(frozen=True)
class PenaMembership:
    """One of the peñas an account belongs to."""

    pena: PenaRow
    role: str
    joined_at: float


@dataclass(frozen=True)
class PenaRequest:
    """An account's request to join a peña, waiting for a leader."""

    user_id: int
    name: str
    avatar: str | None
    at: float


class PenaStore(Protocol):
    """Peñas, their members, join requests and invitation links."""

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
        """A new peña with its creator as its one leader; `slug` is a base the store makes
        unique (``slug``, ``slug-2``, ...). `PenaNameTaken` if its name exists (casefolded) or
        one looks like it (the same skeleton)."""
        ...

    async def find_pena(self, name: str) -> PenaRow | None:
        """The peña of this name, casefolded."""
        ...

    async def find_similar_pena(self, name: str) -> PenaRow | None:
        """The peña whose name looks like `name` (the same `names.skeleton`)."""
        ...

    async def pena_by_slug(self, slug: str) -> PenaRow | None: ...

    async def pena_by_id(self, pena_id: int) -> PenaRow | None: ...

    async def update_pena(self, pena_id: int, crest: str, description: str, access: str) -> PenaRow | None:
        """Change what a leader may change; None if there is no such peña."""
        ...

    async def list_penas(self, query: str, most: int) -> list[PenaRow]:
        """At most `most` peñas whose name contains `query` (casefolded; "" for all), the
        biggest first, then by name; each with its `members` counted."""
        ...

    # Members --------------------------------------------------------------------------------

    async def pena_role(self, pena_id: int, user_id: int) -> str | None:
        """ "leader", "member", or None for an account not in the peña."""
        ...

    async def pena_members(self, pena_id: int) -> list[PenaMember]:
        """The peña's members, leaders first, then by when they joined."""
        ...

    async def penas_of(self, user_id: int) -> list[PenaMembership]:
        """The peñas the account belongs to, by name."""
        ...

    async def add_pena_member(self, pena_id: int, user_id: int, at: float) -> bool:
        """The account joins as a member (and its request, if any, is gone); False if it was
        one already or there is no such peña."""
        ...

    async def set_pena_role(self, pena_id: int, user_id: int, role: str) -> bool:
        """False if the account is not a member."""
        ...

    async def remove_pena_member(self, pena_id: int, user_id: int) -> bool:
        """Take a member (never a leader) out of the peña; False if it is no member or a leader."""
        ...

    async def leave_pena(self, pena_id: int, user_id: int) -> LeaveOutcome:
        """The account leaves, in one step with the count of leaders: "last_leader" (nothing
        changes) if it is the one leader and others remain; "dissolved" if it was the only
        member (the peña is deleted with its requests and invitations); "left" otherwise."""
        ...

    # Join requests --------------------------------------------------------------------------

    async def request_pena(self, pena_id: int, user_id: int, at: float) -> bool:
        """Keep the account's request to join; False if it asked already."""
        ...

    async def pena_requests(self, pena_id: int) -> list[PenaRequest]:
        """The requests waiting for a leader, oldest first."""
        ...

    async def approve_pena_request(self, pena_id: int, user_id: int, at: float) -> bool:
        """The request becomes a membership, in one step; False if there was no request."""
        ...

    async def drop_pena_request(self, pena_id: int, user_id: int) -> bool:
        """Refuse (or withdraw) a request; False if there was none."""
        ...

    # Invitation links -----------------------------------------------------------------------

    async def create_pena_invitation(
        self, pena_id: int, token_hash: str, created_by: int, at: float, expires_at: float
    ) -> None:
        """Keep a new link, and forget the peña's links that expired by `at`."""
        ...

    async def pena_by_invitation(self, token_hash: str, now: float) -> PenaRow | None:
        """The peña of a live invitation (not expired) with this token hash."""
        ...
