"""The moderation area of the store: roles, the moderators' queue, sanctions and the audit log.

- **Roles.** An account is a `player` unless a row says `moderator` or `admin`.
- **The queue.** A `ReviewItem` is anything a moderator should look at: a player's report
  (kind ``report``: a reporter, a reason code, a note) or an item another part of the server
  raises (`add_review`: any kind, the accounts it is about, evidence as JSON), with the game it
  is about if any. An item is open until a moderator closes it.
- **Sanctions.** A `SanctionRow` mutes, suspends (until a time) or bans an account; lifting it
  (the undo) keeps the row, with who lifted it and when. While a ban holds, the account's
  ratings and XP are withheld from the rankings (`withhold_standings`, `restore_standings`).
- **The audit log.** Every moderator's action is a `LogEntry`, written in the same transaction
  as what it did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

ROLES = ("player", "moderator", "admin")
SANCTIONS = ("mute", "suspend", "ban")
REPORT = "report"  # the kind of a player's report in the queue


class AlreadyReported(Exception):
    """The reporter has reported this account for this game (or from its profile) already."""


@dataclass(frozen=True)
class ReviewItem:
    """One item of the moderators' queue."""

    item_id: int
    kind: str  # "report", or a kind another part of the server raises (e.g. "engine_agreement")
    subjects: list[int]  # the accounts it is about
    evidence: dict[str, Any]  # what the kind says about them, as JSON
    game_id: str | None
    created_at: float
    reporter_id: int | None = None  # a report's author; None for other kinds
    reason: str | None = None  # a report's reason code
    note: str | None = None  # a report's note
    status: str = "open"  # open | closed
    closed_at: float | None = None
    closed_by: int | None = None
    resolution: str | None = None


@dataclass(frozen=True)
class NewReport:
    reporter_id: int
    subject_id: int
    reason: str
    note: str | None
    game_id: str | None
    at: float


@dataclass(frozen=True)
class SanctionRow:
    sanction_id: int
    user_id: int
    kind: str  # mute | suspend | ban
    until: float | None  # None: until lifted
    created_at: float
    created_by: int | None  # the moderator; None: the terminal
    reason: str
    lifted_at: float | None = None
    lifted_by: int | None = None

    def holds(self, now: float) -> bool:
        """In force at `now`: not lifted, and not past its time.

        >>> SanctionRow(1, 2, "suspend", 100.0, 0.0, None, "").holds(50.0)
        True
        >>> SanctionRow(1, 2, "suspend", 100.0, 0.0, None, "").holds(100.0)
        False
        """
        return self.lifted_at is None and (self.until is None or now < self.until)


@dataclass(frozen=True)
class LogEntry:
    """One line of the audit log: who did what to whom, when and why."""

    at: float
    moderator_id: int | None  # None: the terminal (`tranque admin grant`)
    # grant | mute | suspend | ban | unmute | unsuspend | unban | close | end_table | close_sockets
    action: str
    subject_id: int | None = None
    item_id: int | None = None
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)
    entry_id: int = 0  # given by the store


class ModerationStore(Protocol):
    """Roles, the moderators' queue, sanctions and the audit log."""

    async def role_of(self, user_id: int) -> str:
        """`player` unless the account was made `moderator` or `admin`."""
        ...

    async def set_role(self, user_id: int, role: str, entry: LogEntry) -> None: ...

    async def add_report(self, report: NewReport) -> int:
        """Keep a report in the queue; `AlreadyReported` if this reporter reported this
        account for this game (or, without a game, from its profile) already."""
        ...

    async def reports_since(self, reporter_id: int, since: float) -> int:
        """How many reports the account made after `since`."""
        ...

    async def add_review(
        self,
        kind: str,
        subjects: list[int],
        evidence: dict[str, Any],
        game_id: str | None = None,
        *,
        at: float | None = None,
    ) -> int:
        """Put an item in the queue for the moderators (any kind but "report"); its id.
        `at` defaults to the current time."""
        ...

    async def review_items(self, status: str, limit: int) -> list[ReviewItem]:
        """The items of `status` (open | closed), oldest open first / newest closed first."""
        ...

    async def review_item(self, item_id: int) -> ReviewItem | None: ...

    async def close_item(self, item_id: int, resolution: str, entry: LogEntry) -> bool:
        """Close an open item; False if there is none open with this id."""
        ...

    async def add_sanction(
        self, user_id: int, kind: str, until: float | None, entry: LogEntry
    ) -> SanctionRow:
        """A new sanction, from `entry` (its moderator, time and reason)."""
        ...

    async def lift_sanction(self, sanction_id: int, entry: LogEntry) -> SanctionRow | None:
        """Lift a sanction not lifted yet; None if there is none such."""
        ...

    async def sanction_by_id(self, sanction_id: int) -> SanctionRow | None: ...

    async def sanctions_of(self, user_ids: list[int]) -> list[SanctionRow]:
        """Every sanction of those accounts, lifted or not, newest first."""
        ...

    async def write_log(self, entry: LogEntry) -> None:
        """Add an action that changes nothing here to the audit log (an admin's, http/admin.py)."""
        ...

    async def moderation_log(self, limit: int) -> list[LogEntry]:
        """The audit log, newest first."""
        ...

    async def end_sessions(self, user_id: int) -> None:
        """Delete every session of the account (a suspended or banned one's)."""
        ...

    async def withhold_standings(self, user_id: int) -> None:
        """Take the account's ratings and XP off the rankings (kept aside, as they are)."""
        ...

    async def restore_standings(self, user_id: int) -> None:
        """Put back what `withhold_standings` took off."""
        ...
