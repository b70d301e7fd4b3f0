"""The reparto's deals: a day's master seed, its public commitment, and each mode's deals.

A day has one master seed, 32 bytes from the OS's CSPRNG (`secrets`). Its **commitment**,
public from the start of the day, is

    SHA-256(seed ‖ "tranque-reparto:<day>:<preset>:<hands>")

(the seed's bytes, then the parameters' UTF-8): it binds the seed to the day and to how its
games are played. The deals themselves come from the duplicado's mechanism
(tournaments/deals.py): deal `k` of mode `m` is `deal_secret(seed, MODE_ROUNDS[m], k)`, a
seed and a salt made by HMAC-SHA256 from the master, so every table of the day and mode deals
the same hands, and each round's own commitment `SHA-256(deal seed ‖ deal salt)` (the one
the table publishes in `round_started`) is in the day's list from the start too. After the
day, the master seed is revealed: anyone recomputes the commitment, every deal's seed, salt
and commitment, and the hands (`tranque.engine.deal.deal_from_seed`).
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from tranque.engine import Rules
from tranque.engine.deal import deal_from_seed
from tranque.engine.tiles import TILES, indices
from tranque.server.tournaments.deals import DealSource, commitments, deal_secret, deal_source

PRESET = "clasico"
REF_PREFIX = "reparto:"
# mode → (players, the engine's mode, the duplicado "round" its deals are drawn under)
MODES: dict[str, tuple[int, str, int]] = {"individual": (2, "individual", 1), "pairs": (4, "pairs", 2)}


def fresh_seed() -> bytes:
    return secrets.token_bytes(32)


def parameters(day: str, hands: int) -> str:
    return f"tranque-reparto:{day}:{PRESET}:{hands}"


def commitment(seed: bytes, day: str, hands: int) -> str:
    """The day's commitment: SHA-256 of the seed and the day's parameters, lowercase hex."""
    return hashlib.sha256(seed + parameters(day, hands).encode()).hexdigest()


def mode_rules(mode: str, hands: int) -> Rules:
    """The rules a mode's games are played by: clásico, `hands` hands (G1). A table of shared
    deals plays them with `lobby.registry.shared_deal_rules` on top (the starters rotate)."""
    players, engine_mode, _ = MODES[mode]
    return Rules.preset(PRESET, players=players, mode=engine_mode, hands=hands)


def ref(day: str, mode: str) -> str:
    """A table's `TableOptions.deals` for the day and mode."""
    return f"{REF_PREFIX}{day}:{mode}"


def is_reparto(ref_text: str | None) -> bool:
    return ref_text is not None and ref_text.startswith(REF_PREFIX)


def parse_ref(ref_text: str) -> tuple[str, str]:
    """`"reparto:<day>:<mode>"` → (day, mode); ValueError for anything else."""
    if not is_reparto(ref_text):
        raise ValueError(f"not a reparto reference: {ref_text!r}")
    day, _, mode = ref_text[len(REF_PREFIX) :].partition(":")
    if mode not in MODES:
        raise ValueError(f"not a reparto mode: {ref_text!r}")
    return day, mode


def source(seed: bytes, mode: str) -> DealSource:
    """The deal secrets of a mode's tables: round k of the game is deal k."""
    return deal_source(seed, MODES[mode][2])


def deal_commitments(seed: bytes, mode: str, hands: int) -> list[str]:
    """The commitment of each of the mode's deals, in order (public from the start)."""
    return commitments(seed, MODES[mode][2], hands)


def revealed_deals(seed: bytes, mode: str, hands: int) -> list[dict[str, Any]]:
    """Each of the mode's deals once revealed: its seed, salt, commitment and the hands."""
    rules = mode_rules(mode, hands)
    shown = []
    for number in range(hands):
        secret = deal_secret(seed, MODES[mode][2], number)
        dealt, boneyard = deal_from_seed(rules, secret.seed)
        shown.append(
            {
                "seed": secret.seed.hex(),
                "salt": secret.salt.hex(),
                "commitment": secret.commitment,
                "hands": [[str(TILES[index]) for index in indices(mask)] for mask in dealt],
                "boneyard": [str(TILES[index]) for index in boneyard],
            }
        )
    return shown
