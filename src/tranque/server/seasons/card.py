"""A season's table as a share card's content: the lead wires it to the generic table card of
server/share/ (`render_table_card(title, subtitle, columns, rows)`)."""

from __future__ import annotations

from typing import Any

from tranque.server.seasons.table import POINTS

COLUMNS = {
    "es": ["#", "Jugador", "PJ", "G", "P", "TF", "TC", "DIF", "PTS"],
    "en": ["#", "Player", "P", "W", "L", "PF", "PA", "DIFF", "PTS"],
}
POINTS_LABELS = {
    "es": {
        "dos_por_ganada": "2 por ganada",
        "tres_uno": "3 por ganada, 1 por perdida",
        "tantos": "los tantos",
    },
    "en": {"dos_por_ganada": "2 a win", "tres_uno": "3 a win, 1 a loss", "tantos": "the points"},
}
STATES = {
    "es": {"scheduled": "por empezar", "live": "en juego", "ended": "final"},
    "en": {"scheduled": "to start", "live": "being played", "ended": "final"},
}
MOST_ROWS = 20
assert all(set(labels) == set(POINTS) for labels in POINTS_LABELS.values())


def season_card_rows(
    season: dict[str, Any], pena_name: str = "", lang: str = "es"
) -> tuple[str, str, list[str], list[list[str]]]:
    """(title, subtitle, columns, rows) of a season as `Seasons._json` gives it, in `lang`
    ("es" or "en"): its first `MOST_ROWS` rows.

    >>> season = {"name": "Apertura", "starts": "2026-12-01", "ends": "2026-12-31",
    ...           "points": "tres_uno", "state": "live", "rows": [{"rank": 1, "name": "ana",
    ...           "played": 2, "won": 1, "lost": 1, "tantos_for": 180, "tantos_against": 150,
    ...           "difference": 30, "points": 4}]}
    >>> title, subtitle, columns, rows = season_card_rows(season, "Los del Martes")
    >>> title
    'Los del Martes · Apertura'
    >>> subtitle
    '2026-12-01 – 2026-12-31 · 3 por ganada, 1 por perdida · en juego'
    >>> rows
    [['1', 'ana', '2', '1', '1', '180', '150', '+30', '4']]
    """
    title = f"{pena_name} · {season['name']}" if pena_name else str(season["name"])
    state = STATES[lang].get(season["state"], "")
    subtitle = (
        f"{season['starts']} – {season['ends']} · {POINTS_LABELS[lang].get(season['points'], '')} · {state}"
    )
    rows = [
        [
            str(row["rank"]),
            str(row["name"]),
            str(row["played"]),
            str(row["won"]),
            str(row["lost"]),
            str(row["tantos_for"]),
            str(row["tantos_against"]),
            f"{row['difference']:+d}" if row["difference"] else "0",
            str(row["points"]),
        ]
        for row in season["rows"][:MOST_ROWS]
    ]
    return title, subtitle, list(COLUMNS[lang]), rows
