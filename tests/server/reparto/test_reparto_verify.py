"""`tranque verify DAY.json` and `reparto/verify.py` on a revealed day of el reparto del día
(the day the server revealed in tests/web/js/vectors/reparto_day.json): it checks out as it
is, and a changed seed, a changed deal commitment or a swapped tile is named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tranque.cli import main
from tranque.server.reparto.verify import DayProblem, day_problems

DAY = Path(__file__).resolve().parents[2] / "web" / "js" / "vectors" / "reparto_day.json"


def day() -> dict[str, Any]:
    found: dict[str, Any] = json.loads(DAY.read_text(encoding="utf-8"))
    return found


def test_a_revealed_day_has_no_problem() -> None:
    assert day_problems(day()) == []


def test_each_change_is_named() -> None:
    changed = day()
    changed["seed"] = "00" + changed["seed"][2:]
    assert DayProblem("commitment") in day_problems(changed)
    changed = day()
    changed["modes"]["pairs"]["commitments"][1] = "0" * 64
    assert day_problems(changed) == [DayProblem("deal", "pairs", 2)]
    changed = day()
    hands = changed["modes"]["individual"]["deals"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    assert day_problems(changed) == [DayProblem("hands", "individual", 1)]


def test_tranque_verify_checks_a_day(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "day.json"
    good.write_text(json.dumps(day()), encoding="utf-8")
    assert main(["--lang", "es", "verify", str(good)]) == 0
    assert "Todo verificado" in capsys.readouterr().out
    changed = day()
    changed["modes"]["pairs"]["commitments"][1] = "0" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(changed), encoding="utf-8")
    assert main(["--lang", "en", "verify", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "pairs, hand 2" in out and "Some things could not be verified." in out
    hidden = tmp_path / "hidden.json"
    hidden.write_text(json.dumps({**day(), "seed": None}), encoding="utf-8")
    assert main(["--lang", "en", "verify", str(hidden)]) == 2
    assert "not been revealed" in capsys.readouterr().err
