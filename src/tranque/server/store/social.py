"""The social area of the store: friendships, friend requests and blocks between accounts.

What a player's friendship rows with another say, from the first player's side
(`friendship`): a row is (from me?, status): (True, "pending") is my request to them,
(False, "pending") theirs to me, and an accepted friendship has a row each way.

>>> friendship(set()), friendship({(True, "pending")}), friendship({(False, "pending")})
('none', 'outgoing', 'incoming')
>>> friendship({(True, "accepted"), (False, "accepted")})
'friends'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tranque.server.store.accounts import UserRow


@dataclass(frozen=True)
class FriendLink:
    """One of an account's friendships or friend requests, as its lists show it."""

    user: UserRow  # the other account
    status: str  # friends | incoming (they asked) | outgoing (you asked)
    at: float  # when the request was made (or accepted)


@dataclass(frozen=True)
class SocialSend:
    """A friend request or an invitation an account sent: kept a day, for its limits
    (players/social_limits.py), whatever became of the request since."""

    target_id: int
    kind: str  # friend_request | invite
    at: float


SEND_KINDS = ("friend_request", "invite")


def friendship(rows: set[tuple[bool, str]]) -> str:
    if (True, "accepted") in rows:
        return "friends"
    if (True, "pending") in rows:
        return "outgoing"
    if (False, "pending") in rows:
        return "incoming"
    return "none"


class SocialStore(Protocol):
    """Friends and blocks."""

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        """How `user_id` stands with `other_id`: "none", "outgoing" (a request sent),
        "incoming" (a request received) or "friends"; and whether user_id blocks other_id."""
        ...

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        """Keep a request from `user_id` to `friend_id` (nothing if any row links them already)."""
        ...

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        """`user_id` accepts the request of `requester_id`; False if there is none."""
        ...

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        """End a friendship, or decline or cancel a request, between the two; False if none."""
        ...

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        """The account's friends and requests both ways, by the other account's name."""
        ...

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        """`user_id` blocks `blocked_id`: also ends any friendship or request between them."""
        ...

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        """False if `user_id` did not block `blocked_id`."""
        ...

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        """Whom the account blocks, by name."""
        ...

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        """Every (blocker, blocked) pair with both in `user_ids`."""
        ...

    # What an account sent, for its limits (players/social_limits.py) ------------------------

    async def pending_requests(self, user_id: int) -> tuple[int, int]:
        """How many of the account's friend requests wait for an answer, and how many
        requests to it wait for its own."""
        ...

    async def social_sends(self, user_id: int, kind: str, since: float) -> list[SocialSend]:
        """The account's sends of `kind` (`SEND_KINDS`) from `since` on, oldest first."""
        ...

    async def keep_social_send(
        self, user_id: int, target_id: int, kind: str, at: float, forget_before: float
    ) -> None:
        """Keep a send of the account, and forget its sends older than `forget_before`."""
        ...
