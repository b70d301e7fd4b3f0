"""`benchmarks/bots.py --seed A --seed B`: the strength runs play each seed's deals and report
them together too; the README's figures over several sets of deals come from here."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Protocol

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

bots = pytest.importorskip("bots", reason="benchmarks/bots.py needs the dev extra (dominoes)")

from tranque.bots.expert import Budget  # noqa: E402

SMALL = Budget(samples=8, exact_samples=8)


class RoundOutcome(Protocol):
    """What these tests read of `bots.RoundOutcome` (the module is imported at run time)."""

    won: float
    ours: int
    theirs: int


def results(outcomes: list[RoundOutcome]) -> list[tuple[float, int, int]]:
    return [(o.won, o.ours, o.theirs) for o in outcomes]


def test_several_seeds_are_each_seed_s_rounds_together(capsys: pytest.CaptureFixture[str]) -> None:
    seven = bots.strength("expert", "bota_gorda", 1, 7, 1, SMALL)
    eight = bots.strength("expert", "bota_gorda", 1, 8, 1, SMALL)
    together = bots.strength_over("expert", "bota_gorda", 1, [7, 8], 1, SMALL)
    assert results(together) == results(seven) + results(eight)
    assert len(together) == 4  # one deal per seed, played in both seatings
    printed = capsys.readouterr().out
    assert "(seed 7)" in printed and "(seed 8)" in printed
    assert "expert (seeds 7, 8 together) vs dominoes.bota_gorda: 4 rounds" in printed


def test_several_seeds_are_refused_where_they_are_not_pooled(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        bots.main(["--only", "speed", "--seed", "7", "--seed", "8"])
    assert refused.value.code == 2
    assert "--seed more than once needs --only gorda or --only pa" in capsys.readouterr().err
