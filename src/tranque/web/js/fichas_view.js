// The fichas at a table (docs/protocol.md «sit», «pot», «game_ended»): the stake select of the
// create-table form (GET /api/stakes: none when the site has fichas off), «Apuesta: 50
// fichas» in the lobby, «Bote: 100 fichas» at the table and each seat's movement on the
// game-end card (`ficha_changes`).

import { t, MESSAGES } from "./i18n.js";
import { FICHAS_MESSAGES } from "./messages_fichas.js";

Object.assign(MESSAGES, FICHAS_MESSAGES);

const MINUS = "\u2212"; // «−50 fichas»: a true minus sign, not a hyphen

// A movement as the card writes it: «+60», «−50».
export function signedFichas(amount) {
  return amount > 0 ? `+${amount}` : amount < 0 ? `${MINUS}${-amount}` : "0";
}

// «Apuesta: 50 fichas»; "" for a table without a stake.
export function stakeText(stake) {
  return stake > 0 ? t("fi_stake", { n: stake }) : "";
}

// «Bote: 100 fichas»; "" for a table without a stake.
export function potText(stake, pot) {
  return stake > 0 ? t("fi_pot", { n: pot || 0 }) : "";
}

// The options of the create-table form's stake select: «Sin apuesta» and the site's levels.
export function stakeOptions(levels) {
  return [`<option value="0">${t("fi_no_stake")}</option>`, ...levels.map((n) => `<option value="${Number(n)}">${t("fi_stake_option", { n: Number(n) })}</option>`)].join("");
}

// The stake select of the create-table form, shown only for a competitive table («competitiva»
// chosen in `form`) and only when the site plays for fichas.
export function attachStakeSelect(form, api) {
  const competitive = () => (form.querySelector("input[name=competitive]:checked") || {}).value === "yes";
  const label = document.createElement("label");
  label.className = "stake-choice";
  label.hidden = true;
  label.innerHTML = `${t("fi_stake_label")} <select name="stake"><option value="0">${t("fi_no_stake")}</option></select> <span class="note">${t("fi_stake_hint")}</span>`;
  const select = label.querySelector("select");
  let enabled = false;
  const show = () => {
    label.hidden = !(enabled && competitive());
    if (label.hidden) select.value = "0";
  };
  api("/api/stakes").then((answer) => {
    enabled = Boolean(answer && answer.enabled && answer.stakes && answer.stakes.length);
    if (enabled) select.innerHTML = stakeOptions(answer.stakes);
    show();
  }, () => {});
  form.querySelectorAll("input[name=competitive]").forEach((radio) => radio.addEventListener("change", show));
  return { root: label, stake: () => (label.hidden ? 0 : Number(select.value) || 0) };
}

// The game-end card's section: each staked seat's movement, then the bank's cut; null when
// the game moved no fichas.
export function fichaChanges(view, changes) {
  if (!Array.isArray(changes) || !changes.length) return null;
  const list = document.createElement("ul");
  list.className = "ficha-changes";
  for (const change of changes) {
    const item = document.createElement("li");
    if (change.seat === null || change.seat === undefined) {
      item.className = "ficha-cut";
      item.textContent = t("fi_cut", { n: change.amount });
    } else {
      item.className = change.amount > 0 ? "ficha-won" : "ficha-lost";
      item.textContent = t("fi_change", { name: view.nameOf(change.seat), amount: signedFichas(change.amount) });
    }
    list.append(item);
  }
  const section = document.createElement("section");
  section.className = "res-fichas";
  const heading = document.createElement("h3");
  heading.textContent = t("fi_title");
  section.append(heading, list);
  return section;
}
