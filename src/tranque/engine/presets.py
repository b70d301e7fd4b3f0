"""The named presets of docs/rules.md (clasico, V1–V8): each changes only what it lists."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tranque.engine.messages import OneOf, Verbatim
from tranque.engine.parameters import (
    Drawing,
    FirstLead,
    Mode,
    NextStart,
    RulesError,
    Scoring,
    TieStart,
    TranqueCount,
    TranqueTie,
    set_for_players,
)

IND = (Mode.INDIVIDUAL,)
BOTH = (Mode.PAIRS, Mode.INDIVIDUAL)  # pairs first: C8's default where allowed
PAIRS = (Mode.PAIRS,)


@dataclass(frozen=True)
class Preset:
    name: str
    title: str  # Spanish, for players
    summary: str  # one line, Spanish
    seatings: dict[int, tuple[Mode, ...]]
    default_target: Callable[[int], int]
    changes: dict[str, Any] = field(default_factory=dict)
    default_players: int = 4
    set_maxes: tuple[int, ...] = ()

    def parameters(self, players: object) -> dict[str, Any]:
        """Every parameter but the preset's name, as this preset plays with `players` (C8)."""
        if not isinstance(players, int) or isinstance(players, bool) or players not in self.seatings:
            raise RulesError(
                "players",
                "players_for_preset",
                preset=Verbatim(self.name),
                counts=OneOf(sorted(self.seatings)),
                players=players if isinstance(players, int) else Verbatim(repr(players)),
            )
        return {
            **CLASICO_DEFAULTS,
            **self.changes,
            "players": players,
            "mode": self.seatings[players][0],
            "set_max": set_for_players(players),
            "target": self.default_target(players),
        }

    def check(self, players: int, mode: Mode, set_max: int) -> None:
        """Raise `RulesError` unless this preset is played by `players` in `mode` with `set_max`.

        Checked before the general rules, so the error names what the table changed (C8).
        """
        modes = self.seatings.get(players)
        if modes is None:
            raise RulesError(
                "players",
                "players_for_preset",
                preset=Verbatim(self.name),
                counts=OneOf(sorted(self.seatings)),
                players=players,
            )
        if mode not in modes:
            raise RulesError(
                "mode",
                "mode_for_players",
                preset=Verbatim(self.name),
                players=players,
                modes=OneOf("in_pairs" if m is Mode.PAIRS else "individually" for m in modes),
            )
        if self.set_maxes and set_max not in self.set_maxes:
            raise RulesError(
                "set_max", "set_for_preset", preset=Verbatim(self.name), set_max=self.set_maxes[0]
            )


CLASICO_DEFAULTS: dict[str, Any] = {
    "hand_size": 7,
    "drawing": Drawing.UNTIL_PLAYABLE,
    "first_round_lead": FirstLead.HIGHEST_DOUBLE,
    "next_round_start": NextStart.ROTATE_RIGHT,
    "tie_next_start": TieStart.SAME,
    "scoring": Scoring.OTHERS,
    "tranque_count": TranqueCount.TEAM,
    "tranque_tie": TranqueTie.NOBODY,
    "goals_to_win": None,
    "pass_points": False,
    "capicua_bonus": 0,
    "turn_seconds": 30,
    "absent_turns_before_bot": 3,
}


def _fixed(target: int) -> Callable[[int], int]:
    return lambda players: target


PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "clasico",
            "Clásico",
            "Con pozo, de 2 a 6, solo o por parejas; sale el doble más alto; a 100 (200 con 5 o 6).",
            {2: IND, 3: IND, 4: BOTH, 5: IND, 6: BOTH},
            lambda players: 200 if players >= 5 else 100,
        ),
        Preset(
            "sin-pozo",
            "Sin pozo",
            "Nadie roba: las fichas que sobran quedan fuera; 1 contra 1 a 50, de a 4 a 100.",
            {2: IND, 4: BOTH},
            lambda players: 50 if players == 2 else 100,
            {"drawing": Drawing.NONE},
        ),
        Preset(
            "salon",
            "Salón",
            "Meta de 50 a 300; en un tranque empatado gana quien salió o el más cercano después.",
            {2: IND, 3: IND, 4: BOTH},
            _fixed(100),
            {"tranque_tie": TranqueTie.NEAREST_STARTER},
        ),
        Preset(
            "internacional",
            "Internacional",
            "Parejas de 4 a 200; la primera salida se sortea; la pareja ganadora cuenta todas las manos.",
            {4: PAIRS},
            _fixed(200),
            {"first_round_lead": FirstLead.RANDOM_ANY, "tie_next_start": TieStart.ROTATE_RIGHT},
        ),
        Preset(
            "latino",
            "Latino",
            "Parejas de 4 a 100; la pareja ganadora cuenta solo las fichas de los contrarios.",
            {4: PAIRS},
            _fixed(100),
            {"scoring": Scoring.OPPONENTS_ONLY, "tie_next_start": TieStart.ROTATE_RIGHT},
        ),
        Preset(
            "maracucho",
            "Maracucho",
            "Parejas de 4 a 100; el tranque es individual: gana el jugador con menos puntos.",
            {4: PAIRS},
            _fixed(100),
            {"tranque_count": TranqueCount.INDIVIDUAL, "tranque_tie": TranqueTie.NEAREST_STARTER},
        ),
        Preset(
            "ponce",
            "Ponce",
            "Parejas a 20 palitos; los pases puntúan y el tranque da 2 a quien trancó.",
            {4: PAIRS},
            _fixed(20),
            {
                "scoring": Scoring.PONCE,
                "tranque_count": TranqueCount.INDIVIDUAL,
                "tie_next_start": TieStart.ROTATE_RIGHT,
                "pass_points": True,
            },
        ),
        Preset(
            "futbol",
            "Fútbol",
            "1 contra 1 con 12 fichas y sin pozo; menos de 10 puntos es gol; a 100 o 10 goles.",
            {2: IND},
            _fixed(100),
            {
                "hand_size": 12,
                "drawing": Drawing.NONE,
                "scoring": Scoring.FUTBOL,
                "next_round_start": NextStart.PREVIOUS_WINNER,
                "goals_to_win": 10,
            },
            default_players=2,
        ),
        Preset(
            "en-contra",
            "En contra",
            "Individual de 2 a 4; cada uno suma lo que le queda; al llegar a 100 gana el que menos tiene.",
            {2: IND, 3: IND, 4: IND},
            _fixed(100),
            {
                "scoring": Scoring.PENALTY,
                "next_round_start": NextStart.PREVIOUS_WINNER,
                "tranque_tie": TranqueTie.DRAW,
            },
            set_maxes=(6,),
        ),
    ]
}


def named(name: str) -> Preset:
    """The preset called `name`, or `RulesError` listing those there are."""
    preset = PRESETS.get(name)
    if preset is None:
        raise RulesError(
            "preset", "unknown_preset", name=Verbatim(str(name)), presets=Verbatim(", ".join(PRESETS))
        )
    return preset
