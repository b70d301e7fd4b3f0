// «¿Qué jugarías?» (#/que-jugarias, #/que-jugarias/<id>): a position from a bot game where one
// move is clearly best, seen as the player to move saw it (their hand, the line, who passed,
// how many tiles each holds: GET /api/puzzles/daily|random|{id}, never anyone else's tiles).
// The reader picks a tile (and an end when it fits both) by click, tap or keyboard; the
// server says whether it was the best, why, and what each move was worth
// (POST /api/puzzles/{id}/answer). The home page's card is puzzles_card.js.

import { t, currentLang, serverMessage, tileLabel } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { tileSvg } from "./tiles.js";
import { renderLine } from "./line.js";
import { actionFor, halves, handChoices, history, localDay, nextStreak, points, relation, sameMove } from "./puzzles_format.js";
import { readStreak, saveStreak, streakText } from "./puzzles_card.js";

export function puzzlesScreen(app, puzzleId = null) {
  const page = el("div", { class: "puzzle-page" }, el("h1", { text: t("pz_title") }), el("p", { class: "note", text: t("pz_loading") }));
  const path = puzzleId ? `/api/puzzles/${encodeURIComponent(puzzleId)}` : `/api/puzzles/daily?date=${localDay(new Date())}`;
  api(path).then(
    (puzzle) => page.isConnected !== false && new PuzzleView(app, page, puzzle).build(),
    (error) => {
      const text = error && error.code === "no_such_puzzle" ? t("pz_missing") : serverMessage(error);
      page.replaceChildren(el("h1", { text: t("pz_title") }), el("p", { class: "form-error", role: "alert", text }), el("a", { class: "button", href: "#/que-jugarias", text: t("pz_today") }));
    },
  );
  return page;
}

class PuzzleView {
  constructor(app, page, puzzle) {
    this.app = app;
    this.page = page;
    this.puzzle = puzzle;
    this.pending = null; // the tile waiting for its end
    this.answered = false;
  }

  pairs() {
    return this.puzzle.rules.mode === "pairs";
  }

  who(seat) {
    const { seat: mine, rules } = this.puzzle;
    const rel = relation(mine, seat, rules.players, this.pairs());
    return t(`pz_who_${rel}`, { n: seat + 1 });
  }

  build() {
    const p = this.puzzle;
    const heading = p.daily ? t("pz_daily", { date: p.daily }) : t("pz_numbered", { id: p.id });
    const head = el(
      "div",
      { class: "pz-head" },
      el("h1", { text: t("pz_title") }),
      el("p", { class: "pz-meta" }, el("span", { text: heading }), " · ", el("span", { text: t(`pz_col_${p.collection}`) })),
    );
    this.lineBox = el("div", { class: "line pz-line" });
    this.question = el("p", { class: "pz-question", "aria-live": "polite", text: t("pz_question") });
    this.endButtons = el("div", { class: "pz-ends" });
    this.hand = el("div", { class: "pz-hand", role: "group", "aria-label": t("pz_your_hand") });
    this.result = el("section", { class: "pz-result", "aria-live": "polite" });
    this.result.hidden = true;
    const board = el("section", { class: "pz-board", "aria-label": t("line_label") }, this.lineBox);
    const play = el("div", { class: "pz-play" }, this.question, this.endButtons, el("h2", { class: "pz-hand-title", text: t("pz_your_hand") }), this.hand);
    const side = el("div", { class: "pz-side" }, this.seatsList(), this.passes(), this.story());
    const nav = el(
      "div",
      { class: "pz-nav" },
      button(t("pz_other"), () => this.another()),
      el("a", { class: "button", href: "#/que-jugarias", text: t("pz_today") }),
    );
    this.page.dataset.id = p.id;
    this.page.replaceChildren(head, el("div", { class: "pz-main" }, el("div", { class: "pz-left" }, board, play, this.result), side), nav);
    this.drawLine();
    this.drawHand();
  }

  seatsList() {
    const p = this.puzzle;
    const list = el("ul", { class: "pz-seats" });
    for (let offset = 0; offset < p.rules.players; offset += 1) {
      const seat = (p.seat + offset) % p.rules.players;
      const n = p.hand_counts[seat];
      list.append(el("li", { "data-seat": seat }, el("span", { class: "pz-who", text: this.who(seat) }), " ", el("b", { text: n === 1 ? t("pz_tile_one") : t("pz_tiles", { n }) })));
    }
    const box = el("div", { class: "pz-counts" }, list);
    if (p.boneyard_count) box.append(el("p", { class: "note", text: t("pz_pozo", { n: p.boneyard_count }) }));
    return box;
  }

  story() {
    const items = history(this.puzzle.events).map((entry) => {
      const who = this.who(entry.seat);
      if (entry.kind === "play") return el("li", { text: t("pz_ev_play", { who, tile: entry.tile }) });
      return el("li", { class: "pz-pass", text: this.passText(entry) });
    });
    const details = el("details", { class: "pz-story" }, el("summary", { text: t("pz_story") }), el("ol", { tabindex: "0", "aria-label": t("pz_story") }, ...items));
    details.open = window.matchMedia ? window.matchMedia("(min-width: 900px)").matches : true;
    return details;
  }

  passText(entry) {
    const [a, b] = entry.ends || ["–", "–"];
    const mine = entry.seat === this.puzzle.seat ? "_you" : "";
    return t(`pz_ev_${entry.kind === "pass" ? "pass" : "draw"}${mine}`, { who: this.who(entry.seat), a, b });
  }

  // Every pass and draw of the hand, always in sight: what they say is often the answer.
  passes() {
    const shown = history(this.puzzle.events).filter((entry) => entry.kind !== "play");
    const text = shown.length ? t("pz_passes", { list: shown.map((entry) => this.passText(entry)).join("; ") }) : t("pz_no_passes");
    return el("p", { class: "pz-passes", text });
  }

  drawLine(choosing = null) {
    const p = this.puzzle;
    renderLine(this.lineBox, { line: p.line, ends: p.line_ends, choosing }, { onEnd: (side) => this.pending && this.choose(this.pending, side) });
  }

  drawHand() {
    this.hand.replaceChildren();
    for (const { tile, sides } of handChoices(this.puzzle.hand, this.puzzle.legal)) {
      const [a, b] = halves(tile);
      const playable = sides.length > 0;
      const label = playable ? tileLabel(a, b) : `${tileLabel(a, b)} (${t("pz_cannot")})`;
      const item = el("button", { type: "button", class: "pz-tile", "data-tile": tile, "aria-label": label, title: label });
      item.append(tileSvg(a, b, { unit: 30, vertical: true, label: false }));
      item.disabled = !playable || this.answered;
      if (this.pending === tile) item.classList.add("chosen");
      item.addEventListener("click", () => this.pick(tile));
      this.hand.append(item);
    }
  }

  pick(tile) {
    if (this.answered) return;
    const only = actionFor(this.puzzle.legal, tile);
    if (only) return this.send(only);
    this.pending = tile;
    this.question.textContent = t("pz_choose_end", { tile });
    this.drawHand();
    this.drawLine(true);
    this.endButtons.replaceChildren();
    const ends = this.puzzle.line_ends || {};
    for (const side of ["left", "right"]) {
      const end = ends[side];
      const choice = button(t("pz_end_button", { side: t(`pz_side_${side}`), pips: end ? end.pips : "" }), () => this.choose(tile, side));
      choice.dataset.side = side;
      this.endButtons.append(choice);
    }
    this.endButtons.querySelector("button").focus();
  }

  choose(tile, side) {
    const action = actionFor(this.puzzle.legal, tile, side);
    if (action) this.send(action);
  }

  async send(action) {
    if (this.answered) return;
    this.answered = true;
    let verdict;
    try {
      verdict = await api(`/api/puzzles/${encodeURIComponent(this.puzzle.id)}/answer`, { action });
    } catch (error) {
      this.answered = false;
      this.app.toast(serverMessage(error));
      return;
    }
    this.pending = null;
    this.endButtons.replaceChildren();
    this.drawHand();
    this.drawLine();
    this.showResult(verdict);
  }

  moveText(action, sides) {
    const twoWays = sides.filter((other) => other.tile === action.tile).length > 1;
    if (twoWays && action.side) return t("pz_move_side", { tile: action.tile, side: t(`pz_side_${action.side}`) });
    return t("pz_move", { tile: action.tile });
  }

  showResult(verdict) {
    const lang = currentLang();
    const moves = verdict.choices.map((choice) => choice.actions[0]);
    const verdictLine = el("p", { class: `pz-verdict ${verdict.right ? "right" : "wrong"}`, text: verdict.right ? t("pz_right") : t("pz_wrong") });
    const best = el("p", { class: "pz-best", text: t("pz_best", { move: this.moveText(verdict.best, moves) }) });
    const why = el("div", { class: "pz-why" }, el("h2", { text: t("pz_why") }), el("p", { text: verdict.explanation[lang] || verdict.explanation.es }));
    const lesson = el("a", { class: "pz-lesson", href: `#/aprender/${encodeURIComponent(verdict.lesson)}`, text: t("pz_lesson", { lesson: t(`pz_lesson_${verdict.lesson}`) }) });
    const after = el("div", { class: "line pz-line pz-after-line" });
    const afterBox = el("figure", { class: "pz-after" }, after, el("figcaption", { text: t("pz_after") }));
    const rows = verdict.choices.map((choice) => {
      const mine = choice.actions.some((action) => sameMove(action, verdict.chosen));
      const isBest = choice.actions.some((action) => sameMove(action, verdict.best));
      const marks = [isBest ? t("pz_best_mark") : "", mine ? t("pz_yours") : ""].filter(Boolean).join(" · ");
      return el(
        "tr",
        { class: [isBest ? "best" : "", mine ? "mine" : ""].join(" ").trim() },
        el("th", { scope: "row" }, el("span", { text: this.moveText(choice.actions[0], moves) }), marks ? el("small", { text: ` (${marks})` }) : ""),
        el("td", { text: points(choice.points, lang) }),
        el("td", { text: `${choice.wins} / ${verdict.deals}` }),
      );
    });
    const table = el(
      "table",
      { class: "pz-worth" },
      el("caption", { text: t("pz_worth_caption", { deals: verdict.deals }) }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: t("pz_col_move") }), el("th", { scope: "col", text: t("pz_col_points") }), el("th", { scope: "col", text: t("pz_col_wins") }))),
      el("tbody", {}, ...rows),
    );
    const how = el("p", { class: "note", text: verdict.exact ? t("pz_exact") : t("pz_sampled", { deals: verdict.deals }) });
    this.result.replaceChildren(verdictLine, best, why, afterBox, el("h2", { text: t("pz_worth") }), table, how, lesson);
    if (this.puzzle.daily) {
      const streak = nextStreak(readStreak(), { day: this.puzzle.daily, right: verdict.right, daily: true });
      saveStreak(streak);
      if (streak.count) this.result.append(el("p", { class: "pz-streak", text: streakText(streak.count) }));
    }
    this.result.hidden = false;
    this.question.textContent = t("pz_your_move", { move: this.moveText(verdict.chosen, moves) });
    renderLine(after, { line: verdict.after.line, ends: verdict.after.line_ends });
    verdictLine.setAttribute("tabindex", "-1");
    verdictLine.focus();
  }

  async another() {
    try {
      const puzzle = await api(`/api/puzzles/random?not=${encodeURIComponent(this.puzzle.id)}`);
      this.app.go(`#/que-jugarias/${encodeURIComponent(puzzle.id)}`);
    } catch (error) {
      this.app.toast(serverMessage(error));
    }
  }
}
