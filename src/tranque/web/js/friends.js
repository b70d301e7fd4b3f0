// Friends (docs/protocol.md, «Friends and blocks»): the page #/amigos (add by name, requests
// received and sent, friends with their online dot and table, blocks), the notices the
// server sends as they arrive, and the table's «Invitar a un amigo» for a seated player.
// The server decides everything shown here: who is online, which table may be shown.

import { t, serverMessage, currentLang } from "./i18n.js";
import { api } from "./api.js";
import { el, button } from "./dom.js";
import { noticeView } from "./tournaments_format.js";
import { notifyElsewhere } from "./notify.js";

const NOTICE_TEXT = {
  friend_request: "fr_notice_request",
  friend_accepted: "fr_notice_accepted",
  invite: "fr_notice_invite",
  friend_online: "fr_notice_online",
  friend_offline: "fr_notice_offline",
};
const NOTICE_SECONDS = { friend_online: 6, friend_offline: 6, friend_accepted: 8 }; // those with a button stay until closed
// Requests and invitations fold into one card per kind: «ana y 3 más te enviaron solicitud de
// amistad», however many arrive, rather than a stack that covers the page.
const FOLDED_TEXT = { friend_request: "fr_notice_requests", invite: "fr_notice_invites" };
const INVITABLE = new Set(["public", "private"]);

const person = (name) => encodeURIComponent(name);

function when(at) {
  return new Date(at * 1000).toLocaleDateString(currentLang() === "en" ? "en-GB" : "es-CO", { day: "numeric", month: "short" });
}

// One form: a name field and its button.
function nameForm(id, label, action, onSubmit) {
  const input = el("input", { id, name: "name", autocomplete: "off", maxlength: 24, required: true });
  const submit = el("button", { type: "submit", class: "primary", text: action });
  const form = el("form", { class: "friend-form" }, el("label", { for: id, text: label }), el("div", { class: "friend-form-row" }, input, submit));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    submit.disabled = true;
    try {
      if (await onSubmit(name)) input.value = "";
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function listSection(className, title, empty, rows) {
  const list = el("ul", { class: "friend-list" });
  if (!rows.length) list.append(el("li", { class: "note", text: empty }));
  else list.append(...rows);
  return el("section", { class: `friends-part ${className}` }, el("h2", { text: title }), list);
}

function row(name, detail, ...actions) {
  return el("li", { class: "friend-row", "data-name": name }, el("span", { class: "friend-name" }, el("strong", { text: name }), detail), el("span", { class: "friend-actions" }, ...actions));
}

// What a friend's table looks like in the list: «Ver mesa» to a table one may open.
function tableNote(table) {
  if (!table) return null;
  const doing = t(table.phase === "waiting" ? "fr_at_waiting" : "fr_at_playing");
  if (table.kind === "quick") return el("span", { class: "note friend-table", text: ` · ${t("fr_at_quick")}` });
  return el("span", { class: "note friend-table" }, ` · ${doing} · `, el("a", { class: "watch-table", href: `#/mesa/${encodeURIComponent(table.table_id)}`, text: t("fr_watch") }));
}

export function friendsScreen(app) {
  const page = el("div", { class: "friends-page card" }, el("h1", { text: t("fr_title") }));
  const body = el("div", { class: "friends-body", "aria-live": "polite" });
  const change = async (path, method, body, done) => {
    try {
      const lists = await api(path, body, method);
      draw(lists);
      if (done) app.toast(done(lists));
      return true;
    } catch (error) {
      app.toast(serverMessage(error));
      return false;
    }
  };
  const add = nameForm("friend-name", t("fr_add_label"), t("fr_add"), (name) =>
    change("/api/friends", "POST", { name }, (lists) =>
      t(lists.friends.some((f) => f.name.toLowerCase() === name.toLowerCase()) ? "fr_now_friends" : "fr_sent", { name })));
  const block = nameForm("block-name", t("fr_block_label"), t("fr_block"), (name) => change("/api/blocks", "POST", { name }));
  const blockOne = (name) => {
    if (window.confirm(t("fr_confirm_block", { name }))) change("/api/blocks", "POST", { name });
  };

  function draw(lists) {
    const incoming = lists.incoming.map((r) =>
      row(r.name, el("span", { class: "note", text: ` · ${t("fr_since", { date: when(r.at) })}` }),
        button(t("fr_accept"), () => change(`/api/friends/${person(r.name)}/accept`, "POST", {}), "primary accept"),
        button(t("fr_decline"), () => change(`/api/friends/${person(r.name)}`, "DELETE", {}), "decline"),
        button(t("fr_block"), () => blockOne(r.name), "link block")));
    const outgoing = lists.outgoing.map((r) =>
      row(r.name, el("span", { class: "note", text: ` · ${t("fr_since", { date: when(r.at) })}` }),
        button(t("fr_cancel"), () => change(`/api/friends/${person(r.name)}`, "DELETE", {}), "cancel-request")));
    const friends = lists.friends.map((f) => {
      const dot = el("span", { class: `presence-dot${f.online ? " online" : ""}`, role: "img", "aria-label": t(f.online ? "fr_online" : "fr_offline"), title: t(f.online ? "fr_online" : "fr_offline") });
      const item = row(f.name, tableNote(f.table),
        button(t("fr_remove"), () => window.confirm(t("fr_confirm_remove", { name: f.name })) && change(`/api/friends/${person(f.name)}`, "DELETE", {}), "remove"),
        button(t("fr_block"), () => blockOne(f.name), "link block"));
      item.querySelector(".friend-name").prepend(dot);
      item.classList.toggle("online", f.online);
      return item;
    });
    const blocked = lists.blocked.map((b) => row(b.name, null, button(t("fr_unblock"), () => change(`/api/blocks/${person(b.name)}`, "DELETE", {}), "unblock")));
    body.replaceChildren(
      listSection("incoming", t("fr_incoming"), t("fr_none_incoming"), incoming),
      listSection("friends", t("fr_friends"), t("fr_none_friends"), friends),
      listSection("outgoing", t("fr_outgoing"), t("fr_none_outgoing"), outgoing),
      listSection("blocked", t("fr_blocked"), t("fr_none_blocked"), blocked),
      el("p", { class: "note", text: t("fr_block_hint") }),
      block,
    );
  }

  const refresh = () => api("/api/friends").then(draw, (error) => app.toast(serverMessage(error)));
  page.append(add, body);
  page.refresh = refresh; // a notice while the page is open brings the lists up to date
  refresh();
  return page;
}

// The «Amigos» link of the header, for a logged-in player.
// Notices, and the table's invite control. One per app.
export class FriendsUi {
  constructor(app) {
    this.app = app;
    this.box = el("section", { id: "notices", class: "notices", "aria-label": t("fr_notices"), "aria-live": "polite" });
    document.body.append(this.box);
    this.invite = null; // the control on the table page, while one is shown
    this.folded = new Map(); // kind → the card shown for it, its senders (latest last) and latest notice
  }

  notice(message) {
    if (!NOTICE_TEXT[message.kind]) return;
    if (FOLDED_TEXT[message.kind]) this.fold(message);
    else this.card(message, t(NOTICE_TEXT[message.kind], { name: message.from }));
    if (message.kind === "invite") {
      const invite = { title: t("al_notify_invite_title"), body: t(NOTICE_TEXT.invite, { name: message.from }), tag: `invite-${message.table_id}` };
      const code = (message.path || "").match(/[?&]invite=([^&#]+)/);
      const hash = code ? `#/unirse/${code[1]}` : `#/mesa/${encodeURIComponent(message.table_id)}`;
      notifyElsewhere({ ...invite, hash, open: () => this.open(message) });
    }
    const page = this.app.root.querySelector(".friends-page");
    if (page && page.refresh) page.refresh();
  }

  // A tournament's news (docs/protocol.md, «Tournaments»: {"type": "tournament", "event", ...}):
  // its card, with «Ir a mi mesa» when a table waits for this player and «Ver torneo»; an open
  // tournament page is brought up to date. A card for the same tournament replaces the last.
  tournament(message) {
    const view = noticeView(message);
    const id = String(message.tournament || "");
    for (const old of this.box.querySelectorAll(".notice-tournament")) if (old.dataset.tournament === id) old.remove();
    const card = el("div", { class: `notice notice-tournament notice-tournament-${message.event || "other"}`, role: "status", "data-tournament": id }, el("p", { text: t(view.key, view.params) }));
    const close = () => card.remove();
    const actions = el("div", { class: "actions" });
    if (view.table) {
      const table = view.table;
      card.dataset.table = table;
      actions.append(button(t("tn_go_table"), () => (close(), this.app.playAt(table)), "primary go-my-table"));
    }
    actions.append(button(t("tn_see"), () => (close(), this.app.go(view.hash)), view.table ? "see-tournament" : "primary see-tournament"));
    actions.append(button(t("fr_close"), close, "link close-notice"));
    card.append(actions);
    this.box.append(card);
    const page = this.app.root.querySelector(".tournament-page");
    if (page && page.refresh && page.dataset.tournament === id) page.refresh();
    if (message.event === "starting" || view.table) {
      const go = () => (close(), view.table ? this.app.playAt(view.table) : this.app.go(view.hash));
      const title = t(message.event === "starting" ? "al_notify_tournament_title" : "al_notify_tournament_round_title");
      notifyElsewhere({ title, body: t(view.key, view.params), tag: `tournament-${id}`, hash: view.hash, open: go });
    }
  }

  // The table a tournament notice offered is open now: its card has done its job.
  tableOpened(tableId) {
    for (const card of this.box.querySelectorAll(".notice-tournament")) if (card.dataset.table === tableId) card.remove();
  }

  // A new card for `message`; `latest()` is the notice its button follows (a folded card's newest).
  card(message, text, latest = () => message, onClose = () => {}) {
    const card = el("div", { class: `notice notice-${message.kind}`, role: "status" }, el("p", { text }));
    const close = () => (card.remove(), onClose());
    const actions = el("div", { class: "actions" });
    if (message.kind === "invite") actions.append(button(t("fr_go_table"), () => (close(), this.open(latest())), "primary go-table"));
    if (message.kind === "friend_request") actions.append(button(t("fr_see"), () => (close(), this.app.go("#/amigos")), "primary see-request"));
    actions.append(button(t("fr_close"), close, "link close-notice"));
    card.append(actions);
    this.box.append(card);
    if (NOTICE_SECONDS[message.kind]) setTimeout(close, NOTICE_SECONDS[message.kind] * 1000);
    return card;
  }

  // A request or an invitation: into the card of its kind if one is shown, counted once per sender.
  fold(message) {
    const kind = message.kind;
    let shown = this.folded.get(kind);
    if (!shown) {
      shown = { senders: [], latest: message };
      shown.card = this.card(message, "", () => shown.latest, () => this.folded.delete(kind));
      this.folded.set(kind, shown);
    }
    shown.latest = message;
    shown.senders = [...shown.senders.filter((name) => name !== message.from), message.from];
    const others = shown.senders.length - 1;
    const text = others ? t(FOLDED_TEXT[kind], { name: message.from, count: others }) : t(NOTICE_TEXT[kind], { name: message.from });
    shown.card.querySelector("p").textContent = text;
    shown.card.dataset.count = String(shown.senders.length);
    const go = shown.card.querySelector(".go-table");
    if (go) go.textContent = others ? t("fr_go_table_of", { name: message.from }) : t("fr_go_table");
  }

  // An invitation's table: a private one through its invitation; a public one by sitting down
  // if a seat is free, else to watch.
  async open(message) {
    const path = message.path || "";
    const invite = path.match(/[?&]invite=([^&#]+)/);
    if (invite) return this.app.go(`#/unirse/${invite[1]}`);
    const watch = `#/mesa/${encodeURIComponent(message.table_id)}`;
    try {
      const seated = await this.app.socket.request({ type: "sit", table: message.table_id });
      this.app.remember(seated.table, seated.seat, seated.token, "public");
    } catch {
      // started, full, or already seated there: the table's page shows it all the same
    }
    this.app.go(watch);
  }

  // After every table message (and with null on leaving): the control shows only to a
  // logged-in player seated at a public or private table waiting for players (once the game
  // is on, nobody else may sit), inside the table's waiting card, so it covers nothing.
  tableChanged(table) {
    const state = table && table.state;
    const seated = Boolean(this.app.user && state && table.synced && table.seat !== null && table.seat !== undefined);
    const card = seated && INVITABLE.has(state.kind) && state.phase === "waiting" ? this.app.root.querySelector(".table-screen .host-panel") : null;
    if (!card) {
      if (this.invite) this.invite.remove();
      this.invite = null;
      return;
    }
    if (!this.invite || this.invite.dataset.table !== table.tableId) {
      if (this.invite) this.invite.remove();
      this.invite = this.inviteControl(table.tableId);
    }
    if (this.invite.parentNode !== card) card.append(this.invite);
  }

  inviteControl(tableId) {
    const list = el("ul", { class: "invite-friends-list" });
    const panel = el("div", { class: "invite-friends-panel", hidden: true }, el("h2", { text: t("fr_invite_title") }), list);
    const toggle = button(t("fr_invite"), async () => {
      if (!panel.hidden) {
        panel.hidden = true;
        toggle.setAttribute("aria-expanded", "false");
        return;
      }
      toggle.setAttribute("aria-expanded", "true");
      try {
        const lists = await api("/api/friends");
        const online = lists.friends.filter((f) => f.online);
        list.replaceChildren(...(online.length ? online.map((f) => this.inviteRow(f.name, tableId)) : [el("li", { class: "note", text: t("fr_invite_nobody") })]));
        panel.hidden = false;
      } catch (error) {
        this.app.toast(serverMessage(error));
      }
    }, "invite-friend");
    toggle.setAttribute("aria-expanded", "false");
    return el("div", { class: "invite-friends", "data-table": tableId }, toggle, panel);
  }

  inviteRow(name, tableId) {
    const send = button(t("fr_invite_one"), async () => {
      send.disabled = true;
      try {
        const answer = await api(`/api/friends/${person(name)}/invite`, { table_id: tableId });
        this.app.toast(t(answer.sent ? "fr_invite_sent" : "fr_invite_offline", { name }));
      } catch (error) {
        this.app.toast(serverMessage(error));
      } finally {
        send.disabled = false;
      }
    }, "primary");
    return el("li", { class: "friend-row", "data-name": name }, el("strong", { text: name }), send);
  }
}
