// The post-game analysis in the replay viewer (replay.js): «Analizar la partida» asks the
// server for it (POST /api/games/{id}/analysis), a progress bar follows it while it is
// queued and running, then the page shows the chart of each team's expected result over the
// game, each player's accuracy, the flagged moves (imprecisión, error) listed and marked on
// the replay's timeline and, at a flagged move, the better tile drawn pale on the board.
// Every figure is the server's (docs/protocol.md «Post-game analysis»).
//
//   const panel = new AnalysisPanel(data, { gameId, nameOf, teamName, go, redraw });
//   panel.root, panel.timeline   (elements to place), panel.ghostAt(index) → a box or null

import { t, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button, setText, setAttr } from "./dom.js";
import { svg } from "./tiles.js";
import { accuracyText, actionWords, analysisChart, decisionFrame, flaggedAt, flaggedMoves, framePercent, lossText, progressPercent } from "./analysis_format.js";

const POLL_MS = 1000;

export class AnalysisPanel {
  constructor(data, { gameId, nameOf, teamName, go, redraw }) {
    this.data = data;
    this.gameId = gameId;
    this.nameOf = nameOf;
    this.teamName = teamName;
    this.go = go; // show a replay frame
    this.redraw = redraw; // show the current frame again (its ghost tile came or went)
    this.result = null;
    this.timer = null;
    this.status = el("p", { class: "an-status", "aria-live": "polite" });
    this.ask = button(t("an_request"), () => this.request(), "primary an-request");
    this.bar = el("progress", { class: "an-progress", max: 100, value: 0, "aria-label": t("an_progress") });
    this.bar.hidden = true;
    this.body = el("div", { class: "an-body" });
    this.root = el("section", { class: "analysis" }, el("h2", { text: t("an_title") }), el("p", { class: "note", text: t("an_intro") }), this.ask, this.bar, this.status, this.body);
    this.timeline = el("div", { class: "an-timeline", role: "group", "aria-label": t("an_timeline") });
    this.timeline.hidden = true;
    this.load();
  }

  get path() {
    return `/api/games/${encodeURIComponent(this.gameId)}/analysis`;
  }

  async load() {
    try {
      this.update(await api(this.path));
    } catch {
      this.root.hidden = true; // no analysis here (the game went away): the replay stays
    }
  }

  async request() {
    this.ask.disabled = true;
    try {
      this.update(await api(this.path, {}));
    } catch (error) {
      this.ask.disabled = false;
      setText(this.status, serverMessage(error));
      this.status.classList.add("error");
    }
  }

  async poll() {
    this.timer = null;
    if (!this.root.isConnected) return; // the reader left the replay
    try {
      this.update(await api(this.path));
    } catch (error) {
      setText(this.status, serverMessage(error));
    }
  }

  update(body) {
    this.status.classList.remove("error");
    this.root.dataset.status = body.status;
    const under = body.status === "pending" || body.status === "running";
    this.ask.hidden = under || body.status === "done";
    this.ask.disabled = false;
    this.bar.hidden = !under;
    if (under) {
      this.bar.value = progressPercent(body.progress);
      setAttr(this.bar, "aria-valuetext", `${this.bar.value} %`);
      const { done, total } = body.progress;
      setText(this.status, body.status === "running" && total ? t("an_running", { done, total }) : t("an_pending"));
      if (this.timer === null) this.timer = setTimeout(() => this.poll(), POLL_MS);
      return;
    }
    setText(this.status, body.status === "failed" ? t("an_failed") : "");
    if (body.status === "done" && body.result) this.show(body.result);
  }

  // The result -------------------------------------------------------------------------------

  show(result) {
    this.result = result;
    this.body.replaceChildren(this.chart(result), this.accuracy(result), this.flaggedList(result));
    this.marks(result);
    this.redraw();
  }

  chart(result) {
    const width = 320, height = 160;
    const { lines, zeroY, marks } = analysisChart(result, { width, height });
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart an-chart", role: "img", "aria-label": t("an_chart") });
    chart.append(svg("line", { x1: 16, y1: zeroY, x2: width - 16, y2: zeroY, class: "zero" }));
    lines.forEach((points, team) => chart.append(svg("polyline", { points, class: `series side-${team}`, "data-side": team })));
    for (const mark of marks) chart.append(svg("circle", { cx: mark.x, cy: mark.y, r: 4, class: `mark ${mark.verdict}` }));
    const legend = el("p", { class: "an-legend" }, ...result.sides.map((_, team) => el("span", { class: `key side-${team}`, text: this.teamName(team) })));
    return el("div", { class: "an-chart-box" }, el("h3", { text: t("an_chart") }), chart, legend, el("p", { class: "note", text: t("an_chart_hint") }));
  }

  accuracy(result) {
    const list = el("ul", { class: "an-players" });
    for (const player of result.players) {
      const figure = el("b", { class: "an-accuracy", text: accuracyText(player.accuracy) });
      const counts = t("an_counts", { accurate: player.accurate, inaccuracies: player.inaccuracies, errors: player.errors });
      list.append(el("li", { class: "an-player", "data-seat": player.seat }, el("span", { class: "an-name", text: this.nameOf(player.seat) }), " ", figure, el("span", { class: "an-counts note", text: counts })));
    }
    return el("div", {}, el("h3", { text: t("an_accuracy") }), list);
  }

  flaggedList(result) {
    const flagged = flaggedMoves(result);
    const box = el("div", {}, el("h3", { text: t("an_flagged") }));
    if (!flagged.length) {
      box.append(el("p", { class: "note", text: t("an_none_flagged") }));
      return box;
    }
    const list = el("ol", { class: "an-flagged" });
    for (const decision of flagged) {
      const played = this.words(decision.played);
      const head = t("an_move", { round: decision.round, move: decision.move, name: this.nameOf(decision.seat), played });
      const lost = t("an_lost", { verdict: t(`an_verdict_${decision.verdict}`), loss: lossText(decision.loss), best: this.words(decision.best) });
      const go = button(t("an_go"), () => this.go(decisionFrame(decision)), "link an-go");
      list.append(el("li", { class: `an-move ${decision.verdict}`, "data-step": decision.step }, el("span", { text: head }), " · ", el("span", { class: "an-lost", text: lost }), " ", go));
    }
    box.append(list);
    return box;
  }

  marks(result) {
    const frames = this.data.frames.length;
    this.timeline.replaceChildren(
      ...flaggedMoves(result).map((decision) => {
        const frame = decisionFrame(decision);
        const label = `${t(`an_verdict_${decision.verdict}`)}: ${t("an_move", { round: decision.round, move: decision.move, name: this.nameOf(decision.seat), played: this.words(decision.played) })}`;
        const mark = button("", () => this.go(frame), `an-mark ${decision.verdict}`);
        mark.style.left = `${framePercent(frame, frames)}%`;
        mark.dataset.frame = frame;
        mark.title = label;
        mark.setAttribute("aria-label", label);
        return mark;
      }),
    );
    this.timeline.hidden = false;
  }

  words(action) {
    const { key, params } = actionWords(action);
    return t(key, params);
  }

  // At a frame ---------------------------------------------------------------------------

  /** The better tile's box to draw at replay frame `index` (a flagged move's), or null; and
   * what the status line adds. */
  at(index) {
    if (!this.result) return { ghost: null, said: "" };
    const decision = flaggedAt(this.result, index);
    if (!decision) return { ghost: null, said: "" };
    return { ghost: decision.ghost, said: t("an_here", { name: this.nameOf(decision.seat), best: this.words(decision.best) }) };
  }
}
