// Everything a player reads, in Spanish first and English second.

const MESSAGES = {
  brand: { es: "Tranque", en: "Tranque" },
  tagline: { es: "Dominó como se juega en Colombia y el Caribe", en: "Dominó the way Colombia and the Caribbean play" },
  play_now: { es: "Jugar ahora", en: "Play now" },
  play_now_hint: { es: "Te sentamos con otras personas, 2 o 4, a 100 puntos.", en: "We seat you with other people, 2 or 4, to 100 points." },
  practice: { es: "Practicar contra la máquina", en: "Practise against the machine" },
  practice_hint: { es: "Sin cuenta: empiezas enseguida.", en: "No account: you start at once." },
  create_table: { es: "Crear mesa", en: "Create a table" },
  login: { es: "Entrar / Crear cuenta", en: "Log in / Sign up" },
  logout: { es: "Salir", en: "Log out" },
  lobby: { es: "Mesas abiertas", en: "Open tables" },
  lobby_empty: { es: "No hay mesas esperando jugadores ahora.", en: "No tables are waiting for players now." },
  sit: { es: "Sentarme", en: "Sit down" },
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
  to_target: { es: "a {n}", en: "to {n}" },
  choose_end: { es: "Esa ficha pega en las dos puntas: toca la punta donde la pones.", en: "That tile fits both ends: tap the end to play it on." },
  not_playable: { es: "La ficha {tile} no pega en ninguna punta.", en: "Tile {tile} fits neither end." },
  not_your_turn: { es: "Espera tu turno.", en: "Wait for your turn." },
  must_draw: { es: "No tienes ficha que pegue: roba del pozo.", en: "No tile fits: draw from the boneyard." },
  left_end: { es: "punta izquierda", en: "left end" },
  right_end: { es: "punta derecha", en: "right end" },
  ends: { es: "Puntas", en: "Ends" },
  played_of: { es: "Del {n} ya se jugaron {k} de {total}.", en: "{k} of {total} tiles with {n} are already played." },
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
  covered: { es: "La máquina juega por ti por ausencia.", en: "The machine is playing for you while away." },
  spectating: { es: "Estás mirando esta mesa.", en: "You are watching this table." },
  round_over: { es: "Fin de la mano", en: "Round over" },
  domino_by: { es: "¡Dominó de {name}!", en: "Dominó by {name}!" },
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
  keyboard_hint: { es: "Flechas para elegir ficha, Enter para jugarla.", en: "Arrows choose a tile, Enter plays it." },
  seconds: { es: "{n} s", en: "{n} s" },
  language: { es: "English", en: "Español" },
  bot: { es: "Máquina", en: "Machine" },
  away: { es: "ausente", en: "away" },
  login_needed: { es: "Para jugar con otras personas entra con tu cuenta.", en: "Log in to play with other people." },
  logged_as: { es: "Hola, {name}", en: "Hi, {name}" },
  seat_n: { es: "Puesto {n}", en: "Seat {n}" },
  // The table (branch `table`)
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
  table_share_text: { es: "Ven a jugar dominó conmigo en Tranque:", en: "Come and play dominó with me on Tranque:" },
  table_see_final: { es: "Ver el resultado final", en: "See the final result" },
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

export function t(key, params = {}) {
  const entry = MESSAGES[key];
  let text = entry ? entry[lang] || entry.es : key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

export function phrase(key) {
  const entry = PHRASES[key];
  return entry ? entry[lang] : key;
}

export function tileLabel(a, b) {
  const words = NUMBER_WORDS[lang];
  return t("tile_label", { a: words[a], b: words[b] });
}
