// Everything a player reads, in Spanish first and English second.

import { MESSAGES_REPLAY } from "./messages_replay.js";
import { MESSAGES_ANALYSIS } from "./messages_analysis.js";
import { MESSAGES_LUCK } from "./messages_luck.js";
import { PLAYERS_MESSAGES } from "./messages_players.js";
import { FRIENDS_MESSAGES } from "./messages_friends.js";
import { BOTS_MESSAGES } from "./messages_bots.js";
import { MODERATION_MESSAGES } from "./messages_moderation.js";
import { TOURNAMENTS_MESSAGES } from "./messages_tournaments.js";
import { TABLE_MESSAGES } from "./messages_table.js";
import { LEARN_MESSAGES } from "./messages_learn.js";
import { PUZZLES_MESSAGES } from "./messages_puzzles.js";
import { ALERTS_MESSAGES } from "./messages_alerts.js";
import { SEATS_MESSAGES } from "./messages_seats.js";
import { HEAD_TO_HEAD_MESSAGES } from "./messages_head_to_head.js";
import { SHARE_MESSAGES } from "./messages_share.js";
import { PENAS_MESSAGES } from "./messages_penas.js";
import { REPARTO_MESSAGES } from "./messages_reparto.js";
import { TALK_MESSAGES } from "./messages_talk.js";
import { SEASONS_MESSAGES } from "./messages_seasons.js";

export const MESSAGES = {
  ...SHARE_MESSAGES,
  ...PLAYERS_MESSAGES,
  ...HEAD_TO_HEAD_MESSAGES,
  ...PUZZLES_MESSAGES,
  ...REPARTO_MESSAGES,
  brand: { es: "Tranque", en: "Tranque" },
  // The operator's words that pages other than the admin's show (js/admin.js adds the rest).
  ad_nav: { es: "Administración", en: "Admin" },
  ad_forbidden: { es: "Esta página es solo para administradores del sitio.", en: "This page is for the site's administrators only." },
  res_annulled_operator: { es: "La administración del sitio anuló la partida: no cuenta para nadie.", en: "The site's administrators annulled the game: it counts for nobody." },
  res_fair_why_operator: { es: "la administración del sitio la anuló", en: "the site's administrators annulled it" },
  res_operator_reason: { es: "Motivo: «{reason}»", en: "Reason: «{reason}»" },
  tagline: { es: "Dominó como se juega en Colombia y el Caribe", en: "Dominó the way Colombia and the Caribbean play" },
  play_now: { es: "Jugar ahora", en: "Play now" },
  play_now_hint: { es: "Te sentamos con otras personas, 2 o 4, a 100 puntos.", en: "We seat you with other people, 2 or 4, to 100 points." },
  practice: { es: "Practicar contra la máquina", en: "Practise against the machine" },
  practice_hint: { es: "Sin cuenta: empiezas enseguida.", en: "No account: you start at once." },
  play_now_account: { es: "con cuenta", en: "with an account" },
  create_table: { es: "Crear mesa", en: "Create a table" },
  login: { es: "Entrar / Crear cuenta", en: "Log in / Sign up" },
  logout: { es: "Salir", en: "Log out" },
  lobby: { es: "Mesas abiertas", en: "Open tables" },
  lobby_empty: { es: "No hay mesas esperando jugadores ahora.", en: "No tables are waiting for players now." },
  sit: { es: "Sentarme", en: "Sit down" },
  fi_stake: { es: "Apuesta: {n} fichas", en: "Stake: {n} fichas" }, // the rest: messages_fichas.js, lazily
  how_to: { es: "Cómo se juega", en: "How to play" },
  preset: { es: "Modalidad", en: "Variant" },
  players: { es: "Jugadores", en: "Players" },
  mode: { es: "Forma", en: "Mode" },
  pairs: { es: "Por parejas", en: "In pairs" },
  individual: { es: "Individual", en: "Individual" },
  target: { es: "Meta de puntos", en: "Target" },
  turn_time: { es: "Tiempo por turno", en: "Turn time" },
  bot_level: { es: "Nivel de la máquina", en: "Machine level" },
  private_table: { es: "Mesa privada (con invitación)", en: "Private table (by invitation)" },
  capicua: { es: "Premio de capicúa", en: "Capicúa bonus" },
  start: { es: "Empezar", en: "Start" },
  create: { es: "Crear", en: "Create" },
  back: { es: "Volver", en: "Back" },
  name: { es: "Nombre", en: "Name" },
  password: { es: "Contraseña", en: "Password" },
  enter: { es: "Entrar", en: "Log in" },
  register: { es: "Crear cuenta", en: "Sign up" },
  waiting_match: { es: "Buscando jugadores…", en: "Looking for players…" },
  cancel: { es: "Cancelar", en: "Cancel" },
  with_bots: { es: "Acepto jugar con la máquina si no hay nadie", en: "Play with the machine if nobody comes" },
  offline: { es: "Sin conexión. Reconectando…", en: "Offline. Reconnecting…" },
  reconnected: { es: "Conectado de nuevo", en: "Back online" },
  you: { es: "Tú", en: "You" },
  partner: { es: "compañero", en: "partner" },
  team: { es: "Pareja", en: "Team" },
  player: { es: "Jugador", en: "Player" },
  pozo: { es: "Pozo", en: "Boneyard" },
  draw: { es: "Robar", en: "Draw" },
  pass: { es: "Pasar", en: "Pass" },
  passed: { es: "Pasó", en: "Passed" },
  drew: { es: "Robó {n}", en: "Drew {n}" },
  your_turn: { es: "Te toca", en: "Your turn" },
  turn_of: { es: "Le toca a {name}", en: "{name}'s turn" },
  round: { es: "Mano {n}", en: "Round {n}" },
  round_of: { es: "Mano {n} de {of}", en: "Round {n} of {of}" },
  of_hands: { es: "{n} manos", en: "{n} rounds" },
  to_target: { es: "a {n}", en: "to {n}" },
  choose_end: { es: "Esa ficha pega en las dos puntas: toca la punta donde la pones.", en: "That tile fits both ends: tap the end to play it on." },
  not_playable: { es: "La ficha {tile} no pega en ninguna punta.", en: "Tile {tile} fits neither end." },
  not_your_turn: { es: "Espera tu turno.", en: "Wait for your turn." },
  must_draw: { es: "No tienes ficha que pegue: roba del pozo.", en: "No tile fits: draw from the boneyard." },
  left_end: { es: "punta izquierda", en: "left end" },
  right_end: { es: "punta derecha", en: "right end" },
  ends: { es: "Puntas", en: "Ends" },
  played_of: { es: "Del {n} ya se jugaron {k} de {total}.", en: "{k} of {total} tiles with {n} are already played." },
  played_of_one: { es: "Del {n} ya se jugó {k} de {total}.", en: "{k} of {total} tiles with {n} is already played." },
  passed_on: { es: "pasó con", en: "passed on" },
  aids: { es: "Ayudas", en: "Aids" },
  aid_playable: { es: "Iluminar fichas que pegan", en: "Light up playable tiles" },
  aid_ends: { es: "Contar al tocar una punta", en: "Count when tapping an end" },
  aid_passes: { es: "Mostrar con qué pasó cada uno", en: "Show what each player passed on" },
  phrases: { es: "Frases", en: "Phrases" },
  annul: { es: "Proponer anular", en: "Propose to annul" },
  annul_yes: { es: "Anular", en: "Annul" },
  annul_no: { es: "Seguir jugando", en: "Keep playing" },
  annul_proposed: { es: "Se propuso anular la partida ({k}/{n}).", en: "Annulling was proposed ({k}/{n})." },
  annulled: { es: "Partida anulada por votación.", en: "Game annulled by vote." },
  back_to_seat: { es: "Volver a mi puesto", en: "Take my seat back" },
  covered: { es: "Estás ausente: la máquina juega por ti.", en: "You are away: the machine is playing for you." },
  spectating: { es: "Estás mirando esta mesa.", en: "You are watching this table." },
  round_over: { es: "Fin de la mano", en: "Round over" },
  // Round and game ends, fair deals checked by the browser (results.js, results_text.js).
  res_round_over: { es: "Fin de la mano {n}", en: "End of round {n}" },
  res_last_round: { es: "Última mano de la partida", en: "The game's last round" },
  res_to_final: { es: "Ver el resultado final", en: "See the final result" },
  res_unfinished: { es: "La mano quedó sin terminar: los palitos de los pases decidieron la partida.", en: "The round was left unfinished: the palitos from passes decided the game." },
  res_tie: { es: "Tranque empatado: nadie gana la mano.", en: "Tied tranque: nobody wins the round." },
  res_domino_you: { es: "¡Dominó! Pusiste tu última ficha.", en: "Dominó! You played your last tile." },
  res_domino_by: { es: "¡Dominó! Se pegó {name}", en: "Dominó! {name} went out" },
  res_tranque_you: { es: "Tranque: ganas tú, con menos puntos en la mano.", en: "Tranque: you win, with the fewest pips in hand." },
  res_tranque_by: { es: "Tranque: gana {name}, con menos puntos en la mano.", en: "Tranque: {name} wins, with the fewest pips in hand." },
  res_score_you: { es: "Anotas {n} puntos.", en: "You score {n} points." },
  res_score: { es: "{name} anota {n} puntos.", en: "{name} scores {n} points." },
  res_capicua: { es: "¡Capicúa!", en: "Capicúa!" },
  res_capicua_bonus: { es: "¡Capicúa! Incluye {n} puntos de premio.", en: "Capicúa! It includes a {n}-point bonus." },
  res_nobody_scores: { es: "Nadie anota.", en: "Nobody scores." },
  res_penalty_rule: { es: "En contra: los puntos que quedan en una mano se suman en contra de quien los tiene; al final gana quien tenga menos.", en: "En contra: the pips left in a hand count against whoever holds them; at the end the lowest total wins." },
  res_penalty_you: { es: "Sumas {n} en contra.", en: "{n} points count against you." },
  res_penalty_none_you: { es: "No sumas nada en contra.", en: "Nothing counts against you." },
  res_penalty: { es: "{name} suma {n} en contra.", en: "{n} points count against {name}." },
  res_penalty_none: { es: "{name} no suma nada en contra.", en: "Nothing counts against {name}." },
  res_penalty_game: { es: "En contra gana quien termina con menos puntos.", en: "In en contra the lowest total wins." },
  res_goal_you: { es: "¡Gol tuyo! Te quedaron {n} puntos, menos de 10: {winner} gana la mano pero no anota, y el gol es para ti.", en: "Your goal! You were left with {n} pips, under 10: {winner} wins the round but scores nothing, and the goal is yours." },
  res_goal_against_you: { es: "¡Gol de {name}! Ganas la mano, pero a {name} le quedaron {n} puntos, menos de 10: no anotas y el gol es para {name}.", en: "Goal for {name}! You win the round, but {name} was left with {n} pips, under 10: you score nothing and the goal goes to {name}." },
  res_goal: { es: "¡Gol de {name}! A {name} le quedaron {n} puntos, menos de 10: {winner} gana la mano pero no anota, y el gol es para {name}.", en: "Goal for {name}! {name} was left with {n} pips, under 10: {winner} wins the round but scores nothing, and the goal goes to {name}." },
  res_futbol_points_you: { es: "Anotas {n} puntos: los que le quedaron a {from} (10 o más).", en: "You score {n} points: what {from} was left with (10 or more)." },
  res_futbol_points_yours: { es: "{name} anota {n} puntos: los que te quedaron (10 o más).", en: "{name} scores {n} points: what you were left with (10 or more)." },
  res_futbol_points: { es: "{name} anota {n} puntos: los que le quedaron a {from} (10 o más).", en: "{name} scores {n} points: what {from} was left with (10 or more)." },
  res_palito_one: { es: "1 palito", en: "1 palito" },
  res_palitos: { es: "{n} palitos", en: "{n} palitos" },
  res_palitos_passes: { es: "{n} por pases (sumados al pasar)", en: "{n} from passes (counted as they happened)" },
  res_palitos_blocker: { es: "{n} por trancar", en: "{n} for the blocking play" },
  res_palitos_pips: { es: "{n} por los puntos de las manos", en: "{n} from the pips in the hands" },
  res_ponce_score: { es: "{name} anota {what}: {parts}.", en: "{name} scores {what}: {parts}." },
  res_nobody_palitos: { es: "Nadie anota palitos en esta mano.", en: "Nobody scores palitos this round." },
  res_total: { es: "Marcador: {list}", en: "Score: {list}" },
  res_total_penalty: { es: "En contra: {list} (gana quien tenga menos)", en: "Against: {list} (the lowest wins)" },
  res_total_palitos: { es: "Palitos: {list}", en: "Palitos: {list}" },
  res_futbol_team: { es: "{name} {n} puntos y {goals}", en: "{name} {n} points and {goals}" },
  res_goal_one: { es: "1 gol", en: "1 goal" },
  res_goals: { es: "{n} goles", en: "{n} goals" },
  res_annulled: { es: "Partida anulada", en: "Game annulled" },
  res_annulled_vote: { es: "Todos votaron por anularla: no cuenta para nadie.", en: "Everybody voted to annul it: it counts for nobody." },
  res_annulled_server: { es: "El servidor la anuló porque la mesa se quedó sin jugadores.", en: "The server annulled it because the players left the table." },
  res_fair_title: { es: "Reparto justo, comprobado por este navegador", en: "Fair deal, checked by this browser" },
  res_fair_checking: { es: "Reparto: verificando en este navegador…", en: "Deal: checking in this browser…" },
  res_fair_ok: { es: "✔ Reparto verificado por este navegador", en: "✔ Deal verified by this browser" },
  res_fair_bad: { es: "✘ Reparto no verificado: {why}", en: "✘ Deal not verified: {why}" },
  res_fair_round_ok: { es: "Mano {n}: ✔ verificado", en: "Round {n}: ✔ verified" },
  res_fair_round_bad: { es: "Mano {n}: ✘ no verificado: {why}", en: "Round {n}: ✘ not verified: {why}" },
  res_fair_round_annulled: { es: "Mano {n}: anulada sin terminar ({why}); el reparto de una mano anulada no se revela, así que no hay nada que verificar.", en: "Round {n}: annulled before it ended ({why}); an annulled round's deal is not revealed, so there is nothing to check." },
  res_fair_why_vote: { es: "por votación", en: "by vote" },
  res_fair_why_server: { es: "la mesa se quedó sin jugadores", en: "the players left the table" },
  res_reason_no_commitment: { es: "esta página no recibió el compromiso del reparto al empezar la mano", en: "this page did not receive the deal's commitment when the round started" },
  res_reason_not_revealed: { es: "esta página no recibió la semilla revelada al final de la mano", en: "this page did not receive the seed revealed at the round's end" },
  res_reason_bad_reveal: { es: "la semilla o la sal reveladas no son hexadecimales válidas", en: "the revealed seed or salt is not valid hex" },
  res_reason_commitment_mismatch: { es: "SHA-256(semilla ‖ sal) no coincide con el compromiso publicado al repartir", en: "SHA-256(seed ‖ salt) does not match the commitment published at the deal" },
  res_reason_commitment_changed: { es: "el compromiso repetido al final no es el publicado al repartir", en: "the commitment repeated at the end is not the one published at the deal" },
  res_reason_hand_mismatch: { es: "tu mano no es la que sale de la semilla", en: "your hand is not the one the seed deals" },
  res_reason_drawn_mismatch: { es: "robaste {tile}, que no es la ficha que sigue en el pozo según la semilla", en: "you drew {tile}, not the tile the seed puts next in the boneyard" },
  res_reason_draw_beyond: { es: "{name} robó más fichas de las que tiene el pozo", en: "{name} drew more tiles than the boneyard holds" },
  res_reason_play_not_held: { es: "{name} jugó {tile}, que no le tocó según la semilla", en: "{name} played {tile}, which the seed did not give them" },
  res_reason_final_mismatch: { es: "las fichas que le quedaron a {name} no son las que salen de la semilla", en: "the tiles {name} was left with are not the ones the seed gives" },
  res_reason_play_not_held_you: { es: "jugaste {tile}, que no te tocó según la semilla", en: "you played {tile}, which the seed did not give you" },
  res_reason_final_mismatch_you: { es: "las fichas que te quedaron no son las que salen de la semilla", en: "the tiles you were left with are not the ones the seed gives" },
  res_reason_draw_beyond_you: { es: "robaste más fichas de las que tiene el pozo", en: "you drew more tiles than the boneyard holds" },
  res_reason_unseen: { es: "esta página no estaba abierta cuando se repartió", en: "this page was not open when it was dealt" },
  res_rematch_agreed: { es: "Quieren la revancha: {names}.", en: "Want a rematch: {names}." },
  res_rematch_waiting: { es: "Falta que acepte: {names}.", en: "Waiting for: {names}." },
  res_rematch_hint: { es: "Revancha: los mismos puestos y las mismas reglas, una partida nueva desde cero.", en: "Rematch: the same seats and rules, a new game from zero." },
  domino_by: { es: "¡Dominó! Se pegó {name}", en: "Dominó! {name} went out" },
  tranque_won: { es: "Tranque: gana {name} con menos puntos.", en: "Tranque: {name} wins with fewest pips." },
  domino_you: { es: "¡Dominó! Pusiste tu última ficha.", en: "Dominó! You played your last tile." },
  tranque_you: { es: "Tranque: ganas tú con menos puntos.", en: "Tranque: you win with fewest pips." },
  you_score: { es: "Anotas {n}", en: "You score {n}" },
  you_win: { es: "¡Ganaste!", en: "You win!" },
  goal_you: { es: "¡Gol! Anotas un gol", en: "Goal! You score a goal" },
  tie: { es: "Tranque empatado: nadie anota.", en: "Tied tranque: nobody scores." },
  scores_points: { es: "{name} anota {n}", en: "{name} scores {n}" },
  goal_for: { es: "¡Gol! {name} anota un gol", en: "Goal! {name} scores a goal" },
  capicua_won: { es: "¡Capicúa!", en: "Capicúa!" },
  pips_left: { es: "{n} puntos", en: "{n} pips" },
  pips_left_one: { es: "1 punto", en: "1 pip" },
  ready: { es: "Listo", en: "Ready" },
  next_round_in: { es: "La siguiente mano empieza enseguida.", en: "The next round starts shortly." },
  game_over: { es: "Fin de la partida", en: "Game over" },
  winner_is: { es: "Gana {name}", en: "{name} wins" },
  winners_are: { es: "Ganan {name}", en: "{name} win" },
  rematch: { es: "Revancha", en: "Rematch" },
  download_record: { es: "Descargar registro", en: "Download record" },
  fairness: { es: "Reparto justo", en: "Fair deal" },
  verified: { es: "verificado", en: "verified" },
  not_verified: { es: "no verificado", en: "not verified" },
  checking: { es: "verificando…", en: "checking…" },
  score_chart: { es: "Puntos por mano", en: "Points per round" },
  home: { es: "Inicio", en: "Home" },
  invite_link: { es: "Invitación: comparte este enlace", en: "Invitation: share this link" },
  copy: { es: "Copiar", en: "Copy" },
  copied: { es: "Copiado", en: "Copied" },
  fill_bots: { es: "Completar con la máquina", en: "Fill with the machine" },
  waiting_players: { es: "Esperando jugadores…", en: "Waiting for players…" },
  empty_seat: { es: "(libre)", en: "(free)" },
  error_generic: { es: "Algo falló. Inténtalo de nuevo.", en: "Something failed. Try again." },
  tile_label: { es: "ficha {a}-{b}", en: "tile {a}-{b}" },
  hand_label: { es: "Tu mano", en: "Your hand" },
  line_label: { es: "La mesa", en: "The table" },
  line_play_here: { es: "pon la ficha aquí", en: "play the tile here" },
  keyboard_hint: { es: "Flechas para elegir ficha, Enter para jugarla.", en: "Arrows choose a tile, Enter plays it." },
  seconds: { es: "{n} s", en: "{n} s" },
  language: { es: "English", en: "Español" },
  bot: { es: "Máquina", en: "Machine" },
  away: { es: "ausente", en: "away" },
  logged_as: { es: "Hola, {name}", en: "Hi, {name}" },
  seat_n: { es: "Puesto {n}", en: "Seat {n}" },
  scr_login_for_play_now: { es: "Para jugar ahora con otras personas entra con tu cuenta o créala: después te llevamos a buscar mesa.", en: "To play now with other people, log in or sign up: then we take you to find a table." },
  scr_login_for_create: { es: "Para crear una mesa entra con tu cuenta o créala: después te llevamos a crearla.", en: "To create a table, log in or sign up: then we take you to create it." },
  scr_login_for_join: { es: "Para sentarte en esa mesa entra con tu cuenta o créala: después te llevamos a ella.", en: "To sit at that table, log in or sign up: then we take you there." },
  scr_name_too_long: { es: "El nombre lleva como mucho {n} caracteres.", en: "A name has at most {n} characters." },
  scr_no_table_title: { es: "Esa mesa no existe", en: "That table does not exist" },
  scr_no_table_text: { es: "Puede que el enlace esté mal copiado o que la partida ya haya terminado.", en: "The link may be mistyped, or the game is already over." },
  scr_go_home: { es: "Ir al inicio", en: "Go home" },
  scr_playing_now: { es: "Partidas en juego", en: "Games in progress" },
  scr_playing_empty: { es: "No hay partidas públicas en juego ahora.", en: "No public games are being played now." },
  scr_watch: { es: "Mirar", en: "Watch" },
  scr_watch_label: { es: "Mirar la partida de {names}", en: "Watch the game of {names}" },
  scr_sit_label: { es: "Sentarme en la mesa {preset} ({taken} de {players})", en: "Sit at the {preset} table ({taken} of {players})" },
  scr_score: { es: "Puntos: {scores}", en: "Score: {scores}" },
  scr_resume: { es: "Volver a tu partida", en: "Back to your game" },
  scr_resume_hint: { es: "Tienes un puesto en una partida que sigue en juego.", en: "You hold a seat in a game still being played." },
  scr_quiet: { es: "La conexión no responde. Reconectando…", en: "The connection is not answering. Reconnecting…" },
  scr_page_unloaded: { es: "No se pudo cargar esta página. Revisa la conexión y vuelve a intentarlo.", en: "This page could not be loaded. Check the connection and try again." },
  scr_server_waiting: { es: "El servidor espera su base de datos: la mesa está en pausa y el reloj del turno detenido. Sigue sola en cuanto vuelva.", en: "The server is waiting for its database: the table is paused and the turn clock stopped. It goes on by itself as soon as it is back." },
  scr_quiet_table: { es: "La conexión no responde y el reloj del turno sigue corriendo. Reconectando…", en: "The connection is not answering and the turn clock keeps running. Reconnecting…" },
  scr_language_label: { es: "Cambiar el idioma a inglés", en: "Switch the language to Spanish" },
  scr_turn_seconds_n: { es: "{n} s", en: "{n} s" },
  scr_capicua_bonus: { es: "Premio de capicúa (+{n})", en: "Capicúa bonus (+{n})" },
  // The table
  table_numbers: { es: "blanco uno dos tres cuatro cinco seis siete ocho nueve", en: "blank one two three four five six seven eight nine" },
  table_played: { es: "{name} jugó {tile} {where}", en: "{name} played {tile} {where}" },
  table_you_played: { es: "Jugaste {tile} {where}", en: "You played {tile} {where}" },
  table_where_left: { es: "a la izquierda", en: "on the left" },
  table_where_right: { es: "a la derecha", en: "on the right" },
  table_where_first: { es: "de salida", en: "to lead" },
  table_drew: { es: "{name} robó del pozo", en: "{name} drew from the boneyard" },
  table_you_drew: { es: "Robaste del pozo", en: "You drew from the boneyard" },
  table_passed: { es: "{name} pasó", en: "{name} passed" },
  table_you_passed: { es: "Pasaste", en: "You passed" },
  table_gain_for: { es: "{points} para {name}", en: "{points} for {name}" },
  table_palitos: { es: "{n} palitos", en: "{n} palitos" },
  table_palito_one: { es: "1 palito", en: "1 palito" },
  table_palito_word: { es: "palitos", en: "palitos" },
  table_palito_word_one: { es: "palito", en: "palito" },
  table_scores: { es: "Marcador", en: "Score" },
  table_tiles_left: { es: "{name}: {n} fichas", en: "{name}: {n} tiles" },
  table_playable: { es: "se puede jugar", en: "playable" },
  table_play_here: { es: "juega aquí", en: "play here" },
  table_not_this_end: { es: "Esa ficha no pega en esa punta.", en: "That tile does not fit that end." },
  table_flip: { es: "Voltear la ficha", en: "Turn the tile round" },
  table_keyboard_hint: {
    es: "Flechas para elegir ficha, Enter para jugarla, F para voltearla, I o D para la punta. También puedes arrastrarla a una punta.",
    en: "Arrows choose a tile, Enter plays it, F turns it round, L or R picks the end. You can also drag it onto an end.",
  },
  table_line_tiles: { es: "La mesa: {n} fichas jugadas", en: "The table: {n} tiles played" },
  table_share: { es: "Compartir", en: "Share" },
  // «Pista» at a practice table (hint.js): the machine's suggestion, as the server gave it
  hint: { es: "Pista", en: "Hint" },
  hint_title: { es: "Pista: qué jugaría la máquina en tu lugar", en: "Hint: what the machine would play in your place" },
  hint_thinking: { es: "Pista…", en: "Hint…" },
  hint_play: { es: "Pista: juega el {tile} {where}", en: "Hint: play the {tile} {where}" },
  hint_lead: { es: "Pista: sal con el {tile}", en: "Hint: lead with the {tile}" },
  hint_draw: { es: "Pista: roba del pozo", en: "Hint: draw from the boneyard" },
  hint_pass: { es: "Pista: pasa", en: "Hint: pass" },
  hint_mark: { es: "la pista", en: "the hint" },
  table_share_text: { es: "Ven a jugar dominó conmigo en Tranque:", en: "Come and play dominó with me on Tranque:" },
  ...MESSAGES_REPLAY,
  ...MESSAGES_ANALYSIS,
  ...MESSAGES_LUCK,
  ...FRIENDS_MESSAGES,
  ...BOTS_MESSAGES,
  ...MODERATION_MESSAGES,
  ...TOURNAMENTS_MESSAGES,
  ...TABLE_MESSAGES,
  ...LEARN_MESSAGES,
  ...ALERTS_MESSAGES,
  ...SEATS_MESSAGES,
  ...PENAS_MESSAGES,
  ...TALK_MESSAGES,
  ...SEASONS_MESSAGES,
};

const NUMBER_WORDS = {
  es: ["blanco", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve"],
  en: ["blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"],
};

export const PHRASES = {
  buena: { es: "¡Buena!", en: "Nice one!" },
  gracias: { es: "Gracias", en: "Thanks" },
  rapido: { es: "Juega rápido", en: "Play faster" },
  suerte: { es: "¡Suerte!", en: "Good luck!" },
  bien_jugado: { es: "Bien jugado", en: "Well played" },
  uy: { es: "¡Uy!", en: "Oops!" },
  otra: { es: "¿Otra?", en: "Another?" },
  paso: { es: "¡Paso!", en: "I pass!" },
  capicua: { es: "¡Capicúa!", en: "Capicúa!" },
  se_tranco: { es: "¡Se trancó!", en: "It's blocked!" },
  dale: { es: "¡Dale!", en: "Go on!" },
  agua: { es: "¡Agua!", en: "Shuffle!" },
};

let lang = localStorage.getItem("tranque.lang") === "en" ? "en" : "es";

export function currentLang() {
  return lang;
}

export function setLang(value) {
  lang = value === "en" ? "en" : "es";
  localStorage.setItem("tranque.lang", lang);
  document.documentElement.lang = lang;
}

// A lazily loaded page's own messages (the admin's), added when its module loads, so that the
// home page's first load does not carry them.
export function addMessages(messages) {
  Object.assign(MESSAGES, messages);
}

export function t(key, params = {}) {
  const entry = MESSAGES[key];
  let text = entry ? entry[lang] || entry.es : key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

// What a server refusal says, in the reader's language: refusals carry `message` (Spanish)
// and `message_en` (docs/protocol.md, «Errors»); anything else reads as a generic failure.
export function serverMessage(error) {
  if (!error) return t("error_generic");
  const text = lang === "en" ? error.message_en || error.message : error.message || error.message_en;
  return text || t("error_generic");
}

// A server-sent name that comes in both languages (bots: `name` and `name_en`), or a plain string.
export function localName(entry, field = "name") {
  if (entry === null || entry === undefined) return "";
  if (typeof entry === "string") return entry;
  return (lang === "en" && entry[`${field}_en`]) || entry[field] || "";
}

export function phrase(key) {
  const entry = PHRASES[key];
  return entry ? entry[lang] : key;
}

export function tileLabel(a, b) {
  const words = NUMBER_WORDS[lang];
  return t("tile_label", { a: words[a], b: words[b] });
}
