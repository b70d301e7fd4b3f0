"""The revealed day tests/web/js/reparto_verify.test.mjs checks (vectors/reparto_day.json),
made by the server's own code: `python -m tests.web.reparto_vectors` writes it again."""

from __future__ import annotations

import json
from typing import Any

from tests.web.fairness_vectors import VECTORS
from tranque.server.reparto.service import Reparto
from tranque.server.store import MemoryStore, RepartoDay
from tranque.server.table.clock import FakeClock

DAY = "2026-12-07"
SEED = bytes(range(100, 132))


def day_vector() -> dict[str, Any]:
    """A revealed day, 2 hands, as `GET /api/reparto/{day}` gives it (read on the next day)."""
    from tranque.server.reparto.deals import commitment

    reparto = Reparto(
        MemoryStore(), FakeClock(1_796_800_000.0), hands=2, bot_level="heuristic", in_processes=False
    )
    return reparto.public(RepartoDay(DAY, SEED, commitment(SEED, DAY, 2), 0.0))


if __name__ == "__main__":
    (VECTORS / "reparto_day.json").write_text(json.dumps(day_vector(), indent=1) + "\n")
