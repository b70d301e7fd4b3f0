"""The messages of the `tranque` command line, in Spanish first and in English.

`t(key, lang, **values)` formats one message with `str.format`. A language without its own
text for a key falls back to Spanish.

>>> t("event_pass", "es", who="Jugador 3")
'Jugador 3 pasa'
>>> t("event_pass", "en", who="Player 3")
'Player 3 passes'
"""

from __future__ import annotations

from typing import Any

LANGS = ("es", "en")
DEFAULT_LANG = "es"

MESSAGES: dict[str, dict[str, str]] = {
    # The command line itself
    "description": {
        "es": "Tranque: dominó como se juega en Colombia y el Caribe.",
        "en": "Tranque: dominó the way Colombia and the Caribbean play it.",
    },
    "usage": {"es": "uso: ", "en": "usage: "},
    "options_title": {"es": "opciones", "en": "options"},
    "arguments_title": {"es": "argumentos", "en": "arguments"},
    "commands_title": {"es": "órdenes", "en": "commands"},
    "opt_help": {"es": "muestra esta ayuda y sale", "en": "show this help and exit"},
    "opt_lang": {"es": "idioma: es (español) o en (inglés)", "en": "language: es (Spanish) or en (English)"},
    "help_play": {"es": "juega en la terminal contra los bots", "en": "play in the terminal against bots"},
    "help_simulate": {
        "es": "simula muchas partidas entre bots y muestra las cifras",
        "en": "simulate many games between bots and show the figures",
    },
    "help_replay": {
        "es": "cuenta una partida guardada mano por mano",
        "en": "tell a saved game round by round",
    },
    "help_serve": {
        "es": "pone en marcha el sitio para jugar en línea",
        "en": "start the site to play online",
    },
    "help_arena": {
        "es": "enfrenta niveles de bot en repartos duplicados",
        "en": "pit bot levels against each other on duplicate deals",
    },
    "help_verify": {
        "es": "comprueba que los repartos de una partida del sitio fueron justos",
        "en": "check that the deals of a game played on the site were fair",
    },
    "opt_host": {"es": "dirección donde escuchar", "en": "address to listen on"},
    "opt_port": {"es": "puerto donde escuchar", "en": "port to listen on"},
    "opt_db": {
        "es": "URL de la base de datos (si no: $TRANQUE_DATABASE_URL, o {default})",
        "en": "database URL (else $TRANQUE_DATABASE_URL, or {default})",
    },
    "opt_verify_file": {
        "es": "el registro de la partida (JSON, descargado del sitio)",
        "en": "the game's record (JSON, downloaded from the site)",
    },
    "opt_preset": {"es": "modalidad: {presets}", "en": "preset: {presets}"},
    "opt_players": {"es": "número de jugadores (2 a 6)", "en": "number of players (2 to 6)"},
    "opt_mode": {"es": "por parejas (pairs) o individual", "en": "pairs or individual"},
    "opt_target": {"es": "puntos para ganar la partida", "en": "points that win the game"},
    "opt_bot": {"es": "nivel de los bots: {bots}", "en": "bot level: {bots}"},
    "opt_seat": {
        "es": "tu asiento, de 0 a N-1 (por parejas, tu compañero se sienta enfrente)",
        "en": "your seat, from 0 to N-1 (in pairs, your partner sits opposite)",
    },
    "opt_seed": {
        "es": "semilla: las mismas cifras con la misma semilla",
        "en": "seed: the same figures for the same seed",
    },
    "opt_seed_play": {
        "es": "semilla de los repartos y los bots (para repetir una partida)",
        "en": "seed for the deals and the bots (to replay a game)",
    },
    "opt_games": {"es": "cuántas partidas simular", "en": "how many games to simulate"},
    "opt_players_kind": {
        "es": "bots: random, greedy, o mixed (greedy en asientos pares, random en impares)",
        "en": "bots: random, greedy, or mixed (greedy in even seats, random in odd ones)",
    },
    "opt_json": {"es": "escribe las cifras en JSON", "en": "print the figures as JSON"},
    "opt_record_play": {"es": "guarda la partida en este archivo", "en": "save the game to this file"},
    "opt_record_simulate": {
        "es": "guarda la última partida en este archivo",
        "en": "save the last game to this file",
    },
    "opt_replay_file": {"es": "el archivo de la partida", "en": "the game's record file"},
    # Errors: one line, exit code 2
    "error_line": {"es": "tranque: error: {message}", "en": "tranque: error: {message}"},
    "interrupted": {"es": "Interrumpido.", "en": "Interrupted."},
    "arg_unknown": {"es": "opción desconocida: {what}", "en": "unknown option: {what}"},
    "arg_missing": {"es": "falta: {what}", "en": "missing: {what}"},
    "arg_missing_command": {"es": "falta la orden: {commands}", "en": "missing command: {commands}"},
    "arg_choice": {
        "es": "{option}: {value} no es válido; opciones: {choices}",
        "en": "{option}: {value} is not valid; choose from {choices}",
    },
    "arg_expected_value": {"es": "{option}: falta el valor", "en": "{option}: expected a value"},
    "arg_invalid": {"es": "{option}: valor no válido: {value}", "en": "{option}: invalid value: {value}"},
    "arg_other": {"es": "{option}: {message}", "en": "{option}: {message}"},
    "not_a_whole_number": {"es": "«{value}» no es un número entero", "en": "'{value}' is not a whole number"},
    "not_positive": {"es": "debe ser al menos 1, no {value}", "en": "must be at least 1, not {value}"},
    "bad_option": {"es": "opción {option} no válida: {message}", "en": "invalid {option}: {message}"},
    "bad_seat": {
        "es": "opción --seat no válida: el asiento va de 0 a {last}, no {seat}",
        "en": "invalid --seat: seats go from 0 to {last}, not {seat}",
    },
    "bad_bot": {
        "es": "opción --bot no válida: no hay un bot «{bot}»; hay: {bots}",
        "en": "invalid --bot: there is no bot '{bot}'; there are: {bots}",
    },
    "bad_bot_level": {
        "es": "opción --bot-level no válida: no hay un bot «{bot}»; hay: {bots}",
        "en": "invalid --bot-level: there is no bot '{bot}'; there are: {bots}",
    },
    "bad_port": {
        "es": "opción --port no válida: el puerto va de 1 a 65535, no {port}",
        "en": "invalid --port: ports go from 1 to 65535, not {port}",
    },
    "no_such_file": {"es": "no existe el archivo {file}", "en": "no such file: {file}"},
    "cannot_read": {"es": "no se puede leer {file}: {reason}", "en": "cannot read {file}: {reason}"},
    "cannot_write": {"es": "no se puede escribir {file}: {reason}", "en": "cannot write {file}: {reason}"},
    "bad_record": {"es": "{file}: {reason}", "en": "{file}: not a valid game record ({reason})"},
    "not_a_record": {
        "es": "{file} no es un registro de partida de Tranque",
        "en": "{file} is not a Tranque game record",
    },
    # Names and the table
    "you": {"es": "tú", "en": "you"},
    "player": {"es": "jugador {seat}", "en": "player {seat}"},
    "team": {"es": "pareja {letter}", "en": "team {letter}"},
    "team_subject": {"es": "la pareja {letter}", "en": "team {letter}"},
    "players": {"es": "jugadores {seats}", "en": "players {seats}"},
    "and": {"es": " y ", "en": " and "},
    "partner_suffix": {"es": " (compañero)", "en": " (partner)"},
    "seating_pairs": {"es": "{players} jugadores por parejas", "en": "{players} players in pairs"},
    "seating_individual": {"es": "{players} jugadores, individual", "en": "{players} players, individual"},
    "target": {"es": "a {target}", "en": "to {target}"},
    "or_goals": {"es": " o {goals} goles", "en": " or {goals} goals"},
    "round_title": {"es": "Mano {number}", "en": "Round {number}"},
    "scoreboard": {"es": "Marcador: {scores}", "en": "Score: {scores}"},
    "goals_suffix": {"es": " ({goals}/{target} goles)", "en": " ({goals}/{target} goals)"},
    "col_player": {"es": "Jugador", "en": "Player"},
    "col_team": {"es": "Pareja", "en": "Team"},
    "col_tiles": {"es": "Fichas", "en": "Tiles"},
    "col_hand": {"es": "Mano", "en": "Hand"},
    "col_pips": {"es": "Puntos", "en": "Pips"},
    "line_label": {"es": "Mesa: ", "en": "Line: "},
    "empty_line": {"es": "(vacía: nadie ha salido)", "en": "(empty: nobody has led)"},
    "ends": {
        "es": "Puntas: {left} a la izquierda, {right} a la derecha",
        "en": "Ends: {left} on the left, {right} on the right",
    },
    "no_ends": {"es": "Puntas: ninguna todavía", "en": "Ends: none yet"},
    "boneyard_count": {"es": "Pozo: {count} fichas", "en": "Boneyard: {count} tiles"},
    "no_boneyard": {"es": "Sin pozo: nadie roba", "en": "No boneyard: nobody draws"},
    "your_hand": {"es": "Tu mano: ", "en": "Your hand: "},
    # Moves
    "at_left": {"es": "a la izquierda", "en": "on the left"},
    "at_right": {"es": "a la derecha", "en": "on the right"},
    "option_lead": {"es": "salir con {tile}", "en": "lead with {tile}"},
    "option_draw": {"es": "robar del pozo", "en": "draw from the boneyard"},
    "option_pass": {"es": "pasar", "en": "pass"},
    "event_lead": {"es": "{who} sale con {tile}", "en": "{who} leads with {tile}"},
    "event_lead_you": {"es": "Sales con {tile}", "en": "You lead with {tile}"},
    "event_play": {"es": "{who} juega {tile} {where}", "en": "{who} plays {tile} {where}"},
    "event_play_you": {"es": "Juegas {tile} {where}", "en": "You play {tile} {where}"},
    "event_draw": {"es": "{who} roba", "en": "{who} draws"},
    "event_draw_tile": {"es": "{who} roba {tile}", "en": "{who} draws {tile}"},
    "event_draw_you": {"es": "Robas {tile}", "en": "You draw {tile}"},
    "event_pass": {"es": "{who} pasa", "en": "{who} passes"},
    "event_pass_you": {"es": "Pasas", "en": "You pass"},
    # Playing
    "welcome": {
        "es": "Tranque · {rules} · tú juegas en el asiento {seat}. Escribe q para salir.",
        "en": "Tranque · {rules} · you play in seat {seat}. Type q to quit.",
    },
    "round_start": {
        "es": "Mano {number} · sale jugador {seat}",
        "en": "Round {number} · player {seat} leads",
    },
    "round_start_you": {"es": "Mano {number} · sales tú", "en": "Round {number} · you lead"},
    "prompt": {
        "es": "Tu jugada ({choices}, o una ficha como 6-4): ",
        "en": "Your move ({choices}, or a tile like 6-4): ",
    },
    "which_end": {
        "es": "¿En qué punta va el {tile}? i = izquierda ({left}), d = derecha ({right}): ",
        "en": "Which end for {tile}? i = left ({left}), d = right ({right}): ",
    },
    "press_enter": {
        "es": "Pulsa Enter para seguir (q para salir): ",
        "en": "Press Enter to go on (q to quit): ",
    },
    "input_help": {
        "es": "Escribe el número de una opción, una ficha como 6-4, o q para salir.",
        "en": "Type an option's number, a tile like 6-4, or q to quit.",
    },
    "no_such_option": {
        "es": "No hay opción «{text}»: elige un número del 1 al {count}.",
        "en": "There is no option '{text}': choose a number from 1 to {count}.",
    },
    "not_understood": {
        "es": "No entiendo «{text}»: escribe el número de una opción, una ficha como 6-4, o q para salir.",
        "en": "I don't understand '{text}': type an option's number, a tile like 6-4, or q to quit.",
    },
    "not_your_tile": {"es": "No tienes la ficha {tile}.", "en": "You don't have the {tile}."},
    "tile_does_not_fit": {
        "es": "La ficha {tile} no se puede jugar ahora: elige una de las opciones.",
        "en": "The {tile} can't be played now: pick one of the options.",
    },
    "bad_end": {"es": "Escribe i (izquierda) o d (derecha).", "en": "Type i (left) or d (right)."},
    "wrong_end": {
        "es": "La ficha {tile} no pega {where} (ahí hay un {end}).",
        "en": "The {tile} doesn't fit {where} (that end shows {end}).",
    },
    "quit": {"es": "Partida abandonada. ¡Hasta la próxima!", "en": "Game abandoned. See you next time!"},
    "record_saved": {"es": "Partida guardada en {file}", "en": "Game saved to {file}"},
    # Round and game ends
    "round_over": {"es": "Fin de la mano {number}: {headline}", "en": "End of round {number}: {headline}"},
    "domino": {"es": "¡Dominó! {who} se quedó sin fichas.", "en": "Dominó! {who} played their last tile."},
    "domino_you": {"es": "¡Dominó! Te quedaste sin fichas.", "en": "Dominó! You played your last tile."},
    "tranque_won": {
        "es": "¡Tranque! Nadie puede jugar; gana {who} con {pips} puntos en la mano, la cuenta más baja.",
        "en": "Tranque! Nobody can play; {who} wins with {pips} pips in hand, the lowest count.",
    },
    "tranque_won_you": {
        "es": "¡Tranque! Nadie puede jugar; ganas tú con {pips} puntos en la mano, la cuenta más baja.",
        "en": "Tranque! Nobody can play; you win with {pips} pips in hand, the lowest count.",
    },
    "tranque_tie": {
        "es": "¡Tranque empatado! Nadie puede jugar y las cuentas más bajas empatan: nadie anota.",
        "en": "Tied tranque! Nobody can play and the lowest counts tie: nobody scores.",
    },
    "tranque_draw": {
        "es": "¡Tranque empatado! Es tablas: cada uno suma lo que le queda.",
        "en": "Tied tranque! It's a draw: everyone adds what they hold.",
    },
    "why": {"es": "Por qué: {why}", "en": "Why: {why}"},
    "why_others": {
        "es": "el ganador se lleva los puntos que les quedan a los demás",
        "en": "the winner takes the pips left in the other hands",
    },
    "why_others_partner": {
        "es": "la pareja ganadora se lleva los puntos de las otras tres manos, la del compañero incluida",
        "en": "the winning team takes the pips of the other three hands, the partner's included",
    },
    "why_all_hands": {
        "es": "en un tranque la pareja ganadora se lleva los puntos de todas las manos, también los suyos",
        "en": "in a tranque the winning team takes the pips of every hand, its own too",
    },
    "why_opponents": {
        "es": "la pareja ganadora se lleva solo los puntos de los contrarios",
        "en": "the winning team takes only the opponents' pips",
    },
    "why_penalty": {
        "es": "en contra: cada uno suma lo que le queda en la mano; el ganador suma 0",
        "en": "penalty scoring: everyone adds what they hold; the winner adds 0",
    },
    "why_ponce": {
        "es": "palitos: los pases, 2 para quien trancó y las fichas redondeadas a decenas",
        "en": "palitos: passes, 2 for whoever blocked, and the pips rounded to tens",
    },
    "why_futbol": {
        "es": "el ganador se lleva los puntos del rival",
        "en": "the winner takes the loser's pips",
    },
    "why_futbol_goal": {
        "es": "el perdedor quedó con menos de 10 puntos: gol para {who} y el ganador no anota",
        "en": "the loser held fewer than 10 pips: a goal for {who}, and the winner scores nothing",
    },
    "why_futbol_goal_you": {
        "es": "quedaste con menos de 10 puntos: gol para ti y el ganador no anota",
        "en": "you held fewer than 10 pips: a goal for you, and the winner scores nothing",
    },
    "why_capicua": {"es": ", y {bonus} más por capicúa", "en": ", plus {bonus} for capicúa"},
    "points_line": {"es": "Anotan: {points}", "en": "Points: {points}"},
    "you_won": {"es": "¡Ganaste la partida!", "en": "You won the game!"},
    "you_won_team": {"es": "¡Tu pareja ganó la partida!", "en": "Your team won the game!"},
    "game_won": {"es": "Gana la partida {who}.", "en": "The game goes to {who}."},
    "game_shared": {"es": "Empate: ganan la partida {who}.", "en": "A tie: the game is shared by {who}."},
    # The site and its fair deals
    "serve_open": {
        "es": "Tranque está en marcha: abre {url} en el navegador. Ctrl+C para pararlo.",
        "en": "Tranque is running: open {url} in your browser. Ctrl+C stops it.",
    },
    "serve_database": {"es": "Base de datos: {url}", "en": "Database: {url}"},
    "serve_stopped": {"es": "Tranque se detuvo.", "en": "Tranque stopped."},
    "verify_round_ok": {"es": "Mano {number}: verificado", "en": "Round {number}: verified"},
    "verify_round_failed": {
        "es": "Mano {number}: NO verificado: {problems}",
        "en": "Round {number}: NOT verified: {problems}",
    },
    "verify_no_rounds": {
        "es": "El registro no tiene manos que verificar.",
        "en": "The record has no rounds to verify.",
    },
    "verify_all_ok": {
        "es": "Todos los repartos son los que daban las semillas publicadas.",
        "en": "Every deal is the one its published seed gives.",
    },
    "verify_failed": {
        "es": "Hay repartos que no se pudieron verificar.",
        "en": "Some deals could not be verified.",
    },
    # Replays and simulations
    "replay_title": {"es": "Partida guardada · {rules}", "en": "Saved game · {rules}"},
    "boneyard_dealt": {"es": "Pozo: {tiles}", "en": "Boneyard: {tiles}"},
    "out_of_play_dealt": {"es": "Fuera de juego: {tiles}", "en": "Out of play: {tiles}"},
    "round_unfinished": {"es": "(la mano quedó sin terminar)", "en": "(the round was left unfinished)"},
    "game_unfinished": {"es": "La partida quedó sin terminar.", "en": "The game was left unfinished."},
    "simulating": {"es": "Simulando", "en": "Simulating"},
    "row_bots": {"es": "Bots por asiento", "en": "Bots by seat"},
    "row_seed": {"es": "Semilla", "en": "Seed"},
    "row_games": {"es": "Partidas", "en": "Games"},
    "row_rounds_per_game": {"es": "Manos por partida", "en": "Rounds per game"},
    "row_tranque_pct": {"es": "Manos trancadas", "en": "Rounds ending in tranque"},
    "row_tie_pct": {"es": "Tranques empatados", "en": "Tied tranques"},
    "row_points_per_round": {"es": "Puntos por mano (promedio)", "en": "Points per round (mean)"},
    "row_games_per_second": {"es": "Partidas por segundo", "en": "Games per second"},
    "wins_title": {"es": "Partidas ganadas", "en": "Games won"},
    "col_side": {"es": "Lado", "en": "Side"},
    "col_bots": {"es": "Bots", "en": "Bots"},
    "col_win_pct": {"es": "Ganadas", "en": "Won"},
}


def t(key: str, lang: str, **values: Any) -> str:
    """The message `key` in `lang` (Spanish when missing), formatted with `values`."""
    texts = MESSAGES[key]
    return texts.get(lang, texts[DEFAULT_LANG]).format(**values)
