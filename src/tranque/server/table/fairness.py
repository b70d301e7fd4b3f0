"""Fair deals you can check (docs/design.md): commit to each round's seed, reveal it at the end.

At the deal the server publishes ``SHA-256(seed ‖ salt)``; when the round ends it reveals
both, and anyone can re-shuffle with `tranque.engine.deal.deal_from_seed` and compare.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from tranque.engine.fairness import commitment_of


@dataclass(frozen=True)
class DealSecret:
    seed: bytes
    salt: bytes

    @staticmethod
    def fresh() -> DealSecret:
        return DealSecret(secrets.token_bytes(32), secrets.token_bytes(16))

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed, self.salt)
