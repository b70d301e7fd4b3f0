"""`benchmarks/analysis_judge.py`, smoke-tested small: it plays, referees and prints its figures."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import analysis_judge
from tranque.bots.analysis import Verdict


def test_the_benchmark_referees_some_decisions_and_prints_both_readings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    analysis_judge.main(["--games", "1", "--limit", "30", "--deals", "100"])
    out = capsys.readouterr().out
    assert "judge (uniform)" in out and "expert's model (model_note)" in out
    assert "All presets" in out


def test_a_false_flag_and_a_missed_mistake_are_counted_by_the_exact_loss() -> None:
    tally = analysis_judge.Tally()
    tally.add(Verdict.ERROR, 2.0, 5.0, 15.0, "a")  # flagged, exactly nearly as good: false
    tally.add(Verdict.INACCURACY, 6.0, 5.0, 15.0, "b")  # flagged, and it did lose
    tally.add(Verdict.ACCURATE, 20.0, 5.0, 15.0, "c")  # precisa, but a big mistake: missed
    tally.add(Verdict.ACCURATE, 1.0, 5.0, 15.0, "d")
    assert (tally.flagged, tally.false_flags, tally.precise, tally.missed) == (2, 1, 2, 1)
