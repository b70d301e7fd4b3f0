// «La suerte del reparto»: each side's expected points from a finished round's deal alone,
// beside what it scored, so a player sees whether they lost to the tiles or to the play
// (docs/analysis.md «La suerte del reparto»). Every figure is the server's:
// GET /api/tables/{table}/rounds/{n}/luck at the table's round summary (results.js mounts
// `luckLine`), GET /api/games/{id}/luck below a game's replay (analysis_view.js mounts
// `luckSection`). Each is asked for with a button, never by itself: working a round out
// costs the server seconds of CPU, which only a player who wants the figures should spend.
// While the server works them out (202) it asks again; a refusal leaves nothing on screen.
//
//   luckLine(view, data)            → an element for the round-end card (view: tableId, token, nameOf)
//   luckSection({ gameId, nameOf }) → a section for the replay's analysis panel
//   luckWords(body, sides, nameOf)  → the sentences (no DOM; tests/web/js/luck_view.test.mjs)

import { t } from "./i18n.js";
import { el, setText } from "./dom.js";

const POLL_MS = 1500;
const EVEN = 3; // points: a gap smaller than this between the best two expectations is "parejo"

/** A side's short name: "Pareja A" for partners, the player's name alone. */
export function sideName(side, team, nameOf) {
  return side.seats.length > 1 ? t("lk_team", { letter: "ABC"[team] || String(team + 1) }) : nameOf(side.seats[0]);
}

function figure(value, unit) {
  const shown = unit === "palitos" ? String(Math.round(value * 10) / 10) : String(Math.round(value));
  return unit === "palitos" ? t("lk_palitos", { n: shown }) : shown;
}

/** The sentences for one round's sides: expected, result, and which side the deal favoured. */
export function luckWords(body, sides, nameOf) {
  const unit = body.unit;
  const names = sides.map((side, team) => sideName(side, team, nameOf));
  const list = (key) => sides.map((side, team) => `${names[team]}: ${figure(side[key], unit)}`).join(" · ");
  // Who the deal favoured: the best expectation (the lowest where points count against).
  const order = sides.map((side, team) => ({ team, worth: body.against ? -side.expected : side.expected })).sort((a, b) => b.worth - a.worth);
  const gap = order.length > 1 ? order[0].worth - order[1].worth : 0;
  const margin = unit === "palitos" ? 1 : EVEN;
  const lines = [t("lk_expected", { sides: list("expected") }), t("lk_result", { sides: list("scored") })];
  lines.push(gap >= margin ? t("lk_favoured", { name: names[order[0].team] }) : t("lk_even"));
  if (body.against) lines.push(t("lk_against"));
  return lines;
}

async function fetchLuck(path, token) {
  const response = await fetch(path, { headers: token ? { "X-Seat-Token": token } : {}, credentials: "same-origin" });
  if (response.status !== 200 && response.status !== 202) return null;
  return response.json();
}

// Ask until done (202 meanwhile) while `node` is on the page; `show(body)` on each answer.
function follow(node, path, token, show) {
  const ask = async () => {
    let body = null;
    try {
      body = await fetchLuck(path, token);
    } catch {
      body = null;
    }
    if (body === null) {
      node.remove(); // refused or unreachable: nothing to show
      return;
    }
    show(body);
    if (body.status === "pending" && node.isConnected) setTimeout(ask, POLL_MS);
  };
  setTimeout(ask, 0); // after the card is on screen
}

// A button that asks once, then gives its place to what `start()` shows.
function asker(label, start) {
  const ask = el("button", { type: "button", class: "luck-ask", text: t(label) });
  ask.addEventListener("click", () => (ask.remove(), start()));
  return ask;
}

/** The luck line of a finished round's summary at the table: «¿Fue suerte o juego?». */
export function luckLine(view, data) {
  const line = el("div", { class: "luck-line", "aria-live": "polite", "data-status": "asked-for" });
  if (data === null || data === undefined || data.round === undefined || data.round === null || !view.tableId) return line;
  const path = `/api/tables/${encodeURIComponent(view.tableId)}/rounds/${data.round}/luck`;
  const start = () => {
    line.dataset.status = "pending";
    line.append(el("p", { class: "note", text: t("lk_pending") }));
    follow(line, path, view.token, (body) => {
      line.dataset.status = body.status;
      if (body.status !== "done") return;
      line.replaceChildren(...luckWords(body, body.sides, (seat) => view.nameOf(seat)).map((text, index) => el("p", { class: index ? "luck-more" : "luck-expected", text })));
    });
  };
  line.append(asker("lk_ask_round", start));
  return line;
}

/** The luck of every round of a kept game, below its replay, once asked for. */
export function luckSection({ gameId, nameOf }) {
  const status = el("p", { class: "note" });
  const list = el("ol", { class: "luck-rounds" });
  const section = el("section", { class: "luck", "data-status": "asked-for" }, el("h3", { text: t("lk_title") }), el("p", { class: "note", text: t("lk_intro") }), status, list);
  const start = () => {
    section.dataset.status = "pending";
    setText(status, t("lk_pending"));
    follow(section, `/api/games/${encodeURIComponent(gameId)}/luck`, null, (body) => {
      section.dataset.status = body.status;
      setText(status, body.status === "done" ? (body.rounds.length ? "" : t("lk_none")) : t("lk_pending"));
      list.replaceChildren(
        ...body.rounds.map((round) =>
          el("li", { class: "luck-round", "data-round": round.round }, el("b", { text: t("lk_round", { n: round.round }) }), " ", ...luckWords(body, round.sides, nameOf).map((text) => el("span", { text: `${text} ` }))),
        ),
      );
    });
  };
  section.insertBefore(asker("lk_ask_game", start), status);
  return section;
}
