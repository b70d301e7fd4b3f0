"""What a table may be set to: per preset, every choice a form offers, with its default.

`GET /api/presets` describes each preset from here, and `TableRequest.rules` accepts exactly
what is described: a form built from the description never sends what the server refuses, and
the browser copies no rule table. Whatever is a rule is asked of the engine (which player
counts and modes a preset has, its default target, whether a capicúa bonus may be set); what
is a choice of the tables' (the targets a table offers, the capicúa bonus a form proposes) is
decided here, once.
"""

from __future__ import annotations

from typing import Any

from tranque.engine import Rules, RulesError
from tranque.engine.presets import PRESETS, Preset
from tranque.engine.rules import TURN_SECONDS_CHOICES

TABLE_TARGETS = (100, 150, 200)  # docs/rules.md, table options (R14)
# Presets whose own rules list the targets to choose from: salón from 50 to 300 (V2).
OWN_TARGETS = {"salon": (50, 100, 150, 200, 250, 300)}
CAPICUA_BONUS = 20  # what a form's «capicúa» box sets (V9: any P > 0 is allowed)

# The presets' titles and one-line summaries in English (the Spanish are the engine's).
ENGLISH: dict[str, tuple[str, str]] = {
    "clasico": (
        "Classic",
        "With a boneyard, 2 to 6 players, alone or in pairs; the highest double leads; "
        "to 100 (200 with 5 or 6).",
    ),
    "sin-pozo": (
        "No boneyard",
        "Nobody draws: the tiles left over stay out; one against one to 50, four players to 100.",
    ),
    "salon": (
        "Salón",
        "Target from 50 to 300; in a tied tranque the starter wins, or the nearest after them.",
    ),
    "internacional": (
        "International",
        "Pairs of 4 to 200; the first lead is drawn by lot; the winning pair counts every hand.",
    ),
    "latino": ("Latino", "Pairs of 4 to 100; the winning pair counts only the opponents' tiles."),
    "maracucho": (
        "Maracucho",
        "Pairs of 4 to 100; the tranque is individual: the player with the fewest points wins.",
    ),
    "ponce": (
        "Ponce",
        "Pairs to 20 palitos; passes score and a tranque gives 2 to whoever blocked it.",
    ),
    "futbol": (
        "Fútbol",
        "One against one with 12 tiles and no boneyard; under 10 points is a goal; to 100 or 10 goals.",
    ),
    "en-contra": (
        "En contra",
        "Individual, 2 to 4; each adds up what is left in their hand; when someone reaches 100 "
        "the lowest total wins.",
    ),
}


def target_choices(preset: str, players: int) -> tuple[int, ...]:
    """The targets a game of `preset` for `players` may be played to, the default among them:
    100, 150 or 200 (and the preset's own default, 200 with 5 or 6 players), except where the
    preset has its own: one target below 100 (20 palitos in ponce, 50 one against one without
    the pozo) is the only one, and salón chooses from 50 to 300.

    >>> target_choices("clasico", 6), target_choices("ponce", 4), target_choices("sin-pozo", 2)
    ((100, 150, 200), (20,), (50,))
    """
    if preset in OWN_TARGETS:
        return OWN_TARGETS[preset]
    own = PRESETS[preset].default_target(players)
    return (own,) if own < 100 else tuple(sorted({*TABLE_TARGETS, own}))


def capicua_allowed(preset: Preset) -> bool:
    """Whether the engine accepts a capicúa bonus with this preset (V9 refuses it with the
    scoring of ponce, fútbol and en contra), asked of the engine at every player count."""
    try:
        for players in preset.seatings:
            Rules.from_options(preset.name, players=players, capicua_bonus=CAPICUA_BONUS)
    except RulesError:
        return False
    return True


def describe(preset: Preset) -> dict[str, Any]:
    """Everything a form needs to offer `preset` (docs/protocol.md, `GET /api/presets`)."""
    counts = sorted(preset.seatings)
    default = Rules.preset(preset.name)
    capicua = capicua_allowed(preset)
    title_en, summary_en = ENGLISH.get(preset.name, (preset.title, preset.summary))
    return {
        "name": preset.name,
        "title": preset.title,
        "title_en": title_en,
        "summary": preset.summary,
        "summary_en": summary_en,
        "players": counts,
        "seatings": {str(n): [mode.value for mode in preset.seatings[n]] for n in counts},
        "modes": {str(n): [mode.value for mode in preset.seatings[n]] for n in counts},
        "targets": {str(n): preset.default_target(n) for n in counts},
        "target_choices": {str(n): list(target_choices(preset.name, n)) for n in counts},
        "turn_seconds_choices": list(TURN_SECONDS_CHOICES),
        "capicua": capicua,
        "capicua_bonus_choices": [0, CAPICUA_BONUS] if capicua else [0],
        "defaults": {
            "players": default.players,
            "mode": {str(n): preset.seatings[n][0].value for n in counts},
            "target": {str(n): preset.default_target(n) for n in counts},
            "turn_seconds": default.turn_seconds,
            "capicua_bonus": default.capicua_bonus,
        },
    }


def catalogue() -> list[dict[str, Any]]:
    return [describe(preset) for preset in PRESETS.values()]
