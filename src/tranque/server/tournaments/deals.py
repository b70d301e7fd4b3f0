"""Duplicado's deals: every table of a round plays the same hands, committed before the round
and revealed after it (docs/tournaments.md, docs/design.md «Fair deals»).

A tournament's doc holds a master secret (`doc["secret"]`, hex; never shown: `public_json`
leaves it out). Deal `k` (the table's 0-based round number) of tournament round `r` is

    DealSecret(seed = HMAC-SHA256(master, "seed:r:k"), salt = HMAC-SHA256(master, "salt:r:k")[:16])

so every table whose `TableOptions.deals` is the reference `"<tournament id>:<r>"` shuffles
the same tiles from the same seed, after a restart or a takeover too, and nobody can derive a
deal without the master. The round's commitments, `SHA-256(seed ‖ salt)` per deal, are the
ones each table publishes at its deal, so a player can check the round's published list
against every table's `round_started`.

The registry asks two hooks (lobby/registry.py), installed by the app's lifespan
(`install`): `deal_sources(ref)` gives the table its deals, and `deals_revealed(ref)` says
whether the seeds may be shown yet (the round of `ref` is over for every table: the machine's
`RoundPlan.revealed`). Both read the doc from the store; a reveal once seen is kept, a
withheld answer is asked again after `RECHECK_SECONDS`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from tranque.server.table.fairness import DealSecret

RECHECK_SECONDS = 1.0  # a round found not revealed yet is read again after this (loop time)

DealSource = Callable[[int], DealSecret]


class TournamentDocs(Protocol):
    """What the hooks read of the store (store/tournaments.py's `TournamentStore`)."""

    async def tournament(self, tournament_id: str) -> Any: ...


def master_of(doc: Mapping[str, Any]) -> bytes:
    """The master secret of a tournament's doc, as bytes (hex in the doc; else its UTF-8)."""
    secret = doc["secret"]
    if isinstance(secret, bytes):
        return secret
    try:
        return bytes.fromhex(str(secret))
    except ValueError:
        return str(secret).encode()


def deal_secret(master: bytes, round_number: int, deal: int) -> DealSecret:
    """Deal `deal` of tournament round `round_number`: the same for every table of the round."""
    seed = hmac.new(master, f"seed:{round_number}:{deal}".encode(), hashlib.sha256).digest()
    salt = hmac.new(master, f"salt:{round_number}:{deal}".encode(), hashlib.sha256).digest()[:16]
    return DealSecret(seed, salt)


def deal_source(master: bytes, round_number: int) -> DealSource:
    """The table's `deal_secret`: its round k (0-based) is the round's deal k."""

    def secret(deal: int) -> DealSecret:
        return deal_secret(master, round_number, deal)

    return secret


def commitments(master: bytes, round_number: int, hands: int) -> list[str]:
    """The round's commitments, published when it is paired: one per deal, in order."""
    return [deal_secret(master, round_number, deal).commitment for deal in range(hands)]


def seeds(master: bytes, round_number: int, hands: int) -> list[dict[str, str]]:
    """The round's seeds and salts (hex), to show once it is revealed."""
    shown = []
    for deal in range(hands):
        secret = deal_secret(master, round_number, deal)
        shown.append({"seed": secret.seed.hex(), "salt": secret.salt.hex(), "commitment": secret.commitment})
    return shown


def parse_ref(ref: str) -> tuple[str, int]:
    """`"<tournament id>:<round>"` → (id, round); ValueError for anything else."""
    tournament_id, _, number = ref.rpartition(":")
    if not tournament_id or not number.isdigit():
        raise ValueError(f"not a tournament deal reference: {ref!r}")
    return tournament_id, int(number)


def round_revealed(doc: Mapping[str, Any], round_number: int) -> bool:
    """Whether the doc says round `round_number`'s deals are revealed (a finished or
    cancelled tournament reveals them all)."""
    if doc.get("status") in ("finished", "cancelled"):
        return True
    for plan in doc.get("rounds", ()):
        if plan.get("number") == round_number:
            return bool(plan.get("revealed"))
    return False


class DealHooks:
    """The registry's two hooks over the store's tournament docs."""

    def __init__(self, store: TournamentDocs) -> None:
        self.store = store
        self._revealed: set[str] = set()  # refs seen revealed: a reveal is for good
        self._withheld: dict[str, float] = {}  # ref → when it was last read withheld (loop time)
        self._masters: dict[str, bytes] = {}  # tournament id → its master secret (never changes)

    async def _doc(self, tournament_id: str) -> Mapping[str, Any]:
        row = await self.store.tournament(tournament_id)
        if row is None:
            raise LookupError(f"no tournament {tournament_id!r}")
        doc: Mapping[str, Any] = row.doc
        return doc

    async def deal_sources(self, ref: str) -> DealSource:
        tournament_id, round_number = parse_ref(ref)
        master = self._masters.get(tournament_id)
        if master is None:
            master = self._masters[tournament_id] = master_of(await self._doc(tournament_id))
        return deal_source(master, round_number)

    async def deals_revealed(self, ref: str) -> bool:
        if ref in self._revealed:
            return True
        now = asyncio.get_running_loop().time()
        read = self._withheld.get(ref)
        if read is not None and now - read < RECHECK_SECONDS:
            return False
        tournament_id, round_number = parse_ref(ref)
        if round_revealed(await self._doc(tournament_id), round_number):
            self.revealed(ref)
            return True
        self._withheld[ref] = now
        return False

    def revealed(self, ref: str) -> None:
        """The director revealed `ref`'s round: no need to ask the store again."""
        self._revealed.add(ref)
        self._withheld.pop(ref, None)


class HookedRegistry(Protocol):
    deal_sources: Callable[[str], Awaitable[DealSource]] | None
    deals_revealed: Callable[[str], Awaitable[bool]]


def install(registry: HookedRegistry, store: TournamentDocs) -> DealHooks:
    """Give the registry its duplicado hooks (the app's lifespan, before any table is restored)."""
    hooks = DealHooks(store)
    registry.deal_sources = hooks.deal_sources
    registry.deals_revealed = hooks.deals_revealed
    return hooks
