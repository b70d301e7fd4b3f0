"""The book of puzzles the site serves, read once from the packaged `puzzles.json`
(`tranque puzzles` writes it): what a page may see of each (`public`: the solver's own view,
R17), the one of the day (`daily`) and the verdict on an answer (`judge`).

The day's puzzle is a pure function of the date: the puzzles in a fixed order (by a hash of
their ids, so a new book reshuffles them) and the days since 2026-01-01 counting through
them, so every puzzle comes once before any comes again.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tranque.engine import Action, Rules, action_from_json
from tranque.engine.errors import EngineError
from tranque.engine.events import event_from_json
from tranque.server.puzzles.explain import explanation
from tranque.server.table.line_layout import lay_out, line_json, plays_of

BOOK_PATH = Path(__file__).with_name("puzzles.json")
EPOCH = datetime.date(2026, 1, 1)


@dataclass(frozen=True)
class Book:
    puzzles: dict[str, dict[str, Any]]  # by id, as the file holds them (answers included)
    order: tuple[str, ...]  # the days' order

    @staticmethod
    def read(path: Path = BOOK_PATH) -> Book:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Book.of(data["puzzles"])

    @staticmethod
    def of(puzzles: list[dict[str, Any]]) -> Book:
        by_id = {p["id"]: p for p in puzzles}
        order = tuple(sorted(by_id, key=lambda i: hashlib.sha256(i.encode()).hexdigest()))
        return Book(by_id, order)

    def daily(self, day: datetime.date) -> str:
        """The id of `day`'s puzzle."""
        return self.order[(day - EPOCH).days % len(self.order)]

    def another(self, seed: str, other_than: str | None = None) -> str:
        """An id picked by `seed` (the client's «Otro»), not `other_than` when there are more."""
        choices = [i for i in self.order if i != other_than] or list(self.order)
        return random.Random(seed).choice(choices)

    def public(self, puzzle_id: str) -> dict[str, Any]:
        """What the page receives of a puzzle: the seat's own view and the line's boxes,
        never the answer nor anybody else's tiles."""
        p = self.puzzles[puzzle_id]
        events = [event_from_json(e) for e in p["events"]]
        return {
            "id": p["id"],
            "collection": p["collection"],
            "rules": p["rules"],
            "seat": p["seat"],
            "hand": p["hand"],
            "ends": p["ends"],
            "hand_counts": p["hand_counts"],
            "boneyard_count": p["boneyard_count"],
            "starter": p["starter"],
            "scores": p["scores"],
            "events": p["events"],
            "legal": p["legal"],
            **line_json(lay_out(plays_of(events))),
        }

    def judge(self, puzzle_id: str, action: Action) -> dict[str, Any] | None:
        """The verdict on `action` (None when it is not one of the position's legal moves):
        right or wrong, the best move, each choice's worth and the explanation."""
        p = self.puzzles[puzzle_id]
        chosen = action.to_json()
        if chosen not in p["legal"]:
            return None
        answer = p["answer"]
        right = chosen in answer["accepted"]
        best = action_from_json(answer["best"])
        events = [event_from_json(e) for e in p["events"]]
        plays = list(plays_of(events))
        side = answer["best"].get("side")
        plays.append((answer["best"]["tile"], side))
        rules = Rules.from_json(p["rules"])
        return {
            "id": puzzle_id,
            "right": right,
            "chosen": chosen,
            "best": best.to_json(),
            "accepted": answer["accepted"],
            "choices": answer["choices"],
            "deals": answer["deals"],
            "exact": answer["exact"],
            "unit": "points",
            "mode": rules.mode.value,
            "lesson": answer["lesson"],
            "reasons": answer["reasons"],
            "explanation": {lang: explanation(answer["reasons"], rules, lang) for lang in ("es", "en")},
            "after": line_json(lay_out(plays)),
        }


def parse_action(data: object) -> Action | None:
    """An action as a client sends it, or None when it is not one."""
    try:
        return action_from_json(data)
    except (EngineError, KeyError, TypeError, ValueError, AttributeError):
        return None


@cache
def packaged() -> Book:
    """The site's book, read once."""
    return Book.read()
