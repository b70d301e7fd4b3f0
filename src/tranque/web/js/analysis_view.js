// The post-game analysis in the replay viewer (replay.js): «Analizar la partida» asks the
// server for it (POST /api/games/{id}/analysis), a progress bar follows it while it is
// queued and running, then the page shows the chart of each team's expected result over the
// game, each player's accuracy, the flagged moves (imprecisión, error) listed and marked on
// the replay's timeline, each in one plain sentence (what it cost, what was better and why, a
// lesson to learn it) and, at a flagged move, the better tile drawn pale on the board.
// Every figure is the server's (docs/protocol.md «Post-game analysis»).
//
//   const panel = new AnalysisPanel(data, { gameId, nameOf, teamName, go, redraw });
//   panel.root, panel.timeline   (elements to place), panel.at(index) → what the board shows
//   go(index, decision): the replay shows the position before that flagged move

import { t, serverMessage } from "./i18n.js";
import { api } from "./api.js";
import { el, button, setText, setAttr } from "./dom.js";
import { svg } from "./tiles.js";
import { luckSection } from "./luck_view.js";
import {
  accuracyText,
  actionText,
  afterText,
  analysisChart,
  beforeText,
  decisionFrame,
  flaggedAt,
  flaggedJustBefore,
  flaggedMoves,
  framePercent,
  lessonLinks,
  modelNoteText,
  moveHead,
  moveSentence,
  notedAt,
  notedMoves,
  progressPercent,
  unitOf,
} from "./analysis_format.js";

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
    this.root.append(luckSection({ gameId, nameOf })); // «la suerte del reparto», on its own
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
    this.body.replaceChildren(this.chart(result), this.accuracy(result), this.flaggedList(result), this.notedList(result));
    this.marks(result);
    this.redraw();
  }

  chart(result) {
    const width = 320, height = 176, pad = 16;
    const { lines, marks, ticks, left, measure } = analysisChart(result, { width, height, pad });
    const chart = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart an-chart", role: "img", "aria-label": t("an_chart") });
    for (const tick of ticks) {
      chart.append(svg("line", { x1: left - 4, y1: tick.y, x2: width - pad, y2: tick.y, class: tick.value === 0 ? "zero" : "grid" }));
      const label = svg("text", { x: left - 7, y: tick.y + 4, class: "tick", "text-anchor": "end" });
      label.textContent = tick.label;
      chart.append(label);
    }
    const moves = svg("text", { x: width - pad, y: height - 2, class: "tick", "text-anchor": "end" });
    moves.textContent = t("an_chart_moves");
    chart.append(moves);
    lines.forEach((points, team) => chart.append(svg("polyline", { points, class: `series side-${team}`, "data-side": team })));
    for (const mark of marks) chart.append(svg("circle", { cx: mark.x, cy: mark.y, r: 4, class: `mark ${mark.verdict}` }));
    const unit = t(`an_unit_${unitOf(result)}`);
    const legend = el(
      "p",
      { class: "an-legend" },
      ...result.sides.map((_, team) => el("span", { class: `key side-${team}`, text: this.teamName(team) })),
      el("span", { class: "key mark-key inaccuracy", text: t("an_verdict_inaccuracy") }),
      el("span", { class: "key mark-key error", text: t("an_verdict_error") }),
    );
    const axis = el("p", { class: "note an-axis", text: t(measure === "points" ? "an_chart_axis_points" : "an_chart_axis", { unit }) });
    return el("div", { class: "an-chart-box" }, el("h3", { text: t("an_chart") }), chart, legend, axis, el("p", { class: "note", text: t("an_chart_hint") }));
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
    const unit = unitOf(result);
    const nameOf = (seat) => this.nameOf(seat);
    const list = el("ol", { class: "an-flagged" });
    for (const decision of flagged) {
      const item = el("li", { class: `an-move ${decision.verdict}`, "data-step": decision.step });
      item.append(el("p", { class: "an-said" }, el("span", { class: "an-verdict", text: t(`an_verdict_${decision.verdict}`) }), " ", moveSentence(decision, { unit, nameOf })));
      const note = modelNoteText(decision, unit);
      if (note) item.append(el("p", { class: "an-model note", text: note }));
      const links = el("p", { class: "an-links" });
      for (const link of lessonLinks(decision.reasons)) links.append(el("a", { class: "an-lesson", href: link.href, "data-lesson": link.lesson, text: link.text }));
      const label = `${t("an_go")}: ${moveHead(decision, nameOf)}`;
      const go = button(t("an_go"), () => this.go(decisionFrame(decision), decision), "link an-go");
      go.setAttribute("aria-label", label);
      links.append(go);
      item.append(links);
      list.append(item);
    }
    box.append(list);
    return box;
  }

  /** The moves not flagged that the expert's weighted reading would have played otherwise:
   * apart, under its own heading, never as a verdict (nothing when there are none). */
  notedList(result) {
    const noted = notedMoves(result);
    const box = el("div", { class: "an-noted-box" });
    if (!noted.length) return box;
    const unit = unitOf(result);
    const nameOf = (seat) => this.nameOf(seat);
    const list = el("ul", { class: "an-noted" });
    for (const decision of noted) {
      const go = button(t("an_go"), () => this.go(decisionFrame(decision), decision), "link an-go");
      go.setAttribute("aria-label", `${t("an_go")}: ${moveHead(decision, nameOf)}`);
      list.append(el("li", { class: "an-move noted", "data-step": decision.step }, el("p", { class: "an-said" }, `${moveHead(decision, nameOf)}. ${modelNoteText(decision, unit)}`), el("p", { class: "an-links" }, go)));
    }
    box.append(el("h3", { text: t("an_model_title") }), el("p", { class: "note", text: t("an_model_intro") }), list);
    return box;
  }

  marks(result) {
    const frames = this.data.frames.length;
    this.timeline.replaceChildren(
      ...flaggedMoves(result).map((decision) => {
        const frame = decisionFrame(decision);
        const label = `${t(`an_verdict_${decision.verdict}`)}: ${moveHead(decision, (seat) => this.nameOf(seat))}`;
        const mark = button("", () => this.go(frame, decision), `an-mark ${decision.verdict}`);
        mark.style.left = `${framePercent(frame, frames)}%`;
        mark.dataset.frame = frame;
        mark.title = label;
        mark.setAttribute("aria-label", label);
        return mark;
      }),
    );
    this.timeline.hidden = false;
  }

  // At a frame ---------------------------------------------------------------------------

  /** What the board shows at replay frame `index`: at a flagged move's position (before it),
   * the better tile's box (or null when the better move was no play), the question and the
   * better move's label; a step later, what was played against what was better (both
   * when one flagged move follows another). */
  at(index) {
    const none = { ghost: null, question: "", best: "", after: "" };
    if (!this.result) return none;
    const nameOf = (seat) => this.nameOf(seat);
    const played = flaggedJustBefore(this.result, index);
    const after = played ? afterText(played, nameOf) : "";
    const decision = flaggedAt(this.result, index);
    if (decision) {
      const best = t("an_best_label", { best: actionText(decision.best) });
      return { ghost: decision.ghost, question: beforeText(decision, nameOf), best: decision.ghost ? `${best} (${t("an_best_ghost")})` : best, after };
    }
    const noted = notedAt(this.result, index);
    if (noted) return { ...none, question: beforeText(noted, nameOf), best: t("an_model_best", { best: actionText(noted.model_note.best) }), after };
    return { ...none, after };
  }
}
