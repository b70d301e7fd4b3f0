// The words of the bots' levels, of leaving a table and of the provisional rating (es/en).
// The levels' titles are the server's (GET /api/bots; tests/web/test_seats_browser.py checks
// they agree).

export const SEATS_MESSAGES = {
  lvl_random: { es: "Novato", en: "Beginner" },
  lvl_greedy: { es: "Bota gorda", en: "Heavy hitter" },
  lvl_heuristic: { es: "Jugador de patio", en: "Backyard player" },
  lvl_expert: { es: "Maestro", en: "Master" },
  // Leaving (js/leaving.js)
  lv_leave: { es: "Salir de la mesa", en: "Leave the table" },
  lv_leave_confirm: { es: "¿Salir de la mesa? Tu puesto queda libre para otra persona.", en: "Leave the table? Your seat is freed for someone else." },
  lv_leave_confirm_host: {
    es: "¿Salir de la mesa? Como nadie más está sentado, la mesa se cierra.",
    en: "Leave the table? As nobody else is seated, the table closes.",
  },
  lv_abandon: { es: "Abandonar", en: "Abandon" },
  lv_abandon_title: { es: "¿Abandonar la partida?", en: "Abandon the game?" },
  lv_abandon_casual: {
    es: "Si abandonas, la máquina juega por ti hasta el final de la partida y no podrás volver a tu puesto.",
    en: "If you abandon, the machine plays for you until the end of the game and you cannot come back to your seat.",
  },
  lv_abandon_rated: {
    es: "Si abandonas, la máquina juega por ti hasta el final y, como la partida es competitiva, cuenta como perdida y sin XP.",
    en: "If you abandon, the machine plays for you until the end and, as the game is competitive, it counts as lost, with no XP.",
  },
  lv_confirm_leave: { es: "Sí, salir", en: "Yes, leave" },
  lv_confirm_abandon: { es: "Sí, abandonar", en: "Yes, abandon" },
  lv_stay: { es: "Seguir en la mesa", en: "Stay at the table" },
  // The provisional rating (js/provisional.js)
  prov_mark_label: { es: "Rating provisional: ¿qué significa?", en: "Provisional rating: what does it mean?" },
  prov_explain: {
    es: "Rating provisional: el sistema todavía no te conoce y descuenta esa duda, por eso empieza bajo (unos 450) y cambia mucho con cada partida; sube a medida que juegas. Se vuelve firme tras más de {n} partidas.",
    en: "Provisional rating: the system does not know you yet and discounts that doubt, so it starts low (about 450) and moves a lot with each game; it rises as you play. It becomes firm after more than {n} games.",
  },
  prov_yours: { es: "Tu rating: {n}", en: "Your rating: {n}" },
};
