// The «?» of a provisional rating, as a button that says what it means (not a hover-only
// title): a first rating reads low (about 450, docs/protocol.md «Rated games»: the shown
// rating subtracts three times the model's doubt) and moves a lot with each game. How many
// games until it is firm is the model's: with OpenSkill's defaults σ stays above 2.5 for more
// than 50 games even in the fastest case (a duel against well-known rivals, winning and losing
// in turn: 56; against other newcomers 85, more in pairs and groups; tests/web/test_seats_texts.py).

import { t } from "./i18n.js";
import { el } from "./dom.js";

export const FIRM_AFTER_GAMES = 50;

let marks = 0;

// A «?» button and, once pressed, the explanation over the page's foot (Escape, a second press
// or a tap on it hides it).
export function provisionalMark() {
  marks += 1;
  const id = `prov-note-${marks}`;
  const note = el("span", { class: "prov-note", id, role: "note", text: t("prov_explain", { n: FIRM_AFTER_GAMES }) });
  note.hidden = true;
  const mark = el("button", { type: "button", class: "prov-mark", "aria-expanded": "false", "aria-controls": id, "aria-label": t("prov_mark_label"), text: "?" });
  const show = (open) => {
    note.hidden = !open;
    mark.setAttribute("aria-expanded", String(open));
  };
  mark.addEventListener("click", (event) => {
    event.stopPropagation(); // inside a link or a summary, only the explanation opens
    event.preventDefault();
    show(note.hidden);
  });
  mark.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && !note.hidden) show(false);
  });
  note.addEventListener("click", (event) => {
    event.stopPropagation();
    show(false); // a tap on the explanation puts it away
  });
  return el("span", { class: "prov" }, mark, note);
}
