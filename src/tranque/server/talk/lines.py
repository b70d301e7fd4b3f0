"""What a chat line may be, and the word filter (docs/protocol.md, «Table talk»).

A line is trimmed, at most `CHAT_MAX` characters, never empty and without control characters
(a line break included: one line is one message). Words of the filter's lists are masked with
`MASK` rather than the line refused: the writer sees what the others saw, and a false hit
(a name, a word of another country) costs a few dots, not a message.

The lists are glin-profanity's (MIT, maintained; its English and Spanish dictionaries), with
a few words of Colombian and Caribbean Spanish it lacks added here and a few ordinary words
of its Spanish list (a «martillo» is a hammer) let through. Checking one line of 200
characters takes well under a millisecond, so it runs on the event loop.
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Any

from glin_profanity import Filter

from tranque.server.table.state import TableError

CHAT_MAX = 200  # characters of one line, after trimming
MASK = "•••"
# Words of Colombian and Caribbean Spanish the library's Spanish list lacks.
EXTRA_WORDS = (
    "gonorrea",
    "gonorreas",
    "malparido",
    "malparida",
    "hijueputa",
    "hijueputas",
    "jueputa",
    "hpta",
    "careverga",
)
# Ordinary words of the library's Spanish list that a table says in all innocence.
ALLOWED_WORDS = ("martillo", "infierno", "asesinato", "drogas", "racista", "maldito")


@cache
def _filter() -> Filter:
    config: Any = {
        "languages": ["english", "spanish"],
        "replace_with": MASK,
        "custom_words": list(EXTRA_WORDS),
        "ignore_words": list(ALLOWED_WORDS),
        "whitelist": list(ALLOWED_WORDS),
    }
    return Filter(config)


def masked(text: str) -> str:
    """`text` with every word of the filter's lists replaced by `MASK`."""
    result = _filter().check_profanity(text)
    if not result.get("contains_profanity"):
        return text
    return str(result.get("processed_text") or text)


def chat_line(text: str) -> str:
    """The line as the table shows it, or a `TableError` saying why it cannot be sent."""
    line = text.strip()
    if not line:
        raise TableError("chat_empty")
    if any(unicodedata.category(char) in ("Cc", "Zl", "Zp") for char in line):
        raise TableError("chat_control")
    if len(line) > CHAT_MAX:
        raise TableError("chat_too_long", most=CHAT_MAX)
    return masked(line)
