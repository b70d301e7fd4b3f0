// Aprender: the path of lessons (#/aprender) and one lesson (#/aprender/ID). The lessons, the
// positions and every judgement are the server's (GET/POST /api/learn, docs/protocol.md): this
// page draws the position with the table's own modules (tiles.js, line.js, input.js), sends
// the move the learner makes, and says what the server answered. Nothing here knows a rule.

import { t, serverMessage, tileLabel } from "./i18n.js";
import { api } from "./api.js";
import { el, button, arrange, setAttr } from "./dom.js";
import { tileSvg } from "./tiles.js";
import { renderLine } from "./line.js";
import { attachHandInput } from "./input.js";
import {
  OFFER_KEY,
  keepProgress,
  lessonKey,
  mergeProgress,
  moveText,
  nextLesson,
  pipsOf,
  readProgress,
  replyMessage,
  resultMessage,
  seatKey,
  starsText,
} from "./learn_format.js";

const HAND_UNIT = 30;

function say(message) {
  if (!message) return "";
  const params = { ...message.params };
  if (message.who) params.who = t(message.who.key, message.who.params);
  return t(message.key, params);
}

// The stars an account or this browser holds; a guest's are merged into the account once it
// logs in (the best of each lesson kept), then forgotten here.
async function progressOf(app, listing) {
  const local = readProgress(localStorage);
  if (!listing.account) return local;
  const kept = Object.fromEntries(listing.lessons.filter((lesson) => lesson.stars).map((lesson) => [lesson.id, lesson.stars]));
  if (!Object.keys(local).length) return kept;
  try {
    const merged = await api("/api/learn/progress", { progress: local });
    localStorage.removeItem("tranque.learn.progress");
    return merged.progress;
  } catch {
    return mergeProgress(kept, local);
  }
}

function starsBadge(stars) {
  const label = stars ? t("ln_stars", { n: stars }) : t("ln_no_stars");
  return el("span", { class: `learn-stars${stars ? "" : " none"}`, role: "img", "aria-label": label, title: label, text: starsText(stars) });
}

// #/aprender: each lesson a card with its stars, the next one marked.
export function learnScreen(app) {
  localStorage.setItem(OFFER_KEY, "seen");
  const page = el("div", { class: "learn-page" },
    el("h1", { text: t("ln_title") }),
    el("p", { class: "learn-intro", text: t("ln_intro") }));
  const list = el("ol", { class: "learn-path" });
  page.append(list);
  api("/api/learn").then(async (listing) => {
    const progress = await progressOf(app, listing);
    const next = nextLesson(listing.lessons, progress);
    listing.lessons.forEach((lesson, index) => {
      const stars = progress[lesson.id] || null;
      const link = el("a", { class: "learn-card-link", href: `#/aprender/${lesson.id}` },
        el("span", { class: "learn-number", text: t("ln_lesson_n", { n: index + 1 }) }),
        el("span", { class: "learn-card-title", text: t(lessonKey("t", lesson.id)) }),
        el("span", { class: "learn-card-summary", text: t(lessonKey("s", lesson.id)) }),
        starsBadge(stars));
      const card = el("li", { class: `learn-card${stars ? " done" : ""}${lesson.id === next ? " next" : ""}`, "data-lesson": lesson.id }, link);
      if (lesson.id === next) {
        link.setAttribute("aria-current", "step");
        link.append(el("span", { class: "learn-next-mark", text: t("ln_next_mark") }));
      }
      list.append(card);
    });
    if (!listing.account) page.append(el("p", { class: "note", text: t("ln_guest_note") }));
  }, (error) => list.replaceChildren(el("li", { class: "note", text: serverMessage(error) })));
  return page;
}

// #/aprender/ID: the lesson, step by step.
export function lessonScreen(app, id) {
  const page = el("div", { class: "learn-lesson", "data-lesson": id });
  new Lesson(app, page, id).start(0);
  return page;
}

class Lesson {
  constructor(app, root, id) {
    this.app = app;
    this.root = root;
    this.id = id;
    this.tries = 0; // every move tried in the lesson, right or wrong: stars are by these
    this.detach = null;
    this.build();
  }

  build() {
    this.title = el("h1", { text: t(lessonKey("t", this.id)) });
    this.stepText = el("p", { class: "learn-step-count" });
    this.goal = el("p", { class: "learn-goal" });
    this.others = el("p", { class: "learn-others" });
    this.line = el("div", { class: "line learn-line" });
    this.board = el("div", { class: "board learn-board" }, this.line);
    this.hand = el("div", { class: "hand learn-hand", role: "listbox", "aria-label": `${t("ln_hand")}. ${t("ln_controls")}` });
    this.draw = button(t("ln_draw"), () => this.send("robar"), "learn-draw");
    this.pass = button(t("ln_pass"), () => this.send("pasar"), "learn-pass");
    this.actions = el("div", { class: "learn-actions" }, this.draw, this.pass);
    this.feedback = el("div", { class: "learn-feedback", role: "status", "aria-live": "polite" });
    this.after = el("div", { class: "learn-after", hidden: true });
    this.next = el("div", { class: "learn-next" });
    this.controls = el("details", { class: "learn-controls" }, el("summary", { text: t("ln_controls_title") }), el("p", { text: t("ln_controls") }));
    const back = el("a", { class: "learn-back", href: "#/aprender", text: `← ${t("ln_back")}` });
    this.root.append(back, this.title, this.stepText, this.goal, this.board, this.others, this.hand, this.actions, this.feedback, this.after, this.next, this.controls);
    this.detach = attachHandInput(this.hand, {
      focus: (key) => this.focusTile(key),
      tap: (key) => this.tap(key),
      flip: (key) => this.flip(key),
      move: (key, by) => this.moveFocus(key, by),
      end: (side) => this.chosen && this.send(moveText(this.chosen, side)),
      dropOnEnd: (key, side) => this.send(moveText(key, side)),
      reorder: () => {},
    });
  }

  async start(step) {
    this.step = step;
    this.moves = [];
    this.chosen = null;
    this.flipped = new Set();
    this.focusKey = null;
    this.next.replaceChildren();
    this.after.hidden = true;
    this.feedback.replaceChildren();
    try {
      this.data = await api(`/api/learn/${encodeURIComponent(this.id)}/${step}`);
    } catch (error) {
      this.feedback.textContent = error.status === 404 ? serverMessage(error) : t("ln_loading_error");
      return;
    }
    this.stepText.textContent = t("ln_step", { n: step + 1, of: this.data.steps });
    this.goal.textContent = t(`ln_goal_${this.data.goal}`, this.data.params || {});
    this.show(this.data.position, true);
    this.root.dataset.step = String(step);
    this.root.dataset.state = "playing";
  }

  show(position, playing) {
    this.position = position;
    const ends = position.line_ends;
    renderLine(this.line, { line: position.line, ends, choosing: playing && this.chosen ? true : null }, {
      onEnd: (side) => playing && this.chosen && this.send(moveText(this.chosen, side)),
    });
    const { players, mode } = this.data;
    const counts = position.hand_counts
      .map((n, seat) => (seat === 0 ? null : t("ln_others", { who: say(seatKey(seat, players, mode)), n })))
      .filter(Boolean);
    if (position.boneyard_count) counts.push(t("ln_pozo", { n: position.boneyard_count }));
    this.others.textContent = counts.join(" · ");
    this.playing = playing;
    this.draw.disabled = !playing;
    this.pass.disabled = !playing;
    this.renderHand();
  }

  renderHand() {
    const keys = this.position.hand;
    if (!keys.includes(this.focusKey)) this.focusKey = keys[0] || null;
    const items = keys.map((key) => {
      let item = this.hand.querySelector(`.hand-tile[data-tile="${key}"]`);
      if (!item) {
        item = el("button", { type: "button", class: "hand-tile", role: "option", "data-tile": key, tabindex: "-1" },
          el("span", { class: "tile-face" }), el("span", { class: "flip-zone", "aria-hidden": "true", title: t("table_flip") }));
      }
      let [a, b] = key.split("-").map(Number);
      if (this.flipped.has(key)) [a, b] = [b, a];
      const face = `${a}-${b}`;
      if (item.dataset.face !== face) {
        item.dataset.face = face;
        item.firstChild.replaceChildren(tileSvg(a, b, { unit: HAND_UNIT, vertical: true, label: false }));
      }
      item.classList.toggle("choosing", this.chosen === key);
      setAttr(item, "aria-label", tileLabel(a, b));
      setAttr(item, "aria-selected", key === this.focusKey ? "true" : "false");
      setAttr(item, "tabindex", key === this.focusKey ? "0" : "-1");
      setAttr(item, "aria-disabled", this.playing ? null : "true");
      return item;
    });
    arrange(this.hand, items);
  }

  focusTile(key) {
    this.focusKey = key;
    this.renderHand();
  }

  moveFocus(key, by) {
    const keys = this.position.hand;
    if (!keys.length) return;
    const at = Math.max(0, keys.indexOf(key ?? this.focusKey));
    const to = by === Infinity ? keys.length - 1 : by === -Infinity ? 0 : Math.min(keys.length - 1, Math.max(0, at + by));
    this.focusKey = keys[to];
    this.renderHand();
    this.hand.querySelector(`.hand-tile[data-tile="${this.focusKey}"]`).focus();
  }

  flip(key) {
    if (this.flipped.has(key)) this.flipped.delete(key);
    else this.flipped.add(key);
    this.renderHand();
  }

  // A tap chooses a tile; a second tap (or Enter) plays it where it alone can go: the
  // server's engine places it, or says that an end must be chosen.
  tap(key) {
    if (!this.playing) return;
    if (this.chosen === key || !this.position.line.length) {
      this.send(key);
      return;
    }
    this.chosen = key;
    this.feedback.textContent = t("ln_pick_end", { tile: key });
    this.show(this.position, true);
  }

  async send(move) {
    if (!this.playing || this.sending) return;
    this.sending = true;
    this.chosen = null;
    let answer;
    try {
      answer = await api(`/api/learn/${encodeURIComponent(this.id)}/${this.step}/move`, { moves: this.moves, move, tries: this.tries });
    } catch (error) {
      this.sending = false;
      this.feedback.textContent = serverMessage(error);
      this.show(this.position, true);
      return;
    }
    this.sending = false;
    this.tries += 1;
    this.answered(answer, move);
  }

  answered(answer, move) {
    const { players, mode } = this.data;
    const lines = [];
    this.after.hidden = true;
    if (answer.verdict === "illegal") {
      lines.push(serverMessage(answer.refusal), t("ln_try_again"));
      this.root.dataset.verdict = "illegal";
      this.show(answer.position, true);
    } else if (answer.verdict === "wrong") {
      const params = { ...answer.why.params, points: pipsOf(answer.why.params.tile) };
      lines.push(`${t("ln_wrong")} ${t(`ln_why_${answer.why.key}`, params)}`);
      if (answer.punish) {
        const reply = say(replyMessage({ ...answer.punish.action, seat: answer.punish.seat }, players, mode));
        lines.push(t("ln_punished", { reply }));
        this.showAfter(answer.after);
      } else if (answer.after && answer.after.is_over) {
        lines.push(say(resultMessage(answer.after.result, players, mode))); // the move ended the round: how
        this.showAfter(answer.after);
      }
      lines.push(t("ln_try_again"));
      this.root.dataset.verdict = "wrong";
      this.show(answer.position, true);
    } else {
      this.moves.push(answer.played);
      if (move === "robar") {
        const drawn = answer.position.hand.find((tile) => !this.position.hand.includes(tile));
        if (drawn) lines.push(t("ln_you_drew", { tile: drawn }));
      } else {
        lines.push(t("ln_good"));
      }
      for (const event of answer.replies) lines.push(say(replyMessage(event, players, mode)));
      const result = resultMessage(answer.position.result, players, mode);
      if (result) lines.push(say(result));
      const palitos = answer.position.round_pass_points;
      if (this.data.preset === "ponce" && palitos && palitos[0]) lines.push(t("ln_palitos", { n: palitos[0] }));
      this.root.dataset.verdict = "good";
      this.show(answer.position, !answer.done);
      if (answer.done) this.stepDone(answer, lines);
    }
    this.feedback.replaceChildren(...lines.map((line) => el("p", { text: line })));
  }

  showAfter(position) {
    this.after.hidden = false;
    const board = el("div", { class: "line learn-after-line" });
    this.after.replaceChildren(el("p", { class: "learn-after-label", text: t("ln_after_label") }), el("div", { class: "board" }, board));
    board.setAttribute("aria-label", t("ln_after_label"));
    requestAnimationFrame(() => renderLine(board, { line: position.line, ends: position.line_ends }, {}));
  }

  stepDone(answer, lines) {
    lines.unshift(t("ln_step_done"));
    this.root.dataset.state = "step-done";
    if (!answer.lesson_done) {
      const onward = button(t("ln_next_step"), () => this.start(this.step + 1), "primary big");
      onward.id = "learn-next-step";
      this.next.replaceChildren(onward);
      requestAnimationFrame(() => onward.focus());
      return;
    }
    this.root.dataset.state = "lesson-done";
    this.root.dataset.stars = String(answer.stars);
    lines.push(t("ln_lesson_done", { stars: t("ln_stars", { n: answer.stars }) }));
    lines.push(t("ln_tries", { tries: this.tries, par: this.data.par }));
    keepProgress(localStorage, this.id, answer.stars);
    if (this.app.user) {
      api("/api/learn/progress", { progress: readProgress(localStorage) }).then(
        () => localStorage.removeItem("tranque.learn.progress"),
        () => {},
      );
    }
    const stars = el("p", { class: "learn-final-stars" }, starsBadge(answer.stars));
    const again = button(t("ln_again"), () => {
      this.tries = 0;
      this.start(0);
    });
    const buttons = [again];
    if (answer.next) {
      const onward = button(t("ln_next_lesson"), () => this.app.go(`#/aprender/${answer.next}`), "primary big");
      onward.id = "learn-next-lesson";
      buttons.unshift(onward);
      requestAnimationFrame(() => onward.focus());
    } else {
      buttons.unshift(button(t("practice"), () => this.app.go("#/practicar"), "primary big"));
      lines.push(t("ln_all_done"));
    }
    this.next.replaceChildren(stars, el("div", { class: "learn-next-buttons" }, ...buttons));
  }
}
