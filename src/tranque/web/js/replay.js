// The replay viewer (#/partida/<game_id>): a finished game stepped through frame by frame,
// every hand face up around the table, the line drawn by line.js, the score after each round
// with its chart and its summary. The server builds every frame from the game's record with
// the engine (GET /api/games/{id}/replay, docs/protocol.md «Finished games»): this page
// only shows them.
//
//   openReplay(root, gameId, { toast, url, analysis })
//
// `url`: where the frames come from when not the game's own address (el reparto del día's
// games: GET /api/reparto/{day}/{mode}/replay/{mine|best}, reparto.js); `analysis: false`
// leaves out the analysis panel (a game the reader may watch but not have analysed).
//
// ← and → step, Home and End go to the first and last step; the slider reaches any step.

import { t, currentLang, serverMessage, localName } from "./i18n.js";
import { api } from "./api.js";
import { el, button, setText, setAttr } from "./dom.js";
import { tileSvg, svg } from "./tiles.js";
import { renderLine } from "./line.js";
import { roundSummary } from "./results_text.js";
import { PLACES } from "./table.js";
import { AnalysisPanel } from "./analysis_view.js";
import { withLevel } from "./bot_faces.js";
import { clampStep, stepForKey, stepPlace, frameText, scoreSeries, chartGeometry, halvesOf } from "./replay_steps.js";
import { shareLink, shareUrl } from "./share.js";

export function openReplay(root, gameId, { toast = () => {}, url = null, analysis = true } = {}) {
  const view = new ReplayView(root, gameId, toast);
  view.url = url;
  view.withAnalysis = analysis;
  view.start();
  return view;
}

class ReplayView {
  constructor(root, gameId, toast) {
    this.root = root;
    this.gameId = gameId;
    this.toast = toast;
    this.index = 0;
    this.onKey = (event) => this.key(event);
  }

  async start() {
    const page = el("section", { class: "replay" }, el("p", { class: "rp-loading", text: t("rp_loading") }));
    this.page = page;
    this.root.replaceChildren(page);
    let data;
    try {
      data = await api(this.url || `/api/games/${encodeURIComponent(this.gameId)}/replay`);
    } catch (error) {
      if (!page.isConnected) return;
      const text = error && error.code === "no_such_game" ? t("rp_missing") : serverMessage(error);
      page.replaceChildren(el("h1", { text: t("rp_title") }), el("p", { class: "rp-missing", text }), el("a", { class: "button", href: "#/", text: t("home") }));
      return;
    }
    if (!page.isConnected) return; // the reader went elsewhere meanwhile
    this.data = data;
    this.build();
    document.addEventListener("keydown", this.onKey);
    this.show(0);
    this.presetTitle();
  }

  // Names --------------------------------------------------------------------------------

  nameOf(seat) {
    const info = this.data.game.seats.find((s) => s.seat === seat);
    return (info && localName(info)) || t("seat_n", { n: seat + 1 });
  }

  teamName(team) {
    if (this.data.rules.mode !== "pairs") return this.nameOf(team);
    const members = this.data.sides[team].map((seat) => this.nameOf(seat)).join(" + ");
    return `${t("team")} ${"ABC"[team]} (${members})`;
  }

  context() {
    return { rules: this.data.rules, seat: null, nameOf: (s) => this.nameOf(s), teamName: (s) => this.teamName(s) };
  }

  // Building the page once ------------------------------------------------------------------

  build() {
    const { game, rules, frames } = this.data;
    this.meta = el("p", { class: "rp-meta" });
    this.metaText();
    const head = el("div", { class: "rp-head" }, el("h1", { text: t("rp_title") }), this.meta, this.links());
    if (game.private) head.append(el("p", { class: "rp-private note", text: t("rp_private") }));

    const places = PLACES[rules.players];
    this.seats = game.seats.map((info) => {
      const tiles = el("div", { class: "rp-tiles", role: "img" });
      const name = el("span", { class: "rp-name", text: withLevel(this.nameOf(info.seat), info.kind === "bot" ? info.bot_level : null) });
      const mark = el("span", { class: "rp-turn", text: t("rp_turn") });
      const root = el("div", { class: "rp-seat", "data-seat": info.seat, "data-place": places[info.seat] }, el("div", { class: "rp-who" }, name, mark), tiles);
      return { root, tiles, shown: null };
    });
    this.line = el("div", { class: "line rp-line" });
    this.pozo = el("p", { class: "rp-pozo" });
    // At a flagged move of the analysis: its question and the better move, over the line.
    this.question = el("p", { class: "rp-question" });
    this.best = el("p", { class: "rp-best" });
    this.after = el("p", { class: "rp-after" });
    this.note = el("div", { class: "rp-note", "aria-live": "polite" }, this.after, this.question, this.best);
    this.note.hidden = true;
    const centre = el("div", { class: "rp-centre" }, this.note, this.line, this.pozo);
    const board = el("section", { class: `rp-board players-${rules.players}`, "aria-label": t("line_label") }, centre, ...this.seats.map((s) => s.root));
    this.board = board;

    this.status = el("p", { class: "rp-status", "aria-live": "polite" });
    this.place = el("span", { class: "rp-place" });
    this.said = el("span", { class: "rp-said" });
    this.status.append(this.place, " ", this.said);

    const control = (label, className, step) => {
      const b = button(label, () => this.show(step()), `rp-step ${className}`);
      b.setAttribute("aria-label", t(className.replace("rp-", "rp_")));
      b.title = t(className.replace("rp-", "rp_"));
      return b;
    };
    this.buttons = {
      first: control("«", "rp-first", () => 0),
      back: control("‹", "rp-back", () => this.index - 1),
      forward: control("›", "rp-forward", () => this.index + 1),
      last: control("»", "rp-last", () => frames.length - 1),
    };
    this.slider = el("input", { type: "range", class: "rp-slider", min: 0, max: frames.length - 1, step: 1, value: 0, "aria-label": t("rp_slider") });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    const controls = el("div", { class: "rp-controls" }, this.buttons.first, this.buttons.back, this.slider, this.buttons.forward, this.buttons.last);

    this.scores = el("div", { class: "rp-scores", "aria-label": t("rp_scores") });
    this.scoreCells = this.data.sides.map((_, team) => {
      const value = el("b");
      const cell = el("span", { class: `rp-score side-${team}`, "data-side": team }, el("span", { class: "rp-side", text: this.teamName(team) }), " ", value);
      this.scores.append(cell);
      return value;
    });

    this.analysis = this.withAnalysis === false ? noAnalysis() : new AnalysisPanel(this.data, {
      gameId: game.game_id,
      nameOf: (seat) => this.nameOf(seat),
      teamName: (team) => this.teamName(team),
      go: (index) => this.goTo(index),
      redraw: () => this.show(this.index),
    });
    // The step's words and its controls in a bar of their own (on a phone, the only thing
    // kept at the screen's foot), then the score and the analysis.
    const bar = el("div", { class: "rp-bar" }, this.status, controls, this.analysis.timeline);
    const panel = el("div", { class: "rp-panel" }, el("p", { class: "rp-keys note", text: t("rp_keys") }), this.scores, this.analysis.root);
    const main = el("div", { class: "rp-main" }, board, bar, panel);
    this.page.replaceChildren(head, main, this.roundsSection());
  }

  links() {
    const { game } = this.data;
    const holder = el("div", { class: "rp-links" });
    if (!game.private) {
      // The share page (/partida/<id>): a chat shows its card, a click opens this replay.
      const url = shareUrl("partida", game.game_id);
      const share = el("a", { class: "button rp-share share-button", href: url, title: t("share_hint"), text: t("rp_share") });
      share.addEventListener("click", (event) => {
        event.preventDefault();
        shareLink({ title: t("share_game_title"), text: t("share_game_text"), url }, this.toast);
      });
      holder.append(share);
    }
    const download = el("a", { class: "button rp-download", href: `/api/games/${encodeURIComponent(game.game_id)}/record`, download: `tranque-${game.game_id}.json`, text: t("rp_download") });
    holder.append(download);
    return holder;
  }

  metaText() {
    const { game } = this.data;
    const when = new Date(game.finished_at * 1000).toLocaleString(currentLang() === "en" ? "en-GB" : "es-CO", { dateStyle: "medium", timeStyle: "short" });
    setText(this.meta, t("rp_meta", { preset: this.title || game.preset, players: game.players, when }));
  }

  async presetTitle() {
    try {
      const presets = await api("/api/presets");
      const preset = presets.find((p) => p.name === this.data.game.preset);
      if (preset) this.title = localName(preset, "title");
    } catch {
      return; // the preset's name stays
    }
    if (this.page.isConnected) this.metaText();
  }

  roundsSection() {
    const { rounds, rules, sides: teams } = this.data;
    const section = el("section", { class: "rp-rounds" }, el("h2", { text: t("rp_rounds") }));
    const series = scoreSeries(rounds, teams.length);
    const width = 300, height = 150;
    const { lines, targetY } = chartGeometry(series, rules.target, { width, height });
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart rp-chart", role: "img", "aria-label": t("rp_chart") });
    chart.append(svg("line", { x1: 20, y1: targetY, x2: width - 20, y2: targetY, class: "target" }));
    lines.forEach((points, team) => chart.append(svg("polyline", { points, class: `series side-${team}` })));
    section.append(el("h3", { text: t("rp_chart") }), chart);
    const list = el("ol", { class: "rp-round-list" });
    const ctx = this.context();
    rounds.forEach((round) => {
      const summary = roundSummary(round, ctx);
      const go = button(t("round", { n: round.round + 1 }), () => this.show(round.end), "link rp-go");
      go.title = t("rp_go_round", { round: round.round + 1 });
      const item = el("li", { class: "rp-round", "data-round": round.round }, el("p", { class: "why" }, go, " · ", summary.headline));
      const points = el("ul", { class: "points" });
      for (const text of summary.lines) points.append(el("li", { text }));
      item.append(points, el("p", { class: "res-total", text: summary.total }));
      list.append(item);
    });
    section.append(list);
    return section;
  }

  // Showing a step ---------------------------------------------------------------------------

  key(event) {
    if (!this.page.isConnected) {
      document.removeEventListener("keydown", this.onKey);
      return;
    }
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // The slider moves itself (and says so); other fields keep their own keys.
    if (event.target && event.target.closest && event.target.closest("input, select, textarea")) return;
    const next = stepForKey(event.key, this.index, this.data.frames.length);
    if (next === null) return;
    event.preventDefault();
    this.show(next);
  }

  /** A flagged move from the analysis: its position shown, the board brought into view and
   * the focus on «›», the step that shows what was played. */
  goTo(index) {
    this.show(index);
    this.board.scrollIntoView({ block: "start" });
    this.buttons.forward.focus({ preventScroll: true });
  }

  show(index) {
    const { frames, rounds } = this.data;
    this.index = clampStep(index, frames.length);
    const frame = frames[this.index];
    this.page.dataset.step = this.index;
    this.page.dataset.round = frame.round;
    this.page.dataset.kind = frame.kind;
    if (Number(this.slider.value) !== this.index) this.slider.value = this.index;
    setAttr(this.slider, "aria-valuetext", `${this.index + 1} / ${frames.length}`);
    this.buttons.first.disabled = this.buttons.back.disabled = this.index === 0;
    this.buttons.last.disabled = this.buttons.forward.disabled = this.index === frames.length - 1;

    const place = stepPlace(rounds, frames, this.index);
    setText(this.place, t("rp_step", place));
    const said = frameText(frame, (seat) => this.nameOf(seat));
    setText(this.said, t(said.key, said.params));

    const acted = frame.action ? frame.action.seat : null;
    this.seats.forEach((seat, index) => {
      seat.root.classList.toggle("turn", frame.turn === index);
      seat.root.classList.toggle("acted", acted === index);
      this.showHand(seat, frame.hands[index], index);
    });
    // At a flagged move of the analysis, the better tile lies pale where it would have gone.
    const { ghost, question, best, after } = this.analysis.at(this.index);
    const line = ghost ? [...frame.line, { ...ghost, tile: `ghost:${ghost.tile}` }] : frame.line;
    renderLine(this.line, { line, ends: ghost ? null : frame.line_ends, choosing: null }); // no end hides the ghost
    this.line.querySelectorAll('[data-tile^="ghost:"]').forEach((tile) => {
      tile.classList.replace("placed", "ghost");
      tile.dataset.ghost = tile.dataset.tile.slice("ghost:".length);
      const title = tile.querySelector("title");
      if (title) title.textContent = best;
    });
    for (const [element, text] of [[this.after, after], [this.question, question], [this.best, best]]) {
      setText(element, text);
      element.hidden = !text;
    }
    this.note.hidden = !(question || after);
    this.analysis.timeline.querySelectorAll(".an-mark").forEach((mark) => mark.classList.toggle("current", Number(mark.dataset.frame) === this.index));
    setText(this.pozo, t("rp_pozo", { n: frame.pozo }));
    this.pozo.hidden = this.data.rules.drawing !== "until-playable";
    frame.scores.forEach((score, team) => setText(this.scoreCells[team], score));
    this.page.querySelectorAll(".rp-round").forEach((item) => item.classList.toggle("current", Number(item.dataset.round) === frame.round));
  }

  showHand(seat, hand, index) {
    const key = hand.join(" ");
    if (seat.shown === key) return;
    seat.shown = key;
    seat.tiles.dataset.tiles = key;
    seat.tiles.setAttribute("aria-label", `${t("rp_hand_of", { name: this.nameOf(index) })}: ${hand.length ? hand.join(", ") : t("rp_no_tiles")}`);
    seat.tiles.replaceChildren(
      ...hand.map((tile) => {
        const [a, b] = halvesOf(tile);
        const drawn = tileSvg(a, b, { unit: 15, label: false });
        drawn.classList.add("rp-tile");
        drawn.dataset.tile = tile;
        return drawn;
      }),
    );
  }
}

// The analysis panel's place when there is none: nothing shown, no flagged move.
function noAnalysis() {
  return { timeline: el("div", { hidden: true }), root: el("div", { hidden: true }), at: () => ({}) };
}
