"""The words on the share cards and in their pages' Open Graph tags, in Spanish and English."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

LANGS = ("es", "en")
BOGOTA = timezone(timedelta(hours=-5))  # Colombia keeps no summer time

TEXTS: dict[str, dict[str, str]] = {
    "es": {
        "game": "Partida de dominó",
        "won_one": "¡Ganó {names}!",
        "won_many": "¡Ganaron {names}!",
        "tie": "¡Empate!",
        "and": " y ",
        "ended_domino": "La última mano terminó en dominó",
        "ended_tranque": "La última mano se trancó",
        "ended_other": "Partida terminada",
        "target": "a {target}",
        "players": "{players} jugadores",
        "pairs": "por parejas",
        "hands_one": "1 mano",
        "hands_many": "{hands} manos",
        "last_line": "La última mano",
        "tantos": "tantos",
        "goals": "{goals} goles",
        "winner": "Ganó",
        "footer_game": "Mira la partida jugada a jugada en Tranque",
        "tournament": "Torneo",
        "podium": "Podio",
        "standings": "Clasificación",
        "status_open": "Inscripciones abiertas",
        "status_running": "En juego",
        "status_finished": "Terminado",
        "status_cancelled": "Cancelado",
        "entrants": "{entrants} inscritos",
        "footer_tournament": "El torneo completo en Tranque",
        "places": "1.º|2.º|3.º",
        "no_places": "Todavía no hay clasificación",
        "page_game_title": "{result} · Tranque",
        "page_tournament_title": "{name} · Torneo en Tranque",
        "page_default": "Dominó en línea como se juega en Colombia y el Caribe",
        "format_minitorneo": "Minitorneo",
        "format_suizo": "Suizo",
        "format_arena": "Arena",
        "format_duplicado": "Duplicado",
    },
    "en": {
        "game": "Dominó game",
        "won_one": "{names} won!",
        "won_many": "{names} won!",
        "tie": "A tie!",
        "and": " and ",
        "ended_domino": "The last hand ended in a dominó",
        "ended_tranque": "The last hand was blocked (tranque)",
        "ended_other": "Game over",
        "target": "to {target}",
        "players": "{players} players",
        "pairs": "in pairs",
        "hands_one": "1 hand",
        "hands_many": "{hands} hands",
        "last_line": "The last hand",
        "tantos": "points",
        "goals": "{goals} goals",
        "winner": "Won",
        "footer_game": "Watch the game play by play on Tranque",
        "tournament": "Tournament",
        "podium": "Podium",
        "standings": "Standings",
        "status_open": "Open for entries",
        "status_running": "Being played",
        "status_finished": "Finished",
        "status_cancelled": "Cancelled",
        "entrants": "{entrants} entrants",
        "footer_tournament": "The whole tournament on Tranque",
        "places": "1st|2nd|3rd",
        "no_places": "No standings yet",
        "page_game_title": "{result} · Tranque",
        "page_tournament_title": "{name} · Tournament on Tranque",
        "page_default": "Online dominó as it is played in Colombia and the Caribbean",
        "format_minitorneo": "Knock-out",
        "format_suizo": "Swiss",
        "format_arena": "Arena",
        "format_duplicado": "Duplicate",
    },
}
MONTHS = {
    "es": ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"),
    "en": ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"),
}


def lang_of(asked: str | None) -> str:
    """The card's language: English when asked for, Spanish otherwise."""
    return "en" if asked == "en" else "es"


def say(lang: str, key: str, **values: object) -> str:
    return TEXTS[lang][key].format(**values)


def names_joined(lang: str, names: list[str]) -> str:
    """ "Ana", "Ana y Beto", "Ana, Beto y Caro"."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + say(lang, "and") + names[-1]


def day(lang: str, at: float) -> str:
    """The date of `at` (seconds since the epoch) in Bogotá.

    >>> day("es", 1796601600.0), day("en", 1796601600.0)
    ('6 dic 2026', '6 Dec 2026')
    """
    when = datetime.fromtimestamp(at, UTC).astimezone(BOGOTA)
    return f"{when.day} {MONTHS[lang][when.month - 1]} {when.year}"
