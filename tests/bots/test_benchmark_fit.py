"""`benchmarks/bots.py --only fit`: the plays it records and the likelihood it fits them by.
The README's figures for how the expert's plays are best read come from here."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

bots = pytest.importorskip("bots", reason="benchmarks/bots.py needs the dev extra (dominoes)")

from tranque.bots.expert import Budget  # noqa: E402


def test_the_gain_is_the_log_likelihood_above_chance_by_definition() -> None:
    heaviest = bots.Choice(ours=True, early=True, candidates=[(12, 0), (6, 2)], chosen=0)
    saying = bots.Choice(ours=True, early=True, candidates=[(4, 0), (3, 3), (8, 1)], chosen=1)
    for kappa, strength in ((0.0, 0.0), (1.0, 0.5), (0.2, 2.0)):
        expected = 0.0
        for choice in (heaviest, saying):
            scores = [math.exp(kappa * pips + strength * said) for pips, said in choice.candidates]
            expected += math.log(scores[choice.chosen] / sum(scores) * len(scores))
        assert bots.gain([heaviest, saying], kappa, strength) == pytest.approx(expected / 2)
    assert bots.gain([heaviest, saying], 0.0, 0.0) == pytest.approx(0.0)
    # Always the heaviest: the gain grows with kappa towards log 2, the most one play can say.
    assert 0 < bots.gain([heaviest], 0.5, 0) < bots.gain([heaviest], 3.0, 0) < math.log(2)


def test_every_play_with_a_choice_of_tiles_is_recorded_with_what_each_tile_would_say() -> None:
    choices = bots.choices_of_deal("expert", "bota_gorda", 7_000_049, Budget(samples=8, exact_samples=8))
    assert {c.ours for c in choices} == {True, False}
    assert {c.early for c in choices} == {True, False}
    for choice in choices:
        assert len(choice.candidates) >= 2
        assert 0 <= choice.chosen < len(choice.candidates)
        assert all(0 <= said <= 6 for _, said in choice.candidates)
        if not choice.ours:
            # bota_gorda plays its heaviest tile that fits.
            assert choice.candidates[choice.chosen][0] == max(pips for pips, _ in choice.candidates)
