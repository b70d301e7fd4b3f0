// The table: keeps this seat's picture of the game from `sync`, numbered `event`s and
// private `options` (the legal actions, computed by the server), and draws it.

import { t, phrase, tileLabel, PHRASES } from "./i18n.js";
import { tileSvg, svg } from "./tiles.js";
import { renderLine } from "./line.js";
import { api } from "./api.js";
import { showRoundEnd, showGameEnd, showRematchVote, closeOverlay } from "./results.js";
import { DealBook } from "./fairness.js";

const AIDS_KEY = "tranque.aids";

function parseTile(text) {
  const [a, b] = text.split("-").map(Number);
  return [a, b];
}

export class TableView {
  constructor({ root, socket, tableId, seat, token, toast, onLeave, hosting = null }) {
    this.hosting = hosting; // {invite: link or null} for whoever created the table
    this.root = root;
    this.socket = socket;
    this.tableId = tableId;
    this.seat = seat;
    this.token = token;
    this.toast = toast;
    this.onLeave = onLeave;
    this.lastSeq = null;
    this.state = null;
    this.handOrder = [];
    this.flipped = new Set();
    this.focus = 0;
    this.choosing = null; // a tile that fits both ends, waiting for the end
    this.aids = { playable: true, ends: true, passes: true, ...JSON.parse(localStorage.getItem(AIDS_KEY) || "{}") };
    this.clockOffset = 0;
    this.frame = null;
    this.deals = new DealBook(); // commitments kept from round_started, for the browser's own check
    socket.resume = () => this.hello();
  }

  hello() {
    const message = { type: "hello", table: this.tableId };
    if (this.token) message.token = this.token;
    if (this.lastSeq !== null) message.last_seq = this.lastSeq;
    return message;
  }

  start() {
    this.root.innerHTML = `<div class="table-screen" aria-busy="true"></div>`;
    this.socket.request(this.hello()).catch((error) => this.fail(error));
    this.tick();
  }

  stop() {
    cancelAnimationFrame(this.frame);
    this.socket.resume = null;
    closeOverlay();
  }

  fail(error) {
    if (error && error.code === "offline") return;
    this.toast((error && error.message) || t("error_generic"));
    if (error && ["bad_token", "no_such_table", "private"].includes(error.code)) {
      localStorage.removeItem(`tranque.seat.${this.tableId}`);
      this.onLeave();
    }
  }

  send(message) {
    return this.socket.request(message).catch((error) => this.fail(error));
  }

  // Messages from the server -----------------------------------------------------------

  handle(message) {
    if (message.type === "sync") this.sync(message);
    else if (message.type === "event") this.event(message);
    else if (message.type === "options") this.options(message);
    else return;
    this.render();
  }

  sync(snapshot) {
    const view = snapshot.view;
    this.lastSeq = snapshot.seq;
    this.deals.sync(snapshot);
    this.seat = snapshot.you;
    const s = {
      phase: snapshot.phase,
      kind: snapshot.kind,
      rules: snapshot.rules,
      seats: snapshot.seats,
      round: snapshot.round,
      turn: snapshot.turn,
      commitment: snapshot.commitment,
      results: snapshot.results || [],
      votes: snapshot.votes || [],
      hand: view ? view.hand.map(parseTile) : [],
      layout: view ? view.layout : [],
      ends: view ? view.ends : null,
      line: view ? view.line : [], // the boxes the server laid the line out in
      lineEnds: view ? view.line_ends : null,
      handCounts: view ? view.hand_counts : [],
      boneyard: view ? view.boneyard_count : 0,
      scores: view ? view.scores : [],
      goals: view ? view.goals : [],
      options: view && view.legal_actions.length && snapshot.turn ? { turn_id: snapshot.turn.turn_id, legal_actions: view.legal_actions } : null,
      markers: {},
      passedOn: {},
      played: [],
    };
    if (view) {
      let ends = null;
      for (const event of view.events) {
        if (event.type === "play") ends = endsAfter(ends, event);
        this.track(s, event.seat, event, ends);
      }
    }
    this.state = s;
    this.syncHand();
    if (view && view.is_over && view.result) {
      showRoundEnd(this, { result: view.result, hands: view.revealed_hands, scores: view.scores, goals: view.goals, round: snapshot.round });
    }
  }

  track(s, seat, action, endsAfter) {
    if (action.type === "play") {
      s.played.push(parseTile(action.tile));
      delete s.markers[seat];
    } else if (action.type === "draw") {
      const marker = s.markers[seat];
      s.markers[seat] = { kind: "drew", n: marker && marker.kind === "drew" ? marker.n + 1 : 1 };
    } else if (action.type === "pass") {
      s.markers[seat] = { kind: "passed" };
      if (endsAfter) {
        const numbers = (s.passedOn[seat] = s.passedOn[seat] || new Set());
        endsAfter.forEach((n) => numbers.add(n));
      }
    }
  }

  event(message) {
    if (this.lastSeq !== null && message.seq !== this.lastSeq + 1) {
      this.lastSeq = null; // a gap: ask for a fresh snapshot
      this.send(this.hello());
      return;
    }
    this.lastSeq = message.seq;
    const s = this.state;
    if (!s) return;
    this.deals.event(message);
    const d = message.data;
    switch (message.kind) {
      case "seat":
        s.seats[d.seat] = d;
        break;
      case "game_started":
        s.phase = "playing";
        break;
      case "round_started":
        Object.assign(s, {
          phase: "playing", round: d.round, hand: d.hand ? d.hand.map(parseTile) : [], handCounts: d.hand_counts,
          boneyard: d.boneyard_count, layout: [], ends: null, line: [], lineEnds: null, commitment: d.commitment, markers: {}, passedOn: {},
          played: [], options: null, votes: s.votes,
        });
        this.syncHand();
        closeOverlay();
        break;
      case "turn":
        this.clockOffset = message.at * 1000 - Date.now();
        s.turn = d;
        if (!s.options || s.options.turn_id !== d.turn_id) s.options = null;
        this.choosing = null;
        break;
      case "action":
        this.applyAction(s, d);
        if (d.scores) s.scores = d.scores; // ponce: a pass that scores counts at once
        break;
      case "round_ended":
        s.phase = "between_rounds";
        s.scores = d.scores;
        s.goals = d.goals;
        s.turn = null;
        s.options = null;
        if (d.result) s.results.push(d.result);
        showRoundEnd(this, d);
        break;
      case "game_ended":
        s.phase = d.reason === "annulled" ? "annulled" : "finished";
        s.scores = d.scores;
        s.turn = null;
        showGameEnd(this, d);
        break;
      case "phrase":
        this.toast(`${this.nameOf(d.seat)}: ${phrase(d.phrase)}`);
        break;
      case "vote":
        s.votes = d.agree ? [...new Set([...s.votes, d.seat])] : [];
        if (d.agree) this.toast(t("annul_proposed", { k: s.votes.length, n: this.humanCount() }));
        break;
      case "rematch_vote":
        showRematchVote(this, d);
        break;
      case "annulled":
        this.toast(t("annulled"));
        break;
      default:
        break;
    }
  }

  applyAction(s, d) {
    const action = d.action;
    const before = s.ends;
    if (action.type === "play") {
      const [a, b] = parseTile(action.tile);
      if (!action.side) s.layout = [[Math.max(a, b), Math.min(a, b)]];
      else if (action.side === "left") s.layout.unshift([a + b - before[0], before[0]]);
      else s.layout.push([before[1], a + b - before[1]]);
      if (d.place) {
        if (action.side === "left") s.line = [d.place, ...s.line];
        else s.line = [...s.line, d.place];
        s.lineEnds = d.line_ends;
      }
      s.handCounts[d.seat] -= 1;
      if (d.seat === this.seat) this.removeFromHand(a, b);
    } else if (action.type === "draw") {
      s.handCounts[d.seat] += 1;
      s.boneyard -= 1;
      if (d.drawn) {
        s.hand.push(parseTile(d.drawn));
        this.syncHand();
      }
    }
    s.ends = d.ends;
    this.track(s, d.seat, action, d.ends);
    s.options = null;
  }

  options(message) {
    if (this.state && this.state.turn && message.turn_id === this.state.turn.turn_id) this.state.options = message;
  }

  // The hand: its order and flips are the player's own business --------------------------

  syncHand() {
    const keys = this.state.hand.map(([a, b]) => `${Math.max(a, b)}-${Math.min(a, b)}`);
    this.handOrder = this.handOrder.filter((k) => keys.includes(k)).concat(keys.filter((k) => !this.handOrder.includes(k)));
    this.focus = Math.min(this.focus, Math.max(0, this.handOrder.length - 1));
  }

  removeFromHand(a, b) {
    const key = `${Math.max(a, b)}-${Math.min(a, b)}`;
    this.state.hand = this.state.hand.filter(([x, y]) => `${Math.max(x, y)}-${Math.min(x, y)}` !== key);
    this.syncHand();
  }

  playsOf(key) {
    const options = this.state.options;
    if (!options) return [];
    return options.legal_actions.filter((action) => action.type === "play" && action.tile === key);
  }

  canDo(type) {
    const options = this.state.options;
    return Boolean(options && options.legal_actions.some((action) => action.type === type));
  }

  tapTile(key) {
    const s = this.state;
    if (!s.turn || s.turn.seat !== this.seat || !s.options) {
      this.flip(key);
      return;
    }
    const plays = this.playsOf(key);
    if (!plays.length) {
      this.toast(this.canDo("draw") ? t("must_draw") : t("not_playable", { tile: key }));
      return;
    }
    if (plays.length === 1) {
      this.act(plays[0]);
      return;
    }
    this.choosing = key;
    this.toast(t("choose_end"));
    this.render();
  }

  chooseEnd(side) {
    if (!this.choosing) {
      this.showEndCount(side);
      return;
    }
    const play = this.playsOf(this.choosing).find((action) => action.side === side);
    this.choosing = null;
    if (play) this.act(play);
  }

  showEndCount(side) {
    const s = this.state;
    if (!this.aids.ends || !s.ends) return;
    const n = side === "left" ? s.ends[0] : s.ends[1];
    const played = s.played.filter(([a, b]) => a === n || b === n).length;
    const total = s.rules.set_max + 1;
    this.toast(t("played_of", { n, k: played, total }));
  }

  flip(key) {
    if (this.flipped.has(key)) this.flipped.delete(key);
    else this.flipped.add(key);
    this.render();
  }

  act(action) {
    const turn = this.state.turn;
    this.state.options = null;
    this.render();
    this.send({ type: "act", action, turn_id: turn ? turn.turn_id : undefined });
  }

  // Drawing ----------------------------------------------------------------------------

  nameOf(seat) {
    if (seat === this.seat) return t("you");
    const info = this.state.seats[seat];
    if (info && info.kind === "empty") return t("empty_seat");
    return (info && info.name) || t("seat_n", { n: seat + 1 });
  }

  sideName(side) {
    const rules = this.state.rules;
    if (rules.mode !== "pairs") return this.nameOf(side);
    const half = rules.players / 2;
    const seats = [side, side + half];
    return `${t("team")} ${"ABC"[side]} (${seats.map((s) => this.nameOf(s)).join(" + ")})`;
  }

  humanCount() {
    return this.state.seats.filter((seat) => seat.kind === "human").length;
  }

  position(seat) {
    const n = this.state.rules.players;
    const me = this.seat === null ? 0 : this.seat;
    const k = (seat - me + n) % n;
    const places = {
      2: ["bottom", "top"],
      3: ["bottom", "right", "left"],
      4: ["bottom", "right", "top", "left"],
      5: ["bottom", "right", "topright", "topleft", "left"],
      6: ["bottom", "bottomright", "topright", "top", "topleft", "bottomleft"],
    };
    return places[n][k];
  }

  render() {
    const s = this.state;
    if (!s) return;
    const screen = document.createElement("div");
    screen.className = `table-screen players-${s.rules.players}`;
    screen.append(this.renderHeader());
    if (s.phase === "waiting") screen.append(this.renderWaiting());
    screen.append(this.renderSeats(), this.renderFooter());
    this.root.replaceChildren(screen);
    this.renderLine();
  }

  renderHeader() {
    const s = this.state;
    const header = document.createElement("div");
    header.className = "table-header";
    const sides = s.scores.map((score, side) => {
      const goals = s.rules.goals_to_win ? ` · ⚽ ${s.goals[side] || 0}` : "";
      return `<span class="score side-${side}">${escapeHtml(this.sideName(side))}: <b>${score}</b>${goals}</span>`;
    });
    header.innerHTML = `
      <div class="round-info">${[s.round !== null && s.round !== undefined ? t("round", { n: s.round + 1 }) : "",
        t("to_target", { n: s.rules.target })].filter(Boolean).join(" · ")}</div>
      <div class="scores" aria-label="${t("target")}">${sides.join("")}</div>`;
    return header;
  }

  // Before the game: the invitation to share and, for the host, bots for the empty seats.
  renderWaiting() {
    const box = document.createElement("section");
    box.className = "invite card";
    const taken = this.state.seats.filter((seat) => seat.kind !== "empty").length;
    box.innerHTML = `<p>${t("waiting_players")} ${taken}/${this.state.rules.players}</p>`;
    if (this.hosting && this.hosting.invite) {
      box.insertAdjacentHTML("beforeend", `<label>${t("invite_link")}
        <input readonly class="invite-link" value="${escapeHtml(this.hosting.invite)}"></label>`);
    }
    if (this.hosting) {
      box.append(button(t("fill_bots"), () => this.send({ type: "fill_bots", level: "heuristic" }), "primary"));
    }
    return box;
  }

  renderSeats() {
    const s = this.state;
    const grid = document.createElement("div");
    grid.className = "seats-grid";
    const board = document.createElement("section");
    board.className = "board";
    board.setAttribute("aria-label", t("line_label"));
    if (!this.lineHolder) {
      // One holder for the whole table: moved into each new board, so its tiles are reused.
      this.lineHolder = document.createElement("div");
      this.lineHolder.className = "line";
      this.lineHolder.id = "line";
    }
    board.append(this.lineHolder, this.renderEnds());
    grid.append(board);
    for (let seat = 0; seat < s.rules.players; seat++) {
      if (seat === this.seat) continue;
      grid.append(this.renderOpponent(seat));
    }
    return grid;
  }

  renderEnds() {
    const s = this.state;
    const bar = document.createElement("div");
    bar.className = "ends-bar";
    if (!s.ends) {
      const note = document.createElement("span");
      note.textContent = s.phase === "waiting" ? t("waiting_players") : "";
      bar.append(note, this.renderPozo(), document.createElement("span"));
      return bar;
    }
    // The end buttons are on the board itself, at the real ends (line.js).
    bar.append(document.createElement("span"), this.renderPozo(), document.createElement("span"));
    return bar;
  }

  renderPozo() {
    const s = this.state;
    const pozo = document.createElement("button");
    pozo.type = "button";
    pozo.className = "pozo";
    const mustDraw = s.turn && s.turn.seat === this.seat && this.canDo("draw");
    pozo.disabled = !mustDraw;
    if (mustDraw) pozo.classList.add("lit");
    pozo.innerHTML = `${t("pozo")}: <b>${s.boneyard}</b>`;
    pozo.setAttribute("aria-label", `${t("pozo")}: ${s.boneyard}${mustDraw ? ` · ${t("draw")}` : ""}`);
    pozo.addEventListener("click", () => mustDraw && this.act({ type: "draw" }));
    return pozo;
  }

  renderLine() {
    if (!this.lineHolder || !this.lineHolder.isConnected) return;
    const s = this.state;
    const choosing = this.choosing ? this.playsOf(this.choosing).map((action) => action.side) : null;
    renderLine(this.lineHolder, { line: s.line, ends: s.lineEnds, choosing }, { onEnd: (side) => this.chooseEnd(side) });
  }

  seatBadge(seat) {
    const s = this.state;
    const info = s.seats[seat] || {};
    const badge = document.createElement("div");
    badge.className = "badge";
    const team = s.rules.mode === "pairs" ? seat % (s.rules.players / 2) : seat;
    badge.classList.add(`team-${s.rules.mode === "pairs" ? team : "solo"}`);
    const active = s.turn && s.turn.seat === seat;
    if (active) badge.classList.add("active");
    const partner = s.rules.mode === "pairs" && this.seat !== null && seat === (this.seat + s.rules.players / 2) % s.rules.players;
    let state = "";
    if (info.kind === "bot" || info.state === "covered") state = t("bot");
    else if (info.kind === "human" && info.state === "away") state = t("away");
    badge.innerHTML = `
      <svg class="clock" viewBox="0 0 36 36" aria-hidden="true"><circle class="clock-track" cx="18" cy="18" r="15"/>
        <circle class="clock-ring" cx="18" cy="18" r="15" data-seat="${seat}"/></svg>
      <span class="who">${escapeHtml(this.nameOf(seat))}${partner ? ` <small>(${t("partner")})</small>` : ""}</span>
      ${state ? `<small class="state">${state}</small>` : ""}`;
    const marker = s.markers[seat];
    if (marker) {
      const text = marker.kind === "passed" ? t("passed") : t("drew", { n: marker.n });
      badge.insertAdjacentHTML("beforeend", `<span class="marker">${text}</span>`);
    }
    if (this.aids.passes && s.passedOn[seat] && s.passedOn[seat].size) {
      const numbers = [...s.passedOn[seat]].sort().join(", ");
      badge.insertAdjacentHTML("beforeend", `<small class="passed-on">${t("passed_on")} ${numbers}</small>`);
    }
    return badge;
  }

  renderOpponent(seat) {
    const s = this.state;
    const box = document.createElement("section");
    box.className = `opponent pos-${this.position(seat)}`;
    box.append(this.seatBadge(seat));
    if (s.phase === "waiting") return box;
    const backs = document.createElement("div");
    backs.className = "backs";
    const count = s.handCounts[seat] || 0;
    backs.setAttribute("aria-label", `${count}`);
    for (let i = 0; i < Math.min(count, 12); i++) backs.append(tileSvg(0, 0, { unit: 9, vertical: true, back: true }));
    backs.insertAdjacentHTML("beforeend", `<span class="count">${count}</span>`);
    box.append(backs);
    return box;
  }

  renderFooter() {
    const s = this.state;
    const footer = document.createElement("section");
    footer.className = "me";
    if (this.seat === null) {
      footer.innerHTML = `<p class="note">${t("spectating")}</p>`;
      return footer;
    }
    const mine = s.seats[this.seat] || {};
    const status = document.createElement("div");
    status.className = "status-row";
    status.append(this.seatBadge(this.seat));
    const message = document.createElement("span");
    message.className = "turn-text";
    message.setAttribute("aria-live", "polite");
    if (s.turn) message.textContent = s.turn.seat === this.seat ? t("your_turn") : t("turn_of", { name: this.nameOf(s.turn.seat) });
    status.append(message);
    if (this.canDo("pass")) status.append(button(t("pass"), () => this.act({ type: "pass" }), "primary"));
    footer.append(status);
    if (mine.state === "covered") {
      const back = document.createElement("div");
      back.className = "covered";
      back.append(document.createTextNode(t("covered") + " "), button(t("back_to_seat"), () => this.send({ type: "return" }), "primary"));
      footer.append(back);
    }
    footer.append(this.renderHand(), this.renderTools());
    return footer;
  }

  renderHand() {
    const hand = document.createElement("div");
    hand.className = "hand";
    hand.setAttribute("role", "listbox");
    hand.setAttribute("aria-label", `${t("hand_label")}. ${t("keyboard_hint")}`);
    hand.tabIndex = 0;
    const myTurn = this.state.turn && this.state.turn.seat === this.seat && this.state.options;
    this.handOrder.forEach((key, index) => {
      let [a, b] = parseTile(key);
      if (this.flipped.has(key)) [a, b] = [b, a];
      const item = document.createElement("button");
      item.type = "button";
      item.className = "hand-tile";
      item.dataset.tile = key;
      item.setAttribute("role", "option");
      item.setAttribute("aria-label", tileLabel(a, b));
      const playable = myTurn && this.playsOf(key).length > 0;
      if (playable && this.aids.playable) item.classList.add("playable");
      if (this.choosing === key) item.classList.add("choosing");
      if (index === this.focus) item.setAttribute("aria-selected", "true");
      item.tabIndex = -1;
      item.draggable = true;
      item.append(tileSvg(a, b, { unit: 26, vertical: true, label: false }));
      item.addEventListener("click", () => {
        this.focus = index;
        this.tapTile(key);
      });
      item.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", key));
      item.addEventListener("dragover", (event) => event.preventDefault());
      item.addEventListener("drop", (event) => {
        event.preventDefault();
        this.reorder(event.dataTransfer.getData("text/plain"), key);
      });
      hand.append(item);
    });
    hand.addEventListener("keydown", (event) => this.key(event));
    return hand;
  }

  reorder(moved, before) {
    if (!moved || moved === before) return;
    const order = this.handOrder.filter((key) => key !== moved);
    order.splice(order.indexOf(before), 0, moved);
    this.handOrder = order;
    this.render();
  }

  key(event) {
    const count = this.handOrder.length;
    if (!count) return;
    if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
      this.focus = (this.focus + (event.key === "ArrowRight" ? 1 : -1) + count) % count;
    } else if (event.key === "Enter" || event.key === " ") {
      this.tapTile(this.handOrder[this.focus]);
    } else if (this.choosing && (event.key === "i" || event.key === "d" || event.key === "l" || event.key === "r")) {
      this.chooseEnd(event.key === "i" || event.key === "l" ? "left" : "right");
    } else {
      return;
    }
    event.preventDefault();
    this.render();
    const hand = this.root.querySelector(".hand");
    if (hand) hand.focus();
  }

  renderTools() {
    const s = this.state;
    const tools = document.createElement("details");
    tools.className = "tools";
    tools.innerHTML = `<summary>${t("phrases")} · ${t("aids")}</summary>`;
    const phrases = document.createElement("div");
    phrases.className = "phrases";
    for (const key of Object.keys(PHRASES)) phrases.append(button(phrase(key), () => this.send({ type: "phrase", phrase: key })));
    tools.append(phrases);
    const aids = document.createElement("div");
    aids.className = "aids";
    for (const [key, label] of [["playable", "aid_playable"], ["ends", "aid_ends"], ["passes", "aid_passes"]]) {
      const row = document.createElement("label");
      const box = document.createElement("input");
      box.type = "checkbox";
      box.checked = this.aids[key];
      box.addEventListener("change", () => {
        this.aids[key] = box.checked;
        localStorage.setItem(AIDS_KEY, JSON.stringify(this.aids));
        this.render();
      });
      row.append(box, document.createTextNode(" " + t(label)));
      aids.append(row);
    }
    tools.append(aids);
    if ((s.phase === "playing" || s.phase === "between_rounds") && s.kind !== "practice" && this.humanCount() > 1) {
      const voted = s.votes.includes(this.seat);
      tools.append(button(voted ? t("annul_no") : t("annul"), () => this.send({ type: "vote", agree: !voted })));
    }
    return tools;
  }

  tick() {
    const ring = this.root.querySelector(".badge.active .clock-ring");
    const s = this.state;
    if (ring && s && s.turn) {
      const total = s.rules.turn_seconds * 1000;
      const left = Math.max(0, s.turn.deadline * 1000 - (Date.now() + this.clockOffset));
      const fraction = Math.min(1, left / total);
      const length = 2 * Math.PI * 15;
      ring.style.strokeDasharray = `${length}`;
      ring.style.strokeDashoffset = `${length * (1 - fraction)}`;
      ring.classList.toggle("late", fraction < 0.25);
    }
    this.frame = requestAnimationFrame(() => this.tick());
  }

  async record() {
    return api(`/api/tables/${encodeURIComponent(this.tableId)}/record`);
  }
}

// The ends after a play (the same geometry the server reports in each action's `ends`).
function endsAfter(ends, play) {
  const [a, b] = parseTile(play.tile);
  if (!play.side) return [Math.max(a, b), Math.min(a, b)];
  if (play.side === "left") return [a + b - ends[0], ends[1]];
  return [ends[0], a + b - ends[1]];
}

export function button(label, onClick, kind = "") {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (kind) element.className = kind;
  element.addEventListener("click", onClick);
  return element;
}

export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export { svg };
