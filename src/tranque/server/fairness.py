"""Fair deals you can check (docs/design.md): commit to each round's seed, reveal it at the end.

At the deal the server publishes ``SHA-256(seed ‖ salt)``; when the round ends it reveals
both, and anyone can re-shuffle with `tranque.engine.deal.deal_from_seed` and compare.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

from tranque.engine import Rules
from tranque.engine.deal import deal_from_seed
from tranque.engine.tiles import TILES


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


def commitment_of(seed: bytes, salt: bytes) -> str:
    return hashlib.sha256(seed + salt).hexdigest()


def verify_round(rules: Rules, round_data: dict[str, Any], commitment: str) -> list[str]:
    """Problems with one revealed round (empty when it checks out): the seed and salt must
    match the commitment published at the deal, and the seed must give the recorded deal."""
    problems = []
    try:
        seed = bytes.fromhex(round_data["seed"])
        salt = bytes.fromhex(round_data["salt"])
    except (KeyError, TypeError, ValueError):
        return ["la mano no trae semilla y sal revelados"]
    if commitment_of(seed, salt) != commitment:
        problems.append("la semilla y la sal no dan el compromiso publicado al repartir")
    hands, boneyard = deal_from_seed(rules, seed)
    dealt = [sorted(str(TILES[i]) for i in range(55) if hand >> i & 1) for hand in hands]
    recorded = [sorted(hand) for hand in round_data.get("hands", [])]
    if dealt != recorded or [str(TILES[i]) for i in boneyard] != list(round_data.get("boneyard", [])):
        problems.append("la semilla no da el reparto registrado")
    return problems
