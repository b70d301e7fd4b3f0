"""The bot levels' titles and summaries in English, beside the Spanish of `tranque.bots`
(`GET /api/bots`): an English page shows no Spanish name."""

from __future__ import annotations

from tranque.bots import LEVELS, BotLevel

ENGLISH: dict[str, tuple[str, str]] = {
    "random": ("Beginner", "Plays any tile that fits, at random."),
    "greedy": ("Heavy hitter", "Always drops the tile that fits with the most pips."),
    "heuristic": (
        "Backyard player",
        "Follows the advice: drops heavy tiles, remembers passes and helps its partner.",
    ),
    "expert": (
        "Master",
        "Deals the tiles it cannot see many times, plays each hand to the end and signals to its partner.",
    ),
}


def describe(level: BotLevel) -> dict[str, str]:
    title_en, summary_en = ENGLISH.get(level.name, (level.title, level.summary))
    return {
        "name": level.name,
        "title": level.title,
        "summary": level.summary,
        "title_en": title_en,
        "summary_en": summary_en,
    }


def catalogue() -> list[dict[str, str]]:
    return [describe(level) for level in LEVELS.values()]
