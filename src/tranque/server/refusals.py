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
    "not_playing.over": {
        "es": "La partida ya terminó: en esta mesa ya no se juega.",
        "en": "The game is over: there is no more play at this table.",
    },
    "not_your_turn": {"es": "No es tu turno.", "en": "It is not your turn."},
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
