// Table talk (docs/protocol.md, «Table talk»): the chat panel of a seated player, its mutes
// and its off switch. Every line goes to everybody seated, never to one partner alone, and
// never to spectators, who get no panel. A panel that folds: on a phone it opens below the
// hand, in the page's flow, so it never covers the hand or the line.
//
// An account's mutes and off switch live on the server (GET/PUT /api/me/chat; the server
// itself then hides a muted player's lines and phrases); a guest's stay in this browser
// (mutes for the session, the switch for good).

import { t } from "./i18n.js";
import { api } from "./api.js";
import { el, button, setText, place } from "./dom.js";

export const CHAT_MAX = 200; // characters of a line (server/talk/lines.py)
const OFF_KEY = "tranque.chat.off";
const MUTED_KEY = "tranque.chat.muted";

// What this browser knows of its own chat settings: the account's, or a guest's.
export class ChatSettings {
  constructor(storage = localStorage, session = sessionStorage) {
    this.storage = storage;
    this.session = session;
    this.account = false;
    this.off = storage.getItem(OFF_KEY) === "1";
    this.muted = new Set(JSON.parse(session.getItem(MUTED_KEY) || "[]"));
  }

  // `account`: the page has an account logged in (a guest's settings are this browser's).
  async load(account) {
    if (!account) return this;
    try {
      this.apply(await api("/api/me/chat"));
      this.account = true;
    } catch {
      this.account = false; // not readable now: this browser's own for the while
    }
    return this;
  }

  apply(body) {
    this.off = Boolean(body.chat_off);
    this.muted = new Set(body.muted.map((row) => row.name.toLowerCase()));
  }

  isMuted(name) {
    return Boolean(name) && this.muted.has(String(name).toLowerCase());
  }

  async setOff(off) {
    if (this.account) this.apply(await api("/api/me/chat", { chat_off: off }, "PUT"));
    else {
      this.off = off;
      this.storage.setItem(OFF_KEY, off ? "1" : "0");
    }
  }

  async setMuted(name, muted) {
    if (this.account) {
      const path = muted ? "/api/me/chat/mutes" : `/api/me/chat/mutes/${encodeURIComponent(name)}`;
      this.apply(await api(path, muted ? { name } : {}, muted ? "POST" : "DELETE"));
    } else {
      if (muted) this.muted.add(name.toLowerCase());
      else this.muted.delete(name.toLowerCase());
      this.session.setItem(MUTED_KEY, JSON.stringify([...this.muted]));
    }
  }
}

export class ChatPanel {
  constructor(view, settings) {
    this.view = view;
    this.settings = settings;
    this.seen = 0; // the last line's seq read with the panel open
    this.summary = el("summary", { class: "chat-summary", text: t("tk_chat") });
    this.root = el("details", { class: "chat" }, this.summary);
    this.log = el("ol", { class: "chat-log", "aria-live": "polite" });
    this.empty = el("p", { class: "note chat-empty", text: t("tk_empty") });
    this.input = el("input", { type: "text", class: "chat-input", maxlength: CHAT_MAX, placeholder: t("tk_placeholder"), "aria-label": t("tk_placeholder"), enterkeyhint: "send" });
    this.sendButton = el("button", { type: "submit", class: "primary chat-send", text: t("tk_send") });
    this.form = el("form", { class: "chat-form" }, this.input, this.sendButton);
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    this.offBox = el("input", { type: "checkbox", class: "chat-off" });
    this.offBox.addEventListener("change", () => this.switchOff(this.offBox.checked));
    this.offNote = el("p", { class: "note chat-off-note", text: t("tk_off_note") });
    this.mutedNote = el("p", { class: "note chat-muted" });
    const switchRow = el("label", { class: "check chat-switch" }, this.offBox, document.createTextNode(` ${t("tk_off")}`));
    this.body = el("div", { class: "chat-body" }, el("p", { class: "note chat-note", text: t("tk_everyone") }), this.log, this.form, switchRow, this.mutedNote);
    this.root.append(this.body);
    this.root.addEventListener("toggle", () => {
      this.update(this.view.state);
      // Opened: the input in sight (on a phone the page scrolls; nothing is laid over the table).
      if (this.root.open && this.form.scrollIntoView) this.form.scrollIntoView({ block: "nearest" });
    });
    this.lines = new Map(); // seq → its <li>
  }

  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    this.sendButton.disabled = true;
    try {
      await this.view.socket.request({ type: "chat", text });
      this.input.value = "";
    } catch (error) {
      this.view.fail(error);
    } finally {
      this.sendButton.disabled = false;
    }
  }

  async switchOff(off) {
    try {
      await this.settings.setOff(off);
    } catch (error) {
      this.view.fail(error);
    }
    this.update(this.view.state);
  }

  async mute(name, muted) {
    try {
      await this.settings.setMuted(name, muted);
      this.view.toast(t(muted ? "tk_muted" : "tk_unmuted", { name }));
    } catch (error) {
      this.view.fail(error);
    }
    this.lines.clear();
    this.update(this.view.state);
  }

  async report(seq) {
    try {
      await api("/api/reports/chat", { table: this.view.tableId, seq });
      this.view.toast(t("tk_reported"));
    } catch (error) {
      this.view.fail(error);
    }
  }

  // The lines a player sees: none with the chat off, none of a muted player's.
  shown(state) {
    if (this.settings.off) return [];
    return state.chat.filter((line) => !this.settings.isMuted(this.nameAt(state, line.seat)));
  }

  nameAt(state, seat) {
    const info = state.seats[seat];
    return info && info.kind !== "empty" ? info.name : null;
  }

  line(state, line) {
    const name = line.seat === state.you ? t("you") : this.view.nameOf(line.seat);
    const item = el("li", { class: "chat-line", "data-seq": String(line.seq) }, el("strong", { text: `${name}: ` }), el("span", { class: "chat-text", text: line.text }));
    const other = this.nameAt(state, line.seat);
    if (line.seat !== state.you && other) {
      const actions = el("span", { class: "chat-actions" },
        button(t("tk_mute", { name: other }), () => this.mute(other, true), "link chat-mute"),
        button(t("tk_report"), () => this.report(line.seq), "link chat-report"));
      const more = button("⋯", () => (actions.hidden = !actions.hidden), "chat-more");
      more.setAttribute("aria-label", t("tk_more", { name: other }));
      actions.hidden = true;
      item.append(more, actions);
    }
    return item;
  }

  update(state) {
    const lines = this.shown(state);
    const items = lines.map((line) => this.lines.get(line.seq) || this.lines.set(line.seq, this.line(state, line)).get(line.seq));
    const keep = new Set(lines.map((line) => line.seq));
    for (const seq of [...this.lines.keys()]) if (!keep.has(seq)) this.lines.delete(seq);
    if (items.length !== this.log.children.length || items.some((item, index) => this.log.children[index] !== item)) {
      this.log.replaceChildren(...items);
      this.log.scrollTop = this.log.scrollHeight;
    }
    place(this.body, this.empty, !lines.length && !this.settings.off, this.log);
    place(this.body, this.offNote, this.settings.off, this.log);
    if (this.offBox.checked !== this.settings.off) this.offBox.checked = this.settings.off;
    const muted = [...this.settings.muted];
    setText(this.mutedNote, muted.length ? t("tk_muted_list", { names: muted.join(", ") }) : "");
    this.mutedNote.hidden = !muted.length;
    this.renderUnmute(muted);
    const last = lines.length ? lines[lines.length - 1].seq : 0;
    if (this.root.open) this.seen = Math.max(this.seen, last);
    const unread = lines.filter((line) => line.seq > this.seen && line.seat !== state.you).length;
    setText(this.summary, unread ? t("tk_chat_unread", { n: unread }) : t("tk_chat"));
    this.summary.classList.toggle("unread", unread > 0);
  }

  renderUnmute(muted) {
    const buttons = muted.map((name) => button(t("tk_unmute", { name }), () => this.mute(name, false), "link chat-unmute"));
    if (this.unmutes) this.unmutes.remove();
    this.unmutes = el("div", { class: "chat-unmutes" }, ...buttons);
    if (buttons.length) this.body.append(this.unmutes);
  }

  // Whether a new line should pop up as a toast (the panel is closed, the chat on, not muted).
  announces(state, line) {
    return !this.root.open && !this.settings.off && line.seat !== state.you && !this.settings.isMuted(this.nameAt(state, line.seat));
  }
}

// The host's words for the table's spectator policy (sync.host.spectators).
export function policyText(policy) {
  return t("sp_policy", { policy: t(`sp_${policy || "none"}`) });
}

