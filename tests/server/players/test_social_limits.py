"""The limits on friend requests and invitations (players/social_limits.py, docs/protocol.md
«Friends and blocks») on a real server with real sockets: a request cancelled and sent again
brings no second notice within a day and is refused past the second; one account cannot ask
past its cap of requests waiting for answers nor past its hourly rate, and one account cannot
be sent more than its share; invitations are limited per minute. Every refusal has its code,
both texts, `retry_after` where time lifts it, and keeps nothing."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

import httpx

from tests.server.players.test_friends import cookie, expect_notice, lists, names, notices, refused
from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import client, database_url, live, login
from tests.server.support.players_helpers import make_user
from tranque.server.players.social_limits import SocialLimits
from tranque.server.store import FriendLink

__all__ = ["database_url"]  # the fixture: a server on every backend

HOUR = 3600.0
DAY = 24 * HOUR


@contextlib.contextmanager
def logged_in(server: LiveServer, *names: str) -> Iterator[list[httpx.Client]]:
    """A logged-in HTTP client for each of `names` (made in the store: registrations from one
    address are limited)."""
    with contextlib.ExitStack() as stack:
        https = []
        for name in names:
            make_user(server, name, can_log_in=True)
            http = stack.enter_context(client(server))
            assert login(http, name).status_code == 200
            https.append(http)
        yield https


def retry_later(answer: httpx.Response, code: str) -> int:
    """A 429 refusal that time lifts: its code, both texts, and when to try again."""
    refused(answer, 429, code)
    retry_after: int = answer.json()["retry_after"]
    assert retry_after > 0 and answer.headers["Retry-After"] == str(retry_after)
    return retry_after


def incoming(server: LiveServer, user_id: int) -> list[str]:
    """The requests waiting for the account's answer, read in the store."""

    async def read() -> list[FriendLink]:
        links: list[FriendLink] = await server.state.store.friend_links(user_id)
        return links

    return [link.user.name for link in server.on_server(read) if link.status == "incoming"]


def test_N4_thirty_requests_and_cancels_give_the_victim_one_notice_a_day(database_url: str) -> None:
    with live(database_url) as server, logged_in(server, "ana", "beto") as (ana, beto):

        async def scenario() -> None:
            async with Player(server, headers=cookie(beto)) as victim:
                await victim.request({"type": "ping"})  # answered once the socket is online
                answers = []
                for _ in range(30):
                    answers.append(await asyncio.to_thread(ana.post, "/api/friends", json={"name": "beto"}))
                    await asyncio.to_thread(ana.request, "DELETE", "/api/friends/beto", json={})
                # The request and one more after the cancel; then refused until the day is over.
                assert [answer.status_code for answer in answers[:2]] == [200, 200]
                for answer in answers[2:]:
                    assert retry_later(answer, "friend_request_repeated") > DAY - 60
                assert "beto" in answers[2].json()["message"] and "beto" in answers[2].json()["message_en"]
                await victim.request({"type": "ping"})  # after every request's notice, if any
                assert len(notices(victim, "friend_request")) == 1
                assert await asyncio.to_thread(lists, beto) == {
                    "friends": [],
                    "incoming": [],
                    "outgoing": [],
                    "blocked": [],
                }

                # A day later, a request is let through again, with its notice.
                await asyncio.to_thread(server.advance, DAY + 1)
                again = await asyncio.to_thread(ana.post, "/api/friends", json={"name": "beto"})
                assert names(again.json()["outgoing"]) == ["beto"]
                assert (await expect_notice(victim, "friend_request"))["from"] == "ana"
                assert len(notices(victim, "friend_request")) == 2

        asyncio.run(scenario())


def test_N4b_one_account_cannot_ask_past_its_cap_or_its_rate_and_refused_ones_keep_nothing() -> None:
    with live() as server, logged_in(server, "ana") as (ana,):
        targets = [(f"jugador{number}", make_user(server, f"jugador{number}")) for number in range(25)]
        answers = [ana.post("/api/friends", json={"name": name}) for name, _ in targets]
        assert [answer.status_code for answer in answers[:20]] == [200] * 20
        for answer in answers[20:]:
            refused(answer, 429, "too_many_pending_requests")
            assert "retry_after" not in answer.json()  # answers or cancels lift it, not time
        assert names(lists(ana)["outgoing"]) == sorted(name for name, _ in targets[:20])
        assert [incoming(server, user_id) for _, user_id in targets] == [["ana"]] * 20 + [[]] * 5

        # Five cancelled: room for five more, but 20 were sent within the hour.
        for name, _ in targets[:5]:
            assert ana.request("DELETE", f"/api/friends/{name}", json={}).status_code == 200
        wait = retry_later(ana.post("/api/friends", json={"name": "jugador20"}), "too_many_friend_requests")
        assert HOUR - 60 < wait <= HOUR
        assert incoming(server, targets[20][1]) == []
        server.advance(HOUR + 1)
        assert "jugador20" in names(ana.post("/api/friends", json={"name": "jugador20"}).json()["outgoing"])
        assert incoming(server, targets[20][1]) == ["ana"]


def test_N4b_one_account_receives_at_most_its_share_of_requests() -> None:
    limits = SocialLimits(pending_received=3)
    with live(social_limits=limits) as server, logged_in(server, "a1", "a2", "a3", "a4") as askers:
        beto = make_user(server, "beto", can_log_in=True)
        for http in askers[:3]:
            assert http.post("/api/friends", json={"name": "beto"}).status_code == 200
        answer = askers[3].post("/api/friends", json={"name": "beto"})
        refused(answer, 429, "friend_requests_full")
        assert lists(askers[3])["outgoing"] == []
        assert incoming(server, beto) == ["a1", "a2", "a3"]
        # One declined: there is room again.
        with client(server) as http:
            assert login(http, "beto").status_code == 200
            assert http.request("DELETE", "/api/friends/a1", json={}).status_code == 200
        assert askers[3].post("/api/friends", json={"name": "beto"}).status_code == 200


def test_N4_invitations_to_a_table_are_limited_per_minute() -> None:
    with live() as server, logged_in(server, "ana", "beto") as (ana, beto):
        assert ana.post("/api/friends", json={"name": "beto"}).status_code == 200
        assert beto.post("/api/friends/ana/accept", json={}).status_code == 200
        table = ana.post("/api/tables", json={"preset": "clasico", "players": 4}).json()["table"]

        async def scenario() -> None:
            async with (
                Player(server, headers=cookie(ana)) as host,
                Player(server, headers=cookie(beto)) as guest,
            ):
                assert (await host.request({"type": "sit", "table": table}))["type"] == "ack"
                await guest.request({"type": "ping"})
                invite = {"table_id": table}
                answers = [
                    await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json=invite)
                    for _ in range(12)
                ]
                assert [answer.json() for answer in answers[:10]] == [{"sent": 1}] * 10
                for answer in answers[10:]:
                    assert retry_later(answer, "too_many_invites") <= 60
                await guest.request({"type": "ping"})  # after every invitation that went out
                assert len(notices(guest, "invite")) == 10
                await asyncio.to_thread(server.advance, 61)
                later = await asyncio.to_thread(ana.post, "/api/friends/beto/invite", json=invite)
                assert later.json() == {"sent": 1}
                await expect_notice(guest, "invite")
                assert len(notices(guest, "invite")) == 11

        asyncio.run(scenario())
