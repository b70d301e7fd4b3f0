"""The catalogue of the engine's messages, in Spanish (the default) and English.

Each entry is a code and its text in each language, with ``{name}`` fields filled from the
error's parameters. `localize` turns parameters that are words (a side of the line, a list
of options) into the reader's language; tiles and numbers print as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Final

LANGUAGES: Final = ("es", "en")

# Words that parameters may carry, by language.
_WORDS: Final[dict[str, dict[str, str]]] = {
    "left": {"es": "izquierda", "en": "left"},
    "right": {"es": "derecha", "en": "right"},
}

MESSAGES: Final[dict[str, dict[str, str]]] = {
    # Actions and turns (IllegalAction) ---------------------------------------------------
    "not_in_hand": {"es": "No tienes la ficha {tile}.", "en": "You don't have the {tile}."},
    # Table options (RulesError) ----------------------------------------------------------
    # Deals (DealError) -------------------------------------------------------------------
    # Game records (RecordError) ----------------------------------------------------------
}


def localize(value: object, lang: str) -> str:
    """A parameter as text in `lang`: enums by their word, sequences joined with commas, an
    engine error (a record's cause) by its own text."""
    text = getattr(value, "text", None)
    if callable(text):
        return str(text(lang))
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, str):
        return _WORDS.get(value, {}).get(lang, value)
    if isinstance(value, Sequence):
        return ", ".join(localize(item, lang) for item in value)
    return str(value)
