"""The catalogue of the server's refusals, in Spanish (the default) and English.

Every refusal the server sends, as a socket's `error` frame or as an HTTP body, is a `code`
a program branches on and its text in both languages: {"code", "message", "message_en"}.
An entry's key is its code, or ``code.case`` where one code answers several cases in other
words (``started.stand``): the case picks the text, the code alone goes out.

Texts have ``{name}`` fields filled from the refusal's parameters, as the engine's messages
are (`tranque.engine.messages`): a text parameter (a name, what a client sent) prints as it
is; anything else goes through the engine's `localize`, so an engine error reads as its own
text, `OneOf` as "a, b o c" and `Counted` and `Words` in the reader's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tranque.engine.messages import LANGUAGES, localize
from tranque.server import metrics

REFUSALS: Final[dict[str, dict[str, str]]] = {
    # A socket's message, at the door (ws/messages.py, ws/endpoint.py) --------------------------
    "rate_limited": {
        "es": "Estás enviando mensajes demasiado rápido; espera un momento.",
        "en": "You are sending messages too fast; wait a moment.",
    },
    "too_big": {
        "es": "El mensaje es demasiado grande (máximo {most} caracteres).",
        "en": "The message is too big (at most {most} characters).",
    },
    "bad_json": {"es": "El mensaje no es JSON válido.", "en": "The message is not valid JSON."},
    "bad_json.binary": {
        "es": "Envía mensajes de texto JSON, no binarios.",
        "en": "Send JSON text messages, not binary ones.",
    },
    "bad_message": {
        "es": "El mensaje debe ser un objeto JSON con «type».",
        "en": "The message must be a JSON object with a «type».",
    },
    "bad_message.missing": {
        "es": "Falta el campo «{field}»: debe ser {expected}.",
        "en": "The field «{field}» is missing: it must be {expected}.",
    },
    "bad_message.wrong": {
        "es": "El campo «{field}» debe ser {expected}.",
        "en": "The field «{field}» must be {expected}.",
    },
    "bad_message.extra": {
        "es": "Sobra el campo «{field}»: el mensaje «{type}» no lo lleva.",
        "en": "Leave out «{field}»: a «{type}» message has no such field.",
    },
    "bad_message.extra_unnamed": {
        "es": "Sobra un campo: el mensaje «{type}» no lo lleva.",
        "en": "Leave out the unknown field: a «{type}» message has no such field.",
    },
    "bad_message.extra_in_action": {
        "es": "Sobra el campo «{field}»: la jugada «{action}» no lo lleva.",
        "en": "Leave out «{field}»: a «{action}» action has no such field.",
    },
    "bad_message.extra_unnamed_in_action": {
        "es": "Sobra un campo: la jugada «{action}» no lo lleva.",
        "en": "Leave out the unknown field: a «{action}» action has no such field.",
    },
    "bad_message.table_or_invite": {
        "es": "Indica la mesa («table») o la invitación («invite»).",
        "en": "Say which table («table») or invitation («invite»).",
    },
    "unknown_type": {
        "es": "Tipo de mensaje desconocido: «{type}».",
        "en": "Unknown message type: «{type}».",
    },
    "unknown_type.unnamed": {"es": "Tipo de mensaje desconocido.", "en": "Unknown message type."},
    # A socket's command (ws/endpoint.py, commands.py, the table) -------------------------------
    "no_table": {
        "es": "Primero entra a una mesa (mensaje «hello»).",
        "en": "Join a table first (a «hello» message).",
    },
    "login_required": {"es": "Entra con tu cuenta para hacer esto.", "en": "Log in to do this."},
    "login_required.others": {
        "es": "Para jugar con otras personas entra con tu cuenta.",
        "en": "Log in to play with other people.",
    },
    "no_such_table": {
        "es": "Esa mesa no existe o ya terminó.",
        "en": "That table does not exist or its game is over.",
    },
    "bad_token": {
        "es": "Ese puesto ya no es tuyo o el enlace no es válido.",
        "en": "That seat is no longer yours, or the link is not valid.",
    },
    "private": {"es": "Esta mesa no admite espectadores.", "en": "This table takes no spectators."},
    "bad_invite": {"es": "Esa invitación no es válida.", "en": "That invitation is not valid."},
    "bad_invite.needed": {
        "es": "A esta mesa solo se entra con su invitación.",
        "en": "This table is joined only with its invitation.",
    },
    "spectator": {"es": "Los espectadores no pueden jugar.", "en": "Spectators cannot play."},
    "not_your_seat": {
        "es": "Ese puesto ya no es tuyo: vuelve a entrar a la mesa.",
        "en": "That seat is no longer yours: join the table again.",
    },
    "not_playing": {
        "es": "Ahora no se juega: espera la próxima mano.",
        "en": "There is no play now: wait for the next round.",
    },
    "not_playing.vote": {
        "es": "Solo se puede anular una partida en curso.",
        "en": "Only a game in progress can be annulled.",
    },
    "not_playing.abandon": {
        "es": "La partida no ha empezado: para irte, levántate de la mesa.",
        "en": "The game has not started: to go, leave your seat.",
    },
    "not_playing.over": {
        "es": "La partida ya terminó: en esta mesa ya no se juega.",
        "en": "The game is over: there is no more play at this table.",
    },
    "not_your_turn": {"es": "No es tu turno.", "en": "It is not your turn."},
    "abandoned": {
        "es": "Abandonaste esta partida: la máquina juega por ti hasta el final.",
        "en": "You abandoned this game: the machine plays for you until the end.",
    },
    "stale": {
        "es": "Esa jugada es de un turno que ya pasó.",
        "en": "That move is for a turn that is over.",
    },
    "illegal": {"es": "{cause}", "en": "{cause}"},  # the engine's own message (IllegalAction)
    "not_practice": {
        "es": "Las pistas son solo para las partidas de práctica contra la máquina.",
        "en": "Hints are only for practice games against the machine.",
    },
    "too_many_hints": {
        "es": "Ya usaste las {most} pistas de esta partida.",
        "en": "You have used this game's {most} hints.",
    },
    "too_many_hints.none": {
        "es": "Esta partida no da pistas: en el reparto del día todos juegan sin ayuda.",
        "en": "This game gives no hints: in el reparto del día everybody plays without help.",
    },
    "not_between_rounds": {
        "es": "Solo puedes decir «listo» entre manos.",
        "en": "You can say you are ready only between rounds.",
    },
    "unknown_phrase": {"es": "Esa frase no está en la lista.", "en": "That phrase is not in the list."},
    "too_fast": {
        "es": "Espera un momento antes de otra frase.",
        "en": "Wait a moment before another phrase.",
    },
    "bots_do_not_vote": {"es": "Los bots no votan.", "en": "Bots do not vote."},
    "rematch.not_over": {
        "es": "La revancha se pide cuando termina la partida.",
        "en": "A rematch is asked for once the game is over.",
    },
    "rematch.not_seated": {
        "es": "Solo quien juega en la mesa puede pedir la revancha.",
        "en": "Only someone playing at the table can ask for a rematch.",
    },
    "rematch.annulled": {
        "es": "La partida se anuló: para jugar otra, abre una mesa nueva.",
        "en": "The game was annulled: to play another, open a new table.",
    },
    "rematch.tournament": {
        "es": "En un torneo no hay revancha: la próxima partida la arma el torneo.",
        "en": "There is no rematch in a tournament: the tournament sets up the next game.",
    },
    "tournament_seats": {
        "es": "Los puestos de una mesa de torneo los asigna el torneo.",
        "en": "A tournament table's seats are assigned by the tournament.",
    },
    "started": {"es": "La partida ya empezó.", "en": "The game has started."},
    "started.no_seats": {
        "es": "La partida ya empezó: no quedan puestos.",
        "en": "The game has started: there are no seats left.",
    },
    "started.stand": {
        "es": "La partida ya empezó: no puedes levantarte.",
        "en": "The game has started: you cannot leave your seat.",
    },
    "already_seated": {
        "es": "Ya tienes un puesto en esta mesa.",
        "en": "You already have a seat at this table.",
    },
    "full": {"es": "La mesa está llena.", "en": "The table is full."},
    "no_such_seat": {
        "es": "La mesa tiene puestos del 0 al {last}.",
        "en": "The table's seats go from 0 to {last}.",
    },
    "seat_taken": {"es": "Ese puesto ya está ocupado.", "en": "That seat is taken."},
    "not_seated": {"es": "No estás sentado en esta mesa.", "en": "You have no seat at this table."},
    "not_host": {
        "es": "Solo quien creó la mesa puede llamar bots.",
        "en": "Only whoever created the table can call in bots.",
    },
    "unknown_bot": {"es": "No hay un bot «{level}».", "en": "There is no «{level}» bot."},
    "unknown_bot.listed": {
        "es": "No hay un bot «{level}»; hay: {levels}.",
        "en": "There is no «{level}» bot; the bots are: {levels}.",
    },
    "no_game": {"es": "La partida no ha empezado.", "en": "The game has not started."},
    "too_many_games": {
        "es": "Ya tienes {games} en curso; termina o anula alguna antes de empezar otra.",
        "en": "You already have {games} in progress; finish or annul one before starting another.",
    },
    "too_many_games.quick": {
        "es": "Ya tienes {games} en curso; termina o anula alguna antes de buscar otra.",
        "en": "You already have {games} in progress; finish or annul one before looking for another.",
    },
    "too_many_games.address": {
        "es": "Desde tu conexión ya hay {games} en curso; terminen o anulen alguna antes de empezar otra.",
        "en": "There are already {games} in progress from your connection; "
        "finish or annul one before starting another.",
    },
    "table_moved": {
        "es": "La mesa está pasando a otro servidor; inténtalo de nuevo en un momento.",
        "en": "The table is moving to another server; try again in a moment.",
    },
    "unavailable": {
        "es": "El servidor no alcanza la base de datos; la mesa espera y sigue sola en cuanto vuelva.",
        "en": "The server cannot reach its database; the table waits and goes on by itself "
        "as soon as it is back.",
    },
    "internal": {
        "es": "Algo falló en la mesa; inténtalo de nuevo.",
        "en": "Something went wrong at the table; try again.",
    },
    # HTTP requests (http/errors.py, accounts.py, http/api.py, http/tables.py, ...) --------
    "bad_json.body": {
        "es": "El cuerpo de la petición no es JSON válido.",
        "en": "The request body is not valid JSON.",
    },
    "bad_request": {
        "es": "El cuerpo de la petición debe ser un objeto JSON.",
        "en": "The request body must be a JSON object.",
    },
    "bad_request.missing": {"es": "Falta «{field}».", "en": "«{field}» is missing."},
    "bad_request.text": {"es": "«{field}» debe ser texto.", "en": "«{field}» must be a string."},
    "bad_request.whole_number": {
        "es": "«{field}» debe ser un número entero.",
        "en": "«{field}» must be a whole number.",
    },
    "bad_request.boolean": {
        "es": "«{field}» debe ser true o false.",
        "en": "«{field}» must be true or false.",
    },
    "bad_request.too_long": {"es": "«{field}» es demasiado largo.", "en": "«{field}» is too long."},
    "bad_request.invalid": {"es": "«{field}» no es válido.", "en": "«{field}» is not valid."},
    "json_required": {
        "es": "Envía los datos como JSON (Content-Type: application/json).",
        "en": "Send the data as JSON (Content-Type: application/json).",
    },
    "cross_origin": {
        "es": "Petición rechazada: viene de otro sitio.",
        "en": "Request refused: it comes from another site.",
    },
    # GET /metrics with `Settings.metrics_token` set (http/health.py)
    "metrics_token": {
        "es": "Las métricas piden el token de métricas (Authorization: Bearer …).",
        "en": "The metrics need the metrics token (Authorization: Bearer …).",
    },
    "metrics_token.wrong": {
        "es": "Ese no es el token de métricas.",
        "en": "That is not the metrics token.",
    },
    "bad_name": {
        "es": "El nombre lleva de 3 a 24 caracteres: letras, cifras, guion bajo (_), guion (-) o punto.",
        "en": "A name has 3 to 24 characters: letters, digits, underscore (_), hyphen (-) or dot.",
    },
    "bad_password": {
        "es": "La contraseña debe tener al menos {least} caracteres (y no más de {most}).",
        "en": "The password must have at least {least} characters (and at most {most}).",
    },
    "password_is_name": {
        "es": "La contraseña no puede ser tu nombre. Usa una frase de varias palabras que solo tú conozcas.",
        "en": "The password cannot be your name. Use a phrase of several words only you know.",
    },
    "weak_password": {
        "es": "Esa contraseña es de las más usadas o muy fácil de adivinar. "
        "Usa una frase de varias palabras que solo tú conozcas.",
        "en": "That password is one of the most used or very easy to guess. "
        "Use a phrase of several words only you know.",
    },
    "name_taken": {
        "es": "Ese nombre ya está en uso; elige otro.",
        "en": "That name is taken; choose another.",
    },
    "name_confusable": {
        "es": "Ese nombre se confunde con «{similar}»; elige otro.",
        "en": "That name is easily mistaken for «{similar}»; choose another.",
    },
    "too_many_registrations": {
        "es": "Desde tu conexión se han creado demasiadas cuentas; vuelve a intentarlo dentro de una hora.",
        "en": "Too many accounts have been created from your connection; try again in an hour.",
    },
    "wrong_login": {"es": "Nombre o contraseña incorrectos.", "en": "Wrong name or password."},
    "too_many_attempts": {
        "es": "Demasiados intentos; espera un minuto y vuelve a probar.",
        "en": "Too many attempts; wait a minute and try again.",
    },
    "bad_rules": {"es": "{cause}", "en": "{cause}"},  # the engine's own message (RulesError)
    "bad_rules.target": {
        "es": "{title} con {players} jugadores se juega a {choices}, no a {target}: elige una de esas metas.",
        "en": "{title} with {players} players is played to {choices}, not {target}: "
        "choose one of those targets.",
    },
    "bad_rules.only_target": {
        "es": "{title} con {players} jugadores se juega a {choices}, no a {target}: "
        "elige esa meta, o no indiques ninguna.",
        "en": "{title} with {players} players is played to {choices}, not {target}: "
        "choose that target, or give none.",
    },
    "no_record": {
        "es": "Esa partida no existe o no ha terminado.",
        "en": "That game does not exist or is not over.",
    },
    "no_such_game": {
        "es": "Esa partida no existe o no la puedes ver.",
        "en": "That game does not exist or you cannot see it.",
    },
    "not_a_record": {
        "es": "Eso no es un registro de partida de Tranque: envía el que da "
        "GET /api/tables/{{id}}/record al terminar la partida.",
        "en": "That is not a Tranque game record: send the one "
        "GET /api/tables/{{id}}/record gives when the game is over.",
    },
    "too_many_rounds": {
        "es": "El registro tiene {rounds} manos y aquí se verifican hasta {most}; "
        "verifica uno más largo en tu computador con «tranque verify ARCHIVO».",
        "en": "The record has {rounds} rounds and up to {most} are checked here; "
        "check a longer one on your own computer with `tranque verify FILE`.",
    },
    "verify_busy": {
        "es": "Ya se está verificando un registro tuyo; espera su respuesta antes de enviar otro.",
        "en": "A record of yours is being checked; wait for its answer before sending another.",
    },
    "verify_busy.all": {
        "es": "El verificador está ocupado con otros registros; vuelve a intentarlo en unos segundos.",
        "en": "The checker is busy with other records; try again in a few seconds.",
    },
    "analysis_pending": {
        "es": "Ya tienes un análisis en curso; espera a que termine antes de pedir otro.",
        "en": "An analysis of yours is under way; wait for it to finish before asking for another.",
    },
    "analysis_limit": {
        "es": "Ya pediste {analyses} en las últimas 24 horas; vuelve a intentarlo mañana.",
        "en": "You have asked for {analyses} in the last 24 hours; try again tomorrow.",
    },
    "analysis_busy": {
        "es": "El analizador está ocupado con otras partidas; vuelve a intentarlo en unos minutos.",
        "en": "The analyser is busy with other games; try again in a few minutes.",
    },
    # «La suerte del reparto» (http/luck.py) ----------------------------------------------------
    "luck_round_not_over": {
        "es": "Esa mano todavía se está jugando: lo que daba el reparto se ve cuando termine.",
        "en": "That hand is still being played: what the deal gave shows once it is over.",
    },
    "luck_no_round": {
        "es": "Esa mano no se ha repartido en esta mesa.",
        "en": "That hand has not been dealt at this table.",
    },
    "luck_hidden": {
        "es": "Los repartos de esta mesa siguen ocultos (se juegan en otras mesas del torneo); "
        "vuelve cuando se revelen.",
        "en": "This table's deals are still hidden (other tables of the tournament are playing them); "
        "come back once they are revealed.",
    },
    "luck_failed": {
        "es": "No pudimos calcular lo que daba esa mano.",
        "en": "What that hand's deal gave could not be worked out.",
    },
    "luck_busy": {
        "es": "Estamos calculando muchas manos a la vez; vuelve a intentarlo en unos segundos.",
        "en": "Many hands are being worked out at once; try again in a few seconds.",
    },
    "too_many_tables": {
        "es": "Ya tienes {tables} esperando jugadores; complétalas con bots "
        "o espera a que se llenen antes de crear otra.",
        "en": "You already have {tables} waiting for players; fill them with bots "
        "or wait for them to fill before creating another.",
    },
    "bad_ranking.by": {
        "es": "La clasificación es por {choices}, no por «{by}».",
        "en": "Rankings are by {choices}, not by «{by}».",
    },
    "bad_ranking.period": {
        "es": "El periodo de la clasificación es {choices}, no «{period}».",
        "en": "The ranking's period is {choices}, not «{period}».",
    },
    "bad_ranking.pool": {
        "es": "La clasificación por rating es de {choices}, no de «{pool}».",
        "en": "The rating ranking is of {choices}, not of «{pool}».",
    },
    "no_such_player": {
        "es": "No hay ningún jugador llamado «{name}».",
        "en": "There is no player called «{name}».",
    },
    "bad_avatar": {
        "es": "No hay un avatar «{avatar}»; escoge uno de la lista.",
        "en": "There is no avatar «{avatar}»; choose one from the list.",
    },
    "body_too_big": {
        "es": "La petición pasa de {size}, lo más que se admite aquí; envía menos datos.",
        "en": "The request is over {size}, the most accepted here; send less data.",
    },
    "body_timeout": {
        "es": "La petición tardó más de {seconds} s en llegar; vuelve a enviarla.",
        "en": "The request took over {seconds} s to arrive; send it again.",
    },
    "headers_too_big": {
        "es": "Las cabeceras de la petición pasan de {size}; envía menos (o borra las cookies del sitio).",
        "en": "The request's headers are over {size}; send fewer (or clear the site's cookies).",
    },
    "headers_timeout": {
        "es": "Las cabeceras de la petición tardaron más de {seconds} s en llegar; vuelve a enviarla.",
        "en": "The request's headers took over {seconds} s to arrive; send it again.",
    },
    # Friends and blocks (players/friends.py, http/friends.py) ------------------------------------
    "friend_self": {
        "es": "No puedes agregarte a ti mismo como amigo.",
        "en": "You cannot add yourself as a friend.",
    },
    "friend_blocked": {
        "es": "No puedes enviarle una solicitud de amistad a «{name}».",
        "en": "You cannot send «{name}» a friend request.",
    },
    "friend_blocked.yours": {
        "es": "Tienes bloqueado a «{name}»; desbloquéalo antes de agregarlo.",
        "en": "You have blocked «{name}»; unblock them before adding them.",
    },
    "already_friends": {"es": "«{name}» ya es tu amigo.", "en": "«{name}» is already your friend."},
    "already_friends.asked": {
        "es": "Ya le enviaste una solicitud a «{name}»; espera su respuesta.",
        "en": "You already sent «{name}» a request; wait for their answer.",
    },
    "no_friend_request": {
        "es": "«{name}» no te ha enviado una solicitud de amistad.",
        "en": "«{name}» has not sent you a friend request.",
    },
    "not_friends": {
        "es": "«{name}» no está entre tus amigos ni tus solicitudes.",
        "en": "«{name}» is not among your friends or requests.",
    },
    "not_friends.invite": {
        "es": "Solo puedes invitar a tus amigos, y «{name}» no está entre ellos.",
        "en": "You can only invite your friends, and «{name}» is not one of them.",
    },
    "block_self": {"es": "No puedes bloquearte a ti mismo.", "en": "You cannot block yourself."},
    "not_blocked": {"es": "No tienes bloqueado a «{name}».", "en": "You have not blocked «{name}»."},
    "invite_not_seated": {
        "es": "Solo puedes invitar a una mesa en la que estás sentado y que no ha terminado.",
        "en": "You can only invite to a table you sit at that is not over.",
    },
    # Limits on friend requests and invitations (players/social_limits.py) ---------------------
    "too_many_friend_requests": {
        "es": "Ya enviaste {count} solicitudes de amistad en la última hora; vuelve a intentarlo {later}.",
        "en": "You have sent {count} friend requests in the last hour; try again {later}.",
    },
    "too_many_pending_requests": {
        "es": "Tienes {count} solicitudes de amistad sin respuesta; espera a que te contesten "
        "o cancela alguna antes de enviar otra.",
        "en": "You have {count} friend requests without an answer; wait for answers "
        "or cancel one before sending another.",
    },
    "friend_requests_full": {
        "es": "«{name}» tiene demasiadas solicitudes de amistad sin responder; inténtalo más tarde.",
        "en": "«{name}» has too many friend requests waiting for an answer; try later.",
    },
    "friend_request_repeated": {
        "es": "Ya le enviaste {count} solicitudes a «{name}» en las últimas 24 horas; "
        "podrás enviarle otra {later}.",
        "en": "You have sent «{name}» {count} requests in the last 24 hours; you may send another {later}.",
    },
    "too_many_invites": {
        "es": "Ya enviaste {count} invitaciones en el último minuto; espera un momento.",
        "en": "You have sent {count} invitations in the last minute; wait a moment.",
    },
    # Fair turns in the analysis queue (http/analysis.py) ----------------------------------------
    "analysis_pending_place": {
        "es": "Desde tu conexión ya hay {analyses} en curso; espera a que termine alguno "
        "antes de pedir otro.",
        "en": "There are already {analyses} under way asked for from your connection; "
        "wait for one to finish before asking for another.",
    },
    # Bot accounts (http/bot_accounts.py, ws/endpoint.py) ---------------------------------------
    "bots_not_accepted": {
        "es": "Esta mesa es para personas: un bot solo se sienta en mesas que aceptan bots "
        "o en la partida rápida de bots.",
        "en": "This table is for people: a bot only sits at tables that accept bots "
        "or in the bots' quick match.",
    },
    "too_many_bots": {
        "es": "Ya tienes {bots}; no puedes crear más.",
        "en": "You already have {bots}; you cannot make more.",
    },
    "no_such_bot": {
        "es": "No tienes ningún bot que se llame «{name}».",
        "en": "You have no bot called «{name}».",
    },
    "bot_not_allowed": {
        "es": "Una cuenta de bot no puede hacer esto: juega con su token por el WebSocket.",
        "en": "A bot account cannot do this: it plays with its token over the WebSocket.",
    },
    "invite_closed": {
        "es": "A esta mesa no puede entrar nadie más: es de práctica o de partida rápida.",
        "en": "Nobody else can join this table: it is a practice or quick match table.",
    },
    # Moderation: reports, the moderators' API, sanctions (http/reports.py, http/moderation.py,
    # http/accounts.py's login, ws/endpoint.py's phrases) ------------------------------------------
    "bad_report_reason": {
        "es": "Elige el motivo del reporte: {reasons}.",
        "en": "Choose the report's reason: {reasons}.",
    },
    "report_note_too_long": {
        "es": "La nota del reporte es muy larga (máximo {most} caracteres).",
        "en": "The report's note is too long (at most {most} characters).",
    },
    "report_self": {"es": "No te puedes reportar a ti mismo.", "en": "You cannot report yourself."},
    "report_bot": {
        "es": "Los bots no se reportan: si un bot juega mal, avísale a su dueño.",
        "en": "Bots are not reported: if a bot misbehaves, tell its owner.",
    },
    "report_no_game": {
        "es": "No jugaste esa partida con esa persona.",
        "en": "You did not play that game with that person.",
    },
    "too_many_reports": {
        "es": "Ya hiciste {most} reportes hoy; vuelve a intentarlo mañana.",
        "en": "You have made {most} reports today; try again tomorrow.",
    },
    "already_reported": {
        "es": "Ya reportaste a «{name}» por esto; los moderadores lo van a revisar.",
        "en": "You have already reported «{name}» for this; the moderators will look into it.",
    },
    "not_a_moderator": {
        "es": "Esta página es solo para moderadores.",
        "en": "This page is for moderators only.",
    },
    "unknown_process": {
        "es": "No hay ningún proceso en marcha llamado «{node}».",
        "en": "No running process is called «{node}».",
    },
    "bad_sanction": {"es": "La sanción debe ser {kinds}.", "en": "The sanction must be {kinds}."},
    "sanction_reason_missing": {
        "es": "Escribe el motivo: queda en el registro.",
        "en": "Write the reason: it goes into the log.",
    },
    "sanction_minutes": {
        "es": "Di cuántos minutos dura (de 1 a {most}).",
        "en": "Say how many minutes it lasts (1 to {most}).",
    },
    "sanction_self": {"es": "No te puedes sancionar a ti mismo.", "en": "You cannot sanction yourself."},
    "sanction_moderator": {
        "es": "«{name}» es moderador: primero quítale el rol con «tranque admin grant».",
        "en": "«{name}» is a moderator: take the role away first with «tranque admin grant».",
    },
    "no_such_sanction": {"es": "No existe esa sanción.", "en": "There is no such sanction."},
    "sanction_lifted": {
        "es": "Esa sanción ya se había levantado.",
        "en": "That sanction was lifted already.",
    },
    "no_such_item": {"es": "No existe ese aviso en la cola.", "en": "There is no such item in the queue."},
    "item_closed": {"es": "Ese aviso ya estaba cerrado.", "en": "That item was closed already."},
    # The operator's admin tools (http/admin.py) ---------------------------------------------
    "not_an_admin": {
        "es": "Esto es solo para administradores del sitio.",
        "en": "This is for the site's administrators only.",
    },
    "bad_admin_token": {
        "es": "Ese token de administrador no sirve: crea otro con «tranque admin token».",
        "en": "That admin token does not work: make a new one with «tranque admin token».",
    },
    "already_over": {
        "es": "La partida de esa mesa ya terminó: no hay nada que anular.",
        "en": "That table's game is over already: there is nothing to annul.",
    },
    "no_such_game_or_table": {
        "es": "No hay ninguna mesa ni partida «{id}».",
        "en": "There is no table or game «{id}».",
    },
    "not_banned": {
        "es": "«{name}» no tiene ninguna expulsión vigente.",
        "en": "«{name}» has no ban in force.",
    },
    "account_suspended": {
        "es": "Tu cuenta está suspendida hasta el {until}.",
        "en": "Your account is suspended until {until}.",
    },
    "account_banned": {
        "es": "Tu cuenta fue expulsada de Tranque por los moderadores.",
        "en": "Your account was banned from Tranque by the moderators.",
    },
    "account_muted": {
        "es": "Los moderadores te silenciaron hasta el {until}: tus frases no le llegan a nadie.",
        "en": "The moderators muted you until {until}: your phrases reach nobody.",
    },
    "account_muted.forever": {
        "es": "Los moderadores te silenciaron: tus frases no le llegan a nadie.",
        "en": "The moderators muted you: your phrases reach nobody.",
    },
    # Tournaments: the service and its API (tournaments/service.py, http/tournaments.py) ---------
    "tournament_not_found": {"es": "Ese torneo no existe.", "en": "That tournament does not exist."},
    "tournament_barred": {
        "es": "Hasta el {until} no puedes inscribirte en torneos con asistencia obligatoria: "
        "te retiraron de un torneo por no presentarte a tus partidas.",
        "en": "Until {until} you cannot enter tournaments that require attendance: you were "
        "withdrawn from a tournament for missing your games.",
    },
    "tournament_busy": {
        "es": "El torneo está cambiando en este momento; vuelve a intentarlo.",
        "en": "The tournament is changing right now; try again.",
    },
    "bad_tournament_list": {
        "es": "No hay una lista de torneos «{status}»: pide upcoming, live o finished.",
        "en": "There is no «{status}» list of tournaments: ask for upcoming, live or finished.",
    },
    # The server's loop and places (accounts/password_checks.py, http/accounts.py, ws/endpoint.py)
    "weak_password.unchecked": {
        "es": "No alcanzamos a evaluar esa contraseña. Usa una frase de varias palabras "
        "que solo tú conozcas.",
        "en": "We could not assess that password in time. Use a phrase of several words only you know.",
    },
    "password_check_busy": {
        "es": "Ahora mismo se están creando muchas cuentas; vuelve a intentarlo en unos segundos.",
        "en": "Many accounts are being created right now; try again in a few seconds.",
    },
    "too_many_attempts.account": {
        "es": "Ha habido muchos intentos fallidos con esa cuenta; espera {seconds} s y vuelve "
        "a probar, o entra desde un dispositivo donde ya hayas entrado antes.",
        "en": "There have been many failed attempts on that account; wait {seconds} s and try "
        "again, or log in from a device you have logged in from before.",
    },
    "too_many_sockets": {
        "es": "Desde tu conexión ya hay {most} conexiones abiertas con Tranque; cierra alguna "
        "pestaña y vuelve a intentarlo.",
        "en": "Your connection already has {most} connections open to Tranque; close a tab and try again.",
    },
    # Tournaments (tournaments/config.py, machine.py) ------------------------------------------
    "tournament_config.body": {
        "es": "La configuración del torneo debe ser un objeto JSON.",
        "en": "The tournament's configuration must be a JSON object.",
    },
    "tournament_config.unknown": {
        "es": "Un torneo no tiene el campo «{name}».",
        "en": "A tournament has no field «{name}».",
    },
    "tournament_config.pena_id": {
        "es": "«pena_id» es el número de una peña, o null.",
        "en": "«pena_id» is the number of a peña, or null.",
    },
    "tournament_config.name": {
        "es": "El nombre del torneo lleva de 3 a 60 caracteres.",
        "en": "A tournament's name has 3 to 60 characters.",
    },
    "tournament_config.format": {
        "es": "El formato del torneo es minitorneo, suizo, arena o duplicado.",
        "en": "A tournament's format is minitorneo, suizo, arena or duplicado.",
    },
    "tournament_config.entry": {
        "es": "Se juega uno contra uno (duel), por parejas fijas (pairs) "
        "o individual rotando compañero (rotating).",
        "en": "Play is one against one (duel), in fixed pairs (pairs) or individually "
        "with rotating partners (rotating).",
    },
    "tournament_config.entry_format": {
        "es": "Un torneo {format} se juega {entries}.",
        "en": "A {format} tournament is played {entries}.",
    },
    "tournament_config.size": {
        "es": "El torneo admite de {least} a {most} inscritos.",
        "en": "The tournament takes {least} to {most} entrants.",
    },
    "tournament_config.size_knockout": {
        "es": "Un minitorneo es de 4, 8 o 16 inscritos.",
        "en": "A minitorneo has 4, 8 or 16 entrants.",
    },
    "tournament_config.preset": {
        "es": "Con esta forma de juego las reglas pueden ser {presets}.",
        "en": "With this way of playing the rules may be {presets}.",
    },
    "tournament_config.entry_fichas": {
        "es": "La entrada en fichas va de 0 a 1000000 fichas («entry_fichas»).",
        "en": "The entry in fichas goes from 0 to 1000000 fichas («entry_fichas»).",
    },
    "tournament_config.target": {
        "es": "La meta de cada partida va de 1 a 1000 puntos.",
        "en": "Each game's target goes from 1 to 1000 points.",
    },
    "tournament_config.turn_seconds": {
        "es": "El tiempo por jugada es de {choices} segundos.",
        "en": "The time per move is {choices} seconds.",
    },
    "tournament_config.rules": {"es": "{cause}", "en": "{cause}"},  # the engine's own message
    "tournament_config.rounds": {
        "es": "Un suizo o un duplicado se juega de 1 a 20 rondas.",
        "en": "A suizo or a duplicado is played over 1 to 20 rounds.",
    },
    "tournament_config.rounds_unused": {
        "es": "Solo el suizo y el duplicado fijan las rondas: quita «rounds».",
        "en": "Only a suizo and a duplicado set their rounds: leave out «rounds».",
    },
    "tournament_config.hands": {
        "es": "Cada ronda de un duplicado es de 1 a 16 manos.",
        "en": "Each round of a duplicado has 1 to 16 hands.",
    },
    "tournament_config.window": {
        "es": "Una arena dura de 60 segundos a 24 horas («window_seconds»).",
        "en": "An arena lasts from 60 seconds to 24 hours («window_seconds»).",
    },
    "tournament_config.window_unused": {
        "es": "Solo la arena tiene duración: quita «window_seconds».",
        "en": "Only an arena has a duration: leave out «window_seconds».",
    },
    "tournament_config.round_every": {
        "es": "Las rondas programadas van cada 60 segundos a 24 horas («round_every_seconds»).",
        "en": "Scheduled rounds are 60 seconds to 24 hours apart («round_every_seconds»).",
    },
    "tournament_config.round_every_unused": {
        "es": "Una arena no tiene rondas: quita «round_every_seconds».",
        "en": "An arena has no rounds: leave out «round_every_seconds».",
    },
    "tournament_config.game_cap": {
        "es": "El tiempo máximo de cada partida va de 60 a 7200 segundos.",
        "en": "Each game's time cap goes from 60 to 7200 seconds.",
    },
    "tournament_config.starts_at": {
        "es": "La hora de inicio debe ser una fecha (segundos desde 1970).",
        "en": "The start time must be a date (seconds since 1970).",
    },
    "tournament_config.fill_wait": {
        "es": "La espera antes de completar con bots va de 0 a 86400 segundos.",
        "en": "The wait before filling with bots goes from 0 to 86400 seconds.",
    },
    "tournament_config.bot_level": {
        "es": "El nivel de los bots es {levels}.",
        "en": "The bots' level is {levels}.",
    },
    "tournament_config.boolean": {
        "es": "«{name}» debe ser true o false.",
        "en": "«{name}» must be true or false.",
    },
    "tournament_registered": {
        "es": "Ya estás inscrito en este torneo.",
        "en": "You are already registered for this tournament.",
    },
    "tournament_over": {"es": "Este torneo ya terminó.", "en": "This tournament is over."},
    "tournament_private": {
        "es": "Este torneo es privado: solo se entra con su enlace de invitación.",
        "en": "This tournament is private: you join only with its invitation link.",
    },
    "tournament_started": {
        "es": "El torneo ya empezó y no admite más inscripciones.",
        "en": "The tournament has started and takes no more entries.",
    },
    "tournament_started.cancel": {
        "es": "El torneo ya empezó: no se puede cancelar.",
        "en": "The tournament has started: it cannot be cancelled.",
    },
    "tournament_full": {
        "es": "El torneo está lleno ({size} inscritos).",
        "en": "The tournament is full ({size} entrants).",
    },
    "tournament_partner.not_pairs": {
        "es": "Este torneo no es por parejas: inscríbete sin compañero.",
        "en": "This tournament is not for pairs: register without a partner.",
    },
    "tournament_partner.self": {
        "es": "Tu compañero tiene que ser otra persona.",
        "en": "Your partner has to be someone else.",
    },
    "tournament_partner.taken": {
        "es": "«{name}» ya tiene pareja en este torneo.",
        "en": "«{name}» already has a partner in this tournament.",
    },
    "tournament_not_registered": {
        "es": "No estás inscrito en este torneo.",
        "en": "You are not registered for this tournament.",
    },
    "tournament_not_registered.out": {
        "es": "Ya no estás jugando este torneo.",
        "en": "You are no longer playing this tournament.",
    },
    "tournament_mid_game": {
        "es": "Tienes una partida en curso: termínala antes de retirarte.",
        "en": "You have a game in progress: finish it before withdrawing.",
    },
    "tournament_creator": {
        "es": "Creaste este torneo: si no se va a jugar, cancélalo en vez de retirarte.",
        "en": "You created this tournament: if it is not to be played, cancel it instead of withdrawing.",
    },
    "tournament_creator.only": {
        "es": "Solo quien creó el torneo puede hacer esto.",
        "en": "Only whoever created the tournament can do this.",
    },
    "tournament_bots_only": {
        "es": "Un torneo con rating necesita al menos una persona inscrita: no se juega solo con bots.",
        "en": "A rated tournament needs at least one person registered: it is not played by bots alone.",
    },
    "no_such_puzzle": {"es": "No existe ese problema.", "en": "There is no such puzzle."},
    "puzzle_answer": {
        "es": "Esa jugada no es una de las que se pueden hacer en este problema.",
        "en": "That move is not one of the moves this puzzle allows.",
    },
    "puzzle_answer.malformed": {
        "es": "Envía la jugada en «action», como una de las de «legal».",
        "en": "Send the move in «action», as one of those in «legal».",
    },
    "puzzle_date": {
        "es": "La fecha debe ser AAAA-MM-DD.",
        "en": "The date must be YYYY-MM-DD.",
    },
    "tournament_few": {
        "es": "Para empezar hacen falta al menos {least} inscritos (o completar con bots).",
        "en": "At least {least} entrants are needed to start (or filling with bots).",
    },
    # Cara a cara (http/head_to_head.py) --------------------------------------------------------
    "head_to_head_self": {
        "es": "Escoge a otro jugador: «{name}» no puede jugar cara a cara contra sí mismo.",
        "en": "Pick another player: «{name}» cannot be compared against themselves.",
    },
    # Aprender (http/learn.py) -----------------------------------------------------------------
    "no_such_lesson": {"es": "No hay una lección «{lesson}».", "en": "There is no «{lesson}» lesson."},
    "no_such_lesson.step": {
        "es": "La lección «{lesson}» no tiene el paso {step}.",
        "en": "The «{lesson}» lesson has no step {step}.",
    },
    "bad_lesson_moves": {
        "es": "Las jugadas de antes no son un camino de este paso: empieza el paso de nuevo.",
        "en": "The moves before are not a path through this step: start the step again.",
    },
    "bad_lesson_move": {
        "es": "«{text}» no es una jugada: escribe una ficha como 6-4i, robar o pasar.",
        "en": "«{text}» is not a move: write a tile like 6-4i, robar or pasar.",
    },
    "bad_progress": {
        "es": "El progreso da de 1 a 3 estrellas por lección: «{lesson}» no vale.",
        "en": "Progress gives 1 to 3 stars per lesson: «{lesson}» is not valid.",
    },
    # Share cards (http/share.py) --------------------------------------------------------------
    "share_no_game": {
        "es": "No hay ninguna partida pública terminada «{id}» para compartir.",
        "en": "There is no finished public game «{id}» to share.",
    },
    "share_game_in_play": {
        "es": "La partida «{id}» todavía se está jugando: su tarjeta sale cuando termine.",
        "en": "Game «{id}» is still being played: its card is ready once it is over.",
    },
    "share_no_tournament": {
        "es": "No hay ningún torneo público «{id}» para compartir.",
        "en": "There is no public tournament «{id}» to share.",
    },
    "share_no_season": {
        "es": "La peña «{slug}» no tiene ninguna temporada para compartir.",
        "en": "The peña «{slug}» has no season to share.",
    },
    "share_busy": {
        "es": "Estamos dibujando muchas tarjetas a la vez; vuelve a intentarlo en unos segundos.",
        "en": "Many cards are being drawn at once; try again in a few seconds.",
    },
    # Peñas (penas/service.py, http/penas.py) ----------------------------------------------------
    "pena_name": {
        "es": (
            "El nombre de la peña lleva de {least} a {most} caracteres: letras, cifras, espacios, "
            "punto, guion o apóstrofo."
        ),
        "en": (
            "A peña's name has {least} to {most} characters: letters, digits, spaces, dot, "
            "hyphen or apostrophe."
        ),
    },
    "pena_name_taken": {
        "es": "Ya hay una peña con ese nombre; elige otro.",
        "en": "There is already a peña with that name; choose another.",
    },
    "pena_name_confusable": {
        "es": "Ese nombre se confunde con el de la peña «{similar}»; elige otro.",
        "en": "That name is easily mistaken for the peña «{similar}»; choose another.",
    },
    "pena_crest": {
        "es": "Ese escudo no está entre los dibujos del sitio.",
        "en": "That crest is not one of the site's drawings.",
    },
    "pena_description": {
        "es": "La descripción lleva como mucho {most} caracteres.",
        "en": "The description has at most {most} characters.",
    },
    "pena_access": {
        "es": "Una peña es abierta («open») o por invitación («invite»).",
        "en": "A peña is open («open») or by invitation («invite»).",
    },
    "no_such_pena": {"es": "No existe esa peña.", "en": "There is no such peña."},
    "pena_leader_only": {
        "es": "Solo los líderes de la peña pueden hacer esto.",
        "en": "Only the peña's leaders can do this.",
    },
    "pena_members_only": {
        "es": "Solo los miembros de la peña pueden hacer esto.",
        "en": "Only the peña's members can do this.",
    },
    "pena_members_only.table": {
        "es": "Esta mesa es de la peña «{name}»: solo sus miembros pueden sentarse.",
        "en": "This table belongs to the peña «{name}»: only its members may sit.",
    },
    "pena_members_only.tournament": {
        "es": "Este torneo es de la peña «{name}»: solo sus miembros pueden inscribirse.",
        "en": "This tournament belongs to the peña «{name}»: only its members may join.",
    },
    "pena_already_member": {
        "es": "Ya eres miembro de esta peña.",
        "en": "You are already a member of this peña.",
    },
    "pena_invite_only": {
        "es": "A esta peña solo se entra con un enlace de invitación de sus líderes.",
        "en": "This peña is joined only with an invitation link from its leaders.",
    },
    "pena_bad_invitation": {
        "es": "Ese enlace de invitación no es válido o ya venció; pide uno nuevo a un líder de la peña.",
        "en": "That invitation link is not valid or has expired; ask a leader of the peña for a new one.",
    },
    "pena_already_requested": {
        "es": "Ya pediste entrar a esta peña: un líder tiene que aprobarlo.",
        "en": "You already asked to join this peña: a leader has to approve it.",
    },
    "pena_no_request": {
        "es": "«{name}» no ha pedido entrar a esta peña.",
        "en": "«{name}» has not asked to join this peña.",
    },
    "pena_not_member": {
        "es": "«{name}» no es miembro de esta peña.",
        "en": "«{name}» is not a member of this peña.",
    },
    "pena_not_member.self": {
        "es": "No eres miembro de esta peña.",
        "en": "You are not a member of this peña.",
    },
    "pena_last_leader": {
        "es": "Eres el único líder: antes de salir, nombra líder a otro miembro.",
        "en": "You are the only leader: name another member leader before you leave.",
    },
    "pena_remove_leader": {
        "es": "A un líder no se le saca de la peña: puede salir él mismo.",
        "en": "A leader cannot be removed from the peña: they may leave themselves.",
    },
    "pena_already_leader": {
        "es": "«{name}» ya es líder de esta peña.",
        "en": "«{name}» is already a leader of this peña.",
    },
    "pena_full": {
        "es": "La peña ya tiene {most} miembros, el máximo.",
        "en": "The peña already has {most} members, the most it may have.",
    },
    "too_many_penas": {
        "es": "Ya estás en {most} peñas, el máximo: sal de una para entrar a otra.",
        "en": "You are already in {most} peñas, the most: leave one to join another.",
    },
    # El reparto del día (reparto/routes.py) ------------------------------------------------------
    "reparto_bad_day": {
        "es": "El día debe ser AAAA-MM-DD.",
        "en": "The day must be YYYY-MM-DD.",
    },
    "reparto_bad_mode": {
        "es": "«{mode}» no es una forma del reparto: individual o pairs.",
        "en": "«{mode}» is not a mode of the reparto: individual or pairs.",
    },
    "reparto_no_day": {
        "es": "No hay reparto del día {day}: ese día no se abrió o todavía no llega.",
        "en": "There is no reparto for {day}: that day was never opened or has not come yet.",
    },
    "reparto_not_revealed": {
        "es": "La semilla del {day} se revela cuando termine el día (medianoche en Bogotá).",
        "en": "The seed of {day} is revealed when the day is over (midnight in Bogotá).",
    },
    "reparto_played": {
        "es": "Ya jugaste el reparto de hoy en esta forma: cuenta tu primera partida. Vuelve mañana.",
        "en": "You already played today's reparto in this mode: your first game counts. Come back tomorrow.",
    },
    "reparto_play_first": {
        "es": "Termina tu partida del día para ver la mejor.",
        "en": "Finish your game of the day to see the best one.",
    },
    "reparto_no_game": {
        "es": "No hay esa partida del reparto (o todavía se está guardando).",
        "en": "There is no such game of the reparto (or it is still being saved).",
    },
    # Table talk and mirones (server/talk/, ws/endpoint.py, http/talk.py) ----------------------
    "chat_empty": {"es": "Escribe algo antes de enviar.", "en": "Write something before sending."},
    "chat_control": {
        "es": "El mensaje no puede llevar saltos de línea ni caracteres de control.",
        "en": "A message cannot hold line breaks or control characters.",
    },
    "chat_too_long": {
        "es": "El mensaje es muy largo: máximo {most} caracteres.",
        "en": "The message is too long: at most {most} characters.",
    },
    "chat_too_fast": {
        "es": "Vas muy rápido: espera unos segundos antes de otro mensaje.",
        "en": "Slow down: wait a few seconds before another message.",
    },
    "chat_closed.practice": {
        "es": "En la práctica contra la máquina no hay chat; usa las frases.",
        "en": "Practice against the machine has no chat; use the phrases.",
    },
    "chat_closed.strangers": {
        "es": "El chat es para mesas privadas, de peña o entre amigos; aquí usa las frases.",
        "en": "Chat is for private, peña or friends' tables; here, use the phrases.",
    },
    "chat_closed.hand": {
        "es": "En esta mesa se chatea entre manos y al final de la partida, no durante la mano.",
        "en": "At this table chat is open between rounds and after the game, not during a hand.",
    },
    "no_chat_line": {
        "es": "Ese mensaje ya no está en la mesa.",
        "en": "That message is no longer at the table.",
    },
    "chat_report_own": {
        "es": "No puedes reportar tu propio mensaje.",
        "en": "You cannot report your own message.",
    },
    "chat_report_guest": {
        "es": "Ese mensaje es de un invitado sin cuenta: no se puede reportar, pero puedes silenciarlo.",
        "en": "That message is from a guest without an account: it cannot be reported; mute them.",
    },
    "chat_not_seated": {
        "es": "Solo quien está sentado en la mesa puede reportar su chat.",
        "en": "Only someone seated at the table may report its chat.",
    },
    "mute_self": {"es": "No puedes silenciarte a ti mismo.", "en": "You cannot mute yourself."},
    "not_muted": {"es": "No tienes silenciado a {name}.", "en": "You have not muted {name}."},
    "no_spectators": {
        "es": "El anfitrión de esta mesa no admite mirones.",
        "en": "The host of this table takes no spectators.",
    },
    "no_spectators.friends": {
        "es": "Solo los amigos del anfitrión pueden mirar esta mesa.",
        "en": "Only the host's friends may watch this table.",
    },
    "no_spectators.pena": {
        "es": "Solo los miembros de la peña pueden mirar esta mesa.",
        "en": "Only the peña's members may watch this table.",
    },
    "no_spectators.link": {
        "es": "Para mirar esta mesa necesitas el enlace para mirones que comparte el anfitrión.",
        "en": "To watch this table you need the watching link its host shares.",
    },
    "bad_spectators": {
        "es": "Los mirones se eligen entre {choices}.",
        "en": "Spectators are one of {choices}.",
    },
    # Seasons of peñas and peña battles (seasons/service.py, seasons/battle.py) ------------------
    "season_name": {
        "es": "El nombre de la temporada lleva de 1 a {most} caracteres.",
        "en": "A season's name has 1 to {most} characters.",
    },
    "season_scope": {
        "es": (
            "Una temporada cuenta las partidas con rating entre miembros («rated») o solo las "
            "noches de la peña («nights»)."
        ),
        "en": (
            "A season counts the rated games between members («rated») or only the peña's nights («nights»)."
        ),
    },
    "season_points": {
        "es": "Los puntos se cuentan «2 por ganada», «3 por ganada, 1 por perdida» o por los tantos.",
        "en": "Points are counted «2 per win», «3 per win, 1 per loss» or by the tantos.",
    },
    "season_dates": {
        "es": "Las fechas de la temporada van como AAAA-MM-DD.",
        "en": "A season's dates are written YYYY-MM-DD.",
    },
    "season_dates_order": {
        "es": "La temporada no puede terminar antes de empezar.",
        "en": "A season cannot end before it starts.",
    },
    "season_starts_past": {
        "es": "La temporada empieza hoy o más adelante, no en el pasado.",
        "en": "A season starts today or later, not in the past.",
    },
    "season_starts_far": {
        "es": "La temporada empieza dentro de {most} días como mucho.",
        "en": "A season starts within {most} days at most.",
    },
    "season_too_long": {
        "es": "Una temporada dura como mucho {most} días.",
        "en": "A season lasts {most} days at most.",
    },
    "season_open": {
        "es": "La peña ya tiene una temporada abierta, «{name}»: abre la próxima cuando termine.",
        "en": "The peña already has an open season, «{name}»: open the next one when it ends.",
    },
    "season_overlaps": {
        "es": "Esas fechas se cruzan con la temporada «{name}».",
        "en": "Those dates overlap the season «{name}».",
    },
    "no_such_season": {
        "es": "Esa temporada no existe en esta peña.",
        "en": "There is no such season in this peña.",
    },
    "tournament_config.battle_arena": {
        "es": "Peña contra peña se juega en arena: quita «battle_penas» o elige el formato arena.",
        "en": "Peña against peña is played as an arena: leave out «battle_penas» or choose the arena format.",
    },
    "tournament_config.battle_penas": {
        "es": "Peña contra peña lleva de {least} a {most} peñas distintas («battle_penas»).",
        "en": "Peña against peña takes {least} to {most} different peñas («battle_penas»).",
    },
    "tournament_config.battle_counting": {
        "es": "Cuentan de 1 a {most} jugadores por peña («battle_counting»).",
        "en": "From 1 to {most} players count per peña («battle_counting»).",
    },
    "tournament_battle_pena": {
        "es": "En peña contra peña te inscribes por una de sus peñas: elige cuál.",
        "en": "In peña against peña you enter for one of its peñas: choose which.",
    },
    "tournament_battle_member": {
        "es": "Solo puedes jugar por una peña de la que eres miembro.",
        "en": "You may only play for a peña you are a member of.",
    },
    "tournament_battle_no_pena": {
        "es": "Una de las peñas de «battle_penas» no existe.",
        "en": "One of the peñas of «battle_penas» does not exist.",
    },
    # Fichas: play money staked at tables and tournaments (fichas/service.py) ------------------
    "fichas_off": {
        "es": "Las fichas están desactivadas en este sitio.",
        "en": "Fichas (play chips) are switched off on this site.",
    },
    "fichas_not_enough": {
        "es": "No tienes fichas suficientes: la apuesta es de {need} y tienes {have}.",
        "en": "You do not have enough fichas: the stake is {need} and you have {have}.",
    },
    "fichas_not_enough.entry": {
        "es": "No tienes fichas suficientes: la entrada al torneo es de {need} y tienes {have}.",
        "en": "You do not have enough fichas: the tournament's entry is {need} and you have {have}.",
    },
    "fichas_bad_stake": {
        "es": "La apuesta debe ser una de estas: {levels} fichas.",
        "en": "The stake must be one of these: {levels} fichas.",
    },
    "fichas_stake_not_allowed": {
        "es": "Solo una mesa competitiva (no de práctica) puede llevar apuesta.",
        "en": "Only a competitive table (not a practice one) may carry a stake.",
    },
}

# Nouns counted in refusals: (singular, plural) in each language.
PLURALS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "games": {"es": ("partida", "partidas"), "en": ("game", "games")},
    "tables": {"es": ("mesa", "mesas"), "en": ("table", "tables")},
    "analyses": {"es": ("análisis", "análisis"), "en": ("analysis", "analyses")},
    "bots": {"es": ("bot", "bots"), "en": ("bot", "bots")},
}


def code_of(key: str) -> str:
    """The code a catalogue entry goes out with: ``started.stand`` → ``started``."""
    return key.partition(".")[0]


def render(key: str, lang: str, **params: object) -> str:
    """The catalogue's text for `key` in `lang` (Spanish for any other) with `params` filled in."""
    template = REFUSALS[key][lang if lang in LANGUAGES else "es"]
    return template.format(**{name: _param(value, lang) for name, value in params.items()})


def _param(value: object, lang: str) -> str:
    return value if isinstance(value, str) else localize(value, lang)


@dataclass(frozen=True, slots=True)
class Counted:
    """A count and its noun (`PLURALS`): ``Counted(1, "games")`` reads "1 partida", "1 game"."""

    count: int
    noun: str

    def text(self, lang: str) -> str:
        one, many = PLURALS[self.noun]["en" if lang == "en" else "es"]
        return f"{self.count} {one if self.count == 1 else many}"


@dataclass(frozen=True, slots=True)
class Words:
    """A parameter that is words of its own, given in each language."""

    es: str
    en: str

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.es


class Refusal(Exception):
    """Base of the server's refusals: `key` names the entry in `REFUSALS`, `code` is what
    programs branch on, `params` fill its text; `message` is Spanish, `message_en` English."""

    def __init__(self, key: str, /, **params: object) -> None:
        if key not in REFUSALS:
            raise KeyError(f"no refusal {key} in the catalogue")
        self.key = key
        self.code = code_of(key)
        self.params = params
        super().__init__(self.message)

    def text(self, lang: str = "es") -> str:
        """The refusal in `lang` (``"es"`` or ``"en"``); any other language gets Spanish."""
        return render(self.key, lang, **self.params)

    @property
    def message(self) -> str:
        return self.text("es")

    @property
    def message_en(self) -> str:
        return self.text("en")

    def body(self) -> dict[str, Any]:
        """{"code", "message", "message_en"}: what an error frame or an HTTP body carries."""
        metrics.refusal(self.code)  # a body is made to be sent
        return {"code": self.code, "message": self.message, "message_en": self.message_en}
