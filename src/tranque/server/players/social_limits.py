"""The limits on what one account sends to others: friend requests and table invitations
(docs/protocol.md, «Friends and blocks»), so that nobody can flood another's tab.

- Requests an account has sent that wait for an answer: at most `pending_sent`; requests
  waiting for one account's answer: at most `pending_received` (whoever sends them).
- Requests an account sends: at most `requests_per_hour` within any hour.
- Requests to one account within any 24 hours: at most `requests_to_one_per_day`, a request
  and one more after a cancel or a decline; and that second one brings no notice: the other
  already had one that day (`request_notice`).
- Invitations to a table an account sends its friends: at most `invites_per_minute`.

Everything is counted from the store (`SocialStore.pending_requests`, `social_sends`: the
requests and invitations sent, kept a day whatever became of them), so the limits are the
same whichever process of the site a request reaches. A refusal changes nothing and, where
time lifts it, says when (`RetryLater`, its `retry_after`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tranque.server.http.errors import ApiError, RetryLater
from tranque.server.refusals import Words
from tranque.server.store import SocialStore, UserRow

MINUTE = 60.0
HOUR = 3600.0
DAY = 24 * HOUR  # the longest window: sends older than this are forgotten


@dataclass(frozen=True)
class SocialLimits:
    """The numbers, each documented in docs/protocol.md; `Settings.social_limits` chooses them."""

    pending_sent: int = 20  # friend requests an account sent that wait for an answer
    pending_received: int = 50  # friend requests that wait for one account's answer
    requests_per_hour: int = 20  # friend requests an account sends within any hour
    requests_to_one_per_day: int = 2  # friend requests to one account in 24 hours (one more after a no)
    invites_per_minute: int = 10  # invitations to a table an account sends within any minute


def wait(times: list[float], limit: int, seconds: float, now: float) -> float | None:
    """Seconds until one more event fits in a window of `seconds` holding at most `limit`
    events, given the events' `times` (oldest first); None if one fits now.

    >>> wait([10.0, 20.0], 2, 60, 30.0)
    40.0
    >>> wait([10.0], 2, 60, 30.0) is None, wait([10.0, 20.0], 2, 60, 75.0) is None
    (True, True)
    """
    inside = [at for at in times if at > now - seconds]
    if len(inside) < limit:
        return None
    return inside[len(inside) - limit] + seconds - now


def later(seconds: float) -> Words:
    """When to try again, in words: "en 5 minutos", "in 3 hours".

    >>> later(20).text("es"), later(61).text("en"), later(3540).text("es")
    ('en un minuto', 'in 2 minutes', 'en 59 minutos')
    >>> later(3541).text("es"), later(3600).text("en"), later(7201).text("en")
    ('en una hora', 'in an hour', 'in 3 hours')
    """
    minutes = math.ceil(seconds / MINUTE)
    if minutes <= 1:
        return Words("en un minuto", "in a minute")
    if minutes < 60:
        return Words(f"en {minutes} minutos", f"in {minutes} minutes")
    hours = math.ceil(seconds / HOUR)
    if hours <= 1:
        return Words("en una hora", "in an hour")
    return Words(f"en {hours} horas", f"in {hours} hours")


async def check_request(
    store: SocialStore, limits: SocialLimits, me: UserRow, other: UserRow, now: float
) -> bool:
    """Refuse a new friend request from `me` to `other` past a limit (nothing is kept); else
    whether `other` is to get a notice of it: not for a second request within a day."""
    sent = await store.social_sends(me.user_id, "friend_request", now - DAY)
    to_other = [send.at for send in sent if send.target_id == other.user_id]
    again = wait(to_other, limits.requests_to_one_per_day, DAY, now)
    if again is not None:
        count = str(limits.requests_to_one_per_day)
        raise RetryLater("friend_request_repeated", again, name=other.name, count=count, later=later(again))
    mine, _ = await store.pending_requests(me.user_id)
    if mine >= limits.pending_sent:
        raise ApiError(429, "too_many_pending_requests", count=str(limits.pending_sent))
    _, theirs = await store.pending_requests(other.user_id)
    if theirs >= limits.pending_received:
        raise ApiError(429, "friend_requests_full", name=other.name)
    hourly = wait([send.at for send in sent], limits.requests_per_hour, HOUR, now)
    if hourly is not None:
        raise RetryLater(
            "too_many_friend_requests", hourly, count=str(limits.requests_per_hour), later=later(hourly)
        )
    return not to_other


async def check_invite(store: SocialStore, limits: SocialLimits, me: UserRow, now: float) -> None:
    """Refuse an invitation from `me` past `invites_per_minute`."""
    sent = await store.social_sends(me.user_id, "invite", now - MINUTE)
    again = wait([send.at for send in sent], limits.invites_per_minute, MINUTE, now)
    if again is not None:
        raise RetryLater("too_many_invites", again, count=str(limits.invites_per_minute))


async def keep_send(store: SocialStore, me: UserRow, other: UserRow, kind: str, now: float) -> None:
    """Count a request or an invitation sent (and forget the account's sends past a day)."""
    await store.keep_social_send(me.user_id, other.user_id, kind, now, now - DAY)
