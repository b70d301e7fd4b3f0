"""Ratings: OpenSkill's Plackett-Luce model with its defaults (μ0 = 25, σ0 = 25/3), one rating
per account and pool (`duel`, `individual`, `pairs`: `game_archive.game_format`). Bot accounts
are rated in pools of their own, at tables that accept bots: `bots_pool` (``bots:duel``, …).

The maths is the library's: `rate` for a finished game's teams and ranks (a pair's skill is
its two players'), `predict_win` for the chances shown before a game, and `ordinal` for the
rating people see, scaled so that a player whose σ has come down to 2.5 at μ0 shows 1500:

>>> round(shown(rating()))
450
>>> round(shown(rating(25.0, 2.5)))
1500

A rating is provisional while its σ is above 2.5 (few games: the model is still unsure). The
scale itself is `rating_scale`'s, which the pages that list ratings read too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from openskill.models import PlackettLuce, PlackettLuceRating

from tranque.server.players import rating_scale
from tranque.server.players.rating_scale import provisional as provisional  # ratings.provisional(σ)
from tranque.server.store import RatingRow

Pool = Literal["duel", "individual", "pairs"]
POOLS: tuple[Pool, ...] = ("duel", "individual", "pairs")
BOTS_PREFIX = "bots:"


def bots_pool(pool: str) -> str:
    """The bots' pool of a format: where a table that accepts bots rates its games.

    >>> bots_pool("duel")
    'bots:duel'
    """
    return BOTS_PREFIX + pool


MODEL = PlackettLuce()
Rating = PlackettLuceRating


def rating(mu: float | None = None, sigma: float | None = None) -> Rating:
    """A rating of the model: a newcomer's by default."""
    return MODEL.rating(mu=mu, sigma=sigma)


def of_row(row: RatingRow | None) -> Rating:
    """The rating an account has in a pool (its row), or a newcomer's (no row yet)."""
    return rating() if row is None else rating(row.mu, row.sigma)


def shown(skill: Rating) -> float:
    """The rating people see: the library's ordinal, 1500 + 60·(μ − 3σ − 17.5)."""
    return rating_scale.shown(skill.mu, skill.sigma)


def rate(teams: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """The teams' new ratings after a game they finished in `ranks` (0 first; equal ranks
    tie), each team a list of its players' ratings; the ratings given are left as they were."""
    return MODEL.rate([list(team) for team in teams], ranks=[float(rank) for rank in ranks])


def win_chances(teams: Sequence[Sequence[Rating]]) -> list[float]:
    """Each team's probability of winning, by the model (they add up to 1)."""
    return MODEL.predict_win([list(team) for team in teams])
