"""The rating a player is shown: OpenSkill's conservative ordinal on the 1500 scale.

`shown` is 1500 + 60·(μ − 3σ − 17.5), so a player whose σ has come down to 2.5 at the
library's starting μ (25) shows 1500; while σ is above 2.5 the rating is `provisional`.

>>> round(shown(25.0, 2.5)), provisional(2.5), provisional(25 / 3)
(1500, False, True)
"""

from __future__ import annotations

PROVISIONAL_SIGMA = 2.5
Z, ALPHA, TARGET = 3.0, 60.0, 450.0


def shown(mu: float, sigma: float) -> float:
    """`PlackettLuceRating(mu, sigma).ordinal(z=3, alpha=60, target=450)`, to the last bit (a
    test checks), without making a rating object: each one draws a UUID, and a profile shows
    hundreds of ratings."""
    return ALPHA * ((mu - Z * sigma) + (TARGET / ALPHA))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA
