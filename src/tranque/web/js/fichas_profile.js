// Your fichas on your own profile (players.js, only when the profile is yours): the balance and
// the history of movements, from GET /api/me/fichas, a game's movements with a link to its
// replay once it is kept. Nothing at all when fichas are off.

import { currentLang } from "./i18n.js";
import { say } from "./fichas_words.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";

const PAGE = 30;

export function fichasSection() {
  const box = el("section", { class: "profile-card fichas", id: "fichas", "aria-labelledby": "pl-fichas", hidden: true });
  api(`/api/me/fichas?limit=${PAGE}`).then(
    (data) => (data && data.enabled ? fill(box, data) : box.remove()),
    () => box.remove(),
  );
  return box;
}

function fill(box, data) {
  const list = el("ol", { class: "fichas-history" });
  const more = el("p", { class: "fichas-more" });
  const add = (page) => {
    list.append(...page.movements.map(line));
    more.replaceChildren();
    if (page.next_before) {
      more.append(button(say("fichas_more"), () =>
        api(`/api/me/fichas?limit=${PAGE}&before=${page.next_before}`).then(add, () => more.replaceChildren())));
    }
  };
  box.replaceChildren(
    el("h2", { id: "pl-fichas", text: say("fichas_title") }),
    el("p", { class: "fichas-balance", "data-balance": data.balance, text: say("fichas_balance", { n: data.balance }) }),
    el("p", { class: "note", text: say("fichas_note", { floor: data.floor }) }),
    el("h3", { text: say("fichas_history") }),
    list,
    more,
  );
  add(data);
  box.hidden = false;
}

function line(movement) {
  const english = currentLang() === "en";
  const amount = movement.amount > 0 ? `+${movement.amount}` : `−${Math.abs(movement.amount)}`;
  const when = new Date(movement.at * 1000).toLocaleString(english ? "en" : "es-CO", { dateStyle: "short", timeStyle: "short" });
  const replay = movement.replay
    ? el("a", { class: "fichas-game", href: `#/partida/${encodeURIComponent(movement.game)}`, text: say("fichas_see_game") })
    : null;
  return el("li", { class: `fichas-line ${movement.amount > 0 ? "in" : "out"}`, "data-kind": movement.kind },
    el("span", { class: "fichas-text" }, english ? movement.text_en : movement.text, replay ? " · " : null, replay),
    el("span", { class: "fichas-amount num", text: amount }),
    el("time", { class: "note", datetime: new Date(movement.at * 1000).toISOString(), text: when }));
}
