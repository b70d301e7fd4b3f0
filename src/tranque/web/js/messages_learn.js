// What Aprender says (learn.js, learn_offer.js): the path, each lesson's title and summary,
// each step's goal (`ln_goal_<goal>`), each wrong move's why (`ln_why_<why>`) and the rest.
// The goals and whys are keyed by the server's lessons (src/tranque/server/learn/lessons.py).

export const LEARN_MESSAGES = {
  ln_nav: { es: "Aprender", en: "Learn" },
  ln_title: { es: "Aprender", en: "Learn" },
  ln_intro: {
    es: "Lecciones cortas: cada una tiene una meta en una mano ya preparada. Haz la jugada que pide; si te equivocas, te decimos por qué.",
    en: "Short lessons: each has one goal on a prepared hand. Make the move it asks for; if you go wrong, we tell you why.",
  },
  ln_offer: { es: "¿Primera vez? Aprende a jugar en unos minutos", en: "First time? Learn to play in a few minutes" },
  ln_offer_go: { es: "Empezar a aprender", en: "Start learning" },
  ln_offer_close: { es: "No, gracias", en: "No, thanks" },
  ln_howto_link: { es: "Aprende a jugar paso a paso, con lecciones cortas", en: "Learn to play step by step, with short lessons" },
  ln_guest_note: {
    es: "Tus estrellas se guardan en este navegador; entra con tu cuenta para guardarlas en ella.",
    en: "Your stars are kept in this browser; log in to keep them in your account.",
  },
  ln_stars: { es: "{n} de 3 estrellas", en: "{n} of 3 stars" },
  ln_no_stars: { es: "Sin hacer", en: "Not done yet" },
  ln_next_mark: { es: "Sigue esta", en: "Up next" },
  ln_step: { es: "Paso {n} de {of}", en: "Step {n} of {of}" },
  ln_lesson_n: { es: "Lección {n}", en: "Lesson {n}" },
  ln_back: { es: "Volver a Aprender", en: "Back to Learn" },
  ln_next_step: { es: "Siguiente paso", en: "Next step" },
  ln_next_lesson: { es: "Siguiente lección", en: "Next lesson" },
  ln_again: { es: "Repetir la lección", en: "Repeat the lesson" },
  ln_all_done: { es: "¡Terminaste todas las lecciones! Ya puedes practicar contra la máquina.", en: "You finished every lesson! Now practise against the machine." },
  ln_draw: { es: "Robar", en: "Draw" },
  ln_pass: { es: "Pasar", en: "Pass" },
  ln_hand: { es: "Tu mano", en: "Your hand" },
  ln_others: { es: "{who}: {n} fichas", en: "{who}: {n} tiles" },
  ln_pozo: { es: "Pozo: {n}", en: "Boneyard: {n}" },
  ln_controls: {
    es: "Toca una ficha y luego una punta, o arrástrala a la punta. Con teclado: Tab hasta tu mano, flechas para elegir, Enter para jugar, i o d para la punta izquierda o derecha, F para voltearla (o toca debajo de la ficha).",
    en: "Tap a tile, then an end, or drag it onto the end. By keyboard: Tab to your hand, arrows to choose, Enter to play, i or d for the left or right end, F to turn it round (or tap below the tile).",
  },
  ln_controls_title: { es: "Cómo se juega: ratón, dedo y teclado", en: "How to play: mouse, finger and keyboard" },
  ln_pick_end: { es: "La {tile} está lista: toca una punta o pulsa i / d.", en: "The {tile} is ready: tap an end or press i / d." },
  ln_good: { es: "¡Bien!", en: "Well done!" },
  ln_step_done: { es: "¡Meta cumplida!", en: "Goal met!" },
  ln_wrong: { es: "Esa no.", en: "Not that one." },
  ln_punished: { es: "Mira lo que pasa. {reply}", en: "See what happens. {reply}" },
  ln_try_again: { es: "Inténtalo otra vez.", en: "Try again." },
  ln_lesson_done: { es: "¡Lección terminada! {stars}", en: "Lesson done! {stars}" },
  ln_tries: { es: "Jugadas: {tries} (lo justo: {par})", en: "Moves: {tries} (par: {par})" },
  ln_loading_error: { es: "No se pudo cargar la lección.", en: "The lesson could not be loaded." },
  ln_after_label: { es: "La mesa después de tu jugada y la respuesta", en: "The table after your move and the reply" },
  // Who the others are, from the learner's seat (0).
  ln_seat_rival: { es: "Tu rival", en: "Your opponent" },
  ln_seat_right: { es: "El rival de tu derecha", en: "The opponent on your right" },
  ln_seat_partner: { es: "Tu compañero", en: "Your partner" },
  ln_seat_left: { es: "El rival de tu izquierda", en: "The opponent on your left" },
  ln_seat_other: { es: "El jugador {n}", en: "Player {n}" },
  ln_reply_play: { es: "{who} juega la {tile}.", en: "{who} plays the {tile}." },
  ln_reply_pass: { es: "{who} pasa.", en: "{who} passes." },
  ln_reply_draw: { es: "{who} roba.", en: "{who} draws." },
  ln_you_drew: { es: "Robaste la {tile}.", en: "You drew the {tile}." },
  ln_result_domino: { es: "Dominó: la mano es tuya y anotas {points}.", en: "Dominó: the round is yours and you score {points}." },
  ln_result_tranque: { es: "Tranque: nadie puede jugar y la mano es tuya: anotas {points}.", en: "Tranque: nobody can play and the round is yours: you score {points}." },
  ln_result_lost: { es: "{who} gana la mano.", en: "{who} wins the round." },
  ln_palitos: { es: "Palitos de tu pareja en esta mano: {n}.", en: "Your pair's palitos this round: {n}." },

  // The path: titles and one-line summaries, by lesson id.
  ln_t_fichas: { es: "Las fichas", en: "The tiles" },
  ln_s_fichas: { es: "Cuánto vale cada ficha y qué es una mula.", en: "What each tile is worth, and what a double is." },
  ln_t_pegar: { es: "Pegar", en: "Matching" },
  ln_s_pegar: { es: "Casar una ficha con una punta, y elegir la punta.", en: "Matching a tile to an end, and choosing the end." },
  ln_t_obligado: { es: "Si puedes, juegas", en: "If you can, you play" },
  ln_s_obligado: { es: "Con ficha que pega no se pasa ni se roba.", en: "With a tile that fits you neither pass nor draw." },
  ln_t_robar: { es: "Robar del pozo", en: "Drawing from the boneyard" },
  ln_s_robar: { es: "Sin ficha, robas hasta que salga una que pegue.", en: "With nothing to play, draw until a tile fits." },
  ln_t_pasar: { es: "Pasar", en: "Passing" },
  ln_s_pasar: { es: "Sin ficha y sin pozo, pasas.", en: "With nothing to play and no boneyard, you pass." },
  ln_t_domino_y_tranque: { es: "Dominó y tranque", en: "Dominó and tranque" },
  ln_s_domino_y_tranque: { es: "Las dos maneras de acabar una mano.", en: "The two ways a round ends." },
  ln_t_contar_tranque: { es: "Contar el tranque", en: "Counting a tranque" },
  ln_s_contar_tranque: { es: "Tranca solo si te quedan menos puntos.", en: "Block only when you hold fewer pips." },
  ln_t_parejas: { es: "Tu compañero", en: "Your partner" },
  ln_s_parejas: { es: "No le tapes el número a tu pareja.", en: "Don't cover your partner's number." },
  ln_t_salida: { es: "La salida", en: "Who leads" },
  ln_s_salida: { es: "Quién sale en la primera mano, y con qué.", en: "Who leads the first round, and with what." },
  ln_t_leer_pases: { es: "Leer los pases y contar", en: "Reading passes and counting" },
  ln_s_leer_pases: { es: "Quien pasa no tiene ese número; y contando sabes cuántos quedan.", en: "Whoever passes lacks that number; counting tells you how many are left." },
  ln_t_ponce: { es: "Ponce: los palitos", en: "Ponce: palitos" },
  ln_s_ponce: { es: "Cada pase de los contrarios te da palitos.", en: "Each pass by your opponents earns you palitos." },
  ln_t_futbol: { es: "Fútbol: los goles", en: "Fútbol: goals" },
  ln_s_futbol: { es: "Menos de 10 puntos al perdedor es gol para él.", en: "Under 10 pips left to the loser is a goal for them." },
  ln_t_en_contra: { es: "En contra", en: "En contra" },
  ln_s_en_contra: { es: "Lo que te queda suma en tu contra.", en: "What you hold counts against you." },
  ln_t_maracucho: { es: "Maracucho: tranque individual", en: "Maracucho: one-player tranque" },
  ln_s_maracucho: { es: "El tranque lo gana el jugador con menos, no la pareja.", en: "The tranque goes to the player with fewest, not the pair." },
  ln_t_salon: { es: "Salón: el empate", en: "Salón: the tie" },
  ln_s_salon: { es: "Un tranque empatado lo gana quien salió.", en: "A tied tranque goes to whoever led." },

  // Each step's goal, in one sentence.
  "ln_goal_fichas.heaviest": {
    es: "Sales tú. Cada ficha vale la suma de sus puntos: sal con la que más vale.",
    en: "You lead. A tile is worth the sum of its pips: lead with the one worth most.",
  },
  "ln_goal_fichas.double": {
    es: "Una mula (un doble) tiene los dos lados iguales. Sal con tu mula.",
    en: "A double has both halves the same. Lead with your double.",
  },
  "ln_goal_pegar.match": {
    es: "Pega una ficha que case con una de las dos puntas de la mesa.",
    en: "Play a tile that matches one of the two ends of the line.",
  },
  "ln_goal_pegar.right": {
    es: "La 4-2 cabe en las dos puntas. Pégala en la punta derecha: arrástrala allá, o elígela y pulsa d.",
    en: "The 4-2 fits both ends. Play it on the right end: drag it there, or choose it and press d.",
  },
  "ln_goal_obligado.must": {
    es: "Si tienes ficha que pega, tienes que jugarla: no se vale pasar ni robar. Juega.",
    en: "If you hold a tile that fits, you must play it: no passing, no drawing. Play.",
  },
  "ln_goal_robar.draw": {
    es: "No tienes ficha para el 6. Roba del pozo hasta que salga una que pegue, y pégala.",
    en: "You have nothing for the 6. Draw from the boneyard until a tile fits, then play it.",
  },
  "ln_goal_pasar.pass": {
    es: "Aquí no hay pozo (las fichas que sobran no se roban) y no tienes 6: pasa.",
    en: "There is no boneyard here (the leftover tiles are not drawn) and you have no 6: pass.",
  },
  "ln_goal_domino.last": {
    es: "Te queda una sola ficha y pega: ponla y gana la mano con dominó.",
    en: "You have one tile left and it fits: play it and win the round with a dominó.",
  },
  "ln_goal_tranque.close": {
    es: "Puedes trancar: juega la ficha que deja a nadie con jugada. Te quedan menos puntos que a tu rival, así que ganas.",
    en: "You can block the game: play the tile that leaves nobody a move. You hold fewer pips than your opponent, so you win.",
  },
  "ln_goal_contar.lose": {
    es: "Antes de trancar, cuenta: si cierras aquí te quedan 13 puntos y a tu rival 8. No tranques: juega por la otra punta.",
    en: "Count before you block: closing here leaves you 13 pips and your opponent 8. Don't block: play on the other end.",
  },
  "ln_goal_contar.win": {
    es: "Cuenta otra vez: si trancas te quedan 11 puntos y a tu rival 16. Tranca y gana.",
    en: "Count again: blocking leaves you 11 pips and your opponent 16. Block and win.",
  },
  "ln_goal_parejas.partner": {
    es: "Tu compañero salió con la 5-5: seguro tiene más cincos. No le tapes el 5: juega por la otra punta.",
    en: "Your partner led the 5-5: they surely hold more fives. Don't cover the 5: play on the other end.",
  },
  "ln_goal_salida.six": {
    es: "Primera mano: sale quien tiene la 6-6, y sale con ella. La tienes tú.",
    en: "First round: whoever holds the 6-6 leads, and leads with it. You hold it.",
  },
  "ln_goal_salida.highest": {
    es: "Nadie recibió la 6-6 (quedó en el pozo): sale la mula más alta que se repartió. Búscala.",
    en: "Nobody was dealt the 6-6 (it is in the boneyard): the highest double dealt leads. Find it.",
  },
  "ln_goal_leer.pass": {
    es: "Tu rival pasó con el 6 y el 1 en las puntas: no tiene ninguno. Juega sin tapar esos números.",
    en: "Your opponent passed with 6 and 1 at the ends: they have neither. Play without covering those numbers.",
  },
  "ln_goal_leer.count": {
    es: "De cada número hay siete fichas. Cuenta los cincos de la mesa y los de tu mano: si son los siete, tu rival no tiene ninguno. Deja un 5 en las dos puntas y tendrá que pasar.",
    en: "Each number is on seven tiles. Count the fives on the table and in your hand: if they make seven, your opponent has none. Leave a 5 at both ends and they will have to pass.",
  },
  "ln_goal_ponce.passes": {
    es: "En Ponce cada pase da un palito a la pareja que jugó antes. Juega la ficha que hace pasar a todos.",
    en: "In Ponce each pass gives a palito to the pair that played before it. Play the tile that makes everyone pass.",
  },
  "ln_goal_futbol.goal": {
    es: "Fútbol: si al que pierde le quedan menos de 10 puntos, es gol para él. A tu rival le quedan 10: domina y anótalos.",
    en: "Fútbol: if the loser holds under 10 pips, it is a goal for them. Your opponent holds 10: go out and score them.",
  },
  "ln_goal_en_contra.heavy": {
    es: "En contra, lo que te queda en la mano suma en tu contra. Tu rival va a dominar: sácate la ficha más pesada que puedas.",
    en: "In en contra, what you hold counts against you. Your opponent is about to go out: shed the heaviest tile you can.",
  },
  "ln_goal_maracucho.alone": {
    es: "En Maracucho el tranque se cuenta por jugador: gana quien tenga menos, solo. Te quedan 6 puntos: tranca.",
    en: "In Maracucho a tranque is counted per player: whoever holds fewest wins, alone. You hold 6 pips: block.",
  },
  "ln_goal_salon.tie": {
    es: "En Salón, si el tranque empata gana quien salió (o el más cercano después). Saliste tú: tranca aunque empaten.",
    en: "In Salón a tied tranque goes to whoever led (or the nearest after them). You led: block even though it ties.",
  },

  // Why a legal move misses the goal.
  "ln_why_fichas.lighter": { es: "La {tile} vale {points} puntos: hay una que vale más.", en: "The {tile} is worth {points}: another is worth more." },
  "ln_why_fichas.not_double": {
    es: "La {tile} no es mula: una mula tiene los dos lados iguales, como la 3-3.",
    en: "The {tile} is not a double: a double has both halves the same, like the 3-3.",
  },
  "ln_why_pegar.wrong_end": {
    es: "Quedó en la punta izquierda. Para la derecha, arrástrala a la punta derecha o pulsa d.",
    en: "That went on the left end. For the right, drag it to the right end or press d.",
  },
  "ln_why_tranque.not_closed": {
    es: "Con la {tile} el juego sigue. Busca la ficha que deja las puntas sin jugada para nadie.",
    en: "With the {tile} the game goes on. Find the tile that leaves nobody a move.",
  },
  "ln_why_contar.closed_losing": {
    es: "Trancaste con más puntos que tu rival: él gana la mano y se anota los puntos.",
    en: "You blocked holding more pips than your opponent: they win the round and score.",
  },
  "ln_why_contar.missed_win": {
    es: "Con la {tile} no trancas: tenías el tranque ganado con menos puntos.",
    en: "The {tile} does not block: you had the tranque won with fewer pips.",
  },
  "ln_why_parejas.closed_partner": {
    es: "Tapaste el 5 de tu compañero: ahora puede quedarse sin jugada.",
    en: "You covered your partner's 5: now they may be left without a move.",
  },
  "ln_why_leer.opened": {
    es: "Tapaste el 6 y abriste el 4: tu rival sí tiene cuatros.",
    en: "You covered the 6 and opened a 4: your opponent does hold fours.",
  },
  "ln_why_leer.count_open": {
    es: "Con la {tile} quedó el 2 en una punta y tu rival pegó. Cuenta: cinco cincos en la mesa y dos en tu mano son los siete; con un 5 en cada punta tenía que pasar.",
    en: "With the {tile} a 2 stayed at one end and your opponent played on it. Count: five fives on the table and two in your hand make all seven; with a 5 at each end they had to pass.",
  },
  "ln_why_leer.count_end": {
    es: "La {tile} era, pero por la otra punta: pegada al 5 dejó un 2 en las dos puntas y tu rival pegó. Pégala al 2 y quedan cincos en las dos puntas.",
    en: "The {tile} was right, but on the other end: laid on the 5 it left a 2 at both ends and your opponent played. Lay it on the 2 and both ends show a 5.",
  },
  "ln_why_ponce.no_pass": {
    es: "Con la {tile} alguien todavía puede jugar: no cobras pases.",
    en: "With the {tile} someone can still play: no passes to collect.",
  },
  "ln_why_en_contra.kept_heavy": {
    es: "Así te quedan fichas más pesadas: cuando tu rival domine, suman en tu contra.",
    en: "That leaves you heavier tiles: when your opponent goes out, they count against you.",
  },
  "ln_why_maracucho.not_closed": {
    es: "Con la {tile} el juego sigue y pierdes el tranque que tenías ganado con tus 6 puntos.",
    en: "With the {tile} the game goes on and you lose the tranque your 6 pips had won.",
  },
  "ln_why_salon.not_closed": {
    es: "Con la {tile} no trancas; trancando empataban, y el empate es tuyo por haber salido.",
    en: "The {tile} does not block; blocking ties, and the tie is yours because you led.",
  },
};
