"""Fair deals anyone can check: the commitment published at each deal, and what a recorded
round's revealed seed must satisfy.

At the deal a table publishes ``SHA-256(seed ‖ salt)``; when the round ends it reveals both.
Then seed and salt must give the commitment, and the seed must give the recorded deal
(`tranque.engine.deal.deal_from_seed`). A game played with `tranque play` or `simulate`
publishes no commitment: only its seeds can be checked against the deals.

>>> seed, salt = bytes(32), bytes(16)
>>> commitment_of(seed, salt)[:16]
'17b0761f87b081d5'
"""

from __future__ import annotations

import hashlib
from typing import Any

from tranque.engine.deal import DealError, deal_from_seed, parse_deal
from tranque.engine.errors import EngineError
from tranque.engine.rules import Rules


class FairnessError(EngineError):
    """One thing wrong with a recorded round's deal."""


def commitment_of(seed: bytes, salt: bytes) -> str:
    """The commitment published at a deal: SHA-256 of the seed followed by the salt, in hex."""
    return hashlib.sha256(seed + salt).hexdigest()


def revealed_seed(round_data: dict[str, Any], *, committed: bool) -> bytes:
    """The seed a recorded round reveals; `FairnessError` when it has none or it is not hex."""
    text = round_data.get("seed")
    if text is None:
        raise FairnessError("fair_seed_hidden" if committed else "fair_no_seed")
    try:
        return bytes.fromhex(text)
    except (TypeError, ValueError):
        raise FairnessError("fair_bad_seed") from None


def deal_problems(rules: Rules, round_data: dict[str, Any], *, committed: bool) -> list[FairnessError]:
    """What is wrong with one recorded round's deal, nothing when it checks out. With
    `committed`, the revealed seed and salt must also give the published commitment."""
    try:
        seed = revealed_seed(round_data, committed=committed)
    except FairnessError as error:
        return [error]
    problems = []
    if committed:
        try:
            salt = bytes.fromhex(round_data["salt"])
            published = round_data["commitment"]
        except (KeyError, TypeError, ValueError):
            problems.append(FairnessError("fair_no_salt"))
        else:
            if commitment_of(seed, salt) != published:
                problems.append(FairnessError("fair_commitment_differs"))
    try:
        recorded = parse_deal(rules, round_data["hands"], round_data["boneyard"])
    except DealError as error:
        problems.append(FairnessError("fair_bad_deal", cause=error))
    except (KeyError, TypeError):
        problems.append(FairnessError("fair_no_deal"))
    else:
        if recorded != deal_from_seed(rules, seed):
            problems.append(FairnessError("fair_deal_differs"))
    return problems
