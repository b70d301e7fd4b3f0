"""The fichas' area of the store: the ledger's movements and every holder's balance
(fichas/ledger.py says who holds fichas; the rules are fichas/service.py's and rules.py's).

Movements are appended, never edited or deleted; each has a unique `key`. Writing movements is
one transaction: each movement whose key is new is appended with its two balance changes (its
source's balance goes down — conditionally: never below zero, but for the grants' — and its
destination's up); a movement whose key is taken is skipped (it was done already: a retry); a
source without the fichas raises `FichasShort` and nothing of the whole batch is written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, Protocol

# Holders (fichas/ledger.py names them all): what the store itself must tell apart.
BANK: Final = "bank"
GRANTS: Final = "grants"
ACCOUNT_PREFIX: Final = "account:"
POT_PREFIX: Final = "pot:"
TOURNAMENT_POT_PREFIX: Final = "pot:tournament:"


class Kind(StrEnum):
    GRANT = "grant"  # grants → account, once, when the account is made
    REFILL = "refill"  # grants → account, up to the floor, once a Bogotá day
    STAKE = "stake"  # account → a game's pot, on sitting at a staked table
    UNSTAKE = "unstake"  # a game's pot → account, leaving before the game started
    PAYOUT = "payout"  # pot → a winner's account
    CUT = "cut"  # pot → bank: the bank's share, and a split's remainder
    REFUND = "refund"  # pot → account: an annulled or unrated game, a withdrawal, a cancellation
    FORFEIT = "forfeit"  # pot → bank: the stake of a player penalised for abandoning
    ENTRY = "entry"  # account → a tournament's pool
    PRIZE = "prize"  # a tournament's pool → a podium account


def account(user_id: int) -> str:
    """The holder's name.

    >>> account(7)
    'account:7'
    """
    return f"{ACCOUNT_PREFIX}{user_id}"


def account_of(holder: str) -> int | None:
    """The user id of an account holder; None for a pot, the bank or the grants.

    >>> account_of("account:7"), account_of("bank")
    (7, None)
    """
    return int(holder.removeprefix(ACCOUNT_PREFIX)) if holder.startswith(ACCOUNT_PREFIX) else None


def is_pot(holder: str) -> bool:
    return holder.startswith(POT_PREFIX)


def may_go_negative(holder: str) -> bool:
    """Only the grants' balance goes below zero (it is minus everything granted)."""
    return holder == GRANTS


@dataclass(frozen=True)
class Movement:
    """`amount` fichas from `source` to `destination`, once (by `key`). `user_id`: the account
    the movement is about (shown in its history; None for a pot→bank cut); `ref`: the game
    (``<table>.<game>``) or tournament it belongs to; `at`: seconds since the epoch."""

    key: str
    source: str
    destination: str
    amount: int
    kind: Kind
    user_id: int | None
    ref: str
    at: float
    serial: int = field(default=0, compare=False)  # its place in the ledger, when read (0: not yet)

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a movement moves a positive amount, not {self.amount}")
        if self.source == self.destination:
            raise ValueError("a movement goes from one holder to another")
        object.__setattr__(self, "kind", Kind(self.kind))

    def signed(self, user_id: int) -> int:
        """What the movement changes of `user_id`'s balance: + in, − out, 0 neither."""
        mine = account(user_id)
        if self.destination == mine:
            return self.amount
        return -self.amount if self.source == mine else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "source": self.source,
            "destination": self.destination,
            "amount": self.amount,
            "kind": self.kind.value,
            "user_id": self.user_id,
            "ref": self.ref,
            "at": self.at,
            "serial": self.serial,
        }


@dataclass(frozen=True)
class Books:
    """The whole ledger summed up: `balanced` when the accounts, pots and bank hold exactly
    what was granted (`total_granted` = minus the grants' balance)."""

    total_granted: int
    accounts: int
    pots: int
    bank: int
    negative: int = 0  # holders (other than the grants) below zero: always 0

    @property
    def balanced(self) -> bool:
        return self.negative == 0 and self.accounts + self.pots + self.bank == self.total_granted


class FichasShort(Exception):
    """`holder` lacks the fichas a movement takes from it: it has `have`, the movement `need`s
    more. Nothing of the batch was written."""

    def __init__(self, holder: str, need: int, have: int) -> None:
        super().__init__(f"{holder} has {have} fichas, {need} needed")
        self.holder = holder
        self.need = need
        self.have = have


TOURNAMENT_REF_PREFIX = "tournament:"  # the `ref` of a tournament's movements (not a table game's)


class FichasStore(Protocol):
    """The ledger: movements and balances."""

    async def move_fichas(self, movements: Sequence[Movement]) -> list[Movement]:
        """Write `movements` in one transaction, in order; the ones written (a movement whose
        key exists already is skipped: done before). `FichasShort`, nothing written, if a
        source other than the grants would go below zero."""
        ...

    async def refill_fichas(self, user_id: int, floor: int, key: str, at: float) -> Movement | None:
        """Top the account up to `floor` from the grants, under `key` (one a day), in one
        transaction with reading its balance; None (nothing written) if it has `floor` or
        more, or `key` was used already."""
        ...

    async def ficha_balance(self, holder: str) -> int:
        """The holder's balance (0 for one never moved)."""
        ...

    async def ficha_history(self, user_id: int, limit: int, before: int | None) -> list[Movement]:
        """At most `limit` of the account's movements (those whose `user_id` it is), newest
        first, each with its `serial`; `before`: only those of a lower serial (the next page)."""
        ...

    async def ficha_movements_of(self, ref: str) -> list[Movement]:
        """Every movement of one game (``<table>.<game>``) or tournament, in the order written."""
        ...

    async def ficha_movement(self, key: str) -> Movement | None: ...

    async def ficha_books(self) -> Books:
        """The sums of every holder's balance, by kind of holder, read at one instant."""
        ...

    async def ficha_game_movements_since(self, since: float) -> list[Movement]:
        """Every movement of a table's game (not a tournament's, grant or refill) written at
        `since` or later, in the order written: what the `ficha_flow` signal reads
        (moderation/signals.py)."""
        ...
