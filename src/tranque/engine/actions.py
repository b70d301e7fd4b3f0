"""What a player can do on their turn: `Play`, `Draw`, `Pass`; and `IllegalAction`.

Actions are frozen and hashable, with a short notation (like python-chess's UCI) that
`Action.parse` reads and `str` writes, and a stable JSON form used by the server, the
records and the database: ``{"type": "play", "tile": "6-4", "side": "left"}``.

>>> Action.parse("6-4i")
Play(tile=Tile(6, 4), side=<Side.LEFT: 'left'>)
>>> str(Action.parse("4-6 d")), str(Action.parse("6-6")), str(Action.parse("draw"))
('6-4d', '6-6', 'robar')
>>> Action.parse("6-4r") == Play(Tile(6, 4), Side.RIGHT)
True
>>> Action.parse("6-4i").describe("en")
'play 6-4 on the left'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Final

from tranque.engine.errors import EngineError, render
from tranque.engine.tiles import Tile, as_tile


class Side(StrEnum):
    LEFT = "left"
    RIGHT = "right"


class IllegalAction(EngineError):
    """An action the rules do not allow now; `code` says why (``"does_not_fit"``, …)."""


# The notation: a tile and an optional end letter (i/d in Spanish, l/r in English).
_NOTATION: Final = re.compile(r"\s*([0-9])\s*-\s*([0-9])\s*([idlr]?)\s*", re.IGNORECASE)
_SIDE_OF_LETTER: Final = {"": None, "i": Side.LEFT, "l": Side.LEFT, "d": Side.RIGHT, "r": Side.RIGHT}
_LETTER_OF_SIDE: Final = {None: "", Side.LEFT: "i", Side.RIGHT: "d"}
_WORDS: Final[dict[str, str]] = {"robar": "draw", "draw": "draw", "pasar": "pass", "pass": "pass"}


class Action:
    """Base of `Play`, `Draw` and `Pass`."""

    __slots__ = ()
    kind: ClassVar[str]

    @staticmethod
    def parse(text: str) -> Action:
        """Read the notation: ``"6-4i"``/``"6-4d"`` (left/right; ``l``/``r`` too), ``"6-6"``
        (a lead, or the only placement), ``"robar"``/``"draw"``, ``"pasar"``/``"pass"``."""
        if not isinstance(text, str):
            raise IllegalAction("malformed", text=repr(text))
        word = _WORDS.get(text.strip().lower())
        if word == "draw":
            return DRAW
        if word == "pass":
            return PASS
        match = _NOTATION.fullmatch(text)
        if match is None:
            raise IllegalAction("malformed", text=text)
        high, low, letter = match.groups()
        return Play(Tile(int(high), int(low)), _SIDE_OF_LETTER[letter.lower()])

    def describe(self, lang: str = "es") -> str:
        """The action in words, for a person."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind}


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Put `tile` at an end. `side` is None for the lead (the first tile of the round)."""

    kind: ClassVar[str] = "play"
    tile: Tile
    side: Side | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "play",
            "tile": str(self.tile),
            "side": None if self.side is None else self.side.value,
        }

    def describe(self, lang: str = "es") -> str:
        if self.side is None:
            return render("describe_play", lang, tile=self.tile)
        return render("describe_play_at", lang, tile=self.tile, side=self.side)

    def __str__(self) -> str:
        return f"{self.tile}{_LETTER_OF_SIDE[self.side]}"


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Take one tile from the boneyard (C2); the turn stays with the drawer."""

    kind: ClassVar[str] = "draw"

    def describe(self, lang: str = "es") -> str:
        return render("describe_draw", lang)

    def __str__(self) -> str:
        return "robar"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass the turn: only when nothing fits and nothing can be drawn (R9)."""

    kind: ClassVar[str] = "pass"

    def describe(self, lang: str = "es") -> str:
        return render("describe_pass", lang)

    def __str__(self) -> str:
        return "pasar"


DRAW: Final = Draw()
PASS: Final = Pass()


def action_from_json(data: Any) -> Action:
    """Read an action's JSON form; a malformed one raises `IllegalAction` (code
    ``"malformed"``) saying what is wrong."""
    if not isinstance(data, dict):
        raise IllegalAction("malformed_json", detail=type(data).__name__)
    kind = data.get("type")
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    if kind != "play":
        raise IllegalAction("unknown_action_type", kind=repr(kind))
    try:
        tile = as_tile(data.get("tile"))
    except EngineError as error:
        raise IllegalAction(error.code, **error.params) from None
    side = data.get("side")
    if side is None:
        return Play(tile, None)
    if side not in ("left", "right"):
        raise IllegalAction("unknown_side", side=repr(side))
    return Play(tile, Side(side))
