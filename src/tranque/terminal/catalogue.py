"""The terminal's catalogue: every message of the `tranque` command line, in Spanish first
and in English.

`t(key, lang, **values)` formats one message with `str.format`. A language without its own
text for a key falls back to Spanish. `plural` counts a noun ("1 ficha", "3 fichas") and
`number_word` spells a small count ("cinco").

The module is long because it is data: one entry per message in two languages, kept
together so that a translator reads and checks them in one place.

>>> t("event_pass", "es", who="Jugador 3")
'Jugador 3 pasa'
>>> t("event_pass", "en", who="Player 3")
'Player 3 passes'
>>> plural("tiles", 1, "es"), plural("pips", 2, "en"), number_word(5, "es")
('1 ficha', '2 pips', 'cinco')
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
    "opt_lang": {
        "es": "idioma: es (español) o en (inglés) (por defecto: $TRANQUE_LANG, o es)",
        "en": "language: es (Spanish) or en (English) (default: $TRANQUE_LANG, or es)",
    },
    "opt_version": {"es": "muestra la versión y sale", "en": "show the version and exit"},
    "help_default": {"es": " (por defecto: %(default)s)", "en": " (default: %(default)s)"},
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
        "es": "comprueba los repartos y las jugadas de una partida guardada",
        "en": "check the deals and the moves of a saved game",
    },
    "help_bot": {
        "es": "juega en un servidor como cuenta de bot, con un nivel de bot de Tranque",
        "en": "play on a server as a bot account, with one of Tranque's bot levels",
    },
    "opt_bot_action": {"es": "run: conectarse y jugar", "en": "run: connect and play"},
    "opt_bot_url": {
        "es": "el WebSocket del servidor, p. ej. ws://localhost:8000/ws",
        "en": "the server's WebSocket, e.g. ws://localhost:8000/ws",
    },
    "opt_bot_token": {
        "es": "el token de la cuenta de bot (tqb_...)",
        "en": "the bot account's token (tqb_...)",
    },
    "opt_bot_level": {"es": "el nivel de bot que juega", "en": "the bot level that plays"},
    "opt_bot_games": {
        "es": "cuántas partidas jugar en la partida rápida de bots",
        "en": "how many games to play in the bots' quick match",
    },
    "opt_bot_seed": {"es": "semilla del bot", "en": "seed for the bot"},
    "bot_connecting": {
        "es": "El bot {level} se conecta a {url} y busca partida.",
        "en": "The {level} bot connects to {url} and looks for a game.",
    },
    "bot_game_over": {
        "es": "Partida {number} de {games} terminada; puntos: {scores}",
        "en": "Game {number} of {games} over; scores: {scores}",
    },
    "bot_refused": {
        "es": "El servidor rechazó: {code}: {message}",
        "en": "The server refused: {code}: {message}",
    },
    "bot_game_annulled": {
        "es": "Partida {number} de {games} anulada; puntos: {scores}",
        "en": "Game {number} of {games} annulled; scores: {scores}",
    },
    "bot_closed_token": {
        "es": "El servidor cerró la conexión ({code} {reason}): revisa el token del bot.",
        "en": "The server closed the connection ({code} {reason}): check the bot's token.",
    },
    "bot_closed": {
        "es": "El servidor cerró la conexión ({code} {reason}) antes de terminar las partidas.",
        "en": "The server closed the connection ({code} {reason}) before the games were over.",
    },
    "bot_covered": {
        "es": "El bot del servidor tomó el asiento {seat} de la mesa {table}: a este bot se le "
        "vencieron tres turnos seguidos. Retoma el asiento y para al terminar esta partida.",
        "en": "The server's bot took seat {seat} at table {table}: this bot let three turns in a "
        "row run out. It takes the seat back and stops when this game ends.",
    },
    "bot_was_covered": {
        "es": "Se detiene: en la partida {number} el bot del servidor tuvo que jugar por este bot.",
        "en": "Stopping: in game {number} the server's bot had to play for this bot.",
    },
    "bot_abandoned": {
        "es": "Se detiene: la partida {number} cuenta como abandonada y perdida, porque el bot del "
        "servidor tenía el asiento de este bot al terminar.",
        "en": "Stopping: game {number} counts as abandoned and lost, because the server's bot held "
        "this bot's seat when it ended.",
    },
    "bot_url_http": {
        "es": "opción --url no válida: el bot se conecta al WebSocket del servidor, no a su página: "
        "usa {suggestion}",
        "en": "invalid --url: a bot connects to the server's WebSocket, not to its web page: "
        "use {suggestion}",
    },
    "bot_url_scheme": {
        "es": "opción --url no válida: «{url}» no es una dirección de WebSocket; usa ws://HOST:PUERTO/ws",
        "en": "invalid --url: '{url}' is not a WebSocket address; use ws://HOST:PORT/ws",
    },
    "bot_url_path": {
        "es": "opción --url no válida: el WebSocket del servidor está en /ws: usa {suggestion}",
        "en": "invalid --url: the server's WebSocket is at /ws: use {suggestion}",
    },
    "bot_url_status": {
        "es": "opción --url no válida: {url} contestó HTTP {status}; ahí no hay un WebSocket de Tranque "
        "(usa ws://HOST:PUERTO/ws)",
        "en": "invalid --url: {url} answered HTTP {status}; there is no Tranque WebSocket there "
        "(use ws://HOST:PORT/ws)",
    },
    "bot_url_handshake": {
        "es": "opción --url no válida: {url} no contesta como un WebSocket: {reason}",
        "en": "invalid --url: {url} does not answer as a WebSocket: {reason}",
    },
    "bot_unreachable": {
        "es": "No se pudo conectar a {url}: {error}",
        "en": "Could not connect to {url}: {error}",
    },
    "help_puzzles": {
        "es": "arma los problemas de «¿Qué jugarías?» jugando y resolviendo partidas de bots",
        "en": "build the «¿Qué jugarías?» puzzles by playing and solving bot games",
    },
    "opt_puzzles_seed": {
        "es": "semilla: la misma semilla escribe el mismo archivo",
        "en": "seed: the same seed writes the same file",
    },
    "opt_puzzles_per": {
        "es": "problemas por colección (parejas, individual, doble nueve)",
        "en": "puzzles per collection (pairs, individual, double-nine)",
    },
    "opt_puzzles_games": {
        "es": "partidas por colección como mucho",
        "en": "games per collection at most",
    },
    "opt_puzzles_out": {
        "es": "archivo donde se escriben (por defecto: el del sitio)",
        "en": "file to write them to (default: the site's)",
    },
    "puzzles_bad_out": {
        "es": "No existe la carpeta de {path}.",
        "en": "The folder of {path} does not exist.",
    },
    "puzzles_figures": {
        "es": "{name}: {games} partidas, {decisions} decisiones, {solved} resueltas, {kept} problemas",
        "en": "{name}: {games} games, {decisions} decisions, {solved} solved, {kept} puzzles",
    },
    "puzzles_written": {
        "es": "{count} problemas escritos en {path}",
        "en": "{count} puzzles written to {path}",
    },
    "help_analyze": {
        "es": "analiza una partida guardada: cuánto perdió cada jugada frente a la mejor",
        "en": "analyse a saved game: how much each move lost against the best",
    },
    "opt_host": {
        "es": "dirección donde escuchar (si no: $TRANQUE_HOST) (por defecto: 127.0.0.1)",
        "en": "address to listen on (else $TRANQUE_HOST) (default: 127.0.0.1)",
    },
    "opt_port": {
        "es": "puerto donde escuchar (si no: $TRANQUE_PORT) (por defecto: 8000)",
        "en": "port to listen on (else $TRANQUE_PORT) (default: 8000)",
    },
    "opt_db": {
        "es": "URL de la base de datos (si no: $TRANQUE_DATABASE_URL, o {default})",
        "en": "database URL (else $TRANQUE_DATABASE_URL, or {default})",
    },
    "opt_redis": {
        "es": "URL de Redis para correr varios procesos sobre una base PostgreSQL (si no: "
        "$TRANQUE_REDIS_URL; sin él, un solo proceso)",
        "en": "Redis URL, to run several processes on one PostgreSQL database (else "
        "$TRANQUE_REDIS_URL; without it, one process)",
    },
    "opt_workers": {
        "es": "cuántos procesos atienden el mismo puerto (más de 1 necesita --redis y PostgreSQL; "
        "si no: $TRANQUE_WORKERS, o 1)",
        "en": "how many processes serve the one port (more than 1 needs --redis and PostgreSQL; "
        "else $TRANQUE_WORKERS, or 1)",
    },
    "opt_analysis_workers": {
        "es": "procesos que analizan partidas pedidas en el sitio (0: ninguno, quedan pendientes; "
        "si no: $TRANQUE_ANALYSIS_WORKERS, o 1)",
        "en": "processes that analyse games asked for on the site (0: none, they stay pending; "
        "else $TRANQUE_ANALYSIS_WORKERS, or 1)",
    },
    "opt_secure_cookies": {
        "es": "cookie de sesión solo por https (Secure); detrás de un proxy de confianza que dice "
        "https se activa sola (si no: $TRANQUE_SECURE_COOKIES=1)",
        "en": "session cookie over https only (Secure); on by itself behind a trusted proxy that "
        "says https (else $TRANQUE_SECURE_COOKIES=1)",
    },
    "opt_forwarded_allow_ips": {
        "es": "proxies de confianza (IP o redes separadas por comas, o *): de ellos se toman la "
        "dirección del cliente (X-Forwarded-For) y https (X-Forwarded-Proto) "
        "(si no: $TRANQUE_FORWARDED_ALLOW_IPS, $FORWARDED_ALLOW_IPS, o 127.0.0.1)",
        "en": "trusted proxies (comma-separated IPs or networks, or *): the client's address "
        "(X-Forwarded-For) and https (X-Forwarded-Proto) are taken from them "
        "(else $TRANQUE_FORWARDED_ALLOW_IPS, $FORWARDED_ALLOW_IPS, or 127.0.0.1)",
    },
    "opt_log_format": {
        "es": "formato de las líneas de registro: text (para leer en una terminal), json o logfmt "
        "(si no: $TRANQUE_LOG_FORMAT, o text)",
        "en": "the log lines' format: text (to read in a terminal), json or logfmt "
        "(else $TRANQUE_LOG_FORMAT, or text)",
    },
    "opt_access_log": {
        "es": "una línea de registro por cada petición HTTP (o $TRANQUE_ACCESS_LOG=1)",
        "en": "a log line for every HTTP request (or $TRANQUE_ACCESS_LOG=1)",
    },
    "opt_verify_file": {
        "es": "el registro de la partida (JSON: descargado del sitio o guardado con --record)",
        "en": "the game's record (JSON: downloaded from the site or saved with --record)",
    },
    "opt_preset": {"es": "modalidad: {presets}", "en": "preset: {presets}"},
    "opt_players": {
        "es": "número de jugadores, 2 a 6 (por defecto: el de la modalidad, 4 en clasico)",
        "en": "number of players, 2 to 6 (default: the preset's, 4 in clasico)",
    },
    "opt_mode": {
        "es": "pairs (por parejas) o individual (por defecto: por parejas si la modalidad lo permite)",
        "en": "pairs or individual (default: pairs where the preset allows them)",
    },
    "opt_target": {
        "es": "puntos para ganar la partida (por defecto: la meta de la modalidad)",
        "en": "points that win the game (default: the preset's target)",
    },
    "opt_bot": {"es": "nivel de los bots: {bots}", "en": "bot level: {bots}"},
    "opt_seat": {
        "es": "tu asiento, de 0 a N-1 (por parejas, tu compañero se sienta enfrente)",
        "en": "your seat, from 0 to N-1 (in pairs, your partner sits opposite)",
    },
    "opt_seed": {
        "es": "semilla: las mismas cifras con la misma semilla (por defecto: una al azar, que se muestra)",
        "en": "seed: the same figures for the same seed (default: a random one, shown)",
    },
    "opt_seed_play": {
        "es": "semilla de los repartos y los bots, para repetir una partida (por defecto: al azar)",
        "en": "seed for the deals and the bots, to replay a game (default: random)",
    },
    "opt_games": {"es": "cuántas partidas simular", "en": "how many games to simulate"},
    "opt_arena_bots": {
        "es": "dos niveles de bot: {bots}, o tu propia clase por su ruta, módulo:Clase "
        "(por defecto: {default})",
        "en": "two bot levels: {bots}, or your own class by its import path, module:Class "
        "(default: {default})",
    },
    "opt_arena_games": {
        "es": "repartos; cada uno se juega una vez en cada asiento",
        "en": "deals; each is played once in every seating",
    },
    "opt_arena_budget": {
        "es": "el primer bot, expert, busca con estos campos de su presupuesto cambiados, p. ej. "
        "samples=80,heavy_first_share=1 (campos: {fields})",
        "en": "the first bot, expert, searches with these fields of its budget changed, e.g. "
        "samples=80,heavy_first_share=1 (fields: {fields})",
    },
    "opt_arena_seed": {
        "es": "semilla de los repartos y de los bots",
        "en": "seed for the deals and the bots",
    },
    "opt_jobs": {"es": "procesos en paralelo", "en": "processes in parallel"},
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
    "arg_missing_command": {
        "es": "falta la orden: {commands} (tranque --help dice qué hace cada una)",
        "en": "missing command: {commands} (tranque --help says what each does)",
    },
    "arg_choice": {
        "es": "{option}: {value} no es válido; opciones: {choices}",
        "en": "{option}: {value} is not valid; choose from {choices}",
    },
    "arg_expected_value": {"es": "{option}: falta el valor", "en": "{option}: expected a value"},
    "arg_invalid": {"es": "{option}: valor no válido: {value}", "en": "{option}: invalid value: {value}"},
    "arg_other": {"es": "{option}: {message}", "en": "{option}: {message}"},
    "not_a_whole_number": {"es": "«{value}» no es un número entero", "en": "'{value}' is not a whole number"},
    "bad_env_lang": {
        "es": "TRANQUE_LANG: «{value}» no es un idioma; hay: {langs}",
        "en": "TRANQUE_LANG: '{value}' is not a language; there are: {langs}",
    },
    "bad_arena_bot_path": {"es": "bot no válido: {reason}", "en": "invalid bot: {reason}"},
    "bad_arena_bot": {
        "es": "no hay un bot «{bot}»; hay: {bots}",
        "en": "there is no bot '{bot}'; there are: {bots}",
    },
    "budget_field": {
        "es": "«{field}» no es un campo del presupuesto del experto; hay: {fields}",
        "en": "'{field}' is not a field of the expert's budget; there are: {fields}",
    },
    "budget_value": {
        "es": "{field}={value}: se espera {expected}",
        "en": "{field}={value}: expected {expected}",
    },
    "budget_expected_whole": {"es": "un número entero", "en": "a whole number"},
    "budget_expected_number": {"es": "un número", "en": "a number"},
    "budget_expected_at_least_one": {"es": "al menos 1", "en": "at least 1"},
    "budget_expected_not_negative": {"es": "0 o más", "en": "0 or more"},
    "budget_expected_share": {"es": "de 0 a 1", "en": "from 0 to 1"},
    "budget_expected_rollout": {"es": "greedy o blocking", "en": "greedy or blocking"},
    "budget_expected_time_limit": {
        "es": "segundos, más de 0, o None",
        "en": "seconds, more than 0, or None",
    },
    "budget_needs_expert": {
        "es": "--budget es para el experto: nombra primero a expert, no a «{bot}»",
        "en": "--budget is for the expert: name expert first, not '{bot}'",
    },
    "arena_two_bots": {
        "es": "indica dos niveles de bot, no {count}: elige entre {bots}",
        "en": "name two bot levels, not {count}: choose from {bots}",
    },
    "record_is_directory": {
        "es": "opción --record no válida: {file} es una carpeta",
        "en": "invalid --record: {file} is a directory",
    },
    "record_cannot_write": {
        "es": "opción --record no válida: no se puede escribir {file}: {reason}",
        "en": "invalid --record: cannot write {file}: {reason}",
    },
    "record_no_directory": {
        "es": "opción --record no válida: no existe la carpeta {directory}",
        "en": "invalid --record: there is no directory {directory}",
    },
    "bad_db_url": {
        "es": "opción --db no válida: «{url}» no es una URL de base de datos",
        "en": "invalid --db: '{url}' is not a database URL",
    },
    "bad_db_scheme": {
        "es": "opción --db no válida: no se conoce «{scheme}»; usa sqlite:///archivo.db, postgresql://… o memory://",
        "en": "invalid --db: '{scheme}' is not known; use sqlite:///file.db, postgresql://… or memory://",
    },
    "bad_db_directory": {
        "es": "opción --db no válida: no existe la carpeta {directory}",
        "en": "invalid --db: there is no directory {directory}",
    },
    "db_unreachable": {
        "es": "no se puede abrir la base de datos {url}: {reason}",
        "en": "cannot open the database {url}: {reason}",
    },
    "db_timeout": {
        "es": "la base de datos {url} no contesta en {seconds} s",
        "en": "the database {url} does not answer within {seconds} s",
    },
    "redis_unreachable": {
        "es": "no se puede usar Redis en {url}: {reason}",
        "en": "cannot use Redis at {url}: {reason}",
    },
    "redis_timeout": {
        "es": "Redis en {url} no contesta en {seconds} s",
        "en": "Redis at {url} does not answer within {seconds} s",
    },
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
    "no_permission": {"es": "no hay permiso", "en": "permission denied"},
    "read_only": {"es": "es de solo lectura", "en": "it is read-only"},
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
    "scoreboard_penalty": {
        "es": "Marcador (en contra: gana el total más bajo): {scores}",
        "en": "Score (penalty: the lowest total wins): {scores}",
    },
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
    "boneyard_count": {"es": "Pozo: {tiles}", "en": "Boneyard: {tiles}"},
    "no_boneyard": {"es": "Sin pozo: nadie roba", "en": "No boneyard: nobody draws"},
    "your_hand": {"es": "Tu mano: ", "en": "Your hand: "},
    # Moves
    "at_left": {"es": "a la izquierda", "en": "on the left"},
    "at_right": {"es": "a la derecha", "en": "on the right"},
    "at_equal_ends": {
        "es": "en el {end} (las dos puntas son iguales)",
        "en": "on the {end} (both ends are the same)",
    },
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
        "es": "¿En qué punta va el {tile}? i = izquierda ({left}), d = derecha ({right}), v = volver: ",
        "en": "Which end for {tile}? l = left ({left}), r = right ({right}), b = back: ",
    },
    "choose_again": {"es": "Elige otra jugada.", "en": "Choose another move."},
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
    "one_number": {
        "es": "Escribe un solo número de opción, no «{text}».",
        "en": "Type a single option number, not '{text}'.",
    },
    "not_understood": {
        "es": "No entiendo «{text}»: escribe el número de una opción, una ficha como 6-4 o 6-4i, "
        "o q para salir.",
        "en": "I don't understand '{text}': type an option's number, a tile like 6-4 or 6-4l, or q to quit.",
    },
    "action_not_offered": {
        "es": "Ahora no puedes {action}: elige una de las opciones.",
        "en": "You can't {action} now: pick one of the options.",
    },
    "not_your_tile": {"es": "No tienes la ficha {tile}.", "en": "You don't have the {tile}."},
    "tile_does_not_fit": {
        "es": "La ficha {tile} no se puede jugar ahora: elige una de las opciones.",
        "en": "The {tile} can't be played now: pick one of the options.",
    },
    "bad_end": {"es": "Escribe i (izquierda) o d (derecha).", "en": "Type l (left) or r (right)."},
    "wrong_end": {
        "es": "La ficha {tile} no pega {where} (ahí hay un {end}).",
        "en": "The {tile} doesn't fit {where} (that end shows {end}).",
    },
    "quit": {"es": "Partida abandonada. ¡Hasta la próxima!", "en": "Game abandoned. See you next time!"},
    "record_saved": {"es": "Partida guardada en {file}", "en": "Game saved to {file}"},
    "record_saved_last": {"es": "Última partida guardada en {file}", "en": "Last game saved to {file}"},
    "pass_points": {"es": "  +{palitos} para {who}", "en": "  +{palitos} for {who}"},
    "pass_points_first": {
        "es": "  +{palitos} para {who} (el primer pase que anota en la partida vale 2)",
        "en": "  +{palitos} for {who} (the game's first scoring pass is worth 2)",
    },
    "game_over_mid_round": {
        "es": "{who} llega a la meta con ese pase: la partida termina sin acabar la mano.",
        "en": "{who} reaches the target with that pass: the game ends before the round does.",
    },
    # Round and game ends
    "round_over": {"es": "Fin de la mano {number}: {headline}", "en": "End of round {number}: {headline}"},
    "domino": {"es": "¡Dominó! {who} se quedó sin fichas.", "en": "Dominó! {who} played their last tile."},
    "domino_you": {"es": "¡Dominó! Te quedaste sin fichas.", "en": "Dominó! You played your last tile."},
    "tranque_won": {
        "es": "¡Tranque! Nadie puede jugar; gana {who} con {pips} en la mano, la cuenta más baja.",
        "en": "Tranque! Nobody can play; {who} wins with {pips} in hand, the lowest count.",
    },
    "tranque_won_you": {
        "es": "¡Tranque! Nadie puede jugar; ganas tú con {pips} en la mano, la cuenta más baja.",
        "en": "Tranque! Nobody can play; you win with {pips} in hand, the lowest count.",
    },
    "tranque_tie_broken": {
        "es": "¡Tranque! Nadie puede jugar y la cuenta más baja empata a {pips}: gana {who}, "
        "quien salió o el más cercano después.",
        "en": "Tranque! Nobody can play and the lowest count is tied at {pips}: {who} wins, "
        "as the starter or the nearest after them.",
    },
    "tranque_tie": {
        "es": "¡Tranque empatado! Nadie puede jugar y las cuentas más bajas empatan: nadie anota.",
        "en": "Tied tranque! Nobody can play and the lowest counts tie: nobody scores.",
    },
    "tranque_tie_ponce": {
        "es": "¡Tranque empatado! Las cuentas más bajas empatan: nadie se lleva las fichas; "
        "solo cuentan los 2 palitos de quien trancó.",
        "en": "Tied tranque! The lowest counts tie: nobody takes the pips; only the blocker's "
        "2 palitos are scored.",
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
        "es": "la pareja ganadora se lleva los puntos de las otras {hands} manos, la del compañero incluida",
        "en": "the winning team takes the pips of the other {hands} hands, the partner's included",
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
    "ponce_passes": {"es": "{palitos} por pases", "en": "{palitos} from passes"},
    "ponce_blocker": {"es": "{palitos} por trancar", "en": "{palitos} for blocking"},
    "ponce_pips_domino": {
        "es": "{palitos} por los {pips} de las otras manos, redondeados a decenas",
        "en": "{palitos} for the {pips} in the other hands, rounded to tens",
    },
    "ponce_pips_tranque": {
        "es": "{palitos} por los {pips} de todas las manos, redondeados a decenas",
        "en": "{palitos} for the {pips} in all the hands, rounded to tens",
    },
    "ponce_nothing": {"es": "nadie anota palitos", "en": "nobody scores palitos"},
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
    "serve_cluster": {
        "es": "Procesos: {workers}, coordinados por Redis en {url}",
        "en": "Processes: {workers}, coordinated through Redis at {url}",
    },
    "workers_need_redis": {
        "es": "Con --workers {workers} los procesos se coordinan por Redis: indica --redis redis://…",
        "en": "With --workers {workers} the processes coordinate through Redis: give --redis redis://…",
    },
    "cluster_needs_postgres": {
        "es": "Varios procesos comparten una base PostgreSQL: indica --db postgresql://… (SQLite es "
        "para un solo proceso)",
        "en": "Several processes share one PostgreSQL database: give --db postgresql://… (SQLite is "
        "for one process)",
    },
    "bad_workers": {
        "es": "--workers debe estar entre 1 y {most}, no {workers}.",
        "en": "--workers must be between 1 and {most}, not {workers}.",
    },
    # Settings from a file and the environment (server/config.py, docs/configuration.md)
    "opt_serve_bot_level": {
        "es": "nivel de los bots que completan la partida rápida: {bots} (si no: $TRANQUE_BOT_LEVEL) "
        "(por defecto: heuristic)",
        "en": "level of the bots that fill quick-match seats: {bots} (else $TRANQUE_BOT_LEVEL) "
        "(default: heuristic)",
    },
    "opt_config": {
        "es": "archivo TOML de ajustes (si no: $TRANQUE_CONFIG); las variables TRANQUE_* y las "
        "opciones mandan sobre él (docs/configuration.md)",
        "en": "TOML settings file (else $TRANQUE_CONFIG); TRANQUE_* variables and options win over "
        "it (docs/configuration.md)",
    },
    "opt_print_config": {
        "es": "muestra en TOML los ajustes con que arrancaría (sin contraseñas) y sale",
        "en": "print the settings it would start with, as TOML (passwords hidden), and exit",
    },
    "config_kind_bool": {"es": "true o false", "en": "true or false"},
    "config_kind_int": {"es": "un número entero", "en": "a whole number"},
    "config_kind_float": {"es": "un número", "en": "a number"},
    "config_kind_str": {"es": "un texto entre comillas", "en": "a quoted text"},
    "config_kind_list": {"es": "una lista [..]", "en": "a list [..]"},
    "config_kind_table": {"es": "una tabla {..}", "en": "a table {..}"},
    "config_type": {
        "es": "{where}: se esperaba {expected}, no {value}",
        "en": "{where}: expected {expected}, not {value}",
    },
    "config_choice": {
        "es": "{where}: {value} no es uno de: {choices}",
        "en": "{where}: {value} is not one of: {choices}",
    },
    "config_at_least": {
        "es": "{where}: debe ser al menos {least}, no {value}",
        "en": "{where}: must be at least {least}, not {value}",
    },
    "config_above": {
        "es": "{where}: debe ser mayor que {least}, no {value}",
        "en": "{where}: must be more than {least}, not {value}",
    },
    "config_at_most": {
        "es": "{where}: debe ser a lo sumo {most}, no {value}",
        "en": "{where}: must be at most {most}, not {value}",
    },
    "config_between": {
        "es": "{where}: debe estar entre {least} y {most}, no {value}",
        "en": "{where}: must be between {least} and {most}, not {value}",
    },
    "config_unknown": {
        "es": "{where}: no es un ajuste de Tranque (docs/configuration.md)",
        "en": "{where}: not a Tranque setting (docs/configuration.md)",
    },
    "config_unknown_suggest": {
        "es": "{where}: no es un ajuste de Tranque; ¿quisiste decir {suggestion}?",
        "en": "{where}: not a Tranque setting; did you mean {suggestion}?",
    },
    "config_fixed": {
        "es": "{where}: este ajuste no se configura desde un archivo ni desde el entorno",
        "en": "{where}: this setting cannot be set from a file or the environment",
    },
    "config_not_table": {
        "es": "{where}: se esperaba una tabla [..] de ajustes, no {value}",
        "en": "{where}: expected a [..] table of settings, not {value}",
    },
    "config_syntax": {
        "es": "{where}: no es TOML válido: {reason}",
        "en": "{where}: not valid TOML: {reason}",
    },
    "config_unreadable": {
        "es": "{where}: no se puede leer el archivo de ajustes: {reason}",
        "en": "{where}: cannot read the settings file: {reason}",
    },
    "verify_site": {
        "es": "Partida del sitio: en cada mano, la semilla y la sal reveladas deben dar el compromiso "
        "publicado al repartir, y la semilla, el reparto.",
        "en": "A game from the site: in each round the revealed seed and salt must give the commitment "
        "published at the deal, and the seed the deal.",
    },
    "verify_local": {
        "es": "Partida de tranque play o simulate: no hay compromisos publicados; se comprueba que la "
        "semilla de cada mano da su reparto.",
        "en": "A game from tranque play or simulate: there are no published commitments; each round's "
        "seed must give its deal.",
    },
    "verify_round_ok": {"es": "Mano {number}: verificado", "en": "Round {number}: verified"},
    "verify_round_failed": {
        "es": "Mano {number}: NO verificado: {problems}",
        "en": "Round {number}: NOT verified: {problems}",
    },
    "verify_no_rounds": {
        "es": "El registro no tiene manos que verificar.",
        "en": "The record has no rounds to verify.",
    },
    "verify_moves_ok": {
        "es": "Jugadas: verificado: cada jugada, los puntos y los ganadores se reproducen como dice "
        "el registro",
        "en": "Moves: verified: every move, the scores and the winners replay as the record says",
    },
    "verify_moves_failed": {"es": "Jugadas: NO verificado: {reason}", "en": "Moves: NOT verified: {reason}"},
    "verify_day": {
        "es": "Reparto del día {day}: el compromiso y cada reparto, desde la semilla revelada.",
        "en": "Deal of the day {day}: the commitment and every deal, from the revealed seed.",
    },
    "verify_day_commitment": {
        "es": "La semilla NO da el compromiso del día.",
        "en": "The seed does NOT give the day's commitment.",
    },
    "verify_day_deal": {
        "es": "{mode}, mano {hand}: su compromiso NO sale de la semilla.",
        "en": "{mode}, hand {hand}: its commitment does NOT come from the seed.",
    },
    "verify_day_hands": {
        "es": "{mode}, mano {hand}: las fichas mostradas NO son las que da la semilla.",
        "en": "{mode}, hand {hand}: the tiles shown are NOT the ones the seed gives.",
    },
    "verify_day_ok": {
        "es": "Todo verificado: la semilla da el compromiso del día, cada reparto y cada mano.",
        "en": "All verified: the seed gives the day's commitment, every deal and every hand.",
    },
    "verify_day_not_revealed": {
        "es": "{file} es un día del reparto sin semilla: todavía no se ha revelado.",
        "en": "{file} is a day of the reparto with no seed: it has not been revealed yet.",
    },
    "verify_all_ok": {
        "es": "Todo verificado: los repartos son los de sus semillas y la partida se reproduce entera.",
        "en": "All verified: the deals are their seeds' and the whole game replays.",
    },
    "verify_failed": {
        "es": "Hay cosas que no se pudieron verificar.",
        "en": "Some things could not be verified.",
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
    "shared_wins_note": {
        "es": "Un empate reparte la partida: cuenta como ganada para cada uno, y la suma pasa del 100 %.",
        "en": "A tie shares the game: it counts as won for each, so the sum passes 100 %.",
    },
    # Arena
    "arena_playing": {"es": "Jugando", "en": "Playing"},
    "arena_title": {"es": "{first} contra {second}: {rules}", "en": "{first} against {second}: {rules}"},
    "arena_counted": {
        "es": "{games}, {rounds}; ganadas con IC 95% (Wilson)",
        "en": "{games}, {rounds}; won, with 95% CI (Wilson)",
    },
    "col_bot": {"es": "Bot", "en": "Bot"},
    "col_rounds_won": {"es": "Manos", "en": "Rounds"},
    "col_games_won": {"es": "Partidas", "en": "Games"},
    "col_points_per_round": {"es": "Pts/mano", "en": "Pts/round"},
    "col_p50_ms": {"es": "p50 ms", "en": "p50 ms"},
    "col_p99_ms": {"es": "p99 ms", "en": "p99 ms"},
    "arena_no_leader": {
        "es": "Ningún bot queda por encima del 50% de partidas con el IC 95%.",
        "en": "Neither bot stays above 50% of games with the 95% CI.",
    },
    "arena_leader": {
        "es": "{bot} queda por encima del 50% de partidas (IC 95%) desde la partida {games}.",
        "en": "{bot} stays above 50% of games (95% CI) from game {games} on.",
    },
    "arena_times": {"es": "Tiempo por jugada: CPU de un núcleo.", "en": "Time per move: CPU of one core."},
    # Analysis
    "opt_analyze_file": {
        "es": "el registro de la partida (JSON: de tranque play --record, tranque simulate --record o "
        "descargado del sitio)",
        "en": "the game's record (JSON: from tranque play --record, tranque simulate --record or "
        "downloaded from the site)",
    },
    "opt_analyze_seat": {
        "es": "analiza solo las decisiones de este asiento, de 0 a N-1 (por defecto: todos)",
        "en": "analyse only this seat's decisions, from 0 to N-1 (default: every seat)",
    },
    "opt_analyze_budget": {
        "es": "repartos de las fichas ocultas por decisión (la décima parte se resuelve exacta al final "
        "de la mano): más es más fino y más lento",
        "en": "deals of the hidden tiles per decision (a tenth of them solved exactly late in the "
        "round): more is finer and slower",
    },
    "opt_analyze_seed": {
        "es": "semilla de los repartos: la misma semilla da el mismo análisis",
        "en": "seed for the deals: the same seed gives the same analysis",
    },
    "opt_analyze_json": {"es": "escribe el análisis en JSON", "en": "print the analysis as JSON"},
    "analyzing": {"es": "Analizando", "en": "Analysing"},
    "analysis_title": {"es": "Análisis · {rules}", "en": "Analysis · {rules}"},
    "analysis_how": {
        "es": "Cada decisión se juzga solo con lo que sabía quien jugaba (su mano y lo jugado en la "
        "mesa): {deals} repartos de las fichas que no veía, semilla {seed}; todo reparto que cuadra con "
        "lo visto vale igual, sin suponer cómo juegan los demás. Las jugadas forzadas (una sola opción) "
        "no se juzgan.",
        "en": "Each decision is judged only by what its player knew (their hand and what was played): "
        "{deals} deals of the tiles they could not see, seed {seed}; every deal that fits what they saw "
        "counts alike, with no assumption about how the others play. Forced moves (a single option) "
        "are not judged.",
    },
    "analysis_worth": {
        "es": "Valor: lo que se espera que valga la jugada al final de la mano para el equipo de quien "
        "juega: sus puntos menos los de los demás, {bonus} más por ganar la mano (menos por perderla) "
        "y {target} más si gana la partida (menos si la pierde).",
        "en": "Worth: what the move is expected to be worth at the end of the round to the mover's "
        "team: its points less the others', {bonus} more for winning the round (less for losing it) "
        "and {target} more if it wins the game (less if it loses it).",
    },
    "analysis_classes": {
        "es": "Clases por lo que pierde la jugada frente a la mejor: precisa, menos de {inaccuracy}; "
        "imprecisión, desde {inaccuracy}; error, desde {error}.",
        "en": "Classes by what the move loses against the best: accurate, less than {inaccuracy}; "
        "inaccuracy, from {inaccuracy}; error, from {error}.",
    },
    "analysis_nothing": {
        "es": "No hay decisiones que juzgar: todas las jugadas fueron forzadas.",
        "en": "There are no decisions to judge: every move was forced.",
    },
    "analysis_was_best": {"es": " (la mejor)", "en": " (the best)"},
    "analysis_as_good": {
        "es": " (vale lo mismo que la mejor, {best})",
        "en": " (worth as much as the best, {best})",
    },
    "analysis_lost": {
        "es": ", pierde {loss}: {points} {unit} de esta mano (mejor: {best})",
        "en": ", loses {loss}: {points} {unit} of this round (best: {best})",
    },
    "analysis_unit_points": {"es": "puntos", "en": "points"},
    "analysis_unit_palitos": {"es": "palitos", "en": "palitos"},
    "analysis_unit_goals": {"es": "goles", "en": "goals"},
    "analysis_units": {
        "es": "Lo que pierde cada jugada se cuenta también en {unit} de la mano, para su equipo frente "
        "a los demás.",
        "en": "What each move loses is also given in {unit} of the round, for its side against the others.",
    },
    "analysis_model_note": {
        "es": "    Según cómo suelen jugar los demás: {verdict}, pierde {points} {unit} (mejor: {best})",
        "en": "    By how the others usually play: {verdict}, loses {points} {unit} (best: {best})",
    },
    "reason_missed_domino": {
        "es": "    Por qué: con {tile} dominabas seguro.",
        "en": "    Why: {tile} went out for sure.",
    },
    "reason_missed_winning_tranque": {
        "es": "    Por qué: {tile} trancaba el juego y el tranque lo ganaba tu equipo.",
        "en": "    Why: {tile} closed the game in a tranque your side won.",
    },
    "reason_closed_partner_number": {
        "es": "    Por qué: tapaste el {number}, que tu compañero había mostrado que lleva.",
        "en": "    Why: you covered the {number}, which your partner had shown they hold.",
    },
    "reason_ignored_pass": {
        "es": "    Por qué: el jugador {seat} había pasado al {number}; la mejor lo dejaba en la punta.",
        "en": "    Why: player {seat} had passed on the {number}; the best move kept it at an end.",
    },
    "reason_left_number_alone": {
        "es": "    Por qué: te quedaste con una ficha del {number} que ya no se puede jugar.",
        "en": "    Why: you were left with a tile of the {number} that can no longer be played.",
    },
    "reason_kept_heavy_into_tranque": {
        "es": "    Por qué: la mano se trancó en contra y aún tenías la {tile}, que la mejor soltaba.",
        "en": "    Why: the round ended in a tranque against you with the {tile} still in hand; the best "
        "move got rid of it.",
    },
    "mark_best": {"es": "mejor", "en": "best"},
    "mark_played": {"es": "jugada", "en": "played"},
    "verdict_accurate": {"es": "precisa", "en": "accurate"},
    "verdict_inaccuracy": {"es": "imprecisión", "en": "inaccuracy"},
    "verdict_error": {"es": "error", "en": "error"},
    "verdict_forced": {"es": "forzada", "en": "forced"},
    "accuracy_title": {"es": "Precisión por jugador", "en": "Accuracy by player"},
    "col_accurate": {"es": "Precisas", "en": "Accurate"},
    "col_inaccuracies": {"es": "Imprecisiones", "en": "Inaccuracies"},
    "col_errors": {"es": "Errores", "en": "Errors"},
    "col_forced": {"es": "Forzadas", "en": "Forced"},
    "col_mean_loss": {"es": "Pérdida\nmedia", "en": "Mean\nloss"},
    "col_accuracy": {"es": "Precisión", "en": "Accuracy"},
    "accuracy_note": {
        "es": "Precisión: la parte de las decisiones (las jugadas no forzadas) que fueron precisas. "
        "Pérdida media: lo que perdió cada decisión frente a la mejor, en promedio.",
        "en": "Accuracy: the share of the decisions (the unforced moves) that were accurate. Mean "
        "loss: what each decision lost against the best, on average.",
    },
    # `tranque admin grant NAME ROLE` (terminal/admin.py) ----------------------------------
    "help_admin": {
        "es": "administra el sitio: roles, tokens de admin, mesas, conexiones, expulsiones y procesos",
        "en": "run the site: roles, admin tokens, tables, connections, bans and processes",
    },
    "opt_admin_action": {"es": "acciones", "en": "actions"},
    "help_admin_grant": {
        "es": "da a una cuenta el rol de admin, moderator o player (en la base de datos)",
        "en": "give an account the role of admin, moderator or player (on the database)",
    },
    "help_admin_token": {
        "es": "crea un token de API para una cuenta admin y lo muestra una sola vez",
        "en": "make an API token for an admin account and show it once",
    },
    "help_admin_find": {
        "es": "busca cuentas por el comienzo del nombre: rol, sanciones y mesas",
        "en": "find accounts by the start of their name: role, sanctions and tables",
    },
    "help_admin_table": {
        "es": "una mesa o partida: estado, anfitrión y jugadores",
        "en": "a table or game: status, host and players",
    },
    "help_admin_log": {
        "es": "el registro completo de una mesa, con las manos (privado), en JSON",
        "en": "a table's whole event log, hands included (private), as JSON",
    },
    "help_admin_verify": {
        "es": "verifica los repartos y las jugadas de la última partida terminada de una mesa",
        "en": "check the deals and moves of a table's last finished game",
    },
    "help_admin_end": {
        "es": "termina una mesa atascada: la partida se anula y sus jugadores leen el motivo",
        "en": "end a stuck table: its game is annulled and its players read the reason",
    },
    "help_admin_close": {
        "es": "cierra todas las conexiones (WebSocket) de una cuenta, en todos los procesos",
        "en": "close every connection (WebSocket) of an account, on every process",
    },
    "help_admin_ban": {
        "es": "expulsa una cuenta (la sanción de moderación)",
        "en": "ban an account (the moderation sanction)",
    },
    "help_admin_unban": {"es": "levanta la expulsión de una cuenta", "en": "lift an account's ban"},
    "help_admin_processes": {
        "es": "los procesos del sitio y lo que tiene cada uno",
        "en": "the site's processes and what each one holds",
    },
    "help_admin_drain": {
        "es": "vacía un proceso: deja de recibir mesas y entrega las suyas",
        "en": "drain a process: it takes no new tables and hands its own over",
    },
    "opt_admin_site": {
        "es": "URL del sitio (si no: $TRANQUE_SITE, o {default})",
        "en": "the site's URL (else $TRANQUE_SITE, or {default})",
    },
    "opt_admin_prefix": {"es": "el comienzo del nombre", "en": "the start of the name"},
    "opt_admin_table": {"es": "el id de la mesa o de la partida", "en": "the table's or game's id"},
    "opt_admin_node": {"es": "el nombre del proceso", "en": "the process's name"},
    "opt_admin_reason": {
        "es": "el motivo (queda en el registro de moderación)",
        "en": "the reason (kept in the moderation log)",
    },
    "admin_not_admin": {
        "es": "«{name}» no es admin: dale el rol primero con «tranque admin grant {name} admin».",
        "en": "«{name}» is not an admin: give the role first with «tranque admin grant {name} admin».",
    },
    "admin_token_made": {
        "es": "Token de admin para «{name}» (guárdalo: no se vuelve a mostrar; el anterior ya no sirve):",
        "en": "Admin token for «{name}» (keep it: it is not shown again; the old one no longer works):",
    },
    "admin_no_token": {
        "es": "Falta el token: pon en $TRANQUE_ADMIN_TOKEN el que da «tranque admin token NOMBRE».",
        "en": "No token: put the one «tranque admin token NAME» gives in $TRANQUE_ADMIN_TOKEN.",
    },
    "admin_bad_site": {
        "es": "«{site}» no es una URL http:// o https://.",
        "en": "«{site}» is not an http:// or https:// URL.",
    },
    "admin_unreachable": {
        "es": "El sitio {site} no responde ({why}).",
        "en": "The site {site} does not answer ({why}).",
    },
    "admin_no_endpoint": {
        "es": "El sitio {site} no tiene esa función (¿una versión anterior?).",
        "en": "The site {site} does not offer that (an older release?).",
    },
    "admin_http_status": {"es": "El sitio respondió {status}.", "en": "The site answered {status}."},
    "admin_none_found": {
        "es": "Ninguna cuenta empieza por «{prefix}».",
        "en": "No account starts with «{prefix}».",
    },
    "admin_player_line": {
        "es": "{name} · rol {role} · sanción {standing} · mesas: {seats}",
        "en": "{name} · role {role} · sanction {standing} · tables: {seats}",
    },
    "admin_seat": {"es": "{table} (puesto {seat}, {phase})", "en": "{table} (seat {seat}, {phase})"},
    "admin_table_line": {
        "es": "Mesa {table} · {status} · {kind} · anfitrión {host} · jugadores {players}",
        "en": "Table {table} · {status} · {kind} · host {host} · players {players}",
    },
    "admin_log_private": {
        "es": "Privado: este registro muestra las manos de todos. No lo compartas.",
        "en": "Private: this log shows everybody's hands. Do not share it.",
    },
    "admin_verified": {
        "es": "Verificada: {rounds} manos, cada reparto y cada jugada cuadran.",
        "en": "Verified: {rounds} rounds, every deal and every move checks out.",
    },
    "admin_not_verified": {
        "es": "NO verificada ({rounds} manos):",
        "en": "NOT verified ({rounds} rounds):",
    },
    "admin_verify_failed": {"es": "la verificación falló.", "en": "the check failed."},
    "admin_ended": {
        "es": "Mesa {table} terminada: la partida quedó anulada y sus jugadores leen el motivo.",
        "en": "Table {table} ended: its game is annulled and its players read the reason.",
    },
    "admin_closed": {"es": "Conexiones de «{name}» cerradas.", "en": "«{name}»'s connections closed."},
    "admin_banned": {"es": "«{name}» quedó expulsado.", "en": "«{name}» is banned."},
    "admin_unbanned": {"es": "«{name}» ya no está expulsado.", "en": "«{name}» is no longer banned."},
    "admin_process_line": {
        "es": "{node}{this} · {tables} mesas · {replicas} réplicas · {sockets} conexiones · {draining}",
        "en": "{node}{this} · {tables} tables · {replicas} replicas · {sockets} sockets · {draining}",
    },
    "admin_draining": {"es": "vaciándose", "en": "draining"},
    "admin_serving": {"es": "atendiendo", "en": "serving"},
    "admin_drained": {"es": "El proceso {node} se está vaciando.", "en": "Process {node} is draining."},
    "opt_admin_name": {"es": "el nombre de la cuenta", "en": "the account's name"},
    "opt_admin_role": {"es": "admin, moderator o player", "en": "admin, moderator or player"},
    "admin_bad_role": {
        "es": "No hay un rol «{role}»: elige admin, moderator o player.",
        "en": "There is no role «{role}»: choose admin, moderator or player.",
    },
    "admin_no_account": {
        "es": "No hay ninguna cuenta llamada «{name}» en esa base de datos.",
        "en": "There is no account called «{name}» in that database.",
    },
    "admin_bot_account": {
        "es": "«{name}» es una cuenta de bot: un bot no modera.",
        "en": "«{name}» is a bot account: a bot does not moderate.",
    },
    "admin_memory_db": {
        "es": "Una base de datos en memoria no guarda roles: usa --db con la del sitio.",
        "en": "An in-memory database keeps no roles: pass the site's with --db.",
    },
    "admin_granted": {
        "es": "«{name}» ahora es {role} (antes: {before}).",
        "en": "«{name}» is now {role} (before: {before}).",
    },
    # `tranque migrate`, `tranque backup`, `tranque restore` (terminal/migrate.py, backup.py) ---
    "help_migrate": {
        "es": "lleva el esquema de la base de datos a la revisión de esta versión "
        "(con --check, solo dice dónde está)",
        "en": "bring the database's schema to this version's revision (with --check, "
        "only say where it stands)",
    },
    "opt_migrate_check": {
        "es": "no cambia nada: sale con 0 si la base está al día y con 1 si no",
        "en": "change nothing: exit 0 if the database is up to date, 1 if not",
    },
    "migrate_memory_db": {
        "es": "Una base de datos en memoria no tiene esquema que migrar ni copiar: "
        "usa --db con la del sitio.",
        "en": "An in-memory database has no schema to migrate or copy: pass the site's with --db.",
    },
    "migrate_at_head": {
        "es": "La base de datos {url} está al día: revisión {head}.",
        "en": "The database {url} is up to date: revision {head}.",
    },
    "migrate_behind": {
        "es": "La base de datos {url} está atrasada: revisión {current}, esta versión va en {head}; "
        "faltan {pending}. Corre: tranque migrate",
        "en": "The database {url} is behind: revision {current}, this version is at {head}; "
        "pending: {pending}. Run: tranque migrate",
    },
    "migrate_empty": {
        "es": "La base de datos {url} está vacía (no tiene el esquema de Tranque); esta versión va en "
        "{head}. Corre: tranque migrate",
        "en": "The database {url} is empty (it has no Tranque schema); this version is at {head}. "
        "Run: tranque migrate",
    },
    "migrate_no_file": {
        "es": "No hay base de datos en {path}; esta versión va en {head}. Corre: tranque migrate",
        "en": "There is no database at {path}; this version is at {head}. Run: tranque migrate",
    },
    "migrate_ahead": {
        "es": "La base de datos {url} está en la revisión {current}, que esta versión no conoce (llega "
        "hasta {head}): la migró una versión más nueva de Tranque. Instala esa versión; aquí no hay "
        "nada que migrar.",
        "en": "The database {url} is at revision {current}, which this version does not know (it goes "
        "up to {head}): a newer release of Tranque migrated it. Install that release; there is "
        "nothing to migrate here.",
    },
    "migrate_done": {
        "es": "Base de datos {url} migrada de {before} a {head} ({revisions}).",
        "en": "Database {url} migrated from {before} to {head} ({revisions}).",
    },
    "migrate_nothing": {
        "es": "La base de datos {url} ya estaba al día: revisión {head}.",
        "en": "The database {url} was already up to date: revision {head}.",
    },
    "migrate_none": {"es": "ninguna", "en": "none"},
    "opt_no_migrate": {
        "es": "no migra el esquema al arrancar: se niega a arrancar si la base está atrasada "
        "(si no: $TRANQUE_MIGRATE_AT_START=0; antes, tranque migrate)",
        "en": "do not migrate the schema at start: refuse to start on a database that is behind "
        "(else $TRANQUE_MIGRATE_AT_START=0; first, tranque migrate)",
    },
    "serve_schema_behind": {
        "es": "La base de datos está en la revisión {current} y esta versión en {head} (faltan "
        "{pending}), y la migración al arrancar está apagada: corre primero tranque migrate",
        "en": "The database is at revision {current} and this version at {head} (pending: "
        "{pending}), and migrating at start is off: run tranque migrate first",
    },
    "help_backup": {
        "es": "copia en caliente la base de datos SQLite del sitio a un archivo "
        "(aunque el sitio esté en marcha)",
        "en": "copy the site's SQLite database to a file, online (even while the site runs)",
    },
    "help_restore": {
        "es": "repone la base de datos SQLite del sitio desde una copia (con el sitio detenido)",
        "en": "put the site's SQLite database back from a copy (with the site stopped)",
    },
    "opt_backup_file": {"es": "el archivo de la copia", "en": "the copy's file"},
    "opt_restore_force": {
        "es": "reemplaza la base de datos si ya existe",
        "en": "replace the database if it exists",
    },
    "backup_done": {
        "es": "Copia guardada en {path} ({size} bytes, solo su dueño puede leerla): "
        "integridad ok, revisión {revision}.",
        "en": "Copy saved in {path} ({size} bytes, readable by its owner only): "
        "integrity ok, revision {revision}.",
    },
    "backup_exists": {
        "es": "Ya existe {path}: elige otro nombre para la copia (no se reemplaza ninguna).",
        "en": "{path} exists: choose another name for the copy (none is replaced).",
    },
    "backup_no_database": {
        "es": "No hay base de datos en {path}.",
        "en": "There is no database at {path}.",
    },
    "backup_no_directory": {
        "es": "No existe la carpeta {directory}.",
        "en": "There is no directory {directory}.",
    },
    "backup_same_file": {
        "es": "La copia y la base de datos son el mismo archivo: {path}.",
        "en": "The copy and the database are the same file: {path}.",
    },
    "backup_damaged": {
        "es": "La copia de {path} no pasó la revisión de integridad ({result}); no se guardó.",
        "en": "The copy of {path} failed the integrity check ({result}); it was not kept.",
    },
    "restore_not_tranque": {
        "es": "{path} no es una base de datos de Tranque ({reason}); no se repuso nada.",
        "en": "{path} is not a Tranque database ({reason}); nothing was put back.",
    },
    "restore_exists": {
        "es": "Ya hay una base de datos en {path}: agrega --force para reemplazarla por la copia.",
        "en": "There is a database at {path}: add --force to replace it with the copy.",
    },
    "restore_in_use": {
        "es": "La base de datos {path} está en uso (¿un servidor en marcha?): detenlo antes de reponerla.",
        "en": "The database {path} is in use (a server running?): stop it before putting it back.",
    },
    "restore_done": {
        "es": "Base de datos {path} repuesta desde {copy} (revisión {revision}, solo su dueño puede leerla).",
        "en": "Database {path} put back from {copy} (revision {revision}, readable by its owner only).",
    },
    "backup_postgres": {
        "es": "Con PostgreSQL, la copia la hacen sus propias herramientas (docs/deploy.md, «Backups»); "
        "la contraseña va en $PGPASSWORD o ~/.pgpass:",
        "en": "With PostgreSQL, its own tools make the copy (docs/deploy.md, «Backups»); the "
        "password goes in $PGPASSWORD or ~/.pgpass:",
    },
    # tranque tournament (terminal/tournament.py)
    "help_tournament": {
        "es": "torneos: simula uno entero entre bots, sin servidor",
        "en": "tournaments: simulate a whole one between bots, with no server",
    },
    "opt_tournament_action": {"es": "qué hacer", "en": "what to do"},
    "help_tournament_simulate": {
        "es": "juega un torneo entero con bots (sin servidor) y muestra cada ronda y la clasificación",
        "en": "play a whole tournament with bots (no server) and show each round and the standings",
    },
    "opt_tournament_format": {
        "es": "formato: minitorneo (eliminatoria), suizo, arena o duplicado",
        "en": "format: minitorneo (knock-out), suizo (Swiss), arena or duplicado (duplicate)",
    },
    "opt_tournament_entry": {
        "es": "modalidad: duel (uno contra uno), pairs (parejas fijas) "
        "o rotating (individual rotando compañero)",
        "en": "entry: duel (one against one), pairs (fixed pairs) "
        "or rotating (individual, rotating partners)",
    },
    "opt_tournament_entrants": {
        "es": "inscritos (con pairs, parejas; minitorneo: 4, 8 o 16)",
        "en": "entrants (with pairs, pairs; minitorneo: 4, 8 or 16)",
    },
    "opt_tournament_rounds": {
        "es": "rondas de un suizo o un duplicado (por defecto: {default})",
        "en": "rounds of a suizo or a duplicado (default: {default})",
    },
    "opt_tournament_bots": {
        "es": "bots separados por comas, repartidos por turno entre los inscritos; hay: {bots}",
        "en": "comma-separated bots, handed to the entrants in turn; there are: {bots}",
    },
    "opt_tournament_preset": {"es": "reglas de cada partida", "en": "each game's rules"},
    "opt_tournament_target": {
        "es": "meta de cada partida (por defecto: la de las reglas)",
        "en": "each game's target (default: the rules' own)",
    },
    "opt_tournament_hands": {
        "es": "manos por ronda de un duplicado",
        "en": "hands per round of a duplicado",
    },
    "opt_tournament_window": {
        "es": "minutos que dura una arena (en el reloj simulado)",
        "en": "minutes an arena lasts (on the simulated clock)",
    },
    "tournament_no_bots": {
        "es": "indica al menos un bot con --bots; hay: {bots}",
        "en": "name at least one bot with --bots; there are: {bots}",
    },
    "tournament_rounds_unused": {
        "es": "el formato {format} no tiene un número fijo de rondas: quita --rounds",
        "en": "the {format} format has no set number of rounds: leave out --rounds",
    },
    "tournament_simulated_name": {"es": "Torneo simulado", "en": "Simulated tournament"},
    "tournament_playing": {"es": "Jugando el torneo", "en": "Playing the tournament"},
    "tournament_heading": {
        "es": "Torneo simulado: {format}, {entry}, {entrants} inscritos\n"
        "{rules} · bots: {bots} · semilla {seed}",
        "en": "Simulated tournament: {format}, {entry}, {entrants} entrants\n"
        "{rules} · bots: {bots} · seed {seed}",
    },
    "tournament_entry_duel": {"es": "uno contra uno", "en": "one against one"},
    "tournament_entry_pairs": {"es": "parejas fijas", "en": "fixed pairs"},
    "tournament_entry_rotating": {
        "es": "individual rotando compañero",
        "en": "individual, rotating partners",
    },
    "tournament_cancelled": {
        "es": "El torneo se canceló: no hubo suficientes inscritos para empezar.",
        "en": "The tournament was called off: there were not enough entrants to start.",
    },
    "tournament_round": {"es": "Ronda {number}", "en": "Round {number}"},
    "tournament_arena_games": {"es": "Partidas de la arena", "en": "The arena's games"},
    "tournament_byes": {
        "es": "Descansa (cuenta como ganada): {names}",
        "en": "Bye (counts as a win): {names}",
    },
    "tournament_standings": {"es": "Clasificación final", "en": "Final standings"},
    "tournament_podium": {
        "es": "Podio: 1.º {first} · 2.º {second} · 3.º {third}",
        "en": "Podium: 1st {first} · 2nd {second} · 3rd {third}",
    },
    "col_board": {"es": "Mesa", "en": "Table"},
    "col_side_a": {"es": "Lado A", "en": "Side A"},
    "col_side_b": {"es": "Lado B", "en": "Side B"},
    "col_result": {"es": "Resultado", "en": "Result"},
    "mp": {"es": "pm", "en": "mp"},
    "col_place": {"es": "Puesto", "en": "Place"},
    "col_entrant": {"es": "Inscrito", "en": "Entrant"},
    "col_matchpoints": {"es": "Puntos de\nmatch", "en": "Match-\npoints"},
    "col_played": {"es": "PJ", "en": "P"},
    "col_wins": {"es": "G", "en": "W"},
    "col_losses": {"es": "P", "en": "L"},
    "col_efectividad": {"es": "Efectividad", "en": "Efectividad"},
    "col_points_for": {"es": "A favor", "en": "Points for"},
    "col_partners_tiebreak": {"es": "Desempate", "en": "Tie-break"},
}

# Nouns counted in messages: (singular, plural) in each language.
PLURALS: dict[str, dict[str, tuple[str, str]]] = {
    "tiles": {"es": ("ficha", "fichas"), "en": ("tile", "tiles")},
    "pips": {"es": ("punto", "puntos"), "en": ("pip", "pips")},
    "palitos": {"es": ("palito", "palitos"), "en": ("palito", "palitos")},
    "games": {"es": ("partida", "partidas"), "en": ("game", "games")},
    "rounds": {"es": ("mano", "manos"), "en": ("round", "rounds")},
}

# Small counts spelled out (feminine in Spanish: they count "manos").
NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    "es": ("cero", "una", "dos", "tres", "cuatro", "cinco", "seis"),
    "en": ("zero", "one", "two", "three", "four", "five", "six"),
}


def t(key: str, lang: str, **values: Any) -> str:
    """The message `key` in `lang` (Spanish when missing), formatted with `values`."""
    texts = MESSAGES[key]
    return texts.get(lang, texts[DEFAULT_LANG]).format(**values)


def plural(noun: str, count: int, lang: str) -> str:
    """`count` and the noun, singular for exactly one: "1 ficha", "0 fichas", "2 pips"."""
    forms = PLURALS[noun]
    singular, many = forms.get(lang, forms[DEFAULT_LANG])
    return f"{count} {singular if count == 1 else many}"


def number_word(count: int, lang: str) -> str:
    """A small count in words ("cinco", "five"); digits past six."""
    words = NUMBER_WORDS.get(lang, NUMBER_WORDS[DEFAULT_LANG])
    return words[count] if 0 <= count < len(words) else str(count)
