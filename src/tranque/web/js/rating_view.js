// The table's line about the ranking (sync `rating`, docs/protocol.md): whether this game
// counts, each team's chance of winning when it does, or why it does not; and, on the
// game-end card, each rated seat's change of rating and the XP it earned (`rating_changes`).
//
// What these need of the table view (`view`): `state.rules` and `nameOf(seat)`.

import { t } from "./i18n.js";
import { el } from "./dom.js";
import { ratingLine, signed } from "./players_format.js";
import { provisionalMark } from "./provisional.js";

export function ratingLineText(view, rating) {
  const line = ratingLine(rating);
  if (!line) return "";
  const text = t(line.key);
  if (!line.chances.length) return text;
  const list = line.chances.map((n, team) => t("pl_chance", { name: shortTeamName(view, team), n })).join(", ");
  return `${text} · ${t("pl_chances", { list })}`;
}

// A team as the header marks it: the pair's letter in pairs (the header lists its members),
// the player's name alone.
function shortTeamName(view, team) {
  const rules = view.state && view.state.rules;
  return rules && rules.mode === "pairs" ? `${t("team")} ${"ABC"[team]}` : view.nameOf(team);
}

// The rated game's changes, one line a seat; null when the game was not rated.
export function ratingChanges(view, changes) {
  if (!Array.isArray(changes) || !changes.length) return null;
  const list = el("ul", { class: "rating-changes" });
  for (const change of changes) {
    const text = t("pl_change_line", {
      name: view.nameOf(change.seat),
      before: change.before,
      after: change.after,
      change: signed(change.after - change.before),
      xp: change.xp,
    });
    const before = view.state && view.state.rating && view.state.rating.seats ? view.state.rating.seats[change.seat] : null;
    list.append(el("li", {}, document.createTextNode(text), ...(before && before.provisional ? [provisionalMark()] : [])));
  }
  return el("section", { class: "res-rating" }, el("h3", { text: t("pl_changes_title") }), list);
}
