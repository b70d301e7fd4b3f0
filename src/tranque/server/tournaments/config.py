"""`TournamentConfig`: what a tournament is set to, and the checks that keep it playable.

A configuration arrives as JSON (the HTTP body of «Crear torneo», a scheduled event of the
site's settings) and is refused field by field: each problem is one catalogue entry,
``tournament_config.<field>``, whose text says what is allowed, so a form can show it beside
the field. The rules of each game are asked of the engine (`Rules.from_options`), never
re-implemented here.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any, Final

from tranque.bots import LEVELS
from tranque.engine import Mode, Rules, RulesError, Scoring
from tranque.engine.messages import OneOf, Verbatim
from tranque.engine.presets import PRESETS
from tranque.engine.rules import TURN_SECONDS_CHOICES
from tranque.server.refusals import Refusal
from tranque.server.tournaments.battle import COUNTING_RANGE, PENAS_RANGE


class Format(StrEnum):
    MINITORNEO = "minitorneo"  # knock-out of 4, 8 or 16, with a third-place game
    SUIZO = "suizo"  # a set number of rounds, Swiss pairings
    ARENA = "arena"  # a time window; whoever finishes is paired again at once
    DUPLICADO = "duplicado"  # every table of a round plays the same deals; matchpoints


class Entry(StrEnum):
    DUEL = "duel"  # one against one
    PAIRS = "pairs"  # fixed pairs: the pair is the entrant
    ROTATING = "rotating"  # individual at tables of four, partners drawn each game


ENTRIES: Final[dict[Format, tuple[Entry, ...]]] = {
    Format.MINITORNEO: (Entry.DUEL, Entry.PAIRS),
    Format.SUIZO: (Entry.DUEL, Entry.PAIRS, Entry.ROTATING),
    Format.ARENA: (Entry.DUEL, Entry.ROTATING),
    Format.DUPLICADO: (Entry.DUEL, Entry.PAIRS),
}
KNOCKOUT_SIZES: Final = (4, 8, 16)
MOST_ENTRANTS: Final = 1000
NAME_LENGTH: Final = (3, 60)
TARGET_RANGE: Final = (1, 1000)
ROUNDS_RANGE: Final = (1, 20)
HANDS_RANGE: Final = (1, 16)
WINDOW_RANGE: Final = (60.0, 86400.0)  # an arena lasts from a minute to a day
GAME_CAP_RANGE: Final = (60.0, 7200.0)
FILL_WAIT_RANGE: Final = (0.0, 86400.0)
ROUND_EVERY_RANGE: Final = (60.0, 86400.0)  # rounds on a schedule: from a minute to a day apart
ENTRY_FICHAS_RANGE: Final = (0, 1_000_000)  # an entry in fichas (tournaments/fichas.py); 0: none


def least_entrants(format: Format, entry: Entry) -> int:
    """The fewest entrants a tournament starts with: two sides, a table of four players
    rotating, two tables for a duplicado's comparison."""
    if entry is Entry.ROTATING:
        return 4
    return 4 if format in (Format.DUPLICADO, Format.MINITORNEO) else 2


def seating(entry: Entry) -> tuple[int, Mode]:
    """Players and mode of every table of an entry: 2 individual, or 4 in pairs."""
    return (2, Mode.INDIVIDUAL) if entry is Entry.DUEL else (4, Mode.PAIRS)


class TournamentError(Refusal):
    """A tournament refused: a bad configuration (``tournament_config.<field>``, with `field`
    set) or a registration, withdrawal or cancellation that cannot be done now."""

    def __init__(self, key: str, /, field: str | None = None, **params: object) -> None:
        super().__init__(key, **params)
        self.field = field


@dataclass(frozen=True)
class TournamentConfig:
    name: str
    format: Format
    entry: Entry
    preset: str = "clasico"
    target: int = 100  # each game to the table's target (duplicado: `hands` hands instead)
    size: int = 8  # minitorneo: 4/8/16; others: the most entrants (2..1000)
    rounds: int | None = None  # suizo / duplicado
    hands: int = 4  # duplicado: deals per round
    window_seconds: float | None = None  # arena
    game_cap_seconds: float = 1800.0
    turn_seconds: float | None = None
    starts_at: float | None = None  # None: when full (minitorneo) / by the creator
    # Rounds on a schedule: round k starts `(k - 1) * round_every_seconds` after the start, or
    # when the last table of round k - 1 ends if that is later; None: as soon as it ends.
    round_every_seconds: float | None = None
    bot_fill: bool = False  # minitorneo: fill with bots after fill_wait_seconds; pairs: bot partners
    fill_wait_seconds: float = 300.0
    bot_level: str = "heuristic"
    rated: bool = True
    private: bool = False
    requires_attendance: bool = False
    # A peña's tournament (server/penas/): only the peña's members create it or enter it.
    pena_id: int | None = None
    # Peña against peña (battle.py): an arena whose entrants play for one of these peñas, and
    # whose peña standing counts each peña's `battle_counting` best entrants; () for none.
    battle_penas: tuple[int, ...] = ()
    battle_counting: int = 5
    # An entry in fichas (play money, tournaments/fichas.py): paid into the event's pool at
    # registration, the podium paid from it at the end; 0: none (and always none with fichas off).
    entry_fichas: int = 0

    # JSON -----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Every field; `pena_id` and `entry_fichas` only when set, so any other event's document
        is what it was."""
        data = {
            name: (value.value if isinstance(value, StrEnum) else value)
            for name, value in asdict(self).items()
        }
        if data["pena_id"] is None:
            del data["pena_id"]
        if not data["entry_fichas"]:
            del data["entry_fichas"]
        return data

    @classmethod
    def from_json(cls, data: object) -> TournamentConfig:
        """A configuration from JSON, checked (`checked`): an unknown field, a missing name,
        format or entry, or a value of the wrong kind is a `TournamentError` naming it."""
        if not isinstance(data, dict):
            raise TournamentError("tournament_config.body")
        known = {f.name for f in fields(cls)}
        for name in data:
            if name not in known:
                raise TournamentError("tournament_config.unknown", field=str(name), name=str(name))
        values: dict[str, Any] = {}
        for name, value in data.items():
            values[name] = _parse(name, value)
        for required, key in _REQUIRED.items():
            if required not in values:
                raise TournamentError(key, field=required)
        return cls(**values).checked()

    # Checks -----------------------------------------------------------------------------

    def checked(self) -> TournamentConfig:
        """This configuration, or `TournamentError` for its first problem (one code each)."""
        name = self.name.strip() if isinstance(self.name, str) else ""
        if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1] or not name.isprintable():
            _refuse("tournament_config.name")
        if not isinstance(self.format, Format):
            _refuse("tournament_config.format")
        if self.entry not in ENTRIES[self.format]:
            raise TournamentError(
                "tournament_config.entry_format",
                field="entry",
                format=self.format.value,
                entries=_one_of(entry.value for entry in ENTRIES[self.format]),
            )
        self._check_size()
        if self.format in (Format.SUIZO, Format.DUPLICADO):
            if not _whole_in(self.rounds, ROUNDS_RANGE):
                _refuse("tournament_config.rounds")
        elif self.rounds is not None:
            _refuse("tournament_config.rounds_unused", "rounds")
        if self.format is Format.DUPLICADO and not _whole_in(self.hands, HANDS_RANGE):
            _refuse("tournament_config.hands")
        if self.format is Format.ARENA:
            if not _number_in(self.window_seconds, WINDOW_RANGE):
                _refuse("tournament_config.window", "window_seconds")
        elif self.window_seconds is not None:
            _refuse("tournament_config.window_unused", "window_seconds")
        if self.round_every_seconds is not None:
            if self.format is Format.ARENA:
                _refuse("tournament_config.round_every_unused", "round_every_seconds")
            if not _number_in(self.round_every_seconds, ROUND_EVERY_RANGE):
                _refuse("tournament_config.round_every", "round_every_seconds")
        self._check_rules()
        if not _number_in(self.game_cap_seconds, GAME_CAP_RANGE):
            _refuse("tournament_config.game_cap", "game_cap_seconds")
        if self.starts_at is not None and not _number_in(self.starts_at, (0.0, math.inf)):
            _refuse("tournament_config.starts_at")
        if not _number_in(self.fill_wait_seconds, FILL_WAIT_RANGE):
            _refuse("tournament_config.fill_wait", "fill_wait_seconds")
        if self.bot_level not in LEVELS:
            raise TournamentError("tournament_config.bot_level", field="bot_level", levels=_one_of(LEVELS))
        self._check_battle()
        if not _whole_in(self.entry_fichas, ENTRY_FICHAS_RANGE):
            _refuse("tournament_config.entry_fichas", "entry_fichas")
        if name != self.name:
            return replace(self, name=name)
        return self

    def _check_battle(self) -> None:
        if not self.battle_penas:
            return
        if self.format is not Format.ARENA:
            _refuse("tournament_config.battle_arena", "battle_penas")
        least, most = PENAS_RANGE
        if not least <= len(set(self.battle_penas)) == len(self.battle_penas) <= most:
            raise TournamentError(
                "tournament_config.battle_penas", field="battle_penas", least=least, most=most
            )
        if not _whole_in(self.battle_counting, COUNTING_RANGE):
            raise TournamentError(
                "tournament_config.battle_counting", field="battle_counting", most=COUNTING_RANGE[1]
            )

    def _check_size(self) -> None:
        if self.format is Format.MINITORNEO:
            if not _whole_in(self.size, (4, 16)) or self.size not in KNOCKOUT_SIZES:
                _refuse("tournament_config.size_knockout", "size")
            return
        least = least_entrants(self.format, self.entry)
        if not _whole_in(self.size, (least, MOST_ENTRANTS)):
            raise TournamentError("tournament_config.size", field="size", least=least, most=MOST_ENTRANTS)

    def _check_rules(self) -> None:
        if self.preset not in presets_for(self.entry):
            raise TournamentError(
                "tournament_config.preset", field="preset", presets=_one_of(presets_for(self.entry))
            )
        if not _whole_in(self.target, TARGET_RANGE):
            _refuse("tournament_config.target")
        if self.turn_seconds is not None and self.turn_seconds not in TURN_SECONDS_CHOICES:
            raise TournamentError(
                "tournament_config.turn_seconds",
                field="turn_seconds",
                choices=OneOf(TURN_SECONDS_CHOICES),
            )
        try:
            self.game_rules()
        except RulesError as error:
            raise TournamentError("tournament_config.rules", field=error.parameter, cause=error) from None

    # What the games are played by -----------------------------------------------------------

    def game_rules(self) -> Rules:
        """The rules of every game of the tournament: the preset for its entry, to its target,
        with its turn time; a duplicado's games are of exactly `hands` hands (Rules.hands)."""
        players, mode = seating(self.entry)
        turn = None if self.turn_seconds is None else int(self.turn_seconds)
        rules = Rules.from_options(
            self.preset, players=players, mode=mode, target=self.target, turn_seconds=turn
        )
        if self.format is Format.DUPLICADO:
            rules = Rules.preset(self.preset, **{**_overrides(rules), "hands": self.hands})
        return rules

    @property
    def players_per_entrant(self) -> int:
        return 2 if self.entry is Entry.PAIRS else 1

    @property
    def least(self) -> int:
        return least_entrants(self.format, self.entry)


def presets_for(entry: Entry) -> list[str]:
    """The presets a tournament of `entry` may be played by: those seating its tables, whose
    higher score is the better one (not en contra, where the fewest points win)."""
    players, mode = seating(entry)
    return [
        name
        for name, preset in PRESETS.items()
        if mode in preset.seatings.get(players, ()) and preset.changes.get("scoring") is not Scoring.PENALTY
    ]


def _overrides(rules: Rules) -> dict[str, Any]:
    return {
        "players": rules.players,
        "mode": rules.mode,
        "target": rules.target,
        "turn_seconds": rules.turn_seconds,
    }


def _one_of(words: Iterable[str]) -> OneOf:
    """Words a client sends, listed as they are spelt (not translated)."""
    return OneOf(Verbatim(word) for word in words)


def _refuse(key: str, field: str | None = None) -> None:
    """Refuse with `key` (spelt whole, so a search for it finds where it is raised); the field
    at fault is `field`, else the key's case (``tournament_config.name``: ``name``)."""
    raise TournamentError(key, field=field or key.partition(".")[2])


def _whole_in(value: object, bounds: tuple[int, int]) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]


def _number_in(value: object, bounds: tuple[float, float]) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and bounds[0] <= value <= bounds[1]
    )


_TEXT_FIELDS: Final = {"name", "preset", "bot_level"}
_BOOL_FIELDS: Final = {"bot_fill", "rated", "private", "requires_attendance"}
_REQUIRED: Final = {
    "name": "tournament_config.name",
    "format": "tournament_config.format",
    "entry": "tournament_config.entry",
}
_KEY_OF_FIELD: Final = {
    "size": "tournament_config.size",
    "target": "tournament_config.target",
    "rounds": "tournament_config.rounds",
    "hands": "tournament_config.hands",
    "window_seconds": "tournament_config.window",
    "game_cap_seconds": "tournament_config.game_cap",
    "turn_seconds": "tournament_config.turn_seconds",
    "starts_at": "tournament_config.starts_at",
    "fill_wait_seconds": "tournament_config.fill_wait",
    "round_every_seconds": "tournament_config.round_every",
    "battle_counting": "tournament_config.battle_counting",
    "entry_fichas": "tournament_config.entry_fichas",
}


def _parse(name: str, value: object) -> Any:
    """One JSON field as the dataclass holds it; a value of the wrong kind is that field's
    refusal (its text says what is allowed)."""
    if name == "format":
        if isinstance(value, str) and value in {f.value for f in Format}:
            return Format(value)
        _refuse("tournament_config.format")
    if name == "entry":
        if isinstance(value, str) and value in {e.value for e in Entry}:
            return Entry(value)
        _refuse("tournament_config.entry")
    if name in _TEXT_FIELDS:
        if not isinstance(value, str):
            if name == "bot_level":
                raise TournamentError("tournament_config.bot_level", field=name, levels=_one_of(LEVELS))
            if name == "preset":
                raise TournamentError("tournament_config.preset", field=name, presets=_one_of(PRESETS))
            _refuse("tournament_config.name")  # the one text field left
        return value
    if name == "pena_id":
        if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
            return value
        raise TournamentError("tournament_config.pena_id", field=name)
    if name == "battle_penas":
        ids = value if isinstance(value, list | tuple) else None
        if ids is None or not all(isinstance(i, int) and not isinstance(i, bool) and i > 0 for i in ids):
            raise TournamentError(
                "tournament_config.battle_penas", field=name, least=PENAS_RANGE[0], most=PENAS_RANGE[1]
            )
        return tuple(ids)
    if name in _BOOL_FIELDS:
        if not isinstance(value, bool):
            raise TournamentError("tournament_config.boolean", field=name, name=name)
        return value
    # numbers: whole where the field is whole, None where the field may be absent
    if value is None and name in (
        "rounds",
        "window_seconds",
        "turn_seconds",
        "starts_at",
        "round_every_seconds",
    ):
        return None
    if not isinstance(value, int | float) or isinstance(value, bool):
        key = _KEY_OF_FIELD[name]
        if key == "tournament_config.size":
            raise TournamentError("tournament_config.size", field=name, least=2, most=MOST_ENTRANTS)
        if key == "tournament_config.turn_seconds":
            raise TournamentError(
                "tournament_config.turn_seconds",
                field=name,
                choices=OneOf(TURN_SECONDS_CHOICES),
            )
        _refuse(key, name)
    if name in ("size", "target", "rounds", "hands", "entry_fichas") and isinstance(value, float):
        if not value.is_integer():
            if name == "size":
                raise TournamentError("tournament_config.size", field=name, least=2, most=MOST_ENTRANTS)
            _refuse(_KEY_OF_FIELD[name], name)
        return int(value)
    return value
