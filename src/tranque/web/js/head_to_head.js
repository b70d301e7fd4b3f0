// «Cara a cara»: two players' record against and beside each other, and their last games
// together with links to the replays (GET /api/players/{first}/vs/{second}, docs/protocol.md
// «Cara a cara»). The server counts every figure; head_to_head_format.js arranges them.
//
// Use it anywhere two players are compared (a profile, a peña's page):
//
//   import { renderHeadToHead, comparePicker } from "./head_to_head.js";
//
//   // Ana's record against Kike, into `box` (its children are replaced). The heading reads
//   // `title` when given ("Tú contra Kike"), else "ana contra Kike"; `level` is its h-level;
//   // `firstLabel` names the first player's column ("Tú"), else their name.
//   const data = await renderHeadToHead(box, "ana", "Kike", { title: t("h2h_you_against", { name: "Kike" }), firstLabel: t("you") });
//   // `data` is the server's answer, or null when it refused (its message is shown in `box`).
//
//   // A small form: the reader writes another player's name and sees `name` against them.
//   page.append(comparePicker("ana", { level: 3 }));
//
// Names are matched by the server in any case; a name nobody has reads as the server's
// refusal (`no_such_player`), in the reader's language.

import { t, currentLang, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el } from "./dom.js";
import { dateText } from "./players_format.js";
import { versusPath, outcomeText, outcomeClass, opponentRows, scoresText } from "./head_to_head_format.js";

const replayHash = (gameId) => `#/partida/${encodeURIComponent(gameId)}`;

let boxes = 0; // ids for headings, unique on the page however many views it holds

// Fetch and draw `first` against `second` into `element`; resolves to the data or null.
export async function renderHeadToHead(element, first, second, { title = null, level = 3, firstLabel = null } = {}) {
  element.classList.add("head-to-head");
  element.setAttribute("aria-busy", "true");
  element.replaceChildren(el("p", { class: "note", text: t("h2h_loading") }));
  let data;
  try {
    data = await api(versusPath(first, second));
  } catch (error) {
    element.removeAttribute("aria-busy");
    element.replaceChildren(el("p", { class: "form-error", role: "alert", text: serverMessage(error) }));
    return null;
  }
  element.removeAttribute("aria-busy");
  element.replaceChildren(...headToHeadParts(data, title, level, firstLabel));
  return data;
}

// A form to compare `name` with anyone: the view appears under it.
export function comparePicker(name, { level = 3 } = {}) {
  boxes += 1;
  const id = `h2h-other-${boxes}`;
  const input = el("input", { id, type: "text", name: "other", autocomplete: "off", maxlength: 64, placeholder: t("h2h_compare_placeholder") });
  const error = el("p", { class: "form-error", role: "alert", hidden: true });
  const result = el("div", { class: "h2h-result", "aria-live": "polite" });
  const form = el("form", { class: "h2h-compare" },
    el("label", { for: id, text: t("h2h_compare_label", { name }) }),
    el("div", { class: "h2h-compare-row" }, input, el("button", { type: "submit", class: "primary", text: t("h2h_compare") })),
    error);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const other = input.value.trim();
    error.hidden = Boolean(other);
    error.textContent = other ? "" : t("h2h_need_name");
    if (other) renderHeadToHead(result, name, other, { level });
  });
  return el("div", { class: "h2h-picker" }, form, result);
}

function headToHeadParts(data, title, level, firstLabel) {
  const first = data.first.name;
  const second = data.second.name;
  const heading = el(`h${level}`, { class: "h2h-title", text: title || t("h2h_against", { first, second }) });
  const { opponents, partners } = data;
  if (!opponents.played && !partners.played) {
    return [heading, el("p", { class: "note h2h-never", text: t("h2h_never", { first, second }) })];
  }
  const out = [heading];
  if (opponents.played) out.push(opponentsPart(data, level, firstLabel));
  if (partners.played) out.push(partnersPart(partners, level));
  out.push(gamesPart(data, level));
  if (data.capped) out.push(el("p", { class: "note", text: t("h2h_capped", { n: data.counted }) }));
  return out;
}

function opponentsPart(data, level, firstLabel) {
  const { opponents } = data;
  const first = data.first.name;
  const second = data.second.name;
  const count = opponents.played === 1 ? t("h2h_as_opponents_one") : t("h2h_as_opponents", { n: opponents.played });
  const head = el("tr", {}, el("td", {}), el("th", { scope: "col", text: firstLabel || first }), el("th", { scope: "col", text: second }));
  const rows = opponentRows(opponents).map(([key, mine, theirs]) =>
    el("tr", { "data-row": key }, el("th", { scope: "row", text: t(key) }), el("td", { class: "num", text: String(mine) }), el("td", { class: "num", text: String(theirs) })));
  const table = el("table", { class: "h2h-table" },
    el("caption", { class: "visually-hidden", text: t("h2h_table_caption", { first, second }) }),
    el("thead", {}, head), el("tbody", {}, ...rows));
  const extra = [
    opponents.draws ? t("h2h_draws", { n: opponents.draws }) : null,
    opponents.others ? t("h2h_others", { n: opponents.others }) : null,
  ].filter(Boolean).join(" · ");
  return el("div", { class: "h2h-part h2h-opponents" },
    el(`h${level + 1}`, { text: count }), table, extra ? el("p", { class: "note", text: extra }) : null);
}

function partnersPart(partners, level) {
  const count = partners.played === 1 ? t("h2h_as_partners_one") : t("h2h_as_partners", { n: partners.played });
  const text = t("h2h_partners_record", { won: partners.won, lost: partners.lost, for: partners.points_for, against: partners.points_against });
  return el("div", { class: "h2h-part h2h-partners" }, el(`h${level + 1}`, { text: count }), el("p", { text }));
}

function gamesPart(data, level) {
  const lang = currentLang();
  const first = data.first.name;
  const second = data.second.name;
  const list = el("ul", { class: "h2h-games" });
  for (const game of data.games) {
    const date = dateText(game.finished_at, lang, true);
    const outcome = outcomeText(game, first, second);
    const others = (game.seats || []).filter((seat) => seat.name !== first && seat.name !== second);
    const who = others.length ? ` · ${others.map((seat) => seat.name).join(", ")}` : "";
    const partners = game.together === "partners" ? ` · ${t("h2h_together_partners")}` : "";
    list.append(el("li", { class: "h2h-game", "data-game": game.game_id },
      el("span", { class: `h2h-outcome ${outcomeClass(game)}`, text: t(outcome.key, outcome.params) }),
      el("span", { class: "h2h-score", text: scoresText([game.first_points, game.second_points]) }),
      el("span", { class: "note h2h-when" }, el("time", { datetime: new Date(game.finished_at * 1000).toISOString(), text: date }), document.createTextNode(partners + who)),
      el("a", { class: "replay-link", href: replayHash(game.game_id), "aria-label": t("pl_watch_replay_label", { date }), text: t("pl_watch_replay") })));
  }
  return el("div", { class: "h2h-part" }, el(`h${level + 1}`, { text: t("h2h_last_games") }), list);
}

// The profile's «Cara a cara» card: «Tú contra NAME» for a signed-in reader on someone
// else's profile, and the picker to compare the profile's player with anyone.
export function headToHeadSection(app, profile) {
  const box = el("section", { class: "profile-card head-to-head-card", "aria-labelledby": "pl-h2h" },
    el("h2", { id: "pl-h2h", text: t("h2h_title") }));
  if (app.user && !profile.is_me) {
    const mine = el("div", { class: "h2h-mine" });
    box.append(mine);
    renderHeadToHead(mine, app.user.name, profile.name, { title: t("h2h_you_against", { name: profile.name }), level: 3, firstLabel: t("you") });
  }
  box.append(comparePicker(profile.name, { level: 3 }));
  return box;
}
