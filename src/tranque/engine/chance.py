"""Uniform random choices for simulations, from as few `random()` floats as they fit in."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, final

# A float's 53 bits, less 21 kept so that every choice stays uniform to within 2**-21.
_FLOAT_BUDGET: Final = 1 << 32


@final
class SplitFloat:
    """Uniform choices `below(n)` drawn from as few `random()` floats as they fit in.

    A float from `random()` holds 53 random bits. Each choice among n takes the integer
    part of the float times n and keeps the fraction for the next choice, until the
    product of the choices' sizes would pass 2**32; then a new float is drawn. Every
    choice is uniform to within 2**-21, far below what a simulation can notice, for a
    fraction of the calls."""

    __slots__ = ("fraction", "random", "spent")

    def __init__(self, random: Callable[[], float]) -> None:
        self.random = random
        self.fraction = 0.0
        self.spent = _FLOAT_BUDGET

    def below(self, count: int) -> int:
        """A uniform integer in 0..count-1 (count ≥ 1)."""
        spent = self.spent * count
        if spent > _FLOAT_BUDGET:
            self.fraction = self.random()
            spent = count
        self.spent = spent
        scaled = self.fraction * count
        choice = int(scaled)
        self.fraction = scaled - choice
        return choice
