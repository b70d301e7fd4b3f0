"""A puzzle's reasons (tranque.bots.puzzles.reasons) as sentences, in Spanish and English.

Each reason is a kind and its parameters, computed offline from the solver's view and the
exact solution; this module only words them. The last reason, `deals`, always holds: how
often the best move and the next best win the hand over every deal the player could face.
"""

from __future__ import annotations

from typing import Any

from tranque.engine import Rules

SIDES = {
    "es": {"left": "por la izquierda", "right": "por la derecha"},
    "en": {"left": "on the left", "right": "on the right"},
}


def _numbers(numbers: list[int], lang: str) -> str:
    words = [str(n) for n in numbers]
    if len(words) == 1:
        return words[0]
    joiner = " y " if lang == "es" else " and "
    return ", ".join(words[:-1]) + joiner + words[-1]


def _move(tile: str, side: str | None, both: bool, lang: str) -> str:
    text = f"la {tile}" if lang == "es" else f"the {tile}"
    if both and side is not None:
        text += " " + SIDES[lang][side]
    return text


def sentence(reason: dict[str, Any], rules: Rules, lang: str) -> str:
    kind, p = reason["kind"], reason["params"]
    pairs = rules.mode.value == "pairs"
    es = lang == "es"
    if kind == "domino":
        return (
            f"Con la {p['tile']} te quedas sin fichas: dominó, y la mano es tuya."
            if es
            else f"The {p['tile']} is your last tile: domino, and the hand is yours."
        )
    if kind == "tranque":
        return (
            f"La {p['tile']} tranca el juego: ya nadie puede jugar, y se cuentan los puntos que"
            " quedan en las manos."
            if es
            else f"The {p['tile']} blocks the game (a tranque): nobody can play any more, and the"
            " points left in the hands are counted."
        )
    if kind == "pass_read":
        numbers = _numbers(p["numbers"], lang)
        return (
            f"{'Tu contrario' if rules.players == 2 else 'El que juega después de ti'} ya mostró,"
            f" pasando o robando, que no tiene {numbers}:"
            f" con esta jugada le dejas {numbers} en las puntas."
            if es
            else f"{'Your opponent' if rules.players == 2 else 'The player after you'} has shown,"
            f" by passing or drawing, that they hold no {numbers}:"
            f" this move leaves {numbers} at the ends."
        )
    if kind == "partner":
        numbers = _numbers(p["numbers"], lang)
        return (
            f"Tu compañero ya mostró que no tiene {numbers}: la otra jugada le dejaba solo eso en las puntas;"
            " esta le deja un número que puede tener."
            if es
            else f"Your partner has shown they hold no {numbers}: the other move left only that at the"
            " ends; this one leaves a number they may hold."
        )
    if kind == "heavy":
        return (
            f"Te quitas de encima la {p['tile']} ({p['pips']} puntos): si la mano se tranca, no te la"
            " cuentan."
            if es
            else f"You get rid of the {p['tile']} ({p['pips']} points): if the hand ends in a"
            " tranque, it is not counted against you."
        )
    # "deals": always there, always true.
    both = p["best"] == p["other"]
    best = _move(p["best"], p.get("best_side"), both, lang)
    other = _move(p["other"], p.get("other_side"), both, lang)
    exact = p.get("exact", True)
    opening_es, kind_es = ("De los", "posibles") if exact else ("En", "al azar")
    opening_en, kind_en = ("Of the", "possible") if exact else ("In", "random")
    if p["deals"] == 1:  # everything is known: the one deal there can be
        gap_es = format(p["gap"], "g").replace(".", ",")
        return (
            f"Ya se sabe dónde está cada ficha que no ves: {best} vale {gap_es} puntos de la mano"
            f" más que {other}, la mejor de las otras."
            if es
            else f"Where every tile you cannot see lies is already known: {best} is worth"
            f" {p['gap']:g} points of the hand more than {other}, the best of the others."
        )
    who_es = "ustedes ganan" if pairs else "ganas"
    who_en = "your side wins" if pairs else "you win"
    if es:
        return (
            f"{opening_es} {p['deals']} repartos {kind_es}"
            " de las fichas que no ves,"
            f" con {best} {who_es} la mano en {p['best_wins']};"
            f" con {other}, la mejor de las otras, en {p['other_wins']}."
            f" En promedio, {best} vale {format(p['gap'], 'g').replace('.', ',')} puntos más."
        )
    return (
        f"{opening_en} {p['deals']} {kind_en} deals"
        " of the tiles you cannot see,"
        f" with {best} {who_en} the hand in {p['best_wins']};"
        f" with {other}, the best of the others, in {p['other_wins']}."
        f" On average {best} is worth {p['gap']:g} points more."
    )


def explanation(reasons: list[dict[str, Any]], rules: Rules, lang: str) -> str:
    """The reasons as one short paragraph in `lang`."""
    return " ".join(sentence(reason, rules, lang) for reason in reasons)
