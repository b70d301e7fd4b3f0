// The home page's «Tus peñas» for a signed-in player (GET /api/me/penas): each of their peñas
// with its crest, a link to its page and its role; none yet: a link to find or create one.

import { t } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { avatarUrl } from "./players_format.js";

export function myPenasCard() {
  const list = el("ul", { class: "my-penas-list" });
  const card = el("section", { class: "card my-penas", "aria-busy": "true" }, el("h2", { text: t("pn_mine") }), list);
  api("/api/me/penas").then((penas) => {
    card.removeAttribute("aria-busy");
    for (const pena of penas) {
      list.append(el("li", { "data-slug": pena.slug },
        el("a", { href: `#/penas/${encodeURIComponent(pena.slug)}` },
          el("img", { class: "pena-crest small", src: avatarUrl(pena.crest), alt: "", width: 32, height: 32 }),
          el("span", { text: pena.name })),
        pena.role === "leader" ? el("span", { class: "pena-badge leader", text: t("pn_leader") }) : null));
    }
    if (!penas.length) list.append(el("li", { class: "note", text: t("pn_mine_none") }));
    card.append(el("a", { class: "my-penas-find", href: "#/penas", text: t("pn_mine_find") }));
  }, () => card.remove());
  return card;
}
