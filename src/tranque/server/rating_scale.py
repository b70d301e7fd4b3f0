"""The rating a player is shown: OpenSkill's conservative ordinal on the 1500 scale.

`shown` is 1500 + 60·(μ − 3σ − 17.5), so a player whose σ has come down to 2.5 at the
library's starting μ (25) shows 1500; while σ is above 2.5 the rating is `provisional`.

>>> round(shown(25.0, 2.5)), provisional(2.5), provisional(25 / 3)
(1500, False, True)
"""

from __future__ import annotations

from openskill.models import PlackettLuceRating

PROVISIONAL_SIGMA = 2.5


def shown(mu: float, sigma: float) -> float:
    ordinal: float = PlackettLuceRating(mu, sigma).ordinal(z=3, alpha=60, target=450)
    return ordinal


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA
