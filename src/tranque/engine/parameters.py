"""The values each rules parameter may take (docs/rules.md §4), and the error a bad one raises.

`presets.py` names combinations of these values and `rules.py` checks a whole set of them;
both read this module, which reads neither.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from tranque.engine.errors import EngineError, render


class Mode(StrEnum):
    INDIVIDUAL = "individual"
    PAIRS = "pairs"


class Drawing(StrEnum):
    UNTIL_PLAYABLE = "until-playable"
    NONE = "none"


class FirstLead(StrEnum):
    HIGHEST_DOUBLE = "highest-double-must-lead"
    RANDOM_ANY = "random-any"


class NextStart(StrEnum):
    ROTATE_RIGHT = "rotate-right"
    PREVIOUS_WINNER = "previous-winner"


class TieStart(StrEnum):
    SAME = "same"
    ROTATE_RIGHT = "rotate-right"


class Scoring(StrEnum):
    OTHERS = "others"
    OPPONENTS_ONLY = "opponents-only"
    PENALTY = "penalty"
    PONCE = "ponce"
    FUTBOL = "futbol"


class TranqueCount(StrEnum):
    TEAM = "team"
    INDIVIDUAL = "individual"


class TranqueTie(StrEnum):
    NOBODY = "nobody"
    NEAREST_STARTER = "nearest-starter"
    DRAW = "draw"


TURN_SECONDS_CHOICES = (20, 30, 45)

# The parameters whose values are one of an enum's, by name: `Rules` reads a plain string as it.
ENUM_PARAMETERS: dict[str, type[StrEnum]] = {
    "mode": Mode,
    "drawing": Drawing,
    "first_round_lead": FirstLead,
    "next_round_start": NextStart,
    "tie_next_start": TieStart,
    "scoring": Scoring,
    "tranque_count": TranqueCount,
    "tranque_tie": TranqueTie,
}


class RulesError(EngineError):
    """An impossible combination of table options. `parameter` names the culprit (it is
    also in `params`); the text reads "parameter: message", and `detail(lang)` is the
    message alone, for callers that name the option their own way.

    >>> error = RulesError("target", "target_not_positive", target=0)
    >>> error.code, error.parameter, str(error)
    ('target_not_positive', 'target', 'target: la meta debe ser positiva, no 0')
    >>> error.detail("en")
    'the target must be positive, not 0'
    """

    def __init__(self, parameter: str, code: str, /, **params: Any) -> None:
        super().__init__(code, **params, parameter=parameter)

    @property
    def parameter(self) -> str:
        return str(self.params["parameter"])

    @property
    def message(self) -> str:
        """The Spanish message without the parameter's name."""
        return self.detail("es")

    def detail(self, lang: str = "es") -> str:
        """The message in `lang` without the parameter's name."""
        return render(self.code, lang, **self.params)

    def text(self, lang: str = "es") -> str:
        return f"{self.parameter}: {self.detail(lang)}"


def set_for_players(players: int) -> int:
    """R2: double-six for 2–4 players, double-nine for 5–6."""
    return 6 if players <= 4 else 9
