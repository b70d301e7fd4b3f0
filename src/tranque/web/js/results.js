// Round end and game end: all hands shown, who scores what and why (results_text.js), the
// browser's own check of the deal (fairness.js), the score chart, the record to download and
// the rematch.
//
// What these cards need of the table view (`view`): `seat` (null for a spectator), `state`
// (`rules`, `phase`, `scores`, `results`), `nameOf(seat)`, `teamName(team)`, `send(message)`
// (a request through the socket), `onLeave()`, `tableId`, and `deals`: the
// view's `DealBook` (fairness.js), fed every `sync` and `event`. `rematchVote` (the last
// `rematch_vote` data) is read if present.

import { t } from "./i18n.js";
import { tileSvg, svg } from "./tiles.js";
import { roundSummary, gameSummary } from "./results_text.js";
import { DealBook } from "./fairness.js";
import { ratingChanges } from "./rating_view.js";
import { fichaChanges } from "./fichas_view.js";
import { reportButton } from "./report.js";
import { luckLine } from "./luck_view.js";
import { shareButton, shareUrl } from "./share.js";

let overlay = null;

export function closeOverlay() {
  if (overlay) overlay.remove();
  overlay = null;
}

function open(className) {
  closeOverlay();
  overlay = document.createElement("div");
  overlay.className = `overlay ${className}`;
  overlay.setAttribute("role", "dialog");
  overlay.setAttribute("aria-modal", "false");
  overlay.setAttribute("aria-labelledby", "res-title");
  document.body.append(overlay);
  return overlay;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(label, className, onClick) {
  const node = element("button", className, label);
  node.type = "button";
  node.addEventListener("click", onClick);
  return node;
}

function title(text) {
  const heading = element("h2", "", text);
  heading.id = "res-title";
  return heading;
}

function context(view) {
  return {
    rules: view.state.rules,
    seat: view.seat,
    nameOf: (seat) => view.nameOf(seat),
    teamName: (team) => view.teamName(team),
  };
}

/** A verdict's reasons in the reader's language. */
export function reasonText(view, reasons) {
  return reasons
    .map(({ code, seat, tile }) => {
      const yours = seat !== undefined && seat === view.seat && t(`res_reason_${code}_you`) !== `res_reason_${code}_you`;
      const key = yours ? `res_reason_${code}_you` : `res_reason_${code}`;
      return t(key, { name: seat === undefined ? "" : view.nameOf(seat), tile: tile || "" });
    })
    .join("; ");
}

function revealedHands(view, data) {
  const hands = element("div", "revealed");
  const counts = data.result ? data.result.seat_counts : null;
  (data.hands || []).forEach((hand, seat) => {
    const row = element("div", "revealed-hand");
    row.append(element("span", "who", view.labelOf ? view.labelOf(seat) : view.nameOf(seat)));
    const pips = counts ? counts[String(seat)] : undefined;
    row.append(element("span", "pips", pips === undefined ? "" : pips === 1 ? t("pips_left_one") : t("pips_left", { n: pips })));
    const tiles = element("span", "tiles");
    // Double-nine's 7, 8 and 9 pips need room to be counted: larger halves for that set.
    const unit = view.state.rules && view.state.rules.set_max > 6 ? 24 : 14;
    for (const tile of hand) {
      const [a, b] = tile.split("-").map(Number);
      tiles.append(tileSvg(a, b, { unit }));
    }
    row.append(tiles);
    hands.append(row);
  });
  return hands;
}

// The round's deal, checked here: "verificado" only once this browser has checked it.
function roundFairness(view, data) {
  const line = element("p", "res-fair", t("res_fair_checking"));
  line.dataset.state = "checking";
  line.setAttribute("aria-live", "polite");
  if (!view.deals) view.deals = new DealBook(); // a view that kept no commitments: nothing to check against
  view.deals.verify(data, { rules: view.state.rules, seat: view.seat }).then((verdict) => {
    line.dataset.state = verdict.ok ? "ok" : "bad";
    line.classList.add(verdict.ok ? "ok" : "bad");
    line.textContent = verdict.ok ? t("res_fair_ok") : t("res_fair_bad", { why: reasonText(view, verdict.reasons) });
  });
  return line;
}

export function showRoundEnd(view, data) {
  const box = open("round-end");
  box.dataset.round = String(data.round);
  const summary = roundSummary(data, context(view));
  const round = data.round === undefined || data.round === null ? "" : data.round + 1;
  box.append(title(round === "" ? t("round_over") : t("res_round_over", { n: round })));
  box.append(element("p", "why", summary.headline));
  const lines = element("ul", "points");
  for (const text of summary.lines) lines.append(element("li", "", text));
  box.append(lines, element("p", "res-total", summary.total), revealedHands(view, data), roundFairness(view, data), luckLine(view, data));
  const actions = element("div", "actions");
  box.append(actions);
  if (view.seat !== null && view.state.phase === "between_rounds") {
    const ready = button(t("ready"), "primary res-ready", () => {
      ready.disabled = true;
      view.send({ type: "ready" });
    });
    actions.append(ready, element("p", "note", t("next_round_in")));
    ready.focus({ preventScroll: true });
  }
}

/** The game is over. After a finished last round its summary stays on screen first, with a
 * button on to the final result; an annulled game (or a reload) shows the result at once. */
export function showGameEnd(view, data) {
  view.rematchVote = null; // votes come after this game's end; an earlier game's are void
  const last = overlay && overlay.classList.contains("round-end") ? overlay : null;
  if (!last || data.reason === "annulled") {
    renderGameEnd(view, data);
    return;
  }
  last.classList.add("last-round");
  last.querySelector("h2").after(element("p", "res-last note", t("res_last_round")));
  const actions = last.querySelector(".actions");
  const onward = button(t("res_to_final"), "primary res-to-final", () => renderGameEnd(view, data));
  actions.replaceChildren(onward);
  onward.focus({ preventScroll: true });
}

// The game's running totals, one line per team (or seat), the target dashed; each line ends
// in its total, and a legend under the chart names every line in words, colour only
// repeating it.
function chart(view, results) {
  const teams = view.state.scores.length;
  const totals = Array.from({ length: teams }, () => [0]);
  for (const result of results) {
    for (let team = 0; team < teams; team++) {
      const previous = totals[team][totals[team].length - 1];
      totals[team].push(previous + ((result && result.points[String(team)]) || 0));
    }
  }
  const width = 320, height = 170, left = 30, right = 34, pad = 16;
  const target = view.state.rules.target;
  const top = Math.max(target, ...totals.flat());
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": t("score_chart") });
  const x = (i) => left + (i * (width - left - right)) / Math.max(1, results.length);
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  const label = (text, attributes) => {
    const node = svg("text", attributes);
    node.textContent = text;
    return node;
  };
  root.append(svg("line", { x1: left, y1: y(0), x2: width - right, y2: y(0), class: "axis" }));
  root.append(label("0", { x: left - 4, y: y(0) + 4, class: "tick", "text-anchor": "end" }));
  root.append(svg("line", { x1: left, y1: y(target), x2: width - right, y2: y(target), class: "target" }));
  root.append(label(String(target), { x: left - 4, y: y(target) + 4, class: "tick", "text-anchor": "end" }));
  results.forEach((_, i) => root.append(label(String(i + 1), { x: x(i + 1), y: height - 2, class: "tick", "text-anchor": "middle" })));
  // Each line's total at its end, nudged apart where two totals would overlap.
  const ends = totals.map((values, team) => ({ team, total: values[values.length - 1], at: y(values[values.length - 1]) + 4 }));
  ends.sort((p, q) => p.at - q.at).forEach((end, i, all) => {
    if (i && end.at - all[i - 1].at < 11) end.at = all[i - 1].at + 11;
  });
  totals.forEach((values, team) => {
    root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: `series side-${team}` }));
  });
  for (const end of ends) {
    root.append(label(String(end.total), { x: width - right + 4, y: end.at, class: `total side-${end.team}` }));
  }
  const legend = element("ul", "chart-legend");
  totals.forEach((values, team) => {
    const item = element("li", `side-${team}`);
    item.append(element("span", "swatch"), element("span", "", `${view.teamName(team)}: ${values[values.length - 1]}`));
    legend.append(item);
  });
  const figure = element("figure", "chart-figure");
  figure.append(root, legend);
  return figure;
}

function renderGameEnd(view, data) {
  const box = open("game-end");
  const summary = gameSummary(data, context(view), { annulledByVote: Boolean(view.deals && view.deals.annulledByVote) });
  box.append(title(t("game_over")), element("p", "why", summary.headline));
  for (const text of summary.lines) box.append(element("p", "final", text));
  const changes = ratingChanges(view, data.rating_changes);
  if (changes) box.append(changes);
  const fichas = fichaChanges(view, data.ficha_changes); // «+60 fichas», «La banca se lleva 40»
  if (fichas) box.append(fichas);
  if (data.reason !== "annulled" && view.state.results.length) {
    box.append(element("h3", "", t("score_chart")), chart(view, view.state.results));
  }
  const actions = element("div", "actions");
  const tournament = view.state.kind === "tournament"; // no rematch: the tournament pairs the next game
  if (view.seat !== null && data.reason !== "annulled" && !tournament) {
    // (after an annulled game the server refuses a rematch: a new table is the way)
    const rematch = button(t("rematch"), "primary res-rematch", () => {
      rematch.disabled = true;
      view.send({ type: "rematch" });
    });
    rematch.title = t("res_rematch_hint");
    actions.append(rematch);
  }
  if (data.reason !== "annulled") {
    // The game just kept: `<table>.<game number>` (docs/protocol.md «Finished games»).
    const replay = element("a", "button res-replay", t("rp_open"));
    replay.href = `#/partida/${encodeURIComponent(`${view.tableId}.${view.state.game}`)}`;
    actions.append(replay);
    // «Compartir»: the game's share page, whose card a chat shows (a private game's has none).
    const url = shareUrl("partida", `${view.tableId}.${view.state.game}`);
    actions.append(shareButton({ title: t("share_game_title"), text: t("share_game_text"), url }, (text) => view.toast && view.toast(text), "res-share"));
  }
  const download = element("a", "button", t("download_record"));
  download.href = `/api/tables/${encodeURIComponent(view.tableId)}/record`;
  download.download = `tranque-${view.tableId}.json`;
  actions.append(download, button(t(tournament ? "tn_back_to_tournament" : "home"), tournament ? "primary res-tournament" : "", () => view.onLeave()));
  box.append(actions);
  // «Reportar»: a seated player may report the other people at the table (never a bot, never
  // oneself) about this game, for the moderators (docs/playing.md).
  const others = view.seat === null || data.reason === "annulled" ? [] : (view.state.seats || []).filter((seat) => seat.kind === "human" && seat.seat !== view.seat);
  if (others.length) {
    const game = `${view.tableId}.${view.state.game}`;
    const reports = element("div", "res-report");
    for (const seat of others) reports.append(reportButton(view.nameOf(seat.seat), game));
    box.append(reports);
  }
  const votes = element("p", "res-rematch-status note");
  votes.setAttribute("aria-live", "polite");
  box.append(votes);
  if (view.rematchVote) showRematchVote(view, view.rematchVote);
  box.append(gameFairness(view, data));
}

/** A `rematch_vote` event: who has agreed and who is still awaited, on the game-end card. */
export function showRematchVote(view, data) {
  view.rematchVote = data;
  const holder = overlay && overlay.querySelector(".res-rematch-status");
  if (!holder) return;
  const names = (seats) => seats.map((seat) => view.nameOf(seat)).join(", ");
  const agreed = data.agreed || [];
  const missing = (data.needed || []).filter((seat) => !agreed.includes(seat));
  const parts = [];
  if (agreed.length) parts.push(t("res_rematch_agreed", { names: names(agreed) }));
  if (missing.length) parts.push(t("res_rematch_waiting", { names: names(missing) }));
  holder.textContent = parts.join(" ");
  const mine = overlay.querySelector(".res-rematch");
  if (mine && agreed.includes(view.seat)) mine.disabled = true;
}

// Every round of the game this page saw, as this browser checked it; an annulled game's
// unfinished round says so and why, instead of "no verificado".
function gameFairness(view, data) {
  const holder = element("div", "fairness");
  holder.append(element("h3", "", t("res_fair_title")));
  const list = element("ul", "verified");
  holder.append(list);
  const deals = view.deals;
  if (!deals) return holder;
  const seen = Object.keys(deals.rounds).map(Number);
  const count = Math.max(view.state.results.length, ...seen.map((round) => round + 1), 0);
  for (let round = 0; round < count; round++) {
    const item = element("li", "", t("res_fair_checking"));
    list.append(item);
    if (!deals.rounds[round]) {
      item.className = "bad";
      item.textContent = t("res_fair_round_bad", { n: round + 1, why: t("res_reason_unseen") });
      continue;
    }
    const verdict = deals.verdicts[round];
    if (!verdict && data.reason === "annulled") {
      const why = t(data.operator_reason ? "res_fair_why_operator" : deals.annulledByVote ? "res_fair_why_vote" : "res_fair_why_server");
      item.className = "annulled";
      item.textContent = t("res_fair_round_annulled", { n: round + 1, why });
      continue;
    }
    if (!verdict) {
      item.className = "bad";
      item.textContent = t("res_fair_round_bad", { n: round + 1, why: t("res_reason_not_revealed") });
      continue;
    }
    verdict.then((checked) => {
      item.className = checked.ok ? "ok" : "bad";
      item.textContent = checked.ok
        ? t("res_fair_round_ok", { n: round + 1 })
        : t("res_fair_round_bad", { n: round + 1, why: reasonText(view, checked.reasons) });
    });
  }
  return holder;
}
