// The table screen: folds the server's messages into a state (table_state.js), lets the
// views update the page in place from it (table_views.js), turns the player's taps, drags
// and keys (input.js) into requests, and runs the turn clock (clock.js).

import { withLevel } from "./bot_faces.js";
import { provisionalMark } from "./provisional.js";
import { t, phrase, tileLabel } from "./i18n.js";
import { renderLine } from "./line.js";
import { api } from "./api.js";
import { showRoundEnd, showGameEnd, showRematchVote, closeOverlay } from "./results.js";
import { DealBook } from "./fairness.js";
import { el, button, setText, place } from "./dom.js";
import { initialState, reduceSync, reduceEvent, reduceOptions, reduceHint, playsOf, canDo, isMyTurn, humanCount } from "./table_state.js";
import { headerHtml, Badge, Opponent, HandView, ToolsPanel, HintBar, EndsBar, describeAction, playedOf } from "./table_views.js";
import { canAskHint, currentHint, hintTarget, offersHints } from "./hint.js";
import { HostPanel } from "./host_panel.js";
import { attachHandInput } from "./input.js";
import { TurnClock } from "./clock.js";
import { TableAlerts, mountAlertSwitches } from "./alerts.js";
import { ratingLineText } from "./rating_view.js";
import { potText } from "./fichas_view.js";
import { placeToolsSheet } from "./tools_sheet.js";
import { AnnulBanner } from "./annul_vote.js";
import { sortedHand, nextSort } from "./hand_sort.js";
import { ChatPanel, ChatSettings } from "./talk.js";

const AIDS_KEY = "tranque.aids";
export const PLACES = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
  5: ["bottom", "right", "topright", "topleft", "left"],
  6: ["bottom", "bottomright", "topright", "top", "topleft", "bottomleft"],
};

export class TableView {
  constructor({ root, socket, tableId, seat, token, toast, onLeave, onWaiting = () => {}, watch = null, account = false }) {
    this.root = root;
    this.socket = socket;
    this.tableId = tableId;
    this.token = token;
    this.toast = toast;
    this.onLeave = onLeave;
    this.onWaiting = onWaiting;
    this.state = initialState({ you: seat });
    this.synced = false;
    this.handOrder = [];
    this.flipped = new Set();
    this.focusKey = null;
    this.choosing = null; // a tile that fits both ends, waiting for the end
    this.sentFor = null; // the turn an action was sent for: one per turn
    this.hintAsked = null; // the turn a «Pista» was asked for, until the server answers
    this.aids = { playable: true, ends: true, passes: true, ...JSON.parse(localStorage.getItem(AIDS_KEY) || "{}") };
    this.parts = null;
    this.clock = new TurnClock(root, () => this.state);
    this.alerts = new TableAlerts(this); // sounds, vibrations, notifications, the time-out line
    this.clock.onTick = (left, seat) => this.alerts.tick(left, seat);
    this.deals = new DealBook(); // each round's commitment, for this browser's own check of the deal
    this.watch = watch; // the watching link's code (#/mesa/ID?ver=CODE), for a spectator's hello
    this.chatSettings = new ChatSettings(); // the chat's mutes and off switch (talk.js)
    this.chatSettings.load(account).then(() => this.parts && this.render());
    socket.resume = () => this.hello();
  }

  get seat() {
    return this.state.you;
  }

  hello() {
    const message = { type: "hello", table: this.tableId };
    if (this.token) message.token = this.token;
    else if (this.watch) message.watch = this.watch;
    if (this.synced) message.last_seq = this.state.seq;
    return message;
  }

  start() {
    this.root.replaceChildren(el("div", { class: "table-screen", "aria-busy": "true" }));
    this.socket.request(this.hello()).catch((error) => this.fail(error));
    this.clock.start();
  }

  // The server waits for its database: the turn clock stands still (a full new turn follows).
  setWaiting(waiting) {
    this.clock.paused = waiting;
    this.sentFor = null; // a move refused meanwhile may be made again
  }

  stop() {
    this.clock.stop();
    if (this.resizing) this.resizing.disconnect();
    if (this.detachInput) this.detachInput();
    this.socket.resume = null;
    closeOverlay();
  }

  fail(error) {
    if (error && error.code === "offline") return;
    if (error && error.code === "unavailable") {
      this.onWaiting(true); // the banner says it; the table goes on by itself
      if (!this.synced) setTimeout(() => this.send(this.hello()), 2000); // a hello refused: ask again
      return;
    }
    this.toast((error && error.message) || t("error_generic"));
    if (error && ["bad_token", "no_such_table", "private", "no_spectators"].includes(error.code)) {
      localStorage.removeItem(`tranque.seat.${this.tableId}`);
      this.onLeave();
    }
  }

  send(message) {
    return this.socket.request(message).catch((error) => this.fail(error));
  }

  // Messages from the server -----------------------------------------------------------

  handle(message) {
    const before = this.state;
    let after = before;
    if (message.type === "sync") {
      after = reduceSync(before, message);
      this.synced = true;
      this.deals.sync(message);
    } else if (message.type === "event") {
      if (!this.synced) return; // the snapshot this hello asked for is still to come
      after = reduceEvent(before, message);
      if (after.gap) {
        this.synced = false; // a gap: ask for a fresh snapshot
        this.send(this.hello());
        return;
      }
      this.deals.event(message);
      if (message.kind === "turn") this.clock.sync(message.at);
    } else if (message.type === "options") {
      after = reduceOptions(before, message);
    } else if (message.type === "pot" && this.synced) {
      after = { ...before, stake: message.stake, pot: message.pot }; // not an event: no seq
    } else {
      return;
    }
    if (after === before) return;
    this.state = after;
    this.react(before, after, message);
  }

  // What a new state changes beyond the views: the hand's order, overlays, toasts, the
  // aria-live announcement.
  react(before, after, message) {
    this.syncHand();
    const turnId = (s) => (s.turn ? s.turn.turn_id : null);
    if (turnId(before) !== turnId(after) || !after.options) this.choosing = null;
    if (message.type === "sync" || message.kind === "round_started") {
      closeOverlay();
      if (this.parts) setText(this.parts.announcer, ""); // nothing of the last hand is news
    }
    this.render();
    this.alerts.react(before, after, message);
    if (message.type === "sync" && after.lastRound && after.phase === "between_rounds") showRoundEnd(this, after.lastRound);
    if (message.type !== "event") return;
    const kind = message.kind;
    if (kind === "action") this.announce(after.announcements[after.announcements.length - 1], before.scores);
    else if (kind === "round_ended") showRoundEnd(this, after.lastRound);
    else if (kind === "game_ended") showGameEnd(this, after.gameEnd); // the last hand first (results.js)
    else if (kind === "rematch_vote") showRematchVote(this, message.data);
    else if (kind === "phrase" && after.lastPhrase && after.lastPhrase.seq === message.seq) {
      // (a blocked player's phrase comes as null and leaves no lastPhrase of its own: N12;
      // a player muted in this browser, a guest's mute, is skipped here)
      const said = after.lastPhrase;
      const info = after.seats[said.seat];
      if (!this.chatSettings.isMuted(info && info.name)) this.toast(`${this.nameOf(said.seat)}: ${phrase(said.phrase)}`);
    }
    else if (kind === "chat" && this.parts && this.parts.chat) {
      const line = after.chat[after.chat.length - 1];
      if (line && line.seq === message.seq && this.parts.chat.announces(after, line)) {
        this.toast(t("tk_said", { name: this.nameOf(line.seat), text: line.text }));
      }
    }
    else if (kind === "vote" && after.votes.length > before.votes.length) {
      this.toast(t("annul_proposed", { k: after.votes.length, n: humanCount(after) }));
    } else if (kind === "vote" && !message.data.agree && before.votes.length) {
      const seat = message.data.seat;
      this.toast(seat === after.you ? t("tb_annul_refused_you") : t("tb_annul_refused", { name: this.nameOf(seat) }));
    } else if (kind === "annulled") this.toast(t("annulled"));
  }

  announce(said, scoresBefore) {
    if (!said || !this.parts) return;
    const text = describeAction(this, said, scoresBefore);
    setText(this.parts.announcer, text);
    if (said.scores && said.type === "pass" && text.includes(":")) this.toast(text);
  }

  // The hand: its order and flips are the player's own business --------------------------

  syncHand() {
    const keys = this.state.hand;
    this.handOrder = this.handOrder.filter((k) => keys.includes(k)).concat(keys.filter((k) => !this.handOrder.includes(k)));
    for (const key of [...this.flipped]) if (!keys.includes(key)) this.flipped.delete(key);
  }

  choosingSides() {
    if (!this.choosing) return [];
    return playsOf(this.state, this.choosing).map((play) => play.side).filter(Boolean);
  }

  tapTile(key) {
    const s = this.state;
    if (!isMyTurn(s)) {
      this.flip(key);
      return;
    }
    const plays = playsOf(s, key);
    if (!plays.length) {
      this.toast(canDo(s, "draw") ? t("must_draw") : t("not_playable", { tile: key }));
      return;
    }
    if (plays.length === 1) {
      this.act(plays[0]);
      return;
    }
    this.choosing = this.choosing === key ? null : key;
    this.render();
  }

  dropOnEnd(key, side) {
    const s = this.state;
    if (!isMyTurn(s)) {
      this.toast(t("not_your_turn"));
      return;
    }
    const plays = playsOf(s, key);
    const sameEnds = s.ends && s.ends[0] === s.ends[1];
    const play = plays.find((action) => action.side === side) || (plays.length === 1 && (sameEnds || !plays[0].side) ? plays[0] : null);
    if (play) this.act(play);
    else this.toast(plays.length ? t("table_not_this_end") : t("not_playable", { tile: key }));
  }

  chooseEnd(side) {
    if (!this.choosing) {
      this.showEndCount(side);
      return;
    }
    const play = playsOf(this.state, this.choosing).find((action) => action.side === side);
    this.choosing = null;
    if (play) this.act(play);
    else this.render();
  }

  showEndCount(side) {
    const s = this.state;
    if (!this.aids.ends || !s.ends) return;
    const n = side === "left" ? s.ends[0] : s.ends[1];
    const played = s.played.filter((key) => key.split("-").map(Number).includes(n)).length;
    this.toast(playedOf(n, played, s.rules.set_max + 1));
  }

  draw() {
    const s = this.state;
    if (s.turn && s.turn.seat === s.you && canDo(s, "draw")) this.act({ type: "draw" });
  }

  flip(key) {
    if (this.flipped.has(key)) this.flipped.delete(key);
    else this.flipped.add(key);
    this.render();
  }

  move(key, delta) {
    const order = this.handOrder;
    if (!order.length) return;
    const index = Math.max(0, order.indexOf(key || this.focusKey));
    const next = Number.isFinite(delta) ? (index + delta + order.length) % order.length : delta < 0 ? 0 : order.length - 1;
    this.focusKey = order[next];
    this.render();
    this.parts.hand.focus(this.focusKey);
  }

  reorder(moved, before) {
    if (!moved || moved === before) return;
    const order = this.handOrder.filter((key) => key !== moved);
    order.splice(order.indexOf(before), 0, moved);
    this.handOrder = order;
    this.render();
  }

  // «Ordenar fichas»: by number, then by points, in turn; dragging still reorders after it.
  sortHand() {
    this.sorted = nextSort(this.sorted || null);
    this.handOrder = sortedHand(this.handOrder, this.sorted);
    this.render();
  }

  setAid(key, value) {
    this.aids = { ...this.aids, [key]: value };
    localStorage.setItem(AIDS_KEY, JSON.stringify(this.aids));
    this.render();
  }

  act(action) {
    const turn = this.state.turn;
    const turnId = turn ? turn.turn_id : null;
    if (turnId !== null && this.sentFor === turnId) return; // a double tap sends once
    this.sentFor = turnId;
    this.choosing = null;
    const options = this.state.options;
    this.state = { ...this.state, options: null };
    this.render();
    const message = { type: "act", action };
    if (turnId !== null) message.turn_id = turnId;
    this.socket.request(message).catch((error) => {
      // Refused: the same turn may be tried again, with its options back.
      this.sentFor = null;
      if (this.state.turn && this.state.turn.turn_id === turnId && !this.state.options) {
        this.state = { ...this.state, options };
        this.render();
      }
      this.fail(error);
    });
  }

  // «Pista»: the server's suggestion for this turn (practice tables). The `hint` event has
  // already put it in the state by the time the ack comes; the ack alone brings it again
  // when it was given before (another tab, before a reload).
  askHint() {
    const s = this.state;
    if (!canAskHint(s) || this.hintAsked !== null) return;
    const turnId = s.turn.turn_id;
    this.hintAsked = turnId;
    this.render();
    this.socket
      .request({ type: "hint" })
      .then((ack) => {
        this.state = reduceHint(this.state, ack);
      })
      .catch((error) => {
        if (error && error.code === "too_many_hints") this.state = { ...this.state, hintsLeft: 0 };
        this.fail(error);
      })
      .finally(() => {
        if (this.hintAsked === turnId) this.hintAsked = null;
        this.render();
      });
  }

  // Names ------------------------------------------------------------------------------

  nameOf(seat) {
    if (seat === this.state.you) return t("you");
    const info = this.state.seats[seat];
    if (info && info.kind === "empty") return t("empty_seat");
    return (info && info.name) || t("seat_n", { n: seat + 1 });
  }

  // A seat's name with a bot's level beside it ("Toño (Bota gorda)"), for the summaries.
  labelOf(seat) {
    const info = this.state.seats[seat];
    return seat !== this.state.you && info && info.kind === "bot" ? withLevel(this.nameOf(seat), info.bot_level) : this.nameOf(seat);
  }

  membersOf(team) {
    const half = this.state.rules.players / 2;
    return [team, team + half].map((s) => this.nameOf(s)).join(" + ");
  }

  teamName(team) {
    const rules = this.state.rules;
    if (rules.mode !== "pairs") return this.nameOf(team);
    return `${t("team")} ${"ABC"[team]} (${this.membersOf(team)})`;
  }

  humanCount() {
    return humanCount(this.state);
  }

  position(seat) {
    const n = this.state.rules.players;
    const me = this.state.you === null ? 0 : this.state.you;
    return PLACES[n][(seat - me + n) % n];
  }

  // Drawing ----------------------------------------------------------------------------

  // The screen's parts, built once per table (and again only if the seating changes).
  build() {
    const s = this.state;
    const key = `${s.rules.players}:${s.you}`;
    if (this.parts && this.parts.key === key) return this.parts;
    const parts = { key };
    parts.header = el("div", { class: "table-header" });
    parts.ratingText = el("span");
    parts.yours = el("span", { class: "rating-yours" }, el("span"), provisionalMark()); // «?»: provisional.js
    parts.rating = el("p", { class: "rating-line" }, parts.ratingText);
    parts.pot = el("p", { class: "pot-line" });
    parts.annul = new AnnulBanner(this);
    parts.host = new HostPanel({ onFill: () => this.send({ type: "fill_bots", level: "heuristic" }), toast: this.toast });
    parts.line = el("div", { class: "line", id: "line" });
    parts.ends = new EndsBar(this);
    parts.board = el("section", { class: "board", "aria-label": t("line_label") }, parts.line, parts.ends.root);
    parts.opponents = [];
    const others = el("div", { class: "opponents" });
    parts.grid = el("div", { class: "seats-grid" }, others, parts.board);
    for (let seat = 0; seat < s.rules.players; seat++) {
      if (seat === s.you) continue;
      const opponent = new Opponent(seat);
      parts.opponents.push(opponent);
      // A spectator sees seat 0 where a player sees themselves: below the board (N6).
      if (this.position(seat) === "bottom") parts.grid.append(opponent.root);
      else others.append(opponent.root);
    }
    parts.me = el("section", { class: "me" });
    if (s.you === null) {
      parts.me.append(el("p", { class: "note", text: t("spectating") }));
    } else {
      parts.badge = new Badge(s.you);
      parts.turnText = el("span", { class: "turn-text" });
      parts.pass = button(t("pass"), () => this.act({ type: "pass" }), "primary pass");
      parts.status = el("div", { class: "status-row" }, parts.badge.root, parts.turnText);
      parts.covered = el("div", { class: "covered" }, document.createTextNode(`${t("covered")} `),
        button(t("back_to_seat"), () => this.send({ type: "return" }), "primary"));
      parts.hand = new HandView();
      if (this.detachInput) this.detachInput();
      this.detachInput = attachHandInput(parts.hand.root, {
        tap: (tile) => this.tapTile(tile),
        flip: (tile) => this.flip(tile),
        focus: (tile) => (this.focusKey = tile),
        dropOnEnd: (tile, side) => this.dropOnEnd(tile, side),
        reorder: (moved, before) => this.reorder(moved, before),
        move: (tile, delta) => this.move(tile, delta),
        end: (side) => this.choosing && this.chooseEnd(side),
      });
      parts.tools = new ToolsPanel(this);
      parts.tools.root.addEventListener("toggle", () => this.placeTools());
      mountAlertSwitches(parts.tools.root.querySelector(".aids"), this.toast);
      parts.hint = new HintBar(this);
      parts.sort = button("", () => this.sortHand(), "sort-hand");
      parts.toolRow = el("div", { class: "tool-row" }, parts.tools.root, parts.sort);
      parts.me.append(parts.status, parts.hand.root, parts.toolRow);
      if (s.kind !== "practice") {
        // Table talk, below the hand in the page's flow: open, it covers nothing (talk.js).
        parts.chat = new ChatPanel(this, this.chatSettings);
        parts.me.append(parts.chat.root);
      }
    }
    parts.announcer = el("div", { class: "announcer visually-hidden", "aria-live": "polite", role: "status" });
    parts.screen = el("div", { class: `table-screen players-${s.rules.players}` }, parts.header, parts.rating, parts.pot, parts.grid, parts.me, parts.announcer);
    this.root.replaceChildren(parts.screen);
    if (this.resizing) this.resizing.disconnect();
    if (typeof ResizeObserver === "function") {
      // The board's box changes with the hand's rows and the window: lay the line out again.
      this.resizing = new ResizeObserver(() => this.parts && (this.renderLine(), this.placeTools()));
      this.resizing.observe(parts.line);
    }
    this.parts = parts;
    return parts;
  }

  render() {
    const s = this.state;
    if (!s.rules) return;
    const parts = this.build();
    const hadFocus = parts.hand && parts.hand.root.contains(document.activeElement);
    const html = headerHtml(this, s);
    if (parts.header.innerHTML !== html) parts.header.innerHTML = html;
    const rated = ratingLineText(this, s.rating);
    setText(parts.ratingText, rated);
    const yours = s.rating && s.rating.seats && s.you !== null ? s.rating.seats[s.you] : null;
    if (yours && yours.provisional) setText(parts.yours.firstChild, ` · ${t("prov_yours", { n: yours.rating })}`);
    place(parts.rating, parts.yours, Boolean(rated && yours && yours.provisional));
    parts.rating.hidden = !rated;
    const pot = potText(s.stake, s.pot); // «Bote: 100 fichas» at a staked table
    setText(parts.pot, pot);
    parts.pot.hidden = !pot;
    parts.rating.classList.toggle("rated", Boolean(s.rating && s.rating.rated));
    const waiting = s.phase === "waiting";
    const host = s.host; // the server's host panel (sync.host): the same after a reload
    place(parts.screen, parts.host.root, waiting, parts.grid);
    const voting = AnnulBanner.open(s);
    place(parts.screen, parts.annul.root, voting, parts.rating);
    if (voting) parts.annul.update(this, s);
    if (waiting) parts.host.update(s, host);
    parts.ends.update(this, s);
    for (const opponent of parts.opponents) opponent.update(this, s);
    if (parts.badge) {
      parts.badge.update(this, s);
      let text = "";
      if (this.choosing) text = t("choose_end");
      else if (s.turn && s.turn.seat !== s.you) text = t("turn_of", { name: this.nameOf(s.turn.seat) });
      else if (s.turn && !currentHint(s)) text = t("your_turn"); // a hint says it is your move
      setText(parts.turnText, text);
      place(parts.status, parts.pass, Boolean(s.turn && s.turn.seat === s.you && canDo(s, "pass")));
      const mine = s.seats[s.you] || {};
      place(parts.me, parts.covered, mine.state === "covered", parts.hand.root);
      parts.hand.update(this, s);
      parts.tools.update(s);
      if (parts.chat) parts.chat.update(s);
      const sortBy = nextSort(this.sorted || null);
      if (parts.sort.dataset.by !== sortBy) {
        // On a phone only «Ordenar» shows (the row stays one line); the rest is for readers.
        parts.sort.dataset.by = sortBy;
        parts.sort.replaceChildren(document.createTextNode(t("tb_sort")), el("span", { class: "sort-by", text: ` ${t(`tb_sort_${sortBy}`)}` }));
      }
      const hints = offersHints(s);
      place(parts.toolRow, parts.hint.button, hints, parts.tools.root);
      place(parts.status, parts.hint.text, hints, parts.turnText.nextSibling);
      if (hints) parts.hint.update(this, s);
      if (hadFocus && !parts.hand.root.contains(document.activeElement)) parts.hand.focus(this.handOrder[0]);
    }
    this.renderLine();
    this.placeTools();
  }

  // The open tools panel over the felt on a phone (tools_sheet.js); beside the table otherwise.
  placeTools() {
    const parts = this.parts;
    if (parts && parts.tools) placeToolsSheet(parts.tools.root, parts.board, parts.screen);
  }

  // The line as the server laid it out: boxes that never move, the ends on the board.
  renderLine() {
    const s = this.state;
    const sides = this.choosingSides();
    const target = hintTarget(s);
    renderLine(
      this.parts.line,
      { line: s.line, ends: s.lineEnds, choosing: sides.length ? sides : null, hinted: target && target.side },
      { onEnd: (side) => this.chooseEnd(side), describe: (box) => this.tileOnBoard(box), onTile: (box) => this.aids.ends && this.toast(this.tileOnBoard(box)) },
    );
  }

  // A tile on the board, and (with the «Contar» aid on) how many tiles of each of its numbers
  // are already out.
  tileOnBoard(box) {
    const s = this.state;
    const [a, b] = box.pips;
    if (!this.aids.ends) return tileLabel(a, b);
    const out = (n) => playedOf(n, s.line.filter((other) => other.pips.includes(n)).length, s.rules.set_max + 1);
    return [tileLabel(a, b), out(a), ...(a === b ? [] : [out(b)])].join(" ");
  }

  async record() {
    return api(`/api/tables/${encodeURIComponent(this.tableId)}/record`);
  }
}

