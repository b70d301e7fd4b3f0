// The home page's «Reparto del día» card: a link to #/reparto. Light on purpose, like
// puzzles_card.js: the page itself (reparto.js) loads only when asked for.

import { t } from "./i18n.js";
import { el, button } from "./dom.js";

export function repartoCard(app) {
  const card = el(
    "section",
    { class: "card reparto-card", "aria-labelledby": "reparto-card-title" },
    el("h2", { id: "reparto-card-title", text: t("rd_card_title") }),
    el("p", { text: t("rd_card_text") }),
  );
  const go = button(t("rd_card_go"), () => app.go("#/reparto"), "primary");
  go.id = "reparto-card-go";
  card.append(go);
  return card;
}
