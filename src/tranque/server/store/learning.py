"""The learning area of the store: each account's stars in the lessons of Aprender."""

from __future__ import annotations

from typing import Protocol


class LearnStore(Protocol):
    """The stars each account earned in each lesson (1 to 3), the best kept."""

    async def learn_progress(self, user_id: int) -> dict[str, int]:
        """The account's stars by lesson id (lessons never finished are absent)."""
        ...

    async def keep_learn_progress(self, user_id: int, stars: dict[str, int], at: float) -> dict[str, int]:
        """Keep `stars` by lesson id where they beat what the account has (never lowering
        one), and answer the account's stars as they now are."""
        ...
