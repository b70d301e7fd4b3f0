"""`Rules`: the frozen set of parameters a table plays by (docs/rules.md §4), and its validation.

The values each parameter may take live in `parameters.py` (re-exported here), the named
presets in `presets.py`; this module builds a whole set from a preset and says which
combinations make sense.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any

from tranque.engine.messages import OneOf, Verbatim
from tranque.engine.parameters import (
    ENUM_PARAMETERS,
    TURN_SECONDS_CHOICES,
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
from tranque.engine.presets import PRESETS, named
from tranque.engine.tiles import set_mask

__all__ = [
    "PARAMETERS",
    "TURN_SECONDS_CHOICES",
    "Drawing",
    "FirstLead",
    "Mode",
    "NextStart",
    "Rules",
    "RulesError",
    "Scoring",
    "TieStart",
    "TranqueCount",
    "TranqueTie",
    "set_for_players",
]


@dataclass(frozen=True, slots=True)
class Rules:
    """Every parameter of docs/rules.md §4. Build one with `Rules.preset(name, **overrides)`."""

    preset_name: str
    players: int
    mode: Mode
    set_max: int
    hand_size: int
    drawing: Drawing
    first_round_lead: FirstLead
    next_round_start: NextStart
    tie_next_start: TieStart
    scoring: Scoring
    tranque_count: TranqueCount
    tranque_tie: TranqueTie
    target: int
    goals_to_win: int | None
    pass_points: bool
    capicua_bonus: int
    turn_seconds: int
    absent_turns_before_bot: int
    # G1: a game of exactly this many hands (duplicado), whatever the target; None: to the target.
    # Written in the rules' JSON only when set, so records from before it read the same.
    hands: int | None = None
    # Derived once here, read on every scoring and deal (not parameters: see `PARAMETERS`).
    is_pairs: bool = field(init=False, repr=False, compare=False)
    team_count: int = field(init=False, repr=False, compare=False)  # teams in pairs, players in individual
    tile_count: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, enum in ENUM_PARAMETERS.items():
            value = getattr(self, name)
            if not isinstance(value, enum):
                try:
                    object.__setattr__(self, name, enum(value))
                except ValueError:
                    allowed = Verbatim(", ".join(e.value for e in enum))
                    raise RulesError(
                        name, "unknown_option_value", value=Verbatim(str(value)), options=allowed
                    ) from None
        _require_whole_numbers(self)
        pairs = self.mode is Mode.PAIRS
        object.__setattr__(self, "is_pairs", pairs)
        object.__setattr__(self, "team_count", self.players // 2 if pairs else self.players)
        object.__setattr__(self, "tile_count", (self.set_max + 1) * (self.set_max + 2) // 2)
        _validate(self)

    @staticmethod
    def preset(name: str, **overrides: Any) -> Rules:
        """The named preset, with any parameter overridden (docs/rules.md C8).

        >>> r = Rules.preset("clasico")
        >>> (r.players, r.mode.value, r.set_max, r.target)
        (4, 'pairs', 6, 100)
        >>> Rules.preset("clasico", players=6, mode="individual").target
        200
        """
        preset = named(name)
        unknown = sorted(set(overrides) - _OVERRIDABLE)
        if unknown:
            raise RulesError(unknown[0], "unknown_parameter")
        parameters = preset.parameters(overrides.get("players", preset.default_players))
        return Rules(preset_name=name, **{**parameters, **overrides})

    @staticmethod
    def from_options(
        preset: str = "clasico",
        *,
        players: int | None = None,
        mode: Mode | str | None = None,
        target: int | None = None,
        turn_seconds: int | None = None,
        capicua_bonus: int | None = None,
    ) -> Rules:
        """A table's options as a person chooses them: None keeps the preset's value.

        >>> Rules.from_options("clasico", players=None, mode="individual").players
        4
        >>> Rules.from_options("ponce", target=None).target
        20
        """
        chosen = {
            "players": players,
            "mode": mode,
            "target": target,
            "turn_seconds": turn_seconds,
            "capicua_bonus": capicua_bonus,
        }
        return Rules.preset(preset, **{name: value for name, value in chosen.items() if value is not None})

    @staticmethod
    def presets() -> list[str]:
        return list(PRESETS)

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    # Seats and teams ---------------------------------------------------------------

    def team_of(self, seat: int) -> int:
        """R3: team k = seats {k, k + n/2}; in individual a seat is its own team."""
        return seat % self.team_count

    def partner_of(self, seat: int) -> int | None:
        return (seat + self.players // 2) % self.players if self.is_pairs else None

    def seats_of(self, team: int) -> list[int]:
        return [seat for seat in range(self.players) if self.team_of(seat) == team]

    @property
    def boneyard_size(self) -> int:
        """Tiles left undealt (R4): the boneyard, or out of play where there is no drawing."""
        return self.tile_count - self.players * self.hand_size

    @property
    def set_mask(self) -> int:
        return set_mask(self.set_max)

    def to_json(self) -> dict[str, Any]:
        data = {name: _plain(getattr(self, name)) for name in PARAMETERS}
        for name in _WRITTEN_WHEN_SET:
            if data[name] is None:
                del data[name]
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Rules:
        known = set(PARAMETERS)
        unknown = set(data) - known
        if unknown:
            raise RulesError(sorted(unknown)[0], "unknown_parameter")
        return Rules(**data)


# The parameters of docs/rules.md §4, in order: what a Rules is built from and written as.
PARAMETERS: tuple[str, ...] = tuple(f.name for f in fields(Rules) if f.init)
_OVERRIDABLE = set(PARAMETERS) - {"preset_name"}
# Parameters added after records were first written: left out of the JSON while unset, so a
# record of a game that does not use them is what it always was (and older readers read it).
_WRITTEN_WHEN_SET = ("hands",)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, StrEnum) else value


def _require_whole_numbers(rules: Rules) -> None:
    for name in (
        "players",
        "set_max",
        "hand_size",
        "target",
        "capicua_bonus",
        "turn_seconds",
        "absent_turns_before_bot",
    ):
        _require_whole(name, getattr(rules, name))


def _require_whole(name: str, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(name, "not_whole_number", value=Verbatim(repr(value)))


def _validate(rules: Rules) -> None:
    def require(ok: bool, parameter: str, code: str, **params: Any) -> None:
        if not ok:
            raise RulesError(parameter, code, **params)

    n = rules.players
    # The preset's own seatings first, so the error names what the table changed (C8).
    preset = PRESETS.get(rules.preset_name)
    if preset is not None:
        preset.check(n, rules.mode, rules.set_max)
    require(2 <= n <= 6, "players", "players_out_of_range", players=n)
    if rules.is_pairs:
        require(n in (4, 6), "players", "players_for_pairs", players=n)
    require(rules.set_max in (6, 9), "set_max", "set_not_six_or_nine", set_max=rules.set_max)
    require(rules.hand_size >= 1, "hand_size", "hand_size_too_small")
    require(
        n * rules.hand_size <= rules.tile_count,
        "hand_size",
        "hand_size_too_big",
        players=n,
        hand_size=rules.hand_size,
        needed=n * rules.hand_size,
        set_max=rules.set_max,
        tiles=rules.tile_count,
    )
    require(rules.target > 0, "target", "target_not_positive", target=rules.target)
    if rules.goals_to_win is not None:
        _require_whole("goals_to_win", rules.goals_to_win)
        require(rules.goals_to_win > 0, "goals_to_win", "goals_not_positive")
    if rules.hands is not None:
        _require_whole("hands", rules.hands)
        require(rules.hands > 0, "hands", "hands_not_positive", hands=rules.hands)
    require(
        rules.turn_seconds in TURN_SECONDS_CHOICES,
        "turn_seconds",
        "turn_seconds_choice",
        choices=OneOf(TURN_SECONDS_CHOICES),
        seconds=rules.turn_seconds,
    )
    require(rules.absent_turns_before_bot >= 1, "absent_turns_before_bot", "at_least_one")
    require(rules.capicua_bonus >= 0, "capicua_bonus", "capicua_bonus_negative")
    if rules.capicua_bonus:
        require(
            rules.scoring not in (Scoring.PONCE, Scoring.FUTBOL, Scoring.PENALTY),
            "capicua_bonus",
            "capicua_bonus_with_scoring",
            scoring=Verbatim(rules.scoring.value),
        )
    individual_only = {
        "scoring": rules.scoring is Scoring.PENALTY,
        "next_round_start": rules.next_round_start is NextStart.PREVIOUS_WINNER,
    }
    for parameter, needs_individual in individual_only.items():
        if needs_individual:
            require(not rules.is_pairs, parameter, "individual_only")
    if rules.scoring is Scoring.FUTBOL:
        require(n == 2 and not rules.is_pairs, "scoring", "futbol_two_players")
    if rules.scoring is Scoring.PONCE:
        require(rules.is_pairs, "scoring", "ponce_pairs_only")
    require(not rules.pass_points or rules.scoring is Scoring.PONCE, "pass_points", "pass_points_ponce_only")
    require(
        rules.tranque_tie is not TranqueTie.DRAW or rules.scoring is Scoring.PENALTY,
        "tranque_tie",
        "tranque_draw_penalty_only",
    )
