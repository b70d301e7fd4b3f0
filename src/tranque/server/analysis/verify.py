"""Check a game record (docs/protocol.md, «Fair deals you can check»), for POST /api/verify.

Two verdicts, as `tranque verify` gives them: each round's deal (its revealed seed and salt
give the commitment published at the deal, and the seed gives the recorded deal:
`tranque.engine.fairness.deal_problems`), and the moves (every action replays, and so do each
round's result and the game's scores, goals and winners: `tranque.engine.record.replay`).

`check_record_text` is what a worker runs: it parses the body itself, so that a large record
costs the event loop nothing. It imports the engine and the catalogue of refusals alone,
which keeps a worker light.
"""

from __future__ import annotations

import json
from typing import Any

from tranque.engine.record import check
from tranque.server.refusals import Refusal


class RecordRefused(Exception):
    """The body is not a record this checker takes; `body` is the refusal (422)."""

    def __init__(self, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.body = body


def check_record_text(text: bytes, max_rounds: int, lang: str = "es") -> dict[str, Any]:
    """The verdict on a record sent as JSON text; `RecordRefused` when it cannot be checked."""
    try:
        record = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long, nesting too deep
        raise RecordRefused(Refusal("bad_json.body").body()) from None
    rounds = _rounds_of(record)
    if len(rounds) > max_rounds:
        raise RecordRefused(Refusal("too_many_rounds", rounds=len(rounds), most=max_rounds).body())
    return verify_record(record, lang)


def verify_record(record: dict[str, Any], lang: str = "es") -> dict[str, Any]:
    """{"ok", "rounds": [{"round", "ok", "problems", "codes"}, ...], "moves": {"ok", "code",
    "problem"}}: `ok` when there are rounds and every deal and every move checks out."""
    _rounds_of(record)
    try:
        verdict = check(record, committed=True)
    except (KeyError, TypeError, AttributeError, ValueError):  # RulesError is a ValueError
        raise _not_a_record() from None
    rounds = [
        {
            "round": number,
            "ok": not problems,
            "problems": [problem.text(lang) for problem in problems],
            "codes": [problem.code for problem in problems],
        }
        for number, problems in enumerate(verdict.deals)
    ]
    moves = verdict.moves
    return {
        "ok": verdict.ok,
        "rounds": rounds,
        "moves": {
            "ok": moves is None,
            "code": None if moves is None else moves.code,
            "problem": None if moves is None else moves.text(lang),
        },
    }


def _rounds_of(record: Any) -> list[dict[str, Any]]:
    """The record's rounds, each an object whose actions (if any) are a list of objects."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list):
        raise _not_a_record()
    for round_data in rounds:
        if not isinstance(round_data, dict):
            raise _not_a_record()
        actions = round_data.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(action, dict) for action in actions):
            raise _not_a_record()
    return rounds


def _not_a_record() -> RecordRefused:
    return RecordRefused(Refusal("not_a_record").body())
