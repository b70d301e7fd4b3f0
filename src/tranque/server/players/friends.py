"""Friends and blocks: the rules of requests and blocks, what a friend list shows, and the
notices each account's sockets receive (docs/protocol.md, «Friends and blocks»).

A request goes to another account that neither blocks nor is blocked by the asker, once; a
request to someone who already asked you is an acceptance. Requests and invitations are
limited per account (players/social_limits.py): a second request to one account within a day
brings it no second notice. Blocking ends any friendship or
request, hides the blocked player's phrases from the blocker (table/muting.py) and keeps the two
apart in quick match (lobby/quickmatch.py). A friend's table is shown only when it is a public or
quick-match table, or one the asker sits at too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from tranque.server.http.errors import ApiError
from tranque.server.lobby.presence import Presence
from tranque.server.lobby.registry import Registry
from tranque.server.players.social_limits import SocialLimits, check_invite, check_request, keep_send
from tranque.server.store import FriendLink, Store, UserRow
from tranque.server.table.actor import Table
from tranque.server.table.state import Phase, TableKind
from tranque.server.table.views import invite_path

log = logging.getLogger(__name__)

SHOWN_KINDS = (TableKind.PUBLIC, TableKind.QUICK)  # a friend's table anybody may be told of


def notice(kind: str, sender: UserRow, **extra: Any) -> dict[str, Any]:
    """A `notice` message (docs/protocol.md)."""
    return {"type": "notice", "kind": kind, "from": sender.name, **extra}


def table_path(table: Table) -> str:
    """Where a browser opens `table`: its invitation link if private, else its own page."""
    code = table.options.invite_code
    if table.options.kind is TableKind.PRIVATE and code is not None:
        return invite_path(code)
    return f"/#/mesa/{table.table_id}"


def live_tables(registry: Registry, user_id: int) -> list[Table]:
    """The tables, not yet over, where the account holds a seat: games being played first."""
    found = [
        table
        for table in registry.tables.values()
        if not table.state.phase.is_over and table.state.seat_of_user(user_id) is not None
    ]
    return sorted(found, key=lambda table: table.state.phase is Phase.WAITING)


def shown_table(registry: Registry, friend_id: int, asker_id: int) -> dict[str, str] | None:
    """The table `asker_id` may be told `friend_id` sits at, if any: {"table_id", "phase", "kind"}."""
    for table in live_tables(registry, friend_id):
        if table.options.kind in SHOWN_KINDS or table.state.seat_of_user(asker_id) is not None:
            phase = "waiting" if table.state.phase is Phase.WAITING else "playing"
            return {"table_id": table.table_id, "phase": phase, "kind": table.options.kind.value}
    return None


class Friends:
    """The friend rules over the store, the live tables and who is online."""

    def __init__(
        self, store: Store, registry: Registry, presence: Presence, limits: SocialLimits | None = None
    ) -> None:
        self.store = store
        self.registry = registry
        self.presence = presence
        self.limits = limits or SocialLimits()
        self._announcing: set[asyncio.Task[None]] = set()
        # One request or invitation at a time in this process: its limits are counted and its
        # send kept with no other one in between (other processes count from the store).
        self._sending = asyncio.Lock()

    async def player(self, name: str) -> UserRow:
        found = await self.store.find_user(name)
        if found is None:
            raise ApiError(404, "no_such_player", name=name)
        return found

    async def link(self, me: UserRow, other: UserRow) -> FriendLink | None:
        links = await self.store.friend_links(me.user_id)
        return next((link for link in links if link.user.user_id == other.user_id), None)

    async def listing(self, me: UserRow) -> dict[str, Any]:
        """The body of `GET /api/friends`."""
        links = await self.store.friend_links(me.user_id)
        friends = [
            {
                "name": link.user.name,
                "avatar": link.user.avatar,
                "online": self.presence.online(link.user.user_id),
                "table": shown_table(self.registry, link.user.user_id, me.user_id),
            }
            for link in links
            if link.status == "friends"
        ]

        def asked(status: str) -> list[dict[str, Any]]:
            return [
                {"name": link.user.name, "avatar": link.user.avatar, "at": link.at}
                for link in links
                if link.status == status
            ]

        blocked = [{"name": user.name} for user in await self.store.blocked_users(me.user_id)]
        return {
            "friends": friends,
            "incoming": asked("incoming"),
            "outgoing": asked("outgoing"),
            "blocked": blocked,
        }

    async def request(self, me: UserRow, name: str, now: float) -> None:
        other = await self.player(name)
        if other.user_id == me.user_id:
            raise ApiError(422, "friend_self")
        blocks = await self.store.blocks_among([me.user_id, other.user_id])
        if (me.user_id, other.user_id) in blocks:
            raise ApiError(409, "friend_blocked.yours", name=other.name)
        if (other.user_id, me.user_id) in blocks:
            raise ApiError(409, "friend_blocked", name=other.name)
        link = await self.link(me, other)
        if link is not None and link.status == "friends":
            raise ApiError(409, "already_friends", name=other.name)
        if link is not None and link.status == "outgoing":
            raise ApiError(409, "already_friends.asked", name=other.name)
        if link is not None:  # they asked first: this is a yes
            await self._accept(me, other, now)
            return
        async with self._sending:
            tell = await check_request(self.store, self.limits, me, other, now)
            await keep_send(self.store, me, other, "friend_request", now)
            await self.store.request_friend(me.user_id, other.user_id, now)
        if tell:
            self.presence.send(other.user_id, notice("friend_request", me))

    async def accept(self, me: UserRow, name: str, now: float) -> None:
        other = await self.player(name)
        await self._accept(me, other, now)

    async def _accept(self, me: UserRow, other: UserRow, now: float) -> None:
        if not await self.store.accept_friend(me.user_id, other.user_id, now):
            raise ApiError(404, "no_friend_request", name=other.name)
        self.presence.send(other.user_id, notice("friend_accepted", me))

    async def remove(self, me: UserRow, name: str) -> None:
        other = await self.player(name)
        if not await self.store.remove_friend(me.user_id, other.user_id):
            raise ApiError(404, "not_friends", name=other.name)

    async def block(self, me: UserRow, name: str, now: float) -> UserRow:
        other = await self.player(name)
        if other.user_id == me.user_id:
            raise ApiError(422, "block_self")
        await self.store.block(me.user_id, other.user_id, now)
        await self._mute(me)
        return other

    async def unblock(self, me: UserRow, name: str) -> None:
        other = await self.player(name)
        if not await self.store.unblock(me.user_id, other.user_id):
            raise ApiError(404, "not_blocked", name=other.name)
        await self._mute(me)

    async def muted(self, user_id: int) -> frozenset[int]:
        """The accounts whose phrases and chat lines `user_id`'s sockets hide: the ones it
        blocks, and the ones it mutes in the chat (http/talk.py)."""
        hidden = [*await self.store.blocked_users(user_id), *await self.store.chat_muted_users(user_id)]
        return frozenset(user.user_id for user in hidden)

    async def _mute(self, me: UserRow) -> None:
        await self.mutes_changed(me.user_id)

    async def mutes_changed(self, user_id: int) -> None:
        """The account's sockets, on every process, hide whom it now hides."""
        self.presence.set_muted(user_id, await self.muted(user_id))

    async def invite(self, me: UserRow, name: str, table_id: str, now: float) -> dict[str, Any]:
        other = await self.player(name)
        link = await self.link(me, other)
        if link is None or link.status != "friends":
            raise ApiError(404, "not_friends.invite", name=other.name)
        table = self.registry.tables.get(table_id)
        if table is None or table.state.phase.is_over or table.state.seat_of_user(me.user_id) is None:
            raise ApiError(409, "invite_not_seated")
        if table.options.kind not in (TableKind.PUBLIC, TableKind.PRIVATE):
            raise ApiError(409, "invite_closed")  # practice and quick match: nobody else comes in
        async with self._sending:
            await check_invite(self.store, self.limits, me, now)
            await keep_send(self.store, me, other, "invite", now)
        sent = notice("invite", me, table_id=table.table_id, path=table_path(table))
        return {"sent": self.presence.send(other.user_id, sent)}

    # Online and offline -----------------------------------------------------------------

    def changed(self, user_id: int, online: bool) -> None:
        """`Presence.on_change`: tell the account's friends, on a task of its own."""
        task = asyncio.get_running_loop().create_task(self._announce(user_id, online))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    async def _announce(self, user_id: int, online: bool) -> None:
        try:
            user = await self.store.user_by_id(user_id)
            if user is None:
                return
            kind = "friend_online" if online else "friend_offline"
            for link in await self.store.friend_links(user_id):
                if link.status == "friends":  # every process tells its own sockets (lobby/presence.py)
                    self.presence.send_local(link.user.user_id, notice(kind, user))
        except Exception:  # a store gone at shutdown: nobody is left to tell
            log.exception("could not tell the friends of %s", user_id)
