// Peña against peña (docs/tournaments.md, «Peña against peña»): on a tournament's page, the
// peñas' standing the server computed (each peña's best N players count), and for
// registering, the peña one plays for.

import { t } from "./i18n.js";
import { el } from "./dom.js";

export function battleBox(detail) {
  const counting = (detail.config && detail.config.battle_counting) || 0;
  const head = el("tr", {},
    el("th", { scope: "col", class: "num", text: t("bt_col_rank") }),
    el("th", { scope: "col", text: t("bt_col_pena") }),
    el("th", { scope: "col", class: "num" }, el("abbr", { title: t("bt_col_score_long"), text: t("bt_col_score") })),
    el("th", { scope: "col", class: "num" }, el("abbr", { title: t("bt_col_eff_long"), text: t("bt_col_eff") })),
    el("th", { scope: "col", text: t("bt_col_counted") }));
  const body = el("tbody");
  for (const row of detail.battle) {
    const name = row.slug ? el("a", { href: `#/penas/${encodeURIComponent(row.slug)}`, text: row.name }) : el("span", { text: row.name });
    body.append(el("tr", { "data-pena": row.pena_id },
      el("td", { class: "num", text: String(row.rank) }),
      el("td", { class: "who" }, name, el("span", { class: "note", text: t("bt_players", { n: row.entrants }) })),
      el("td", { class: "num bt-score", text: String(row.score) }),
      el("td", { class: "num", text: row.efectividad > 0 ? `+${row.efectividad}` : String(row.efectividad) }),
      el("td", { class: "bt-counted", text: row.counted.join(", ") })));
  }
  return el("section", { class: "profile-card tn-battle", "aria-labelledby": "tn-battle-title" },
    el("h2", { id: "tn-battle-title", text: t("bt_title") }),
    el("p", { class: "note", text: t("bt_rule", { n: counting }) }),
    el("div", { class: "scroll", tabindex: 0 }, el("table", { class: "ranking-table tn-battle-table" }, el("thead", {}, head), body)));
}

// The field «Juego por la peña…» of the register form, and the chosen peña's id.
export function penaPicker(detail) {
  const select = el("select", { id: "tn-pena", name: "pena" },
    ...detail.battle.map((row) => el("option", { value: row.pena_id, text: row.name })));
  const field = el("div", { class: "tn-field" }, el("label", { for: "tn-pena", text: t("bt_play_for") }), select,
    el("p", { class: "note", text: t("bt_play_for_hint") }));
  return { field, value: () => Number(select.value) };
}
