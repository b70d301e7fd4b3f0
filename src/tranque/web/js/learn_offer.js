// The home page's first-visit offer of Aprender («¿Primera vez? …», dismissible and
// remembered in this browser) and the link to it under «Cómo se juega».

import { t } from "./i18n.js";
import { el, button } from "./dom.js";
import { OFFER_KEY } from "./learn_format.js";

export function learnOffer(app) {
  if (localStorage.getItem(OFFER_KEY)) return null;
  const box = el("section", { class: "learn-offer card", "aria-labelledby": "learn-offer-title" });
  const close = button(t("ln_offer_close"), () => {
    localStorage.setItem(OFFER_KEY, "closed");
    box.remove();
  }, "link");
  close.id = "learn-offer-close";
  const go = button(t("ln_offer_go"), () => app.go("#/aprender"), "primary");
  go.id = "learn-offer-go";
  box.append(el("p", { id: "learn-offer-title", class: "learn-offer-title", text: t("ln_offer") }), el("div", { class: "learn-offer-actions" }, go, close));
  return box;
}

export function learnLink() {
  return el("p", { class: "learn-link" }, el("a", { href: "#/aprender", id: "learn-link", text: t("ln_howto_link") }));
}
