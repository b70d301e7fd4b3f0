// The table's views: each part of the screen is built once and then updated in place from
// the state (table_state.js), so an open panel, the focused tile and scroll positions
// survive every event. Nothing here decides a rule: what is playable comes from the
// server's options, the numbers from its events.

import { t, phrase, tileLabel, PHRASES } from "./i18n.js";
import { tileSvg } from "./tiles.js";
import { el, button, setText, setAttr, place, arrange, escapeHtml } from "./dom.js";
import { parseTile, playsOf, canDo, isMyTurn, humanCount, partnerOf, teamOf, hasPozo } from "./table_state.js";
import { CLOCK_RADIUS } from "./clock.js";
import { canAskHint, currentHint, hintTarget, hintText } from "./hint.js";
import { onPhone } from "./tools_sheet.js";
import { faceUrl, levelTitle } from "./bot_faces.js";
import { LeavingTools } from "./leaving.js";

export const HAND_UNIT = 30; // a hand tile's half: the board never draws its tiles larger
const BACKS_SHOWN = 12;
const TEAM_LETTERS = "ABC";

// "seis-cuatro": a tile in words, as a screen reader should say it.
export function tileWords(a, b) {
  const words = t("table_numbers").split(" ");
  return `${words[a]}-${words[b]}`;
}

// Whether the table counts palitos (ponce) rather than points.
export function countsPalitos(rules) {
  return Boolean(rules && (rules.preset_name === "ponce" || rules.pass_points));
}

// "Del 5 ya se jugaron 3 de 7" (one: "ya se jugó 1 de 7").
export function playedOf(n, k, total) {
  return t(k === 1 ? "played_of_one" : "played_of", { n, k, total });
}

// "0 ni 5", "0, 3 ni 5": the numbers a player showed they lack, in words.
export function numbersList(numbers) {
  if (numbers.length < 2) return numbers.join("");
  return `${numbers.slice(0, -1).join(", ")} ${t("tb_or")} ${numbers[numbers.length - 1]}`;
}

export function pointsText(rules, n) {
  if (!countsPalitos(rules)) return String(n);
  return n === 1 ? t("table_palito_one") : t("table_palitos", { n });
}

// ---------------------------------------------------------------------------------------
// The score bar: one entry per team, its team letter written out (not colour alone).

export function headerHtml(view, state) {
  const rules = state.rules;
  const pairs = rules.mode === "pairs";
  const teams = state.scores.map((score, team) => {
    const goals = rules.goals_to_win ? ` · ⚽ ${state.goals[team] || 0}` : "";
    const mark = pairs ? `<span class="team-mark team-${team}" aria-hidden="true">${TEAM_LETTERS[team]}</span>` : "";
    const name = pairs
      ? `<span class="side-name">${escapeHtml(`${t("team")} ${TEAM_LETTERS[team]}`)}</span><span class="side-members"> (${escapeHtml(view.membersOf(team))})</span>`
      : `<span class="side-name">${escapeHtml(view.nameOf(team))}</span>`;
    const points = countsPalitos(rules) ? `<b>${score}</b> ${score === 1 ? t("table_palito_word_one") : t("table_palito_word")}` : `<b>${score}</b>`;
    const mine = !pairs && team === state.you ? " mine" : "";
    return `<span class="score side-${team}${mine}">${mark}${name}: ${points}${goals}</span>`;
  });
  // A game of so many hands (duplicado, el reparto del día) has no target: «Mano 2 de 4».
  const dealt = state.round !== null && state.round !== undefined;
  const hands = rules.hands || null;
  const round = !dealt ? "" : hands ? t("round_of", { n: state.round + 1, of: hands }) : t("round", { n: state.round + 1 });
  const goal = hands ? (dealt ? "" : t("of_hands", { n: hands })) : t("to_target", { n: pointsText(rules, rules.target) });
  const info = [round, goal].filter(Boolean).join(" · ");
  const event = state.tournament && state.tournament.id ? state.tournament : null; // back to its tournament
  const reparto = /^reparto:([^:]+):/.exec(state.deals || ""); // el reparto del día: back to its day
  const back = event ? `<a class="tournament-link" href="#/torneo/${encodeURIComponent(event.id)}">${escapeHtml(t("tn_table_link", { round: event.round ?? "" }))}</a> · `
    : reparto ? `<a class="tournament-link reparto-link" href="#/reparto/${encodeURIComponent(reparto[1])}">${escapeHtml(t("rd_card_title"))}</a> · ` : "";
  return `<div class="round-info">${back}${escapeHtml(info)}</div><div class="scores ${pairs ? "pairs" : "individual"}" role="group" aria-label="${escapeHtml(t("table_scores"))}">${teams.join("")}</div>`;
}

// ---------------------------------------------------------------------------------------
// A seat's badge: clock ring, name, team letter, partner mark, state and last move.

export class Badge {
  constructor(seat) {
    this.seat = seat;
    const ns = "http://www.w3.org/2000/svg";
    this.clock = document.createElementNS(ns, "svg");
    this.clock.setAttribute("class", "clock");
    this.clock.setAttribute("viewBox", "0 0 36 36");
    this.clock.setAttribute("aria-hidden", "true");
    this.clock.innerHTML = `<circle class="clock-track" cx="18" cy="18" r="${CLOCK_RADIUS}"/><circle class="clock-ring" cx="18" cy="18" r="${CLOCK_RADIUS}" data-seat="${seat}"/>`;
    this.who = el("span", { class: "who" });
    this.team = el("span", { class: "team-mark" });
    this.partner = el("small", { class: "partner-mark" });
    this.state = el("small", { class: "state" });
    this.marker = el("span", { class: "marker" });
    this.passedOn = el("small", { class: "passed-on" });
    this.score = el("small", { class: "badge-score", "aria-hidden": "true" }); // shown where the header has no room
    this.tags = el("span", { class: "tags" });
    this.level = el("small", { class: "bot-level" }); // a bot's level, on every screen size
    this.face = el("img", { class: "seat-face", alt: "", "aria-hidden": "true", width: "28", height: "28" });
    this.text = el("div", { class: "badge-text" }, this.who, this.tags);
    this.root = el("div", { class: "badge", "data-seat": seat }, this.clock, this.text);
  }

  update(view, state) {
    const seat = this.seat;
    const rules = state.rules;
    const info = state.seats[seat] || {};
    const pairs = rules.mode === "pairs";
    const team = teamOf(rules, seat);
    this.root.className = `badge team-${pairs ? team : "solo"}${state.turn && state.turn.seat === seat ? " active" : ""}`;
    setText(this.who, view.nameOf(seat));
    setAttr(this.who, "title", view.nameOf(seat));
    const isPartner = partnerOf(state, state.you) === seat;
    let status = "";
    const level = info.kind === "bot" ? levelTitle(info.bot_level) : "";
    const face = faceUrl(info);
    if (face && this.face.getAttribute("src") !== face) this.face.setAttribute("src", face);
    place(this.root, this.face, Boolean(face), this.text);
    setText(this.level, level);
    if (info.kind === "bot" && !level) status = t("bot");
    else if (info.state === "covered") status = t("bot");
    else if (info.kind === "human" && info.state === "away") status = t("away");
    setText(this.team, pairs ? TEAM_LETTERS[team] : "");
    setAttr(this.team, "aria-label", pairs ? `${t("team")} ${TEAM_LETTERS[team]}` : null);
    setText(this.partner, isPartner ? `(${t("partner")})` : "");
    setText(this.state, status);
    const marker = state.markers[seat];
    const you = seat === state.you; // your own badge speaks to you: "Pasaste (no llevas 0 ni 5)"
    setText(this.marker, marker ? (marker.kind === "passed" ? t(you ? "tb_you_passed" : "passed") : t("drew", { n: marker.n })) : "");
    const numbers = view.aids.passes && state.passedOn[seat] && state.passedOn[seat].length ? state.passedOn[seat] : null;
    const lacks = numbers && (you ? t("tb_you_lack", { list: numbersList(numbers) }) : `${t("passed_on")} ${numbers.join(", ")}`);
    setText(this.passedOn, lacks || "");
    setText(this.score, pairs ? "" : pointsText(rules, state.scores[seat] || 0));
    arrange(this.tags, [pairs && this.team, !pairs && this.score, level && this.level, isPartner && this.partner, status && this.state, marker && this.marker,
      numbers && this.passedOn].filter(Boolean));
  }
}

// ---------------------------------------------------------------------------------------
// Another seat: its badge and the backs of its tiles.

export class Opponent {
  constructor(seat) {
    this.badge = new Badge(seat);
    this.backs = el("div", { class: "backs" });
    this.count = el("span", { class: "count" });
    this.root = el("section", { class: "opponent", "data-seat": seat }, this.badge.root);
    this.shown = -1;
  }

  update(view, state) {
    const seat = this.badge.seat;
    this.root.className = `opponent pos-${view.position(seat)}`;
    this.badge.update(view, state);
    const playing = state.phase !== "waiting";
    place(this.root, this.backs, playing);
    if (!playing) return;
    const count = state.handCounts[seat] || 0;
    if (count === this.shown) return;
    this.shown = count;
    const backs = [];
    for (let i = 0; i < Math.min(count, BACKS_SHOWN); i++) backs.push(tileSvg(0, 0, { unit: 9, vertical: true, back: true }));
    setText(this.count, count);
    this.backs.replaceChildren(...backs, this.count);
    this.backs.setAttribute("aria-label", t("table_tiles_left", { name: view.nameOf(seat), n: count }));
    this.backs.setAttribute("role", "img");
  }
}

// ---------------------------------------------------------------------------------------
// The hand: one element per tile, kept across events (found again by its key).

export class HandView {
  constructor() {
    this.root = el("div", { class: "hand", role: "listbox", "aria-label": `${t("hand_label")}. ${t("table_keyboard_hint")}` });
    this.items = new Map();
  }

  item(key) {
    let item = this.items.get(key);
    if (!item) {
      item = el("button", { type: "button", class: "hand-tile", role: "option", "data-tile": key, tabindex: "-1" },
        el("span", { class: "tile-face" }), el("span", { class: "flip-zone", "aria-hidden": "true", title: t("table_flip") }));
      this.items.set(key, item);
    }
    return item;
  }

  update(view, state) {
    const myTurn = isMyTurn(state);
    const target = hintTarget(state);
    const focusKey = view.focusKey && view.handOrder.includes(view.focusKey) ? view.focusKey : view.handOrder[0];
    const children = view.handOrder.map((key) => {
      const item = this.item(key);
      let [a, b] = parseTile(key);
      if (view.flipped.has(key)) [a, b] = [b, a];
      const face = `${a}-${b}`;
      if (item.dataset.face !== face) {
        item.dataset.face = face;
        item.firstChild.replaceChildren(tileSvg(a, b, { unit: HAND_UNIT, vertical: true, label: false }));
      }
      const playable = myTurn && playsOf(state, key).length > 0;
      item.classList.toggle("playable", Boolean(playable && view.aids.playable));
      item.classList.toggle("choosing", view.choosing === key);
      const hinted = Boolean(target && target.tile === key);
      item.classList.toggle("hinted", hinted);
      const label = `${tileLabel(a, b)}${playable ? `, ${t("table_playable")}` : ""}${hinted ? `, ${t("hint_mark")}` : ""}`;
      setAttr(item, "aria-label", label);
      setAttr(item, "aria-selected", key === focusKey ? "true" : "false");
      setAttr(item, "tabindex", key === focusKey ? "0" : "-1");
      return item;
    });
    for (const key of [...this.items.keys()]) if (!view.handOrder.includes(key)) this.items.delete(key);
    arrange(this.root, children);
  }

  focus(key) {
    const item = this.items.get(key);
    if (item) item.focus();
  }
}

// ---------------------------------------------------------------------------------------
// "Frases · Ayudas": built once; being a <details> left in place, it stays open or closed
// as the player left it, whatever happens at the table. Where it opens (beside the table, or
// over the felt on a phone) is tools_sheet.js's and style.css's business (N1).

export class ToolsPanel {
  constructor(view) {
    this.view = view;
    const title = `${t("phrases")} · ${t("aids")}`;
    this.root = el("details", { class: "tools" }, el("summary", { text: title }));
    const close = button("✕", () => (this.root.open = false), "tools-close");
    close.setAttribute("aria-label", t("tb_close_tools"));
    const head = el("div", { class: "tools-head" }, el("strong", { text: title }), close);
    const phrases = el("div", { class: "phrases" });
    for (const key of Object.keys(PHRASES)) {
      phrases.append(button(phrase(key), () => {
        view.send({ type: "phrase", phrase: key });
        if (onPhone()) this.root.open = false; // said: the felt is the player's again
      }));
    }
    const aids = el("div", { class: "aids" });
    this.boxes = {};
    for (const [key, label] of [["playable", "aid_playable"], ["ends", "aid_ends"], ["passes", "aid_passes"]]) {
      const box = el("input", { type: "checkbox" });
      box.addEventListener("change", () => view.setAid(key, box.checked));
      this.boxes[key] = box;
      aids.append(el("label", {}, box, document.createTextNode(` ${t(label)}`)));
    }
    this.vote = button(t("annul"), () => view.send({ type: "vote", agree: !this.voted }), "vote");
    this.body = el("div", { class: "tools-body" }, head, phrases, aids);
    this.root.append(this.body);
    this.leaving = new LeavingTools(view); // «Salir de la mesa» / «Abandonar» (leaving.js)
    this.body.append(this.leaving.root);
  }

  update(state) {
    for (const [key, box] of Object.entries(this.boxes)) if (box.checked !== this.view.aids[key]) box.checked = this.view.aids[key];
    const canVote = (state.phase === "playing" || state.phase === "between_rounds") && state.kind !== "practice" && humanCount(state) > 1;
    this.voted = state.votes.includes(state.you);
    setText(this.vote, this.voted ? t("annul_no") : t("annul"));
    place(this.body, this.vote, canVote, this.leaving.root);
    this.leaving.update(state);
  }
}

// ---------------------------------------------------------------------------------------
// «Pista» (practice tables): the button that asks the server (beside "Frases · Ayudas"),
// and what it answered, in words, in a live region on the status row above the hand (the
// tile itself is lit in the hand, its end on the board).

export class HintBar {
  constructor(view) {
    this.button = button(t("hint"), () => view.askHint(), "hint-button");
    this.button.title = t("hint_title");
    this.text = el("span", { class: "hint-text", role: "status", "aria-live": "polite" });
  }

  update(view, state) {
    const asking = view.hintAsked !== null && view.hintAsked === (state.turn && state.turn.turn_id);
    this.button.disabled = asking || !canAskHint(state);
    setText(this.button, asking ? t("hint_thinking") : t("hint"));
    const hint = currentHint(state);
    setText(this.text, hint ? hintText(hint.action) : "");
  }
}

// ---------------------------------------------------------------------------------------
// The ends of the line and the pozo, under the board (the line's own ends, when the server
// sends its geometry, are drawn by line.js on the board itself).

export class EndsBar {
  // Under the board: the pozo, and while waiting a note (the ends are on the board, line.js).
  constructor(view) {
    this.root = el("div", { class: "ends-bar" });
    this.note = el("span", { class: "ends-note" });
    this.pozo = button("", () => view.draw(), "pozo");
    this.root.append(this.note, this.pozo);
  }

  update(view, state) {
    setText(this.note, state.phase === "waiting" ? t("waiting_players") : "");
    place(this.root, this.pozo, hasPozo(state)); // no "Pozo: 0" where there is none (N10)
    const mustDraw = Boolean(state.turn && state.turn.seat === state.you && canDo(state, "draw"));
    this.pozo.disabled = !mustDraw;
    this.pozo.classList.toggle("lit", mustDraw);
    const html = `${escapeHtml(t("pozo"))}: <b>${state.boneyard}</b>`;
    if (this.pozo.innerHTML !== html) this.pozo.innerHTML = html;
    setAttr(this.pozo, "aria-label", `${t("pozo")}: ${state.boneyard}${mustDraw ? ` · ${t("draw")}` : ""}`);
  }
}

// ---------------------------------------------------------------------------------------
// What the aria-live region says about each action ("Bot 1 jugó seis-cuatro a la derecha").

export function describeAction(view, said, previousScores) {
  const you = said.seat === view.state.you;
  const name = view.nameOf(said.seat);
  if (said.type === "play") {
    const [a, b] = said.laid || parseTile(said.tile);
    const where = said.side ? t(said.side === "left" ? "table_where_left" : "table_where_right") : t("table_where_first");
    return t(you ? "table_you_played" : "table_played", { name, tile: tileWords(a, b), where });
  }
  if (said.type === "draw") return t(you ? "table_you_drew" : "table_drew", { name });
  let text = t(you ? "table_you_passed" : "table_passed", { name });
  if (said.scores) {
    const gains = said.scores
      .map((score, team) => [team, score - ((previousScores && previousScores[team]) || 0)])
      .filter(([, gained]) => gained > 0)
      .map(([team, gained]) => t("table_gain_for", { points: pointsText(view.state.rules, gained), name: view.teamName(team) }));
    if (gains.length) text += `: ${gains.join(", ")}`;
  }
  return text;
}
