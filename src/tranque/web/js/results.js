// Round end and game end: all hands shown, who scores what and why, the score chart,
// the record to download and the check of every deal.

import { t } from "./i18n.js";
import { tileSvg, svg } from "./tiles.js";
import { api } from "./api.js";

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
  document.body.append(overlay);
  return overlay;
}

function why(view, result) {
  if (!result) return "";
  const winner = result.winner_seat;
  if (result.tie) return t("tie");
  const mine = winner === view.seat;
  if (result.kind === "domino") return mine ? t("domino_you") : t("domino_by", { name: view.nameOf(winner) });
  return mine ? t("tranque_you") : t("tranque_won", { name: view.nameOf(winner) });
}

// "Anotas 12" for the player alone; "Pareja A (Tú + Bot 2) anota 12" or "Bot 1 anota 12" otherwise.
function scoreLine(view, side, n) {
  if (view.state.rules.mode !== "pairs" && side === view.seat) return t("you_score", { n });
  return t("scores_points", { name: view.sideName(side), n });
}

export function showRoundEnd(view, data) {
  const box = open("round-end");
  const result = data.result;
  box.innerHTML = `<h2>${t("round_over")}</h2><p class="why">${why(view, result)}</p>`;
  if (result) {
    const lines = Object.entries(result.points).filter(([, n]) => n > 0)
      .map(([side, n]) => `<li>${scoreLine(view, Number(side), n)}</li>`);
    for (const [side, n] of Object.entries(result.goals || {})) {
      const mine = view.state.rules.mode !== "pairs" && Number(side) === view.seat;
      if (n) lines.push(`<li>${mine ? t("goal_you") : t("goal_for", { name: view.sideName(Number(side)) })}</li>`);
    }
    if (result.capicua) lines.push(`<li>${t("capicua_won")}</li>`);
    box.insertAdjacentHTML("beforeend", `<ul class="points">${lines.join("")}</ul>`);
  }
  const hands = document.createElement("div");
  hands.className = "revealed";
  (data.hands || []).forEach((hand, seat) => {
    const row = document.createElement("div");
    row.className = "revealed-hand";
    const pips = hand.reduce((sum, tile) => sum + tile.split("-").map(Number).reduce((x, y) => x + y, 0), 0);
    row.innerHTML = `<span class="who">${view.nameOf(seat)}</span><span class="pips">${pips === 1 ? t("pips_left_one") : t("pips_left", { n: pips })}</span>`;
    const tiles = document.createElement("span");
    tiles.className = "tiles";
    for (const tile of hand) {
      const [a, b] = tile.split("-").map(Number);
      tiles.append(tileSvg(a, b, { unit: 14 }));
    }
    row.append(tiles);
    hands.append(row);
  });
  box.append(hands);
  if (view.seat !== null && view.state.phase === "between_rounds") {
    const ready = document.createElement("button");
    ready.type = "button";
    ready.className = "primary";
    ready.textContent = t("ready");
    ready.addEventListener("click", () => {
      ready.disabled = true;
      view.send({ type: "ready" });
    });
    box.append(ready, Object.assign(document.createElement("p"), { className: "note", textContent: t("next_round_in") }));
  }
}

function chart(view, results) {
  const sides = view.state.scores.length;
  const totals = Array.from({ length: sides }, () => [0]);
  for (const result of results) {
    for (let side = 0; side < sides; side++) {
      const previous = totals[side][totals[side].length - 1];
      totals[side].push(previous + (result.points[String(side)] || 0));
    }
  }
  const width = 300, height = 150, pad = 20;
  const top = Math.max(view.state.rules.target, ...totals.flat());
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img", "aria-label": t("score_chart") });
  const x = (i) => pad + (i * (width - 2 * pad)) / Math.max(1, results.length);
  const y = (v) => height - pad - (v * (height - 2 * pad)) / top;
  root.append(svg("line", { x1: pad, y1: y(view.state.rules.target), x2: width - pad, y2: y(view.state.rules.target), class: "target" }));
  totals.forEach((values, side) => {
    root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: `series side-${side}` }));
  });
  return root;
}

export function showGameEnd(view, data) {
  const box = open("game-end");
  const s = view.state;
  let headline = t("annulled");
  if (data.reason !== "annulled") {
    const names = data.winners.map((side) => view.sideName(side));
    const alone = view.state.rules.mode !== "pairs" && data.winners.length === 1 && data.winners[0] === view.seat;
    if (alone) headline = t("you_win");
    else headline = names.length > 1 ? t("winners_are", { name: names.join(", ") }) : t("winner_is", { name: names[0] });
  }
  box.innerHTML = `<h2>${t("game_over")}</h2><p class="why">${headline}</p>
    <p class="final">${data.scores.map((n, side) => `${view.sideName(side)}: <b>${n}</b>`).join(" · ")}</p>
    <h3>${t("score_chart")}</h3>`;
  box.append(chart(view, s.results));
  const actions = document.createElement("div");
  actions.className = "actions";
  const download = document.createElement("a");
  download.href = `/api/tables/${encodeURIComponent(view.tableId)}/record`;
  download.download = `tranque-${view.tableId}.json`;
  download.textContent = t("download_record");
  download.className = "button";
  const rematch = document.createElement("button");
  rematch.type = "button";
  rematch.className = "primary";
  rematch.textContent = t("rematch");
  rematch.addEventListener("click", () => view.onLeave({ rematch: s.rules, kind: s.kind }));
  const home = document.createElement("button");
  home.type = "button";
  home.textContent = t("home");
  home.addEventListener("click", () => view.onLeave());
  actions.append(rematch, download, home);
  box.append(actions);
  const fairness = document.createElement("div");
  fairness.className = "fairness";
  fairness.innerHTML = `<h3>${t("fairness")}</h3><p class="note">${t("checking")}</p>`;
  box.append(fairness);
  verify(view, fairness);
}

async function verify(view, holder) {
  try {
    const record = await view.record();
    const checked = await api("/api/verify", record);
    const list = checked.rounds.map((r) => {
      const seed = record.rounds[r.round] && record.rounds[r.round].seed;
      const state = r.ok ? `✔ ${t("verified")}` : `✘ ${t("not_verified")}: ${r.problems.join("; ")}`;
      return `<li class="${r.ok ? "ok" : "bad"}">${t("round", { n: r.round + 1 })}: ${state}
        ${seed ? `<code title="${seed}">${seed.slice(0, 12)}…</code>` : ""}</li>`;
    });
    holder.innerHTML = `<h3>${t("fairness")}</h3><ul class="verified">${list.join("")}</ul>`;
  } catch (error) {
    holder.innerHTML = `<h3>${t("fairness")}</h3><p class="note">${(error && error.message) || t("error_generic")}</p>`;
  }
}
