"""The XP periods a moment falls in: its ISO week, its month, and all time (schema.xp).

Periods are counted in UTC.

>>> period_keys(1764806400.0)  # 2025-12-04
{'week': 'w2025-49', 'month': 'm2025-12', 'all': 'all'}
"""

from __future__ import annotations

from datetime import UTC, datetime

PERIODS = ("week", "month", "all")


def period_keys(at: float) -> dict[str, str]:
    moment = datetime.fromtimestamp(at, UTC)
    year, week, _ = moment.isocalendar()
    return {"week": f"w{year}-{week:02d}", "month": f"m{moment.year}-{moment.month:02d}", "all": "all"}
