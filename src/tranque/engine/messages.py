"""The catalogue of the engine's messages, in Spanish (the default) and English.

Each entry is a code and its text in each language, with ``{name}`` fields filled from the
error's parameters. `localize` turns parameters that are words (a side of the line, a list
of options) into the reader's language; tiles and numbers print as they are. A parameter
wrapped in `OneOf` lists alternatives ("2, 3 o 4" / "2, 3 or 4"); one wrapped in
`Verbatim` (what a person typed) is never taken for a word.
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
    "draw": {"es": "robar", "en": "draw"},
    "pass": {"es": "pasar", "en": "pass"},
    "in_pairs": {"es": "por parejas", "en": "in pairs"},
    "individually": {"es": "individual", "en": "individually"},
    "scores": {"es": "puntos", "en": "points"},
    "goals": {"es": "goles", "en": "goals"},
    "winners": {"es": "ganadores", "en": "winners"},
}

MESSAGES: Final[dict[str, dict[str, str]]] = {
    # Actions and turns (IllegalAction) ---------------------------------------------------
    "not_in_hand": {"es": "No tienes la ficha {tile}.", "en": "You don't have the {tile}."},
    "forced_lead": {"es": "Debes salir con el {tile}.", "en": "You must lead with the {tile}."},
    "does_not_fit": {
        "es": "La ficha {tile} no pega en ninguna punta (las puntas son {left} y {right}).",
        "en": "The {tile} fits neither end (the ends are {left} and {right}).",
    },
    "wrong_end": {
        "es": "La ficha {tile} no pega en la punta {side} ({end}).",
        "en": "The {tile} does not fit the {side} end ({end}).",
    },
    "choose_end": {
        "es": "La ficha {tile} pega en las dos puntas: elige izquierda o derecha.",
        "en": "The {tile} fits both ends: choose left or right.",
    },
    "must_play": {
        "es": "No puedes {action}: tienes una ficha que pega.",
        "en": "You can't {action}: you have a tile that fits.",
    },
    "must_draw": {
        "es": "No puedes pasar: todavía puedes robar del pozo.",
        "en": "You can't pass: you can still draw from the boneyard.",
    },
    "nothing_to_draw": {
        "es": "El pozo está vacío: te toca pasar.",
        "en": "The boneyard is empty: you have to pass.",
    },
    "no_drawing": {
        "es": "En esta modalidad no se roba: las fichas que sobran quedan fuera.",
        "en": "There is no drawing in this game: the undealt tiles stay out.",
    },
    "not_your_turn": {
        "es": "No es el turno de este asiento: le toca jugar al asiento {turn}.",
        "en": "It is not this seat's turn: seat {turn} is to play.",
    },
    "round_over": {"es": "La mano ya terminó.", "en": "The round is over."},
    "round_not_over": {"es": "La mano no ha terminado.", "en": "The round is not over yet."},
    "next_round_pending": {
        "es": "La mano ya terminó: empieza la siguiente.",
        "en": "The round is over: start the next one.",
    },
    "game_over": {"es": "La partida ya terminó.", "en": "The game is over."},
    "unknown_action": {"es": "Jugada desconocida: {action}.", "en": "Unknown action: {action}."},
    "malformed": {
        "es": "«{text}» no es una jugada: escribe una ficha y su punta (6-4i, 6-4d), robar o pasar.",
        "en": "“{text}” is not an action: write a tile and its end (6-4l, 6-4r), draw or pass.",
    },
    "malformed_json": {
        "es": "La jugada debe ser un objeto JSON con «type», no {detail}.",
        "en": "An action must be a JSON object with “type”, not {detail}.",
    },
    "unknown_action_type": {
        "es": "Tipo de jugada desconocido: {kind}; se espera play, draw o pass.",
        "en": "Unknown action type: {kind}; expected play, draw or pass.",
    },
    "unknown_side": {
        "es": "Lado desconocido: {side}; se espera left, right o null.",
        "en": "Unknown side: {side}; expected left, right or null.",
    },
    "malformed_event": {"es": "Evento mal formado: {event}.", "en": "Malformed event: {event}."},
    # Tiles (TileError) --------------------------------------------------------------------
    "tile_numbers": {
        "es": "Una ficha se forma con dos números enteros, no {a} y {b}.",
        "en": "A tile is made of two whole numbers, not {a} and {b}.",
    },
    "tile_range": {
        "es": "La ficha {tile} no existe: cada mitad va de 0 a {most}.",
        "en": "There is no {tile} tile: each half goes from 0 to {most}.",
    },
    "tile_text": {
        "es": "«{text}» no es una ficha: escribe dos números con guion, como 6-4.",
        "en": "“{text}” is not a tile: write two numbers with a dash, like 6-4.",
    },
    "tile_set": {
        "es": "El juego es doble seis o doble nueve, no {value}.",
        "en": "Sets are double-six or double-nine, not {value}.",
    },
    # Describing actions (Action.describe) ------------------------------------------------
    "describe_play": {"es": "jugar {tile}", "en": "play {tile}"},
    "describe_play_at": {"es": "jugar {tile} a la {side}", "en": "play {tile} on the {side}"},
    "describe_draw": {"es": "robar del pozo", "en": "draw from the boneyard"},
    "describe_pass": {"es": "pasar", "en": "pass"},
    # The board as text (board.py) --------------------------------------------------------
    "board_players_pairs": {"es": "{n} jugadores por parejas", "en": "{n} players in pairs"},
    "board_players_individual": {
        "es": "{n} jugadores, cada uno por su cuenta",
        "en": "{n} players, each on their own",
    },
    "board_target": {"es": "a {n} puntos", "en": "to {n} points"},
    "board_goals_to_win": {"es": "a {n} goles", "en": "to {n} goals"},
    "board_round": {"es": "mano {n}", "en": "round {n}"},
    "board_seen_by": {"es": "vista del asiento {seat}", "en": "seen by seat {seat}"},
    "board_spectator": {"es": "vista de un espectador", "en": "seen by a spectator"},
    "board_score": {"es": "Marcador: {scores}", "en": "Score: {scores}"},
    "board_goals": {"es": "({n} goles)", "en": "({n} goals)"},
    "board_team": {"es": "pareja {letter}", "en": "team {letter}"},
    "board_seat": {"es": "asiento {seat}", "en": "seat {seat}"},
    "board_line": {"es": "Mesa, con puntas {left} y {right}:", "en": "Line, with ends {left} and {right}:"},
    "board_line_empty": {"es": "Mesa: vacía", "en": "Line: empty"},
    "board_tile": {"es": "{n} ficha", "en": "{n} tile"},
    "board_tiles": {"es": "{n} fichas", "en": "{n} tiles"},
    "board_no_tiles": {"es": "sin fichas", "en": "no tiles"},
    "board_boneyard": {"es": "Pozo: {tiles}", "en": "Boneyard: {tiles}"},
    "board_turn": {"es": "Turno: asiento {seat}", "en": "Turn: seat {seat}"},
    "board_may": {"es": "opciones: {actions}", "en": "options: {actions}"},
    "board_between_rounds": {
        "es": "Entre manos: falta repartir la siguiente.",
        "en": "Between rounds: the next is still to be dealt.",
    },
    "board_over_domino": {
        "es": "Mano terminada: dominó del asiento {seat} · puntos {points}",
        "en": "Round over: domino by seat {seat} · points {points}",
    },
    "board_over_tranque": {
        "es": "Mano terminada: tranque, la gana {winner} · puntos {points}",
        "en": "Round over: blocked (tranque), won by {winner} · points {points}",
    },
    "board_over_tranque_tie": {
        "es": "Mano terminada: tranque empatado · puntos {points}",
        "en": "Round over: blocked (tranque), tied · points {points}",
    },
    "board_game_over": {"es": "Partida terminada: gana {winners}", "en": "Game over: won by {winners}"},
    # Table options (RulesError) ----------------------------------------------------------
    "unknown_preset": {
        "es": "«{name}» no existe; hay: {presets}",
        "en": "“{name}” does not exist; the presets are: {presets}",
    },
    "unknown_parameter": {"es": "parámetro desconocido", "en": "unknown parameter"},
    "unknown_option_value": {
        "es": "«{value}» no es válido; opciones: {options}",
        "en": "“{value}” is not valid; the options are: {options}",
    },
    "not_whole_number": {
        "es": "debe ser un número entero, no {value}",
        "en": "must be a whole number, not {value}",
    },
    "players_for_preset": {
        "es": "«{preset}» se juega con {counts} jugadores, no con {players}",
        "en": "“{preset}” is played by {counts} players, not {players}",
    },
    "mode_for_players": {
        "es": "«{preset}» con {players} jugadores se juega {modes}",
        "en": "“{preset}” with {players} players is played {modes}",
    },
    "set_for_preset": {
        "es": "«{preset}» se juega solo con doble {set_max}",
        "en": "“{preset}” is played only with the double-{set_max} set",
    },
    "players_out_of_range": {
        "es": "se juega de 2 a 6 jugadores, no {players}",
        "en": "the game is for 2 to 6 players, not {players}",
    },
    "players_for_pairs": {
        "es": "por parejas se juega con 4 o 6 jugadores, no con {players}",
        "en": "in pairs the game is for 4 or 6 players, not {players}",
    },
    "set_not_six_or_nine": {
        "es": "el juego es doble seis o doble nueve, no doble {set_max}",
        "en": "the set is double-six or double-nine, not double-{set_max}",
    },
    "hand_size_too_small": {
        "es": "cada jugador recibe al menos una ficha",
        "en": "each player gets at least one tile",
    },
    "hand_size_too_big": {
        "es": "{players} jugadores con {hand_size} fichas necesitan {needed}, "
        "y el doble {set_max} tiene {tiles}",
        "en": "{players} players with {hand_size} tiles each need {needed}, "
        "and the double-{set_max} set has {tiles}",
    },
    "target_not_positive": {
        "es": "la meta debe ser positiva, no {target}",
        "en": "the target must be positive, not {target}",
    },
    "goals_not_positive": {
        "es": "los goles para ganar deben ser positivos",
        "en": "the goals to win must be positive",
    },
    "hands_not_positive": {
        "es": "el número de manos debe ser positivo, no {hands}",
        "en": "the number of hands must be positive, not {hands}",
    },
    "turn_seconds_choice": {
        "es": "el tiempo por turno es {choices} segundos, no {seconds}",
        "en": "the time per turn is {choices} seconds, not {seconds}",
    },
    "at_least_one": {"es": "debe ser al menos 1", "en": "must be at least 1"},
    "capicua_bonus_negative": {
        "es": "el premio de capicúa no puede ser negativo",
        "en": "the capicua bonus cannot be negative",
    },
    "capicua_bonus_with_scoring": {
        "es": "no hay premio de capicúa con la puntuación «{scoring}»",
        "en": "there is no capicua bonus with “{scoring}” scoring",
    },
    "individual_only": {
        "es": "esta opción solo se juega individual",
        "en": "this option is played only individually",
    },
    "futbol_two_players": {
        "es": "el fútbol se juega entre 2 jugadores",
        "en": "futbol is played between 2 players",
    },
    "ponce_pairs_only": {
        "es": "la puntuación de Ponce se juega por parejas",
        "en": "Ponce scoring is played in pairs",
    },
    "pass_points_ponce_only": {
        "es": "los pases solo puntúan con la puntuación de Ponce",
        "en": "passes score only with Ponce scoring",
    },
    "tranque_draw_penalty_only": {
        "es": "el empate como tablas solo existe con la puntuación en contra",
        "en": "a tied tranque as a draw exists only with penalty scoring",
    },
    # Deals (DealError) -------------------------------------------------------------------
    "deal_hand_count": {
        "es": "el reparto tiene {hands} manos y la mesa {players} jugadores",
        "en": "the deal has {hands} hands and the table {players} players",
    },
    "deal_bad_tile": {"es": "{cause}", "en": "{cause}"},
    "deal_tile_not_in_set": {
        "es": "la ficha {tile} no está en el doble {set_max}",
        "en": "the {tile} is not in the double-{set_max} set",
    },
    "deal_tile_twice": {
        "es": "la ficha {tile} aparece dos veces en el reparto",
        "en": "the {tile} appears twice in the deal",
    },
    "deal_hand_size": {
        "es": "la mano {seat} tiene {size} fichas y deben ser {hand_size}",
        "en": "hand {seat} has {size} tiles and should have {hand_size}",
    },
    "deal_missing_tiles": {
        "es": "faltan fichas en el reparto: {tiles}",
        "en": "tiles are missing from the deal: {tiles}",
    },
    "deal_first_or_starter": {
        "es": "indica first=True (primera mano) o starter=k, y solo uno de los dos",
        "en": "give first=True (the first round) or starter=k, and only one of the two",
    },
    "deal_first_lead_drawn": {
        "es": "en esta modalidad la primera salida se sortea: indica starter=k",
        "en": "in this variant the first lead is drawn by lot: give starter=k",
    },
    "deal_bad_starter": {
        "es": "starter debe ser un asiento de 0 a {last}, no {starter}",
        "en": "starter must be a seat from 0 to {last}, not {starter}",
    },
    "deal_bad_first_starter": {
        "es": "first_starter debe ser un asiento de 0 a {last}",
        "en": "first_starter must be a seat from 0 to {last}",
    },
    "deal_none_for_round": {
        "es": "no hay reparto para la mano {round}",
        "en": "there is no deal for round {round}",
    },
    # Fair deals (FairnessError) ----------------------------------------------------------
    "fair_seed_hidden": {
        "es": "la semilla de esta mano no se ha revelado",
        "en": "this round's seed has not been revealed",
    },
    "fair_no_seed": {
        "es": "la mano no trae semilla: su reparto no se puede rehacer",
        "en": "the round has no seed: its deal cannot be redone",
    },
    "fair_bad_seed": {
        "es": "la semilla no es un número hexadecimal",
        "en": "the seed is not a hexadecimal number",
    },
    "fair_no_salt": {"es": "la mano no trae sal y compromiso", "en": "the round has no salt and commitment"},
    "fair_commitment_differs": {
        "es": "la semilla y la sal no dan el compromiso publicado al repartir",
        "en": "the seed and salt do not give the commitment published at the deal",
    },
    "fair_bad_deal": {
        "es": "el reparto registrado no vale: {cause}",
        "en": "the recorded deal is invalid: {cause}",
    },
    "fair_no_deal": {"es": "la mano no trae su reparto", "en": "the round has no deal"},
    "fair_deal_differs": {
        "es": "la semilla no da el reparto registrado",
        "en": "the seed does not give the recorded deal",
    },
    # Game records (RecordError) ----------------------------------------------------------
    "record_not_tranque": {
        "es": "no es un registro de partida de Tranque",
        "en": "this is not a Tranque game record",
    },
    "record_bad_version": {
        "es": "versión de registro no soportada: {version}",
        "en": "unsupported record version: {version}",
    },
    "record_action_not_in_turn": {
        "es": "mano {round}: la jugada {action} no es del turno",
        "en": "round {round}: the action {action} is out of turn",
    },
    "record_result_differs": {
        "es": "mano {round}: el registro dice un resultado que la partida no da",
        "en": "round {round}: the record states a result the game does not give",
    },
    "record_starter_differs": {
        "es": "mano {round}: el registro dice que salió {starter}",
        "en": "round {round}: the record says seat {starter} led",
    },
    "record_unfair_deal": {"es": "mano {round}: {cause}", "en": "round {round}: {cause}"},
    "record_incomplete": {
        "es": "registro incompleto: falta {missing}",
        "en": "incomplete record: {missing} is missing",
    },
    "record_action_not_an_object": {
        "es": "mano {round}, jugada {move}: la jugada no es un objeto JSON",
        "en": "round {round}, move {move}: the action is not a JSON object",
    },
    "record_illegal_action": {
        "es": "mano {round}, jugada {move} (asiento {seat}): {cause}",
        "en": "round {round}, move {move} (seat {seat}): {cause}",
    },
    "record_does_not_replay": {
        "es": "el registro no se puede reproducir: {cause}",
        "en": "the record cannot be replayed: {cause}",
    },
    "record_total_differs": {
        "es": "el registro dice {total} {recorded} y al reproducirlo da {replayed}",
        "en": "the record says {total} {recorded}, and replaying it gives {replayed}",
    },
    "record_bad_time_called": {
        "es": "el registro dice que se acabó el tiempo en la mano {round}, y no la tiene",
        "en": "the record says time was called in round {round}, which it does not hold",
    },
    "record_bad_json": {
        "es": "{path} no es JSON válido: {reason}",
        "en": "{path} is not valid JSON: {reason}",
    },
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


class OneOf(tuple[object, ...]):
    """Alternatives a message lists as "a, b o c" ("a, b or c" in English), each item
    localized; to a program reading the parameters, a plain tuple."""

    __slots__ = ()

    def text(self, lang: str) -> str:
        words = [localize(item, lang) for item in self]
        if len(words) < 2:
            return "".join(words)
        return ", ".join(words[:-1]) + (" or " if lang == "en" else " o ") + words[-1]


class Verbatim(str):
    """A parameter printed as it is in every language, never taken for a word: what a
    person typed, names of options and presets."""

    __slots__ = ()

    def text(self, lang: str) -> str:
        return str(self)
