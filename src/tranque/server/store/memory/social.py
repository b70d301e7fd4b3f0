"""`MemorySocial`: friendships, friend requests and blocks, in memory."""

from __future__ import annotations

from tranque.server.store.accounts import UserRow
from tranque.server.store.memory.data import MemoryData
from tranque.server.store.social import FriendLink, SocialSend, friendship


def relation_of(data: MemoryData, user_id: int, other_id: int) -> tuple[str, bool]:
    """`SocialStore.relation`, read from `data`."""
    rows = set()
    if (user_id, other_id) in data._friends:
        rows.add((True, data._friends[user_id, other_id][0]))
    if (other_id, user_id) in data._friends:
        rows.add((False, data._friends[other_id, user_id][0]))
    return friendship(rows), (user_id, other_id) in data._blocks


class MemorySocial(MemoryData):
    """`SocialStore` in memory."""

    async def relation(self, user_id: int, other_id: int) -> tuple[str, bool]:
        return relation_of(self, user_id, other_id)

    async def request_friend(self, user_id: int, friend_id: int, at: float) -> None:
        if (user_id, friend_id) not in self._friends and (friend_id, user_id) not in self._friends:
            self._friends[user_id, friend_id] = ("pending", at)

    async def accept_friend(self, user_id: int, requester_id: int, at: float) -> bool:
        if self._friends.get((requester_id, user_id), ("", 0.0))[0] != "pending":
            return False
        self._friends[requester_id, user_id] = ("accepted", at)
        self._friends[user_id, requester_id] = ("accepted", at)
        return True

    async def remove_friend(self, user_id: int, other_id: int) -> bool:
        found = [self._friends.pop(key, None) for key in ((user_id, other_id), (other_id, user_id))]
        return any(row is not None for row in found)

    async def friend_links(self, user_id: int) -> list[FriendLink]:
        links = []
        for (one, other), (status, at) in self._friends.items():
            if one == user_id and status == "accepted":
                links.append(FriendLink(self._users[other], "friends", at))
            elif one == user_id:
                links.append(FriendLink(self._users[other], "outgoing", at))
            elif other == user_id and status == "pending":
                links.append(FriendLink(self._users[one], "incoming", at))
        return sorted(links, key=lambda link: link.user.name.casefold())

    async def block(self, user_id: int, blocked_id: int, at: float) -> None:
        await self.remove_friend(user_id, blocked_id)
        self._blocks.setdefault((user_id, blocked_id), at)

    async def unblock(self, user_id: int, blocked_id: int) -> bool:
        return self._blocks.pop((user_id, blocked_id), None) is not None

    async def blocked_users(self, user_id: int) -> list[UserRow]:
        found = [self._users[blocked] for blocker, blocked in self._blocks if blocker == user_id]
        return sorted(found, key=lambda user: user.name.casefold())

    async def blocks_among(self, user_ids: list[int]) -> set[tuple[int, int]]:
        among = set(user_ids)
        return {(a, b) for a, b in self._blocks if a in among and b in among}

    async def pending_requests(self, user_id: int) -> tuple[int, int]:
        pending = [pair for pair, (status, _) in self._friends.items() if status == "pending"]
        return sum(1 for one, _ in pending if one == user_id), sum(
            1 for _, other in pending if other == user_id
        )

    async def social_sends(self, user_id: int, kind: str, since: float) -> list[SocialSend]:
        return [
            send
            for sender, send in self._sends
            if sender == user_id and send.kind == kind and send.at >= since
        ]

    async def keep_social_send(
        self, user_id: int, target_id: int, kind: str, at: float, forget_before: float
    ) -> None:
        kept = [
            (sender, send) for sender, send in self._sends if sender != user_id or send.at >= forget_before
        ]
        self._sends = [*kept, (user_id, SocialSend(target_id, kind, at))]
