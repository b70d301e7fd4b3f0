"""The fair-play area of the store: per account and per sampled rated game, how its decisions
compared with the expert's (moderation/sampler.py), and the rated results the signals read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from tranque.server.store.players import GamePlayerRow


@dataclass(frozen=True)
class FairPlaySample:
    """One account's decisions in one sampled rated game, judged by the post-game analysis at
    the sampler's small budget (schema.fairplay_samples): forced moves are not counted."""

    game_id: str
    user_id: int
    seat: int
    finished_at: float  # the game's
    format: str  # duel | individual | pairs
    mu_before: float  # the account's rating in the game's pool as it sat down
    sigma_before: float
    decisions: int  # judged (unforced) decisions
    accurate: int  # "precisa": lost less than the inaccuracy threshold
    inaccuracies: int
    errors: int
    total_loss: float  # the sum of the losses, in the preset's points
    deals: int  # the analysis's deals per decision
    sampled_at: float

    @property
    def accuracy(self) -> float | None:
        """The share of judged decisions that were "precisa", in percent."""
        return 100.0 * self.accurate / self.decisions if self.decisions else None

    @property
    def mean_loss(self) -> float | None:
        return self.total_loss / self.decisions if self.decisions else None


@dataclass(frozen=True)
class RatedGame:
    """A rated game finished on the site: what the sampler walks through, oldest first."""

    game_id: str
    finished_at: float
    format: str


class FairPlayStore(Protocol):
    """Fair-play figures (moderation/): the sampled games' figures and what the signals read."""

    async def rated_games_after(self, after: tuple[float, str] | None, limit: int) -> list[RatedGame]:
        """Rated games in order of (finished_at, game_id), strictly after `after` (None: from
        the first), at most `limit`."""
        ...

    async def save_fairplay_samples(self, samples: list[FairPlaySample]) -> None:
        """Keep the figures of one sampled game (one row per account), in one transaction;
        a row already kept for (game_id, user_id) is replaced."""
        ...

    async def fairplay_sampled(self, game_id: str) -> bool:
        """Whether the game's figures are kept already (by this process or another)."""
        ...

    async def fairplay_samples(self, since: float) -> list[FairPlaySample]:
        """Every kept figure of games finished from `since` on, oldest first."""
        ...

    async def last_fairplay_sample(self) -> tuple[float, str] | None:
        """(finished_at, game_id) of the latest sampled game: where a restarted sampler goes on."""
        ...

    async def rated_results(self, since: float) -> list[GamePlayerRow]:
        """The accounts' parts in rated games finished from `since` on (their ratings before
        and after set), by game (oldest first), then seat."""
        ...
