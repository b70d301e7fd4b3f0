"""Check every revealed deal of a game record (docs/design.md): `tranque verify` and /api/verify."""

from __future__ import annotations

from typing import Any

from tranque.engine import Rules, RulesError
from tranque.engine.fairness import deal_problems


def verify_record(record: dict[str, Any]) -> dict[str, Any]:
    """{"ok": bool, "rounds": [{"round": k, "ok": bool, "problems": [...]}, ...]}"""
    try:
        rules = Rules.from_json(record["rules"])
        rounds = record["rounds"]
    except (KeyError, TypeError, RulesError) as error:
        return {"ok": False, "rounds": [], "problems": [f"no es un registro de partida: {error}"]}
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        return {
            "ok": False,
            "rounds": [],
            "problems": ["no es un registro de partida: las manos no tienen forma"],
        }
    checked = []
    for number, round_data in enumerate(rounds):
        problems = [problem.text("es") for problem in deal_problems(rules, round_data, committed=True)]
        checked.append({"round": number, "ok": not problems, "problems": problems})
    return {"ok": bool(checked) and all(r["ok"] for r in checked), "rounds": checked}
