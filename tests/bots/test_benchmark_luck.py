"""`benchmarks/luck.py`: a row per preset and pair, the stronger level's rounds and games won
with their intervals beside the fair share (a smoke run: one deal)."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

from tranque.engine import Rules

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
luck = importlib.import_module("luck")


def test_a_row_per_preset_with_both_shares_and_their_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    luck.main(["--pair", "heuristic:random", "--deals", "1", "--only", "futbol", "--only", "ponce"])
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines[2:] if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows] == ["| ponce", "| futbol"]
    for row in rows:
        cells = [cell.strip() for cell in row.split("|")[1:-1]]
        assert cells[2] == "heuristic vs random"
        rounds, games = int(cells[3]), int(cells[5])
        assert rounds >= games == 2  # one deal, played once per seating
        for share in (cells[4], cells[6]):
            assert re.fullmatch(r"\d+\.\d% \[\d+\.\d%–\d+\.\d%\]", share), share
        assert cells[7] == "50%"


def test_the_fair_share_is_the_share_of_the_sides_the_stronger_level_holds() -> None:
    assert luck.fair_share(Rules.preset("clasico")) == 0.5
    assert luck.fair_share(Rules.preset("en-contra")) == 0.5  # two of the four seats
    assert luck.fair_share(Rules.preset("clasico", players=3)) == pytest.approx(1 / 3)
