// What «la suerte del reparto» (luck_view.js) says, Spanish first.

export const MESSAGES_LUCK = {
  lk_title: { es: "¿Suerte o juego?", en: "Luck or play?" },
  lk_intro: {
    es: "Lo que daba cada reparto: la misma mano jugada muchas veces por jugadores igual de buenos, al lado de lo que de verdad se hizo.",
    en: "What each deal gave: the same hand played many times by equally good players, beside what was really made of it.",
  },
  lk_expected: {
    es: "Con esas fichas, jugando todos igual de bien, se esperaba: {sides}.",
    en: "With those tiles, everyone playing equally well, the expectation was: {sides}.",
  },
  lk_result: { es: "Resultado: {sides}.", en: "Result: {sides}." },
  lk_favoured: { es: "El reparto favorecía a {name}.", en: "The deal favoured {name}." },
  lk_even: { es: "El reparto estaba parejo.", en: "The deal was even." },
  lk_against: { es: "(En contra: los puntos son en contra, menos es mejor.)", en: "(En contra: points count against, fewer is better.)" },
  lk_palitos: { es: "{n} palitos", en: "{n} palitos" },
  lk_round: { es: "Mano {n}", en: "Hand {n}" },
  lk_ask_round: { es: "¿Fue suerte o juego? Ver lo que daba el reparto", en: "Luck or play? See what the deal gave" },
  lk_ask_game: { es: "Ver lo que daba el reparto de cada mano", en: "See what each hand's deal gave" },
  lk_pending: { es: "Calculando lo que daba el reparto…", en: "Working out what the deal gave…" },
  lk_none: { es: "No hay manos terminadas que mostrar.", en: "There are no finished hands to show." },
  lk_team: { es: "Pareja {letter}", en: "Team {letter}" },
};
