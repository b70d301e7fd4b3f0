"""Check a revealed day of el reparto del día as `GET /api/reparto/{day}/seed` gives it:
the day's commitment from its seed and parameters, each deal's seed, salt and commitment from
the seed, and each deal's hands from its seed (`tranque verify DAY.json`, docs/reparto.md).

Pure: it trusts nothing of the document but the seed, and recomputes everything from it with
the same code that dealt the day (tournaments/deals.py's `deal_secret`, the engine's deal).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from tranque.engine.deal import deal_from_seed
from tranque.engine.tiles import TILES, indices
from tranque.server.reparto.deals import MODES, mode_rules
from tranque.server.tournaments.deals import deal_secret


@dataclass(frozen=True)
class DayProblem:
    """What does not check out: `what` is "commitment" (the day's), "deal" (a deal's
    commitment or seed) or "hands" (the hands shown are not the seed's); `mode` and `hand`
    (1-based) for a deal's."""

    what: str
    mode: str | None = None
    hand: int | None = None


def is_day(document: Any) -> bool:
    """Whether a JSON document is a reparto day (not a game record)."""
    return isinstance(document, dict) and "parameters" in document and "modes" in document


def day_problems(day: dict[str, Any]) -> list[DayProblem]:
    """Every problem of a revealed day; none when it checks out. KeyError, TypeError or
    ValueError for a document of the wrong shape (or one not revealed: no seed)."""
    seed = bytes.fromhex(day["seed"])
    problems = []
    if hashlib.sha256(seed + str(day["parameters"]).encode()).hexdigest() != day["commitment"]:
        problems.append(DayProblem("commitment"))
    hands = int(day["hands"])
    for mode, entry in day["modes"].items():
        series = MODES[mode][2]
        rules = mode_rules(mode, hands)
        for number in range(hands):
            secret = deal_secret(seed, series, number)
            shown = entry.get("deals", [None] * hands)[number]
            if secret.commitment != entry["commitments"][number]:
                problems.append(DayProblem("deal", mode, number + 1))
                continue
            if shown is None:
                continue
            dealt, _ = deal_from_seed(rules, secret.seed)
            expected = [sorted(str(TILES[index]) for index in indices(mask)) for mask in dealt]
            if [sorted(_tile_key(tile) for tile in hand) for hand in shown["hands"]] != expected:
                problems.append(DayProblem("hands", mode, number + 1))
    return problems


def _tile_key(text: str) -> str:
    high, low = sorted((int(half) for half in str(text).split("-")), reverse=True)
    return f"{high}-{low}"
