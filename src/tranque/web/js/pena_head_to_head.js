// «Cara a cara» on a peña's page: pick two of its members and see their record against and
// beside each other (head_to_head.js draws it from the server's answer). The first defaults
// to the reader when they are a member, the second to the first other member.

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { renderHeadToHead } from "./head_to_head.js";

let sections = 0; // ids for the labels, unique on the page

function memberSelect(id, names, chosen) {
  const select = el("select", { id, name: id });
  for (const name of names) select.append(el("option", { value: name, text: name, selected: name === chosen }));
  return select;
}

// The section for a peña's page `data` ({people: [{name}]}), or null with fewer than two members.
export function penaHeadToHead(data, me) {
  const names = data.people.map((person) => person.name);
  if (names.length < 2) return null;
  sections += 1;
  const firstName = names.includes(me) ? me : names[0];
  const secondName = names.find((name) => name !== firstName);
  const first = memberSelect(`pena-h2h-a-${sections}`, names, firstName);
  const second = memberSelect(`pena-h2h-b-${sections}`, names, secondName);
  const result = el("div", { class: "h2h-result", "aria-live": "polite" });
  const error = el("p", { class: "form-error", role: "alert", hidden: true });
  const form = el("form", { class: "h2h-compare pena-h2h-form" },
    el("div", { class: "h2h-compare-row" },
      el("label", { for: first.id, text: t("pn_h2h_first") }), first,
      el("label", { for: second.id, text: t("pn_h2h_second") }), second,
      el("button", { type: "submit", class: "primary", text: t("h2h_compare") })),
    error);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const same = first.value === second.value;
    error.hidden = !same;
    error.textContent = same ? t("pn_h2h_same") : "";
    if (same) result.replaceChildren();
    else renderHeadToHead(result, first.value, second.value, { level: 3 });
  });
  return el("section", { class: "profile-card pena-part pena-h2h" }, el("h2", { text: t("h2h_title") }), form, result);
}
